//! Settings a backend reads when it is built ([`Options`]) and why building can fail.
//!
//! `Options` holds what several backends share (a node and a time budget, a seed, the out-of-process
//! backends' timeout and worker) and, by type, each backend's own settings: a backend module
//! defines its settings type (the `sat` family's [`Encoding`](super::sat::Encoding), the
//! projection methods' [`ProjectionOptions`](super::projection::ProjectionOptions)) and reads
//! it with [`Options::get`]; this module knows none of them.

use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A backend's own settings type, kept in [`Options`] by type: anything `'static` that can
/// be compared, printed and shared between threads.
pub trait Setting: Any + fmt::Debug + Send + Sync {
    /// `self` as `Any`, to be read back by type.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same setting with the same value.
    fn same(&self, other: &dyn Setting) -> bool;
}

impl<T: Any + fmt::Debug + Send + Sync + PartialEq> Setting for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn Setting) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// Settings a backend may read when it is built. Each backend uses what concerns it and
/// ignores the rest, so one `Options` serves every backend of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop a search after this many nodes and answer `Unknown` (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Stop the search of one puzzle after this much wall-clock time and answer `Unknown`
    /// (`None`: no limit). Built-in backends only: an outside one (`exec:`, `lib:`) is
    /// bounded by [`exec_timeout`](Options::exec_timeout) instead, and refuses this.
    pub max_time: Option<Duration>,
    /// Seed for backends with randomness (projection starts).
    pub seed: u64,
    /// How long an external program (`exec:CMD`) may take to answer one puzzle, and a
    /// library's function (`lib:PATH:SYMBOL`) to return from one call.
    pub exec_timeout: Duration,
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
    /// Each backend's own settings, at most one value per type ([`Options::get`],
    /// [`Options::set`]).
    pub settings: Settings,
    /// Arguments put before the worker's own (`lib-worker --progress-fd …`) when
    /// [`lib_worker`](Options::lib_worker) is run: for a worker that is not the `sudobench`
    /// binary but enters [`crate::solver::plugin::serve_args`] another way (the Python
    /// package runs its interpreter in isolated mode on its own extension module).
    pub lib_worker_args: Vec<std::ffi::OsString>,
}

/// Backends' own settings, at most one value per type.
#[derive(Clone, Debug, Default)]
pub struct Settings(Vec<Arc<dyn Setting>>);

impl Options {
    /// The setting of type `T`, if one was given (the backend then uses its default).
    pub fn get<T: Setting>(&self) -> Option<&T> {
        self.settings
            .0
            .iter()
            .find_map(|s| s.as_ref().as_any().downcast_ref::<T>())
    }

    /// Sets the setting of type `T`, replacing the one given before.
    pub fn set<T: Setting>(&mut self, value: T) {
        let list = &mut self.settings.0;
        list.retain(|s| s.as_ref().as_any().downcast_ref::<T>().is_none());
        list.push(Arc::new(value));
    }

    /// `self` with the setting of type `T` set.
    pub fn with<T: Setting>(mut self, value: T) -> Options {
        self.set(value);
        self
    }
}

impl PartialEq for Options {
    fn eq(&self, other: &Options) -> bool {
        let settings_in = |a: &Options, b: &Options| {
            a.settings
                .0
                .iter()
                .all(|s| b.settings.0.iter().any(|t| s.same(t.as_ref())))
        };
        self.max_nodes == other.max_nodes
            && self.seed == other.seed
            && self.exec_timeout == other.exec_timeout
            && self.lib_config == other.lib_config
            && self.lib_worker == other.lib_worker
            && self.lib_worker_args == other.lib_worker_args
            && settings_in(self, other)
            && settings_in(other, self)
    }
}

impl Eq for Options {}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: None,
            max_time: None,
            seed: 1,
            exec_timeout: Duration::from_secs(10),
            lib_config: 0,
            lib_worker: None,
            settings: Settings::default(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Knob(u32);

    #[test]
    fn settings_are_kept_by_type() {
        let mut o = Options::default();
        assert_eq!(o.get::<Knob>(), None);
        o.set(Knob(3));
        o.set(Knob(4));
        assert_eq!(o.get::<Knob>(), Some(&Knob(4)));
        o = o.with(Knob(5));
        assert_ne!(o, Options::default());
        assert_eq!(o, Options::default().with(Knob(5)));
    }
}
