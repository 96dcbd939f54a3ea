//! The runner's figures for people and for machines: a terminal table, CSV, JSON lines, the
//! generated part of RESULTS.md, and a hand-written SVG bar chart.
//!
//! Machine formats have one record per (data set, backend) with the same fields, in this
//! order: `set, source, backend, complete, puzzles_per_sec, us_per_puzzle, no_guess_pct,
//! guesses_per_puzzle, covered, total, records, unique, multiple, none, unknown, solved, mismatches,
//! parse_errors, read_puzzles_per_sec, read_cpu_puzzles_per_sec, budget_spent, solve_seconds,
//! threads, limit, fault, set_mismatches, data_errors, refereed, unsettled, referee, error,
//! clock, startup_seconds, not_applicable, shapes`.
//! `puzzles_per_sec` and `us_per_puzzle` are by the run's `clock` (`cpu` or `wall`) over the
//! puzzles answered before any failure, and empty (`null`) for a backend that failed before
//! answering any; `startup_seconds` is the start-up of an `exec:` program or `lib:` worker,
//! timed apart and not in `solve_seconds`. `not_applicable` counts the puzzles the backend
//! does not solve (another order than it supports: never asked, neither answers nor
//! faults); `shapes` names the kinds of puzzle the set holds (`16x16`, `9x9 16x16`).
//! `mismatches` counts the puzzles on which the judge found that backend at fault;
//! `set_mismatches` the puzzles of the set with any problem, `data_errors` those whose file
//! entry is wrong, `refereed` the disputes the `referee` settled and `unsettled` those nobody
//! could; `error` says why a set could not be read (its backends' figures are then empty).
//! `total` is the number of puzzles selected for the run (all records, or the sample);
//! `covered` is how many of them the backend solved before its time budget was spent.

pub mod merge;
pub mod peers;
mod rows;
mod svg;

pub use rows::{
    csv_field, json_line, AddError, BenchRow, CertifyRow, Exact, Fixed, GradeRow, Problem,
    VerifyRow,
};
pub use svg::svg;

use crate::runner::{BackendReport, Config, SetReport};
use crate::solver::Clock;
use std::fmt::Write as _;

/// Where the figures were measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Machine {
    /// CPU model (from `/proc/cpuinfo`), or `unknown`.
    pub cpu: String,
    /// Hardware threads available to the process.
    pub hardware_threads: usize,
    /// `rustc --version`, when known.
    pub rustc: Option<String>,
    /// The git commit, when known.
    pub commit: Option<String>,
    /// The date of the run (UTC, `YYYY-MM-DD HH:MM`).
    pub date: Option<String>,
}

impl Machine {
    /// The CPU model and thread count of this machine (no external commands run).
    pub fn detect() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        Machine {
            cpu,
            hardware_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            rustc: None,
            commit: None,
            date: Some(utc_now()),
        }
    }
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

/// A count with thousands separators.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn rate(x: f64) -> String {
    thousands(x.round().max(0.0) as u64)
}

/// The two guess columns as text (`None` when no answer of the backend counted guesses: SAT,
/// projection, an external program that did not say; never a made-up 100 % / 0).
fn guess_columns(
    b: &BackendReport,
    pct_decimals: usize,
    per_decimals: usize,
) -> (Option<String>, Option<String>) {
    (
        b.no_guess_percent().map(|p| format!("{p:.pct_decimals$}")),
        b.guesses_per_puzzle()
            .map(|g| format!("{g:.per_decimals$}")),
    )
}

fn method_line(config: &Config) -> String {
    let mut s = format!(
        "limit {} ({}), {} worker thread{}",
        config.limit,
        if config.limit.get() >= 2 {
            "uniqueness checked"
        } else {
            "first solution"
        },
        config.threads.max(1),
        if config.threads > 1 { "s" } else { "" }
    );
    match config.time_budget {
        Some(b) => write!(s, ", time budget {} s per backend per set", b.as_secs_f64()),
        None => write!(s, ", no time budget"),
    }
    .ok();
    match config.per_puzzle {
        (None, None) => Ok(()),
        (Some(n), None) => write!(s, ", at most {} nodes per puzzle", thousands(n)),
        (None, Some(t)) => write!(s, ", at most {} s per puzzle", t.as_secs_f64()),
        (Some(n), Some(t)) => write!(
            s,
            ", at most {} nodes and {} s per puzzle",
            thousands(n),
            t.as_secs_f64()
        ),
    }
    .ok();
    match config.sample {
        Some(sm) => write!(
            s,
            ", sample of {} per set (seed {})",
            thousands(sm.size as u64),
            sm.seed
        ),
        None => write!(s, ", every puzzle"),
    }
    .ok();
    match config.transform {
        Some(seed) => write!(s, ", random symmetry per puzzle (seed {seed})"),
        None => write!(s, ", puzzles as in the files"),
    }
    .ok();
    write!(
        s,
        ", solving timed by {} ({})",
        config.clock.describe(),
        match config.clock {
            Clock::Cpu => "the solving thread, lib: worker process or exec: program",
            Clock::Wall => "--clock wall",
        }
    )
    .ok();
    s
}

/// A backend's rate and time per puzzle as text, `-` for one without a rate (it failed
/// before answering anything).
fn rate_columns(b: &BackendReport, decimals: usize) -> (String, String) {
    if b.covered == 0 && b.not_applicable > 0 {
        return ("n/a".to_string(), "n/a".to_string());
    }
    match b.has_rate() {
        true => (
            rate(b.puzzles_per_sec()),
            format!("{:.decimals$}", b.micros_per_puzzle()),
        ),
        false => ("-".to_string(), "-".to_string()),
    }
}

/// The column titles of rate and time per puzzle, naming the clock.
fn rate_titles(clock: Clock) -> (String, String) {
    let c = clock.name();
    (format!("{c} puzzles/s"), format!("{c} µs/puzzle"))
}

fn set_line(set: &SetReport) -> String {
    let mut s = format!("{} puzzles", thousands(set.records),);
    if set.selected != set.records {
        write!(s, " ({} selected)", thousands(set.selected)).ok();
    }
    // Sets of 9×9 puzzles only say nothing more; others name their orders.
    if set
        .shapes
        .iter()
        .any(|(shape, _)| *shape != crate::puzzle::Shape::Nine)
    {
        write!(s, " of {}", set.shape_labels()).ok();
    }
    write!(
        s,
        ", {}, read at {} puzzles/s ({:.2} s; {}/s of CPU time), wall {:.2} s",
        counted(set.parse_errors, "parse error", "parse errors"),
        rate(set.reading_rate()),
        set.read_time.as_secs_f64(),
        rate(set.reading_rate_cpu()),
        set.wall_time.as_secs_f64()
    )
    .ok();
    if set.threads > 1 {
        write!(
            s,
            ", {} threads: speed-up over one thread ≈ {:.2}× (CPU time of all threads ÷ wall)",
            set.threads,
            set.speedup()
        )
        .ok();
    }
    if set.mismatch_total > 0 {
        let n = counted(set.mismatch_total, "MISMATCH", "MISMATCHES");
        write!(s, ", {n}").ok();
    }
    if set.data_errors > 0 {
        write!(
            s,
            " ({} of them the file's: invalid expected solutions)",
            thousands(set.data_errors)
        )
        .ok();
    }
    let referee = set.referee.as_deref().unwrap_or("?");
    if set.refereed > 0 {
        let n = counted(set.refereed, "dispute", "disputes");
        write!(s, ", {n} settled by the referee {referee}").ok();
    }
    if set.checked > 0 {
        let n = counted(set.checked, "outside count", "outside counts");
        write!(s, ", {n} checked by the referee {referee}").ok();
    }
    if set.unsettled > 0 {
        let n = counted(set.unsettled, "DISPUTE", "DISPUTES");
        write!(s, ", {n} UNSETTLED").ok();
    }
    if let Some(e) = &set.error {
        write!(s, ", UNREADABLE: {e}").ok();
    }
    s
}

/// `n` and the word for it, singular or plural: `1 dispute`, `1,200 disputes`.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

fn covered(b: &BackendReport, set: &SetReport) -> String {
    let mut s = format!("{}/{}", thousands(b.covered), thousands(set.selected));
    if b.budget_spent {
        s.push('*');
    }
    if b.not_applicable > 0 {
        // Puzzles of a kind it does not solve (another order than 9×9): never asked.
        s = format!("{s} ({} n/a)", thousands(b.not_applicable));
    }
    s
}

/// The terminal table's header line: CPU, threads and method.
pub fn table_header(config: &Config, machine: &Machine) -> String {
    format!(
        "CPU: {} ({} hardware threads) · {}\n",
        machine.cpu,
        machine.hardware_threads,
        method_line(config)
    )
}

/// The terminal table's block for one data set.
/// The widths of the text table's columns after the name.
const WIDTHS: [usize; 11] = [16, 15, 9, 10, 17, 8, 8, 6, 7, 8, 10];

/// A line of the text table: `name` left-aligned in `w` columns, then each cell right-aligned
/// in its column.
fn text_row(out: &mut String, w: usize, name: &str, cells: &[impl AsRef<str>]) {
    write!(out, "  {name:<w$}").ok();
    for (cell, width) in cells.iter().zip(WIDTHS) {
        write!(out, " {:>width$}", cell.as_ref()).ok();
    }
    out.push('\n');
}

/// A backend's cells after its name, in the columns of both tables; the share of puzzles
/// solved without a guess ends with `pct_suffix`; "n/a" where there is no figure.
fn row_cells(b: &BackendReport, set: &SetReport, pct_suffix: &str) -> [String; 11] {
    let (pct, per) = guess_columns(b, 1, 2);
    let na = || "n/a".to_string();
    let (per_sec, per_puzzle) = rate_columns(b, 2);
    [
        per_sec,
        per_puzzle,
        pct.map_or_else(na, |p| p + pct_suffix),
        per.unwrap_or_else(na),
        covered(b, set),
        thousands(b.unique),
        thousands(b.multiple),
        thousands(b.none),
        thousands(b.unknown),
        thousands(b.solved),
        thousands(b.mismatches),
    ]
}

pub fn table_set(set: &SetReport) -> String {
    let mut out = String::new();
    writeln!(out, "\n{} — {}", set.name(), set_line(set)).ok();
    // The name column fits the longest name (an `exec:` command line can be long).
    let w = set
        .backends
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    let (per_sec, per_puzzle) = rate_titles(set.clock);
    let titles = [
        per_sec.as_str(),
        &per_puzzle,
        "no guess",
        "guesses/p",
        "puzzles",
        "unique",
        "multiple",
        "none",
        "unknown",
        "solved",
        "mismatches",
    ];
    text_row(&mut out, w, "backend", &titles);
    for b in &set.backends {
        text_row(&mut out, w, &b.name, &row_cells(b, set, "%"));
    }
    for line in fault_lines(set).into_iter().chain(startup_lines(set)) {
        writeln!(out, "  {line}").ok();
    }
    out
}

/// One line per backend that had a start-up (an `exec:` program, a `lib:` worker), timed
/// apart from its solving.
fn startup_lines(set: &SetReport) -> Vec<String> {
    set.backends
        .iter()
        .filter(|b| !b.startup.is_zero())
        .map(|b| {
            format!(
                "start-up: {} {:.3} ms of {} (not in its solving time)",
                b.name,
                b.startup.as_secs_f64() * 1e3,
                set.clock.describe()
            )
        })
        .collect()
}

/// The terminal table's closing note (explains `*` when a budget was spent; else empty).
pub fn table_footer(sets: &[SetReport]) -> String {
    if sets
        .iter()
        .flat_map(|s| &s.backends)
        .any(|b| b.budget_spent)
    {
        "\n* time budget spent: the backend stopped early; its figures cover only the puzzles shown.\n"
            .to_string()
    } else {
        String::new()
    }
}

/// The whole terminal table: header, one block per data set, footer.
pub fn table(sets: &[SetReport], config: &Config, machine: &Machine) -> String {
    let mut out = table_header(config, machine);
    for set in sets {
        out.push_str(&table_set(set));
    }
    out.push_str(&table_footer(sets));
    out
}

/// Every machine record, one per (data set, backend).
pub fn rows(sets: &[SetReport], config: &Config) -> Vec<BenchRow> {
    sets.iter()
        .flat_map(|set| {
            set.backends
                .iter()
                .map(|b| BenchRow::new(set, b, config.limit))
        })
        .collect()
}

/// CSV lines of string fields (`None`: an empty field), quoted where needed by the csv crate.
pub fn csv_lines<'a>(rows: impl IntoIterator<Item = Vec<Option<&'a str>>>) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for row in rows {
        writer
            .write_record(row.iter().map(|f| f.unwrap_or("")))
            .ok();
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// The CSV header line.
pub fn csv_header() -> String {
    let names = BenchRow::default().csv_fields().map(|(k, _)| k);
    csv_lines([names.iter().map(|k| Some(*k)).collect()])
}

/// CSV rows (no header), one per (data set, backend).
pub fn csv_rows(sets: &[SetReport], config: &Config) -> String {
    let rows: Vec<_> = rows(sets, config)
        .iter()
        .map(BenchRow::csv_fields)
        .collect();
    csv_lines(
        rows.iter()
            .map(|r| r.iter().map(|(_, v)| v.as_deref()).collect()),
    )
}

/// CSV with a header line, one row per (data set, backend).
pub fn csv(sets: &[SetReport], config: &Config) -> String {
    csv_header() + &csv_rows(sets, config)
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// JSON lines: one object per (data set, backend).
pub fn json_lines(sets: &[SetReport], config: &Config) -> String {
    let mut out = String::new();
    for row in rows(sets, config) {
        out.push_str(&row.to_json());
        out.push('\n');
    }
    out
}

/// Marks the start of the generated part of RESULTS.md.
pub const BEGIN_MARKER: &str = "<!-- bench:begin -->";
/// Marks its end.
pub const END_MARKER: &str = "<!-- bench:end -->";

/// The generated part of RESULTS.md (between the markers, markers excluded): machine, method,
/// the chart, and one table per data set.
pub fn markdown(
    sets: &[SetReport],
    config: &Config,
    machine: &Machine,
    command: &str,
    chart: Option<&str>,
) -> String {
    let mut out = String::new();
    writeln!(out, "_Generated by `{command}`_").ok();
    writeln!(out).ok();
    writeln!(
        out,
        "**Machine**: {} ({} hardware threads); {}; commit {}; {}.",
        machine.cpu,
        machine.hardware_threads,
        machine.rustc.as_deref().unwrap_or("rustc unknown"),
        machine.commit.as_deref().unwrap_or("unknown"),
        machine.date.as_deref().unwrap_or("date unknown")
    )
    .ok();
    writeln!(out).ok();
    writeln!(
        out,
        "**Method**: {}. Puzzles/s and µs/puzzle are per thread: puzzles covered ÷ the \
         backend's solving time by the clock named in the table (reading, checking, the \
         cross-check and an out-of-process backend's start-up are not included). \
         \"% no guess\" and guesses/puzzle are as each backend counts guesses (`n/a` for a backend \
         that counts other work instead, such as SAT calls). \"solved\" counts answers that came with a (verified) solution: for an \
         incomplete backend, which answers `unknown` for the count, how often it found one. A covered count \
         below the total with `*` means the time budget stopped that backend early; its figures \
         cover only those puzzles.",
        method_line(config)
    )
    .ok();
    if let Some(chart) = chart {
        writeln!(out).ok();
        writeln!(out, "![puzzles per second, log scale]({chart})").ok();
    }
    for set in sets {
        writeln!(out).ok();
        writeln!(out, "### {}", set.name()).ok();
        writeln!(out).ok();
        writeln!(out, "`{}`: {}.", set.source, set_line(set)).ok();
        writeln!(out).ok();
        let (per_sec, per_puzzle) = rate_titles(set.clock);
        writeln!(
            out,
            "| backend | {per_sec} | {per_puzzle} | % no guess | guesses/puzzle | puzzles | unique | multiple | none | unknown | solved | mismatches |"
        )
        .ok();
        writeln!(
            out,
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        )
        .ok();
        for b in &set.backends {
            let mut cells = row_cells(b, set, "");
            cells[4] = cells[4].replace('*', "\\*");
            writeln!(out, "| {} | {} |", b.name, cells.join(" | ")).ok();
        }
        let faults: Vec<String> = fault_lines(set)
            .into_iter()
            .chain(startup_lines(set))
            .collect();
        if !faults.is_empty() {
            writeln!(out).ok();
            for line in faults {
                writeln!(out, "{}", line.replace('*', "\\*")).ok();
            }
        }
    }
    out
}

/// One line per backend of the set that failed for good (see [`BackendReport::fault`]).
fn fault_lines(set: &SetReport) -> Vec<String> {
    set.backends
        .iter()
        .filter_map(|b| {
            let fault = b.fault.as_deref()?;
            Some(format!(
                "! {} failed: {fault}; its answers from then on are unknown",
                b.name
            ))
        })
        .collect()
}

/// Replaces what lies between [`BEGIN_MARKER`] and [`END_MARKER`] in `page` with `generated`,
/// keeping everything else. Without markers, they are appended with the generated part.
pub fn splice(page: &str, generated: &str) -> String {
    let block = format!("{BEGIN_MARKER}\n{}\n{END_MARKER}", generated.trim_end());
    match (page.find(BEGIN_MARKER), page.find(END_MARKER)) {
        (Some(b), Some(e)) if b < e => {
            format!("{}{block}{}", &page[..b], &page[e + END_MARKER.len()..])
        }
        _ => {
            let mut out = page.trim_end().to_string();
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&block);
            out.push('\n');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_whole() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field(""), "");
        assert_eq!(csv_field("a,\"b.txt"), "\"a,\"\"b.txt\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn separators_and_json_strings() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
    }

    #[test]
    fn splice_keeps_hand_written_parts() {
        let page = format!("# R\n\nintro\n{BEGIN_MARKER}\nold\n{END_MARKER}\n\n## Peers\nkept\n");
        let new = splice(&page, "new figures");
        assert!(new.contains("intro") && new.contains("## Peers\nkept"));
        assert!(new.contains("new figures") && !new.contains("old"));
        assert_eq!(splice(&new, "new figures"), new);
        let fresh = splice("# R\n", "x");
        assert!(fresh.starts_with("# R\n\n<!-- bench:begin -->\nx\n<!-- bench:end -->"));
    }

    #[test]
    fn guess_columns_only_for_backends_that_count_guesses() {
        let mut b = BackendReport {
            covered: 4,
            no_guess: 3,
            ..BackendReport::default()
        };
        let some = |a: &str, b: &str| (Some(a.to_string()), Some(b.to_string()));
        b.guess_reports = 4;
        b.guess_sum = 2;
        assert_eq!(guess_columns(&b, 1, 2), some("75.0", "0.50"));
        b.guess_sum = 0;
        b.no_guess = 4;
        assert_eq!(guess_columns(&b, 1, 2), some("100.0", "0.00"));
        // Over the answers that counted guesses only.
        b.guess_reports = 2;
        b.no_guess = 1;
        b.guess_sum = 3;
        assert_eq!(guess_columns(&b, 1, 2), some("50.0", "1.50"));
        // No answer counted guesses (SAT, projection, a silent external program).
        b.guess_reports = 0;
        b.no_guess = 0;
        b.guess_sum = 0;
        assert_eq!(guess_columns(&b, 1, 2), (None, None));
    }

    #[test]
    fn missing_values_are_empty_in_csv_and_null_in_json() {
        let mut b = BackendReport {
            name: "sat".to_string(),
            covered: 4,
            ..BackendReport::default()
        };
        b.stats.iterations = 9; // counts SAT calls, not guesses: no guess columns
        assert_eq!(b.guess_reports, 0);
        let set = SetReport {
            source: "x.txt".into(),
            backends: vec![b],
            ..SetReport::default()
        };
        let config = Config::default();
        let csv = csv(std::slice::from_ref(&set), &config);
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(header.len(), row.len());
        for name in ["no_guess_pct", "guesses_per_puzzle", "fault"] {
            let i = header.iter().position(|h| *h == name).unwrap();
            assert_eq!(row[i], "", "{name}");
        }
        assert!(!csv.contains("null") && !csv.contains("n/a"), "{csv}");
        let json = json_lines(std::slice::from_ref(&set), &config);
        for name in ["no_guess_pct", "guesses_per_puzzle", "fault"] {
            assert!(json.contains(&format!("\"{name}\":null")), "{json}");
        }
    }

    #[test]
    fn date_format() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-01-01 00:00 UTC".len(), "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
