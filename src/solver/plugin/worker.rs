//! The worker process of a `lib:` backend: `sudobench lib-worker` loads the library, then
//! answers batches of puzzles read from its standard input, timing the library's calls
//! itself (its whole process's CPU time, all threads, and the wall-clock time of the calls;
//! see [`super::wire`]). Run by the backend, never by hand.

use super::wire::{self, Answer, Progress};
use crate::util::{process_cpu_time, thread_cpu_time};
use std::ffi::c_char;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

/// tdoku's signature: `size_t solve(const char *puzzle, size_t limit, uint32_t configuration,
/// char *solution, size_t *num_guesses)`.
type SolveFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

/// Bytes per puzzle in the input buffer: 729 characters, the NUL the library looks for after
/// the 81st or the 729th (tdoku tells a pencilmark line by `input[81]`), and room for
/// libraries that read whole 16-byte blocks.
const STRIDE: usize = 752;

/// Runs the worker: loads `path`, looks up `symbol`, tells the backend whether that worked,
/// then serves batches until its input ends. `progress_fd` is the backend's memory file, in
/// which the worker marks each call it makes. Returns whether it ended normally. Nothing is written to standard
/// output but the protocol: the library's own output on it goes to standard error.
pub fn serve(path: &str, symbol: &str, config: u32, progress_fd: i32) -> bool {
    match Worker::start(progress_fd) {
        Ok(mut worker) => worker.run(path, symbol, config),
        Err(e) => {
            eprintln!("sudobench lib-worker: {e}");
            false
        }
    }
}

struct Worker {
    input: BufReader<File>,
    output: File,
    progress: Option<Progress>,
    progress_error: Option<String>,
}

impl Worker {
    /// Takes the protocol's pipes off standard input and output, so that a library that
    /// reads standard input finds it empty and one that prints writes to standard error.
    fn start(progress_fd: i32) -> io::Result<Worker> {
        let input = rustix::io::dup(rustix::stdio::stdin())?;
        let output = rustix::io::dup(rustix::stdio::stdout())?;
        let null = File::open("/dev/null")?;
        rustix::stdio::dup2_stdin(&null)?;
        rustix::stdio::dup2_stdout(rustix::stdio::stderr())?;
        let (progress, progress_error) = match progress_page(progress_fd) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(format!("cannot map the progress page: {e}"))),
        };
        Ok(Worker {
            input: BufReader::new(File::from(input)),
            output: File::from(output),
            progress,
            progress_error,
        })
    }

    fn handshake(&mut self, result: Result<(), String>) -> io::Result<()> {
        let mut frame = wire::MAGIC.to_vec();
        match result {
            Ok(()) => {
                frame.push(wire::READY);
                let nanos = process_cpu_time().as_nanos().min(u128::from(u64::MAX)) as u64;
                frame.extend_from_slice(&nanos.to_le_bytes());
            }
            Err(message) => {
                let mut end = message.len().min(wire::MAX_MESSAGE);
                while !message.is_char_boundary(end) {
                    end -= 1;
                }
                frame.push(wire::ERROR);
                frame.extend_from_slice(&(end as u32).to_le_bytes());
                frame.extend_from_slice(&message.as_bytes()[..end]);
            }
        }
        self.output.write_all(&frame)
    }

    fn run(&mut self, path: &str, symbol: &str, config: u32) -> bool {
        let progress = match (self.progress.take(), self.progress_error.take()) {
            (Some(p), _) => p,
            (None, why) => {
                let why = why.unwrap_or_else(|| "no progress page".to_string());
                let _ = self.handshake(Err(why));
                return false;
            }
        };
        // SAFETY: loading a library runs its initialisers, which may do anything: that is
        // why this runs in a process of its own, which the backend watches.
        let library = match unsafe { libloading::Library::new(path) } {
            Ok(l) => l,
            Err(e) => {
                let _ = self.handshake(Err(format!("cannot load {path}: {}", chain(&e))));
                return false;
            }
        };
        // SAFETY: the symbol is taken to have tdoku's signature, as `lib:` documents; a
        // function that does not crashes or garbles only this process.
        let solve = match unsafe { library.get::<SolveFn>(symbol.as_bytes()) } {
            Ok(f) => *f,
            Err(e) => {
                let why = chain(&e);
                let _ = self.handshake(Err(format!("no function {symbol} in {path}: {why}")));
                return false;
            }
        };
        if self.handshake(Ok(())).is_err() {
            return false;
        }
        watch_parent();
        let mut batch = Batch {
            cpu_mark: process_cpu_time(),
            thread_mark: thread_cpu_time(),
            ..Batch::default()
        };
        loop {
            match batch.read(&mut self.input) {
                Ok(true) => {}
                Ok(false) => return true,
                Err(e) => {
                    eprintln!("sudobench lib-worker: bad request: {e}");
                    return false;
                }
            }
            batch.solve(solve, config, &progress);
            if self.output.write_all(&batch.reply).is_err() {
                return false;
            }
        }
    }
}

/// An error with its causes (libloading keeps the loader's own words in the source).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Maps the backend's progress page, passed as an inherited descriptor.
fn progress_page(fd: i32) -> io::Result<Progress> {
    if fd < 3 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("descriptor {fd} is not a progress page"),
        ));
    }
    // The descriptor must be open before it is owned: a closed one fails here, harmlessly.
    // SAFETY: borrowed only for this one fcntl, which fails with EBADF if it is not open.
    rustix::io::fcntl_getfd(unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) })?;
    // SAFETY: the descriptor is open, and nothing else in this process uses it: the backend
    // handed it down for this purpose only.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    Progress::map(owned)
}

/// Ends the worker if the backend's process goes away (killed without closing the pipe, say)
/// while the library is in an endless call, so no orphan keeps a core busy.
fn watch_parent() {
    let parent = rustix::process::getppid();
    let _ = std::thread::Builder::new()
        .name("parent-watch".to_string())
        .spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_millis(250));
            if rustix::process::getppid() != parent {
                std::process::abort();
            }
        });
}

/// One batch: the puzzles as the library reads them, its answers, and the reply frame.
#[derive(Default)]
struct Batch {
    limit: usize,
    n: usize,
    inputs: Vec<u8>,
    counts: Vec<usize>,
    guesses: Vec<usize>,
    solutions: Vec<[u8; 81]>,
    recounts: Vec<u64>,
    /// Calls and puzzles so far, over the worker's life.
    calls: u64,
    puzzles: u64,
    reply: Vec<u8>,
    /// The process's and this thread's CPU time when the last timed region ended (at first,
    /// at the handshake).
    cpu_mark: Duration,
    thread_mark: Duration,
}

impl Batch {
    /// Reads the next batch frame; `false` at the end of the input.
    fn read(&mut self, input: &mut impl Read) -> io::Result<bool> {
        let mut tag = [0u8; 1];
        if input.read(&mut tag)? == 0 {
            return Ok(false);
        }
        let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
        if tag[0] != wire::SOLVE {
            return Err(bad(format!("frame tag {:#04x}", tag[0])));
        }
        let mut header = [0u8; 12];
        input.read_exact(&mut header)?;
        let limit = u64::from_le_bytes(header[..8].try_into().unwrap_or_default());
        let n = u32::from_le_bytes(header[8..].try_into().unwrap_or_default()) as usize;
        if limit == 0 || n > wire::MAX_BATCH {
            return Err(bad(format!("limit {limit}, {n} puzzles")));
        }
        self.limit = usize::try_from(limit).unwrap_or(usize::MAX);
        self.n = n;
        self.inputs.clear();
        self.inputs.resize(n * STRIDE, 0);
        for i in 0..n {
            let mut len = [0u8; 2];
            input.read_exact(&mut len)?;
            let len = usize::from(u16::from_le_bytes(len));
            if len != 81 && len != 729 {
                return Err(bad(format!("a puzzle of {len} characters")));
            }
            input.read_exact(&mut self.inputs[i * STRIDE..i * STRIDE + len])?;
        }
        Ok(true)
    }

    /// Calls the library on every puzzle, then once more with limit 1 for each count of one
    /// or more that came without a solution, all inside the timed region, and builds the
    /// reply with the batch's CPU time (the whole process's since the last region, less this
    /// thread's own work outside the regions) and the region's wall time.
    fn solve(&mut self, solve: SolveFn, config: u32, progress: &Progress) {
        let n = self.n;
        self.counts.clear();
        self.counts.resize(n, 0);
        self.guesses.clear();
        self.guesses.resize(n, usize::MAX);
        self.solutions.clear();
        self.solutions.resize(n, [0; 81]);
        self.recounts.clear();
        self.recounts.resize(n, wire::NOT_CALLED);
        let first = self.puzzles + 1;
        // This thread's CPU time since the last region is the worker's own (the pipe): not
        // billed. Everything else the process spent since then is the library's.
        let outside = thread_cpu_time().saturating_sub(self.thread_mark);
        let wall = Instant::now();
        for i in 0..n {
            self.calls += 1;
            progress.enter(self.calls, first + i as u64);
            // SAFETY: the input is NUL-terminated inside its stride, the solution buffer
            // has 81 bytes, the guess counter is a valid `size_t`; the rest is up to the
            // library, in this process of its own.
            self.counts[i] = unsafe {
                solve(
                    self.inputs.as_ptr().add(i * STRIDE).cast(),
                    self.limit,
                    config,
                    self.solutions[i].as_mut_ptr().cast(),
                    &mut self.guesses[i],
                )
            };
        }
        progress.leave();
        for i in 0..n {
            if self.counts[i] == 0 || self.limit == 1 || wire::filled(&self.solutions[i]) {
                continue;
            }
            self.solutions[i] = [0; 81];
            let mut guesses = 0usize;
            self.calls += 1;
            progress.enter(self.calls, first + i as u64);
            // SAFETY: as above.
            let recount = unsafe {
                solve(
                    self.inputs.as_ptr().add(i * STRIDE).cast(),
                    1,
                    config,
                    self.solutions[i].as_mut_ptr().cast(),
                    &mut guesses,
                )
            };
            progress.leave();
            self.recounts[i] = recount as u64;
        }
        let wall = wall.elapsed();
        let cpu_now = process_cpu_time();
        self.thread_mark = thread_cpu_time();
        let cpu = cpu_now
            .saturating_sub(self.cpu_mark)
            .saturating_sub(outside);
        self.cpu_mark = cpu_now;
        self.puzzles += n as u64;
        self.reply.clear();
        self.reply.push(wire::ANSWERS);
        self.reply.extend_from_slice(&(n as u32).to_le_bytes());
        for d in [cpu, wall] {
            let nanos = d.as_nanos().min(u128::from(u64::MAX)) as u64;
            self.reply.extend_from_slice(&nanos.to_le_bytes());
        }
        for i in 0..n {
            let guesses = match self.guesses[i] {
                usize::MAX => wire::NOT_COUNTED,
                g => g as u64,
            };
            Answer {
                count: self.counts[i] as u64,
                guesses,
                recount: self.recounts[i],
                solution: self.solutions[i],
            }
            .write(&mut self.reply);
        }
    }
}
