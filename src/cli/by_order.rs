//! The default backend on grids of every order: `bitmask` answers 9×9 puzzles and `wide`
//! the other orders, so that `solve`, `count` and `verify` answer a file of any order without
//! a `--backend`.

use anyhow::Result;
use sudobench::runner::Backend;
use sudobench::solver::{Limit, Options, Outcome};

/// `bitmask`, the default, with `wide` answering the grids of other orders (bitmask's board
/// is 9×9): what `solve` and `count` run unless told otherwise. Any other backend as it is.
pub fn every_order(backend: Backend, options: &Options) -> Result<Backend> {
    if backend.name() != "bitmask" {
        return Ok(backend);
    }
    let options = options.clone();
    // Built here, once, so that the factory below cannot fail.
    sudobench::backends::build("wide", &options)?;
    sudobench::backends::build("bitmask", &options)?;
    let make = move || ByOrder {
        nine: sudobench::backends::build("bitmask", &options).expect("bitmask builds"),
        other: sudobench::backends::build("wide", &options).expect("wide builds"),
    };
    Ok(Backend::new("bitmask", true, make).on_every_order())
}

/// One backend for 9×9 puzzles and another for the other orders.
struct ByOrder {
    nine: Box<dyn sudobench::Solver>,
    other: Box<dyn sudobench::Solver>,
}

impl sudobench::Solver for ByOrder {
    fn solve(&mut self, puzzle: &sudobench::Puzzle, limit: Limit) -> Outcome {
        match puzzle {
            sudobench::Puzzle::Order(_) => self.other.solve(puzzle, limit),
            _ => self.nine.solve(puzzle, limit),
        }
    }
}
