//! Settings a backend reads when it is built ([`Options`]) and why building can fail.

use super::projection::ProjectionOptions;
use super::sat::Encoding;
use std::path::PathBuf;
use std::time::Duration;

/// Settings a backend may read when it is built. Each backend uses the fields that concern it
/// and ignores the rest, so one `Options` serves every backend of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stop a search after this many nodes and answer `Unknown` (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Seed for backends with randomness (projection starts).
    pub seed: u64,
    /// CNF encoding of the `sat` backend (`None`: its default).
    pub encoding: Option<Encoding>,
    /// How long an external program (`exec:CMD`) may take to answer one puzzle, and a
    /// library's function (`lib:PATH:SYMBOL`) to return from one call.
    pub exec_timeout: Duration,
    /// Settings of the `projection` backends (iteration budget, relaxation, noise, ...).
    pub projection: ProjectionOptions,
    /// The configuration word a `lib:PATH:SYMBOL` backend passes to the library's solve
    /// function (tdoku's `configuration`; 0 by default).
    pub lib_config: u32,
    /// The program a `lib:` backend runs as its worker process (`None`: the running
    /// executable, which must then be a `sudobench` binary: its file name must start with
    /// `sudobench`, so that no other program is ever handed the worker's arguments). A crate
    /// that uses `lib:` from its own program points this at a `sudobench` binary; see
    /// [`crate::solver::plugin`]. It is run by its path, never looked up in the current
    /// directory.
    pub lib_worker: Option<PathBuf>,
    /// Arguments put before the worker's own (`lib-worker --progress-fd …`) when
    /// [`lib_worker`](Options::lib_worker) is run: for a worker that is not the `sudobench`
    /// binary but enters [`crate::solver::plugin::serve_args`] another way (the Python
    /// package runs its interpreter in isolated mode on its own extension module).
    pub lib_worker_args: Vec<std::ffi::OsString>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: None,
            seed: 1,
            encoding: None,
            exec_timeout: Duration::from_secs(10),
            projection: Default::default(),
            lib_config: 0,
            lib_worker: None,
            lib_worker_args: Vec::new(),
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
