//! A time limit per puzzle for any in-process backend ([`Options::max_time`]): each call of
//! [`Solver::solve`] runs under a [`deadline`] of its own, which every built-in search reads
//! (at nodes 1, 2, 4, … and every [`deadline::CHECK_EVERY`]; the SAT backends while loading
//! and between solver calls), so that a puzzle past its time answers `unknown` instead of
//! holding up the run.
//!
//! [`Options::max_time`]: super::Options::max_time

use super::{deadline, Limit, Outcome, Solver};
use crate::puzzle::Puzzle;
use std::time::Duration;

/// A backend whose every puzzle gets at most `limit` of wall-clock time.
pub struct TimeLimited {
    inner: Box<dyn Solver>,
    limit: Duration,
}

impl TimeLimited {
    /// `inner`, each of whose searches stops after `limit`.
    pub fn new(inner: Box<dyn Solver>, limit: Duration) -> TimeLimited {
        TimeLimited { inner, limit }
    }
}

impl Solver for TimeLimited {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        deadline::within(Some(self.limit), || self.inner.solve(puzzle, limit))
    }
}
