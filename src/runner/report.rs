//! What a run reports: per backend and per source, and every puzzle with a problem.

use super::setup::{Backend, Runner};
use crate::judge::Ruling;
use crate::puzzle::{Puzzle, Shape, Solution};
use crate::solver::{Clock, Count, Outcome, Stats};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// How many mismatches a [`SetReport`] keeps (all are counted and all are passed to the
/// observer; only this many are stored, so a badly wrong backend cannot exhaust memory).
pub const MAX_KEPT_MISMATCHES: usize = 1000;

/// A puzzle on which the judge found a problem: a backend at fault, a data error of the file,
/// or a dispute nobody could settle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Source name.
    pub source: Arc<str>,
    /// 1-based line.
    pub line: u64,
    /// The puzzle as in the file.
    pub puzzle: Puzzle,
    /// The file's expected solution, if any.
    pub expected: Option<Solution>,
    /// What went wrong, one entry per problem found.
    pub problems: Vec<String>,
    /// Each backend's answer: name and text (`count` then the solution, `skipped` when its
    /// budget was spent).
    pub answers: Vec<(String, String)>,
    /// Names of the backends found at fault (empty when only the file is at fault).
    pub blamed: Vec<String>,
    /// Whether the file is at fault (its expected solution is invalid).
    pub data_error: bool,
    /// The referee's part, when evidence could not decide.
    pub ruling: Option<Ruling>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}: mismatch: {}",
            self.source,
            self.line,
            self.problems.join("; ")
        )?;
        writeln!(f, "  puzzle   {}", self.puzzle)?;
        if let Some(e) = &self.expected {
            writeln!(f, "  expected {e}")?;
        }
        for (name, answer) in &self.answers {
            writeln!(f, "  {name:<8} {answer}")?;
        }
        if let Some(r) = &self.ruling {
            let how = if r.settled {
                "settled it"
            } else {
                "could not settle it"
            };
            writeln!(f, "  referee {} {how}: {}", r.referee, r.answer)?;
        }
        Ok(())
    }
}

/// One backend's figures on one source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BackendReport {
    /// Backend name.
    pub name: String,
    /// Whether it is a complete method.
    pub complete: bool,
    /// Puzzles it was run on (fewer than the source's when its budget was spent, or when
    /// some are of a kind it does not solve).
    pub covered: u64,
    /// Puzzles of a kind it does not solve (a grid of another order than 9×9 for a 9×9
    /// backend): never asked, shown as `n/a`, neither answers nor faults.
    pub not_applicable: u64,
    /// Puzzles its solving time covers: those answered before it failed (all of `covered`
    /// for a backend that did not fail). Its rate is over these only; none, no rate.
    pub timed: u64,
    /// Its solving time by the run's clock, summed over threads (batches answered before it
    /// failed only).
    pub time: Duration,
    /// Start-up time by the run's clock, summed over threads: an `exec:` program's start and
    /// a `lib:` worker's loading of its library, reported apart and never in `time`.
    pub startup: Duration,
    /// Answers with exactly one solution (with limit 1: a solution found).
    pub unique: u64,
    /// Answers with at least two solutions.
    pub multiple: u64,
    /// Answers with no solution.
    pub none: u64,
    /// Undecided answers.
    pub unknown: u64,
    /// Answers that came with a solution the verifier accepted (a wrong solution is a
    /// mismatch, not a solve). For an incomplete backend, which may return a solution with an
    /// undecided count, this is how often it answered.
    pub solved: u64,
    /// Puzzles it solved without guessing (`Stats::guesses == Some(0)`).
    pub no_guess: u64,
    /// Answers that said how many guesses they took (`Stats::guesses` set): the guess figures
    /// are over these only, and absent when there are none.
    pub guess_reports: u64,
    /// Its work counters, summed (saturating).
    pub stats: Stats,
    /// The exact sum of its guess counts (the mean is taken from it: no counter wraps).
    pub guess_sum: u128,
    /// Puzzles on which it was found at fault.
    pub mismatches: u64,
    /// Whether the time budget stopped it before the end of the source.
    pub budget_spent: bool,
    /// Why it failed for good, if it did (an external program that crashed, timed out or
    /// answered garbage; a panic inside the backend): its answers from then on are `unknown`.
    pub fault: Option<String>,
}

impl BackendReport {
    /// A backend's report before any puzzle.
    pub fn empty(backend: &Backend) -> BackendReport {
        BackendReport {
            name: backend.name().to_string(),
            complete: backend.is_complete(),
            ..BackendReport::default()
        }
    }

    /// Whether it has a rate: some puzzles were answered before any failure, and timed. A
    /// backend that failed on its first call has none, and neither has one whose time budget
    /// ran out before it decided a puzzle (its time went into answers it never finished).
    pub fn has_rate(&self) -> bool {
        let decided = self.unique + self.multiple + self.none + self.solved > 0;
        self.timed > 0 && !self.time.is_zero() && (decided || !self.budget_spent)
    }

    /// Puzzles per second of solving time, over the puzzles answered before any failure (0
    /// when it has no rate, see [`BackendReport::has_rate`]).
    pub fn puzzles_per_sec(&self) -> f64 {
        match self.has_rate() {
            true => self.timed as f64 / self.time.as_secs_f64(),
            false => 0.0,
        }
    }

    /// Mean microseconds per puzzle (0 when it has no rate).
    pub fn micros_per_puzzle(&self) -> f64 {
        match self.has_rate() {
            true => self.time.as_secs_f64() * 1e6 / self.timed as f64,
            false => 0.0,
        }
    }

    /// Percentage of the answers that counted guesses which needed none (`None` when no
    /// answer counted guesses: the backend does not report them).
    pub fn no_guess_percent(&self) -> Option<f64> {
        (self.guess_reports > 0).then(|| 100.0 * self.no_guess as f64 / self.guess_reports as f64)
    }

    /// Mean guesses per answer that counted them (`None` when none did).
    pub fn guesses_per_puzzle(&self) -> Option<f64> {
        (self.guess_reports > 0).then(|| self.guess_sum as f64 / self.guess_reports as f64)
    }

    pub(super) fn add(&mut self, other: &BackendReport) {
        self.covered += other.covered;
        self.not_applicable += other.not_applicable;
        self.timed += other.timed;
        self.time += other.time;
        self.startup += other.startup;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.unknown += other.unknown;
        self.solved += other.solved;
        self.no_guess += other.no_guess;
        self.guess_reports += other.guess_reports;
        self.stats.accumulate(&other.stats);
        self.guess_sum = self.guess_sum.saturating_add(other.guess_sum);
        self.mismatches += other.mismatches;
        self.budget_spent |= other.budget_spent;
        if self.fault.is_none() {
            self.fault.clone_from(&other.fault);
        }
    }

    pub(super) fn tally(&mut self, outcome: &Outcome) {
        self.covered += 1;
        match outcome.count() {
            Count::Exactly(0) => self.none += 1,
            // "At least one" (a limit of 1) is counted with the unique answers: solved.
            Count::Exactly(1) | Count::AtLeast(1) => self.unique += 1,
            Count::Exactly(_) | Count::AtLeast(_) => self.multiple += 1,
            Count::Unknown => self.unknown += 1,
        }
        if outcome.first_solution().is_some() {
            self.solved += 1;
        }
        match outcome.stats().guesses {
            Some(0) => {
                self.no_guess += 1;
                self.guess_reports += 1;
            }
            Some(g) => {
                self.guess_reports += 1;
                self.guess_sum = self.guess_sum.saturating_add(u128::from(g));
            }
            None => {}
        }
        self.stats.accumulate(outcome.stats());
    }
}

/// Everything measured on one source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetReport {
    /// The source as given (path or `-`).
    pub source: String,
    /// Well-formed records read.
    pub records: u64,
    /// Malformed records.
    pub parse_errors: u64,
    /// Records the backends were asked to solve (all records, or the sample).
    pub selected: u64,
    /// Time spent reading and parsing (gunzip included).
    pub read_time: Duration,
    /// Wall-clock time of the whole source.
    pub wall_time: Duration,
    /// Time the workers were busy (solving and checking), summed over threads.
    pub busy_time: Duration,
    /// CPU time spent reading and parsing.
    pub read_cpu: Duration,
    /// CPU time the workers used, summed over threads.
    pub busy_cpu: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// The clock the backends' solving times are measured by.
    pub clock: Clock,
    /// One entry per backend, in run order.
    pub backends: Vec<BackendReport>,
    /// The first [`MAX_KEPT_MISMATCHES`] mismatches, in input order.
    pub mismatches: Vec<Mismatch>,
    /// All mismatches found (puzzles with any problem).
    pub mismatch_total: u64,
    /// Puzzles whose file entry is wrong (an invalid expected solution).
    pub data_errors: u64,
    /// Puzzles on which evidence could not decide a dispute and the referee did.
    pub refereed: u64,
    /// Puzzles whose dispute nobody could settle (no referee, or it could not decide).
    pub unsettled: u64,
    /// Puzzles on which the referee checked an outside backend's count that nothing else in
    /// the run could check (an unsettled check is counted in `unsettled`).
    pub checked: u64,
    /// The backend that settles disputes evidence cannot decide.
    pub referee: Option<String>,
    /// Why the source could not be read at all (see [`SetReport::unreadable`]).
    pub error: Option<String>,
    /// The kinds of puzzle the selected records are, smallest first, with how many of each
    /// (a set may mix 9×9 grids and grids of other orders).
    pub shapes: Vec<(Shape, u64)>,
}

impl SetReport {
    /// The kinds of puzzle the set holds, as `16x16` or `9x9 and 16x16`.
    pub fn shape_labels(&self) -> String {
        self.shape_labels_joined(" and ")
    }

    /// The kinds of puzzle the set holds, joined by `separator`.
    pub fn shape_labels_joined(&self, separator: &str) -> String {
        let labels: Vec<String> = self.shapes.iter().map(|(s, _)| s.label()).collect();
        labels.join(separator)
    }

    pub(super) fn count_shape(&mut self, shape: Shape) {
        match self.shapes.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, n)) => *n += 1,
            None => {
                self.shapes.push((shape, 1));
                self.shapes.sort();
            }
        }
    }
}

impl SetReport {
    /// The report of `runner` on `source` before any record: the run's settings (threads,
    /// clock, referee) and every backend with empty figures.
    pub fn begun(source: &str, runner: &Runner) -> SetReport {
        SetReport {
            source: source.to_string(),
            threads: runner.config().threads.max(1),
            clock: runner.config().clock,
            referee: runner.referee().map(|b| b.name().to_string()),
            backends: runner.backends().iter().map(BackendReport::empty).collect(),
            ..SetReport::default()
        }
    }

    /// The report of a source that `runner` could not open: [`begun`](SetReport::begun) with
    /// the error, so that machine output has a record for it too, and one that adds up
    /// (`merge`) with the parts of the same run that could be read.
    pub fn unreadable(source: &str, runner: &Runner, error: String) -> SetReport {
        SetReport {
            error: Some(error),
            ..SetReport::begun(source, runner)
        }
    }

    /// A short name for the source: its file name without `.gz`.
    pub fn name(&self) -> &str {
        let base = self.source.rsplit('/').next().unwrap_or(&self.source);
        base.strip_suffix(".gz").unwrap_or(base)
    }

    /// Records (well-formed or not) read and parsed per second.
    pub fn reading_rate(&self) -> f64 {
        self.records_per(self.read_time)
    }

    /// Records read and parsed per second of CPU time (robust on a shared machine).
    pub fn reading_rate_cpu(&self) -> f64 {
        self.records_per(self.read_cpu)
    }

    /// Records (well-formed or not) per second of `time`; 0 when no time was measured.
    fn records_per(&self, time: Duration) -> f64 {
        let s = time.as_secs_f64();
        if s > 0.0 {
            (self.records + self.parse_errors) as f64 / s
        } else {
            0.0
        }
    }

    /// Estimated speed-up over one thread: the CPU time one thread would need (reading plus
    /// all worker CPU time) over the wall-clock time. On an idle machine this is the speed-up;
    /// on a shared one it is lower, as it should be (the other threads did not get a core).
    pub fn speedup(&self) -> f64 {
        let wall = self.wall_time.as_secs_f64();
        if wall > 0.0 {
            (self.read_cpu + self.busy_cpu).as_secs_f64() / wall
        } else {
            0.0
        }
    }
}
