//! What a run is made of: its settings, its backends, the observer that watches it, and the
//! runner that holds them (its entry points are in the module root).

use crate::backends::{Kind, ProblemKind};
use crate::format::OpenError;
use crate::puzzle::Puzzle;
use crate::solver::{BuildError, Clock, Limit, Options, Solver};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Settings of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Count solutions up to this many (2 decides uniqueness).
    pub limit: Limit,
    /// Worker threads (1: everything on the calling thread, for comparable timings).
    pub threads: usize,
    /// Records per chunk.
    pub chunk_size: usize,
    /// Run a deterministic sample of each source instead of all of it.
    pub sample: Option<Sample>,
    /// Solving time each backend may spend on one source (summed over threads).
    pub time_budget: Option<Duration>,
    /// Seed of the random symmetry applied to each puzzle (`None`: puzzles as in the file).
    pub transform: Option<u64>,
    /// The clock solving time is measured by, the same for every backend (see
    /// [`Clock`]); the time budget is spent by it too.
    pub clock: Clock,
    /// Node budget of the referee for one dispute (`None`: none). A dispute it cannot finish
    /// within its budget is reported unsettled.
    pub referee_max_nodes: Option<u64>,
    /// Time the referee may spend on one dispute (`None`: no limit).
    pub referee_time: Option<Duration>,
    /// Believe the counts of outside backends (`exec:`, `lib:`) that nothing in the run can
    /// check, instead of having the referee check them (the judge's rule 5; default `false`).
    pub trust_outside: bool,
    /// The nodes and the time each search may spend on one puzzle, as the backends were
    /// built with ([`Options::max_nodes`], [`Options::max_time`]), for the reports to name:
    /// the backends keep to them, not the runner.
    pub per_puzzle: (Option<u64>, Option<Duration>),
}

/// Default time the referee may spend on one dispute.
pub const REFEREE_TIME: Duration = Duration::from_secs(10);

impl Default for Config {
    fn default() -> Self {
        Config {
            limit: Limit::TWO,
            threads: 1,
            chunk_size: 128,
            sample: None,
            time_budget: None,
            transform: None,
            clock: Clock::default(),
            referee_max_nodes: None,
            referee_time: Some(REFEREE_TIME),
            trust_outside: false,
            per_puzzle: (None, None),
        }
    }
}

/// A deterministic sample: `size` records drawn by reservoir sampling with `seed`, run in
/// input order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Records to keep per source.
    pub size: usize,
    /// Seed of the draw.
    pub seed: u64,
}

type Factory = dyn Fn() -> Result<Box<dyn Solver>, BuildError> + Send + Sync;

/// A backend to run: its name, its registry facts, whether it is an outside program or
/// library, and how to build an instance (one per worker thread). Nothing is built to make
/// one: the facts are static.
#[derive(Clone)]
pub struct Backend {
    name: Arc<str>,
    kind: Kind,
    complete: bool,
    problems: &'static [ProblemKind],
    outside: bool,
    make: Arc<Factory>,
}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("complete", &self.complete)
            .field("outside", &self.outside)
            .finish()
    }
}

/// The backend of 9×9 puzzles when none is named (see [`Backend::by_order`]).
pub const DEFAULT_BACKEND: &str = "bitmask";
/// The backend of the other orders when none is named.
pub const OTHER_ORDERS_BACKEND: &str = "wide";

/// How many records of a set `bench` looks at for its order when no backend is named: the
/// first well-formed one among them decides (so that a set is not read to its end twice).
pub const ORDER_LOOKS_AT: usize = 100;

/// The backends `bench` runs on a set when none is named: the registry's defaults and, for a
/// set of another order than 9×9 (`other_orders`), [`OTHER_ORDERS_BACKEND`] after them, the
/// fast backend of every order (not a default itself, so that 9×9 sets are not slowed by it).
pub fn bench_defaults(other_orders: bool) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = crate::backends::default_names().collect();
    if other_orders {
        names.push(OTHER_ORDERS_BACKEND);
    }
    names
}

/// One backend for 9×9 puzzles and another for the other orders.
struct ByOrder {
    nine: Box<dyn Solver>,
    other: Box<dyn Solver>,
}

impl Solver for ByOrder {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> crate::solver::Outcome {
        match puzzle {
            Puzzle::Order(_) => self.other.solve(puzzle, limit),
            _ => self.nine.solve(puzzle, limit),
        }
    }
}

impl Backend {
    /// A caller's own backend: its name, whether it is complete (every answer decided:
    /// `false` if `unknown` can come back without a budget being spent), and how to build an
    /// instance (called once per worker thread, when the run starts).
    pub fn new<S, F>(name: impl Into<Arc<str>>, complete: bool, make: F) -> Backend
    where
        S: Solver + 'static,
        F: Fn() -> S + Send + Sync + 'static,
    {
        Backend {
            name: name.into(),
            kind: Kind::Outside,
            complete,
            problems: &[ProblemKind::Sudoku9],
            outside: false,
            make: Arc::new(move || Ok(Box::new(make()) as Box<dyn Solver>)),
        }
    }

    /// A backend by name from the registry (built-in, `exec:CMD` or `lib:PATH:SYMBOL`),
    /// built with `options` when the run starts. An unknown name is an error here; a
    /// backend that cannot be built (a library that does not load) is one when the run starts.
    pub fn builtin(name: &str, options: &Options) -> Result<Backend, BuildError> {
        let facts = crate::backends::facts(name)?;
        let (owned, options) = (name.to_string(), options.clone());
        Ok(Backend {
            name: name.into(),
            kind: facts.kind,
            complete: facts.complete,
            problems: facts.problems,
            outside: crate::backends::is_outside(name),
            make: Arc::new(move || crate::backends::build(&owned, &options)),
        })
    }

    /// The backend a run has when none is named, for puzzles of every order:
    /// [`DEFAULT_BACKEND`] answers 9×9 puzzles and [`OTHER_ORDERS_BACKEND`] the other orders
    /// (bitmask's board is 9×9). It goes by the first one's name.
    pub fn by_order(options: &Options) -> Result<Backend, BuildError> {
        let facts = crate::backends::facts(DEFAULT_BACKEND)?;
        let options = options.clone();
        // Built once here, so that a backend that cannot be built is an error now rather
        // than when the run starts.
        crate::backends::build(DEFAULT_BACKEND, &options)?;
        crate::backends::build(OTHER_ORDERS_BACKEND, &options)?;
        Ok(Backend {
            name: DEFAULT_BACKEND.into(),
            kind: facts.kind,
            complete: true,
            problems: &[ProblemKind::Sudoku9, ProblemKind::SudokuOrders],
            outside: false,
            make: Arc::new(move || {
                Ok(Box::new(ByOrder {
                    nine: crate::backends::build(DEFAULT_BACKEND, &options)?,
                    other: crate::backends::build(OTHER_ORDERS_BACKEND, &options)?,
                }) as Box<dyn Solver>)
            }),
        })
    }

    /// The backend's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether its answers are always decided.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// What kind of method it is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Whether it solves puzzles like `puzzle` (a registry fact); it is never asked one it
    /// does not, and its answer there is `n/a`.
    pub fn supports(&self, puzzle: &Puzzle) -> bool {
        self.problems.contains(&ProblemKind::of(puzzle))
    }

    /// Declares that this caller's backend solves Sudoku of every order, not only 9×9.
    pub fn on_every_order(mut self) -> Backend {
        self.problems = &[ProblemKind::Sudoku9, ProblemKind::SudokuOrders];
        self
    }

    /// Whether it is an outside program or library (`exec:`, `lib:`), whose counts the
    /// referee checks when nothing else in the run can (see [`crate::judge`], rule 5).
    pub fn is_outside(&self) -> bool {
        self.outside
    }

    pub(super) fn instance(&self) -> Result<Box<dyn Solver>, BuildError> {
        (self.make)()
    }
}

/// Why a source could not be run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The source could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A backend instance could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The run has no backend.
    #[error("no backend selected")]
    NoBackends,
}

/// Runs sources through a fixed list of backends.
pub struct Runner {
    config: Config,
    backends: Vec<Backend>,
    referee: Option<Backend>,
    /// The referee for grids of other orders than 9×9 (not every referee solves them).
    order_referee: Option<Backend>,
}

impl Runner {
    /// A runner for these backends, in this order (the order changes nothing in the checks).
    /// Disputes that evidence cannot decide are settled by the best-ranked referee of the
    /// registry ([`crate::backends::referees`]) that is not in the run (by name), or by a
    /// fresh instance of the best one when all are, under the budget of
    /// [`Config::referee_max_nodes`] and [`Config::referee_time`].
    pub fn new(config: Config, backends: Vec<Backend>) -> Runner {
        let options = Options {
            max_nodes: config.referee_max_nodes,
            ..Options::default()
        };
        let pick = |problem: ProblemKind| {
            let mut ranked = crate::backends::referees()
                .filter(|r| r.problems.contains(&problem))
                .peekable();
            let best = ranked.peek().copied();
            ranked
                .find(|r| backends.iter().all(|b| b.name() != r.name))
                .or(best)
                .and_then(|r| Backend::builtin(r.name, &options).ok())
        };
        let referee = pick(ProblemKind::Sudoku9);
        let order_referee = pick(ProblemKind::SudokuOrders);
        Runner {
            config,
            backends,
            referee,
            order_referee,
        }
    }

    /// The backend that settles disputes evidence cannot decide on 9×9 puzzles.
    pub fn referee(&self) -> Option<&Backend> {
        self.referee.as_ref()
    }

    /// The referee for `puzzle`: one that solves its kind.
    pub fn referee_for(&self, puzzle: &Puzzle) -> Option<&Backend> {
        match ProblemKind::of(puzzle) {
            ProblemKind::SudokuOrders => self.order_referee.as_ref(),
            ProblemKind::Sudoku9 => self.referee.as_ref(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The backends.
    pub fn backends(&self) -> &[Backend] {
        &self.backends
    }
}
