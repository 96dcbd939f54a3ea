//! `lib:PATH:SYMBOL`: a solver in a shared library with tdoku's C signature, run in a worker
//! process of its own.
//!
//! ```c
//! size_t SYMBOL(const char *puzzle, size_t limit, uint32_t configuration,
//!               char *solution, size_t *num_guesses);
//! ```
//!
//! `puzzle` is 81 characters (`1`-`9`, `.` for empty) or, for a pencilmark puzzle, 729 (the
//! digit `d` at `81·row + 9·col + d−1` if it is still possible there, else `.`), followed by
//! a NUL. The function returns the number of solutions it found, at most `limit`; it may write
//! a solution (81 characters `1`-`9`) to `solution` and its guess count to `num_guesses`.
//! `configuration` is `--config N` ([`Options::lib_config`], default 0).
//!
//! # What is called, and what is timed
//! tdoku fills `solution` only when `limit` is 1, so a count of one or more at limit 2 comes
//! without one. The worker zeroes the buffer before each call; when a count of one or more
//! comes back without 81 digits in it, the worker calls the function once more on that
//! puzzle with limit 1 to obtain a solution the verifier can check. That second call is inside
//! the timed region like the first (the answer depends on it, so a library cannot move its
//! work there), and its count is kept only to explain a failure.
//!
//! The worker measures itself: under the CPU clock the CPU time of its whole process, all
//! threads, since the previous batch (less its own reading and writing of the pipe), so work
//! done in a helper thread is billed; under the wall clock the wall-clock time from the
//! batch's first call to its last. Its start-up (the process, loading the library, the
//! library's initialisers) is measured apart and reported once, never billed
//! ([`Batch::startup`](super::Batch::startup)). A count of two or more has no second solution to show, as with `exec:`;
//! the judge settles what evidence cannot. `num_guesses` is set to `SIZE_MAX` before the
//! call: left so, the answer has no guess count (a library that does not count guesses shows
//! `n/a`, not 0).
//!
//! # Containment
//! The library never runs in this process. The backend starts a worker — the `sudobench`
//! binary in a hidden mode, `sudobench lib-worker` ([`Options::lib_worker`] names another
//! one) — which loads the library and reports whether it found the symbol (a build error
//! otherwise, so a wrong path or name stops the command before anything runs). Puzzles then
//! go over a pipe in batches of up to 64; the worker answers each batch with the time it
//! measured (above), which the backend returns with the answers, so the pipe is not in the
//! figure.
//!
//! Before each call the worker writes the call's number and its puzzle's to a page of memory
//! shared with the backend (no system call). The backend fails for good, and answers
//! `unknown` from then on ([`Batch::fault`](super::Batch::fault) says why, naming the
//! puzzle), when
//! - the worker dies: a crash (signal) or an exit inside the library, named with the puzzle
//!   whose call was running;
//! - a call runs longer than the timeout (`--timeout`, the same setting as `exec:`'s per
//!   answer): the worker is killed;
//! - an answer is impossible: a count above the limit, or a count of one or more with no
//!   solution even at limit 1.
//!
//! The answers of a batch in which the worker died or hung are all `unknown`. Wrong solutions
//! are not the backend's concern: the judge blames them on it like on any backend.
//!
//! # Using `lib:` from another program
//! The worker is the running executable unless [`Options::lib_worker`] says otherwise, and
//! only when that executable is a `sudobench` binary (its file name starts with `sudobench`):
//! no other program is ever handed the worker's arguments (a Python interpreter would run a
//! file named `lib-worker` in the current directory). A crate that builds `lib:` backends from
//! its own binary sets it to a `sudobench` binary (`cargo install` it, or
//! `env!("CARGO_BIN_EXE_sudobench")` in its tests), or to a program that enters
//! [`serve_args`] with [`Options::lib_worker_args`] before the worker's arguments (the Python
//! package runs its interpreter in isolated mode on its own extension module).

mod wire;
mod worker;

pub use worker::serve;

use super::pipe::{Fill, PipeReader};
use super::{Batch, BuildError, Clock, Limit, Options, Outcome, Solver, Spent, Stats};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::io::Write;
use std::num::NonZeroU32;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};
use wire::{Answer, Progress};

/// The hidden subcommand that runs a worker.
pub const WORKER_COMMAND: &str = "lib-worker";

/// How often the backend looks at the progress page while it waits.
const POLL: Duration = Duration::from_millis(20);

/// A running worker.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    output: PipeReader,
    progress: Progress,
    /// Puzzles sent over its life (the progress page numbers them the same way).
    sent: u64,
}

/// A worker is killed when it is dropped, however that happens (it has no children of its
/// own to take care of).
impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Worker {
    /// Waits until `n` bytes are pending, watching the progress page: `Err` with the reason
    /// when the worker ends first, or when no call started for longer than `timeout`.
    fn want(&mut self, n: usize, timeout: Duration) -> Result<(), Stop> {
        let mut calls = self.progress.calls();
        let mut since = Instant::now();
        while self.output.pending().len() < n {
            if self.output.is_full() {
                return Err(Stop::Garbage(
                    "an answer frame larger than the buffer".into(),
                ));
            }
            match self.output.fill(POLL.min(timeout)) {
                Ok(Fill::Data) => {}
                Ok(Fill::Eof) => return Err(Stop::Died),
                Err(e) => return Err(Stop::Garbage(format!("reading from it failed: {e}"))),
                Ok(Fill::Timeout) => {
                    let now = self.progress.calls();
                    if now != calls {
                        calls = now;
                        since = Instant::now();
                    } else if since.elapsed() >= timeout {
                        return Err(Stop::Hung);
                    }
                }
            }
        }
        Ok(())
    }

    /// How the worker ended, once its output closed: its exit status, waited for briefly
    /// (it is killed if it lingers).
    fn ending(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => break None,
            }
        };
        match status {
            Some(s) => match (s.signal(), s.code()) {
                (Some(sig), _) => format!("crashed: killed by signal {sig} ({})", signal_name(sig)),
                (None, Some(code)) => format!("the worker exited with status {code}"),
                (None, None) => format!("the worker ended ({s})"),
            },
            None => "the worker closed its output".to_string(),
        }
    }
}

/// Why a batch could not be answered.
enum Stop {
    /// The worker's output ended: it died.
    Died,
    /// No call started for longer than the timeout.
    Hung,
    /// It said something that is not the protocol.
    Garbage(String),
}

/// The name of a signal that ends a crashing process.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        31 => "SIGSYS",
        _ => "signal",
    }
}

/// The shared-library backend.
pub struct Plugin {
    timeout: Duration,
    worker: Option<Worker>,
    fault: Option<String>,
    /// Time the worker measured for the batches of the current call.
    measured: Spent,
    /// The worker's start-up, until it is reported with the first batch.
    startup: Option<Spent>,
    request: Vec<u8>,
}

impl Plugin {
    /// Parses `PATH:SYMBOL` (the part after `lib:`), starts the worker and waits for it to
    /// load the library and find the symbol.
    pub fn new(spec: &str, options: &Options) -> Result<Plugin, BuildError> {
        let name = format!("lib:{spec}");
        let invalid = |reason: String| BuildError::Invalid {
            name: name.clone(),
            reason,
        };
        let (path, symbol) = match spec.rsplit_once(':') {
            Some((p, s)) if !p.is_empty() && !s.is_empty() => (p, s),
            _ => {
                return Err(invalid(
                    "expected lib:PATH:SYMBOL (a shared library and a function in it)".into(),
                ))
            }
        };
        if !symbol
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(invalid(format!("{symbol:?} is not a C function name")));
        }
        // A file name without a slash would send the dynamic loader searching the system's
        // library path; a file that is there is meant.
        let path = if !path.contains('/') && Path::new(path).is_file() {
            format!("./{path}")
        } else {
            path.to_string()
        };
        let program = match &options.lib_worker {
            Some(p) => p.clone(),
            None => sudobench_exe().map_err(invalid)?,
        };
        let (worker, startup) = start(
            &program,
            &options.lib_worker_args,
            &path,
            symbol,
            options.lib_config,
            options.exec_timeout,
        )
        .map_err(invalid)?;
        Ok(Plugin {
            timeout: options.exec_timeout,
            worker: Some(worker),
            fault: None,
            measured: Spent::default(),
            startup: Some(startup),
            request: Vec::new(),
        })
    }

    fn fail(&mut self, message: String) {
        // Dropping the worker kills it.
        self.worker = None;
        self.fault = Some(message);
    }

    /// Sends one batch (at most [`wire::MAX_BATCH`] puzzles) and reads its answers.
    fn batch(
        &mut self,
        puzzles: &[Puzzle],
        limit: Limit,
        outcomes: &mut Vec<Outcome>,
    ) -> Result<(), String> {
        let Some(worker) = self.worker.as_mut() else {
            return Ok(());
        };
        self.request.clear();
        self.request.push(wire::SOLVE);
        self.request
            .extend_from_slice(&u64::from(limit.get()).to_le_bytes());
        self.request
            .extend_from_slice(&(puzzles.len() as u32).to_le_bytes());
        for p in puzzles {
            let text = p.to_string();
            self.request
                .extend_from_slice(&(text.len() as u16).to_le_bytes());
            self.request.extend_from_slice(text.as_bytes());
        }
        let first = worker.sent + 1;
        worker.sent += puzzles.len() as u64;
        // Which of this batch's puzzles the worker was in when it stopped.
        let culprit = |worker: &Worker| -> String {
            let p = worker.progress.puzzle();
            match p.checked_sub(first) {
                Some(i) if (i as usize) < puzzles.len() => {
                    format!("on puzzle {}", puzzles[i as usize])
                }
                _ => format!(
                    "between calls, in a batch of {} starting with puzzle {}",
                    puzzles.len(),
                    puzzles[0]
                ),
            }
        };
        let written = worker
            .stdin
            .write_all(&self.request)
            .and_then(|()| worker.stdin.flush());
        let n = puzzles.len();
        let mut stop = match written {
            Ok(()) => worker.want(wire::ANSWERS_HEADER, self.timeout).err(),
            Err(_) => Some(Stop::Died),
        };
        if stop.is_none() {
            let pending = worker.output.pending();
            let count = u32::from_le_bytes(pending[1..5].try_into().unwrap_or_default()) as usize;
            if pending[0] != wire::ANSWERS || count != n {
                return Err(format!(
                    "the worker answered out of protocol (frame {:#04x} for {count} puzzles, \
                     {n} sent), in a batch starting with puzzle {}",
                    pending[0], puzzles[0]
                ));
            }
            stop = worker
                .want(wire::ANSWERS_HEADER + n * wire::ANSWER_BYTES, self.timeout)
                .err();
        }
        match stop {
            None => {}
            Some(Stop::Died) => {
                let place = culprit(worker);
                let how = worker.ending();
                return Err(format!("{how} {place}"));
            }
            Some(Stop::Hung) => {
                let place = culprit(worker);
                return Err(format!(
                    "no answer within {:.1} s: a call did not return (killed) {place}",
                    self.timeout.as_secs_f64()
                ));
            }
            Some(Stop::Garbage(why)) => return Err(format!("{why} {}", culprit(worker))),
        }
        let frame = &worker.output.pending()[..wire::ANSWERS_HEADER + n * wire::ANSWER_BYTES];
        let nanos = |at: usize| {
            Duration::from_nanos(u64::from_le_bytes(
                frame[at..at + 8].try_into().unwrap_or_default(),
            ))
        };
        self.measured.cpu += nanos(5);
        self.measured.wall += nanos(13);
        let mut result = Ok(());
        for (i, record) in frame[wire::ANSWERS_HEADER..]
            .chunks_exact(wire::ANSWER_BYTES)
            .enumerate()
        {
            let answer = Answer::read(record).unwrap_or(Answer {
                count: u64::MAX,
                guesses: wire::NOT_COUNTED,
                recount: wire::NOT_CALLED,
                solution: [0; 81],
            });
            match outcome(&answer, limit) {
                Ok(o) => outcomes.push(o),
                Err(why) => {
                    result = Err(format!("{why}; on puzzle {}", puzzles[i]));
                    break;
                }
            }
        }
        let used = frame.len();
        worker.output.consume(used);
        result
    }
}

/// The running executable, when it is a `sudobench` binary (its file name starts with
/// `sudobench`): another program (a Python interpreter, a user's binary) must never be handed
/// the worker's arguments, which it could take for a file to run.
fn sudobench_exe() -> Result<std::path::PathBuf, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the sudobench binary to run: {e}"))?;
    let name = exe.file_name().map(|n| n.to_string_lossy().into_owned());
    match name {
        Some(n) if n.starts_with("sudobench") => Ok(exe),
        _ => Err(format!(
            "the running program {} is not the sudobench binary, so it cannot be the lib: \
             worker (from another program, set Options::lib_worker to a sudobench binary)",
            exe.display()
        )),
    }
}

/// Runs a worker from its command line as the backend writes it (`lib-worker --progress-fd
/// FD --config N -- PATH SYMBOL`, the first word optional), for a program that is not the
/// `sudobench` binary but is run as a worker through [`Options::lib_worker`] and
/// [`Options::lib_worker_args`]. Returns whether it ended normally, or why the arguments are
/// not a worker's.
pub fn serve_args<S: AsRef<str>>(args: &[S]) -> Result<bool, String> {
    let mut args = args.iter().map(AsRef::as_ref).peekable();
    if args.peek() == Some(&WORKER_COMMAND) {
        args.next();
    }
    let (mut fd, mut config, mut rest) = (None, 0u32, Vec::new());
    while let Some(arg) = args.next() {
        match arg {
            "--progress-fd" => fd = args.next().and_then(|v| v.parse::<i32>().ok()),
            "--config" => {
                config = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--config needs a whole number")?
            }
            "--" => rest.extend(args.by_ref()),
            other => rest.push(other),
        }
    }
    match (fd, rest.as_slice()) {
        (Some(fd), [path, symbol]) => Ok(serve(path, symbol, config, fd)),
        _ => Err("expected lib-worker --progress-fd FD [--config N] -- PATH SYMBOL".into()),
    }
}

/// Starts a worker and waits for its handshake; the worker and its start-up time.
fn start(
    program: &Path,
    prefix: &[std::ffi::OsString],
    path: &str,
    symbol: &str,
    config: u32,
    timeout: Duration,
) -> Result<(Worker, Spent), String> {
    let wall = Instant::now();
    let progress = Progress::create().map_err(|e| format!("cannot make the progress page: {e}"))?;
    let fd = progress.fd().as_raw_fd();
    let mut command = Command::new(program);
    command
        .args(prefix)
        .arg(WORKER_COMMAND)
        .arg("--progress-fd")
        .arg(fd.to_string())
        .arg("--config")
        .arg(config.to_string())
        .arg("--")
        .arg(path)
        .arg(symbol)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    // SAFETY: between fork and exec only an async-signal-safe system call is made: clearing
    // close-on-exec on the progress page's descriptor, so that the worker inherits it (and
    // no other child of this process does).
    unsafe {
        command.pre_exec(move || {
            let fd = std::os::fd::BorrowedFd::borrow_raw(fd);
            rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::empty())?;
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start the worker {}: {e}", program.display()))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("the worker has no pipes".into());
    };
    let mut worker = Worker {
        child,
        stdin,
        output: PipeReader::new(stdout),
        progress,
        sent: 0,
    };
    // On an error the worker is dropped, which kills it.
    let cpu = handshake(&mut worker, program, timeout)?;
    let wall = wall.elapsed();
    Ok((worker, Spent { cpu, wall }))
}

/// Reads the worker's first words: the library is loaded and the symbol found (with the CPU
/// time that took), or why not.
fn handshake(worker: &mut Worker, program: &Path, timeout: Duration) -> Result<Duration, String> {
    let not_a_worker = || {
        format!(
            "{} is not a sudobench lib worker (the lib: backend runs the sudobench binary; \
             from another program, set Options::lib_worker to one)",
            program.display()
        )
    };
    let magic = wire::MAGIC.len();
    let deadline = Instant::now() + timeout;
    loop {
        let pending = worker.output.pending();
        let seen = pending.len().min(magic);
        if pending[..seen] != wire::MAGIC[..seen] {
            return Err(not_a_worker());
        }
        match pending.get(magic) {
            Some(&wire::READY) if pending.len() >= magic + wire::READY_BYTES => {
                let at = magic + 1;
                let nanos = u64::from_le_bytes(pending[at..at + 8].try_into().unwrap_or_default());
                worker.output.consume(magic + wire::READY_BYTES);
                return Ok(Duration::from_nanos(nanos));
            }
            Some(&wire::READY) => {}
            Some(&wire::ERROR) if pending.len() >= magic + 5 => {
                let len = u32::from_le_bytes(
                    pending[magic + 1..magic + 5].try_into().unwrap_or_default(),
                ) as usize;
                if len > wire::MAX_MESSAGE {
                    return Err(not_a_worker());
                }
                if let Some(text) = pending.get(magic + 5..magic + 5 + len) {
                    return Err(String::from_utf8_lossy(text).into_owned());
                }
            }
            Some(&wire::ERROR) | None => {}
            Some(_) => return Err(not_a_worker()),
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match worker.output.fill(left) {
            Ok(Fill::Data) => {}
            Ok(Fill::Eof) if worker.output.pending().is_empty() => {
                let how = worker.ending();
                return Err(format!(
                    "{how} before it said a word: a crash while loading the library, or {} is \
                     not the sudobench binary (from another program, set Options::lib_worker \
                     to one)",
                    program.display()
                ));
            }
            Ok(Fill::Eof) => {
                let how = worker.ending();
                return Err(format!(
                    "the worker stopped while loading the library: {how}"
                ));
            }
            Ok(Fill::Timeout) => {
                return Err(format!(
                    "the worker did not load the library within {:.1} s",
                    timeout.as_secs_f64()
                ))
            }
            Err(e) => return Err(format!("reading from the worker failed: {e}")),
        }
    }
}

/// The outcome an answer stands for, or why it is not one.
fn outcome(answer: &Answer, limit: Limit) -> Result<Outcome, String> {
    let stats = Stats {
        guesses: (answer.guesses != wire::NOT_COUNTED).then_some(answer.guesses),
        ..Stats::default()
    };
    let count = answer.count;
    if count > u64::from(limit.get()) {
        return Err(format!(
            "impossible answer: {count} solutions at limit {limit}"
        ));
    }
    let Some(count) = NonZeroU32::new(count as u32) else {
        return Ok(Outcome::none(stats));
    };
    let grid = wire::filled(&answer.solution)
        .then(|| Grid::from_bytes(&answer.solution).ok())
        .flatten();
    match grid {
        Some(first) => Outcome::claimed(count.get(), limit, Some(first), None, stats)
            .map_err(|e| format!("impossible answer: {e}")),
        None if answer.recount == wire::NOT_CALLED => Err(format!(
            "impossible answer: {count} solution(s) but {}",
            written(&answer.solution)
        )),
        None => Err(format!(
            "impossible answer: {count} solution(s) but {}, not even when called again with \
             limit 1 (which returned {})",
            written(&answer.solution),
            answer.recount
        )),
    }
}

/// What a library wrote in place of a solution: nothing, or a grid that is not 81 digits 1-9
/// (naming the first cell that is not, a `0` or `.` among them).
fn written(solution: &[u8; 81]) -> String {
    if solution.iter().all(|&b| b == 0) {
        return "no solution written (81 digits 1-9)".to_string();
    }
    match solution.iter().position(|b| !(b'1'..=b'9').contains(b)) {
        Some(cell) => format!(
            "the solution written is not 81 digits 1-9: cell {} (row {}, column {}) holds {:?} \
             ({})",
            cell + 1,
            cell / 9 + 1,
            cell % 9 + 1,
            char::from(solution[cell]),
            String::from_utf8_lossy(solution)
                .chars()
                .map(|c| if c.is_ascii_graphic() { c } else { '?' })
                .collect::<String>()
        ),
        None => "no solution written (81 digits 1-9)".to_string(),
    }
}

impl Solver for Plugin {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        self.solve_batch(std::slice::from_ref(puzzle), limit, Clock::Wall)
            .outcomes
            .pop()
            .unwrap_or_else(|| Outcome::unknown(Stats::default()))
    }

    /// The answers with the time the worker measured by `clock` and its start-up with the
    /// first batch. The C signature has no way to give up, so every answer is decided.
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, clock: Clock) -> Batch {
        self.measured = Spent::default();
        let mut outcomes = Vec::with_capacity(puzzles.len());
        for chunk in puzzles.chunks(wire::MAX_BATCH) {
            let before = outcomes.len();
            if let Err(why) = self.batch(chunk, limit, &mut outcomes) {
                self.fail(why);
            }
            // Answers of a batch that failed are all unknown from the failed one on (all of
            // them when the worker died or hung).
            outcomes.resize(before + chunk.len(), Outcome::unknown(Stats::default()));
        }
        Batch {
            outcomes,
            time: self.measured.by(clock),
            startup: self.startup.take().map_or(Duration::ZERO, |s| s.by(clock)),
            fault: self.fault.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::written;

    #[test]
    fn a_grid_with_a_zero_is_named_not_called_missing() {
        assert!(written(&[0; 81]).contains("no solution written"));
        let mut grid = [b'5'; 81];
        grid[10] = b'0';
        let text = written(&grid);
        assert!(
            text.contains("cell 11 (row 2, column 2) holds '0'"),
            "{text}"
        );
    }
}
