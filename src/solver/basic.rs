//! `basic`: the simplest correct backtracker, and the oracle every other backend is checked
//! against. Clarity beats speed here: no propagation beyond "digits already used in the row,
//! column or box", and the next cell is the empty one with fewest remaining digits.

use super::progress::Progress;
use super::{Limit, Options, Outcome, Solver, Stats};
use crate::grid::{Grid, ALL_DIGITS, BOX_OF, CELLS, COL_OF, ROW_OF};
use crate::puzzle::Puzzle;

/// The oracle backtracker.
#[derive(Debug, Clone)]
pub struct Basic {
    max_nodes: Option<u64>,
}

impl Basic {
    /// Builds the backend; honours `options.max_nodes`.
    pub fn new(options: &Options) -> Basic {
        Basic {
            max_nodes: options.max_nodes,
        }
    }
}

/// One search: the grid being filled, what each cell may still hold, and the digits used per
/// row, column and box.
struct Search {
    cells: [u8; CELLS],
    allowed: [u16; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    progress: Progress,
}

impl Search {
    fn new(allowed: [u16; CELLS], limit: Limit, max_nodes: Option<u64>) -> Search {
        Search {
            cells: [0; CELLS],
            allowed,
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            progress: Progress::new(limit, max_nodes),
        }
    }

    fn used(&self, cell: usize) -> u16 {
        self.rows[ROW_OF[cell] as usize]
            | self.cols[COL_OF[cell] as usize]
            | self.boxes[BOX_OF[cell] as usize]
    }

    /// Places or removes (`bit` toggled) a digit.
    fn toggle(&mut self, cell: usize, bit: u16) {
        self.rows[ROW_OF[cell] as usize] ^= bit;
        self.cols[COL_OF[cell] as usize] ^= bit;
        self.boxes[BOX_OF[cell] as usize] ^= bit;
    }

    /// Places a clue; false if it repeats a digit already in its row, column or box.
    fn place_clue(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u16 << (digit - 1);
        if self.used(cell) & bit != 0 {
            return false;
        }
        self.toggle(cell, bit);
        self.cells[cell] = digit;
        true
    }

    /// Depth-first search; the depth is at most the number of empty cells (≤ 81).
    fn run(&mut self) {
        if self.progress.done() || !self.progress.enter() {
            return;
        }
        let mut best: Option<(usize, u16)> = None;
        for cell in 0..CELLS {
            if self.cells[cell] != 0 {
                continue;
            }
            let options = self.allowed[cell] & !self.used(cell);
            if best.is_none_or(|(_, b)| options.count_ones() < b.count_ones()) {
                best = Some((cell, options));
                if options.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, options)) = best else {
            // Every cell holds a digit 1..=9 here.
            let cells = self.cells;
            self.progress.solution(|| Grid::from_cells(cells).ok());
            return;
        };
        let branching = options.count_ones() > 1;
        for digit in 1..=9u8 {
            let bit = 1u16 << (digit - 1);
            if options & bit == 0 {
                continue;
            }
            if branching {
                self.progress.guesses += 1;
            }
            self.toggle(cell, bit);
            self.cells[cell] = digit;
            self.run();
            self.cells[cell] = 0;
            self.toggle(cell, bit);
            if self.progress.done() {
                return;
            }
        }
    }

    fn outcome(self) -> Outcome {
        self.progress.outcome()
    }
}

impl Solver for Basic {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let mut search = match puzzle {
            Puzzle::Grid(grid) => {
                let mut search = Search::new([ALL_DIGITS; CELLS], limit, self.max_nodes);
                for (cell, &digit) in grid.cells().iter().enumerate() {
                    if digit != 0 && !search.place_clue(cell, digit) {
                        return Outcome::none(Stats::GUESSING);
                    }
                }
                search
            }
            Puzzle::Candidates(candidates) => {
                Search::new(*candidates.masks(), limit, self.max_nodes)
            }
            Puzzle::Order(grid) => return super::basic_order::solve(grid, limit, self.max_nodes),
        };
        search.run();
        search.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Candidates;
    use crate::solver::{deadline, Count};
    use std::time::Instant;

    /// A pencilmark position with two solutions on which `basic`, without propagation,
    /// needs tens of millions of nodes (other backends answer in microseconds).
    pub(crate) const SLOW: &str = "12.4567..1234.6......4.678..23456..9.23.567891.3...78..234...891234.6.8912..56789.23..678.123.5.78..2345...912.456.8.1.34.67.91.3.56..91.3..67.91..4..7.91.3...78.12.45...9..3.56.89123....8.1.3456.891..456.8..234.6..91...5.7891.3.5678.12..567..12.4.6.8..234567..1...567.912....789.23..678912...678.1..45.78.12345.7..1.34..78912.4..78..234.6.89..3456.8912.4.6.89..3456...123..67..1.345.78.1.34..7891234...8..23..67..1234.67....3.567.9.23.5.7.9.234.6.89..345.78..234.678..2.456.8..23..6789..34..7.9.2...678.1..456.891..456789..34.6.8912..567.9123....891..4.6.8912.45.78..23456.8.....5.7891.3.5.78.12.4.6.8.1.34567...234..7891.34.6..912345.78.1.3.56.89123.567.9...456.89123456.8..2.4...89.2.456.89..34.678.12.4567....345.78.....56789";

    fn slow() -> Puzzle {
        Puzzle::Candidates(Candidates::from_bytes(SLOW.as_bytes()).expect("pencilmarks"))
    }

    #[test]
    fn the_node_budget_and_the_deadline_stop_a_search_in_progress() {
        let limited = Options {
            max_nodes: Some(10_000),
            ..Options::default()
        };
        let out = Basic::new(&limited).solve(&slow(), Limit::TWO);
        assert_eq!(out.count(), Count::Unknown);
        assert_eq!(out.stats().nodes, 10_001);
        // No node budget, a deadline already passed: it stops at its first node.
        let mut basic = Basic::new(&Options::default());
        let out =
            deadline::with_deadline(Some(Instant::now()), || basic.solve(&slow(), Limit::TWO));
        assert_eq!(out.count(), Count::Unknown);
        assert_eq!(out.stats().nodes, 1);
    }
}
