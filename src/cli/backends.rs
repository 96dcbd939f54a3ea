//! `sudobench backends`: the list of built-in backends.

use anyhow::Result;
use std::io::Write;
use sudobench::backends::{ProblemKind, BACKENDS};

/// Prints one line per backend: name, whether `bench` runs it by default, whether it solves
/// grids of every order, description.
pub fn list() -> Result<bool> {
    let mut out = std::io::stdout().lock();
    for b in BACKENDS {
        let mark = if b.default { "*" } else { " " };
        let orders = match b.problems.contains(&ProblemKind::SudokuOrders) {
            true => "+",
            false => " ",
        };
        writeln!(out, "{:<12}{mark}{orders} {}", b.name, b.description)?;
    }
    writeln!(
        out,
        "{:<12}   any program speaking the line protocol (see README)",
        "exec:CMD"
    )?;
    writeln!(
        out,
        "{:<12}   a function with tdoku's C signature in a shared library, run in a worker \
         process (see README)",
        "lib:PATH:SYMBOL"
    )?;
    writeln!(
        out,
        "(* = run by `bench` when no --backends are given; + = solves grids of every order, \
         4x4 to 64x64, the others 9x9 only)"
    )?;
    let xc: Vec<&str> = sudobench::xc::BACKENDS.iter().map(|(n, _)| *n).collect();
    writeln!(
        out,
        "Exact-cover files (Knuth's format, docs/exact-cover.md): {}",
        xc.join(", ")
    )?;
    Ok(true)
}
