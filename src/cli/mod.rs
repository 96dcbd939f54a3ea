//! Command-line interface: argument parsing and one module per subcommand.
//!
//! Subcommands return `Ok(true)` when everything was fine, `Ok(false)` when some puzzle failed
//! or some input was malformed (exit 1), and `Err` when the command cannot run or go on: a
//! usage error, an output that cannot be written (exit 2; see [`EXIT_CODES`]). Results go to
//! stdout, one line per record; summaries and progress go to stderr.

mod args;
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
use sudobench::solver;

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
