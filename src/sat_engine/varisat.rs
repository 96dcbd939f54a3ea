//! The varisat engine.

use super::traits::{Engine, Session};
use ::varisat::{ExtendFormula, Lit};

/// The varisat engine: a fresh [`varisat::Solver`] per puzzle (it is not `Send`, so the
/// backend cannot keep one; the module docs of [`crate::solver::sat`] have the measurements
/// that made a fresh solver the choice anyway).
#[derive(Debug, Clone, Copy, Default)]
pub struct Varisat;

/// A varisat solver holding one puzzle's formula.
pub struct VarisatSession {
    solver: ::varisat::Solver<'static>,
    /// The last model, by variable.
    model: Vec<bool>,
}

impl Engine for Varisat {
    type Session<'a> = VarisatSession;

    fn name(&self) -> &'static str {
        "sat"
    }

    fn decides_false_first(&self) -> bool {
        true
    }

    fn session(&mut self, vars: usize) -> VarisatSession {
        VarisatSession {
            solver: ::varisat::Solver::new(),
            model: Vec::with_capacity(vars),
        }
    }
}

impl Session for VarisatSession {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Option<bool> {
        self.solver.assume(assumptions);
        let sat = self.solver.solve().ok()?;
        if sat {
            let model = self.solver.model()?;
            self.model.clear();
            self.model.resize(model.len(), false);
            for lit in model {
                if let Some(t) = self.model.get_mut(lit.index()) {
                    *t = lit.is_positive();
                }
            }
        }
        Some(sat)
    }

    fn value(&self, var: usize) -> Option<bool> {
        self.model.get(var).copied()
    }
}
