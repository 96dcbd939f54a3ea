//! The pieces of a distributed run (`sudobench.distributed`): the coordinator reads records
//! with [`records`], each worker runs a chunk of them through the library's runner and judge
//! with [`run_chunk`] (or makes a range of puzzles with [`generate_chunk`]) and answers with
//! the CLI's output for that chunk, and the coordinator joins the chunks' outputs with
//! [`merge`], the same merge as `sudobench merge`. Chunks are contiguous runs of records in
//! input order, so the joined output is the CLI's for the whole input.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use sudobench::format::{Item, Reader, Record};
use sudobench::generate::{ClueSymmetry, Config as GenConfig, Generator, Hardness};
use sudobench::grade::{Grader, Summary};
use sudobench::report::merge::{GradeSummaryRow, Merger};
use sudobench::report::{json_line, json_lines, CertifyRow, GradeRow, VerifyRow};
use sudobench::runner::{Backend, Config, Mismatch, Observer, Runner, ORDER_LOOKS_AT};
use sudobench::solver::{Count, Limit, Options, Outcome};
use sudobench::{Grid, Puzzle};

/// One item of a puzzle file: `(line, puzzle, expected, error)`: a record has its puzzle (81
/// or 729 characters, or another order's line form) and the file's expected solution or
/// `None`; a malformed record has only its error, as the CLI prints it (`FILE:LINE: what`).
type ItemTuple = (u64, Option<String>, Option<String>, Option<String>);

/// The backends `bench` runs on a set when none is named, as the CLI's: those of the order of
/// the first well-formed record among the set's first [`ORDER_LOOKS_AT`] (`first`: the items'
/// puzzles as [`records`] gives them, `None` for a malformed one; any beyond are not looked at).
#[pyfunction]
pub fn bench_defaults(first: Vec<Option<String>>) -> Vec<&'static str> {
    let other_orders = first
        .iter()
        .take(ORDER_LOOKS_AT)
        .flatten()
        .next()
        .is_some_and(|p| !matches!(p.len(), 81 | 729));
    sudobench::runner::bench_defaults(other_orders)
}

/// Every item of a puzzle file, in order, malformed records included.
#[pyfunction]
pub fn records(py: Python<'_>, path: PathBuf) -> PyResult<Vec<ItemTuple>> {
    let path = path
        .to_str()
        .ok_or_else(|| PyValueError::new_err(format!("path {path:?} is not valid UTF-8")))?
        .to_string();
    py.detach(|| {
        let reader = Reader::open(&path).map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(reader
            .map(|item| match item {
                Ok(r) => (
                    r.line,
                    Some(r.puzzle.to_line()),
                    r.expected.map(|g| g.to_line()),
                    None,
                ),
                Err(e) => (e.line, None, None, Some(e.to_string())),
            })
            .collect())
    })
}

/// A chunk's items back as records (`Err`: the malformed record's message).
fn items(source: &str, chunk: Vec<ItemTuple>) -> PyResult<Vec<Result<Record, String>>> {
    let source: Arc<str> = Arc::from(source);
    chunk
        .into_iter()
        .map(|(line, puzzle, expected, error)| {
            let Some(puzzle) = puzzle else {
                return Ok(Err(
                    error.unwrap_or_else(|| format!("{source}:{line}: malformed"))
                ));
            };
            let bad = |e: String| PyValueError::new_err(format!("{source}:{line}: {e}"));
            // As `records` wrote them: 81 or 729 characters for 9×9, the order's line form
            // (characters, or numbers from 36×36 on) for the other orders.
            let grid = |text: &str| sudobench::order::format::parse_line(text);
            let puzzle = match puzzle.len() {
                729 => sudobench::Candidates::from_bytes(puzzle.as_bytes())
                    .map(Puzzle::Candidates)
                    .map_err(|e| bad(e.to_string()))?,
                81 => Grid::from_bytes(puzzle.as_bytes())
                    .map(Puzzle::Grid)
                    .map_err(|e| bad(e.to_string()))?,
                _ => Puzzle::from_order_grid(grid(&puzzle).map_err(|e| bad(e.to_string()))?),
            };
            let expected = expected
                .map(|e| {
                    grid(&e)
                        .map(sudobench::Solution::from_order_grid)
                        .map_err(|e| bad(e.to_string()))
                })
                .transpose()?;
            Ok(Ok(Record {
                source: source.clone(),
                line,
                puzzle,
                expected,
                meta: String::new(),
            }))
        })
        .collect()
}

/// What a chunk's run writes: the CLI's standard output for it, its standard error, and the
/// sums to add up (grade's per-file summary).
struct Lines {
    command: String,
    out: String,
    err: String,
    fault: Option<String>,
}

impl Observer for Lines {
    fn puzzle(&mut self, record: &Record, answers: &[Option<Outcome>], m: Option<&Mismatch>) {
        let place = format!("{}:{}", record.source, record.line);
        let first = answers.first().and_then(|a| a.as_ref());
        match self.command.as_str() {
            "count" => {
                let line = match (m, first) {
                    (Some(m), _) => format!("error: {place}: {}", m.problems.join("; ")),
                    (None, Some(o)) => match (o.count(), &self.fault) {
                        (Count::Unknown, Some(why)) => format!("error: {place}: {why}"),
                        (count, _) => count.display(),
                    },
                    (None, None) => format!("error: {place}: no answer"),
                };
                self.out.push_str(&line);
                self.out.push('\n');
            }
            "verify" => {
                if let Some(m) = m {
                    self.err.push_str(&m.to_string());
                }
                let count = first.map_or(Count::Unknown, |o| o.count());
                let solution = first
                    .and_then(|o| o.solution())
                    .filter(|_| count == Count::Exactly(1));
                let row = VerifyRow {
                    source: record.source.to_string(),
                    line: record.line,
                    puzzle: record.puzzle.to_string(),
                    count: count.display(),
                    solution: solution.map(|s| s.to_string()),
                    mismatch: m.map(|m| m.problems.join("; ")),
                };
                self.out.push_str(&json_line(&row));
                self.out.push('\n');
            }
            _ => {
                if let Some(m) = m {
                    self.err.push_str(&m.to_string());
                }
            }
        }
    }

    fn fault(&mut self, backend: &str, why: &str) {
        self.fault = Some(format!("backend {backend} failed: {why}"));
    }
}

/// Runs one chunk of records of `source` and returns `(stdout, stderr, sums)`: what the
/// CLI's `command` (`count`, `verify` or `bench` as JSON lines, `grade` as JSON lines) writes
/// for these records, and for `grade` the chunk's summary record (for bench the rows are the
/// sums).
#[pyfunction]
#[pyo3(signature = (command, source, chunk, backends, limit = 2, symmetries = 16, seed = 1, max_nodes = None, max_seconds = None))]
#[allow(clippy::too_many_arguments)]
pub fn run_chunk(
    py: Python<'_>,
    command: &str,
    source: &str,
    chunk: Vec<ItemTuple>,
    backends: Vec<Option<String>>,
    limit: u32,
    symmetries: u32,
    seed: u64,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(String, String, String)> {
    let limit = Limit::new(limit).ok_or_else(|| PyValueError::new_err("limit must be >= 1"))?;
    let items = items(source, chunk)?;
    if command == "grade" {
        let mut grader = Grader::new(symmetries, seed)
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .with_max_nodes(max_nodes.unwrap_or(sudobench::grade::DEFAULT_MAX_NODES))
            .with_max_time(crate::max_time_arg(max_seconds)?);
        return Ok(py.detach(move || {
            let (mut out, mut err) = (String::new(), String::new());
            let mut summary = Summary::default();
            for item in &items {
                match item {
                    Ok(record) => {
                        let Some(g) = grader.grade(&record.puzzle) else {
                            err.push_str(&format!(
                                "error: {}:{}: could not grade: grade takes 9x9 puzzles\n",
                                record.source, record.line
                            ));
                            continue;
                        };
                        summary.add(&g);
                        out.push_str(&json_line(&GradeRow::new(record, &g)));
                        out.push('\n');
                    }
                    Err(e) => {
                        err.push_str(&format!("error: {e}\n"));
                    }
                }
            }
            let sums = GradeSummaryRow::new(source, &summary, symmetries).to_json();
            (out, err, sums)
        }));
    }
    if command == "certify" {
        let max_nodes = max_nodes.unwrap_or(sudobench::certify::DEFAULT_MAX_NODES);
        let max_time = crate::max_time_arg(max_seconds)?;
        return Ok(py.detach(move || {
            let (mut out, mut err) = (String::new(), String::new());
            let mut certifier = sudobench::certify::Certifier::new(max_nodes);
            for item in &items {
                match item {
                    Ok(record) => {
                        let c = sudobench::deadline::within(max_time, || {
                            certifier.certify(&record.puzzle)
                        });
                        let reason = c.verdict.clone().err().unwrap_or_default();
                        out.push_str(&json_line(&CertifyRow::new(record, &c, c.ok(), &reason)));
                        out.push('\n');
                    }
                    Err(e) => err.push_str(&format!("error: {e}\n")),
                }
            }
            (out, err, String::new())
        }));
    }
    if !matches!(command, "count" | "verify" | "bench") {
        return Err(PyValueError::new_err(format!(
            "unknown command {command:?}"
        )));
    }
    let options = Options {
        max_nodes,
        max_time: crate::max_time_arg(max_seconds)?,
        ..Options::default()
    };
    // `None`: the default, by order (`bitmask` on 9×9, `wide` on the others), as the CLI's.
    let backends = backends
        .iter()
        .map(|name| {
            match name {
                Some(name) => Backend::builtin(name, &options),
                None => Backend::by_order(&options),
            }
            .map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let config = Config {
        limit,
        threads: 1,
        ..Config::default()
    };
    let runner = Runner::new(config.clone(), backends);
    let source = source.to_string();
    py.detach(move || {
        let mut lines = Lines {
            command: command.to_string(),
            out: String::new(),
            err: String::new(),
            fault: None,
        };
        // Malformed records keep their place: the records between them run as one stretch.
        let mut parse_errors = 0u64;
        let mut sets = Vec::new();
        let mut stretch = Vec::new();
        let mut flush = |stretch: &mut Vec<Record>, lines: &mut Lines| -> PyResult<()> {
            if stretch.is_empty() {
                return Ok(());
            }
            let run = std::mem::take(stretch).into_iter().map(Item::Ok);
            let set = runner
                .run_items(&source, run, None, lines)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            sets.push(set);
            Ok(())
        };
        for item in items {
            match item {
                Ok(record) => stretch.push(record),
                Err(e) => {
                    flush(&mut stretch, &mut lines)?;
                    parse_errors += 1;
                    lines.err.push_str(&format!("error: {e}\n"));
                    if command == "count" {
                        lines.out.push_str(&format!("error: {e}\n"));
                    }
                }
            }
        }
        flush(&mut stretch, &mut lines)?;
        let sums = if command == "bench" {
            let mut merger = Merger::new();
            let mut parts: Vec<String> = sets
                .iter()
                .map(|set| json_lines(std::slice::from_ref(set), &config))
                .collect();
            if parts.is_empty() {
                // A chunk of malformed records only: the run's settings, so that it adds up.
                let empty = sudobench::runner::SetReport::begun(&source, &runner);
                parts.push(json_lines(std::slice::from_ref(&empty), &config));
            }
            for part in &parts {
                merger
                    .part("chunk", part)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
            }
            let mut text = merger.finish();
            if parse_errors > 0 {
                text = add_parse_errors(&text, parse_errors);
            }
            text
        } else {
            String::new()
        };
        Ok((lines.out, lines.err, sums))
    })
}

/// Bench rows with `n` more malformed records of their set.
fn add_parse_errors(rows: &str, n: u64) -> String {
    let mut out = String::new();
    for line in rows.lines() {
        match sudobench::report::BenchRow::from_json(line) {
            Some(mut row) => {
                row.parse_errors += n;
                out.push_str(&row.to_json());
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Makes puzzles `start..stop` of a `generate` run and returns `(stdout, stderr)` as the CLI
/// writes them for those indices.
#[pyfunction]
#[pyo3(signature = (start, stop, seed = 1, symmetry = "none", min_clues = 17, max_clues = 81, min_guesses = None, symmetries = 16, climb = 10_000, attempts = 100_000, confirm = "logic", no_solution = false))]
#[allow(clippy::too_many_arguments)]
pub fn generate_chunk(
    py: Python<'_>,
    start: u64,
    stop: u64,
    seed: u64,
    symmetry: &str,
    min_clues: u32,
    max_clues: u32,
    min_guesses: Option<f64>,
    symmetries: u32,
    climb: u32,
    attempts: u64,
    confirm: &str,
    no_solution: bool,
) -> PyResult<(String, String)> {
    let symmetry = ClueSymmetry::from_name(symmetry)
        .ok_or_else(|| PyValueError::new_err(format!("unknown symmetry {symmetry:?}")))?;
    let config = GenConfig {
        symmetry,
        min_clues,
        max_clues,
        hardness: min_guesses.map(|min_guesses| Hardness {
            min_guesses,
            symmetries,
            steps: climb,
        }),
        max_attempts: attempts,
        confirm: confirm.to_string(),
        no_solution,
    };
    let mut generator = Generator::new(config).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(move || {
        let (mut out, mut err) = (String::new(), String::new());
        for index in start..stop {
            match generator.generate(seed, index) {
                Ok(p) => {
                    out.push_str(&p.puzzle.to_string());
                    out.push('\n');
                }
                Err(e) => err.push_str(&format!("error: puzzle {index}: {e}\n")),
            }
        }
        (out, err)
    }))
}

/// Joins the outputs of a run's parts, given in order, as `sudobench merge` does.
#[pyfunction]
pub fn merge(parts: Vec<String>) -> PyResult<String> {
    let mut merger = Merger::new();
    for (i, part) in parts.iter().enumerate() {
        merger
            .part(&format!("part {}", i + 1), part)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(merger.finish())
}
