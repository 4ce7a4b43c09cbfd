//! What to run and how to ask it to search: [`EngineSpec`] and [`GoParams`].

use std::fmt;
use std::path::PathBuf;

/// How to start one engine: command, arguments, display name, working directory, UCI options.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
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

/// The settings that describe an engine, in every command's `--engine` words (`harness match`
/// adds its search limits to them: `tournament::engine_args`). `proto` takes only `uci`.
pub const ENGINE_KEYS: [&str; 5] = ["cmd", "name", "dir", "args", "proto"];

/// The search limits of the match vocabulary (`tournament::engine_args` applies them): named
/// here so that a command that takes only an engine can say where its limit goes instead.
const MATCH_LIMIT_KEYS: [&str; 5] = ["tc", "st", "nodes", "depth", "timemargin"];

/// UCI options engines commonly declare, spelled as they declare them (UCI option names are
/// case-insensitive, but a suggestion should look like the engine's own).
const COMMON_OPTIONS: [&str; 12] = [
    "Hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "Move Overhead",
    "SyzygyPath",
    "EvalFile",
    "UCI_Chess960",
    "UCI_Elo",
    "UCI_LimitStrength",
    "Skill Level",
    "Contempt",
];

/// Applies one `key=value` word that describes the engine (`cmd=`, `name=`, `dir=`, `args=`,
/// `proto=uci`, `option.NAME=`) to `spec`; `false` when `key` is none of them.
pub fn apply_engine_word(spec: &mut EngineSpec, key: &str, value: &str) -> bool {
    match key {
        "cmd" => spec.cmd = value.to_owned(),
        "name" => spec.name = Some(value.to_owned()),
        "dir" => spec.dir = Some(value.into()),
        "args" => spec.args = value.split_ascii_whitespace().map(str::to_owned).collect(),
        "proto" if value == "uci" => {}
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => spec.set_option(name, value),
            _ => return false,
        },
    }
    true
}

/// `hash=16`: what the settings are (`settings`, as the command takes them) and the one probably
/// meant: a typo of a setting, or a UCI option without its `option.`.
pub fn unknown_setting(key: &str, value: &str, settings: &[&str]) -> String {
    let list: Vec<String> = settings
        .iter()
        .filter(|k| **k != "proto")
        .map(|k| format!("{k}="))
        .collect();
    let listed = format!(
        "The settings are {} and option.NAME=VALUE for any UCI option of the engine",
        list.join(", ")
    );
    if !settings.contains(&key) && MATCH_LIMIT_KEYS.contains(&key) {
        return format!(
            "`{key}={value}` is a search limit of `harness match`; this command takes its \
             limit as a flag of its own (--nodes, --depth, ...). {listed}"
        );
    }
    let guess = match crate::report::suggest::nearest(key, settings) {
        Some(setting) => format!("{setting}={value}"),
        None => {
            let option = COMMON_OPTIONS
                .iter()
                .find(|o| o.eq_ignore_ascii_case(key))
                .map_or(key, |o| *o);
            if option.contains(' ') {
                format!("\"option.{option}={value}\"")
            } else {
                format!("option.{option}={value}")
            }
        }
    };
    format!("unknown engine setting `{key}` (in `{key}={value}`); did you mean `{guess}`? {listed}")
}

/// Whether `word` is a `key=value` setting: a key of letters, digits, `_` and `-`, or
/// `option.` followed by any option name. A program such as `/opt/a=b/engine` or
/// `"engine --threads=2"` is not one.
fn is_setting(word: &str) -> bool {
    word.split_once('=').is_some_and(|(key, _)| {
        key.starts_with("option.")
            || (!key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    })
}

/// The engine a command runs over positions (`epd --engine`, `label --engine`, `suite-gen
/// --oracle`), from the words given after its flag, then `options` (`--option Name=Value`, which
/// win over the words' `option.NAME=`). The words are the match vocabulary, `cmd=PATH name=X
/// dir=D args="-x 1" option.Hash=16`, except that the first word may instead be the program
/// followed by its arguments, the older form (`"sable"`, `"/path/engine -x"`); that alias can be
/// followed by settings too. The engine's words end at the first word after the first that is no
/// `key=value` setting: that word and those after it are returned, for the command's own
/// positional arguments (clap gives every word after `--engine` to it).
pub fn engine_spec(
    words: &[String],
    options: &[String],
) -> Result<(EngineSpec, Vec<String>), SpecError> {
    let mut spec = EngineSpec::default();
    let mut rest = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if !is_setting(word) {
            if i > 0 {
                rest = words[i..].to_vec();
                break;
            }
            // The older form: the program and its arguments in one word.
            let mut parts = word.split_whitespace().map(str::to_owned);
            spec.cmd = parts.next().ok_or(SpecError::EmptyCommand)?;
            spec.args = parts.collect();
            continue;
        }
        let (key, value) = word.split_once('=').expect("is_setting found a `=`");
        if !apply_engine_word(&mut spec, key, value) {
            return Err(SpecError::UnknownSetting(unknown_setting(
                key,
                value,
                &ENGINE_KEYS,
            )));
        }
    }
    if spec.cmd.is_empty() {
        return Err(match words.is_empty() {
            true => SpecError::EmptyCommand,
            false => SpecError::NoCommand(words[..words.len() - rest.len()].join(" ")),
        });
    }
    for opt in options {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| SpecError::BadOption(opt.clone()))?;
        spec.set_option(name.trim(), value.trim());
    }
    Ok((spec, rest))
}

/// Why [`engine_spec`] refused its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// The engine's command line has no program.
    EmptyCommand,
    /// Settings without `cmd=` or a program (the words given).
    NoCommand(String),
    /// A `key=value` word whose key is no engine setting (the message says which are).
    UnknownSetting(String),
    /// An option without `=` between its name and value.
    BadOption(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::EmptyCommand => write!(f, "the engine's command is empty"),
            SpecError::NoCommand(words) => write!(
                f,
                "engine `{words}` has no cmd= (give cmd=PATH, or the program as the first word)"
            ),
            SpecError::UnknownSetting(message) => f.write_str(message),
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

    fn w(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn both_forms_of_an_engine_give_the_same_spec() {
        let old = engine_spec(&w(&["/opt/e -x 1"]), &w(&["Hash=16", "Move Overhead = 50"]));
        let new = engine_spec(
            &w(&[
                "cmd=/opt/e",
                "args=-x 1",
                "option.Hash=16",
                "option.Move Overhead=50",
            ]),
            &[],
        );
        assert_eq!(old, new);
        let (spec, rest) = old.unwrap();
        assert_eq!(
            (spec.cmd.as_str(), &spec.args[..]),
            ("/opt/e", &w(&["-x", "1"])[..])
        );
        assert!(rest.is_empty());
        // The older form's program followed by settings.
        let mixed = engine_spec(&w(&["/opt/e -x 1", "option.Hash=16", "name=e"]), &[]).unwrap();
        assert_eq!(mixed.0.name.as_deref(), Some("e"));
        assert_eq!(mixed.0.options, [("Hash".to_owned(), "16".to_owned())]);
        // --option wins over option.NAME= (it comes after).
        let (spec, _) = engine_spec(&w(&["cmd=e", "option.Hash=8"]), &w(&["hash=32"])).unwrap();
        assert_eq!(spec.options, [("Hash".to_owned(), "32".to_owned())]);
        let (spec, _) = engine_spec(&w(&["cmd=e", "dir=/tmp", "proto=uci"]), &[]).unwrap();
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
    }

    #[test]
    fn programs_with_an_equals_sign_are_programs_and_later_words_are_handed_back() {
        let (spec, _) = engine_spec(&w(&["/opt/a=b/engine"]), &[]).unwrap();
        assert_eq!(spec.cmd, "/opt/a=b/engine");
        let (spec, _) = engine_spec(&w(&["engine --threads=2"]), &[]).unwrap();
        assert_eq!(
            (spec.cmd.as_str(), &spec.args[..]),
            ("engine", &w(&["--threads=2"])[..])
        );
        // What clap gave the engine after its words: the command's files.
        let (spec, rest) =
            engine_spec(&w(&["cmd=e", "option.Hash=1", "a.epd", "b=c"]), &[]).unwrap();
        assert_eq!((spec.cmd.as_str(), rest), ("e", w(&["a.epd", "b=c"])));
        let (_, rest) = engine_spec(&w(&["./e -x", "a.epd"]), &[]).unwrap();
        assert_eq!(rest, w(&["a.epd"]));
    }

    #[test]
    fn bad_engine_words_say_what_is_wrong_and_what_was_meant() {
        let err = |words: &[&str], options: &[&str]| {
            engine_spec(&w(words), &w(options)).unwrap_err().to_string()
        };
        let e = err(&["cmd=e", "hash=16"], &[]);
        assert!(e.contains("unknown engine setting `hash`"), "{e}");
        assert!(e.contains("did you mean `option.Hash=16`?"), "{e}");
        assert!(
            e.contains("cmd=, name=, dir=, args= and option.NAME=VALUE"),
            "{e}"
        );
        let e = err(&["cmd=e", "nam=x"], &[]);
        assert!(e.contains("did you mean `name=x`?"), "{e}");
        let e = err(&["cmd=e", "nodes=500"], &[]);
        assert!(
            e.contains("`nodes=500` is a search limit of `harness match`"),
            "{e}"
        );
        assert!(e.contains("--nodes"), "{e}");
        let e = err(&["name=x", "option.Hash=16"], &[]);
        assert!(
            e.contains("engine `name=x option.Hash=16` has no cmd="),
            "{e}"
        );
        assert_eq!(err(&[""], &[]), "the engine's command is empty");
        assert_eq!(err(&[], &[]), "the engine's command is empty");
        let e = err(&["e"], &["Hash"]);
        assert_eq!(e, "--option 'Hash': expected Name=Value");
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
