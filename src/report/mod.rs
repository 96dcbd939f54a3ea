//! The runner's figures for people and for machines: a terminal table, CSV, JSON lines, the
//! generated part of RESULTS.md, and a hand-written SVG bar chart.
//!
//! Machine formats have one record per (data set, backend) with the same fields, in this
//! order: `set, source, backend, complete, puzzles_per_sec, us_per_puzzle, no_guess_pct,
//! guesses_per_puzzle, covered, total, records, unique, multiple, none, unknown, solved, mismatches,
//! parse_errors, read_puzzles_per_sec, read_cpu_puzzles_per_sec, budget_spent, solve_seconds,
//! threads, limit, fault, set_mismatches, data_errors, refereed, unsettled, referee, error`.
//! `mismatches` counts the puzzles on which the judge found that backend at fault;
//! `set_mismatches` the puzzles of the set with any problem, `data_errors` those whose file
//! entry is wrong, `refereed` the disputes the `referee` settled and `unsettled` those nobody
//! could; `error` says why a set could not be read (its backends' figures are then empty).
//! `total` is the number of puzzles selected for the run (all records, or the sample);
//! `covered` is how many of them the backend solved before its time budget was spent.

mod svg;

pub use svg::svg;

use crate::runner::{BackendReport, Config, SetReport};
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
    s
}

fn set_line(set: &SetReport) -> String {
    let mut s = format!("{} puzzles", thousands(set.records),);
    if set.selected != set.records {
        write!(s, " ({} selected)", thousands(set.selected)).ok();
    }
    write!(
        s,
        ", {} parse error{}, read at {} puzzles/s ({:.2} s; {}/s of CPU time), wall {:.2} s",
        thousands(set.parse_errors),
        if set.parse_errors == 1 { "" } else { "s" },
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
        let word = if set.mismatch_total == 1 {
            "MISMATCH"
        } else {
            "MISMATCHES"
        };
        write!(s, ", {} {word}", thousands(set.mismatch_total)).ok();
    }
    if set.data_errors > 0 {
        write!(
            s,
            " ({} of them the file's: invalid expected solutions)",
            thousands(set.data_errors)
        )
        .ok();
    }
    if set.refereed > 0 {
        write!(
            s,
            ", {} {} settled by the referee {}",
            thousands(set.refereed),
            if set.refereed == 1 {
                "dispute"
            } else {
                "disputes"
            },
            set.referee.as_deref().unwrap_or("?")
        )
        .ok();
    }
    if set.checked > 0 {
        write!(
            s,
            ", {} outside {} checked by the referee {}",
            thousands(set.checked),
            if set.checked == 1 { "count" } else { "counts" },
            set.referee.as_deref().unwrap_or("?")
        )
        .ok();
    }
    if set.unsettled > 0 {
        let word = if set.unsettled == 1 {
            "DISPUTE"
        } else {
            "DISPUTES"
        };
        write!(s, ", {} {word} UNSETTLED", thousands(set.unsettled)).ok();
    }
    if let Some(e) = &set.error {
        write!(s, ", UNREADABLE: {e}").ok();
    }
    s
}

fn covered(b: &BackendReport, set: &SetReport) -> String {
    let mut s = format!("{}/{}", thousands(b.covered), thousands(set.selected));
    if b.budget_spent {
        s.push('*');
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
    writeln!(
        out,
        "  {:<w$} {:>12} {:>10} {:>9} {:>10} {:>17} {:>8} {:>8} {:>6} {:>7} {:>8} {:>10}",
        "backend",
        "puzzles/s",
        "µs/puzzle",
        "no guess",
        "guesses/p",
        "puzzles",
        "unique",
        "multiple",
        "none",
        "unknown",
        "solved",
        "mismatches"
    )
    .ok();
    for b in &set.backends {
        let (pct, per) = guess_columns(b, 1, 2);
        let pct = pct.map_or_else(|| "n/a".to_string(), |p| p + "%");
        let per = per.unwrap_or_else(|| "n/a".to_string());
        writeln!(
            out,
            "  {:<w$} {:>12} {:>10.2} {:>9} {:>10} {:>17} {:>8} {:>8} {:>6} {:>7} {:>8} {:>10}",
            b.name,
            rate(b.puzzles_per_sec()),
            b.micros_per_puzzle(),
            pct,
            per,
            covered(b, set),
            thousands(b.unique),
            thousands(b.multiple),
            thousands(b.none),
            thousands(b.unknown),
            thousands(b.solved),
            thousands(b.mismatches)
        )
        .ok();
    }
    for line in fault_lines(set) {
        writeln!(out, "  {line}").ok();
    }
    out
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

/// A field of a machine record: name, value already formatted (`None`: no value, JSON `null`
/// and an empty CSV field), and whether it is a string in JSON.
type Field = (&'static str, Option<String>, bool);

/// Every machine record as a list of fields, one record per (data set, backend).
fn records(sets: &[SetReport], config: &Config) -> Vec<Vec<Field>> {
    let mut rows = Vec::new();
    for set in sets {
        for b in &set.backends {
            let (no_guess, guesses) = guess_columns(b, 2, 3);
            let text = |k, v: String| (k, Some(v), true);
            let num = |k, v: String| (k, Some(v), false);
            rows.push(vec![
                text("set", set.name().to_string()),
                text("source", set.source.clone()),
                text("backend", b.name.to_string()),
                num("complete", b.complete.to_string()),
                num("puzzles_per_sec", format!("{:.1}", b.puzzles_per_sec())),
                num("us_per_puzzle", format!("{:.3}", b.micros_per_puzzle())),
                ("no_guess_pct", no_guess, false),
                ("guesses_per_puzzle", guesses, false),
                num("covered", b.covered.to_string()),
                num("total", set.selected.to_string()),
                num("records", set.records.to_string()),
                num("unique", b.unique.to_string()),
                num("multiple", b.multiple.to_string()),
                num("none", b.none.to_string()),
                num("unknown", b.unknown.to_string()),
                num("solved", b.solved.to_string()),
                num("mismatches", b.mismatches.to_string()),
                num("parse_errors", set.parse_errors.to_string()),
                num("read_puzzles_per_sec", format!("{:.1}", set.reading_rate())),
                num(
                    "read_cpu_puzzles_per_sec",
                    format!("{:.1}", set.reading_rate_cpu()),
                ),
                num("budget_spent", b.budget_spent.to_string()),
                num("solve_seconds", format!("{:.6}", b.time.as_secs_f64())),
                num("threads", set.threads.to_string()),
                num("limit", config.limit.to_string()),
                ("fault", b.fault.clone(), true),
                num("set_mismatches", set.mismatch_total.to_string()),
                num("data_errors", set.data_errors.to_string()),
                num("refereed", set.refereed.to_string()),
                num("unsettled", set.unsettled.to_string()),
                ("referee", set.referee.clone(), true),
                ("error", set.error.clone(), true),
            ]);
        }
    }
    rows
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV header line.
pub fn csv_header() -> String {
    let one = SetReport {
        backends: vec![BackendReport::default()],
        ..SetReport::default()
    };
    let fields: Vec<&str> = records(&[one], &Config::default())
        .first()
        .map(|r| r.iter().map(|(k, _, _)| *k).collect())
        .unwrap_or_default();
    format!("{}\n", fields.join(","))
}

/// CSV rows (no header), one per (data set, backend).
pub fn csv_rows(sets: &[SetReport], config: &Config) -> String {
    let mut out = String::new();
    for row in records(sets, config) {
        let fields: Vec<String> = row
            .iter()
            .map(|(_, v, _)| v.as_deref().map(csv_field).unwrap_or_default())
            .collect();
        writeln!(out, "{}", fields.join(",")).ok();
    }
    out
}

/// CSV with a header line, one row per (data set, backend).
pub fn csv(sets: &[SetReport], config: &Config) -> String {
    csv_header() + &csv_rows(sets, config)
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                write!(out, "\\u{:04x}", c as u32).ok();
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// JSON lines: one object per (data set, backend).
pub fn json_lines(sets: &[SetReport], config: &Config) -> String {
    let mut out = String::new();
    for row in records(sets, config) {
        let fields: Vec<String> = row
            .iter()
            .map(|(k, v, text)| {
                let v = match v {
                    None => "null".to_string(),
                    Some(v) if *text => json_string(v),
                    Some(v) => v.clone(),
                };
                format!("\"{k}\":{v}")
            })
            .collect();
        writeln!(out, "{{{}}}", fields.join(",")).ok();
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
         backend's solving time (reading, checking and the cross-check are not included). \
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
        writeln!(
            out,
            "| backend | puzzles/s | µs/puzzle | % no guess | guesses/puzzle | puzzles | unique | multiple | none | unknown | solved | mismatches |"
        )
        .ok();
        writeln!(
            out,
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        )
        .ok();
        for b in &set.backends {
            let (pct, per) = guess_columns(b, 1, 2);
            let (pct, per) = (
                pct.unwrap_or_else(|| "n/a".to_string()),
                per.unwrap_or_else(|| "n/a".to_string()),
            );
            writeln!(
                out,
                "| {} | {} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                b.name,
                rate(b.puzzles_per_sec()),
                b.micros_per_puzzle(),
                pct,
                per,
                covered(b, set).replace('*', "\\*"),
                thousands(b.unique),
                thousands(b.multiple),
                thousands(b.none),
                thousands(b.unknown),
                thousands(b.solved),
                thousands(b.mismatches)
            )
            .ok();
        }
        let faults = fault_lines(set);
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
        b.stats.guesses = Some(2);
        assert_eq!(guess_columns(&b, 1, 2), some("75.0", "0.50"));
        b.stats.guesses = Some(0);
        b.no_guess = 4;
        assert_eq!(guess_columns(&b, 1, 2), some("100.0", "0.00"));
        // Over the answers that counted guesses only.
        b.guess_reports = 2;
        b.no_guess = 1;
        b.stats.guesses = Some(3);
        assert_eq!(guess_columns(&b, 1, 2), some("50.0", "1.50"));
        // No answer counted guesses (SAT, projection, a silent external program).
        b.guess_reports = 0;
        b.no_guess = 0;
        b.stats.guesses = None;
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
