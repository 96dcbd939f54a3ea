//! `exec:CMD`: any external program speaking the sudobench line protocol, so users can
//! benchmark their own solver without touching this crate.
//!
//! # Protocol
//! The program is started once (through `sh -c CMD`) and reads puzzles on standard input, one
//! per line: the puzzle, a space, and the solution limit. A clue grid is sent as 81
//! characters (`1`-`9` for clues, `.` for empty cells), e.g. `4...3.......6..8... 2`; a
//! pencilmark puzzle as its 729-character line, where character `81·row + 9·col + d−1` is the
//! digit `d` if `d` is still possible in that cell and `.` if it is eliminated (the input
//! format of the same name). A program that handles only grids should answer a 729-character
//! line `unknown`. For every line it writes one answer line on standard output, in the same
//! order, and flushes it:
//!
//! ```text
//! COUNT [SOLUTION] [GUESSES]
//! ```
//!
//! `COUNT` is the number of solutions found, at most the limit (`unknown` if the program gave
//! up); `SOLUTION` (81 digits) is required when `COUNT` is 1 or more and is the first solution
//! found; `GUESSES` is an optional guess count for the report. Examples: `0`, `1 4623…892 5`,
//! `2 4623…892`, `unknown`. Standard error is passed through.
//!
//! # Start-up and timing
//! The program's first line is a warm-up: a solved grid (every cell a clue) with the run's
//! limit. Its answer is read (it must be a line of the protocol) and not judged; the time
//! until it arrives is the program's start-up, reported apart and never billed as solving.
//! Solving time is then measured per batch: under the CPU clock the CPU time of the program's
//! processes (its process group: the shell and everything it started, read from `/proc`)
//! since the previous batch; under the wall clock the time from sending the batch's first
//! puzzle to reading its last answer.
//!
//! sudobench keeps up to [`WINDOW`] puzzles in flight, so the program should read a line and
//! answer it before reading on, but need not wait for sudobench. The backend fails for good,
//! and answers `unknown` for every later puzzle ([`Batch::fault`] says why), when the program
//! - exits or closes its output,
//! - stays silent past the per-puzzle timeout,
//! - writes an answer that does not parse, or an answer line longer than [`MAX_LINE`] bytes
//!   (it is stopped as soon as that many bytes came without a newline, so an endless line
//!   costs no more memory than that),
//! - or writes more lines than it was sent puzzles. Such answers are out of step (a program
//!   that prints every answer twice would have its second copy taken for the next puzzle's
//!   answer), so none of the batch in which the extra line is found is used: they all become
//!   `unknown`. An extra line is looked for before every batch is sent, and after the last
//!   answer of every batch for a short while (twice the batch's mean answer time, between
//!   0.1 and 20 ms, at most the timeout; not counted as solving time), since a program that
//!   writes one writes it at its pace of answering.

use super::group_cpu::GroupCpu;
use super::pipe::{Fill, PipeReader};
use super::{Batch, BuildError, Clock, Limit, Outcome, Solver, Spent, Stats};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Puzzles written ahead of the answers read (pipelining). Small enough that the lines in
/// flight fit in a pipe buffer both ways, so neither side can block the other.
pub const WINDOW: usize = 64;

/// Longest answer line accepted, in bytes (as for input lines).
pub const MAX_LINE: usize = 64 * 1024;

/// Shortest and longest wait for an extra line after a batch's last answer.
const SETTLE_MIN: Duration = Duration::from_micros(100);
const SETTLE_MAX: Duration = Duration::from_millis(20);

/// The warm-up puzzle sent first to every program: a solved grid.
const WARM_UP: &str =
    "462831957795426183381795426173984265659312748248567319926178534834259671517643892";

/// A running external program.
struct Process {
    child: Child,
    stdin: ChildStdin,
    output: PipeReader,
    /// Its process group's CPU time.
    cpu: GroupCpu,
}

/// Why no answer line came.
enum NoLine {
    /// The program closed its output.
    Ended,
    /// Nothing within the timeout.
    Silent,
    /// More than [`MAX_LINE`] bytes without a newline.
    TooLong,
    /// Reading the pipe failed.
    Failed(std::io::Error),
}

impl Process {
    fn start(command: &str) -> Result<Process, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start `sh -c {command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let group = i32::try_from(child.id()).unwrap_or(0);
        Ok(Process {
            child,
            stdin,
            output: PipeReader::new(stdout),
            cpu: GroupCpu::new(group),
        })
    }

    /// Sends the warm-up puzzle and reads its answer, which must be a line of the protocol.
    fn warm_up(&mut self, limit: Limit, timeout: Duration) -> Result<(), String> {
        let sent = self
            .stdin
            .write_all(format!("{WARM_UP} {limit}\n").as_bytes())
            .and_then(|()| self.stdin.flush());
        let answer = match self.next_line(timeout) {
            Ok(line) => parse_answer(&line, limit).map(|_| ()),
            Err(why) => {
                let ended = matches!(why, NoLine::Ended);
                let why = self.silence(timeout, why);
                Err(match sent {
                    Err(e) if ended => format!("{why} (writing to it failed: {e})"),
                    _ => why,
                })
            }
        };
        answer.map_err(|why| {
            format!("{why}; at start-up, on the warm-up puzzle (a solved grid) sent first")
        })
    }

    /// The next answer line (without its newline), waiting at most `timeout` for it. A last
    /// line without a newline before the program closes its output still counts.
    fn next_line(&mut self, timeout: Duration) -> Result<Vec<u8>, NoLine> {
        let deadline = Instant::now() + timeout;
        loop {
            let pending = self.output.pending();
            if let Some(end) = memchr::memchr(b'\n', pending) {
                let line = pending[..end]
                    .strip_suffix(b"\r")
                    .unwrap_or(&pending[..end]);
                let line = line.to_vec();
                self.output.consume(end + 1);
                return Ok(line);
            }
            if pending.len() > MAX_LINE {
                return Err(NoLine::TooLong);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.fill(left) {
                Ok(Fill::Data) => {}
                Ok(Fill::Eof) if !self.output.pending().is_empty() => {
                    let line = self.output.pending().to_vec();
                    self.output.consume(line.len());
                    return Ok(line);
                }
                Ok(Fill::Eof) => return Err(NoLine::Ended),
                Ok(Fill::Timeout) => return Err(NoLine::Silent),
                Err(e) => return Err(NoLine::Failed(e)),
            }
        }
    }

    /// What the program wrote beyond the answers expected of it, if it wrote anything within
    /// `wait`: the start of it, for the report.
    fn extra_output(&mut self, wait: Duration) -> Option<String> {
        if self.output.pending().is_empty() {
            match self.output.fill(wait) {
                Ok(Fill::Data) => {}
                // An end or an error shows at the next answer expected.
                Ok(Fill::Eof | Fill::Timeout) | Err(_) => return None,
            }
        }
        let pending = self.output.pending();
        let line = pending.split(|&b| b == b'\n').next().unwrap_or(pending);
        Some(shown(line))
    }

    /// Closes the program's input and kills its process group (the shell and everything it
    /// started), so no stray process keeps running or holds the output pipes open.
    fn stop(mut self) {
        drop(self.stdin);
        let group = i32::try_from(self.child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        if let Some(group) = group {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Describes why no answer came: exit status if the program has ended.
    fn silence(&mut self, timeout: Duration, why: NoLine) -> String {
        match why {
            NoLine::Ended => {
                thread::sleep(Duration::from_millis(20));
                match self.child.try_wait() {
                    Ok(Some(status)) => format!("program ended ({status}) without answering"),
                    _ => "program closed its output without answering".to_string(),
                }
            }
            NoLine::Silent => format!(
                "no answer within {:.1} s (does the program flush its output after each line?)",
                timeout.as_secs_f64()
            ),
            NoLine::TooLong => format!(
                "answer line longer than {} KiB: the program wrote {} bytes without a newline \
                 (it was stopped there)",
                MAX_LINE / 1024,
                self.output.pending().len()
            ),
            NoLine::Failed(e) => format!("reading the program's output failed: {e}"),
        }
    }
}

/// The start of a line of output as it may be shown in a report (at most 120 characters).
fn shown(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let short: String = text.chars().take(120).collect();
    format!("{short:?}")
}

/// The external-program backend.
pub struct Exec {
    command: String,
    timeout: Duration,
    process: Option<Process>,
    fault: Option<String>,
    batch: Vec<Outcome>,
    /// The last batch's solving time: its program's CPU time since the batch before, and
    /// the time from sending its first puzzle to its last answer.
    measured: Spent,
    /// The program's start-up, measured in the last batch when it started the program.
    startup: Spent,
    /// The program's CPU time when the last batch ended (or its warm-up was answered).
    cpu_mark: Duration,
}

impl Exec {
    /// A backend that runs `command` (through `sh -c`) on first use. `timeout` bounds the wait
    /// for each answer.
    pub fn new(command: &str, timeout: Duration) -> Result<Exec, BuildError> {
        if command.trim().is_empty() {
            return Err(BuildError::Invalid {
                name: "exec".to_string(),
                reason: "no command given (use exec:CMD)".to_string(),
            });
        }
        Ok(Exec {
            command: command.to_string(),
            timeout,
            process: None,
            fault: None,
            batch: Vec::new(),
            measured: Spent::default(),
            startup: Spent::default(),
            cpu_mark: Duration::ZERO,
        })
    }

    fn fail(&mut self, message: String) {
        if let Some(p) = self.process.take() {
            p.stop();
        }
        self.fault = Some(message);
    }

    /// Sends puzzles, `WINDOW` ahead of the answers, and parses each answer; then makes sure
    /// the program wrote no more lines than it was sent puzzles.
    fn run_batch(&mut self, puzzles: &[Puzzle], limit: Limit) {
        self.batch.clear();
        self.measured = Spent::default();
        self.startup = Spent::default();
        if self.fault.is_none() && self.process.is_none() && !puzzles.is_empty() {
            let start = Instant::now();
            match Process::start(&self.command) {
                Ok(mut p) => match p.warm_up(limit, self.timeout) {
                    Ok(()) => {
                        self.cpu_mark = p.cpu.read();
                        self.startup = Spent {
                            cpu: self.cpu_mark,
                            wall: start.elapsed(),
                        };
                        self.process = Some(p);
                    }
                    Err(e) => {
                        p.stop();
                        self.fault = Some(e);
                    }
                },
                Err(e) => self.fault = Some(e),
            }
        }
        // Every answer to the puzzles sent so far has been read (the warm-up's too): anything
        // waiting now answers no puzzle.
        if let (Some(process), Some(first)) = (self.process.as_mut(), puzzles.first()) {
            if let Some(extra) = process.extra_output(Duration::ZERO) {
                self.fail(format!(
                    "wrote {extra} when no puzzle was waiting for an answer (more answers than \
                     puzzles sent: its answers are out of step and none is used); before \
                     puzzle {first}"
                ));
            }
        }
        let start = Instant::now();
        let mut sent = 0;
        while self.batch.len() < puzzles.len() {
            let Some(process) = self.process.as_mut() else {
                self.batch.push(Outcome::unknown(Stats::default()));
                continue;
            };
            let mut write_failed = None;
            while sent < puzzles.len() && sent < self.batch.len() + WINDOW {
                let line = match &puzzles[sent] {
                    Puzzle::Grid(g) => format!("{g} {limit}\n"),
                    Puzzle::Candidates(c) => format!("{c} {limit}\n"),
                    Puzzle::Order(g) => format!("{g} {limit}\n"),
                };
                if let Err(e) = process.stdin.write_all(line.as_bytes()) {
                    write_failed = Some(e);
                    break;
                }
                sent += 1;
            }
            if write_failed.is_none() {
                if let Err(e) = process.stdin.flush() {
                    write_failed = Some(e);
                }
            }
            let index = self.batch.len();
            let answer = match process.next_line(self.timeout) {
                Ok(line) => parse_answer(&line, limit),
                Err(why) => {
                    let ended = matches!(why, NoLine::Ended);
                    let why = process.silence(self.timeout, why);
                    Err(match write_failed {
                        Some(e) if ended => format!("{why} (writing to it failed: {e})"),
                        _ => why,
                    })
                }
            };
            match answer {
                Ok(outcome) => self.batch.push(outcome),
                Err(why) => {
                    self.fail(format!("{why}; on puzzle {}", puzzles[index]));
                    self.batch.push(Outcome::unknown(Stats::default()));
                }
            }
        }
        self.measured.wall = start.elapsed();
        if let Some(process) = self.process.as_mut() {
            let cpu = process.cpu.read();
            self.measured.cpu = cpu.saturating_sub(self.cpu_mark);
            self.cpu_mark = cpu;
        }
        // A program that writes more lines than it is sent puzzles writes them at its pace of
        // answering: wait about two answers' time for one.
        let Some(process) = self.process.as_mut() else {
            return;
        };
        let Some(last) = puzzles.last() else {
            return;
        };
        let mean = self.measured.wall / puzzles.len().max(1) as u32;
        let settle = (mean * 2).clamp(SETTLE_MIN, SETTLE_MAX).min(self.timeout);
        if let Some(extra) = process.extra_output(settle) {
            let n = puzzles.len();
            self.fail(format!(
                "wrote {extra} after its answer to the last of the {n} puzzle(s) sent (more \
                 answers than puzzles sent: its answers are out of step, so none of these {n} \
                 is used); after puzzle {last}"
            ));
            for outcome in &mut self.batch {
                *outcome = Outcome::unknown(Stats::default());
            }
        }
    }
}

/// Parses `COUNT [SOLUTION] [GUESSES]`.
fn parse_answer(line: &[u8], limit: Limit) -> Result<Outcome, String> {
    let garbage = |why: &str| format!("unreadable answer {}: {why}", shown(line));
    let line = std::str::from_utf8(line).map_err(|_| garbage("not UTF-8 text"))?;
    let mut words = line.split_whitespace();
    let count = match words.next() {
        None => return Err(garbage("empty line")),
        Some("unknown") | Some("?") => None,
        Some(w) => Some(
            w.parse::<u32>()
                .map_err(|_| garbage("count is not a number"))?,
        ),
    };
    if let Some(n) = count {
        if n > limit.get() {
            return Err(garbage(&format!("count {n} is above the limit {limit}")));
        }
    }
    let mut solution = None;
    let mut stats = Stats::default();
    let mut rest: Vec<&str> = words.collect();
    if rest.first().is_some_and(|w| w.len() == 81) {
        let text = rest.remove(0);
        let grid = Grid::from_bytes(text.as_bytes()).map_err(|e| garbage(&e.to_string()))?;
        if !grid.is_full() {
            return Err(garbage("solution has empty cells"));
        }
        solution = Some(grid);
    }
    match rest.as_slice() {
        [] => {}
        [g] => {
            stats.guesses = Some(
                g.parse()
                    .map_err(|_| garbage("guess count is not a number"))?,
            )
        }
        _ => return Err(garbage("too many fields")),
    }
    // The line protocol carries one solution, so a count of two or more has no witness.
    match (count, solution) {
        (None, solution) => Ok(Outcome::undecided(solution, stats)),
        (Some(0), Some(_)) => Err(garbage("a count of 0 comes with no solution")),
        (Some(n), None) if n > 0 => {
            Err(garbage("a count of 1 or more needs the 81-digit solution"))
        }
        (Some(n), solution) => {
            Outcome::claimed(n, limit, solution, None, stats).map_err(|e| garbage(&e.to_string()))
        }
    }
}

impl Solver for Exec {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        self.run_batch(std::slice::from_ref(puzzle), limit);
        self.batch
            .pop()
            .unwrap_or_else(|| Outcome::unknown(Stats::default()))
    }

    /// The answers with the program's solving time by `clock`, its start-up when this batch
    /// started it, and its fault. External programs are trusted to be complete, but may answer
    /// `unknown`.
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, clock: Clock) -> Batch {
        self.run_batch(puzzles, limit);
        Batch {
            outcomes: std::mem::take(&mut self.batch),
            time: self.measured.by(clock),
            startup: self.startup.by(clock),
            fault: self.fault.clone(),
        }
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Count;

    #[test]
    fn answers_parse() {
        let sol = crate::test_puzzles::EASY_SOLUTION;
        let o = parse_answer(format!("1 {sol} 7").as_bytes(), Limit::TWO).unwrap();
        assert_eq!(o.count(), Count::Exactly(1));
        assert_eq!(o.solution().unwrap().to_string(), sol);
        assert_eq!(o.stats().guesses, Some(7));
        assert_eq!(
            parse_answer(b"0", Limit::TWO).unwrap().count(),
            Count::Exactly(0)
        );
        assert_eq!(
            parse_answer(b"unknown", Limit::TWO).unwrap().count(),
            Count::Unknown
        );
        assert!(parse_answer(b"", Limit::TWO).is_err());
        assert!(parse_answer(b"0 \xff", Limit::TWO)
            .unwrap_err()
            .contains("not UTF-8"));
        assert!(parse_answer(b"3 x", Limit::TWO).is_err());
        assert!(parse_answer(b"1", Limit::TWO).is_err());
        assert!(parse_answer(b"1 123", Limit::TWO).is_err());
        assert!(parse_answer(format!("1 {sol} 7 8").as_bytes(), Limit::TWO).is_err());
        assert!(parse_answer(
            format!("1 {}", sol.replace('4', ".")).as_bytes(),
            Limit::TWO
        )
        .is_err());
    }

    #[test]
    fn program_failures_become_faults() {
        let p: Grid = crate::test_puzzles::EASY.parse().unwrap();
        let puzzles = [Puzzle::from(p)];
        let solve = |e: &mut Exec| e.solve_batch(&puzzles, Limit::TWO, Clock::Wall);
        let mut dead = Exec::new("exit 3", Duration::from_secs(5)).unwrap();
        let batch = solve(&mut dead);
        assert_eq!(batch.outcomes[0].count(), Count::Unknown);
        let fault = batch.fault.unwrap_or_default();
        assert!(fault.contains("program ended"), "{fault}");
        let mut slow = Exec::new("sleep 5", Duration::from_millis(200)).unwrap();
        let fault = solve(&mut slow).fault.unwrap_or_default();
        assert!(fault.contains("no answer within"), "{fault}");
        let mut liar =
            Exec::new("while read l; do echo yes; done", Duration::from_secs(5)).unwrap();
        let batch = solve(&mut liar);
        assert_eq!(batch.outcomes[0].count(), Count::Unknown);
        let fault = batch.fault.unwrap_or_default();
        assert!(fault.contains("unreadable answer"), "{fault}");
        // After a failure every later puzzle is unknown, immediately.
        assert_eq!(liar.solve(&p.into(), Limit::TWO).count(), Count::Unknown);
    }
}
