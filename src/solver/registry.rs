//! Backends by name: the list the CLI shows and the constructor it calls.

use super::logic::LogicConfig;
use super::Solver;
use std::time::Duration;

/// Settings a backend may read when it is built. Each backend uses the fields that concern it
/// and ignores the rest, so one `Options` serves every backend of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stop a search after this many nodes and answer `Unknown` (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Seed for backends with randomness (projection starts).
    pub seed: u64,
    /// CNF encoding of the `sat` backend by name (`None`: its default).
    pub sat_encoding: Option<String>,
    /// How long an external program (`exec:CMD`) may take to answer one puzzle.
    pub exec_timeout: Duration,
    /// Settings of the `projection` backends (iteration budget, relaxation, noise, ...).
    pub projection: super::projection::ProjectionOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: None,
            seed: 1,
            sat_encoding: None,
            exec_timeout: Duration::from_secs(10),
            projection: Default::default(),
        }
    }
}

/// Why a backend could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// No backend has this name.
    #[error("unknown backend {name:?} (known: {known})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// Comma-separated known names.
        known: String,
    },
    /// The backend exists but its settings are not usable.
    #[error("backend {name}: {reason}")]
    Invalid {
        /// The backend.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

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
    build: |o| Ok(Box::new(super::basic::Basic::new(o))),
}, BackendInfo {
    name: "bitmask",
    description:
        "bit boards per digit and band, singles + locked candidates to a fixpoint, bivalue-first search: the fast one",
    default: true,
    build: |o| Ok(Box::new(super::bitmask::Bitmask::new(o))),
}, BackendInfo {
    name: "logic",
    description: "naked and hidden subsets of every size to a fixpoint, then branching",
    default: true,
    build: |o| Ok(Box::new(super::logic::Logic::new(o, LogicConfig::PLAIN))),
}, BackendInfo {
    name: "logic-lc",
    description: "logic plus box-line intersections (locked candidates) in the closure",
    default: true,
    build: |o| Ok(Box::new(super::logic::Logic::new(o, LogicConfig::LOCKED))),
}, BackendInfo {
    name: "sat",
    description: "CNF encoding (--encoding minimal|extended|reduced|augmented) solved by varisat; blocking clause for uniqueness",
    default: true,
    build: |o| Ok(Box::new(super::sat::Sat::new(o)?)),
}, BackendInfo {
    name: "projection",
    description: "Douglas-Rachford in the product space on the 9x9x9 0/1 cube (incomplete)",
    default: true,
    build: |o| super::projection::build(o, super::projection::Algorithm::DouglasRachford),
}, BackendInfo {
    name: "projection-tm",
    description: "Malitsky-Tam resolvent splitting on the 9x9x9 0/1 cube (incomplete)",
    default: false,
    build: |o| super::projection::build(o, super::projection::Algorithm::MalitskyTam),
}, BackendInfo {
    name: "dlx",
    description: "exact cover by Knuth's Algorithm X with dancing links (729 options x 324 items)",
    default: true,
    build: |o| Ok(Box::new(super::dlx::Dlx::new(o)?)),
}, BackendInfo {
    name: "dlx-array",
    description: "the dlx search with kudoku-style counter arrays instead of links",
    default: true,
    build: |o| Ok(Box::new(super::dlx_array::DlxArray::new(o))),
}];

/// Names of the built-in backends.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BACKENDS.iter().map(|b| b.name)
}

/// The description of a built-in backend.
pub fn describe(name: &str) -> Option<&'static str> {
    BACKENDS
        .iter()
        .find(|b| b.name == name)
        .map(|b| b.description)
}

/// Builds a backend from its name: a built-in one, or `exec:CMD` for an external program.
pub fn build(name: &str, options: &Options) -> Result<Box<dyn Solver>, BuildError> {
    if let Some(command) = name.strip_prefix("exec:") {
        return Ok(Box::new(super::exec::Exec::new(
            command,
            options.exec_timeout,
        )?));
    }
    match BACKENDS.iter().find(|b| b.name == name) {
        Some(info) => (info.build)(options),
        None => Err(BuildError::Unknown {
            name: name.to_string(),
            known: builtin_names()
                .chain(["exec:CMD"])
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}
