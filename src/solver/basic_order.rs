//! `basic` on grids of other orders: a plain backtracker over `u64` digit sets (which hold the
//! 64 digits of the largest order) — digits already used in the row, column or box, no other
//! deduction kept between nodes. At each node it branches on the smallest choice: the empty
//! cell with fewest digits left, or the row, column or box where some digit has fewest places
//! left (on 9×9 the cell rule alone is enough; on 16×16 and up it is not: without the places
//! rule a minimal 16×16 puzzle takes millions of nodes). It is the oracle: clarity beats speed.

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

    /// The `i`-th cell of house `h` (rows, then columns, then boxes).
    fn house_cell(&self, h: usize, i: usize) -> usize {
        let (side, n) = (self.side, self.n);
        match h / side {
            0 => h * side + i,
            1 => i * side + (h - side),
            _ => {
                let b = h - 2 * side;
                ((b / n) * n + i / n) * side + (b % n) * n + i % n
            }
        }
    }

    /// The smallest choice at this node: `(cells, digits)` pairs to try, or `None` when the
    /// grid is full. An empty list means a dead end.
    fn choice(&self) -> Option<Vec<(usize, u8)>> {
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
        let (cell, options) = best?;
        let digits = |m: u64| {
            (0..64)
                .filter(move |d| m >> d & 1 == 1)
                .map(|d| d as u8 + 1)
        };
        let mut choice: Vec<(usize, u8)> = digits(options).map(|d| (cell, d)).collect();
        if choice.len() <= 1 {
            return Some(choice);
        }
        for h in 0..3 * self.side {
            let houses = [&self.rows, &self.cols, &self.boxes];
            let missing = all & !houses[h / self.side][h % self.side];
            for digit in digits(missing) {
                let bit = 1u64 << (digit - 1);
                let places: Vec<(usize, u8)> = (0..self.side)
                    .map(|i| self.house_cell(h, i))
                    .filter(|&c| self.grid.get(c) == 0 && self.used(c) & bit == 0)
                    .map(|c| (c, digit))
                    .collect();
                if places.len() < choice.len() {
                    choice = places;
                    if choice.len() <= 1 {
                        return Some(choice);
                    }
                }
            }
        }
        Some(choice)
    }

    /// Depth-first search; the depth is at most the number of empty cells.
    fn run(&mut self) {
        if self.progress.done() || !self.progress.enter() {
            return;
        }
        let Some(choice) = self.choice() else {
            let grid = self.grid.clone();
            self.progress.solution(|| Some(grid));
            return;
        };
        let branching = choice.len() > 1;
        for (cell, digit) in choice {
            let bit = 1u64 << (digit - 1);
            if branching {
                self.progress.guesses += 1;
            }
            self.toggle(cell, bit);
            self.grid.set(cell, digit);
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
