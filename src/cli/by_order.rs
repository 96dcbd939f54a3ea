//! The default backend on grids of every order: `bitmask` answers 9×9 puzzles and `wide`
//! the other orders, so that `solve`, `count` and `verify` answer a file of any order without
//! a `--backend`. A backend named on the command line, `bitmask` included, answers alone
//! (and a puzzle it does not solve is `n/a`).

use super::args::DEFAULT_BACKEND;
use anyhow::Result;
use sudobench::runner::Backend;
use sudobench::solver::{Limit, Options, Outcome};

/// The backend `named` on the command line, or when none is named the default: `bitmask`
/// with `wide` answering the grids of other orders (bitmask's board is 9×9).
pub fn backend(named: Option<&str>, options: &Options) -> Result<Backend> {
    if let Some(name) = named {
        return Ok(Backend::builtin(name, options)?);
    }
    let options = options.clone();
    // Built here, once, so that the factory below cannot fail.
    sudobench::backends::build("wide", &options)?;
    sudobench::backends::build("bitmask", &options)?;
    let make = move || ByOrder {
        nine: sudobench::backends::build("bitmask", &options).expect("bitmask builds"),
        other: sudobench::backends::build("wide", &options).expect("wide builds"),
    };
    Ok(Backend::new(DEFAULT_BACKEND, true, make).on_every_order())
}

/// How a run's summary names the backend: the one named, or the default, with `wide` beside
/// it once the run held grids of other orders.
pub fn label(named: Option<&str>, other_orders: bool) -> String {
    match (named, other_orders) {
        (Some(name), _) => name.to_string(),
        (None, false) => DEFAULT_BACKEND.to_string(),
        (None, true) => format!("{DEFAULT_BACKEND} on 9x9, wide on other orders"),
    }
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
