//! `sudobench grade`: per puzzle the hardest technique of the logic ladder it needs, bitmask's
//! mean guesses over random symmetries and the clue count; per file a summary.

use super::output::Output;
use anyhow::Result;
use clap::{Args, ValueEnum};
use sudobench::format::{Item, Reader};
use sudobench::grade::{Grade, Grader, Summary, Technique};
use sudobench::report::merge::GradeSummaryRow;
use sudobench::report::{csv_lines, json_line, Fixed, GradeRow};
use sudobench::runner::pipeline::map_source;
use sudobench::runner::shard::{Shard, Window};

/// Output formats of `grade`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GradeFormat {
    /// Aligned columns per puzzle, then each file's summary.
    Table,
    /// `source,line,puzzle,clues,technique,guesses,solutions,undecided` with a header.
    Csv,
    /// One JSON object per puzzle.
    Json,
}

/// Arguments of `sudobench grade`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Output format (with --summary: one record per file instead of per puzzle).
    #[arg(long, value_enum, default_value_t = GradeFormat::Table)]
    format: GradeFormat,
    /// Random symmetries bitmask's guesses are averaged over.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10000))]
    symmetries: u32,
    /// Seed of the symmetries (mixed with each puzzle's text).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Branchings each search (one per symmetry) may make; one that runs out counts the
    /// guesses it made, so the puzzle's figure is then a lower bound (`+` in the table).
    #[arg(long, default_value_t = sudobench::grade::DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// Seconds each search may take, as well (a puzzle's figure is then a lower bound if one
    /// runs out, as with --max-nodes, and the output depends on the machine).
    #[arg(long, value_name = "SECONDS", value_parser = super::args::parse_seconds)]
    max_seconds: Option<f64>,
    /// Worker threads (the output is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Only the per-file summaries.
    #[arg(long)]
    summary: bool,
    /// Only part K of N of the records (contiguous ranges in input order, for job arrays;
    /// `sudobench merge` joins the parts' JSON outputs into one run's).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Puzzle files (plain or gzip; `-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

fn solutions(n: Option<u32>) -> String {
    match n {
        Some(n) if n >= 2 => "2+".to_string(),
        Some(n) => n.to_string(),
        None => "unknown".to_string(),
    }
}

/// The table form of a summary.
fn summary_table(source: &str, s: &Summary, symmetries: u32) -> String {
    let mut text = format!(
        "{source}: {} puzzles, {:.2} clues and {:.2} guesses per puzzle ({symmetries} symmetries), {} without exactly one solution\n",
        s.puzzles,
        s.mean_clues(),
        s.mean_guesses(),
        s.not_unique
    );
    if s.undecided > 0 {
        // Before the line break: the summary's first line says it.
        text.pop();
        text.push_str(&format!(
            "; {} undecided (a search ran out of its budget: their guesses, and the mean, are lower bounds)\n",
            s.undecided
        ));
    }
    for t in Technique::ALL {
        let n = s.with(t);
        if n > 0 {
            text.push_str(&format!(
                "  {:<18} {:>9} {:>6.1}%\n",
                t.name(),
                n,
                100.0 * n as f64 / s.puzzles.max(1) as f64
            ));
        }
    }
    text
}

fn summary_csv_header() -> String {
    let mut names = vec![
        "source",
        "puzzles",
        "mean_clues",
        "mean_guesses",
        "symmetries",
        "not_unique",
    ];
    names.extend(Technique::ALL.iter().map(|t| t.name()));
    names.push("undecided");
    csv_line(names)
}

/// One CSV line (no line break), quoted where needed.
fn csv_line<'a>(fields: impl IntoIterator<Item = &'a str>) -> String {
    let line = csv_lines([fields.into_iter().map(Some).collect()]);
    line.trim_end_matches('\n').to_string()
}

fn summary_csv(source: &str, s: &Summary, symmetries: u32) -> String {
    let row = GradeSummaryRow::new(source, s, symmetries);
    let mut fields = vec![
        source.to_string(),
        s.puzzles.to_string(),
        row.mean_clues.to_string(),
        row.mean_guesses.to_string(),
        symmetries.to_string(),
        s.not_unique.to_string(),
    ];
    fields.extend(Technique::ALL.iter().map(|&t| s.with(t).to_string()));
    fields.push(s.undecided.to_string());
    csv_line(fields.iter().map(String::as_str))
}

/// The grader of `args`.
fn grader(args: &GradeArgs) -> Result<Grader, sudobench::solver::BuildError> {
    Ok(Grader::new(args.symmetries, args.seed)?
        .with_max_nodes(args.max_nodes)
        .with_max_time(args.max_seconds.map(std::time::Duration::from_secs_f64)))
}

/// `sudobench grade`.
pub fn grade(args: &GradeArgs) -> Result<bool> {
    super::xc::refuse("grade", &args.files)?;
    // A grader that cannot be built is a usage error before any output.
    grader(args)?;
    let mut out = Output::stdout();
    match (args.format, args.summary) {
        (GradeFormat::Csv, false) => {
            out.line("source,line,puzzle,clues,technique,guesses,solutions,undecided");
        }
        (GradeFormat::Csv, true) => {
            out.line(&summary_csv_header());
        }
        (GradeFormat::Table, false) => {
            out.line(&format!(
                "{:<40} {:>5} {:<18} {:>10} {:>7}  puzzle",
                "source:line", "clues", "technique", "guesses", "sols"
            ));
        }
        _ => {}
    }
    let (mut malformed, mut unreadable, mut not_unique) = (0u64, 0u64, 0u64);
    // Without a shard, a window over everything.
    let mut window = super::shard::window(args.shard, &args.files)?
        .unwrap_or_else(|| Window::new(Shard::WHOLE, u64::MAX));
    for file in &args.files {
        let reader = match Reader::open(file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                unreadable += 1;
                continue;
            }
        };
        let mut summary = Summary::default();
        let mut part = window.part(reader);
        // The output is shared by the emitter and the flush before the pipeline waits for
        // input, so that a puzzle typed on standard input is answered at once.
        let shared = std::cell::RefCell::new(&mut out);
        map_source(
            &mut part,
            args.threads as usize,
            64,
            || grader(args).ok(),
            |grader, item: &Item| match (item, grader) {
                (Ok(record), Some(g)) => g.grade(&record.puzzle),
                _ => None,
            },
            |item: Item, grade: Option<Grade>| {
                let (record, g) = match (item, grade) {
                    (Ok(record), Some(g)) => (record, g),
                    (Err(e), _) => {
                        malformed += 1;
                        eprintln!("error: {e}");
                        return true;
                    }
                    (Ok(record), None) => {
                        malformed += 1;
                        eprintln!(
                            "error: {}:{}: could not grade: grade takes 9x9 puzzles",
                            record.source, record.line
                        );
                        return true;
                    }
                };
                summary.add(&g);
                if args.summary {
                    return true;
                }
                let line = match args.format {
                    GradeFormat::Table => format!(
                        "{:<40} {:>5} {:<18} {:>10} {:>7}  {}",
                        format!("{}:{}", record.source, record.line),
                        g.clues,
                        g.technique.name(),
                        match g.undecided {
                            0 => format!("{:.2}", g.guesses),
                            _ => format!("{:.2}+", g.guesses),
                        },
                        solutions(g.solutions),
                        record.puzzle
                    ),
                    GradeFormat::Csv => csv_line([
                        &*record.source,
                        &record.line.to_string(),
                        &record.puzzle.to_string(),
                        &g.clues.to_string(),
                        g.technique.name(),
                        &Fixed::<3>(g.guesses).to_string(),
                        &solutions(g.solutions),
                        &g.undecided.to_string(),
                    ]),
                    GradeFormat::Json => json_line(&GradeRow::new(&record, &g)),
                };
                let mut out = shared.borrow_mut();
                out.line(&line);
                out.is_open()
            },
            || shared.borrow_mut().flush(),
        );
        not_unique += summary.not_unique;
        let table = summary_table(file, &summary, args.symmetries);
        match (args.format, args.summary) {
            (GradeFormat::Table, _) => {
                out.line(table.trim_end());
            }
            (GradeFormat::Csv, true) => {
                out.line(&summary_csv(file, &summary, args.symmetries));
            }
            (GradeFormat::Json, true) => {
                out.line(&GradeSummaryRow::new(file, &summary, args.symmetries).to_json());
            }
            // Per-puzzle CSV or JSON: stdout stays one kind of record; the summary goes to
            // stderr.
            _ => eprint!("{table}"),
        }
        if !out.is_open() {
            break;
        }
    }
    out.finish()?;
    if malformed + unreadable > 0 {
        eprintln!("sudobench grade: {malformed} malformed records, {unreadable} unreadable files");
    }
    Ok(malformed == 0 && unreadable == 0 && not_unique == 0)
}
