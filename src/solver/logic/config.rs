//! Which deductions the `logic` backends and the grader use.

/// Which deductions the closure uses. The default is [`LogicConfig::PLAIN`]; the two limits
/// (`naked_singles_only`, `max_subset`) exist so that a grader can run the closure with a
/// growing set of techniques and find the weakest one that solves a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LogicConfig {
    /// Also apply box–line intersections (locked candidates: pointing and claiming).
    pub locked_candidates: bool,
    /// Leave hidden singles out: singles are naked singles only.
    pub naked_singles_only: bool,
    /// The largest subset size searched (naked or hidden, 2..=4; a unit of `n` open fields
    /// never needs more than `n / 2`); `Some(1)` or less: no subsets, `None`: every size.
    pub max_subset: Option<u8>,
}

impl LogicConfig {
    /// Singles and subsets only (the `logic` backend).
    pub const PLAIN: LogicConfig = LogicConfig {
        locked_candidates: false,
        naked_singles_only: false,
        max_subset: None,
    };
    /// Singles, subsets and locked candidates (the `logic-lc` backend).
    pub const LOCKED: LogicConfig = LogicConfig {
        locked_candidates: true,
        naked_singles_only: false,
        max_subset: None,
    };

    /// The subset sizes searched in a unit with `open` open fields: up to `open / 2`, within
    /// [`max_subset`](LogicConfig::max_subset).
    pub(super) fn subset_limit(&self, open: u32) -> u32 {
        let half = open / 2;
        self.max_subset.map_or(half, |m| half.min(u32::from(m)))
    }
}
