//! The batsat engine ([batsat](https://crates.io/crates/batsat), a pure-Rust CDCL solver in
//! the minisat lineage): a fresh solver per formula, its variables created with the phase
//! "true" (so that a decision on a Sudoku variable places a digit), conflicts and decisions
//! counted.

use super::traits::{Engine, Session};
use ::batsat::{lbool, SolverInterface};
use varisat::Lit;

/// batsat callbacks that do nothing (batsat's own `Basic` holds a boxed closure and is not
/// `Send`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl ::batsat::Callbacks for Quiet {}

/// The batsat engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct Batsat;

/// A batsat solver holding one puzzle's formula.
pub struct BatsatSession {
    solver: ::batsat::Solver<Quiet>,
    clause: Vec<::batsat::Lit>,
}

impl Engine for Batsat {
    type Session<'a> = BatsatSession;

    fn name(&self) -> &'static str {
        "sat-batsat"
    }

    fn session(&mut self, vars: usize) -> BatsatSession {
        let mut solver = ::batsat::Solver::new(::batsat::SolverOpts::default(), Quiet);
        for _ in 0..vars {
            solver.new_var(lbool::TRUE, true);
        }
        BatsatSession {
            solver,
            clause: Vec::with_capacity(16),
        }
    }
}

/// batsat's literal for a varisat one (same 0-based variable).
fn lit(l: Lit) -> ::batsat::Lit {
    ::batsat::Lit::new(
        ::batsat::Var::unsafe_from_idx(l.index() as u32),
        l.is_positive(),
    )
}

/// A batsat truth value as a `bool`, `None` where undefined.
fn known(v: lbool) -> Option<bool> {
    if v == lbool::TRUE {
        Some(true)
    } else if v == lbool::FALSE {
        Some(false)
    } else {
        None
    }
}

impl Session for BatsatSession {
    fn add_clause(&mut self, clause: &[Lit]) {
        // Variables past those created (never, from the encoder) are created on the way.
        for l in clause {
            self.solver.var_of_int(l.index() as u32);
        }
        self.clause.clear();
        self.clause.extend(clause.iter().map(|&l| lit(l)));
        self.solver.add_clause_reuse(&mut self.clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Option<bool> {
        self.clause.clear();
        self.clause.extend(assumptions.iter().map(|&l| lit(l)));
        known(self.solver.solve_limited(&self.clause))
    }

    fn value(&self, var: usize) -> Option<bool> {
        known(self.solver.get_model().get(var).copied()?)
    }

    fn counters(&self) -> Option<(u64, u64)> {
        Some((self.solver.num_conflicts(), self.solver.num_decisions()))
    }
}
