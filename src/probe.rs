//! One question asked of any backend — how many solutions, which one, how many guesses —
//! for the commands that use backends as tools rather than benchmark them (`generate`,
//! `grade`, `verify --minimal`).
//!
//! This is the only place where those commands read a [`Solver`]'s answer, so that a change of
//! the trait or of [`Outcome`](crate::solver::Outcome) touches one function.

use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::{Count, Limit, Solver};

/// What a backend said about one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Solutions found, up to the limit; `None` when the backend could not decide.
    pub count: Option<u32>,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// The backend's guesses (branch points where it tried an alternative).
    pub guesses: u64,
}

impl Probe {
    /// Whether the backend found exactly one solution (with a limit of at least 2).
    pub fn is_unique(&self) -> bool {
        self.count == Some(1)
    }
}

/// Asks `solver` for up to `limit` solutions of `puzzle` (a limit of 0 asks for one). An
/// answer the judge's check rejects ([`crate::judge::check_answer`]: an invalid solution, a
/// bad witness, a count above the limit) is taken as undecided.
pub fn probe(solver: &mut dyn Solver, puzzle: &Puzzle, limit: u32) -> Probe {
    let limit = Limit::new(limit).unwrap_or(Limit::ONE);
    let outcome = solver.solve(puzzle, limit);
    let trusted = crate::judge::check_answer(puzzle, &outcome).is_none();
    Probe {
        count: match outcome.count() {
            Count::Exactly(n) | Count::AtLeast(n) if trusted => Some(n),
            _ => None,
        },
        solution: outcome.solution().copied().filter(|_| trusted),
        guesses: outcome.stats().guesses.unwrap_or(0),
    }
}

/// [`probe`] for a clue grid.
pub fn probe_grid(solver: &mut dyn Solver, grid: &Grid, limit: u32) -> Probe {
    probe(solver, &Puzzle::Grid(*grid), limit)
}

/// The clues of a uniquely solvable `grid` that are not needed: removing any one of them
/// alone leaves a puzzle that `solver` still finds unique. Empty for a minimal puzzle.
/// Returns `None` if `grid` itself is not unique for `solver` (or it cannot decide some count).
pub fn redundant_clues(solver: &mut dyn Solver, grid: &Grid) -> Option<Vec<usize>> {
    if !probe_grid(solver, grid, 2).is_unique() {
        return None;
    }
    let mut redundant = Vec::new();
    for cell in 0..81 {
        if grid.get(cell) == 0 {
            continue;
        }
        let mut without = *grid;
        without.set(cell, 0);
        match probe_grid(solver, &without, 2).count {
            Some(1) => redundant.push(cell),
            Some(_) => {}
            None => return None,
        }
    }
    Some(redundant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::basic::Basic;
    use crate::solver::Options;

    // A minimal 17-clue puzzle (every 17-clue puzzle is minimal).
    const MINIMAL: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn a_17_clue_puzzle_has_no_redundant_clue_and_an_extra_clue_is_named() {
        let mut basic = Basic::new(&Options::default());
        let g: Grid = MINIMAL.parse().unwrap();
        assert_eq!(redundant_clues(&mut basic, &g), Some(vec![]));
        let solution = probe_grid(&mut basic, &g, 2).solution.unwrap();
        let mut extra = g;
        extra.set(1, solution.get(1));
        // The added clue is redundant; so may others be, but it must be listed.
        let found = redundant_clues(&mut basic, &extra).unwrap();
        assert!(found.contains(&1), "{found:?}");
        // Not unique: no answer.
        let mut open = g;
        open.set(0, 0);
        assert_eq!(redundant_clues(&mut basic, &open), None);
    }
}
