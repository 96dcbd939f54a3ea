//! The arguments several subcommands share: backends and their settings, limits, threads.

use anyhow::Result;
use clap::Args;
use sudobench::deadline::MAX_SECONDS;
use sudobench::solver::projection::ProjectionOptions;
use sudobench::solver::sat::Encoding;
use sudobench::solver::{self, Options};

/// The backend of `solve`, `count` and `verify` when none is named: it answers 9×9 grids, and
/// `wide` the other orders (see [`by_order`](super::by_order)).
pub use sudobench::runner::DEFAULT_BACKEND;

/// The backend of `solve` and `count`, and its settings.
#[derive(Args, Debug, Clone)]
pub struct BackendArgs {
    /// Backend to use (see `sudobench backends`) [default: `bitmask` on 9x9 grids, `wide` on
    /// the other orders, `dlx` on exact cover]
    #[arg(long, short)]
    pub backend: Option<String>,
    #[command(flatten)]
    pub settings: BackendSettings,
}

/// Settings of the backends, the same flags for every subcommand that runs backends.
#[derive(Args, Debug, Clone)]
pub struct BackendSettings {
    /// Give up on a puzzle after this many search nodes (SAT calls for `sat`) and answer
    /// `unknown`.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up on a puzzle (an exact-cover instance) after this many seconds of search and
    /// answer `unknown`. Built-in backends only (`exec:` and `lib:` have --timeout); the SAT
    /// backends look at the clock between solver calls.
    #[arg(long, value_parser = parse_seconds)]
    pub max_seconds: Option<f64>,
    /// Seed for backends that use randomness (the projection backends' starts).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// CNF encoding for the `sat` backend: minimal, extended, reduced or augmented.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Iteration budget per puzzle of the projection backends.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Seconds an external program (`exec:CMD`) may take to answer one puzzle, and a
    /// library's function (`lib:PATH:SYMBOL`) to return from one call.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Configuration word passed to a `lib:` backend's function (tdoku's `configuration`).
    #[arg(long, default_value_t = 0)]
    pub config: u32,
    /// Believe the counts of `exec:` and `lib:` backends that nothing else in the run can
    /// check. By default a built-in referee (bitmask, under --max-nodes and --timeout)
    /// checks every such count: a `0`, a `1` (is it the only solution?), a `2+` without a
    /// second solution.
    #[arg(long)]
    pub trust_outside: bool,
}

/// A solution limit: a whole number of at least 1.
pub fn parse_limit(s: &str) -> Result<solver::Limit, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u32>() {
        // Digits that do not fit, however many: too large, not "not a number".
        Err(_) if digits => Err(format!(
            "{s:?} is too large: the limit is at most {}",
            u32::MAX
        )),
        n => n
            .ok()
            .and_then(solver::Limit::new)
            .ok_or_else(|| format!("{s:?} is not a whole number of at least 1")),
    }
}

/// The `--limit` of `count` and `solve`: at least 1, or `0` / `all` for every solution (exact
/// cover only; `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountLimit(pub Option<solver::Limit>);

/// Parses a [`CountLimit`].
pub fn parse_count_limit(s: &str) -> Result<CountLimit, String> {
    match s {
        "0" | "all" => Ok(CountLimit(None)),
        _ => parse_limit(s).map(|l| CountLimit(Some(l))),
    }
}

impl CountLimit {
    /// The exact-cover search limit.
    pub fn xc(self) -> sudobench::xc::Limit {
        match self.0 {
            None => sudobench::xc::Limit::All,
            Some(l) => sudobench::xc::Limit::AtMost(u64::from(l.get())),
        }
    }

    /// The Sudoku limit (`0`/`all` is for exact cover only).
    pub fn sudoku(self) -> Result<solver::Limit> {
        self.0.ok_or_else(|| {
            anyhow::anyhow!(
                "--limit 0 (all) is for exact-cover files; Sudoku counts need a limit of at \
                 least 1"
            )
        })
    }
}

/// The most worker threads any subcommand starts (`--threads`, 1 to this).
pub const MAX_THREADS: u16 = 256;

/// A positive number of seconds below [`MAX_SECONDS`], for `--timeout`, `--max-seconds` and
/// `generate --time-limit`.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < MAX_SECONDS => Ok(v),
        _ => Err(format!(
            "{s:?} is not a positive number of seconds below {MAX_SECONDS}"
        )),
    }
}

impl BackendSettings {
    /// The settings that only Sudoku backends read, as (flag, whether given): exact-cover
    /// runs refuse them.
    pub fn sudoku_only(&self) -> [(&'static str, bool); 2] {
        [
            ("--encoding", self.encoding.is_some()),
            ("--iterations", self.iterations.is_some()),
        ]
    }

    /// The time limit per puzzle, `--max-seconds`.
    pub fn max_time(&self) -> Option<std::time::Duration> {
        self.max_seconds.map(std::time::Duration::from_secs_f64)
    }

    /// The library options these flags stand for.
    pub fn options(&self) -> Options {
        let mut options = Options {
            max_nodes: self.max_nodes,
            max_time: self.max_time(),
            seed: self.seed,
            exec_timeout: std::time::Duration::from_secs_f64(self.timeout),
            lib_config: self.config,
            ..Options::default()
        };
        if let Some(encoding) = self.encoding {
            options.set(encoding);
        }
        if let Some(iterations) = self.iterations {
            options.set(ProjectionOptions {
                iterations,
                ..ProjectionOptions::default()
            });
        }
        options
    }
}

impl BackendSettings {
    /// The referee's budget for one dispute under these flags: `--max-nodes` nodes and
    /// `--timeout` seconds (the same budgets the backends get), as `(max_nodes, time)`.
    pub fn referee_budget(&self) -> (Option<u64>, Option<std::time::Duration>) {
        (
            self.max_nodes,
            Some(std::time::Duration::from_secs_f64(self.timeout)),
        )
    }
}

impl BackendArgs {
    /// The backend named by `--backend`, or `bitmask`, the Sudoku default.
    pub fn name(&self) -> &str {
        self.backend.as_deref().unwrap_or(DEFAULT_BACKEND)
    }

    /// The library options of the chosen backend.
    pub fn options(&self) -> Options {
        self.settings.options()
    }
}
