//! `exec:CMD`: any external program speaking the sudobench line protocol, so users can
//! benchmark their own solver without touching this crate.
//!
//! # Protocol
//! The program is started once (through `sh -c CMD`) and reads puzzles on standard input, one
//! per line: the 81-character puzzle (`.` for empty cells), a space, and the solution limit,
//! e.g. `4...3.......6..8... 2`. For every line it writes one answer line on standard output,
//! in the same order, and flushes it:
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
//! sudobench keeps up to [`WINDOW`] puzzles in flight, so the program should read a line and
//! answer it before reading on, but need not wait for sudobench. A program that exits, stays
//! silent past the per-puzzle timeout, or writes an answer that does not parse is stopped; the
//! backend then answers `unknown` for every later puzzle, and [`Solver::fault`] says why.

use super::{BuildError, Count, Limit, Outcome, Solver, Stats};
use crate::grid::{Grid, Puzzle};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// Puzzles written ahead of the answers read (pipelining). Small enough that the lines in
/// flight fit in a pipe buffer both ways, so neither side can block the other.
pub const WINDOW: usize = 64;

/// A running external program.
struct Process {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<std::io::Result<String>>,
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
        let (tx, answers) = mpsc::channel();
        // The reader thread ends when the program closes its stdout or the receiver is gone.
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            answers,
        })
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
    fn silence(&mut self, timeout: Duration, disconnected: bool) -> String {
        if disconnected {
            thread::sleep(Duration::from_millis(20));
            match self.child.try_wait() {
                Ok(Some(status)) => format!("program ended ({status}) without answering"),
                _ => "program closed its output without answering".to_string(),
            }
        } else {
            format!(
                "no answer within {:.1} s (does the program flush its output after each line?)",
                timeout.as_secs_f64()
            )
        }
    }
}

/// The external-program backend.
pub struct Exec {
    name: String,
    command: String,
    timeout: Duration,
    process: Option<Process>,
    fault: Option<String>,
    batch: Vec<Outcome>,
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
            name: format!("exec:{command}"),
            command: command.to_string(),
            timeout,
            process: None,
            fault: None,
            batch: Vec::new(),
        })
    }

    fn fail(&mut self, message: String) {
        if let Some(p) = self.process.take() {
            p.stop();
        }
        self.fault = Some(message);
    }

    /// Sends puzzles, `WINDOW` ahead of the answers, and parses each answer.
    fn run_batch(&mut self, puzzles: &[Puzzle], limit: Limit) {
        self.batch.clear();
        if self.fault.is_none() && self.process.is_none() {
            match Process::start(&self.command) {
                Ok(p) => self.process = Some(p),
                Err(e) => self.fault = Some(e),
            }
        }
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
            let answer = match process.answers.recv_timeout(self.timeout) {
                Ok(Ok(line)) => parse_answer(&line, limit),
                Ok(Err(e)) => Err(format!("reading the program's output failed: {e}")),
                Err(RecvTimeoutError::Timeout) => Err(process.silence(self.timeout, false)),
                Err(RecvTimeoutError::Disconnected) => {
                    let why = process.silence(self.timeout, true);
                    Err(match write_failed {
                        Some(e) => format!("{why} (writing to it failed: {e})"),
                        None => why,
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
    }
}

/// Parses `COUNT [SOLUTION] [GUESSES]`.
fn parse_answer(line: &str, limit: Limit) -> Result<Outcome, String> {
    let garbage = |why: &str| {
        let shown: String = line.chars().take(120).collect();
        format!("unreadable answer {shown:?}: {why}")
    };
    let mut words = line.split_whitespace();
    let count = match words.next() {
        None => return Err(garbage("empty line")),
        Some("unknown") | Some("?") => Count::Unknown,
        Some(w) => Count::Exactly(
            w.parse::<u32>()
                .map_err(|_| garbage("count is not a number"))?,
        ),
    };
    if let Count::Exactly(n) = count {
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
        (Count::Unknown, solution) => Ok(Outcome::Unknown { solution, stats }),
        (Count::Exactly(0), None) => Ok(Outcome::none(stats)),
        (Count::Exactly(0), Some(_)) => Err(garbage("a count of 0 comes with no solution")),
        (Count::Exactly(n), Some(first)) => Ok(Outcome::Found {
            count: std::num::NonZeroU32::new(n).unwrap_or(std::num::NonZeroU32::MIN),
            first,
            second: None,
            stats,
        }),
        (Count::Exactly(_), None) => {
            Err(garbage("a count of 1 or more needs the 81-digit solution"))
        }
    }
}

impl Solver for Exec {
    fn name(&self) -> &str {
        &self.name
    }

    /// External programs are trusted to be complete, but may answer `unknown`.
    fn is_complete(&self) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        self.run_batch(std::slice::from_ref(puzzle), limit);
        self.batch
            .pop()
            .unwrap_or_else(|| Outcome::unknown(Stats::default()))
    }

    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, outcomes: &mut Vec<Outcome>) {
        self.run_batch(puzzles, limit);
        outcomes.append(&mut self.batch);
    }

    fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
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

    #[test]
    fn answers_parse() {
        let sol =
            "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
        let o = parse_answer(&format!("1 {sol} 7"), Limit::TWO).unwrap();
        assert_eq!(o.count(), Count::Exactly(1));
        assert_eq!(o.solution().unwrap().to_string(), sol);
        assert_eq!(o.stats().guesses, Some(7));
        assert_eq!(
            parse_answer("0", Limit::TWO).unwrap().count(),
            Count::Exactly(0)
        );
        assert_eq!(
            parse_answer("unknown", Limit::TWO).unwrap().count(),
            Count::Unknown
        );
        assert!(parse_answer("", Limit::TWO).is_err());
        assert!(parse_answer("3 x", Limit::TWO).is_err());
        assert!(parse_answer("1", Limit::TWO).is_err());
        assert!(parse_answer("1 123", Limit::TWO).is_err());
        assert!(parse_answer(&format!("1 {sol} 7 8"), Limit::TWO).is_err());
        assert!(parse_answer(&format!("1 {}", sol.replace('4', ".")), Limit::TWO).is_err());
    }

    #[test]
    fn program_failures_become_faults() {
        let p: Grid =
            "000000907000420180000705026100904000050000040000507009920108000034059000507000000"
                .parse()
                .unwrap();
        let mut dead = Exec::new("exit 3", Duration::from_secs(5)).unwrap();
        assert_eq!(dead.solve(&p.into(), Limit::TWO).count(), Count::Unknown);
        assert!(
            dead.fault().unwrap().contains("program ended"),
            "{:?}",
            dead.fault()
        );
        let mut slow = Exec::new("sleep 5", Duration::from_millis(200)).unwrap();
        assert_eq!(slow.solve(&p.into(), Limit::TWO).count(), Count::Unknown);
        assert!(slow.fault().unwrap().contains("no answer within"));
        let mut liar =
            Exec::new("while read l; do echo yes; done", Duration::from_secs(5)).unwrap();
        assert_eq!(liar.solve(&p.into(), Limit::TWO).count(), Count::Unknown);
        assert!(liar.fault().unwrap().contains("unreadable answer"));
        // After a failure every later puzzle is unknown, immediately.
        assert_eq!(liar.solve(&p.into(), Limit::TWO).count(), Count::Unknown);
    }
}
