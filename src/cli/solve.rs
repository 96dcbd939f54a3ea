//! `sudobench solve` and `sudobench count`: one output line per input record, in input order.

use super::input::{inputs, Input, Inputs};
use super::BackendArgs;
use anyhow::Result;
use clap::Args;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::sync::{mpsc, Arc, Mutex};
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
    /// Solve on this many threads (output order and content do not change).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    threads: u16,
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
    /// With `--backend sat`: for each puzzle found unique (or without a solution), write a DRAT
    /// proof that it has no second solution (no solution) as `SOURCE-LINE.drat`, and the CNF it
    /// refutes as `SOURCE-LINE.cnf`, here.
    #[arg(long)]
    proof: Option<std::path::PathBuf>,
    /// Count on this many threads (output order and content do not change).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    threads: u16,
    /// After the count, print the solutions that back it: the solution of a `1`, two
    /// different solutions of a `2+` (each checked by the verifier).
    #[arg(long)]
    witness: bool,
    /// Puzzle files (plain or gzip; `-` or nothing for standard input).
    files: Vec<String>,
}

/// Totals printed to stderr at the end of a run.
#[derive(Default)]
struct Tally {
    records: u64,
    ok: u64,
    errors: u64,
    /// Said of records read from a corrupt gzip member (`Inputs::suspect_note`).
    suspect_note: String,
}

/// Records handed to a backend at once (lets external programs pipeline).
const CHUNK: usize = 256;

/// Checks every claim of an outcome: the solution passes `verify`, and matches the file's
/// expected solution when there is one and the answer is unique. Returns a message for an
/// answer that must not be believed.
fn check_outcome(solver: &dyn Solver, record: &Record, outcome: &Outcome) -> Result<(), String> {
    if outcome.count == Count::Unknown {
        if let Some(fault) = solver.fault() {
            return Err(format!("backend {} failed: {fault}", solver.name()));
        }
    }
    if let Some(solution) = &outcome.solution {
        verify::check_puzzle(&record.puzzle, solution).map_err(|e| {
            format!(
                "backend {} returned an invalid solution {solution}: {e}",
                solver.name()
            )
        })?;
    }
    if let Some(problem) = outcome.second_problem(&record.puzzle) {
        return Err(format!("backend {} {problem}", solver.name()));
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
    Ok(())
}

/// Turns one checked outcome into an output line and whether it counts as fine.
type LineFor<'a> = dyn Fn(&Record, Outcome) -> (String, bool) + Sync + 'a;

/// Answers one chunk of inputs with one backend: one line per input, in order.
fn answer_chunk(
    solver: &mut dyn Solver,
    chunk: &[Input],
    limit: u32,
    line_for: &LineFor,
) -> Vec<(String, bool)> {
    let puzzles: Vec<_> = chunk.iter().flatten().map(|r| r.puzzle).collect();
    let mut outcomes = Vec::with_capacity(puzzles.len());
    solver.solve_batch(&puzzles, limit, &mut outcomes);
    let mut answers = outcomes.into_iter();
    chunk
        .iter()
        .map(|input| match input {
            Err(e) => (format!("error: {e}"), false),
            Ok(record) => {
                let checked = answers
                    .next()
                    .ok_or_else(|| format!("backend {} returned too few outcomes", solver.name()))
                    .and_then(|o| check_outcome(solver, record, &o).map(|()| o));
                match checked {
                    Ok(outcome) => line_for(record, outcome),
                    Err(e) => (
                        format!("error: {}:{}: {e}", record.source, record.line),
                        false,
                    ),
                }
            }
        })
        .collect()
}

/// The next chunk of at most [`CHUNK`] inputs: waits for the first, then takes only what has
/// already arrived, so that records trickling in (from a person or a program) are answered
/// as they come. `None` at the end of the inputs.
fn next_chunk(inputs: &mut Inputs) -> Option<Vec<Input>> {
    let mut chunk = vec![inputs.next()?];
    while chunk.len() < CHUNK && inputs.ready() {
        match inputs.next() {
            Some(input) => chunk.push(input),
            None => break,
        }
    }
    Some(chunk)
}

/// Flushes the output when no more input is at hand (the reader would wait for it), so that
/// what has been answered is seen first; false once stdout is closed (broken pipe).
fn flush_if_waiting(out: &mut impl Write, inputs: &Inputs) -> Result<bool> {
    if inputs.ready() {
        return Ok(true);
    }
    match out.flush() {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Writes answered lines and counts them; false once stdout is closed (broken pipe).
fn emit(out: &mut impl Write, lines: Vec<(String, bool)>, tally: &mut Tally) -> Result<bool> {
    for (line, ok) in lines {
        tally.records += 1;
        if ok {
            tally.ok += 1;
        } else {
            tally.errors += 1;
        }
        if let Err(e) = writeln!(out, "{line}") {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(false);
            }
            return Err(e.into());
        }
    }
    Ok(true)
}

/// Runs the backend on every input in chunks and writes one line per input, in input order,
/// using `line_for` to word each checked outcome. With `threads > 1`, chunks are answered on
/// that many threads, each with its own backend instance, and written back in order.
fn run_lines(
    args: &BackendArgs,
    files: &[String],
    limit: u32,
    threads: usize,
    line_for: &LineFor,
) -> Result<Tally> {
    let mut solver = args.build()?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let mut inputs = inputs(files);
    let open = if threads <= 1 {
        let mut open = true;
        while let Some(chunk) = next_chunk(&mut inputs) {
            let lines = answer_chunk(solver.as_mut(), &chunk, limit, line_for);
            if !emit(&mut out, lines, &mut tally)? || !flush_if_waiting(&mut out, &inputs)? {
                open = false;
                break;
            }
        }
        open
    } else {
        drop(solver);
        std::thread::scope(|scope| -> Result<bool> {
            let (work_tx, work_rx) = mpsc::channel::<(u64, Vec<Input>)>();
            let work_rx = Arc::new(Mutex::new(work_rx));
            let (done_tx, done_rx) = mpsc::channel::<Result<(u64, Vec<(String, bool)>)>>();
            for _ in 0..threads {
                let (work_rx, done_tx) = (Arc::clone(&work_rx), done_tx.clone());
                scope.spawn(move || {
                    let mut solver = match args.build() {
                        Ok(s) => s,
                        Err(e) => return drop(done_tx.send(Err(e))),
                    };
                    loop {
                        let job = work_rx
                            .lock()
                            .map_err(|_| ())
                            .and_then(|rx| rx.recv().map_err(|_| ()));
                        let Ok((index, chunk)) = job else { return };
                        let lines = answer_chunk(solver.as_mut(), &chunk, limit, line_for);
                        if done_tx.send(Ok((index, lines))).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done_tx);
            // At most this many chunks are read ahead of the one being written: memory stays
            // bounded whatever the input size.
            let max_in_flight = 4 * threads as u64;
            let (mut sent, mut written) = (0u64, 0u64);
            let mut pending = BTreeMap::new();
            let mut reading = true;
            loop {
                while reading && sent - written < max_in_flight {
                    // With answers outstanding, do not wait for input that has not come.
                    if sent > written && !inputs.ready() {
                        break;
                    }
                    match next_chunk(&mut inputs) {
                        Some(chunk) => {
                            work_tx.send((sent, chunk))?;
                            sent += 1;
                        }
                        None => reading = false,
                    }
                }
                if written == sent {
                    if reading {
                        continue;
                    }
                    return Ok(true);
                }
                let (index, lines) = done_rx.recv()??;
                pending.insert(index, lines);
                while let Some(lines) = pending.remove(&written) {
                    written += 1;
                    if !emit(&mut out, lines, &mut tally)? {
                        return Ok(false);
                    }
                }
                if !flush_if_waiting(&mut out, &inputs)? {
                    return Ok(false);
                }
            }
        })?
    };
    tally.suspect_note = inputs.suspect_note();
    if open {
        if let Err(e) = out.flush() {
            if e.kind() != io::ErrorKind::BrokenPipe {
                return Err(e.into());
            }
        }
    }
    Ok(tally)
}

/// `sudobench solve`.
pub fn solve(args: &SolveArgs) -> Result<bool> {
    if args.no_guess {
        return super::closure::run(&args.backend, &args.files, args.pencilmarks);
    }
    let limit = if args.first { 1 } else { 2 };
    let start = Instant::now();
    let tally = run_lines(
        &args.backend,
        &args.files,
        limit,
        usize::from(args.threads),
        &|_, outcome| match (outcome.count, outcome.solution) {
            (Count::Exactly(1), Some(s)) => (s.to_string(), true),
            (Count::Exactly(0), _) => ("no solution".to_string(), false),
            (Count::Exactly(_), _) => ("multiple solutions".to_string(), false),
            (Count::Unknown, Some(s)) if args.first => (s.to_string(), true),
            (Count::Unknown, _) => ("unknown".to_string(), false),
        },
    )?;
    eprintln!(
        "sudobench: {} records: {} solved, {} not solved or malformed ({:.3} s, backend {}){}",
        tally.records,
        tally.ok,
        tally.errors,
        start.elapsed().as_secs_f64(),
        args.backend.backend,
        tally.suspect_note
    );
    Ok(tally.errors == 0)
}

/// `sudobench count`.
pub fn count(args: &CountArgs) -> Result<bool> {
    let start = Instant::now();
    let prover = match &args.proof {
        None => None,
        Some(dir) => Some(super::proof::Prover::new(
            dir,
            &args.backend,
            args.limit,
            &args.files,
        )?),
    };
    let tally = run_lines(
        &args.backend,
        &args.files,
        args.limit,
        usize::from(args.threads),
        &|record, outcome| {
            let mut line = outcome.count.display(args.limit);
            if args.witness {
                for s in [&outcome.solution, &outcome.second].into_iter().flatten() {
                    line.push(' ');
                    line.push_str(&s.to_string());
                }
            }
            let proved = match (&prover, outcome.count, &outcome.solution) {
                (Some(p), Count::Exactly(1), Some(s)) => p.prove(record, Some(s)),
                (Some(p), Count::Exactly(0), _) => p.prove(record, None),
                _ => Ok(()),
            };
            if let Err(e) = proved {
                return (
                    format!("error: {}:{}: {e}", record.source, record.line),
                    false,
                );
            }
            (line, outcome.count != Count::Unknown)
        },
    )?;
    eprintln!(
        "sudobench: {} records: {} counted, {} unknown or malformed ({:.3} s, backend {}){}",
        tally.records,
        tally.ok,
        tally.errors,
        start.elapsed().as_secs_f64(),
        args.backend.backend,
        tally.suspect_note
    );
    Ok(tally.errors == 0)
}
