//! Command-line interface: argument parsing and one module per subcommand.
//!
//! Subcommands return `Ok(true)` when everything was fine, `Ok(false)` when some puzzle failed
//! or some input was malformed (exit 1), and `Err` when the command cannot run or go on: a
//! usage error, an output that cannot be written (exit 2; see [`EXIT_CODES`]). Results go to
//! stdout, one line per record; summaries and progress go to stderr.

mod backends;
mod bench;
mod by_order;
mod certify;
mod closure;
mod cnf;
mod generate;
mod generate_order;
mod grade;
mod input;
mod merge;
mod minimal;
mod output;
mod proof;
mod shard;
mod solve;
mod verify;
mod xc;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use sudobench::solver::projection::ProjectionOptions;
use sudobench::solver::sat::Encoding;
use sudobench::solver::{self, Options};

/// Exit codes, shown under every help text.
const EXIT_CODES: &str = "Exit codes: 0 every record fine; 1 some record failed, was malformed, \
or a backend was found at fault; 2 the command could not run or go on: a usage error (bad \
arguments, unknown backend), an input that cannot be opened, or results that cannot be \
written (a full disk; a closed pipe, as with `| head`, is no error).";

/// Sudoku solvers, benchmarked and cross-checked.
#[derive(Parser, Debug)]
#[command(name = "sudobench", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles: one line per input record (the solution, `no solution`,
    /// `multiple solutions`, or an error naming file and line).
    Solve(solve::SolveArgs),
    /// Count solutions up to a limit: one line per input record (`0`, `1`, `2+`, ...).
    Count(solve::CountArgs),
    /// List the backends.
    Backends,
    /// Benchmark backends over data sets (default: every bundled set), cross-checking every
    /// answer; a table (or CSV / JSON lines) per data set and backend.
    Bench(bench::BenchArgs),
    /// Check a puzzle collection: each puzzle's solution count (0, 1, 2+) and solution.
    Verify(verify::VerifyArgs),
    /// Certify every puzzle's count (0, 1, 2+) with a proof checked by an independent checker.
    Certify(certify::CertifyArgs),
    /// Run the bench and rewrite the generated part of RESULTS.md and its SVG chart.
    Report(bench::ReportArgs),
    /// Write puzzles as DIMACS CNF in a SAT encoding of the `sat` backend.
    Cnf(cnf::CnfArgs),
    /// Make random minimal puzzles with exactly one solution, one per line.
    Generate(generate::GenerateArgs),
    /// Grade puzzles: hardest technique needed, backtracking guesses, clues; per-file summary.
    Grade(grade::GradeArgs),
    /// Join the outputs of a run's parts (`--shard K/N`, given in order) into the output one
    /// whole run writes: per-record lines in order, set records added up.
    Merge(merge::MergeArgs),
    /// Write an exact-cover instance of a classic family in Knuth's format (with its known
    /// count in a `| count:` comment): queens N, langford N, pentominoes ROWS COLS,
    /// sudoku PUZZLE, hard-squares M [N].
    Xc(xc::XcArgs),
    /// The worker process of a `lib:` backend (started by sudobench itself).
    #[command(name = "lib-worker", hide = true)]
    LibWorker(LibWorkerArgs),
}

/// Arguments of the hidden `lib-worker` mode: what the `lib:` backend passes its worker.
#[derive(Args, Debug)]
struct LibWorkerArgs {
    /// Descriptor of the memory file the worker shows its progress in.
    #[arg(long)]
    progress_fd: i32,
    /// The configuration word passed to every call.
    #[arg(long, default_value_t = 0)]
    config: u32,
    /// The shared library.
    path: String,
    /// The function.
    symbol: String,
}

/// The backend of `solve` and `count`, and its settings.
#[derive(Args, Debug, Clone)]
pub struct BackendArgs {
    /// Backend to use (see `sudobench backends`).
    #[arg(long, short, default_value = "bitmask")]
    pub backend: String,
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
    match s.parse::<u64>() {
        Ok(n) if n > u64::from(u32::MAX) => Err(format!(
            "{s:?} is too large: the limit is at most {}",
            u32::MAX
        )),
        _ => s
            .parse::<u32>()
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

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

impl BackendSettings {
    /// The library options these flags stand for.
    pub fn options(&self) -> Options {
        let mut options = Options {
            max_nodes: self.max_nodes,
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
    /// The library options of the chosen backend.
    pub fn options(&self) -> Options {
        self.settings.options()
    }
}

/// Parses the command line and runs the subcommand.
pub fn run() -> Result<bool> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Count(args) => solve::count(&args),
        Command::Backends => backends::list(),
        Command::Bench(args) => bench::bench(&args),
        Command::Verify(args) => verify::verify(&args),
        Command::Certify(args) => certify::certify(&args),
        Command::Report(args) => bench::report(&args),
        Command::Cnf(args) => cnf::cnf(&args),
        Command::Generate(args) => generate::generate(&args),
        Command::Grade(args) => grade::grade(&args),
        Command::Merge(args) => merge::merge(&args),
        Command::Xc(args) => xc::generate(&args),
        Command::LibWorker(args) => Ok(solver::plugin::serve(
            &args.path,
            &args.symbol,
            args.config,
            args.progress_fd,
        )),
    }
}
