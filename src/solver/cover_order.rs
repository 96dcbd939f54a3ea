//! `dlx` and `dlx-array` on grids of other orders than 9×9: the grid reduced by its clues to
//! exact cover ([`crate::xc::order`]) and solved by the exact-cover engine of the same method
//! (Algorithm C with dancing links, Algorithm X with counter arrays); each cover maps back to
//! a grid. (The SAT backends encode other orders directly: [`crate::solver::sat::order_cnf`].)

use super::{Limit, Outcome, Stats};
use crate::order::OrderGrid;
use crate::puzzle::Solution;
use crate::xc::order::{fill, reduce, Reduced};

/// Solves `grid` with the exact-cover engine `engine` (`dlx` or `dlx-array`).
pub(super) fn solve(
    engine: &str,
    grid: &OrderGrid,
    limit: Limit,
    max_nodes: Option<u64>,
) -> Outcome {
    let (instance, placements) = match reduce(grid) {
        Reduced::Contradiction => return Outcome::none(Stats::default()),
        Reduced::Cover {
            instance,
            placements,
        } => (instance, placements),
    };
    let asked = crate::xc::Limit::AtMost(u64::from(limit.get()));
    let Some(found) = crate::xc::run(engine, &instance, asked, max_nodes, 2, &mut |_| {}) else {
        return Outcome::unknown(Stats::default());
    };
    let mut solutions = found
        .solutions
        .iter()
        .map(|cover| Solution::from(fill(grid, &placements, cover)));
    let (first, second) = (solutions.next(), solutions.next());
    let stats = Stats {
        nodes: found.nodes,
        updates: found.updates,
        ..Stats::default()
    };
    let count = u32::try_from(found.count).unwrap_or(u32::MAX);
    Outcome::searched(count, limit, !found.complete, first, second, stats)
}
