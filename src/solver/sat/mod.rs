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
//! SAT calls instead, which bounds counting many solutions (one call per model found), and a
//! time budget ([`crate::deadline`]) is read before each call. varisat does not expose its conflict
//! or decision counters either, so `guesses`, `conflicts` and `decisions` stay 0; [`Stats`](crate::solver::Stats)
//! reports only `iterations`, the number of SAT calls made (one per model found plus the final
//! unsatisfiable one).

pub mod batsat;
#[cfg(feature = "cadical")]
pub mod cadical;
pub mod clauses;
pub mod dimacs;
pub mod encoding;
pub mod engine;
pub mod order_cnf;
pub mod proof;

pub use encoding::{Encoding, Formula, Givens, Meaning, UnknownEncoding};
pub use engine::{Engine, SatBackend, Session, Varisat};

/// The `sat` backend: the shared SAT backend over varisat.
pub type Sat = SatBackend<Varisat>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::solver::basic::Basic;
    use crate::solver::{Limit, Options, Solver};

    #[test]
    fn options_choose_the_encoding() {
        let o = Options::default().with(Encoding::Minimal);
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
