//! `sudobench verify`: for puzzle collections, each puzzle's solution count (0, 1, 2+) and
//! solution, optionally confirmed by a second backend of a different kind.

use super::output::Output;
use anyhow::Result;
use clap::{Args, ValueEnum};
use sudobench::format::{ParseError, Record};
use sudobench::report::{csv_lines, json_line, VerifyRow};
use sudobench::runner::shard::Shard;
use sudobench::runner::{Backend, Config, Mismatch, Observer, Runner};
use sudobench::solver::{Count, Limit, Outcome};

/// Output formats of `verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    /// `puzzle,count,solution` with a header line.
    Csv,
    /// One JSON object per puzzle: source, line, puzzle, count, solution.
    Json,
}

/// Arguments of `sudobench verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Backend that counts.
    #[arg(long, short, default_value = "bitmask")]
    backend: String,
    /// Confirm every count with a second backend of a different kind (`sat`, or `dlx` when
    /// the first is `sat`); disputes are settled as in `bench`.
    #[arg(long)]
    cross_check: bool,
    #[command(flatten)]
    settings: super::BackendSettings,
    /// Output format.
    #[arg(long, value_enum, default_value_t = VerifyFormat::Csv)]
    format: VerifyFormat,
    /// Also check that every unique puzzle is minimal: removing any one clue leaves two or
    /// more solutions (redundant clues are named on stderr; exit 1).
    #[arg(long)]
    minimal: bool,
    /// Worker threads (output stays in input order).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Only part K of N of the records (contiguous ranges in input order, for job arrays;
    /// `sudobench merge` joins the parts' outputs into one run's).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Puzzle files (plain or gzip; `-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

/// Writes one line per puzzle and tallies the counts.
struct VerifyObserver {
    out: Output,
    format: VerifyFormat,
    puzzles: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    unknown: u64,
    malformed: u64,
    /// Puzzles already written that came from a gzip member that then failed its check.
    suspect: u64,
    mismatches: u64,
    /// With `--minimal`: the backend that counts the smaller puzzles, and the failures.
    minimal: Option<Box<dyn sudobench::solver::Solver>>,
    not_minimal: u64,
}

impl Observer for VerifyObserver {
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        self.puzzles += 1;
        if let Some(mismatch) = mismatch {
            self.mismatches += 1;
            eprint!("{mismatch}");
        }
        let (count, solution) = match answers.first() {
            Some(Some(o)) => (o.count(), o.solution()),
            _ => (Count::Unknown, None),
        };
        // A solution is only "the" solution when it is unique.
        let solution = solution.filter(|_| count == Count::Exactly(1));
        if let (Some(solver), Count::Exactly(1)) = (self.minimal.as_mut(), count) {
            if let Some(message) = super::minimal::not_minimal(record, solver.as_mut()) {
                self.not_minimal += 1;
                eprintln!("error: {message}");
            }
        }
        match count {
            Count::Exactly(0) => self.none += 1,
            Count::Exactly(1) => self.unique += 1,
            Count::Exactly(_) => self.multiple += 1,
            Count::Unknown => self.unknown += 1,
        }
        let count = count.display(Limit::TWO);
        let puzzle = record.puzzle.to_string();
        let solution = solution.map(|s| s.to_string());
        let line = match self.format {
            VerifyFormat::Csv => csv_lines([vec![
                Some(puzzle.as_str()),
                Some(count.as_str()),
                solution.as_deref(),
            ]]),
            VerifyFormat::Json => {
                let row = VerifyRow {
                    source: record.source.to_string(),
                    line: record.line,
                    puzzle,
                    count,
                    solution,
                };
                json_line(&row) + "\n"
            }
        };
        self.out.write(&line);
    }

    fn parse_error(&mut self, error: &ParseError) {
        self.malformed += 1;
        self.suspect += error.kind.suspect_records();
        eprintln!("error: {error}");
    }
}

/// `sudobench verify`.
pub fn verify(args: &VerifyArgs) -> Result<bool> {
    let options = args.settings.options();
    let mut backends = vec![Backend::builtin(&args.backend, &options)?];
    if args.cross_check {
        // A backend of another kind than the first: SAT for a search, exact cover for SAT.
        let second = if args.backend == "sat" { "dlx" } else { "sat" };
        backends.push(Backend::builtin(second, &options)?);
    }
    let names: Vec<String> = backends.iter().map(|b| b.name().to_string()).collect();
    let config = Config {
        limit: Limit::TWO,
        threads: args.threads as usize,
        ..Config::default()
    };
    let runner = Runner::new(config, backends);
    let mut observer = VerifyObserver {
        out: Output::stdout(),
        format: args.format,
        puzzles: 0,
        unique: 0,
        multiple: 0,
        none: 0,
        unknown: 0,
        malformed: 0,
        suspect: 0,
        mismatches: 0,
        minimal: match args.minimal {
            true => Some(sudobench::backends::build(&args.backend, &options)?),
            false => None,
        },
        not_minimal: 0,
    };
    if args.format == VerifyFormat::Csv {
        observer.out.line("puzzle,count,solution");
    }
    let mut unreadable = 0u64;
    let mut window = super::shard::window(args.shard, &args.files)?;
    for file in &args.files {
        if let Err(e) = runner.run_path_part(file, window.as_mut(), &mut observer) {
            eprintln!("error: {e}");
            unreadable += 1;
        }
    }
    let o = &observer;
    eprintln!(
        "sudobench verify: {} puzzles: {} unique, {} multiple, {} no solution, {} unknown; \
         {} malformed, {} unreadable files, {} mismatches (backend {}){}",
        o.puzzles,
        o.unique,
        o.multiple,
        o.none,
        o.unknown,
        o.malformed,
        unreadable,
        o.mismatches,
        names.join(" cross-checked by "),
        match o.suspect {
            0 => String::new(),
            n => format!(
                "; {n} puzzles from a gzip member that failed its check: do not trust those"
            ),
        }
    );
    if args.minimal {
        eprintln!("sudobench verify: {} not minimal", o.not_minimal);
    }
    let fine = o.unique == o.puzzles
        && o.malformed == 0
        && unreadable == 0
        && o.mismatches == 0
        && o.not_minimal == 0;
    observer.out.finish()?;
    Ok(fine)
}
