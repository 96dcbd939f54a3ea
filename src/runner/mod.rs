//! The benchmark runner: streams a puzzle source through one or more backends, checks every
//! answer, and times reading apart from solving.
//!
//! The surface is small on purpose, so that a crate with its own [`Solver`] can use it:
//!
//! ```no_run
//! use sudobench::runner::{Backend, Config, NoObserver, Runner};
//! use sudobench::solver::Options;
//!
//! let backends = vec![Backend::builtin("basic", &Options::default()).unwrap()];
//! let runner = Runner::new(Config::default(), backends);
//! let report = runner.run_path("data/puzzles3_magictour_top1465.gz", &mut NoObserver).unwrap();
//! println!("{:.0} puzzles/s", report.backends[0].puzzles_per_sec());
//! ```
//!
//! How a run goes, per source:
//! - the source is read in chunks of [`Config::chunk_size`] records (memory stays bounded
//!   whatever the file's size); the time spent reading and parsing is measured separately;
//! - every selected backend solves every puzzle of a chunk (backend by backend, each over the
//!   whole chunk, so each runs with warm caches); with [`Config::threads`] > 1 chunks go to
//!   worker threads, each owning its own backend instances, and results are put back in input
//!   order before anyone sees them;
//! - each puzzle's answers are judged by [`crate::judge`]: every solution verified, every
//!   claim held against the evidence (verified solutions, the file's expected solution), and
//!   what evidence cannot decide settled by a referee, a fast complete built-in backend that is
//!   not in the run ([`Runner::referee`]), under a budget ([`Config::referee_max_nodes`],
//!   [`Config::referee_time`]): a dispute it cannot finish is unsettled. Every puzzle with a
//!   problem becomes a [`Mismatch`];
//! - a per-backend time budget ([`Config::time_budget`]) stops a backend on that source when its
//!   solving time is spent, also in the middle of a puzzle for the built-in searches (see
//!   [`crate::solver::deadline`]: that puzzle is `unknown`); the report says how many puzzles
//!   it covered.
//!
//! Optional: a deterministic sample ([`Config::sample`], reservoir sampling, kept in input
//! order) and a random symmetry per puzzle ([`Config::transform`], see
//! [`crate::symmetry`]) whose answers are mapped back before they are checked.

mod engine;
pub mod pipeline;
pub mod shard;

pub use pipeline::{Ready, Source};

use crate::backends::{Kind, ProblemKind};
use crate::format::{OpenError, ParseError, Reader, Record};
use crate::judge::Ruling;
use crate::puzzle::{Puzzle, Shape, Solution};
use crate::solver::{BuildError, Clock, Count, Limit, Options, Outcome, Solver, Stats};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// How many mismatches a [`SetReport`] keeps (all are counted and all are passed to the
/// [`Observer`]; only this many are stored, so a badly wrong backend cannot exhaust memory).
pub const MAX_KEPT_MISMATCHES: usize = 1000;

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

    fn instance(&self) -> Result<Box<dyn Solver>, BuildError> {
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

/// Hooks called from the thread that called the runner, in input order. Every method has a
/// no-op default.
pub trait Observer {
    /// A source starts; `bytes` is its size on disk when known.
    fn start(&mut self, source: &str, bytes: Option<u64>) {
        let _ = (source, bytes);
    }
    /// Progress: `puzzles` records done so far, `bytes` of the file consumed (when known).
    fn progress(&mut self, puzzles: u64, bytes: Option<u64>) {
        let _ = (puzzles, bytes);
    }
    /// One puzzle's answers, one per backend in run order (`None`: the backend's budget was
    /// spent), and what the judge found wrong, if anything. Solutions are already mapped back
    /// to the file's orientation.
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        let _ = (record, answers, mismatch);
    }
    /// A malformed record.
    fn parse_error(&mut self, error: &ParseError) {
        let _ = error;
    }
    /// A backend failed for good (see [`BackendReport::fault`]); told once per source, before
    /// the first puzzle it could not answer. Its answers from then on are `unknown`.
    fn fault(&mut self, backend: &str, why: &str) {
        let _ = (backend, why);
    }
    /// The runner is about to wait for more input: show what has been answered so far.
    fn idle(&mut self) {}
    /// Whether the observer wants no more (its output was closed): the run then stops early.
    fn done(&self) -> bool {
        false
    }
    /// A source is done.
    fn finish(&mut self, report: &SetReport) {
        let _ = report;
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// A puzzle on which the judge found a problem: a backend at fault, a data error of the file,
/// or a dispute nobody could settle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Source name.
    pub source: Arc<str>,
    /// 1-based line.
    pub line: u64,
    /// The puzzle as in the file.
    pub puzzle: Puzzle,
    /// The file's expected solution, if any.
    pub expected: Option<Solution>,
    /// What went wrong, one entry per problem found.
    pub problems: Vec<String>,
    /// Each backend's answer: name and text (`count` then the solution, `skipped` when its
    /// budget was spent).
    pub answers: Vec<(String, String)>,
    /// Names of the backends found at fault (empty when only the file is at fault).
    pub blamed: Vec<String>,
    /// Whether the file is at fault (its expected solution is invalid).
    pub data_error: bool,
    /// The referee's part, when evidence could not decide.
    pub ruling: Option<Ruling>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}: mismatch: {}",
            self.source,
            self.line,
            self.problems.join("; ")
        )?;
        writeln!(f, "  puzzle   {}", self.puzzle)?;
        if let Some(e) = &self.expected {
            writeln!(f, "  expected {e}")?;
        }
        for (name, answer) in &self.answers {
            writeln!(f, "  {name:<8} {answer}")?;
        }
        if let Some(r) = &self.ruling {
            let how = if r.settled {
                "settled it"
            } else {
                "could not settle it"
            };
            writeln!(f, "  referee {} {how}: {}", r.referee, r.answer)?;
        }
        Ok(())
    }
}

/// One backend's figures on one source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BackendReport {
    /// Backend name.
    pub name: String,
    /// Whether it is a complete method.
    pub complete: bool,
    /// Puzzles it was run on (fewer than the source's when its budget was spent, or when
    /// some are of a kind it does not solve).
    pub covered: u64,
    /// Puzzles of a kind it does not solve (a grid of another order than 9×9 for a 9×9
    /// backend): never asked, shown as `n/a`, neither answers nor faults.
    pub not_applicable: u64,
    /// Puzzles its solving time covers: those answered before it failed (all of `covered`
    /// for a backend that did not fail). Its rate is over these only; none, no rate.
    pub timed: u64,
    /// Its solving time by the run's clock, summed over threads (batches answered before it
    /// failed only).
    pub time: Duration,
    /// Start-up time by the run's clock, summed over threads: an `exec:` program's start and
    /// a `lib:` worker's loading of its library, reported apart and never in `time`.
    pub startup: Duration,
    /// Answers with exactly one solution (with limit 1: a solution found).
    pub unique: u64,
    /// Answers with at least two solutions.
    pub multiple: u64,
    /// Answers with no solution.
    pub none: u64,
    /// Undecided answers.
    pub unknown: u64,
    /// Answers that came with a solution the verifier accepted (a wrong solution is a
    /// mismatch, not a solve). For an incomplete backend, which may return a solution with an
    /// undecided count, this is how often it answered.
    pub solved: u64,
    /// Puzzles it solved without guessing (`Stats::guesses == Some(0)`).
    pub no_guess: u64,
    /// Answers that said how many guesses they took (`Stats::guesses` set): the guess figures
    /// are over these only, and absent when there are none.
    pub guess_reports: u64,
    /// Its work counters, summed (saturating).
    pub stats: Stats,
    /// The exact sum of its guess counts (the mean is taken from it: no counter wraps).
    pub guess_sum: u128,
    /// Puzzles on which it was found at fault.
    pub mismatches: u64,
    /// Whether the time budget stopped it before the end of the source.
    pub budget_spent: bool,
    /// Why it failed for good, if it did (an external program that crashed, timed out or
    /// answered garbage; a panic inside the backend): its answers from then on are `unknown`.
    pub fault: Option<String>,
}

impl BackendReport {
    /// A backend's report before any puzzle.
    pub fn empty(backend: &Backend) -> BackendReport {
        BackendReport {
            name: backend.name().to_string(),
            complete: backend.is_complete(),
            ..BackendReport::default()
        }
    }

    /// Whether it has a rate: some puzzles were answered before any failure, and timed. A
    /// backend that failed on its first call has none, and neither has one whose time budget
    /// ran out before it decided a puzzle (its time went into answers it never finished).
    pub fn has_rate(&self) -> bool {
        let decided = self.unique + self.multiple + self.none + self.solved > 0;
        self.timed > 0 && !self.time.is_zero() && (decided || !self.budget_spent)
    }

    /// Puzzles per second of solving time, over the puzzles answered before any failure (0
    /// when it has no rate, see [`BackendReport::has_rate`]).
    pub fn puzzles_per_sec(&self) -> f64 {
        match self.has_rate() {
            true => self.timed as f64 / self.time.as_secs_f64(),
            false => 0.0,
        }
    }

    /// Mean microseconds per puzzle (0 when it has no rate).
    pub fn micros_per_puzzle(&self) -> f64 {
        match self.has_rate() {
            true => self.time.as_secs_f64() * 1e6 / self.timed as f64,
            false => 0.0,
        }
    }

    /// Percentage of the answers that counted guesses which needed none (`None` when no
    /// answer counted guesses: the backend does not report them).
    pub fn no_guess_percent(&self) -> Option<f64> {
        (self.guess_reports > 0).then(|| 100.0 * self.no_guess as f64 / self.guess_reports as f64)
    }

    /// Mean guesses per answer that counted them (`None` when none did).
    pub fn guesses_per_puzzle(&self) -> Option<f64> {
        (self.guess_reports > 0).then(|| self.guess_sum as f64 / self.guess_reports as f64)
    }

    fn add(&mut self, other: &BackendReport) {
        self.covered += other.covered;
        self.not_applicable += other.not_applicable;
        self.timed += other.timed;
        self.time += other.time;
        self.startup += other.startup;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.unknown += other.unknown;
        self.solved += other.solved;
        self.no_guess += other.no_guess;
        self.guess_reports += other.guess_reports;
        self.stats.accumulate(&other.stats);
        self.guess_sum = self.guess_sum.saturating_add(other.guess_sum);
        self.mismatches += other.mismatches;
        self.budget_spent |= other.budget_spent;
        if self.fault.is_none() {
            self.fault.clone_from(&other.fault);
        }
    }

    fn tally(&mut self, outcome: &Outcome) {
        self.covered += 1;
        match outcome.count() {
            Count::Exactly(0) => self.none += 1,
            // "At least one" (a limit of 1) is counted with the unique answers: solved.
            Count::Exactly(1) | Count::AtLeast(1) => self.unique += 1,
            Count::Exactly(_) | Count::AtLeast(_) => self.multiple += 1,
            Count::Unknown => self.unknown += 1,
        }
        if outcome.first_solution().is_some() {
            self.solved += 1;
        }
        match outcome.stats().guesses {
            Some(0) => {
                self.no_guess += 1;
                self.guess_reports += 1;
            }
            Some(g) => {
                self.guess_reports += 1;
                self.guess_sum = self.guess_sum.saturating_add(u128::from(g));
            }
            None => {}
        }
        self.stats.accumulate(outcome.stats());
    }
}

/// Everything measured on one source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetReport {
    /// The source as given (path or `-`).
    pub source: String,
    /// Well-formed records read.
    pub records: u64,
    /// Malformed records.
    pub parse_errors: u64,
    /// Records the backends were asked to solve (all records, or the sample).
    pub selected: u64,
    /// Time spent reading and parsing (gunzip included).
    pub read_time: Duration,
    /// Wall-clock time of the whole source.
    pub wall_time: Duration,
    /// Time the workers were busy (solving and checking), summed over threads.
    pub busy_time: Duration,
    /// CPU time spent reading and parsing.
    pub read_cpu: Duration,
    /// CPU time the workers used, summed over threads.
    pub busy_cpu: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// The clock the backends' solving times are measured by.
    pub clock: Clock,
    /// One entry per backend, in run order.
    pub backends: Vec<BackendReport>,
    /// The first [`MAX_KEPT_MISMATCHES`] mismatches, in input order.
    pub mismatches: Vec<Mismatch>,
    /// All mismatches found (puzzles with any problem).
    pub mismatch_total: u64,
    /// Puzzles whose file entry is wrong (an invalid expected solution).
    pub data_errors: u64,
    /// Puzzles on which evidence could not decide a dispute and the referee did.
    pub refereed: u64,
    /// Puzzles whose dispute nobody could settle (no referee, or it could not decide).
    pub unsettled: u64,
    /// Puzzles on which the referee checked an outside backend's count that nothing else in
    /// the run could check (an unsettled check is counted in `unsettled`).
    pub checked: u64,
    /// The backend that settles disputes evidence cannot decide.
    pub referee: Option<String>,
    /// Why the source could not be read at all (see [`SetReport::unreadable`]).
    pub error: Option<String>,
    /// The kinds of puzzle the selected records are, smallest first, with how many of each
    /// (a set may mix 9×9 grids and grids of other orders).
    pub shapes: Vec<(Shape, u64)>,
}

impl SetReport {
    /// The kinds of puzzle the set holds, as `16x16` or `9x9 and 16x16`.
    pub fn shape_labels(&self) -> String {
        self.shape_labels_joined(" and ")
    }

    /// The kinds of puzzle the set holds, joined by `separator`.
    pub fn shape_labels_joined(&self, separator: &str) -> String {
        let labels: Vec<String> = self.shapes.iter().map(|(s, _)| s.label()).collect();
        labels.join(separator)
    }

    fn count_shape(&mut self, shape: Shape) {
        match self.shapes.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, n)) => *n += 1,
            None => {
                self.shapes.push((shape, 1));
                self.shapes.sort();
            }
        }
    }
}

impl SetReport {
    /// The report of a source that could not be opened: every backend with empty figures and
    /// the error, so that machine output has a record for it too.
    pub fn unreadable(source: &str, backends: &[Backend], error: String) -> SetReport {
        SetReport {
            source: source.to_string(),
            backends: backends.iter().map(BackendReport::empty).collect(),
            error: Some(error),
            ..SetReport::default()
        }
    }

    /// A short name for the source: its file name without `.gz`.
    pub fn name(&self) -> &str {
        let base = self.source.rsplit('/').next().unwrap_or(&self.source);
        base.strip_suffix(".gz").unwrap_or(base)
    }

    /// Records (well-formed or not) read and parsed per second.
    pub fn reading_rate(&self) -> f64 {
        let s = self.read_time.as_secs_f64();
        if s > 0.0 {
            (self.records + self.parse_errors) as f64 / s
        } else {
            0.0
        }
    }

    /// Records read and parsed per second of CPU time (robust on a shared machine).
    pub fn reading_rate_cpu(&self) -> f64 {
        let s = self.read_cpu.as_secs_f64();
        if s > 0.0 {
            (self.records + self.parse_errors) as f64 / s
        } else {
            0.0
        }
    }

    /// Estimated speed-up over one thread: the CPU time one thread would need (reading plus
    /// all worker CPU time) over the wall-clock time. On an idle machine this is the speed-up;
    /// on a shared one it is lower, as it should be (the other threads did not get a core).
    pub fn speedup(&self) -> f64 {
        let wall = self.wall_time.as_secs_f64();
        if wall > 0.0 {
            (self.read_cpu + self.busy_cpu).as_secs_f64() / wall
        } else {
            0.0
        }
    }
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

    /// Opens a path (`-` for standard input; plain or gzip) and runs it.
    pub fn run_path(&self, path: &str, observer: &mut dyn Observer) -> Result<SetReport, RunError> {
        self.run_path_part(path, None, observer)
    }

    /// [`run_path`](Runner::run_path) on the part of the file a [`shard::Window`] keeps (the
    /// window goes on from where the previous input left it); `None`: the whole file.
    pub fn run_path_part(
        &self,
        path: &str,
        window: Option<&mut shard::Window>,
        observer: &mut dyn Observer,
    ) -> Result<SetReport, RunError> {
        let bytes = if path == "-" {
            None
        } else {
            std::fs::metadata(path).ok().map(|m| m.len())
        };
        let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut reader = if path == "-" || std::path::Path::new(path).is_dir() {
            Reader::open(path)?
        } else {
            let file = std::fs::File::open(path).map_err(|source| OpenError::Io {
                path: path.to_string(),
                source,
            })?;
            let counting = engine::Counting {
                inner: file,
                count: counter.clone(),
            };
            Reader::new(path, counting)
        };
        observer.start(path, bytes);
        match window {
            None => self.run_source(path, &mut reader, Some(counter), observer),
            Some(w) => self.run_source(path, &mut w.part(reader), Some(counter), observer),
        }
    }

    /// Runs any stream of records (for example a [`Reader`] over a byte buffer), as one that
    /// never waits for input. `bytes_read`, when given, is a counter the progress reports pass
    /// on.
    pub fn run_items(
        &self,
        source: &str,
        items: impl Iterator<Item = crate::format::Item>,
        bytes_read: Option<Arc<std::sync::atomic::AtomicU64>>,
        observer: &mut dyn Observer,
    ) -> Result<SetReport, RunError> {
        self.run_source(source, &mut Ready(items), bytes_read, observer)
    }

    /// Runs a [`Source`]: records are answered as they arrive, so a program feeding one
    /// puzzle at a time gets each answer before it sends the next.
    pub fn run_source(
        &self,
        source: &str,
        items: &mut dyn Source,
        bytes_read: Option<Arc<std::sync::atomic::AtomicU64>>,
        observer: &mut dyn Observer,
    ) -> Result<SetReport, RunError> {
        if self.backends.is_empty() {
            return Err(RunError::NoBackends);
        }
        engine::run(self, source, items, bytes_read, observer)
    }
}
