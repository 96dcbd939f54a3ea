//! `sudobench verify`: for puzzle collections, each puzzle's solution count (0, 1, 2+) and
//! solution, optionally confirmed by a second backend of a different kind.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use std::io::{self, BufWriter, Write};
use sudobench::format::{ParseError, Record};
use sudobench::report::json_string;
use sudobench::runner::{Backend, Config, Mismatch, Observer, Runner};
use sudobench::solver::{builtin_names, Count, Options, Outcome};

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
    /// Backend that counts (default: the first of bitmask, dlx, basic that is registered).
    #[arg(long, short)]
    backend: Option<String>,
    /// Confirm every count with a second backend of a different kind (sat or dlx when
    /// registered, else basic).
    #[arg(long)]
    cross_check: bool,
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
    /// Puzzle files (plain or gzip; `-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

fn first_registered(preferences: &[&str], except: Option<&str>) -> Option<String> {
    preferences
        .iter()
        .find(|p| builtin_names().any(|n| n == **p) && Some(**p) != except)
        .map(|p| p.to_string())
}

/// Writes one line per puzzle and tallies the counts.
struct VerifyObserver<W: Write> {
    out: W,
    format: VerifyFormat,
    broken: bool,
    puzzles: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    unknown: u64,
    malformed: u64,
    mismatches: u64,
    error: Option<io::Error>,
    /// With `--minimal`: the backend that counts the smaller puzzles, and the failures.
    minimal: Option<Box<dyn sudobench::solver::Solver>>,
    not_minimal: u64,
}

impl<W: Write> VerifyObserver<W> {
    fn write(&mut self, line: &str) {
        if self.broken || self.error.is_some() {
            return;
        }
        if let Err(e) = self.out.write_all(line.as_bytes()) {
            if e.kind() == io::ErrorKind::BrokenPipe {
                self.broken = true;
            } else {
                self.error = Some(e);
            }
        }
    }
}

impl<W: Write> Observer for VerifyObserver<W> {
    fn puzzle(&mut self, record: &Record, answers: &[Option<Outcome>]) {
        self.puzzles += 1;
        let (count, solution) = match answers.first() {
            Some(Some(o)) => (o.count, o.solution),
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
        let count = count.display(2);
        let line = match self.format {
            VerifyFormat::Csv => format!(
                "{},{count},{}\n",
                record.puzzle,
                solution.map(|s| s.to_string()).unwrap_or_default()
            ),
            VerifyFormat::Json => format!(
                "{{\"source\":{},\"line\":{},\"puzzle\":\"{}\",\"count\":\"{count}\",\"solution\":{}}}\n",
                json_string(&record.source),
                record.line,
                record.puzzle,
                solution
                    .map(|s| format!("\"{s}\""))
                    .unwrap_or_else(|| "null".to_string())
            ),
        };
        self.write(&line);
    }

    fn parse_error(&mut self, error: &ParseError) {
        self.malformed += 1;
        eprintln!("error: {error}");
    }

    fn mismatch(&mut self, mismatch: &Mismatch) {
        self.mismatches += 1;
        eprint!("{mismatch}");
    }
}

/// `sudobench verify`.
pub fn verify(args: &VerifyArgs) -> Result<bool> {
    let primary = match &args.backend {
        Some(b) => b.clone(),
        None => match first_registered(&["bitmask", "dlx", "basic"], None) {
            Some(b) => b,
            None => bail!("no backend registered"),
        },
    };
    let options = Options::default();
    let mut backends = vec![Backend::builtin(&primary, &options)?];
    if args.cross_check {
        let second = first_registered(&["sat", "dlx", "bitmask", "basic"], Some(&primary))
            .unwrap_or_else(|| "basic".to_string());
        if second == primary {
            eprintln!(
                "sudobench: note: no backend of another kind is registered; cross-checking \
                 with a second {second} instance"
            );
        }
        backends.push(Backend::builtin(&second, &options)?);
    }
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    let config = Config {
        limit: 2,
        threads: args.threads as usize,
        ..Config::default()
    };
    let runner = Runner::new(config, backends);
    let stdout = io::stdout();
    let mut observer = VerifyObserver {
        out: BufWriter::new(stdout.lock()),
        format: args.format,
        broken: false,
        puzzles: 0,
        unique: 0,
        multiple: 0,
        none: 0,
        unknown: 0,
        malformed: 0,
        mismatches: 0,
        error: None,
        minimal: match args.minimal {
            true => Some(sudobench::solver::build(&primary, &options)?),
            false => None,
        },
        not_minimal: 0,
    };
    if args.format == VerifyFormat::Csv {
        observer.write("puzzle,count,solution\n");
    }
    let mut unreadable = 0u64;
    for file in &args.files {
        if let Err(e) = runner.run_path(file, &mut observer) {
            eprintln!("error: {e}");
            unreadable += 1;
        }
    }
    if let Err(e) = observer.out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
    }
    if let Some(e) = observer.error.take() {
        return Err(e.into());
    }
    let o = &observer;
    eprintln!(
        "sudobench verify: {} puzzles: {} unique, {} multiple, {} no solution, {} unknown; \
         {} malformed, {} unreadable files, {} mismatches (backend {})",
        o.puzzles,
        o.unique,
        o.multiple,
        o.none,
        o.unknown,
        o.malformed,
        unreadable,
        o.mismatches,
        names.join(" cross-checked by ")
    );
    if args.minimal {
        eprintln!("sudobench verify: {} not minimal", o.not_minimal);
    }
    Ok(o.unique == o.puzzles
        && o.malformed == 0
        && unreadable == 0
        && o.mismatches == 0
        && o.not_minimal == 0)
}
