//! What an order-n search found: the shared answer shape of the order-n backends, before it
//! is turned into the crate's outcome.

use super::OrderGrid;

/// Up to two solutions of an order-n puzzle and how the search ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Solutions found (at most the limit).
    pub count: u32,
    /// Whether the search covered everything (so `count` is exact); false when it stopped at
    /// the limit or ran out of budget.
    pub exhausted: bool,
    /// The first solution.
    pub first: Option<OrderGrid>,
    /// The second, different solution.
    pub second: Option<OrderGrid>,
    /// Branching decisions taken.
    pub guesses: u64,
    /// Whether the node budget or the thread's deadline stopped the search before it could
    /// decide (the count is then no answer).
    pub stopped: bool,
}

impl Found {
    /// Records a solution: kept as first or second, counted always.
    pub fn push(&mut self, grid: impl FnOnce() -> OrderGrid) {
        match self.count {
            0 => self.first = Some(grid()),
            1 => self.second = Some(grid()),
            _ => {}
        }
        self.count += 1;
    }
}
