//! The independent solution checker.
//!
//! Every answer any backend gives passes through here before it is believed. On purpose this
//! module uses none of the geometry tables or helpers the backends share: it recomputes rows,
//! columns and boxes with plain arithmetic, so a bug in shared code cannot hide a wrong answer.

use crate::grid::{Candidates, Grid};
use crate::order::check::{check as check_order, CheckError};
use crate::puzzle::{Puzzle, Solution};

/// Why a proposed solution is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A cell of the solution is empty.
    #[error("cell r{row}c{col} is empty")]
    Empty {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A digit appears twice in a row, column or box.
    #[error("digit {digit} appears twice in {unit}")]
    Repeated {
        /// The repeated digit.
        digit: u8,
        /// Human name of the unit, e.g. `row 3`.
        unit: String,
    },
    /// A clue of the puzzle was changed.
    #[error("clue {clue} at r{row}c{col} was changed to {found}")]
    ClueChanged {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The clue.
        clue: u8,
        /// What the solution has there.
        found: u8,
    },
    /// A cell holds a digit its pencilmarks excluded.
    #[error("r{row}c{col} holds {found}, which its candidates exclude")]
    NotACandidate {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// What the solution has there.
        found: u8,
    },
    /// A witness of a second solution repeats the first.
    #[error("the second solution is the first one again")]
    SameSolution,
    /// A grid of another order breaks a rule or a clue (checked by [`crate::order::check`],
    /// which is written from the rules alone too).
    #[error("{0}")]
    Order(CheckError),
    /// The solution is of another size than the puzzle.
    #[error("the solution is {found}, the puzzle {expected}")]
    Shape {
        /// The puzzle's size (`16x16`, …).
        expected: String,
        /// The solution's.
        found: String,
    },
}

/// Checks that `solution` is a complete valid grid (each row, column and box a permutation of
/// 1–9) that keeps every clue of `puzzle`.
pub fn check(puzzle: &Grid, solution: &Grid) -> Result<(), VerifyError> {
    check_complete(solution)?;
    for i in 0..81 {
        let clue = puzzle.cells()[i];
        let found = solution.cells()[i];
        if clue != 0 && clue != found {
            return Err(VerifyError::ClueChanged {
                row: i / 9 + 1,
                col: i % 9 + 1,
                clue,
                found,
            });
        }
    }
    Ok(())
}

/// Checks that `solution` is a complete valid grid whose every digit is among its cell's
/// candidates.
pub fn check_candidates(candidates: &Candidates, solution: &Grid) -> Result<(), VerifyError> {
    check_complete(solution)?;
    for i in 0..81 {
        let found = solution.cells()[i];
        if candidates.masks()[i] >> (found - 1) & 1 == 0 {
            return Err(VerifyError::NotACandidate {
                row: i / 9 + 1,
                col: i % 9 + 1,
                found,
            });
        }
    }
    Ok(())
}

/// Checks a 9×9 solution against a puzzle (a puzzle of another order never has one).
pub fn check_puzzle(puzzle: &Puzzle, solution: &Grid) -> Result<(), VerifyError> {
    match puzzle {
        Puzzle::Grid(g) => check(g, solution),
        Puzzle::Candidates(c) => check_candidates(c, solution),
        Puzzle::Order(g) => Err(VerifyError::Shape {
            expected: g.order().label(),
            found: "9x9".to_string(),
        }),
    }
}

/// Checks a solution of any order against a puzzle of any order.
pub fn check_solution(puzzle: &Puzzle, solution: &Solution) -> Result<(), VerifyError> {
    match (puzzle, solution) {
        (_, Solution::Grid(g)) => check_puzzle(puzzle, g),
        (Puzzle::Order(p), Solution::Order(s)) => check_order(p, s).map_err(VerifyError::Order),
        (_, Solution::Order(s)) => Err(VerifyError::Shape {
            expected: "9x9".to_string(),
            found: s.order().label(),
        }),
    }
}

/// [`check_second`] for solutions of any order.
pub fn check_second_solution(
    puzzle: &Puzzle,
    first: &Solution,
    second: &Solution,
) -> Result<(), VerifyError> {
    check_solution(puzzle, second)?;
    if first == second {
        return Err(VerifyError::SameSolution);
    }
    Ok(())
}

/// Checks the witness of a second solution: a solution of `puzzle` that differs from the
/// first one returned (`first`), so that together they prove "at least two".
pub fn check_second(puzzle: &Puzzle, first: &Grid, second: &Grid) -> Result<(), VerifyError> {
    check_puzzle(puzzle, second)?;
    if first.cells() == second.cells() {
        return Err(VerifyError::SameSolution);
    }
    Ok(())
}

/// Checks that a grid is full and that no row, column or box repeats a digit.
pub fn check_complete(solution: &Grid) -> Result<(), VerifyError> {
    let cells = solution.cells();
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            return Err(VerifyError::Empty {
                row: i / 9 + 1,
                col: i % 9 + 1,
            });
        }
    }
    for k in 0..9 {
        let row: Vec<u8> = (0..9).map(|j| cells[k * 9 + j]).collect();
        let col: Vec<u8> = (0..9).map(|j| cells[j * 9 + k]).collect();
        let (br, bc) = ((k / 3) * 3, (k % 3) * 3);
        let bx: Vec<u8> = (0..9)
            .map(|j| cells[(br + j / 3) * 9 + bc + j % 3])
            .collect();
        permutation(&row, || format!("row {}", k + 1))?;
        permutation(&col, || format!("column {}", k + 1))?;
        permutation(&bx, || format!("box {}", k + 1))?;
    }
    Ok(())
}

fn permutation(values: &[u8], unit: impl Fn() -> String) -> Result<(), VerifyError> {
    let mut seen = [false; 10];
    for &v in values {
        if seen[v as usize] {
            return Err(VerifyError::Repeated {
                digit: v,
                unit: unit(),
            });
        }
        seen[v as usize] = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::{EASY as PUZZLE, EASY_SOLUTION as SOLUTION};

    #[test]
    fn accepts_the_solution() {
        let p: Grid = PUZZLE.parse().unwrap();
        let s: Grid = SOLUTION.parse().unwrap();
        assert_eq!(check(&p, &s), Ok(()));
        assert_eq!(check_candidates(&Candidates::from_grid(&p), &s), Ok(()));
    }

    #[test]
    fn rejects_broken_grids() {
        let p: Grid = PUZZLE.parse().unwrap();
        let s: Grid = SOLUTION.parse().unwrap();
        let mut empty = s;
        empty.set(40, 0);
        assert!(matches!(check(&p, &empty), Err(VerifyError::Empty { .. })));
        // Swapping two cells of a row keeps the row valid but breaks columns.
        let mut swapped = s;
        let (a, b) = (s.get(0), s.get(1));
        swapped.set(0, b);
        swapped.set(1, a);
        assert!(matches!(
            check(&Grid::EMPTY, &swapped),
            Err(VerifyError::Repeated { .. })
        ));
        // A valid grid that is not this puzzle's answer: relabel digits 1<->2.
        let mut relabelled = s;
        for i in 0..81 {
            relabelled.set(
                i,
                match s.get(i) {
                    1 => 2,
                    2 => 1,
                    d => d,
                },
            );
        }
        assert_eq!(check_complete(&relabelled), Ok(()));
        assert!(matches!(
            check(&p, &relabelled),
            Err(VerifyError::ClueChanged { .. })
        ));
    }
}
