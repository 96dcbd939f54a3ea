//! The default backend on grids of every order: `bitmask` answers 9×9 puzzles and `wide`
//! the other orders ([`Backend::by_order`]), so that `solve`, `count` and `verify` answer a
//! file of any order without a `--backend`. A backend named on the command line, `bitmask`
//! included, answers alone (and a puzzle it does not solve is `n/a`).

use anyhow::Result;
use sudobench::runner::{Backend, DEFAULT_BACKEND, OTHER_ORDERS_BACKEND};
use sudobench::solver::Options;

/// The backend `named` on the command line, or when none is named the default.
pub fn backend(named: Option<&str>, options: &Options) -> Result<Backend> {
    Ok(match named {
        Some(name) => Backend::builtin(name, options)?,
        None => Backend::by_order(options)?,
    })
}

/// How a run's summary names the backend: the one named, or the default, with the other
/// orders' backend beside it once the run held grids of other orders.
pub fn label(named: Option<&str>, other_orders: bool) -> String {
    match (named, other_orders) {
        (Some(name), _) => name.to_string(),
        (None, false) => DEFAULT_BACKEND.to_string(),
        (None, true) => format!("{DEFAULT_BACKEND} on 9x9, {OTHER_ORDERS_BACKEND} on other orders"),
    }
}
