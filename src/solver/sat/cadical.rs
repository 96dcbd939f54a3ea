//! `sat-cadical`: the SAT backend over CaDiCaL (the [cadical](https://crates.io/crates/cadical)
//! crate, which compiles CaDiCaL's C++ with `cc`). It shares the encodings and the counting
//! loop with `sat` ([`super::engine`]); only the adapter is here. Behind the cargo feature
//! `cadical` (on by default): `cargo build --no-default-features` needs no C++ compiler.
//!
//! Each puzzle gets a fresh CaDiCaL solver. CaDiCaL's default phase is "true", so a decision
//! places a digit without negating the formula. The crate exposes no conflict or decision
//! counters and no proof output, so this backend reports neither and writes no DRAT proofs
//! (`count --proof` uses varisat, `--backend sat`).

use super::engine::{Engine, SatBackend, Session};
use varisat::Lit;

/// The CaDiCaL engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cadical;

/// A CaDiCaL solver holding one puzzle's formula.
pub struct CadicalSession {
    solver: ::cadical::Solver,
}

/// The backend `sat-cadical`.
pub type SatCadical = SatBackend<Cadical>;

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
