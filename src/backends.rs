//! The one place that knows the backends. Every built-in backend has one [`BackendInfo`] in
//! [`BACKENDS`]: its name and description, and the static facts the rest of the crate needs
//! without building an instance — its [`Kind`], whether it is complete, its rank as a
//! referee, whether it can stop at a logical closure (`solve --no-guess`), the problems it
//! supports — and how it is built from [`Options`]. Backends outside the crate (`exec:CMD`,
//! `lib:PATH:SYMBOL`) have their facts from [`facts`]. Adding a backend means a module under
//! `solver/` and one entry here; the CLI, the runner's referee, `verify --cross-check`, the
//! conformance suite, the property tests and the fuzz targets all take what they need from
//! here, never from a name spelled elsewhere.

use crate::solver::logic::LogicConfig;
use crate::solver::{self, BuildError, Options, Solver};

/// What kind of method a backend is: `verify --cross-check` pairs backends of different kinds,
/// so that a mistake shared by one family of methods cannot pass unseen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A backtracking search over candidates.
    Search,
    /// Exact cover (Algorithm X), a search over a different model of the puzzle.
    ExactCover,
    /// A CNF encoding handed to a SAT solver.
    Sat,
    /// Human-style deductions to a fixpoint, then branching.
    Logic,
    /// A continuous method (projections onto the constraint sets); incomplete.
    Projection,
    /// A solver this crate did not write: `exec:`, `lib:`, or a caller's own [`Solver`].
    Outside,
}

/// A problem a backend can solve: every backend solves the 9×9 Sudoku; some solve every
/// order. A backend is never asked a problem it does not list: its answer is `n/a`, counted
/// apart, never a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The 9×9 Sudoku, clue grid or pencilmark position.
    Sudoku9,
    /// Sudoku of any order n = 2…8 (4×4 to 64×64), read by the order-n reader.
    SudokuOrders,
}

/// The 9×9 Sudoku only.
const SUDOKU9: &[ProblemKind] = &[ProblemKind::Sudoku9];
/// Sudoku of every order, 9×9 included.
const EVERY_ORDER: &[ProblemKind] = &[ProblemKind::Sudoku9, ProblemKind::SudokuOrders];

impl ProblemKind {
    /// The problem `puzzle` is an instance of.
    pub fn of(puzzle: &crate::puzzle::Puzzle) -> ProblemKind {
        match puzzle {
            crate::puzzle::Puzzle::Order(_) => ProblemKind::SudokuOrders,
            _ => ProblemKind::Sudoku9,
        }
    }
}

/// A built-in backend: its name, its static facts, and how to build it.
pub struct BackendInfo {
    /// Name used on the command line.
    pub name: &'static str,
    /// One line for `sudobench backends`.
    pub description: &'static str,
    /// What kind of method it is.
    pub kind: Kind,
    /// Whether every answer is decided: `false` if `unknown` can come back for a puzzle
    /// without a budget being spent (the projection methods).
    pub complete: bool,
    /// Whether `bench` runs it when no `--backends` are given.
    pub default: bool,
    /// Its rank as a referee (1 is asked first) when evidence cannot decide a dispute and it
    /// is not in the run; `None`: never a referee. Fastest first: `basic`, the oracle, has no
    /// propagation and can take minutes where the others take microseconds.
    pub referee_rank: Option<u8>,
    /// The deductions of its logical closure, for a backend that can stop there
    /// (`solve --no-guess`); `None`: it cannot.
    pub closure: Option<LogicConfig>,
    /// The problems it solves.
    pub problems: &'static [ProblemKind],
    /// Constructor.
    pub build: fn(&Options) -> Result<Box<dyn Solver>, BuildError>,
}

impl std::fmt::Debug for BackendInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackendInfo")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("complete", &self.complete)
            .field("referee_rank", &self.referee_rank)
            .finish_non_exhaustive()
    }
}

/// Every built-in backend, in the order reports list them.
pub const BACKENDS: &[BackendInfo] = &[BackendInfo {
    name: "basic",
    description:
        "simplest correct backtracker (digit masks per unit, fewest candidates first): the oracle, on every order",
    kind: Kind::Search,
    complete: true,
    default: true,
    referee_rank: Some(5),
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::basic::Basic::new(o))),
}, BackendInfo {
    name: "bitmask",
    description:
        "bit boards per digit and band, singles + locked candidates (+ hidden triads) to a fixpoint, search on one digit's band configurations: the fast one",
    kind: Kind::Search,
    complete: true,
    default: true,
    referee_rank: Some(1),
    closure: None,
    problems: SUDOKU9,
    build: |o| Ok(Box::new(solver::bitmask::Bitmask::new(o))),
}, BackendInfo {
    name: "logic",
    description: "naked and hidden subsets of every size to a fixpoint, then branching (other orders: subsets up to 4)",
    kind: Kind::Logic,
    complete: true,
    default: true,
    referee_rank: None,
    closure: Some(LogicConfig::PLAIN),
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::logic::Logic::new(o, LogicConfig::PLAIN))),
}, BackendInfo {
    name: "logic-lc",
    description: "logic plus box-line intersections (locked candidates) in the closure",
    kind: Kind::Logic,
    complete: true,
    default: true,
    referee_rank: None,
    closure: Some(LogicConfig::LOCKED),
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::logic::Logic::new(o, LogicConfig::LOCKED))),
}, BackendInfo {
    name: "sat",
    description: "CNF encoding (--encoding minimal|extended|reduced|augmented) solved by varisat; blocking clause for uniqueness (other orders: the reduced encoding written for any order)",
    kind: Kind::Sat,
    complete: true,
    default: true,
    referee_rank: None,
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::sat::Sat::new(o))),
}, BackendInfo {
    name: "sat-batsat",
    description: "the sat encodings and blocking-clause loop, solved by batsat (pure Rust, minisat lineage)",
    kind: Kind::Sat,
    complete: true,
    default: false,
    referee_rank: None,
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::sat::batsat::SatBatsat::new(o))),
}, #[cfg(feature = "cadical")] BackendInfo {
    name: "sat-cadical",
    description: "the sat encodings and blocking-clause loop, solved by CaDiCaL (C++, cargo feature cadical)",
    kind: Kind::Sat,
    complete: true,
    default: false,
    referee_rank: None,
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::sat::cadical::SatCadical::new(o))),
}, BackendInfo {
    name: "projection",
    description: "Douglas-Rachford in the product space on the 9x9x9 0/1 cube (incomplete)",
    kind: Kind::Projection,
    complete: false,
    default: true,
    referee_rank: None,
    closure: None,
    problems: SUDOKU9,
    build: |o| solver::projection::build(o, solver::projection::Algorithm::DouglasRachford),
}, BackendInfo {
    name: "projection-tm",
    description: "Malitsky-Tam resolvent splitting on the 9x9x9 0/1 cube (incomplete)",
    kind: Kind::Projection,
    complete: false,
    default: false,
    referee_rank: None,
    closure: None,
    problems: SUDOKU9,
    build: |o| solver::projection::build(o, solver::projection::Algorithm::MalitskyTam),
}, BackendInfo {
    name: "dlx",
    description: "exact cover by Knuth's Algorithm X with dancing links (9x9: 729 options x 324 items; other orders: the grid reduced by its clues, Algorithm C)",
    kind: Kind::ExactCover,
    complete: true,
    default: true,
    referee_rank: Some(4),
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::dlx::Dlx::new(o)?)),
}, BackendInfo {
    name: "wide",
    description: "any order (4x4 to 64x64): wide candidate masks, singles + locked candidates, two-candidate cell with most open peers first",
    kind: Kind::Search,
    complete: true,
    default: false,
    referee_rank: Some(2),
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::wide::Wide::default().with_max_nodes(o.max_nodes))),
}, BackendInfo {
    name: "dlx-array",
    description: "the dlx search with kudoku-style counter arrays instead of links (other orders: the reduced grid)",
    kind: Kind::ExactCover,
    complete: true,
    default: true,
    referee_rank: Some(3),
    closure: None,
    problems: EVERY_ORDER,
    build: |o| Ok(Box::new(solver::dlx_array::DlxArray::new(o))),
}];

/// Names of the built-in backends.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BACKENDS.iter().map(|b| b.name)
}

/// The built-in backend of this name.
pub fn info(name: &str) -> Option<&'static BackendInfo> {
    BACKENDS.iter().find(|b| b.name == name)
}

/// Whether the backend `name` can certify its counts with proofs an independent checker
/// reads: `sat` writes DRAT proofs (`count --proof`). `sudobench certify` has its own
/// producer, a search whose tree is the proof (see [`crate::certify`]).
pub fn certifies(name: &str) -> bool {
    name == "sat"
}

/// Names of the backends `bench` runs when none are named.
pub fn default_names() -> impl Iterator<Item = &'static str> {
    BACKENDS.iter().filter(|b| b.default).map(|b| b.name)
}

/// The built-in backends that can referee, best first.
pub fn referees() -> impl Iterator<Item = &'static BackendInfo> {
    let mut ranked: Vec<&'static BackendInfo> = BACKENDS
        .iter()
        .filter(|b| b.complete && b.referee_rank.is_some())
        .collect();
    ranked.sort_by_key(|b| b.referee_rank);
    ranked.into_iter()
}

/// The partner `verify --cross-check` runs beside `name`: a complete built-in backend of
/// another kind, so that the two share no method. SAT is preferred (it shares nothing with
/// any search), then exact cover, then plain search; within a kind, the registry's order.
pub fn cross_check_partner(name: &str) -> Result<&'static BackendInfo, BuildError> {
    let kind = facts(name)?.kind;
    const PREFERENCE: [Kind; 3] = [Kind::Sat, Kind::ExactCover, Kind::Search];
    PREFERENCE
        .iter()
        .filter(|k| **k != kind)
        .find_map(|k| BACKENDS.iter().find(|b| b.kind == *k && b.complete))
        .ok_or_else(|| BuildError::Invalid {
            name: name.to_string(),
            reason: "no backend of another kind to cross-check it".to_string(),
        })
}

/// What the registry knows of any backend name, without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// What kind of method it is.
    pub kind: Kind,
    /// Whether every answer is decided (outside backends are taken to be complete: the C
    /// signature has no way to give up, and a program that does answers `unknown`).
    pub complete: bool,
    /// The problems it solves (outside backends: the 9×9 Sudoku, the one their protocols
    /// carry).
    pub problems: &'static [ProblemKind],
}

/// The facts of a backend name: a built-in one, `exec:CMD` or `lib:PATH:SYMBOL`.
pub fn facts(name: &str) -> Result<Facts, BuildError> {
    if name.starts_with("exec:") || name.starts_with("lib:") {
        return Ok(Facts {
            kind: Kind::Outside,
            complete: true,
            problems: SUDOKU9,
        });
    }
    match info(name) {
        Some(b) => Ok(Facts {
            kind: b.kind,
            complete: b.complete,
            problems: b.problems,
        }),
        None => Err(unknown(name)),
    }
}

fn unknown(name: &str) -> BuildError {
    BuildError::Unknown {
        name: name.to_string(),
        known: builtin_names()
            .chain(["exec:CMD", "lib:PATH:SYMBOL"])
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Whether `name` is an outside backend: an external program (`exec:CMD`) or a function in a
/// shared library (`lib:PATH:SYMBOL`), whose answers sudobench did not compute.
pub fn is_outside(name: &str) -> bool {
    name.starts_with("exec:") || name.starts_with("lib:")
}

/// Builds a backend from its name: a built-in one, `exec:CMD` for an external program, or
/// `lib:PATH:SYMBOL` for a function in a shared library (run in a worker process).
pub fn build(name: &str, options: &Options) -> Result<Box<dyn Solver>, BuildError> {
    if let (true, Some(_)) = (is_outside(name), options.max_time) {
        return Err(BuildError::Invalid {
            name: name.to_string(),
            reason: "a time limit per puzzle bounds the built-in searches; an outside backend's \
                     calls are bounded by its timeout"
                .to_string(),
        });
    }
    if let Some(command) = name.strip_prefix("exec:") {
        return Ok(Box::new(solver::exec::Exec::new(
            command,
            options.exec_timeout,
        )?));
    }
    if let Some(spec) = name.strip_prefix("lib:") {
        return Ok(Box::new(solver::plugin::Plugin::new(spec, options)?));
    }
    let built = match info(name) {
        Some(info) => (info.build)(options)?,
        None => return Err(unknown(name)),
    };
    Ok(match options.max_time {
        None => built,
        Some(limit) => Box::new(solver::TimeLimited::new(built, limit)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_match_the_instances() {
        for b in BACKENDS {
            assert!(b.referee_rank.is_none() || b.complete, "{}", b.name);
            assert_eq!(b.closure.is_some(), b.kind == Kind::Logic, "{}", b.name);
            assert!(b.problems.contains(&ProblemKind::Sudoku9), "{}", b.name);
        }
        let names: Vec<&str> = referees().map(|b| b.name).collect();
        assert_eq!(names, ["bitmask", "wide", "dlx-array", "dlx", "basic"]);
    }

    #[test]
    fn cross_check_partners_are_of_another_kind() {
        assert_eq!(cross_check_partner("basic").unwrap().name, "sat");
        assert_eq!(cross_check_partner("sat").unwrap().name, "dlx");
        assert_eq!(cross_check_partner("exec:x").unwrap().name, "sat");
        assert!(cross_check_partner("nope").is_err());
        for b in BACKENDS {
            assert_ne!(cross_check_partner(b.name).unwrap().kind, b.kind);
        }
    }

    #[test]
    fn outside_backends_have_facts_without_being_built() {
        // A lib: backend whose library does not exist: its facts need no worker.
        let f = facts("lib:/nonexistent.so:solve").unwrap();
        assert_eq!(f.kind, Kind::Outside);
        assert!(facts("nope").is_err());
    }
}
