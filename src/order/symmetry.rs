//! Validity-preserving symmetries of a grid of any order: the symbols relabelled, bands and
//! stacks permuted, rows within each band and columns within each stack permuted, and the
//! grid transposed or not. A puzzle and its image have the same number of solutions; the
//! grader averages a search's guesses over random images, as on 9×9.

use super::{Order, OrderGrid};
use crate::util::SplitMix64;

/// One symmetry of an order's grids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderSymmetry {
    order: Order,
    /// Source row of each target row, source column of each target column.
    rows: Vec<usize>,
    cols: Vec<usize>,
    transpose: bool,
    /// New symbol of each symbol (index v for symbol v; 0 stays 0).
    relabel: Vec<u8>,
}

/// A permutation of `0..n·n` that keeps groups of n together: the groups permuted, and the
/// members within each group.
fn grouped(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut groups);
    let mut out = Vec::with_capacity(n * n);
    for g in groups {
        let mut members: Vec<usize> = (g * n..g * n + n).collect();
        rng.shuffle(&mut members);
        out.extend(members);
    }
    out
}

impl OrderSymmetry {
    /// A symmetry drawn from `rng`.
    pub fn random(order: Order, rng: &mut SplitMix64) -> OrderSymmetry {
        let n = order.n();
        let rows = grouped(n, rng);
        let cols = grouped(n, rng);
        let transpose = rng.below(2) == 1;
        let mut symbols: Vec<u8> = (1..=order.side() as u8).collect();
        rng.shuffle(&mut symbols);
        let mut relabel = vec![0u8];
        relabel.extend(symbols);
        OrderSymmetry {
            order,
            rows,
            cols,
            transpose,
            relabel,
        }
    }

    /// The image of `grid` (which must be of this symmetry's order; another is returned as
    /// it is).
    pub fn apply(&self, grid: &OrderGrid) -> OrderGrid {
        if grid.order() != self.order {
            return grid.clone();
        }
        let side = self.order.side();
        let mut out = OrderGrid::empty(self.order);
        for r in 0..side {
            for c in 0..side {
                let (sr, sc) = (self.rows[r], self.cols[c]);
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                let v = grid.get(sr * side + sc);
                out.set(r * side + c, self.relabel[usize::from(v)]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::check::check;

    #[test]
    fn images_of_a_solved_grid_are_solved_grids_with_the_same_clue_count() {
        // A solved 16x16 grid by the pattern (r·n + r/n + c) mod side.
        let order = Order::new(4).unwrap();
        let (n, side) = (4, 16);
        let values: Vec<u8> = (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                ((r * n + r / n + c) % side + 1) as u8
            })
            .collect();
        let full = OrderGrid::from_values(order, values).unwrap();
        let mut puzzle = full.clone();
        for i in (0..side * side).step_by(3) {
            puzzle.set(i, 0);
        }
        let mut rng = SplitMix64::new(7);
        for _ in 0..20 {
            let s = OrderSymmetry::random(order, &mut rng);
            let (p, f) = (s.apply(&puzzle), s.apply(&full));
            check(&p, &f).unwrap();
            assert_eq!(p.clue_count(), puzzle.clue_count());
        }
    }
}
