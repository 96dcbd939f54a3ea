//! `sudobench solve` and `sudobench count`: one output line per input record, in input order.

use super::input::inputs;
use super::BackendArgs;
use anyhow::Result;
use clap::Args;
use std::io::{self, BufWriter, Write};
use std::time::Instant;
use sudobench::format::Record;
use sudobench::solver::{Count, Outcome, Solver};
use sudobench::verify;

/// Arguments of `sudobench solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Accept the first solution found instead of also checking that it is the only one.
    #[arg(long)]
    first: bool,
    /// Stop at the logical closure (logic and logic-lc only) and print the partial grid.
    #[arg(long)]
    no_guess: bool,
    /// With --no-guess: print the remaining candidates as a 729-character pencilmark line.
    #[arg(long, requires = "no_guess")]
    pencilmarks: bool,
    /// Puzzle files (plain or gzip; `-` or nothing for standard input).
    files: Vec<String>,
}

/// Arguments of `sudobench count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Count solutions up to this many (`N+` means at least N).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,
    /// Puzzle files (plain or gzip; `-` or nothing for standard input).
    files: Vec<String>,
}

/// Totals printed to stderr at the end of a run.
#[derive(Default)]
struct Tally {
    records: u64,
    ok: u64,
    errors: u64,
}

/// Solves a record and checks every claim: the solution passes `verify`, and matches the
/// file's expected solution when there is one and the answer is unique. Returns the outcome,
/// or a message for an answer that must not be believed.
fn solve_checked(solver: &mut dyn Solver, record: &Record, limit: u32) -> Result<Outcome, String> {
    let outcome = solver.solve_puzzle(&record.puzzle, limit);
    if let Some(solution) = &outcome.solution {
        verify::check_puzzle(&record.puzzle, solution).map_err(|e| {
            format!(
                "backend {} returned an invalid solution {solution}: {e}",
                solver.name()
            )
        })?;
    }
    if let (Some(expected), Some(solution), Count::Exactly(1)) =
        (&record.expected, &outcome.solution, outcome.count)
    {
        if expected != solution {
            return Err(format!(
                "unique solution {solution} differs from the file's expected {expected}"
            ));
        }
    }
    if matches!(outcome.count, Count::Exactly(n) if n > 0) && outcome.solution.is_none() {
        return Err(format!(
            "backend {} reported solutions but returned none",
            solver.name()
        ));
    }
    Ok(outcome)
}

/// Runs `line_for` on every input and writes one line each; returns the tally.
fn run_lines(
    args: &BackendArgs,
    files: &[String],
    limit: u32,
    mut line_for: impl FnMut(&Record, Outcome) -> (String, bool),
) -> Result<Tally> {
    let mut solver = args.build()?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    for input in inputs(files) {
        tally.records += 1;
        let (line, ok) = match input {
            Err(e) => (format!("error: {e}"), false),
            Ok(record) => match solve_checked(solver.as_mut(), &record, limit) {
                Ok(outcome) => line_for(&record, outcome),
                Err(e) => (
                    format!("error: {}:{}: {e}", record.source, record.line),
                    false,
                ),
            },
        };
        if ok {
            tally.ok += 1;
        } else {
            tally.errors += 1;
        }
        if let Err(e) = writeln!(out, "{line}") {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(tally);
            }
            return Err(e.into());
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(tally),
    }
}

/// `sudobench solve`.
pub fn solve(args: &SolveArgs) -> Result<bool> {
    if args.no_guess {
        return super::closure::run(&args.backend, &args.files, args.pencilmarks);
    }
    let limit = if args.first { 1 } else { 2 };
    let start = Instant::now();
    let tally = run_lines(&args.backend, &args.files, limit, |_, outcome| {
        match (outcome.count, outcome.solution) {
            (Count::Exactly(1), Some(s)) => (s.to_string(), true),
            (Count::Exactly(0), _) => ("no solution".to_string(), false),
            (Count::Exactly(_), _) => ("multiple solutions".to_string(), false),
            (Count::Unknown, Some(s)) if args.first => (s.to_string(), true),
            (Count::Unknown, _) => ("unknown".to_string(), false),
        }
    })?;
    eprintln!(
        "sudobench: {} records: {} solved, {} not solved or malformed ({:.3} s, backend {})",
        tally.records,
        tally.ok,
        tally.errors,
        start.elapsed().as_secs_f64(),
        args.backend.backend
    );
    Ok(tally.errors == 0)
}

/// `sudobench count`.
pub fn count(args: &CountArgs) -> Result<bool> {
    let start = Instant::now();
    let tally = run_lines(&args.backend, &args.files, args.limit, |_, outcome| {
        (
            outcome.count.display(args.limit),
            outcome.count != Count::Unknown,
        )
    })?;
    eprintln!(
        "sudobench: {} records: {} counted, {} unknown or malformed ({:.3} s, backend {})",
        tally.records,
        tally.ok,
        tally.errors,
        start.elapsed().as_secs_f64(),
        args.backend.backend
    );
    Ok(tally.errors == 0)
}
