//! The CaDiCaL engine (the [cadical](https://crates.io/crates/cadical) crate, which compiles
//! CaDiCaL's C++ with `cc`): a fresh solver per formula, whose default phase "true" makes a
//! decision on a Sudoku variable place a digit. The crate exposes no conflict or decision
//! counters and no proof output.

use super::traits::{Engine, Session};
use varisat::Lit;

/// The CaDiCaL engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cadical;

/// A CaDiCaL solver holding one puzzle's formula.
pub struct CadicalSession {
    solver: ::cadical::Solver,
}

impl Engine for Cadical {
    type Session<'a> = CadicalSession;

    fn name(&self) -> &'static str {
        "sat-cadical"
    }

    fn session(&mut self, vars: usize) -> CadicalSession {
        let mut solver = ::cadical::Solver::new();
        solver.reserve(i32::try_from(vars).unwrap_or(i32::MAX));
        CadicalSession { solver }
    }
}

/// DIMACS number of a literal (its 0-based variable plus one, negative if negated).
fn dimacs(l: Lit) -> i32 {
    let v = i32::try_from(l.index() + 1).unwrap_or(i32::MAX);
    if l.is_positive() {
        v
    } else {
        -v
    }
}

impl Session for CadicalSession {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause.iter().map(|&l| dimacs(l)));
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Option<bool> {
        self.solver
            .solve_with(assumptions.iter().map(|&l| dimacs(l)))
    }

    fn value(&self, var: usize) -> Option<bool> {
        let v = i32::try_from(var + 1).ok()?;
        self.solver.value(v)
    }
}
