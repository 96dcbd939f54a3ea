//! The one place that knows the backends: their names, descriptions, which ones `bench` runs
//! by default, and how each is built from [`Options`]. Adding a backend means a module under
//! `solver/` and one entry in [`BACKENDS`]; the CLI, the conformance suite, the property tests
//! and the fuzz targets all take their lists from here.

use crate::solver::logic::LogicConfig;
use crate::solver::{self, BuildError, Options, Solver};

/// A built-in backend: its name, a one-line description, and how to build it.
pub struct BackendInfo {
    /// Name used on the command line.
    pub name: &'static str,
    /// One line for `sudobench backends`.
    pub description: &'static str,
    /// Whether `bench` runs it when no `--backends` are given.
    pub default: bool,
    /// Constructor.
    pub build: fn(&Options) -> Result<Box<dyn Solver>, BuildError>,
}

/// Every built-in backend, in the order reports list them.
pub const BACKENDS: &[BackendInfo] = &[BackendInfo {
    name: "basic",
    description:
        "simplest correct backtracker (digit masks per unit, fewest candidates first): the oracle",
    default: true,
    build: |o| Ok(Box::new(solver::basic::Basic::new(o))),
}, BackendInfo {
    name: "bitmask",
    description:
        "bit boards per digit and band, singles + locked candidates to a fixpoint, bivalue-first search: the fast one",
    default: true,
    build: |o| Ok(Box::new(solver::bitmask::Bitmask::new(o))),
}, BackendInfo {
    name: "logic",
    description: "naked and hidden subsets of every size to a fixpoint, then branching",
    default: true,
    build: |o| Ok(Box::new(solver::logic::Logic::new(o, LogicConfig::PLAIN))),
}, BackendInfo {
    name: "logic-lc",
    description: "logic plus box-line intersections (locked candidates) in the closure",
    default: true,
    build: |o| Ok(Box::new(solver::logic::Logic::new(o, LogicConfig::LOCKED))),
}, BackendInfo {
    name: "sat",
    description: "CNF encoding (--encoding minimal|extended|reduced|augmented) solved by varisat; blocking clause for uniqueness",
    default: true,
    build: |o| Ok(Box::new(solver::sat::Sat::new(o))),
}, BackendInfo {
    name: "sat-batsat",
    description: "the sat encodings and blocking-clause loop, solved by batsat (pure Rust, minisat lineage)",
    default: false,
    build: |o| Ok(Box::new(solver::sat::batsat::SatBatsat::new(o))),
}, #[cfg(feature = "cadical")] BackendInfo {
    name: "sat-cadical",
    description: "the sat encodings and blocking-clause loop, solved by CaDiCaL (C++, cargo feature cadical)",
    default: false,
    build: |o| Ok(Box::new(solver::sat::cadical::SatCadical::new(o))),
}, BackendInfo {
    name: "projection",
    description: "Douglas-Rachford in the product space on the 9x9x9 0/1 cube (incomplete)",
    default: true,
    build: |o| solver::projection::build(o, solver::projection::Algorithm::DouglasRachford),
}, BackendInfo {
    name: "projection-tm",
    description: "Malitsky-Tam resolvent splitting on the 9x9x9 0/1 cube (incomplete)",
    default: false,
    build: |o| solver::projection::build(o, solver::projection::Algorithm::MalitskyTam),
}, BackendInfo {
    name: "dlx",
    description: "exact cover by Knuth's Algorithm X with dancing links (729 options x 324 items)",
    default: true,
    build: |o| Ok(Box::new(solver::dlx::Dlx::new(o)?)),
}, BackendInfo {
    name: "wide",
    description: "any order (4x4 to 64x64): wide candidate masks, singles + locked candidates, two-candidate cell with most open peers first",
    default: false,
    build: |_| Ok(Box::new(solver::wide::Wide::default())),
}, BackendInfo {
    name: "dlx-array",
    description: "the dlx search with kudoku-style counter arrays instead of links",
    default: true,
    build: |o| Ok(Box::new(solver::dlx_array::DlxArray::new(o))),
}];

/// Names of the built-in backends.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BACKENDS.iter().map(|b| b.name)
}

/// The closure configuration of a backend that has a logical closure to stop at
/// (`solve --no-guess`): `logic` and `logic-lc`.
pub fn logic_config(name: &str) -> Option<LogicConfig> {
    match name {
        "logic" => Some(LogicConfig::PLAIN),
        "logic-lc" => Some(LogicConfig::LOCKED),
        _ => None,
    }
}

/// Names of the backends `bench` runs when none are named.
pub fn default_names() -> impl Iterator<Item = &'static str> {
    BACKENDS.iter().filter(|b| b.default).map(|b| b.name)
}

/// Builds a backend from its name: a built-in one, `exec:CMD` for an external program, or
/// `lib:PATH:SYMBOL` for a function in a shared library (run in a worker process).
pub fn build(name: &str, options: &Options) -> Result<Box<dyn Solver>, BuildError> {
    if let Some(command) = name.strip_prefix("exec:") {
        return Ok(Box::new(solver::exec::Exec::new(
            command,
            options.exec_timeout,
        )?));
    }
    if let Some(spec) = name.strip_prefix("lib:") {
        return Ok(Box::new(solver::plugin::Plugin::new(spec, options)?));
    }
    match BACKENDS.iter().find(|b| b.name == name) {
        Some(info) => (info.build)(options),
        None => Err(BuildError::Unknown {
            name: name.to_string(),
            known: builtin_names()
                .chain(["exec:CMD", "lib:PATH:SYMBOL"])
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}
