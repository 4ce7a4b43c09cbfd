//! One running engine process and the UCI conversation with it.

use super::direction::Direction;
use super::log::{OutputTail, Tap, TrafficLog};
use super::option::UciOption;
use super::reader::{Next, Pipes};
use super::spec::{EngineSpec, GoParams};
use super::UciError;
use super::{BestMove, Info};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// A started engine that has completed the `uci`/`uciok` handshake and answered `isready`.
/// Dropping it kills the process; [`Engine::quit`] asks it to leave first.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// stdout and stderr, read with poll() by whichever thread is waiting on the engine.
    pipes: Pipes,
    name: String,
    id_name: Option<String>,
    options: Vec<UciOption>,
    exited: Option<String>,
    tap: Tap,
}

/// Why an engine could not be started and made ready: which engine, how it was run, what went
/// wrong, and the last lines it printed (stdout and stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartError {
    /// The engine's display name.
    pub engine: String,
    /// The command line that was run.
    pub command: String,
    /// What went wrong.
    pub error: UciError,
    /// Its last lines of output, oldest first.
    pub output: Vec<String>,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "engine {} (`{}`) failed to start: {}",
            self.engine, self.command, self.error
        )?;
        if self.output.is_empty() {
            write!(f, "; it printed nothing")
        } else {
            write!(f, "; its last output:")?;
            for line in &self.output {
                write!(f, "\n    {line}")?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for StartError {}

/// The command line of a spec, as a user would type it (arguments with spaces quoted).
pub fn command_line(spec: &EngineSpec) -> String {
    let mut words = vec![spec.cmd.clone()];
    for a in &spec.args {
        if a.is_empty() || a.contains(char::is_whitespace) {
            words.push(format!("'{a}'"));
        } else {
            words.push(a.clone());
        }
    }
    words.join(" ")
}

/// What a finished search returned: the move and the last known state of the search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The `bestmove` line, parsed.
    pub best: BestMove,
    /// All `info` lines of the search merged (latest depth, score, nodes, PV of the best line).
    pub info: Info,
    /// Wall time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
    /// The search's `info string` lines as the engine wrote them (for `-pgnout match_line=`).
    pub strings: Vec<String>,
}

/// At most this many `info string` lines of a search are kept (the last ones), each cut to
/// [`STRING_BYTES`]: an engine that floods them costs no memory.
const STRINGS_KEPT: usize = 16;
/// See [`STRINGS_KEPT`].
const STRING_BYTES: usize = 4096;

/// Keeps `line` among the search's last [`STRINGS_KEPT`] `info string` lines.
fn keep_string(strings: &mut Vec<String>, mut line: String) {
    if line.len() > STRING_BYTES {
        let mut cut = STRING_BYTES;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
    }
    if strings.len() == STRINGS_KEPT {
        strings.remove(0);
    }
    strings.push(line);
}

impl Engine {
    /// Starts the engine and runs the handshake: `uci` → `id`/`option` lines → `uciok`, then the
    /// spec's options with `setoption`, then `isready` → `readyok`. Each wait is bounded by
    /// `startup_timeout`.
    pub fn start(spec: &EngineSpec, startup_timeout: Duration) -> Result<Engine, StartError> {
        Engine::start_logged(spec, startup_timeout, None)
    }

    /// [`Engine::start`], writing every line to and from the engine into `log`.
    pub fn start_logged(
        spec: &EngineSpec,
        startup_timeout: Duration,
        log: Option<&TrafficLog>,
    ) -> Result<Engine, StartError> {
        Engine::start_pinned(spec, startup_timeout, log, &[])
    }

    /// [`Engine::start_logged`] with the process pinned to `cpus` from its first instruction
    /// (set between fork and exec, so every thread it starts inherits them); no pinning when
    /// `cpus` is empty.
    pub fn start_pinned(
        spec: &EngineSpec,
        startup_timeout: Duration,
        log: Option<&TrafficLog>,
        cpus: &[usize],
    ) -> Result<Engine, StartError> {
        let tail = OutputTail::default();
        let failed = |error: UciError| StartError {
            engine: spec.display_name(),
            command: command_line(spec),
            error,
            // The process is gone (or killed just now) and its pipes were drained.
            output: tail.lines(),
        };
        let mut engine = Engine::spawn(spec, &tail, log, cpus).map_err(failed)?;
        match engine.get_ready(spec, startup_timeout) {
            Ok(()) => Ok(engine),
            Err(e) => {
                drop(engine);
                Err(failed(e))
            }
        }
    }

    fn spawn(
        spec: &EngineSpec,
        tail: &OutputTail,
        log: Option<&TrafficLog>,
        cpus: &[usize],
    ) -> Result<Engine, UciError> {
        let mut cmd = Command::new(resolve(&spec.cmd));
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        die_with_parent(&mut cmd);
        if !cpus.is_empty() {
            pin(&mut cmd, cpus.to_vec());
        }
        let mut child = cmd.spawn().map_err(|e| UciError::Spawn {
            path: spec.cmd.clone(),
            cause: e.to_string(),
        })?;
        let tap = Tap {
            tail: tail.clone(),
            log: log.cloned(),
            name: spec.display_name(),
            pid: child.id(),
            recorder: Default::default(),
        };
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take();
        let pipes = match Pipes::new(stdout, stderr, Some(tap.clone())) {
            Ok(p) => p,
            Err(e) => {
                kill_group(&mut child);
                return Err(UciError::Spawn {
                    path: spec.cmd.clone(),
                    cause: format!("cannot read its output: {e}"),
                });
            }
        };
        Ok(Engine {
            child,
            stdin,
            pipes,
            name: spec.display_name(),
            id_name: None,
            options: Vec::new(),
            exited: None,
            tap,
        })
    }

    fn get_ready(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), UciError> {
        self.handshake(timeout)?;
        if spec.name.is_none() {
            if let Some(id) = &self.id_name {
                self.name = id.clone();
            }
        }
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.is_ready(timeout)
    }

    /// Attaches a game's flight recorder to every line to and from this engine (`None`
    /// detaches it).
    pub fn set_recorder(&mut self, recorder: Option<super::flight::FlightRecorder>) {
        self.tap.recorder.set(recorder);
    }

    /// The last lines the engine printed (stdout and stderr), oldest first.
    pub fn output_tail(&self) -> Vec<String> {
        self.tap.tail.lines()
    }

    /// A handle on the engine's last lines that outlives the engine (to read what a dying process
    /// still wrote).
    pub fn tail_handle(&self) -> OutputTail {
        self.tap.tail.clone()
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, "uciok")?;
            if line == "uciok" {
                return Ok(());
            } else if let Some(rest) = line.strip_prefix("id name ") {
                self.id_name = Some(rest.trim().to_owned());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                self.options.push(UciOption::parse(rest));
            }
        }
    }

    /// The display name: the spec's `name`, else the engine's `id name`, else the file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's own `id name`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Names of the options the engine declared during the handshake.
    pub fn declared_options(&self) -> Vec<&str> {
        self.options.iter().map(|o| o.name.as_str()).collect()
    }

    /// The declaration of option `name` (UCI option names are case-insensitive), if any.
    pub fn declared(&self, name: &str) -> Option<&UciOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Sends one raw command line.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        self.tap.record(Direction::Sent, line);
        // One write for the line and its end: the engine wakes once, and the pipe is unbuffered.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match self.stdin.write_all(&bytes) {
            Ok(()) => Ok(()),
            Err(e) => Err(UciError::Crashed(
                self.exit_status()
                    .unwrap_or_else(|| format!("stdin closed: {e}")),
            )),
        }
    }

    /// `ucinewgame`; follow it with [`Engine::is_ready`] before the first search, as UCI asks.
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.send("ucinewgame")
    }

    /// `position startpos|fen <fen> [moves ...]`; `fen == None` means the standard start position.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), UciError> {
        let mut cmd = match fen {
            None => String::from("position startpos"),
            Some(f) => format!("position fen {f}"),
        };
        if !moves.is_empty() {
            cmd.push_str(" moves");
            for m in moves {
                cmd.push(' ');
                cmd.push_str(m.as_ref());
            }
        }
        self.send(&cmd)
    }

    /// `isready`, waiting up to `timeout` for `readyok` (other lines are skipped).
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.next_line(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// Starts a search and waits up to `timeout` for `bestmove`, calling `on_info` with each
    /// well-formed `info` line. On timeout the search is left running: call [`Engine::stop`] or
    /// restart the engine.
    pub fn go(
        &mut self,
        params: &GoParams,
        timeout: Duration,
        mut on_info: impl FnMut(&Info),
    ) -> Result<SearchResult, UciError> {
        let start = Instant::now();
        self.send(&params.to_command())?;
        self.wait_bestmove(start, start + timeout, &mut on_info)
    }

    /// `stop`, then waits up to `timeout` for the `bestmove` that ends the search.
    pub fn stop(&mut self, timeout: Duration) -> Result<SearchResult, UciError> {
        let start = Instant::now();
        self.send("stop")?;
        self.wait_bestmove(start, start + timeout, &mut |_| {})
    }

    fn wait_bestmove(
        &mut self,
        start: Instant,
        deadline: Instant,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<SearchResult, UciError> {
        let mut info = Info::default();
        let mut strings = Vec::new();
        loop {
            let (line, read_at) = self.next_line_at(deadline, "bestmove")?;
            if line.starts_with("info") {
                if let Ok(i) = Info::parse(&line) {
                    info.merge(&i);
                    on_info(&i);
                }
                if line.starts_with("info string") {
                    keep_string(&mut strings, line);
                }
            } else if line.starts_with("bestmove") {
                let best = BestMove::parse(&line).map_err(|_| UciError::Protocol(line.clone()))?;
                return Ok(SearchResult {
                    best,
                    info,
                    elapsed: read_at.saturating_duration_since(start),
                    strings,
                });
            }
            // Anything else (debug chatter, garbage) is ignored, as other GUIs do.
        }
    }

    /// The next line before `deadline`; `what` names the awaited reply for the timeout error.
    fn next_line(&mut self, deadline: Instant, what: &str) -> Result<String, UciError> {
        self.next_line_at(deadline, what).map(|(l, _)| l)
    }

    /// Like [`Engine::next_line`], with the moment the line was read.
    fn next_line_at(
        &mut self,
        deadline: Instant,
        what: &str,
    ) -> Result<(String, Instant), UciError> {
        match self.pipes.next_line(deadline) {
            Next::Line(l, at) => Ok((l, at)),
            Next::Eof => {
                let status = self.wait_exit(Duration::from_millis(500));
                // Its last words on stderr, for the report.
                self.pipes.drain(LAST_WORDS);
                Err(UciError::Crashed(
                    status.unwrap_or_else(|| "closed its output".to_owned()),
                ))
            }
            Next::Timeout => Err(UciError::Timeout(what.to_owned())),
        }
    }

    /// The exit status if the process has ended.
    fn exit_status(&mut self) -> Option<String> {
        if self.exited.is_none() {
            if let Ok(Some(st)) = self.child.try_wait() {
                self.exited = Some(st.to_string());
            }
        }
        self.exited.clone()
    }

    fn wait_exit(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            if let Some(s) = self.exit_status() {
                return Some(s);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The process id.
    #[cfg(test)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    #[cfg(test)]
    pub fn is_alive(&mut self) -> bool {
        self.exit_status().is_none()
    }

    /// Sends `quit` and waits up to `grace` for the process to leave, then kills it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        if self.wait_exit(grace).is_none() {
            kill_group(&mut self.child);
        }
        // What it wrote on its way out goes to the tail (and the log); dropping then finds it gone.
        self.pipes.drain(LAST_WORDS);
    }
}

/// How long a dead or killed engine's pipes are read for its last lines. They close when the
/// process is gone, so this is only waited for when something else holds them open.
const LAST_WORDS: Duration = Duration::from_millis(300);

impl Drop for Engine {
    fn drop(&mut self) {
        if self.exit_status().is_none() {
            kill_group(&mut self.child);
            self.pipes.drain(LAST_WORDS);
        }
    }
}

/// Kills the engine and everything it started (it leads its own process group), then reaps it.
fn kill_group(child: &mut Child) {
    // SAFETY: a plain signal to our child's process group; the child is not yet reaped, so its
    // id (= the group's id) cannot have been reused.
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Keeps the engine out of the terminal's Ctrl-C (its own process group: the harness decides
/// when engines stop) and, on Linux, has the kernel kill it when the thread that started it dies,
/// so a harness killed with SIGKILL leaves no engine running, hung or not.
fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    // SAFETY: only async-signal-safe calls between fork and exec (prctl, getppid).
    unsafe {
        let parent = libc::getpid();
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The parent may have died before prctl took effect.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Pins the engine to `cpus` between fork and exec.
fn pin(cmd: &mut Command, cpus: Vec<usize>) {
    use std::os::unix::process::CommandExt;
    // SAFETY: set_this_thread only sets bits in a stack value and makes one system call.
    unsafe {
        cmd.pre_exec(move || super::cpus::set_this_thread(&cpus));
    }
}

/// A command with a path separator that exists relative to the current directory is made
/// absolute, so that `dir=` (the engine's working directory) does not change what is run.
fn resolve(cmd: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(cmd);
    if cmd.contains('/') && p.is_relative() && p.exists() {
        if let Ok(abs) = std::fs::canonicalize(p) {
            return abs;
        }
    }
    p.to_path_buf()
}
