//! `basic`: the simplest correct backtracker, and the oracle every other backend is checked
//! against. Clarity beats speed here: no propagation beyond "digits already used in the row,
//! column or box", and the next cell is the empty one with fewest remaining digits.

use super::progress::Progress;
use super::{Limit, Options, Outcome, Solver, Stats};
use crate::grid::{Grid, Puzzle, ALL_DIGITS, BOX_OF, CELLS, COL_OF, ROW_OF};

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
        };
        search.run();
        search.outcome()
    }
}
