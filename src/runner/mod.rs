//! The benchmark runner: streams a puzzle source through one or more backends, checks every
//! answer, and times reading apart from solving.
//!
//! The surface is small on purpose, so that a crate with its own [`Solver`](crate::solver::Solver) can use it:
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
mod observer;
pub mod pipeline;
mod report;
mod setup;
pub mod shard;

pub use observer::{NoObserver, Observer};
pub use pipeline::{Ready, Source};
pub use report::{BackendReport, Mismatch, SetReport, MAX_KEPT_MISMATCHES};
pub use setup::{
    bench_defaults, Backend, Config, RunError, Runner, Sample, DEFAULT_BACKEND, ORDER_LOOKS_AT,
    OTHER_ORDERS_BACKEND, REFEREE_TIME,
};

use crate::format::{OpenError, Reader};
use std::sync::Arc;

impl Runner {
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
        if self.backends().is_empty() {
            return Err(RunError::NoBackends);
        }
        engine::run(self, source, items, bytes_read, observer)
    }
}
