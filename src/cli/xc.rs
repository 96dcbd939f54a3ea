//! Exact-cover files (Knuth's format, see `sudobench::xc::knuth`) in `count`, `solve` and
//! `bench`, and the `xc` subcommand that writes the classic families.
//!
//! A run whose files include one ending in `.dlx` or `.xc` (optionally followed by `.gz`), or
//! whose content starts like Knuth's format (standard input, `-` or no file named, too), is an
//! exact-cover run: every file in it is read as an instance. A malformed file gets an
//! `error: FILE:LINE: ...` line and the run goes on.

use super::output::Format;
use super::output::Output;
use anyhow::{bail, Result};
use clap::Args;
use std::collections::hash_map::RandomState;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::io::Read;
use std::time::Instant;
use sudobench::deadline::within;
use sudobench::solver::{Clock, Stopwatch};
use sudobench::xc::{self, check::check, Instance, Limit};

/// Arguments of `sudobench xc`.
#[derive(Args, Debug)]
pub struct XcArgs {
    /// The family: queens N, langford N, pentominoes ROWS COLS, sudoku PUZZLE,
    /// hard-squares M [N].
    family: String,
    /// The family's arguments.
    args: Vec<String>,
}

/// `sudobench xc FAMILY ARGS`: the instance on standard output.
pub fn generate(args: &XcArgs) -> Result<bool> {
    match xc::families::generate(&args.family, &args.args) {
        Ok(text) => {
            let mut out = Output::stdout();
            out.write(&text);
            out.finish()?;
            Ok(true)
        }
        Err(e) => bail!("{e}"),
    }
}

/// Whether a name ends in `.dlx` or `.xc`, optionally followed by `.gz`.
fn has_extension(file: &str) -> bool {
    let f = file.strip_suffix(".gz").unwrap_or(file);
    f.ends_with(".dlx") || f.ends_with(".xc")
}

/// The first few kilobytes of a regular file (decompressed if gzip), as text; `None` for
/// anything else (reading a pipe would take its data from the run that follows).
fn head(file: &str) -> Option<String> {
    if !std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let f = std::fs::File::open(file).ok()?;
    let mut raw = std::io::BufReader::new(f);
    let start = std::io::BufRead::fill_buf(&mut raw).ok()?.to_vec();
    Some(whole_lines(&start))
}

/// The data standard input has buffered so far, as [`head`] reads a file: peeked, not
/// taken, so the run that follows reads it from the start (through the same buffer).
fn stdin_head() -> Option<String> {
    let mut stdin = std::io::stdin().lock();
    let start = std::io::BufRead::fill_buf(&mut stdin).ok()?;
    Some(whole_lines(start))
}

/// Up to 8 KiB of text from the start of some data (gunzipped if it is gzip, as far as the
/// given bytes go), cut after its last whole line.
fn whole_lines(start: &[u8]) -> String {
    let mut buf = Vec::new();
    if start.starts_with(&[0x1f, 0x8b]) {
        // A truncated stream: what decodes is enough.
        let _ = flate2::read::MultiGzDecoder::new(start)
            .take(8192)
            .read_to_end(&mut buf);
    } else {
        buf.extend_from_slice(&start[..start.len().min(8192)]);
    }
    let end = buf
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(buf.len(), |p| p + 1);
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Whether `files` make an exact-cover run: a file named so, or one (standard input
/// included, `-`) whose data starts like Knuth's format.
pub fn wanted(files: &[String]) -> bool {
    first_instance(files).is_some()
}

/// The first of `files` that is an exact-cover instance (see [`wanted`]).
fn first_instance(files: &[String]) -> Option<&str> {
    let by_name = files.iter().find(|f| has_extension(f));
    by_name
        .or_else(|| {
            files.iter().find(|f| {
                let start = if *f == "-" { stdin_head() } else { head(f) };
                start.is_some_and(|t| xc::knuth::looks_like(&t))
            })
        })
        .map(String::as_str)
}

/// Refuses the first of `flags` (name, whether given) that was given: a flag of Sudoku runs
/// on exact-cover files is an error, not ignored.
pub fn refuse_flags(flags: &[(&str, bool)]) -> Result<()> {
    match flags.iter().find(|(_, given)| *given) {
        None => Ok(()),
        Some((flag, _)) => {
            bail!("{flag} is for Sudoku puzzles, not exact-cover files (see docs/exact-cover.md)")
        }
    }
}

/// Refuses exact-cover files for a command that takes Sudoku puzzles only, naming the file
/// and the commands that take them (rather than one error per line of the instance).
pub fn refuse(command: &str, files: &[String]) -> Result<()> {
    match first_instance(files) {
        None => Ok(()),
        Some(file) => bail!(
            "{command} takes Sudoku puzzles; {file} is an exact-cover instance (count, solve, \
             bench and cnf take those)"
        ),
    }
}

/// The exact-cover backend of `solve` and `count`: the one named, or `dlx`.
fn chosen(named: Option<&str>) -> Result<&str> {
    backend_name(named.unwrap_or("dlx"))
}

/// A backend name for exact cover, checked.
fn backend_name(name: &str) -> Result<&str> {
    if xc::BACKENDS.iter().any(|(n, _)| *n == name) {
        Ok(name)
    } else {
        bail!(
            "backend {name} does not solve exact cover; exact-cover backends: {}",
            names()
        )
    }
}

fn names() -> String {
    xc::BACKENDS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One backend's run on one instance, every solution checked and remembered (by hash) to
/// catch one found twice.
struct Run {
    found: xc::Found,
    seconds: f64,
    /// The first wrong solution, if any.
    wrong: Option<String>,
    /// The distinct verified solutions, by their hashes.
    seen: HashSet<u64>,
}

fn run(backend: &str, inst: &Instance, limit: Limit, budget: Budget, keep: usize) -> Run {
    run_hashed(backend, inst, limit, budget, keep, &RandomState::new())
}

/// [`run`] within `budget` (nodes and time, timed by its clock), hashing solutions with
/// `hasher` (one hasher for every backend of an instance, so their solutions can be pooled).
fn run_hashed(
    backend: &str,
    inst: &Instance,
    limit: Limit,
    budget: Budget,
    keep: usize,
    hasher: &RandomState,
) -> Run {
    let mut wrong = None;
    let mut seen: HashSet<u64> = HashSet::new();
    let start = Stopwatch::start(budget.clock);
    let found = within(budget.time, || {
        xc::run(backend, inst, limit, budget.max_nodes, keep, &mut |s| {
            if let Err(e) = check(inst, s) {
                wrong.get_or_insert_with(|| format!("{e} (solution: {})", inst.solution_text(s)));
                return;
            }
            if !seen.insert(hasher.hash_one(s)) {
                wrong.get_or_insert_with(|| {
                    format!("solution found twice: {}", inst.solution_text(s))
                });
            }
        })
    })
    .unwrap_or_default();
    let seconds = start.elapsed().as_secs_f64();
    Run {
        seen,
        found,
        seconds,
        wrong,
    }
}

/// Whether the runs of an instance disagree: complete runs with different counts, a wrong
/// solution, or a count the file's comment contradicts.
fn disputed(inst: &Instance, runs: &[Result<Run, xc::Unsupported>]) -> bool {
    let complete: Vec<&Run> = runs.iter().flatten().filter(|r| r.found.complete).collect();
    runs.iter().flatten().any(|r| r.wrong.is_some())
        || complete
            .windows(2)
            .any(|w| w[0].found.count != w[1].found.count)
        || complete
            .iter()
            .any(|r| against_file(inst, &r.found, Limit::All).is_some())
}

/// Complete backends that may referee an exact-cover dispute, in order of preference: the
/// first one the run does not involve is asked.
const REFEREES: [&str; 3] = ["dlx-array", "dlx", "basic"];

/// What the file's count comment says against a search's result, if they disagree.
fn against_file(inst: &Instance, f: &xc::Found, limit: Limit) -> Option<String> {
    let want = inst.expected?;
    let disagree = if f.limited(limit) {
        want < f.count
    } else {
        f.complete && f.count != want
    };
    disagree.then(|| {
        format!(
            "{} solutions found, but the file's count is {want} {}",
            f.count, inst.provenance
        )
    })
}

fn count_text(f: &xc::Found, limit: Limit) -> String {
    if f.limited(limit) {
        format!("{}+", f.count)
    } else if f.complete {
        f.count.to_string()
    } else {
        format!("unknown (at least {})", f.count)
    }
}

/// The instance of `file` for `backend`, or the error line for it: the file does not read, or
/// the backend cannot take the instance (`dlx1` and colours).
fn instance(backend: &str, file: &str) -> Result<Instance, String> {
    let inst = Instance::read_path(file).map_err(|e| format!("error: {e}"))?;
    match xc::unsupported(backend, &inst) {
        Some(why) => Err(format!("error: {file}: {why}")),
        None => Ok(inst),
    }
}

/// Runs `each` on the instance of every file (an unreadable one, or one the backend cannot
/// take, gets its error line), then says on standard error how many of them `each` called ok
/// (`done` names that: counted, solved). True if all were.
fn each_instance(
    backend: Option<&str>,
    files: &[String],
    done: &str,
    mut each: impl FnMut(&str, &str, &Instance, &mut Output) -> bool,
) -> Result<bool> {
    let backend = chosen(backend)?;
    let start = Instant::now();
    let mut out = Output::stdout();
    let mut ok = 0;
    for file in files {
        match instance(backend, file) {
            Err(line) => out.line(&line),
            Ok(inst) => ok += usize::from(each(backend, file, &inst, &mut out)),
        }
    }
    out.finish()?;
    eprintln!(
        "sudobench: {} instances: {ok} {done}, {} not ({:.3} s, backend {backend})",
        files.len(),
        files.len() - ok,
        start.elapsed().as_secs_f64()
    );
    Ok(ok == files.len())
}

/// `count` on exact-cover files: one line per file, `FILE: COUNT (nodes N, updates U)`.
pub fn count(
    backend: Option<&str>,
    files: &[String],
    limit: Limit,
    budget: Budget,
) -> Result<bool> {
    each_instance(backend, files, "counted", |backend, file, inst, out| {
        let r = run(backend, inst, limit, budget, 0);
        let wrong = r.wrong.or_else(|| against_file(inst, &r.found, limit));
        if let Some(w) = wrong {
            out.line(&format!("error: {file}: backend {backend}: {w}"));
            return false;
        }
        out.line(&format!(
            "{file}: {} (nodes {}, updates {})",
            count_text(&r.found, limit),
            r.found.nodes,
            r.found.updates
        ));
        r.found.complete
    })
}

/// `solve` on exact-cover files: up to `limit` solutions per file, one per line (its options
/// as written in the file, in file order, separated by ` | `), or `no solution`.
pub fn solve(
    backend: Option<&str>,
    files: &[String],
    limit: Limit,
    budget: Budget,
) -> Result<bool> {
    each_instance(backend, files, "solved", |backend, file, inst, out| {
        let keep = match limit {
            Limit::AtMost(n) => usize::try_from(n).unwrap_or(usize::MAX),
            Limit::All => usize::MAX,
        };
        let r = run(backend, inst, limit, budget, keep);
        if let Some(w) = r.wrong {
            out.line(&format!("error: {file}: backend {backend}: {w}"));
            return false;
        }
        for s in &r.found.solutions {
            out.line(&inst.solution_text(s));
        }
        if r.found.count == 0 {
            out.line(if r.found.complete {
                "no solution"
            } else {
                "unknown"
            });
        }
        r.found.count > 0
    })
}

/// What each backend of an exact-cover bench may spend on an instance, and the clock its time
/// is measured by.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Search nodes (solver calls for the SAT backends).
    pub max_nodes: Option<u64>,
    /// Time (`None`: no limit).
    pub time: Option<std::time::Duration>,
    /// The clock of the `seconds` column (the calling thread's CPU time, or wall-clock time).
    pub clock: Clock,
}

impl Budget {
    /// The budget of one instance in `count` and `solve`: `--max-nodes` and `--max-seconds`,
    /// timed by the wall clock.
    pub fn of(settings: &super::args::BackendSettings) -> Budget {
        Budget {
            max_nodes: settings.max_nodes,
            time: settings.max_time(),
            clock: Clock::Wall,
        }
    }
}

/// One row of the exact-cover bench.
#[derive(serde::Serialize)]
struct Row {
    instance: String,
    backend: String,
    solutions: u64,
    complete: bool,
    nodes: u64,
    updates: u64,
    seconds: f64,
    solutions_per_sec: f64,
    check: String,
    /// The clock of `seconds`: `cpu` or `wall`.
    clock: &'static str,
}

/// `bench` on exact-cover files: every backend counts every solution of every instance;
/// every solution is verified, counts are compared across complete backends and with the
/// file's count. Exit 1 on any wrong solution or disagreement.
pub fn bench(
    backends: &[String],
    files: &[String],
    budget: Budget,
    format: Format,
) -> Result<bool> {
    let clock = budget.clock;
    let mut chosen: Vec<&str> = Vec::new();
    for b in backends {
        match b.trim() {
            "all" => chosen.extend(xc::BACKENDS.iter().map(|(n, _)| *n)),
            n => chosen.push(backend_name(n)?),
        }
    }
    if chosen.is_empty() {
        chosen = vec!["dlx", "basic"];
    }
    let mut seen = HashSet::new();
    if let Some(twice) = chosen.iter().find(|n| !seen.insert(**n)) {
        bail!("backend {twice:?} is named twice");
    }
    let mut out = Output::stdout();
    let mut clean = true;
    let mut rows: Vec<Row> = Vec::new();
    for file in files {
        let inst = match Instance::read_path(file) {
            Err(e) => {
                eprintln!("error: {e}");
                clean = false;
                continue;
            }
            Ok(inst) => inst,
        };
        // A backend that cannot take the instance (dlx1 and colours, or one whose tables
        // would pass its size bound) gets no run.
        let hasher = RandomState::new();
        let mut runs: Vec<Result<Run, xc::Unsupported>> = chosen
            .iter()
            .map(|b| match xc::unsupported(b, &inst) {
                Some(why) => Err(why),
                None => Ok(run_hashed(b, &inst, Limit::All, budget, 0, &hasher)),
            })
            .collect();
        let mut names: Vec<&str> = chosen.clone();
        // Any disagreement (between backends, or with the file) brings in a referee: the
        // first complete backend the run does not involve. Its verified solutions join the
        // evidence like everyone's.
        if disputed(&inst, &runs) {
            if let Some(referee) = REFEREES
                .iter()
                .find(|r| !chosen.contains(r) && xc::unsupported(r, &inst).is_none())
            {
                runs.push(Ok(run_hashed(
                    referee,
                    &inst,
                    Limit::All,
                    budget,
                    0,
                    &hasher,
                )));
                names.push(referee);
            }
        }
        // Every distinct verified solution any backend found: a proven lower bound.
        let mut pooled: HashSet<u64> = HashSet::new();
        for r in runs.iter().flatten().filter(|r| r.wrong.is_none()) {
            pooled.extend(&r.seen);
        }
        let proven = pooled.len() as u64;
        for (k, (b, r)) in names.iter().zip(&runs).enumerate() {
            let refereeing = k >= chosen.len();
            let r = match r {
                Ok(r) => r,
                Err(why) => {
                    rows.push(Row {
                        instance: file.clone(),
                        backend: b.to_string(),
                        solutions: 0,
                        complete: false,
                        nodes: 0,
                        updates: 0,
                        seconds: 0.0,
                        solutions_per_sec: 0.0,
                        clock: clock.name(),
                        check: format!("unsupported: {}", why.label()),
                    });
                    continue;
                }
            };
            let check = if let Some(w) = &r.wrong {
                format!("wrong: {w}")
            } else if !r.found.complete {
                "incomplete".to_string()
            } else if r.found.count < proven {
                format!("wrong: {proven} distinct solutions exist")
            } else if let Some(d) = against_file(&inst, &r.found, Limit::All) {
                format!("disputed: {d}")
            } else {
                "ok".to_string()
            };
            let check = if refereeing {
                format!("referee: {check}")
            } else {
                check
            };
            if !refereeing && check != "ok" && check != "incomplete" {
                clean = false;
                eprintln!("sudobench: {file}: backend {b}: {check}");
            }
            let solutions_per_sec = if r.seconds > 0.0 {
                r.found.count as f64 / r.seconds
            } else {
                0.0
            };
            rows.push(Row {
                instance: file.clone(),
                backend: b.to_string(),
                solutions: r.found.count,
                complete: r.found.complete,
                nodes: r.found.nodes,
                updates: r.found.updates,
                seconds: r.seconds,
                solutions_per_sec,
                clock: clock.name(),
                check,
            });
        }
    }
    match format {
        Format::Table => {
            let width = rows
                .iter()
                .map(|r| r.instance.len())
                .max()
                .unwrap_or(8)
                .max(8);
            let name = rows
                .iter()
                .map(|r| r.backend.len())
                .max()
                .unwrap_or(7)
                .max(7);
            out.line(&format!(
                "{:<width$}  {:<name$} {:>12} {:>14} {:>16} {:>12} {:>13}  check",
                "instance",
                "backend",
                "solutions",
                "nodes",
                "updates",
                format!("{} seconds", clock.name()),
                "solutions/s"
            ));
            for r in &rows {
                out.line(&format!(
                    "{:<width$}  {:<name$} {:>12} {:>14} {:>16} {:>12.3} {:>13.0}  {}",
                    r.instance,
                    r.backend,
                    if r.complete {
                        r.solutions.to_string()
                    } else {
                        format!("{}?", r.solutions)
                    },
                    r.nodes,
                    r.updates,
                    r.seconds,
                    r.solutions_per_sec,
                    r.check
                ));
            }
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in &rows {
                w.serialize(r)?;
            }
            out.write(&String::from_utf8_lossy(&w.into_inner()?));
        }
        Format::Json => {
            for r in &rows {
                out.line(&serde_json::to_string(r)?);
            }
        }
    }
    out.finish()?;
    Ok(clean)
}
