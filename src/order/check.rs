//! Whether a full grid of any order solves a clue grid: every clue kept, every row, column and
//! box a permutation of 1…n². Written from the rules alone, with its own loops (no geometry
//! table, no solver code), so that tests and tools can check any backend's answer with it.

use super::OrderGrid;

/// What is wrong with a claimed solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// Puzzle and solution are of different orders.
    #[error("the solution is {found}, the puzzle {expected}")]
    Order {
        /// The puzzle's order label.
        expected: String,
        /// The solution's.
        found: String,
    },
    /// An empty cell in the solution.
    #[error("cell {0} is empty")]
    Empty(usize),
    /// A clue changed.
    #[error("cell {0} changes a clue")]
    Clue(usize),
    /// A value twice in a house.
    #[error("{house} holds {value} twice")]
    Repeat {
        /// `row 3`, `column 1`, `box 7` (1-based).
        house: String,
        /// The value.
        value: u8,
    },
}

/// Checks that `solution` is full, keeps `puzzle`'s clues and breaks no rule.
pub fn check(puzzle: &OrderGrid, solution: &OrderGrid) -> Result<(), CheckError> {
    if puzzle.order() != solution.order() {
        return Err(CheckError::Order {
            expected: puzzle.order().label(),
            found: solution.order().label(),
        });
    }
    let n = puzzle.order().n();
    let s = n * n;
    for (i, (&p, &v)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if v == 0 {
            return Err(CheckError::Empty(i));
        }
        if p != 0 && p != v {
            return Err(CheckError::Clue(i));
        }
    }
    let at = |r: usize, c: usize| solution.cells()[r * s + c];
    for k in 0..s {
        for (kind, value_of) in [
            ("row", &(|j: usize| at(k, j)) as &dyn Fn(usize) -> u8),
            ("column", &|j: usize| at(j, k)),
            ("box", &|j: usize| at(k / n * n + j / n, k % n * n + j % n)),
        ] {
            let mut seen = vec![false; s + 1];
            for j in 0..s {
                let v = value_of(j) as usize;
                if seen[v] {
                    return Err(CheckError::Repeat {
                        house: format!("{kind} {}", k + 1),
                        value: v as u8,
                    });
                }
                seen[v] = true;
            }
        }
    }
    Ok(())
}
