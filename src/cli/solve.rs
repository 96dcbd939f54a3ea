//! `sudobench solve` and `sudobench count`: one output line per input record, in input order,
//! on the library's pipeline (threads, order, contained panics, records answered as they
//! arrive), every answer judged like `bench` judges it.

use super::args::BackendArgs;
use super::output::Output;
use super::proof::{self, ProofObserver};
use anyhow::Result;
use clap::Args;
use std::time::Instant;
use sudobench::format::{ParseError, Record};
use sudobench::runner::shard::Shard;
use sudobench::runner::{Backend, Config, Mismatch, Observer, RunError, Runner};
use sudobench::solver::{Count, Limit, Outcome};

/// Arguments of `sudobench solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Accept the first solution found instead of also checking that it is the only one.
    #[arg(long)]
    first: bool,
    /// Stop at the logical closure (logic and logic-lc only) and print the partial grid.
    #[arg(long, conflicts_with = "first")]
    no_guess: bool,
    /// With --no-guess: print the remaining candidates as a 729-character pencilmark line.
    #[arg(long, requires = "no_guess")]
    pencilmarks: bool,
    /// Solve on this many threads, 1 to 256 (output order and content do not change).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=i64::from(super::args::MAX_THREADS)))]
    threads: u16,
    /// Exact-cover files only: print up to this many solutions per instance (default 1; `0`
    /// or `all`: every one).
    #[arg(long, value_parser = super::args::parse_count_limit)]
    limit: Option<super::args::CountLimit>,
    /// Puzzle files (plain or gzip; `-` or nothing for standard input).
    files: Vec<String>,
}

/// Arguments of `sudobench count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Count solutions up to this many (`N+` means at least N); `0` or `all`: every solution
    /// (exact-cover files only).
    #[arg(long, default_value = "2", value_parser = super::args::parse_count_limit)]
    limit: super::args::CountLimit,
    /// With `--backend sat`: for each puzzle found unique (or without a solution), write a DRAT
    /// proof that it has no second solution (no solution) as `NAME-LINE.drat`, and the CNF it
    /// refutes as `NAME-LINE.cnf`, into this new or empty directory (NAME: the input's file
    /// name, or its path when two inputs share one; see the README).
    #[arg(long)]
    proof: Option<std::path::PathBuf>,
    /// Count on this many threads, 1 to 256 (output order and content do not change).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=i64::from(super::args::MAX_THREADS)))]
    threads: u16,
    /// After the count, print the solutions that back it: the solution of a `1`, two
    /// different solutions of a `2+` (each checked by the verifier).
    #[arg(long)]
    witness: bool,
    /// Only part K of N of the records (contiguous ranges in input order, for job arrays; the
    /// parts' outputs concatenated in order are one whole run's).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Puzzle files (plain or gzip; `-` or nothing for standard input).
    files: Vec<String>,
}

/// Records handed to the pipeline at once (the runner then sizes each backend's batches).
const CHUNK: usize = 256;

/// What `solve` and `count` print for each answer.
enum Mode {
    /// `solve`: the solution, or why there is none; `first` accepts a solution without
    /// knowing whether it is the only one.
    Solve { first: bool },
    /// `count`: the count, the solutions behind it with `witness`, and the result of its
    /// proof with `--proof` (proved on the worker threads, told through
    /// [`ProofObserver::proved`](super::proof::ProofObserver::proved)).
    Count { witness: bool },
}

/// Prints one line per input record, in input order, and keeps the totals.
struct Lines {
    out: Output,
    mode: Mode,
    /// The result of the next record's proof, when proofs are written.
    proved: Option<Result<(), String>>,
    limit: Limit,
    /// Why the backend failed for good, once it has.
    failed: Option<String>,
    /// The record it failed on (the first it could not answer).
    failed_at: Option<String>,
    records: u64,
    ok: u64,
    errors: u64,
    /// Records already answered that came from a gzip member that then failed its check.
    suspect: u64,
    /// The backend answering, to tell a puzzle it does not solve (`n/a`) from one it
    /// was not asked for lack of budget.
    backend: Option<Backend>,
    /// Whether any record was a grid of another order than 9×9 (which the default backend
    /// hands to `wide`).
    other_orders: bool,
}

impl Lines {
    fn emit(&mut self, line: &str, ok: bool) {
        self.records += 1;
        if ok {
            self.ok += 1;
        } else {
            self.errors += 1;
        }
        self.out.line(line);
    }

    /// Prints the summary to stderr (with a note on answered records from a gzip member that
    /// failed its check, each such failure's error naming them); true when every record was
    /// fine.
    fn summary(&self, ok: &str, not_ok: &str, start: Instant, args: &BackendArgs) -> bool {
        let backend = super::by_order::label(args.backend.as_deref(), self.other_orders);
        let suspect = match self.suspect {
            0 => String::new(),
            n => format!(
                "; {n} of them from a gzip member that failed its check: do not trust those"
            ),
        };
        eprintln!(
            "sudobench: {} records: {} {ok}, {} {not_ok} ({:.3} s, backend {backend}){suspect}",
            self.records,
            self.ok,
            self.errors,
            start.elapsed().as_secs_f64(),
        );
        self.errors == 0
    }

    /// The line for an answer the judge accepted, and whether it counts as fine.
    fn answer_line(&mut self, record: &Record, outcome: &Outcome) -> (String, bool) {
        if let (Count::Unknown, Some(why)) = (outcome.count(), &self.failed) {
            // The first record it could not answer gets the reason; later ones point there.
            let place = format!("{}:{}", record.source, record.line);
            let line = match &self.failed_at {
                None => format!("error: {place}: {why}"),
                Some(at) => format!("error: {place}: no answer: the backend failed at {at}"),
            };
            self.failed_at.get_or_insert(place);
            return (line, false);
        }
        match self.mode {
            Mode::Solve { first } => match (outcome.count(), outcome.first_solution()) {
                // At least one: `--first` asked for one solution.
                (Count::Exactly(1) | Count::AtLeast(1), Some(s)) => (s.to_string(), true),
                (Count::Exactly(0), _) => ("no solution".to_string(), false),
                (Count::Exactly(_) | Count::AtLeast(_), _) => {
                    ("multiple solutions".to_string(), false)
                }
                (Count::Unknown, Some(s)) if first => (s.to_string(), true),
                (Count::Unknown, _) => ("unknown".to_string(), false),
            },
            Mode::Count { witness } => {
                let mut line = outcome.count().display();
                if witness {
                    for s in outcome
                        .first_solution()
                        .into_iter()
                        .chain(outcome.second_solution())
                    {
                        line.push(' ');
                        line.push_str(&s.to_string());
                    }
                }
                match self.proved.take().unwrap_or(Ok(())) {
                    Ok(()) => (line, outcome.count() != Count::Unknown),
                    Err(e) => (
                        format!("error: {}:{}: {e}", record.source, record.line),
                        false,
                    ),
                }
            }
        }
    }
}

impl Observer for Lines {
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        self.other_orders |= matches!(record.puzzle, sudobench::Puzzle::Order(_));
        let (line, ok) = match (mismatch, answers.first()) {
            (Some(m), _) => (
                format!(
                    "error: {}:{}: {}",
                    record.source,
                    record.line,
                    m.problems.join("; ")
                ),
                false,
            ),
            (None, Some(Some(outcome))) => self.answer_line(record, outcome),
            (None, Some(None))
                if !self
                    .backend
                    .as_ref()
                    .is_some_and(|b| b.supports(&record.puzzle)) =>
            {
                (
                    format!(
                        "error: {}:{}: n/a: backend {} solves 9x9 puzzles only, this one is {} \
                     (wide and basic solve every order)",
                        record.source,
                        record.line,
                        self.backend.as_ref().map_or("?", |b| b.name()),
                        record.puzzle.shape().label()
                    ),
                    false,
                )
            }
            (None, _) => (
                format!("error: {}:{}: no answer", record.source, record.line),
                false,
            ),
        };
        self.emit(&line, ok);
    }

    fn parse_error(&mut self, error: &ParseError) {
        self.suspect += error.kind.suspect_records();
        self.emit(&format!("error: {error}"), false);
    }

    fn fault(&mut self, backend: &str, why: &str) {
        self.failed = Some(format!("backend {backend} failed: {why}"));
    }

    fn idle(&mut self) {
        self.out.flush();
    }

    fn done(&self) -> bool {
        !self.out.is_open()
    }
}

impl ProofObserver for Lines {
    fn proved(&mut self, result: Option<Result<(), String>>) {
        self.proved = result;
    }

    fn error(&mut self, message: &str) {
        self.emit(&format!("error: {message}"), false);
    }
}

/// Runs the backend over every file (standard input when there are none) on the library's
/// pipeline and prints one line per record through `lines`.
fn run_lines(
    args: &BackendArgs,
    files: &[String],
    threads: u16,
    shard: Option<Shard>,
    lines: &mut Lines,
) -> Result<()> {
    let mut window = super::shard::window(shard, files)?;
    let backend = super::by_order::backend(args.backend.as_deref(), &args.options())?;
    lines.backend = Some(backend.clone());
    let config = Config {
        limit: lines.limit,
        threads: usize::from(threads),
        chunk_size: CHUNK,
        referee_max_nodes: args.settings.referee_budget().0,
        trust_outside: args.settings.trust_outside,
        referee_time: args.settings.referee_budget().1,
        ..Config::default()
    };
    let runner = Runner::new(config, vec![backend]);
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    for file in files {
        match runner.run_path_part(file, window.as_mut(), lines) {
            // A backend that cannot be built (a library that does not load) is a usage
            // error, whatever the file.
            Err(RunError::Build(e)) => return Err(e.into()),
            Err(e) => lines.emit(&format!("error: {e}"), false),
            Ok(_) => {}
        }
        if lines.done() {
            break;
        }
    }
    Ok(())
}

fn lines(mode: Mode, limit: Limit) -> Lines {
    Lines {
        out: Output::stdout(),
        mode,
        proved: None,
        limit,
        failed: None,
        failed_at: None,
        records: 0,
        ok: 0,
        errors: 0,
        suspect: 0,
        backend: None,
        other_orders: false,
    }
}

/// `sudobench solve`.
pub fn solve(args: &SolveArgs) -> Result<bool> {
    // No files is standard input, which may hold an exact-cover instance as `-` may.
    let files = super::input::or_stdin(&args.files);
    if super::xc::wanted(&files) {
        super::xc::refuse_flags(&[
            ("--no-guess", args.no_guess),
            ("--threads", args.threads > 1),
        ])?;
        super::xc::refuse_flags(&args.backend.settings.sudoku_only())?;
        let limit = args
            .limit
            .map_or(sudobench::xc::Limit::AtMost(1), |l| l.xc());
        return super::xc::solve(
            args.backend.backend.as_deref(),
            &files,
            limit,
            super::xc::Budget::of(&args.backend.settings),
        );
    }
    if args.limit.is_some() {
        anyhow::bail!("--limit is for exact-cover files (Sudoku's solve decides uniqueness)");
    }
    if args.no_guess {
        return super::closure::run(&args.backend, &args.files, args.pencilmarks, args.threads);
    }
    let limit = if args.first { Limit::ONE } else { Limit::TWO };
    let start = Instant::now();
    let mut out = lines(Mode::Solve { first: args.first }, limit);
    run_lines(&args.backend, &args.files, args.threads, None, &mut out)?;
    let fine = out.summary("solved", "not solved or malformed", start, &args.backend);
    out.out.finish()?;
    Ok(fine)
}

/// `sudobench count`.
pub fn count(args: &CountArgs) -> Result<bool> {
    // No files is standard input, which may hold an exact-cover instance as `-` may.
    let files = super::input::or_stdin(&args.files);
    if super::xc::wanted(&files) {
        super::xc::refuse_flags(&[
            ("--witness", args.witness),
            ("--proof", args.proof.is_some()),
            ("--shard", args.shard.is_some()),
            ("--threads", args.threads > 1),
        ])?;
        super::xc::refuse_flags(&args.backend.settings.sudoku_only())?;
        return super::xc::count(
            args.backend.backend.as_deref(),
            &files,
            args.limit.xc(),
            super::xc::Budget::of(&args.backend.settings),
        );
    }
    let limit = args.limit.sudoku()?;
    let start = Instant::now();
    let mode = Mode::Count {
        witness: args.witness,
    };
    let mut out = lines(mode, limit);
    match &args.proof {
        None => run_lines(
            &args.backend,
            &args.files,
            args.threads,
            args.shard,
            &mut out,
        )?,
        Some(_) if args.shard.is_some() => {
            anyhow::bail!("--shard and --proof do not go together: prove each shard's files whole")
        }
        Some(dir) => {
            let prover = proof::prover(dir, &args.backend, limit.get(), &args.files)?;
            // One runner per worker stage, each on its own thread; the stages prove too.
            let backend = Backend::builtin(args.backend.name(), &args.backend.options())?;
            let config = Config {
                limit,
                threads: 1,
                chunk_size: CHUNK,
                ..Config::default()
            };
            let runner = Runner::new(config, vec![backend]);
            let threads = usize::from(args.threads);
            proof::run(&runner, &prover, &args.files, threads, CHUNK, &mut out);
        }
    }
    let fine = out.summary("counted", "unknown or malformed", start, &args.backend);
    out.out.finish()?;
    Ok(fine)
}
