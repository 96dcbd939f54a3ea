//! `basic` on grids of other orders: the same plain backtracker as on 9×9 — digits already
//! used in the row, column or box, and the empty cell with fewest remaining digits next — over
//! `u64` digit sets, which hold the 64 digits of the largest order. Slow on large grids by
//! design: it is the oracle, and clarity beats speed.

use super::progress::Progress;
use super::{Limit, Outcome, Stats};
use crate::order::OrderGrid;

/// One search over an order-n grid.
struct Search {
    grid: OrderGrid,
    n: usize,
    side: usize,
    /// Digits used per row, column and box (bit d − 1 for digit d).
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
    progress: Progress<OrderGrid>,
}

impl Search {
    fn houses(&self, cell: usize) -> (usize, usize, usize) {
        let (r, c) = (cell / self.side, cell % self.side);
        (r, c, (r / self.n) * self.n + c / self.n)
    }

    fn used(&self, cell: usize) -> u64 {
        let (r, c, b) = self.houses(cell);
        self.rows[r] | self.cols[c] | self.boxes[b]
    }

    fn toggle(&mut self, cell: usize, bit: u64) {
        let (r, c, b) = self.houses(cell);
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[b] ^= bit;
    }

    /// Depth-first search; the depth is at most the number of empty cells.
    fn run(&mut self) {
        if self.progress.done() || !self.progress.enter() {
            return;
        }
        let all = if self.side == 64 {
            u64::MAX
        } else {
            (1u64 << self.side) - 1
        };
        let mut best: Option<(usize, u64)> = None;
        for cell in 0..self.side * self.side {
            if self.grid.get(cell) != 0 {
                continue;
            }
            let options = all & !self.used(cell);
            if best.is_none_or(|(_, b)| options.count_ones() < b.count_ones()) {
                best = Some((cell, options));
                if options.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, options)) = best else {
            let grid = self.grid.clone();
            self.progress.solution(|| Some(grid));
            return;
        };
        let branching = options.count_ones() > 1;
        let mut rest = options;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if branching {
                self.progress.guesses += 1;
            }
            self.toggle(cell, bit);
            self.grid.set(cell, bit.trailing_zeros() as u8 + 1);
            self.run();
            self.grid.set(cell, 0);
            self.toggle(cell, bit);
            if self.progress.done() {
                return;
            }
        }
    }
}

/// Looks for up to `limit` solutions of `puzzle` within `max_nodes` nodes.
pub(super) fn solve(puzzle: &OrderGrid, limit: Limit, max_nodes: Option<u64>) -> Outcome {
    let (n, side) = (puzzle.order().n(), puzzle.order().side());
    let mut search = Search {
        grid: OrderGrid::empty(puzzle.order()),
        n,
        side,
        rows: vec![0; side],
        cols: vec![0; side],
        boxes: vec![0; side],
        progress: Progress::new(limit, max_nodes),
    };
    for cell in 0..side * side {
        let digit = puzzle.get(cell);
        if digit == 0 {
            continue;
        }
        let bit = 1u64 << (digit - 1);
        if search.used(cell) & bit != 0 {
            return Outcome::none(Stats::GUESSING);
        }
        search.toggle(cell, bit);
        search.grid.set(cell, digit);
    }
    search.run();
    search.progress.outcome()
}
