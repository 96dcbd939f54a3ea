//! Proofs of a puzzle's count: a DRAT proof that it has no second solution, or that it has no
//! solution at all, checkable by any independent DRAT checker.
//!
//! [`prove`] encodes the puzzle and looks for a first solution S with one solver. If there is
//! one, a second, fresh solver gets the same formula plus the clause that blocks S (negation
//! of S's digits in the cells the givens do not fix); if there is none, it gets the formula
//! alone. Either way its DRAT output is switched on *before* any clause is added (varisat's
//! API requires that, and DRAT cannot express clauses added after a solve). The formula is
//! unsatisfiable exactly when S is the only solution (or, without a blocking clause, when
//! there is no solution), and the DRAT proof certifies it. The CNF written is exactly what
//! the proving solver received, so
//!
//! ```text
//! rate PUZZLE.cnf PUZZLE.drat        # prints "s VERIFIED"
//! drat-trim PUZZLE.cnf PUZZLE.drat   # any other DRAT checker works the same way
//! ```
//!
//! checks it. What the checker does not check is that the CNF encodes the puzzle and (for a
//! uniqueness proof) that the last clause blocks S: the CNF's comments say what every variable means, the formula is the
//! one `sudobench cnf --encoding NAME` prints (plus the blocking clause, its last line), and S
//! itself is checked by `verify`. With `--encoding extended` the CNF is the textbook encoding
//! with one unit clause per clue, the easiest to audit by hand.

use super::dimacs;
use super::encoding::{Encoding, Formula, Givens};
use super::order_cnf::OrderCnf;
use crate::order::OrderGrid;
use crate::puzzle::{Puzzle, Solution};
use std::io::{self, Write};
use std::sync::Arc;
use varisat::{ExtendFormula, ProofFormat};

/// What [`prove`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The puzzle has no solution; the CNF (the puzzle's formula alone) and the DRAT proof
    /// were written.
    NoSolution,
    /// The puzzle has exactly this solution; the CNF and the DRAT proof were written.
    Unique(Solution),
    /// The puzzle has at least two solutions (the files hold no valid proof).
    Multiple,
}

/// Why a proof could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// Writing the CNF or the proof failed.
    #[error("writing: {0}")]
    Io(#[from] io::Error),
    /// The SAT solver reported an error (e.g. while writing its proof).
    #[error("SAT solver: {0}")]
    Solver(String),
    /// The solver's model did not decode into a grid.
    #[error("the SAT model does not decode to a grid")]
    Decode,
    /// Grids of other orders than 9×9 have one encoding, `reduced`.
    #[error("a {0} grid is proven in the reduced encoding only (not {1})")]
    Encoding(String, Encoding),
}

/// Proves that `puzzle` has a unique solution, or none: writes the CNF (the `encoding` of the
/// puzzle, plus the clause blocking its first solution if it has one) to `cnf` and the DRAT
/// refutation of it to `proof`. See the module documentation for how to check the result.
pub fn prove(
    puzzle: &Puzzle,
    encoding: Encoding,
    cnf: &mut dyn Write,
    proof: &mut dyn Write,
) -> Result<Proven, ProofError> {
    let givens = match puzzle {
        Puzzle::Grid(g) => Givens::Grid(g),
        Puzzle::Candidates(c) => Givens::Candidates(c),
        Puzzle::Order(g) if encoding == Encoding::Reduced => return prove_order(g, cnf, proof),
        Puzzle::Order(g) => return Err(ProofError::Encoding(g.order().label(), encoding)),
    };
    let mut formula = Formula::new();
    formula.build(encoding, givens);

    // First solution.
    let Some(truth) = first_model(formula.clauses(), formula.num_vars())? else {
        let title = [
            format!("sudobench proof input: puzzle {puzzle}"),
            "the formula is unsatisfiable iff the puzzle has no solution".to_string(),
        ];
        let title: Vec<&str> = title.iter().map(String::as_str).collect();
        dimacs::write(cnf, &formula, &[], &title)?;
        cnf.flush()?;
        return match refute(formula.clauses(), None, proof)? {
            true => Ok(Proven::NoSolution),
            // The two solvers disagree: no proof to offer.
            false => Err(ProofError::Solver(
                "a second solver found a solution the first did not".to_string(),
            )),
        };
    };
    let mut blocking = Vec::new();
    let solution = formula
        .decode(&truth, &mut blocking)
        .ok_or(ProofError::Decode)?;

    let title = [
        format!("sudobench proof input: puzzle {puzzle}"),
        format!("solution {solution}"),
        "the last clause blocks that solution; the formula is unsatisfiable iff it is unique"
            .to_string(),
    ];
    let title: Vec<&str> = title.iter().map(String::as_str).collect();
    dimacs::write(cnf, &formula, &[&blocking], &title)?;
    cnf.flush()?;

    Ok(if refute(formula.clauses(), Some(&blocking), proof)? {
        Proven::Unique(Solution::Grid(solution))
    } else {
        Proven::Multiple
    })
}

/// [`prove`] for a grid of another order: the same two steps on its [`OrderCnf`] (the
/// reduced encoding, as `sudobench cnf` writes it).
fn prove_order(
    puzzle: &OrderGrid,
    cnf: &mut dyn Write,
    proof: &mut dyn Write,
) -> Result<Proven, ProofError> {
    let formula = OrderCnf::new(puzzle);
    let side = puzzle.order().side();
    let (solution, blocking) = match first_model(formula.clauses(), formula.num_vars())? {
        Some(truth) => {
            let mut blocking = Vec::new();
            let solution = formula
                .decode(puzzle, &truth, &mut blocking)
                .ok_or(ProofError::Decode)?;
            (Some(solution), Some(blocking))
        }
        None => (None, None),
    };
    let mut title = vec![format!(
        "sudobench proof input: puzzle {}",
        puzzle.to_line()
    )];
    match &solution {
        Some(s) => {
            title.push(format!("solution {}", s.to_line()));
            title.push(
                "the last clause blocks that solution; the formula is unsatisfiable iff it is unique"
                    .to_string(),
            );
        }
        None => {
            title.push("the formula is unsatisfiable iff the puzzle has no solution".to_string())
        }
    }
    let title: Vec<&str> = title.iter().map(String::as_str).collect();
    let extra: Vec<&[varisat::Lit]> = blocking.iter().map(Vec::as_slice).collect();
    dimacs::write_order(cnf, &formula, side, &extra, &title)?;
    cnf.flush()?;
    let unsat = refute(formula.clauses(), blocking.as_deref(), proof)?;
    match (solution, unsat) {
        (Some(s), true) => Ok(Proven::Unique(Solution::Order(Arc::new(s)))),
        (Some(_), false) => Ok(Proven::Multiple),
        (None, true) => Ok(Proven::NoSolution),
        (None, false) => Err(ProofError::Solver(
            "a second solver found a solution the first did not".to_string(),
        )),
    }
}

/// A model of `clauses` (the value of each of the `vars` variables), or `None` if they are
/// unsatisfiable: the first step of a proof, by a solver that writes none.
fn first_model<'a>(
    clauses: impl Iterator<Item = &'a [varisat::Lit]>,
    vars: usize,
) -> Result<Option<Vec<bool>>, ProofError> {
    let mut finder = varisat::Solver::new();
    for clause in clauses {
        finder.add_clause(clause);
    }
    let satisfiable = finder
        .solve()
        .map_err(|e| ProofError::Solver(e.to_string()))?;
    if !satisfiable {
        return Ok(None);
    }
    let model = finder.model().ok_or(ProofError::Decode)?;
    let mut truth = vec![false; vars];
    for lit in model {
        if let Some(t) = truth.get_mut(lit.index()) {
            *t = lit.is_positive();
        }
    }
    Ok(Some(truth))
}

/// Solves `clauses` (plus `extra`, if given) with a solver that writes DRAT to `proof` from its
/// first clause on; true if it is unsatisfiable (and `proof` refutes it).
///
/// The proof always ends with the empty clause: varisat omits it when the formula is refuted
/// while its clauses are being added (unit propagation alone), which leaves an empty proof that
/// some checkers (`rate`) do not accept. The empty clause is then a RUP lemma, so adding it
/// keeps the proof valid for every checker.
fn refute<'a>(
    clauses: impl Iterator<Item = &'a [varisat::Lit]>,
    extra: Option<&[varisat::Lit]>,
    proof: &mut dyn Write,
) -> Result<bool, ProofError> {
    let mut drat = Vec::with_capacity(64 * 1024);
    let unsat = {
        let mut prover = varisat::Solver::new();
        prover.write_proof(&mut drat, ProofFormat::Drat);
        for clause in clauses {
            prover.add_clause(clause);
        }
        if let Some(clause) = extra {
            prover.add_clause(clause);
        }
        let result = prover.solve();
        let closed = prover.close_proof();
        match (result, closed) {
            (Err(e), _) | (_, Err(e)) => return Err(ProofError::Solver(e.to_string())),
            (Ok(sat), Ok(())) => !sat,
        }
    };
    if unsat && !ends_with_empty_clause(&drat) {
        drat.extend_from_slice(b"0\n");
    }
    proof.write_all(&drat)?;
    proof.flush()?;
    Ok(unsat)
}

/// Whether the last line of a text DRAT proof is the empty clause (`0`).
fn ends_with_empty_clause(drat: &[u8]) -> bool {
    let text = drat.strip_suffix(b"\n").unwrap_or(drat);
    let last = match text.iter().rposition(|&b| b == b'\n') {
        Some(i) => &text[i + 1..],
        None => text,
    };
    last.trim_ascii() == b"0"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_clause_is_recognised_only_as_the_last_line() {
        assert!(ends_with_empty_clause(b"1 2 0\n0\n"));
        assert!(ends_with_empty_clause(b"0\n"));
        assert!(ends_with_empty_clause(b"0"));
        assert!(!ends_with_empty_clause(b""));
        assert!(!ends_with_empty_clause(b"1 2 0\n"));
        assert!(!ends_with_empty_clause(b"d 1 0\n"));
        assert!(!ends_with_empty_clause(b"0\n-3 0\n"));
    }
}
