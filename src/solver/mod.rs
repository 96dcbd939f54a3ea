//! The [`Solver`] trait every backend implements, what it returns ([`Outcome`]), the settings
//! it is built with ([`Options`]), and one module per backend. Backends by name live in
//! [`crate::backends`].
//!
//! A backend is built once (per thread) and reused for many puzzles, so it may keep buffers
//! between calls. `solve(puzzle, limit)` looks for up to `limit` solutions: `limit = 1` finds
//! one, `limit = 2` decides uniqueness.

pub mod basic;
mod basic_order;
pub mod bitmask;
mod clock;
mod cover_order;
pub use crate::deadline;
pub mod dlx;
pub mod dlx_array;
pub mod exec;
mod group_cpu;
pub mod logic;
mod options;
mod outcome;
mod pipe;
pub mod plugin;
mod progress;
pub mod projection;
pub mod sat;
mod time_limit;
pub mod wide;

pub use clock::{Clock, Spent, Stopwatch, UnknownClock};
pub use options::{BuildError, Options, Setting, Settings};

pub use outcome::{Count, Impossible, Limit, Outcome, Stats};
pub use time_limit::TimeLimited;

use crate::puzzle::Puzzle;
use std::time::Duration;

/// What one [`Solver::solve_batch`] call returns: the answers, the time their solving took
/// by the clock the caller asked for, and the backend's fault, all together (nothing is asked
/// of the backend afterwards).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    /// One outcome per puzzle, in order. A backend that answers fewer leaves the rest
    /// `unknown` (the runner fills them in).
    pub outcomes: Vec<Outcome>,
    /// The solving time of these puzzles by the clock asked for: every call the answers
    /// depend on, nothing else (not a pipe to another process, not a start-up).
    pub time: Duration,
    /// Start-up paid in this call or before it and not yet reported (an `exec:` program's
    /// start, a `lib:` worker's loading of its library), by the same clock: reported apart,
    /// never billed as solving. Zero for an in-process backend.
    pub startup: Duration,
    /// Why the backend can no longer answer, once it has failed for good (an external program
    /// that crashed, hung or wrote garbage): its answers from the failure on are `unknown`.
    pub fault: Option<String>,
}

/// A Sudoku solving algorithm. One instance is reused for many puzzles.
///
/// The contract, in one place:
/// - [`solve`](Solver::solve) looks for up to `limit` solutions of a clue grid or a pencilmark
///   position and returns an [`Outcome`]. A count of one or more comes with the first solution;
///   a complete backend that counts two or more should give a second, different solution as
///   its witness (the judge accepts a `2+` without one only when nothing contradicts it).
/// - It must not panic on any puzzle, including ones whose clues contradict each other. (A
///   panic is contained by the runner, which then stops using that instance.)
/// - Answers are never believed as they are: every solution is checked by the independent
///   verifier and every count against the evidence (see [`crate::judge`]).
/// - Its name, completeness and kind are facts of the registry ([`crate::backends`]) or of
///   the [`crate::runner::Backend`] that wraps it, not of an instance.
///
/// Only [`solve`](Solver::solve) is required; the default of
/// [`solve_batch`](Solver::solve_batch) is right for an in-process backend.
pub trait Solver: Send {
    /// Looks for up to `limit` solutions of `puzzle`.
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome;

    /// Solves several puzzles and returns their answers with the time their solving took by
    /// `clock`, and any fault.
    ///
    /// The default calls [`solve`](Solver::solve) on each and times the loop on the calling
    /// thread ([`Stopwatch`]: its CPU time, or wall-clock time). A backend in another process
    /// overrides it to pipeline the puzzles and to measure that process instead: `lib:` the
    /// CPU time of its whole worker process (all threads) over the library's calls, recall
    /// calls included; `exec:` the CPU time of the program's processes; both the wall-clock
    /// time of the same region under [`Clock::Wall`].
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, clock: Clock) -> Batch {
        let watch = Stopwatch::start(clock);
        let outcomes = puzzles.iter().map(|p| self.solve(p, limit)).collect();
        Batch {
            outcomes,
            time: watch.elapsed(),
            ..Batch::default()
        }
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        (**self).solve(puzzle, limit)
    }
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, clock: Clock) -> Batch {
        (**self).solve_batch(puzzles, limit, clock)
    }
}
