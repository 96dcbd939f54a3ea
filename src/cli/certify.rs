//! `sudobench certify`: every puzzle's count with a certificate produced and checked on the
//! pipeline's worker threads (see the library's `certify` module); one row per puzzle, a
//! summary per file; `--keep` writes the certificates, `--resume` skips what a previous run's
//! output shows certified.

use super::output::Output;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use sudobench::certify::files::ProofDir;
use sudobench::certify::{write_cnf, Certified, Certifier, Count, DEFAULT_MAX_NODES};
use sudobench::format::{Item, Reader, Record};
use sudobench::report::{json_line, CertifyRow};
use sudobench::runner::pipeline::map_ordered;

/// Output formats of `certify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CertifyFormat {
    /// Aligned columns per puzzle, then each file's summary.
    Table,
    /// `source,line,count,certified,bytes,nodes,produce_us,check_us,reason` with a header.
    Csv,
    /// One JSON object per puzzle, with the CSV's fields.
    Json,
}

/// Arguments of `sudobench certify`.
#[derive(Args, Debug)]
pub struct CertifyArgs {
    /// Worker threads (the rows are the same for any number, times aside).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Write every certificate into this new or empty directory: `NAME-LINE.cnf` and
    /// `NAME-LINE.drat` for a count of 0 or 1 (check with `rate`), `NAME-LINE.sols` for 2+.
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Output format (per puzzle; the summaries of CSV and JSON runs go to standard error).
    #[arg(long, value_enum, default_value_t = CertifyFormat::Table)]
    format: CertifyFormat,
    /// The CSV or JSON output of an earlier run over the same files (possibly cut short):
    /// puzzles it shows certified are skipped.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Give up on a puzzle after this many search nodes (it is then not certified).
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Give up on a puzzle after this many seconds of search (it is then not certified; the
    /// check of a certificate produced in time is not cut short).
    #[arg(long, value_parser = super::args::parse_seconds)]
    max_seconds: Option<f64>,
    /// Puzzle files (plain or gzip; `-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

/// One file's totals.
#[derive(Default)]
struct Summary {
    puzzles: u64,
    certified: u64,
    counts: [u64; 3],
    failed: u64,
    malformed: u64,
    skipped: u64,
    bytes: u64,
    produce: Duration,
    check: Duration,
}

impl Summary {
    fn add(&mut self, c: &Certified, ok: bool) {
        self.puzzles += 1;
        if ok {
            self.certified += 1;
            self.bytes += c.bytes as u64;
            if let Some(count) = c.count {
                self.counts[count as usize] += 1;
            }
        } else {
            self.failed += 1;
        }
        self.produce += c.produce;
        self.check += c.check;
    }

    fn text(&self, source: &str, wall: Duration) -> String {
        let (p, k) = (self.produce.as_secs_f64(), self.check.as_secs_f64());
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!(", {n} skipped (certified before)"),
        };
        let malformed = match self.malformed {
            0 => String::new(),
            n => format!(", {n} malformed"),
        };
        format!(
            "{source}: {} puzzles, {} certified (0: {}, 1: {}, 2+: {}), {} not certified{malformed}{skipped}\n\
             {source}: {} bytes of certificates, {:.0} per certificate; producing {p:.3} s, \
             checking {k:.3} s ({:.0}% producing); {:.3} s wall, {:.0} certificates/s\n",
            self.puzzles,
            self.certified,
            self.counts[0],
            self.counts[1],
            self.counts[2],
            self.failed,
            self.bytes,
            self.bytes as f64 / self.certified.max(1) as f64,
            100.0 * p / (p + k).max(f64::MIN_POSITIVE),
            wall.as_secs_f64(),
            self.certified as f64 / wall.as_secs_f64().max(1e-9),
        )
    }
}

/// What a worker returns for one record: the certification, and why keeping it failed.
struct Done {
    certified: Certified,
    kept: Result<(), String>,
}

/// Writes a certified puzzle's certificate into the kept directory.
fn keep(dir: &ProofDir, record: &Record, c: &Certified, proof: &[u8]) -> Result<(), String> {
    let stem = dir.stem(record);
    match c.count {
        Some(Count::TwoPlus) => {
            let text: String = c.solutions.iter().map(|s| format!("{s}\n")).collect();
            dir.write(&format!("{stem}.sols"), text.as_bytes())?;
        }
        Some(_) => {
            let mut cnf = Vec::new();
            write_cnf(&mut cnf, &record.puzzle, c.solutions.first()).map_err(|e| e.to_string())?;
            dir.write(&format!("{stem}.cnf"), &cnf)?;
            dir.write(&format!("{stem}.drat"), proof)?;
        }
        None => {}
    }
    Ok(())
}

/// The `(source, line)` of every puzzle an earlier CSV or JSON output shows certified. A
/// last line cut short by an interruption, or any line that does not read, is passed over.
fn certified_before(path: &PathBuf) -> Result<HashSet<(String, u64)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading --resume {}", path.display()))?;
    let rows: Vec<Resumed> = match text.lines().next() {
        None => Vec::new(),
        // One reader over the whole output: its header names the fields, and a row cut short
        // has fewer fields than the header (an error for that row alone).
        Some(first) if first.starts_with("source,line,count,certified,") => {
            csv::Reader::from_reader(text.as_bytes())
                .deserialize()
                .filter_map(Result::ok)
                .collect()
        }
        Some(first) if first.starts_with('{') => text
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect(),
        Some(_) => bail!(
            "--resume {}: not the CSV or JSON output of certify",
            path.display()
        ),
    };
    Ok(rows
        .into_iter()
        .filter(|r| r.certified)
        .map(|r| (r.source, r.line))
        .collect())
}

/// The fields of an earlier row that `--resume` needs. A row cut short by an interruption
/// does not read (JSON: unbalanced; CSV: fewer fields than the header's nine).
#[derive(serde::Deserialize)]
struct Resumed {
    source: String,
    line: u64,
    #[serde(deserialize_with = "yes_or_true")]
    certified: bool,
}

/// `certified` as CSV (`yes`/`no`) or JSON (`true`/`false`) writes it.
fn yes_or_true<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Text(String),
    }
    match <Flag as serde::Deserialize>::deserialize(d)? {
        Flag::Bool(b) => Ok(b),
        Flag::Text(t) => Ok(t == "yes"),
    }
}

/// The row of one puzzle.
fn row(format: CertifyFormat, record: &Record, c: &Certified, ok: bool, reason: &str) -> String {
    let row = CertifyRow::new(record, c, ok, reason);
    match format {
        CertifyFormat::Table => format!(
            "{:<40} {:>7} {:>9} {:>10} {:>10} {:>10}  {}",
            format!("{}:{}", row.source, row.line),
            row.count,
            if ok { "yes" } else { "no" },
            row.bytes,
            row.produce_us,
            row.check_us,
            row.reason
        )
        .trim_end()
        .to_string(),
        CertifyFormat::Csv => row.csv(),
        CertifyFormat::Json => json_line(&row),
    }
}

/// `sudobench certify`.
pub fn certify(args: &CertifyArgs) -> Result<bool> {
    super::xc::refuse("certify", &args.files)?;
    let before = match &args.resume {
        Some(path) => certified_before(path)?,
        None => HashSet::new(),
    };
    let dir = match &args.keep {
        Some(d) => Some(ProofDir::new(d, &args.files)?),
        None => None,
    };
    let mut out = Output::stdout();
    match args.format {
        CertifyFormat::Csv => out.line(CertifyRow::CSV_HEADER),
        CertifyFormat::Table => out.line(&format!(
            "{:<40} {:>7} {:>9} {:>10} {:>10} {:>10}  reason",
            "puzzle", "count", "certified", "bytes", "produce_us", "check_us"
        )),
        CertifyFormat::Json => {}
    }
    let mut all_fine = true;
    for file in &args.files {
        let reader = match Reader::open(file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                all_fine = false;
                continue;
            }
        };
        let start = Instant::now();
        let mut summary = Summary::default();
        let skipped = &mut summary.skipped;
        let items = reader.filter(|item| match item {
            Ok(r) if before.contains(&(r.source.to_string(), r.line)) => {
                *skipped += 1;
                false
            }
            _ => true,
        });
        let mut per_puzzle = Summary::default();
        let limit = args.max_seconds.map(Duration::from_secs_f64);
        map_ordered(
            items,
            args.threads as usize,
            64,
            || Certifier::new(args.max_nodes),
            |certifier, item: &Item| {
                let record = item.as_ref().ok()?;
                let certified =
                    sudobench::deadline::within(limit, || certifier.certify(&record.puzzle));
                let kept = match (&dir, certified.ok()) {
                    (Some(dir), true) => keep(dir, record, &certified, certifier.proof()),
                    _ => Ok(()),
                };
                Some(Done { certified, kept })
            },
            |item: Item, done: Option<Done>| {
                let (record, done) = match (item, done) {
                    (Ok(record), Some(done)) => (record, done),
                    (Err(e), _) => {
                        per_puzzle.malformed += 1;
                        eprintln!("error: {e}");
                        return true;
                    }
                    (Ok(_), None) => return true,
                };
                let c = &done.certified;
                let reason = match (&c.verdict, &done.kept) {
                    (Err(why), _) => why.clone(),
                    (Ok(()), Err(why)) => format!("keeping: {why}"),
                    (Ok(()), Ok(())) => String::new(),
                };
                let ok = c.ok() && done.kept.is_ok();
                per_puzzle.add(c, ok);
                out.line(&row(args.format, &record, c, ok, &reason));
                out.is_open()
            },
        );
        per_puzzle.skipped = summary.skipped;
        let summary = per_puzzle;
        all_fine &= summary.failed == 0 && summary.malformed == 0;
        let text = summary.text(file, start.elapsed());
        match args.format {
            CertifyFormat::Table => out.write(&text),
            _ => eprint!("{text}"),
        }
        if !out.is_open() {
            break;
        }
    }
    out.finish()?;
    Ok(all_fine)
}
