//! `sudobench verify`: for puzzle collections, each puzzle's solution count (0, 1, 2+) and
//! solution, optionally confirmed by a second backend of a different kind.

use super::args::DEFAULT_BACKEND;
use super::output::Output;
use anyhow::Result;
use clap::{Args, ValueEnum};
use sudobench::format::{ParseError, Record};
use sudobench::report::{csv_lines, json_line, VerifyRow};
use sudobench::runner::shard::Shard;
use sudobench::runner::{Backend, Config, Mismatch, Observer, RunError, Runner};
use sudobench::solver::{Count, Limit, Outcome};

/// Output formats of `verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    /// `puzzle,count,solution` with a header line: the count and solution the judge
    /// accepts, the count `mismatch` when no answer stands (the problem is on stderr).
    Csv,
    /// One JSON object per puzzle: source, line, puzzle, count, solution, and mismatch (the
    /// judge's problems as one string, or null).
    Json,
}

/// Arguments of `sudobench verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Backend that counts [default: `bitmask` on 9x9 grids, `wide` on the other orders]
    #[arg(long, short)]
    backend: Option<String>,
    /// Confirm every count with a second backend of a different kind (`sat`, or `dlx` when
    /// the first is `sat`); disputes are settled as in `bench`.
    #[arg(long)]
    cross_check: bool,
    #[command(flatten)]
    settings: super::args::BackendSettings,
    /// Output format.
    #[arg(long, value_enum, default_value_t = VerifyFormat::Csv)]
    format: VerifyFormat,
    /// Also check that every unique puzzle is minimal: removing any one clue leaves two or
    /// more solutions (redundant clues are named on stderr; exit 1). Every smaller puzzle is
    /// judged like the puzzles themselves (cross-checked with --cross-check, an outside
    /// backend's counts checked by the referee); one whose count is not settled leaves the
    /// puzzle's minimality undecided (exit 1), which is not counted as "not minimal".
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
    /// Puzzles of a kind the backend does not solve (another order than 9×9).
    not_applicable: u64,
    /// The backend, to tell those apart.
    backend: Option<Backend>,
    /// Whether any puzzle was a grid of another order than 9×9 (which the default backend
    /// hands to `wide`).
    other_orders: bool,
    malformed: u64,
    /// Puzzles already written that came from a gzip member that then failed its check.
    suspect: u64,
    mismatches: u64,
    /// Whether `--minimal` was given.
    check_minimal: bool,
    /// With `--minimal`: the unique puzzle whose smaller puzzles are coming, and the tallies.
    minimal: Option<super::minimal::Pending>,
    not_minimal: u64,
    undecided: u64,
    /// Source and line of the last puzzle: records with the same are its smaller puzzles.
    last: Option<(std::sync::Arc<str>, u64)>,
}

impl VerifyObserver {
    /// A smaller puzzle sent by `--minimal` (same source and line as its puzzle, which the
    /// input adapter sends right before them).
    fn is_smaller(&self, record: &Record) -> bool {
        self.last
            .as_ref()
            .is_some_and(|(source, line)| *line == record.line && *source == record.source)
    }
}

impl Observer for VerifyObserver {
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        self.other_orders |= matches!(record.puzzle, sudobench::Puzzle::Order(_));
        if let Some(mismatch) = mismatch {
            self.mismatches += 1;
            eprint!("{mismatch}");
        }
        let applies = self
            .backend
            .as_ref()
            .is_none_or(|b| b.supports(&record.puzzle));
        let (count, solution) = match applies {
            true => accepted(answers, mismatch),
            false => (None, None),
        };
        if self.is_smaller(record) {
            if let Some(pending) = self.minimal.as_mut().filter(|p| p.is_smaller(record)) {
                pending.smaller(record, count);
                if let Some(verdict) = pending.verdict() {
                    match verdict {
                        super::minimal::Verdict::Minimal => {}
                        super::minimal::Verdict::NotMinimal(message) => {
                            self.not_minimal += 1;
                            eprintln!("error: {message}");
                        }
                        super::minimal::Verdict::Undecided(message) => {
                            self.undecided += 1;
                            eprintln!("error: {message}");
                        }
                    }
                    self.minimal = None;
                }
            }
            return;
        }
        self.puzzles += 1;
        // A solution is only "the" solution when it is unique.
        let solution = solution.filter(|_| count == Some(Count::Exactly(1)));
        self.last = Some((record.source.clone(), record.line));
        self.minimal = None;
        if let (true, Some(Count::Exactly(1))) = (self.check_minimal, count) {
            self.minimal = super::minimal::Pending::start(record);
            // A pencilmark puzzle has no clues to remove: its minimality stays undecided.
            self.undecided += u64::from(self.minimal.is_none());
        }
        match count {
            Some(Count::Exactly(0)) => self.none += 1,
            Some(Count::Exactly(1)) => self.unique += 1,
            Some(Count::Exactly(_) | Count::AtLeast(_)) => self.multiple += 1,
            None if !applies => self.not_applicable += 1,
            Some(Count::Unknown) | None => self.unknown += 1,
        }
        // What the judge accepts, `n/a` for a puzzle the backend does not solve, or
        // `mismatch` when no answer stands.
        let count = match count {
            Some(c) => c.display(),
            None if !applies => "n/a".to_string(),
            None => "mismatch".to_string(),
        };
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
                    mismatch: mismatch.map(|m| m.problems.join("; ")),
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

    fn idle(&mut self) {
        self.out.flush();
    }

    fn done(&self) -> bool {
        !self.out.is_open()
    }
}

/// The count and solution the judge accepts for a puzzle: the first decided answer of a
/// backend it did not blame (`Count::Unknown` when every answer is undecided), or `None` when
/// no answer stands (every decided one was blamed, or a dispute is open).
fn accepted<'a>(
    answers: &'a [Option<Outcome>],
    mismatch: Option<&Mismatch>,
) -> (Option<Count>, Option<&'a sudobench::Solution>) {
    let open = mismatch.is_some_and(|m| m.ruling.as_ref().is_some_and(|r| !r.settled));
    if open {
        return (None, None);
    }
    let blamed = |i: usize| {
        mismatch.is_some_and(|m| {
            m.answers
                .get(i)
                .is_some_and(|(name, _)| m.blamed.contains(name))
        })
    };
    let mut any_blamed = false;
    for (i, answer) in answers.iter().enumerate() {
        let Some(o) = answer else { continue };
        if blamed(i) {
            any_blamed = true;
            continue;
        }
        if o.count() != Count::Unknown {
            return (Some(o.count()), o.first_solution());
        }
    }
    // Every decided answer was blamed: a referee that settled it has the accepted count.
    let ruled = mismatch
        .and_then(|m| m.ruling.as_ref())
        .filter(|r| r.settled)
        .and_then(|r| match r.answer.split(' ').next() {
            Some("0") => Some(Count::Exactly(0)),
            Some("1") => Some(Count::Exactly(1)),
            Some("2+") => Some(Count::AtLeast(2)),
            _ => None,
        });
    match (any_blamed, ruled) {
        (true, Some(count)) => (Some(count), None),
        (true, None) => (None, None),
        (false, _) => (Some(Count::Unknown), None),
    }
}

/// `sudobench verify`.
pub fn verify(args: &VerifyArgs) -> Result<bool> {
    super::xc::refuse("verify", &args.files)?;
    let options = args.settings.options();
    let named = args.backend.as_deref();
    let mut backends = vec![super::by_order::backend(named, &options)?];
    if args.cross_check {
        // A backend of another kind than the first (see the registry).
        let second = sudobench::backends::cross_check_partner(named.unwrap_or(DEFAULT_BACKEND))?;
        backends.push(Backend::builtin(second.name, &options)?);
    }
    let partner: Vec<String> = backends[1..].iter().map(|b| b.name().to_string()).collect();
    let config = Config {
        limit: Limit::TWO,
        threads: args.threads as usize,
        referee_max_nodes: args.settings.referee_budget().0,
        trust_outside: args.settings.trust_outside,
        referee_time: args.settings.referee_budget().1,
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
        not_applicable: 0,
        backend: runner.backends().first().cloned(),
        other_orders: false,
        malformed: 0,
        suspect: 0,
        mismatches: 0,
        check_minimal: args.minimal,
        minimal: None,
        not_minimal: 0,
        undecided: 0,
        last: None,
    };
    if args.format == VerifyFormat::Csv {
        observer.out.line("puzzle,count,solution");
    }
    let mut unreadable = 0u64;
    let mut window = super::shard::window(args.shard, &args.files)?;
    for file in &args.files {
        // With --minimal each unique puzzle's smaller puzzles (one clue removed) are sent
        // through the same runner, right after it: judged and cross-checked like every
        // puzzle, on the worker threads.
        let run = match (args.minimal, window.as_mut()) {
            (false, window) => runner.run_path_part(file, window, &mut observer),
            (true, Some(_)) => anyhow::bail!("--minimal and --shard do not go together"),
            (true, None) => match sudobench::format::Reader::open(file) {
                Ok(reader) => {
                    let mut source = super::minimal::WithSmaller::new(reader);
                    runner.run_source(file, &mut source, None, &mut observer)
                }
                Err(e) => Err(e.into()),
            },
        };
        match run {
            // A backend that cannot be built (a library that does not load) is a usage
            // error, whatever the file.
            Err(RunError::Build(e)) => return Err(e.into()),
            Err(e) => {
                eprintln!("error: {e}");
                unreadable += 1;
            }
            Ok(_) => {}
        }
        if observer.done() {
            break;
        }
    }
    let o = &observer;
    eprintln!(
        "sudobench verify: {} puzzles: {} unique, {} multiple, {} no solution, {} unknown{}; \
         {} malformed, {} unreadable files, {} (backend {}){}",
        o.puzzles,
        o.unique,
        o.multiple,
        o.none,
        o.unknown,
        match o.not_applicable {
            0 => String::new(),
            n => format!(", {n} n/a (of a kind the backend does not solve)"),
        },
        o.malformed,
        unreadable,
        super::output::plural(o.mismatches, "mismatch", "mismatches"),
        std::iter::once(super::by_order::label(named, o.other_orders))
            .chain(partner)
            .collect::<Vec<_>>()
            .join(" cross-checked by "),
        match o.suspect {
            0 => String::new(),
            n => format!(
                "; {n} puzzles from a gzip member that failed its check: do not trust those"
            ),
        }
    );
    if args.minimal {
        let undecided = match o.undecided {
            0 => String::new(),
            n => format!(", {n} minimality undecided"),
        };
        eprintln!("sudobench verify: {} not minimal{undecided}", o.not_minimal);
    }
    let fine = o.unique == o.puzzles
        && o.malformed == 0
        && unreadable == 0
        && o.mismatches == 0
        && o.not_minimal == 0
        && o.undecided == 0;
    observer.out.finish()?;
    Ok(fine)
}
