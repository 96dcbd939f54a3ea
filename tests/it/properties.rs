//! Property tests across every backend: puzzles made from valid grids by random symmetries
//! and random holes get the same count (limit 2) from every complete backend as from `basic`;
//! every solution verifies; a unique solution is the grid the puzzle was cut from; and a
//! symmetry applied to a puzzle maps each backend's unique solution the same way.

use crate::common::Named;
use proptest::prelude::*;
use sudobench::backends;
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options, Solver};
use sudobench::symmetry::Symmetry;
use sudobench::{verify, Grid};

const SEED_SOLUTION: &str =
    "462831957795426183381795426173984265659312748248567319926178534834259671517643892";

fn backends() -> Vec<Named> {
    let options = Options {
        max_nodes: Some(2_000_000),
        ..Options::default()
    };
    backends::builtin_names()
        .map(|n| Named::build(n, &options))
        .collect()
}

/// A valid solved grid: the seed solution under a random symmetry.
fn solved_grid(seed: u64) -> Grid {
    let grid: Grid = SEED_SOLUTION.parse().expect("seed grid");
    Symmetry::from_seed(seed).apply(&grid)
}

/// The grid with the cells whose `holes` bit is set emptied.
fn cut(grid: &Grid, holes: &[bool]) -> Grid {
    let mut p = *grid;
    for (cell, &hole) in holes.iter().enumerate() {
        if hole {
            p.set(cell, 0);
        }
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn every_backend_agrees_with_the_oracle(
        seed in any::<u64>(),
        holes in prop::collection::vec(prop::bool::weighted(0.6), 81),
    ) {
        let grid = solved_grid(seed);
        prop_assert!(verify::check_complete(&grid).is_ok());
        let puzzle = cut(&grid, &holes);
        let mut all = backends();
        let truth = all[0].solve(&puzzle.into(), Limit::TWO);
        prop_assert_eq!(all[0].name(), "basic");
        let Some(want) = truth.count().found() else {
            return Err(TestCaseError::fail("oracle gave up"));
        };
        prop_assert!(want >= 1, "a puzzle cut from a valid grid has a solution");
        for backend in all.iter_mut() {
            let got = backend.solve(&puzzle.into(), Limit::TWO);
            if let Some(s) = &got.solution() {
                prop_assert!(verify::check(&puzzle, s).is_ok(), "{}: invalid {}", backend.name(), s);
            }
            match got.count() {
                Count::Exactly(n) | Count::AtLeast(n) => {
                    prop_assert_eq!(n, want, "{} on {}", backend.name(), puzzle);
                    if n == 1 {
                        prop_assert_eq!(got.solution(), Some(&grid), "{}", backend.name());
                    }
                    // Two solutions come with a witness: valid and different from the first.
                    if n == 2 {
                        let (Some(first), Some(second)) = (&got.solution(), &got.second()) else {
                            return Err(TestCaseError::fail(format!("{}: no witness", backend.name())));
                        };
                        let p = sudobench::puzzle::Puzzle::Grid(puzzle);
                        prop_assert!(
                            verify::check_second(&p, first, second).is_ok(),
                            "{}: bad witness {}",
                            backend.name(),
                            second
                        );
                    }
                }
                Count::Unknown => prop_assert!(!backend.is_complete(), "{} gave up", backend.name()),
            }
        }
    }

    #[test]
    fn symmetries_map_solutions(
        seed in any::<u64>(),
        sym_seed in any::<u64>(),
        holes in prop::collection::vec(prop::bool::weighted(0.55), 81),
    ) {
        let grid = solved_grid(seed);
        let puzzle = cut(&grid, &holes);
        let symmetry = Symmetry::from_seed(sym_seed);
        let moved = symmetry.apply(&puzzle);
        for backend in backends().iter_mut() {
            let a = backend.solve(&puzzle.into(), Limit::TWO);
            let b = backend.solve(&moved.into(), Limit::TWO);
            if backend.is_complete() {
                prop_assert_eq!(a.count(), b.count(), "{}", backend.name());
            }
            if let (Count::Exactly(1), Count::Exactly(1), Some(sa), Some(sb)) =
                (a.count(), b.count(), a.solution(), b.solution())
            {
                prop_assert_eq!(symmetry.apply(sa), *sb, "{}", backend.name());
            }
        }
    }
}
