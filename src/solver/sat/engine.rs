//! The part every SAT backend shares: encode the puzzle, load the formula into a solver, and
//! count models with blocking clauses. A solver takes part through two small traits:
//! [`Engine`] hands out a [`Session`] per puzzle (a fresh solver, or a reused one), and a
//! session adds clauses, solves, and reads the model. [`SatBackend`] is the backend over any
//! engine: `sat` is `SatBackend<`[`Varisat`]`>`, `sat-batsat` is
//! `SatBackend<`[`super::batsat::Batsat`]`>`.

use super::encoding::{self, Encoding, Formula, Givens};
use super::order_cnf::OrderCnf;
use crate::order::OrderGrid;
use crate::puzzle::{Puzzle, Solution};
use crate::solver::{Limit, Options, Outcome, Solver, Stats};
use varisat::Lit;

pub use crate::sat_engine::{Engine, Session, Varisat};

/// A SAT backend: an encoding, an engine, and the buffers reused between puzzles.
#[derive(Debug, Clone)]
pub struct SatBackend<E> {
    engine: E,
    encoding: Encoding,
    formula: Formula,
    buffers: Buffers,
    /// Give the solver the negated variables (see [`Engine::decides_false_first`]).
    place_first: bool,
    /// At most this many SAT calls per puzzle (`Options::max_nodes`); past it, `Unknown`.
    max_calls: u64,
}

impl<E: Engine + Default> SatBackend<E> {
    /// Builds the backend with the [`Encoding`] in `options` (default [`Encoding::DEFAULT`]); the node
    /// budget caps the SAT calls.
    pub fn new(options: &Options) -> SatBackend<E> {
        let mut sat = SatBackend::with_encoding(
            options
                .get::<Encoding>()
                .copied()
                .unwrap_or(Encoding::DEFAULT),
        );
        sat.max_calls = options.max_nodes.unwrap_or(u64::MAX);
        sat
    }

    /// Builds the backend with a given encoding.
    pub fn with_encoding(encoding: Encoding) -> SatBackend<E> {
        SatBackend::with_engine(E::default(), encoding)
    }
}

impl<E: Engine> SatBackend<E> {
    /// Builds the backend over a given engine and encoding.
    pub fn with_engine(engine: E, encoding: Encoding) -> SatBackend<E> {
        let place_first = engine.decides_false_first();
        SatBackend {
            engine,
            encoding,
            formula: Formula::new(),
            buffers: Buffers {
                truth: Vec::with_capacity(encoding::FULL_VARS),
                blocking: Vec::with_capacity(81),
                scratch: Vec::with_capacity(16),
            },
            place_first,
            max_calls: u64::MAX,
        }
    }

    /// Chooses the variables' sign convention: `true` gives the solver every variable negated
    /// (the default for solvers that decide false first, see [`Engine::decides_false_first`]).
    pub fn set_place_first(&mut self, on: bool) {
        self.place_first = on;
    }

    /// The encoding in use.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn run(&mut self, givens: Givens<'_>, asked: Limit) -> Outcome {
        self.formula.build(self.encoding, givens);
        let counting = self.counting(self.formula.num_vars(), asked);
        let formula = &self.formula;
        let mut session = load(
            &mut self.engine,
            &counting,
            formula.clauses(),
            &mut self.buffers,
        );
        count_models(
            &mut session,
            counting,
            &mut self.buffers,
            |truth, blocking| formula.decode(truth, blocking).map(Solution::Grid),
        )
    }

    /// A grid of another order than 9×9, through [`OrderCnf`] (the encoding setting is for 9×9).
    fn run_order(&mut self, grid: &OrderGrid, asked: Limit) -> Outcome {
        let cnf = OrderCnf::new(grid);
        let counting = self.counting(cnf.num_vars(), asked);
        let mut session = load(
            &mut self.engine,
            &counting,
            cnf.clauses(),
            &mut self.buffers,
        );
        count_models(
            &mut session,
            counting,
            &mut self.buffers,
            |truth, blocking| {
                cnf.decode(grid, truth, blocking)
                    .map(Solution::from_order_grid)
            },
        )
    }

    fn counting(&self, vars: usize, asked: Limit) -> Counting {
        Counting {
            vars,
            asked,
            max_calls: self.max_calls,
            flip: self.place_first,
        }
    }
}

/// What a count of models is asked.
struct Counting {
    /// Variables of the formula.
    vars: usize,
    asked: Limit,
    /// SAT calls allowed.
    max_calls: u64,
    /// The solver's variables are the formula's negated (see [`add_clause`]).
    flip: bool,
}

/// The buffers a count reuses from puzzle to puzzle.
#[derive(Debug, Clone, Default)]
struct Buffers {
    truth: Vec<bool>,
    blocking: Vec<Lit>,
    scratch: Vec<Lit>,
}

/// A session of `engine` holding `clauses`, or fewer once this thread's deadline has passed
/// ([`crate::deadline`]; such a formula is never solved: [`count_models`] reads the deadline
/// before its first call).
fn load<'e, 'c, E: Engine>(
    engine: &'e mut E,
    counting: &Counting,
    clauses: impl Iterator<Item = &'c [Lit]>,
    buffers: &mut Buffers,
) -> E::Session<'e> {
    let mut session = engine.session(counting.vars);
    for (i, clause) in clauses.enumerate() {
        if crate::deadline::due_loading(i) {
            break;
        }
        add_clause(&mut session, clause, counting.flip, &mut buffers.scratch);
    }
    session
}

/// Counts the models of the formula loaded in `session`, up to the limit, each found one
/// blocked by the clause `decode` writes: the loop every SAT backend and every problem
/// shares. `decode` turns a model into its solution (`None`: the model means no grid).
fn count_models<S: Session>(
    session: &mut S,
    counting: Counting,
    buffers: &mut Buffers,
    mut decode: impl FnMut(&[bool], &mut Vec<Lit>) -> Option<Solution>,
) -> Outcome {
    let Counting {
        vars,
        asked,
        max_calls,
        flip,
    } = counting;
    let limit = asked.get();
    let mut stats = Stats::default();
    let mut found = 0u32;
    let (mut first, mut second) = (None, None);
    let mut spent = false;
    loop {
        // A call cannot be cut short, so the deadline (a time budget) is read before each.
        if stats.iterations >= max_calls || crate::deadline::passed() {
            spent = true;
            break;
        }
        stats.iterations += 1;
        match session.solve() {
            Some(true) => {}
            Some(false) => break,
            None => {
                spent = true;
                break;
            }
        }
        buffers.truth.clear();
        buffers
            .truth
            .extend((0..vars).map(|v| session.value(v).is_some_and(|b| b != flip)));
        let Some(solution) = decode(&buffers.truth, &mut buffers.blocking) else {
            return Outcome::unknown(stats);
        };
        found += 1;
        if first.is_none() {
            first = Some(solution);
        } else if second.is_none() {
            second = Some(solution);
        }
        if found >= limit {
            break;
        }
        add_clause(session, &buffers.blocking, flip, &mut buffers.scratch);
    }
    if let Some((conflicts, decisions)) = session.counters() {
        stats.conflicts = conflicts;
        stats.decisions = decisions;
    }
    Outcome::searched(found, asked, spent, first, second, stats)
}

/// Adds a clause, with every literal negated if `flip` (the solver's variable v then means
/// "not v" of the formula).
fn add_clause<S: Session>(session: &mut S, clause: &[Lit], flip: bool, scratch: &mut Vec<Lit>) {
    if flip {
        scratch.clear();
        scratch.extend(clause.iter().map(|&l| !l));
        session.add_clause(scratch);
    } else {
        session.add_clause(clause);
    }
}

impl<E: Engine> Solver for SatBackend<E> {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        match puzzle {
            Puzzle::Grid(grid) => self.run(Givens::Grid(grid), limit),
            Puzzle::Candidates(candidates) => self.run(Givens::Candidates(candidates), limit),
            Puzzle::Order(g) => self.run_order(g, limit),
        }
    }
}
