//! What to run and how to ask it to search: [`EngineSpec`] and [`GoParams`].

use std::fmt;
use std::path::PathBuf;

/// How to start one engine: command, arguments, display name, working directory, UCI options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program: a path, or a name looked up in `PATH`.
    pub cmd: String,
    /// Command-line arguments.
    pub args: Vec<String>,
    /// Display name; `None` uses the engine's `id name`.
    pub name: Option<String>,
    /// Working directory of the process; `None` keeps the harness's.
    pub dir: Option<PathBuf>,
    /// `setoption name N value V` pairs sent after the handshake, in this order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// A spec for `cmd` with no arguments, options or name.
    pub fn new(cmd: impl Into<String>) -> EngineSpec {
        EngineSpec {
            cmd: cmd.into(),
            ..EngineSpec::default()
        }
    }

    /// Adds (or replaces) a UCI option.
    #[cfg(test)]
    pub fn option(mut self, name: &str, value: &str) -> EngineSpec {
        self.set_option(name, value);
        self
    }

    /// Sets a UCI option, replacing an earlier value of the same name (case-insensitive, like UCI).
    pub fn set_option(&mut self, name: &str, value: &str) {
        match self
            .options
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_owned(),
            None => self.options.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The name shown before the engine has said its own: `name`, else the command's file name.
    pub fn display_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        std::path::Path::new(&self.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.cmd.clone())
    }
}

/// The spec of an engine given on a command line: `engine` is the program followed by its
/// arguments ("sable" or "/path/engine -x"), `options` are `Name=Value` UCI options.
pub fn engine_spec(engine: &str, options: &[String]) -> Result<EngineSpec, SpecError> {
    let mut words = engine.split_whitespace().map(str::to_string);
    let cmd = words.next().ok_or(SpecError::EmptyCommand)?;
    let mut spec = EngineSpec::new(cmd);
    spec.args = words.collect();
    for opt in options {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| SpecError::BadOption(opt.clone()))?;
        spec.set_option(name.trim(), value.trim());
    }
    Ok(spec)
}

/// Why [`engine_spec`] refused its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// The engine's command line has no program.
    EmptyCommand,
    /// An option without `=` between its name and value.
    BadOption(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::EmptyCommand => write!(f, "--engine is empty"),
            SpecError::BadOption(opt) => write!(f, "--option '{opt}': expected Name=Value"),
        }
    }
}

impl std::error::Error for SpecError {}

/// The limits of one search, as sent in `go`. Times are in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's remaining clock.
    pub wtime: Option<u64>,
    /// Black's remaining clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search only this move (`searchmoves`): how a reference engine scores a given move.
    pub searchmove: Option<shakmaty::uci::UciMove>,
}

impl GoParams {
    /// The `go ...` command line.
    pub fn to_command(self) -> String {
        let mut s = String::from("go");
        let mut add = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                s.push(' ');
                s.push_str(k);
                s.push(' ');
                s.push_str(&v);
            }
        };
        add("wtime", self.wtime.map(|v| v.to_string()));
        add("btime", self.btime.map(|v| v.to_string()));
        add("winc", self.winc.map(|v| v.to_string()));
        add("binc", self.binc.map(|v| v.to_string()));
        add("movestogo", self.movestogo.map(|v| v.to_string()));
        add("movetime", self.movetime.map(|v| v.to_string()));
        add("nodes", self.nodes.map(|v| v.to_string()));
        add("depth", self.depth.map(|v| v.to_string()));
        add("searchmoves", self.searchmove.map(|m| m.to_string()));
        if self.infinite {
            s.push_str(" infinite");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_command_lists_given_limits_in_order() {
        let g = GoParams {
            wtime: Some(1000),
            btime: Some(900),
            winc: Some(10),
            binc: Some(10),
            ..GoParams::default()
        };
        assert_eq!(g.to_command(), "go wtime 1000 btime 900 winc 10 binc 10");
        let g = GoParams {
            nodes: Some(5000),
            depth: Some(7),
            ..GoParams::default()
        };
        assert_eq!(g.to_command(), "go nodes 5000 depth 7");
        assert_eq!(
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
            .to_command(),
            "go infinite"
        );
    }

    #[test]
    fn options_replace_case_insensitively_and_names_default_to_file_name() {
        let s = EngineSpec::new("/usr/games/stockfish")
            .option("Hash", "16")
            .option("hash", "32");
        assert_eq!(s.options, [("Hash".to_owned(), "32".to_owned())]);
        assert_eq!(s.display_name(), "stockfish");
    }
}
