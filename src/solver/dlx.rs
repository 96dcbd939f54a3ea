//! `dlx`: Sudoku as an exact-cover problem, solved by the generic Dancing Links engine in
//! [`exact_cover`](crate::exact_cover).
//!
//! The matrix has 729 options, one per (cell, digit), and 324 primary items: "cell is
//! filled" (81), "digit in row" (81), "digit in column" (81), "digit in box" (81); every
//! option covers exactly four items. It is built once per backend instance. Per puzzle the
//! clue options are selected before the search (a clue whose option is already gone, because
//! another clue covers one of its items, means 0 solutions), or, for a pencilmark position,
//! the eliminated options are removed; the search then counts covers up to the limit and the
//! structure is restored for the next puzzle.
//!
//! This is the textbook method with no Sudoku-specific inference: the MRV rule on items is
//! what makes it work (an item with one option left is a naked or hidden single, so singles
//! are taken before any branch).

use super::{BuildError, Limit, Options, Outcome, Solver, Stats};
use crate::exact_cover::{ExactCover, SearchResult};
use crate::grid::{Candidates, Grid, BOX_OF, CELLS, COL_OF, ROW_OF};
use crate::puzzle::Puzzle;

/// Options in the Sudoku matrix: one per (cell, digit).
pub const OPTIONS: usize = CELLS * 9;
/// Primary items: cell, row-digit, column-digit and box-digit constraints.
pub const ITEMS: usize = 4 * CELLS;

/// The option for `digit` (1..=9) in `cell`.
fn option(cell: usize, digit: u8) -> usize {
    cell * 9 + usize::from(digit) - 1
}

/// The four items of the option `cell * 9 + d` (d = digit − 1).
fn option_items(cell: usize, d: usize) -> [usize; 4] {
    [
        cell,
        CELLS + usize::from(ROW_OF[cell]) * 9 + d,
        2 * CELLS + usize::from(COL_OF[cell]) * 9 + d,
        3 * CELLS + usize::from(BOX_OF[cell]) * 9 + d,
    ]
}

/// The Dancing Links backend.
#[derive(Clone, Debug)]
pub struct Dlx {
    matrix: ExactCover,
    max_nodes: Option<u64>,
}

impl Dlx {
    /// Builds the 729 × 324 matrix; honours `options.max_nodes`.
    pub fn new(options: &Options) -> Result<Dlx, BuildError> {
        let invalid = |e: crate::exact_cover::ExactCoverError| BuildError::Invalid {
            name: "dlx".to_string(),
            reason: e.to_string(),
        };
        let mut matrix = ExactCover::new(ITEMS, 0).map_err(invalid)?;
        for cell in 0..CELLS {
            for d in 0..9 {
                matrix.add_option(&option_items(cell, d)).map_err(invalid)?;
            }
        }
        Ok(Dlx {
            matrix,
            max_nodes: options.max_nodes,
        })
    }

    /// Searches the prepared matrix, completes `cells` (the clues) from the first two covers,
    /// and restores the matrix.
    fn finish(&mut self, cells: [u8; CELLS], limit: Limit) -> Outcome {
        let r: SearchResult = self.matrix.search(u64::from(limit.get()), self.max_nodes);
        let grid = |cover: &[usize]| {
            let mut cells = cells;
            for &o in cover {
                cells[o / 9] = (o % 9) as u8 + 1;
            }
            Grid::from_cells(cells).ok()
        };
        let solution = self.matrix.first_cover().and_then(grid);
        let second = self.matrix.second_cover().and_then(grid);
        self.matrix.reset();
        let stats = Stats {
            guesses: Some(r.stats.guesses),
            nodes: r.stats.nodes,
            updates: r.stats.updates,
            ..Stats::default()
        };
        // The count never exceeds the limit, a u32.
        let found = u32::try_from(r.count).unwrap_or(u32::MAX);
        Outcome::searched(found, limit, !r.complete, solution, second, stats)
    }
}

impl Solver for Dlx {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        match puzzle {
            Puzzle::Grid(grid) => self.solve_grid(grid, limit),
            Puzzle::Candidates(candidates) => self.solve_candidates(candidates, limit),
            Puzzle::Order(g) => super::cover_order::solve("dlx", g, limit, self.max_nodes),
        }
    }
}

impl Dlx {
    fn solve_grid(&mut self, puzzle: &Grid, limit: Limit) -> Outcome {
        self.matrix.reset();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            match self.matrix.select(option(cell, digit)) {
                Ok(true) => {}
                // A clue that repeats a digit in a unit: its option is gone.
                Ok(false) => {
                    self.matrix.reset();
                    return Outcome::none(Stats::GUESSING);
                }
                // Unreachable with a valid grid; answer "unknown" rather than guess.
                Err(_) => {
                    self.matrix.reset();
                    return Outcome::unknown(Stats::default());
                }
            }
        }
        self.finish(*puzzle.cells(), limit)
    }

    fn solve_candidates(&mut self, candidates: &Candidates, limit: Limit) -> Outcome {
        self.matrix.reset();
        for (cell, &mask) in candidates.masks().iter().enumerate() {
            for digit in 1..=9u8 {
                if mask & (1 << (digit - 1)) == 0
                    && self.matrix.remove(option(cell, digit)).is_err()
                {
                    self.matrix.reset();
                    return Outcome::unknown(Stats::default());
                }
            }
        }
        self.finish([0; CELLS], limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Count;
    use crate::test_puzzles::{HARD, HARD_SOLUTION};

    #[test]
    fn matrix_shape() {
        let d = Dlx::new(&Options::default()).unwrap();
        assert_eq!(d.matrix.options(), OPTIONS);
        assert_eq!(d.matrix.items(), ITEMS);
        // Every item is covered by exactly nine options.
        let mut per_item = [0u32; ITEMS];
        for o in 0..OPTIONS {
            for i in d.matrix.option_items(o).unwrap() {
                per_item[i] += 1;
            }
        }
        assert!(per_item.iter().all(|&n| n == 9));
    }

    #[test]
    fn node_budget_answers_unknown_then_recovers() {
        let hard: Grid = HARD.parse().unwrap();
        let mut d = Dlx::new(&Options {
            max_nodes: Some(20),
            ..Options::default()
        })
        .unwrap();
        let got = d.solve(&hard.into(), Limit::TWO);
        assert_eq!(got.count(), Count::Unknown);
        assert_eq!(got.stats().nodes, 21);
        // The same instance still answers an easy question correctly afterwards.
        let solution: Grid = HARD_SOLUTION.parse().unwrap();
        let full = d.solve(&solution.into(), Limit::TWO);
        assert_eq!(full.count(), Count::Exactly(1));
        assert_eq!(full.solution(), Some(&solution));
        let mut unlimited = Dlx::new(&Options::default()).unwrap();
        let got = unlimited.solve(&hard.into(), Limit::TWO);
        assert_eq!(got.count(), Count::Exactly(1));
        assert_eq!(got.solution(), Some(&solution));
        assert!(
            got.stats().guesses > Some(0)
                && Some(got.stats().nodes) > got.stats().guesses.map(|g| g / 2)
        );
    }
}
