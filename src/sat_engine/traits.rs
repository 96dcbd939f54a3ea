//! What the suite asks of a SAT solver.

use varisat::Lit;

/// One puzzle's formula loaded into a SAT solver: what the counting loop needs of it.
///
/// Variables are 0-based indices below the count given to [`Engine::session`]; literals are
/// varisat's [`Lit`], the type the encoder writes.
pub trait Session {
    /// Adds a clause.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Decides the clauses added so far: `Some(true)` satisfiable (the model can be read),
    /// `Some(false)` unsatisfiable, `None` undecided (the solver failed or gave up).
    fn solve(&mut self) -> Option<bool> {
        self.solve_under(&[])
    }
    /// Decides the clauses added so far with `assumptions` true for this call only (the
    /// cubes of exact-cover counting): answers as [`Session::solve`] does.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Option<bool>;
    /// The value of `var` in the model of the last satisfiable [`Session::solve`] (`None` if
    /// the model leaves it unassigned).
    fn value(&self, var: usize) -> Option<bool>;
    /// Conflicts and decisions made so far in this session, where the solver counts them.
    fn counters(&self) -> Option<(u64, u64)> {
        None
    }
}

/// A SAT solver for the backends: one [`Session`] per puzzle.
pub trait Engine: Send {
    /// The session type; it may borrow the engine (to reuse a solver's allocations).
    type Session<'a>: Session
    where
        Self: 'a;
    /// The backend's name (`sat`, `sat-batsat`, …).
    fn name(&self) -> &'static str;
    /// Whether the solver decides a fresh variable false first (varisat): then the backend
    /// gives it every variable negated, so that a decision places a digit instead of
    /// eliminating one. An engine that can set the phase itself returns false.
    fn decides_false_first(&self) -> bool {
        false
    }
    /// A session for a formula over `vars` variables, with no clauses yet.
    fn session(&mut self, vars: usize) -> Self::Session<'_>;
}
