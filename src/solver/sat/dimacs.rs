//! DIMACS CNF: writing a [`Formula`] so that any SAT solver can be tried on it, and a small
//! strict reader used to check what was written.
//!
//! The written file starts with `c` comment lines: the puzzle, the encoding and what the
//! variables mean (for `minimal`/`extended` one line giving the fixed numbering
//! `81·(r−1) + 9·(c−1) + d`; for the simplified encodings one `c v N MEANING` line per
//! variable, e.g. `c v 17 r2c5=3` or `c v 301 r4c1-3~7` for a row-segment triad), then the
//! header `p cnf VARS CLAUSES` and one clause per line ending in `0`.

use super::encoding::Formula;
use super::order_cnf::OrderCnf;
use std::io::{self, Write};
use varisat::Lit;

/// Writes `formula`, plus the `extra` clauses (e.g. a blocking clause), as DIMACS CNF.
/// `title` lines become comments at the top.
pub fn write(
    out: &mut dyn Write,
    formula: &Formula,
    extra: &[&[Lit]],
    title: &[&str],
) -> io::Result<()> {
    for line in title {
        writeln!(out, "c {line}")?;
    }
    writeln!(out, "c encoding {}", formula.encoding())?;
    if formula.identity_numbering() {
        writeln!(
            out,
            "c variable 81*(r-1)+9*(c-1)+d means: cell r{{r}}c{{c}} holds digit d (r, c, d in 1..9)"
        )?;
    } else {
        for var in 0..formula.num_vars() {
            if let Some(m) = formula.meaning(var) {
                writeln!(out, "c v {} {m}", var + 1)?;
            }
        }
    }
    body(
        out,
        formula.num_vars(),
        formula.num_clauses() + extra.len(),
        formula.clauses().chain(extra.iter().copied()),
    )
}

/// Writes the `count` `clauses` over `vars` variables as DIMACS CNF, after `comments` (one
/// `c` line each): any formula, such as the exact-cover CNF (`xc::sat::Cnf`).
pub fn write_clauses<'a>(
    out: &mut dyn Write,
    vars: usize,
    count: usize,
    clauses: impl Iterator<Item = &'a [Lit]>,
    comments: &[String],
) -> io::Result<()> {
    for line in comments {
        writeln!(out, "c {line}")?;
    }
    body(out, vars, count, clauses)
}

/// The header `p cnf VARS CLAUSES` and one line per clause, ending in `0`.
fn body<'a>(
    out: &mut dyn Write,
    vars: usize,
    count: usize,
    clauses: impl Iterator<Item = &'a [Lit]>,
) -> io::Result<()> {
    writeln!(out, "p cnf {vars} {count}")?;
    let mut line = String::with_capacity(128);
    for clause in clauses {
        line.clear();
        for lit in clause {
            line.push_str(&lit.to_dimacs().to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes the formula of a grid of another order than 9×9 ([`OrderCnf`]) as DIMACS CNF:
/// `title` lines, then one `c v N rRcC=V` line per candidate variable (rows and columns
/// from 1) and one line naming the auxiliary variables, the header, the clauses and the
/// `extra` clauses (a proof's blocking clause).
pub fn write_order(
    out: &mut dyn Write,
    cnf: &OrderCnf,
    side: usize,
    extra: &[&[Lit]],
    title: &[&str],
) -> io::Result<()> {
    for line in title {
        writeln!(out, "c {line}")?;
    }
    writeln!(out, "c encoding reduced (any order: exactly one value per empty cell and one place per open value of each house)")?;
    for var in 0..cnf.num_candidates() {
        if let Some((cell, value)) = cnf.meaning(var) {
            let (r, c) = (cell / side + 1, cell % side + 1);
            writeln!(out, "c v {} r{r}c{c}={value}", var + 1)?;
        }
    }
    if cnf.num_vars() > cnf.num_candidates() {
        writeln!(
            out,
            "c variables {} to {}: sequential-counter auxiliaries of the at-most-one constraints",
            cnf.num_candidates() + 1,
            cnf.num_vars()
        )?;
    }
    body(
        out,
        cnf.num_vars(),
        cnf.num_clauses() + extra.len(),
        cnf.clauses().chain(extra.iter().copied()),
    )
}

/// A CNF formula read back from DIMACS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    /// Variables declared in the header.
    pub num_vars: usize,
    /// Clauses, as DIMACS literals (nonzero, |literal| ≤ `num_vars`).
    pub clauses: Vec<Vec<i64>>,
}

/// Why a text is not the strict DIMACS this module writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DimacsError {
    /// No `p cnf VARS CLAUSES` line before the first clause.
    #[error("line {0}: clause before the `p cnf` header")]
    NoHeader(usize),
    /// A malformed header line.
    #[error("line {0}: malformed header (want `p cnf VARS CLAUSES`)")]
    BadHeader(usize),
    /// A second header line.
    #[error("line {0}: second header")]
    SecondHeader(usize),
    /// A token that is not an integer.
    #[error("line {line}: {token:?} is not a literal")]
    BadLiteral {
        /// 1-based line.
        line: usize,
        /// The token.
        token: String,
    },
    /// A literal naming a variable beyond the header's count.
    #[error("line {line}: literal {lit} exceeds the {vars} declared variables")]
    VarOutOfRange {
        /// 1-based line.
        line: usize,
        /// The literal.
        lit: i64,
        /// Declared variables.
        vars: usize,
    },
    /// The last clause has no terminating 0.
    #[error("last clause is not terminated by 0")]
    Unterminated,
    /// The number of clauses differs from the header's.
    #[error("header declares {declared} clauses, found {found}")]
    ClauseCount {
        /// In the header.
        declared: usize,
        /// In the body.
        found: usize,
    },
    /// No header at all.
    #[error("no `p cnf` header")]
    Missing,
}

/// Parses DIMACS CNF strictly: comments (`c`) anywhere, one header, every literal within the
/// declared variables, every clause ended by `0`, and exactly the declared number of clauses.
pub fn parse(text: &str) -> Result<Cnf, DimacsError> {
    let mut header: Option<(usize, usize)> = None;
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if line.starts_with('p') {
            if header.is_some() {
                return Err(DimacsError::SecondHeader(line_no));
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            match parts.as_slice() {
                ["p", "cnf", v, c] => match (v.parse(), c.parse()) {
                    (Ok(v), Ok(c)) => header = Some((v, c)),
                    _ => return Err(DimacsError::BadHeader(line_no)),
                },
                _ => return Err(DimacsError::BadHeader(line_no)),
            }
            continue;
        }
        let Some((vars, _)) = header else {
            return Err(DimacsError::NoHeader(line_no));
        };
        for token in line.split_whitespace() {
            let lit: i64 = token.parse().map_err(|_| DimacsError::BadLiteral {
                line: line_no,
                token: token.to_string(),
            })?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else if lit.unsigned_abs() > vars as u64 {
                return Err(DimacsError::VarOutOfRange {
                    line: line_no,
                    lit,
                    vars,
                });
            } else {
                current.push(lit);
            }
        }
    }
    let Some((num_vars, declared)) = header else {
        return Err(DimacsError::Missing);
    };
    if !current.is_empty() {
        return Err(DimacsError::Unterminated);
    }
    if clauses.len() != declared {
        return Err(DimacsError::ClauseCount {
            declared,
            found: clauses.len(),
        });
    }
    Ok(Cnf { num_vars, clauses })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::solver::sat::encoding::{Encoding, Givens};

    #[test]
    fn round_trip_every_encoding() {
        let g: Grid =
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
                .parse()
                .unwrap();
        for e in Encoding::ALL {
            let mut f = Formula::new();
            f.build(e, Givens::Grid(&g));
            let blocking = [Lit::from_dimacs(-1)];
            let mut out = Vec::new();
            write(&mut out, &f, &[&blocking], &["test"]).unwrap();
            let text = String::from_utf8(out).unwrap();
            let cnf = parse(&text).unwrap();
            assert_eq!(cnf.num_vars, f.num_vars(), "{e}");
            assert_eq!(cnf.clauses.len(), f.num_clauses() + 1, "{e}");
            for (got, want) in cnf.clauses.iter().zip(f.clauses()) {
                let want: Vec<i64> = want.iter().map(|l| l.to_dimacs() as i64).collect();
                assert_eq!(got, &want, "{e}");
            }
            assert_eq!(cnf.clauses.last(), Some(&vec![-1]));
        }
    }

    #[test]
    fn rejects_malformed() {
        assert_eq!(parse("1 2 0\n"), Err(DimacsError::NoHeader(1)));
        assert_eq!(parse("c x\n"), Err(DimacsError::Missing));
        assert!(matches!(
            parse("p cnf 2 1\n1 3 0\n"),
            Err(DimacsError::VarOutOfRange { .. })
        ));
        assert_eq!(parse("p cnf 2 1\n1 2\n"), Err(DimacsError::Unterminated));
        assert!(matches!(
            parse("p cnf 2 2\n1 2 0\n"),
            Err(DimacsError::ClauseCount { .. })
        ));
        assert!(matches!(
            parse("p cnf 2 1\n1 x 0\n"),
            Err(DimacsError::BadLiteral { .. })
        ));
        assert_eq!(parse("p cnf 2\n"), Err(DimacsError::BadHeader(1)));
        assert_eq!(
            parse("p cnf 1 1\n-1 0 \n"),
            Ok(Cnf {
                num_vars: 1,
                clauses: vec![vec![-1]]
            })
        );
    }
}
