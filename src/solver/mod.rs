//! The [`Solver`] trait every backend implements, what it returns ([`Outcome`]), the settings
//! it is built with ([`Options`]), and one module per backend. Backends by name live in
//! [`crate::backends`].
//!
//! A backend is built once (per thread) and reused for many puzzles, so it may keep buffers
//! between calls. `solve(puzzle, limit)` looks for up to `limit` solutions: `limit = 1` finds
//! one, `limit = 2` decides uniqueness.

pub mod basic;
pub mod bitmask;
pub mod dlx;
pub mod dlx_array;
pub mod exec;
pub mod logic;
mod options;
mod outcome;
mod pipe;
pub mod plugin;
mod progress;
pub mod projection;
pub mod sat;
pub mod wide;

pub use options::{BuildError, Options};

pub use outcome::{Count, Limit, Outcome, Stats};

use crate::grid::Puzzle;
use std::time::Duration;

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
/// - The runner times each [`solve_batch`](Solver::solve_batch) call with its wall clock,
///   unless the backend says how long its solving took by itself
///   ([`measured_time`](Solver::measured_time)): an out-of-process backend does, so that the
///   pipe to its process is not counted as solving.
///
/// Only [`name`](Solver::name) and [`solve`](Solver::solve) are required; the defaults of the
/// others are right for a complete, in-process backend.
pub trait Solver: Send {
    /// Short stable name used on the command line and in reports.
    fn name(&self) -> &str;

    /// Whether every answer is decided: `false` if [`Count::Unknown`] can come back for a
    /// puzzle without a budget being spent, as with the projection method.
    fn is_complete(&self) -> bool {
        true
    }

    /// Looks for up to `limit` solutions of `puzzle`.
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome;

    /// Solves several puzzles, appending one outcome per puzzle to `outcomes`, in order.
    ///
    /// The default solves them one by one; override it when handing over many puzzles at once
    /// saves time (the external-program backend pipelines them).
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, outcomes: &mut Vec<Outcome>) {
        for p in puzzles {
            outcomes.push(self.solve(p, limit));
        }
    }

    /// Why the backend can no longer answer, once it has failed for good (an external program
    /// that crashed, hung or wrote garbage). Its later answers are all `Unknown`.
    fn fault(&self) -> Option<&str> {
        None
    }

    /// The solving time of the last [`solve_batch`](Solver::solve_batch) call as the backend
    /// measured it itself, or `None` (the default) to be timed by the runner's wall clock
    /// around the call.
    ///
    /// The runner asks right after every `solve_batch` that returned normally and uses the
    /// answer for the report and the time budget. It must cover that call's puzzles only,
    /// and only the solving of them: `lib:` returns the thread CPU time its worker process
    /// spent in the library's calls for the batch (not the pipe round trip, not its untimed
    /// second calls for a solution), `exec:` the time from sending the batch's first puzzle
    /// to reading its last answer (not the program's start). A backend that has failed and
    /// answers `unknown` without working reports what it spent, usually zero.
    fn measured_time(&self) -> Option<Duration> {
        None
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn is_complete(&self) -> bool {
        (**self).is_complete()
    }
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        (**self).solve(puzzle, limit)
    }
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, outcomes: &mut Vec<Outcome>) {
        (**self).solve_batch(puzzles, limit, outcomes)
    }
    fn fault(&self) -> Option<&str> {
        (**self).fault()
    }
    fn measured_time(&self) -> Option<Duration> {
        (**self).measured_time()
    }
}
