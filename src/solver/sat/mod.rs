//! `sat`: Sudoku as CNF, solved by the varisat CDCL solver.
//!
//! The puzzle is encoded as a CNF formula ([`encoding`], selectable by name: `minimal`,
//! `extended`, `reduced`, `augmented`), handed to a fresh [`varisat::Solver`], and the model is
//! decoded into a grid. Uniqueness: after each model, a clause blocking it (over the cells the
//! givens do not fix) is added and the solver is asked again; unsatisfiable means no further
//! solution. [`proof`] writes a DRAT proof of that last step; [`dimacs`] writes and reads the
//! formulas in DIMACS form.
//!
//! The solver receives the formula with every variable negated (its variable v means "x_v is
//! false"): varisat's first decision on a variable assigns it false, so this way a decision
//! places a digit rather than eliminating one, which measured about 10 % faster on
//! forum_hardest_1106 and the same elsewhere. Proofs and DIMACS files use the plain x(r,c,d).
//!
//! Measured with `cargo run --release --example sat_rates -- 2 3000` (thread CPU time, best of
//! two interleaved rounds, counting up to 2 solutions; puzzles/s):
//!
//! | encoding | 17-clue (first 3,000) | magictour_top1465 | forum_hardest_1106 |
//! |---|---:|---:|---:|
//! | `minimal` | 586 | 905 | 203 |
//! | `extended` | 1,839 | 1,371 | 760 |
//! | `reduced` (default) | 4,389 | 3,149 | 1,199 |
//! | `augmented` | 3,351 | 2,461 | 873 |
//!
//! `reduced` is the default: fastest on every set. For 17-clue puzzles most of the time goes
//! into loading clauses into varisat (about 70 % of the instructions), which is why the
//! smallest formula wins; the triads of `augmented` save search but cost more variables.
//!
//! Why a fresh solver per puzzle: `varisat::Solver` is not `Send` (it may hold proof writers),
//! so the backend cannot simply keep one, and reusing one (the full formula loaded once, clues
//! as assumptions, blocking clauses behind an activation literal retired after each puzzle) was
//! slower where search matters: with a rebuild every 20 puzzles (tdoku's minisat harness) it
//! did 6,230/s on 17-clue but 2,359/s on magictour and 464/s on forum_hardest_1106; without
//! rebuilds 3,508, 389 and 120/s.
//!
//! Limits: varisat has no interrupt and no conflict budget, so one SAT call cannot be cut
//! short (a Sudoku formula is always decided quickly); `Options::max_nodes` caps the number of
//! SAT calls instead, which bounds counting many solutions (one call per model found). varisat does not expose its conflict
//! or decision counters either, so `guesses`, `conflicts` and `decisions` stay 0; [`Stats`]
//! reports only `iterations`, the number of SAT calls made (one per model found plus the final
//! unsatisfiable one).

pub mod dimacs;
pub mod encoding;
pub mod proof;
pub mod prover;

pub use encoding::{Encoding, Formula, Givens, Meaning, UnknownEncoding};

use super::{Limit, Options, Outcome, Solver, Stats};
use crate::grid::{Grid, Puzzle};
use varisat::ExtendFormula;

/// The SAT backend: an encoding and the buffers reused between puzzles.
#[derive(Debug, Clone)]
pub struct Sat {
    encoding: Encoding,
    formula: Formula,
    truth: Vec<bool>,
    blocking: Vec<varisat::Lit>,
    scratch: Vec<varisat::Lit>,
    /// Give the solver the negated variables, so that its default decision (false) places a
    /// digit instead of eliminating one.
    place_first: bool,
    /// At most this many SAT calls per puzzle (`Options::max_nodes`); past it, `Unknown`.
    max_calls: u64,
}

impl Sat {
    /// Builds the backend with `options.encoding` (default [`Encoding::DEFAULT`]); the node
    /// budget caps the SAT calls.
    pub fn new(options: &Options) -> Sat {
        let mut sat = Sat::with_encoding(options.encoding.unwrap_or(Encoding::DEFAULT));
        sat.max_calls = options.max_nodes.unwrap_or(u64::MAX);
        sat
    }

    /// Builds the backend with a given encoding.
    pub fn with_encoding(encoding: Encoding) -> Sat {
        Sat {
            encoding,
            formula: Formula::new(),
            truth: Vec::with_capacity(encoding::FULL_VARS),
            blocking: Vec::with_capacity(81),
            scratch: Vec::with_capacity(16),
            place_first: true,
            max_calls: u64::MAX,
        }
    }

    /// Chooses the variables' sign convention (see the module docs); `true` is the default.
    pub fn set_place_first(&mut self, on: bool) {
        self.place_first = on;
    }

    /// The encoding in use.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn run(&mut self, givens: Givens<'_>, limit: Limit) -> Outcome {
        let limit = limit.get();
        self.formula.build(self.encoding, givens);
        let mut solver = varisat::Solver::new();
        let flip = self.place_first;
        for clause in self.formula.clauses() {
            add_clause(&mut solver, clause, flip, &mut self.scratch);
        }
        let mut stats = Stats::default();
        let mut found = 0u32;
        let (mut first, mut second) = (None, None);
        loop {
            if stats.iterations >= self.max_calls {
                return Outcome::searched(found, true, first, second, stats);
            }
            stats.iterations += 1;
            match solver.solve() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => return Outcome::unknown(stats),
            }
            let Some(grid) = read_model(
                &solver,
                &self.formula,
                flip,
                &mut self.truth,
                &mut self.blocking,
            ) else {
                return Outcome::unknown(stats);
            };
            found += 1;
            if first.is_none() {
                first = Some(grid);
            } else if second.is_none() {
                second = Some(grid);
            }
            if found >= limit {
                break;
            }
            add_clause(&mut solver, &self.blocking, flip, &mut self.scratch);
        }
        Outcome::searched(found, false, first, second, stats)
    }
}

/// Decodes the solver's model into a grid and the clause that blocks it (`None` if the model
/// is missing or does not decode to a full grid).
fn read_model(
    solver: &varisat::Solver<'_>,
    formula: &Formula,
    flip: bool,
    truth: &mut Vec<bool>,
    blocking: &mut Vec<varisat::Lit>,
) -> Option<Grid> {
    let model = solver.model()?;
    truth.clear();
    truth.resize(formula.num_vars(), false);
    for lit in model {
        if let Some(t) = truth.get_mut(lit.index()) {
            *t = lit.is_positive() != flip;
        }
    }
    formula.decode(truth, blocking)
}

/// Adds a clause, with every literal negated if `flip` (the solver's variable v then means
/// "not v" of the formula).
fn add_clause(
    solver: &mut varisat::Solver<'_>,
    clause: &[varisat::Lit],
    flip: bool,
    scratch: &mut Vec<varisat::Lit>,
) {
    if flip {
        scratch.clear();
        scratch.extend(clause.iter().map(|&l| !l));
        solver.add_clause(scratch);
    } else {
        solver.add_clause(clause);
    }
}

impl Solver for Sat {
    fn name(&self) -> &str {
        "sat"
    }

    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        match puzzle {
            Puzzle::Grid(grid) => self.run(Givens::Grid(grid), limit),
            Puzzle::Candidates(candidates) => self.run(Givens::Candidates(candidates), limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::basic::Basic;

    #[test]
    fn options_choose_the_encoding() {
        let o = Options {
            encoding: Some(Encoding::Minimal),
            ..Options::default()
        };
        assert_eq!(Sat::new(&o).encoding(), Encoding::Minimal);
        assert_eq!(Sat::new(&Options::default()).encoding(), Encoding::DEFAULT);
        assert!("bogus".parse::<Encoding>().is_err());
    }

    #[test]
    fn every_encoding_agrees_with_basic_on_hard_puzzles() {
        let puzzles = [
            "800000000003600000070090200050007000000045700000100030001000068008500010090000400",
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        ];
        let mut basic = Basic::new(&Options::default());
        for e in Encoding::ALL {
            let mut s = Sat::with_encoding(e);
            for p in puzzles {
                let g: Grid = p.parse().unwrap();
                for limit in [1, 2, 5] {
                    let want = basic.solve(&g.into(), Limit::new(limit).unwrap());
                    let got = s.solve(&g.into(), Limit::new(limit).unwrap());
                    assert_eq!(got.count(), want.count(), "{e} {p} limit {limit}");
                    let sol = got.solution().expect("solved");
                    crate::verify::check(&g, sol).unwrap();
                }
            }
        }
    }
}
