//! What a depth-first search for up to `limit` solutions has found so far, and its node
//! budgets (nodes, and the thread's deadline): the bookkeeping `basic`, `bitmask` and `logic` share.

use super::{deadline, Limit, Outcome, Stats};
use crate::grid::Grid;
use crate::puzzle::Solution;

/// Solutions found, the first of them, the work counters and the node budget of one search
/// whose solutions are of type `S` (9×9 grids unless said otherwise).
pub(crate) struct Progress<S = Grid> {
    limit: u32,
    asked: Limit,
    max_nodes: u64,
    found: u32,
    first: Option<S>,
    second: Option<S>,
    out_of_budget: bool,
    /// Whether the deadline is read at the coarse rate ([`deadline::due_coarse`]).
    coarse_clock: bool,
    /// Guesses so far (the backend adds them).
    pub(crate) guesses: u64,
    /// The backend's other work counters (nodes are counted by [`enter`](Progress::enter)).
    pub(crate) stats: Stats,
}

impl<S: Into<Solution>> Progress<S> {
    /// A search for up to `limit` solutions in at most `max_nodes` nodes.
    pub(crate) fn new(limit: Limit, max_nodes: Option<u64>) -> Progress<S> {
        Progress {
            limit: limit.get(),
            asked: limit,
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            found: 0,
            first: None,
            second: None,
            out_of_budget: false,
            coarse_clock: false,
            guesses: 0,
            stats: Stats::default(),
        }
    }

    /// The search reads the deadline at the coarse rate of [`deadline::due_coarse`], for
    /// nodes of well under a microsecond.
    pub(crate) fn with_coarse_clock(mut self) -> Progress<S> {
        self.coarse_clock = true;
        self
    }

    /// Counts a node; false once the node budget is spent or the thread's deadline
    /// ([`super::deadline`]) has passed, and the search must stop.
    #[inline(always)]
    pub(crate) fn enter(&mut self) -> bool {
        self.stats.nodes += 1;
        let due = match self.coarse_clock {
            true => deadline::due_coarse(self.stats.nodes),
            false => deadline::due(self.stats.nodes),
        };
        if self.stats.nodes > self.max_nodes || due {
            self.out_of_budget = true;
            return false;
        }
        true
    }

    /// Whether the search should stop: the limit is reached or the budget spent.
    #[inline(always)]
    pub(crate) fn done(&self) -> bool {
        self.found >= self.limit || self.out_of_budget
    }

    /// Counts a solution; `solution` is called for the first two only (the answer and the
    /// witness of a second solution).
    #[inline]
    pub(crate) fn solution(&mut self, solution: impl FnOnce() -> Option<S>) {
        self.found += 1;
        if self.first.is_none() {
            self.first = solution();
        } else if self.second.is_none() {
            self.second = solution();
        }
    }

    /// The answer: the count (or `unknown` when the budget ran out) and the first solution.
    pub(crate) fn outcome(mut self) -> Outcome {
        self.stats.guesses = Some(self.guesses);
        Outcome::searched(
            self.found,
            self.asked,
            self.out_of_budget,
            self.first.map(Into::into),
            self.second.map(Into::into),
            self.stats,
        )
    }
}
