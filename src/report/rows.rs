//! `bench`'s machine record, one per (data set, backend), as a typed value: written to JSON
//! through serde and CSV through the csv crate, and read back by `merge`, which adds the
//! records of a run's parts up into the run's.
//!
//! The documented fields come first, in their documented order. JSON records end with one more
//! field, `exact`: the integer sums the documented rates and means are computed from
//! (nanoseconds, guesses, answers that counted guesses) and the problems the judge found, with
//! file and line, so that parts add up exactly.

use crate::runner::{BackendReport, Mismatch, SetReport, MAX_KEPT_MISMATCHES};
use crate::solver::Limit;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::time::Duration;

/// A number written with `D` decimals (the documented form; JSON gets the same digits as
/// CSV), read back as any JSON number.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fixed<const D: usize>(pub f64);

impl<const D: usize> fmt::Display for Fixed<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.D$}", self.0)
    }
}

impl<const D: usize> Serialize for Fixed<D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.0.is_finite() {
            return s.serialize_none();
        }
        let raw = serde_json::value::RawValue::from_string(self.to_string())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de, const D: usize> Deserialize<'de> for Fixed<D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        f64::deserialize(d).map(Fixed)
    }
}

/// A problem the judge found on one puzzle, where it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Source name.
    pub source: String,
    /// 1-based line.
    pub line: u64,
    /// What went wrong.
    pub problems: Vec<String>,
    /// Backends found at fault.
    pub blamed: Vec<String>,
    /// Whether the file is at fault.
    pub data_error: bool,
}

impl From<&Mismatch> for Problem {
    fn from(m: &Mismatch) -> Problem {
        Problem {
            source: m.source.to_string(),
            line: m.line,
            problems: m.problems.clone(),
            blamed: m.blamed.clone(),
            data_error: m.data_error,
        }
    }
}

/// The sums behind a record's rates and means.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exact {
    /// Answers that needed no guess.
    pub no_guess: u64,
    /// Answers that counted guesses.
    pub guess_reports: u64,
    /// Guesses over those answers (a wide sum: it never wraps).
    pub guess_sum: u128,
    /// Puzzles the solving time covers (answered before any failure).
    pub timed: u64,
    /// The backend's solving time.
    pub solve_nanos: u64,
    /// The backend's start-up time, apart from its solving time.
    pub startup_nanos: u64,
    /// Time spent reading the set.
    pub read_nanos: u64,
    /// CPU time spent reading the set.
    pub read_cpu_nanos: u64,
    /// The first problems of the set (at most [`MAX_KEPT_MISMATCHES`]), in input order.
    pub problems: Vec<Problem>,
}

/// One (data set, backend) record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    pub set: String,
    pub source: String,
    pub backend: String,
    pub complete: bool,
    /// `None` (JSON `null`, an empty CSV field) for a backend with no rate: one that failed
    /// before any answer was timed.
    pub puzzles_per_sec: Option<Fixed<1>>,
    pub us_per_puzzle: Option<Fixed<3>>,
    pub no_guess_pct: Option<Fixed<2>>,
    pub guesses_per_puzzle: Option<Fixed<3>>,
    pub covered: u64,
    pub total: u64,
    pub records: u64,
    pub unique: u64,
    pub multiple: u64,
    pub none: u64,
    pub unknown: u64,
    pub solved: u64,
    pub mismatches: u64,
    pub parse_errors: u64,
    pub read_puzzles_per_sec: Fixed<1>,
    pub read_cpu_puzzles_per_sec: Fixed<1>,
    pub budget_spent: bool,
    pub solve_seconds: Fixed<6>,
    pub threads: usize,
    pub limit: u32,
    pub fault: Option<String>,
    pub set_mismatches: u64,
    pub data_errors: u64,
    pub refereed: u64,
    pub unsettled: u64,
    pub referee: Option<String>,
    pub error: Option<String>,
    /// The clock the times were taken by (`cpu` or `wall`).
    pub clock: String,
    /// Start-up time (an `exec:` program's start, a `lib:` worker's load), never billed as
    /// solving time.
    pub startup_seconds: Fixed<6>,
    /// Puzzles of the set the backend does not solve (another order than it supports): not
    /// asked, shown as `n/a`, neither answers nor faults.
    #[serde(default)]
    pub not_applicable: u64,
    /// The kinds of puzzle the set holds, smallest first, space-separated (`16x16`,
    /// `9x9 16x16`).
    #[serde(default)]
    pub shapes: String,
    /// Absent from CSV, and from JSON written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
}

/// The shapes of two parts of a set (space-separated labels such as `9x9 16x16`), each once,
/// smallest first.
fn union_of_shapes(a: &str, b: &str) -> String {
    let side = |label: &str| -> u32 {
        label
            .split('x')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(u32::MAX)
    };
    let mut labels: Vec<&str> = a.split_whitespace().chain(b.split_whitespace()).collect();
    labels.sort_by_key(|l| (side(l), l.to_string()));
    labels.dedup();
    labels.join(" ")
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Why two records cannot be added up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AddError {
    /// A record without the `exact` sums (not written by this version's `bench`).
    #[error("a record of {0} / {1} has no \"exact\" field: write the parts with this version's `bench --format json`")]
    NotExact(String, String),
    /// The parts were not run alike.
    #[error(
        "the parts of {set} / {backend} differ in {what}: they were not run with the same settings"
    )]
    Differ {
        /// The set.
        set: String,
        /// The backend.
        backend: String,
        /// Which setting.
        what: &'static str,
    },
}

impl BenchRow {
    /// The record of `backend` on `set`, run with `limit`.
    pub fn new(set: &SetReport, backend: &BackendReport, limit: Limit) -> BenchRow {
        let mut row = BenchRow {
            set: set.name().to_string(),
            source: set.source.clone(),
            backend: backend.name.clone(),
            complete: backend.complete,
            covered: backend.covered,
            total: set.selected,
            records: set.records,
            unique: backend.unique,
            multiple: backend.multiple,
            none: backend.none,
            unknown: backend.unknown,
            solved: backend.solved,
            mismatches: backend.mismatches,
            parse_errors: set.parse_errors,
            budget_spent: backend.budget_spent,
            threads: set.threads,
            limit: limit.get(),
            fault: backend.fault.clone(),
            set_mismatches: set.mismatch_total,
            data_errors: set.data_errors,
            refereed: set.refereed,
            unsettled: set.unsettled,
            referee: set.referee.clone(),
            error: set.error.clone(),
            clock: set.clock.name().to_string(),
            not_applicable: backend.not_applicable,
            shapes: set.shape_labels_joined(" "),
            exact: Some(Exact {
                no_guess: backend.no_guess,
                guess_reports: backend.guess_reports,
                guess_sum: backend.guess_sum,
                timed: backend.timed,
                solve_nanos: nanos(backend.time),
                startup_nanos: nanos(backend.startup),
                read_nanos: nanos(set.read_time),
                read_cpu_nanos: nanos(set.read_cpu),
                problems: set.mismatches.iter().map(Problem::from).collect(),
            }),
            ..BenchRow::default()
        };
        row.derive(backend, set);
        row
    }

    /// Sets the rates and means from the figures they are computed from.
    fn derive(&mut self, backend: &BackendReport, set: &SetReport) {
        let (no_guess, guesses) = (backend.no_guess_percent(), backend.guesses_per_puzzle());
        let rate = backend.has_rate();
        self.puzzles_per_sec = rate.then(|| Fixed(backend.puzzles_per_sec()));
        self.us_per_puzzle = rate.then(|| Fixed(backend.micros_per_puzzle()));
        self.startup_seconds = Fixed(backend.startup.as_secs_f64());
        self.no_guess_pct = no_guess.map(Fixed);
        self.guesses_per_puzzle = guesses.map(Fixed);
        self.read_puzzles_per_sec = Fixed(set.reading_rate());
        self.read_cpu_puzzles_per_sec = Fixed(set.reading_rate_cpu());
        self.solve_seconds = Fixed(backend.time.as_secs_f64());
    }

    /// Adds the record of another part of the same run (same set, backend and settings):
    /// counts and times are added, rates and means computed again from the sums, problems
    /// kept in order (up to [`MAX_KEPT_MISMATCHES`]).
    pub fn add(&mut self, other: &BenchRow) -> Result<(), AddError> {
        let differ = |what| AddError::Differ {
            set: self.source.clone(),
            backend: self.backend.clone(),
            what,
        };
        if self.limit != other.limit {
            return Err(differ("limit"));
        }
        if self.threads != other.threads {
            return Err(differ("threads"));
        }
        if self.complete != other.complete {
            return Err(differ("backend"));
        }
        if self.clock != other.clock {
            return Err(differ("clock"));
        }
        let not_exact = || AddError::NotExact(self.source.clone(), self.backend.clone());
        let (Some(mine), Some(theirs)) = (self.exact.as_ref(), other.exact.as_ref()) else {
            return Err(not_exact());
        };
        let mut exact = mine.clone();
        exact.no_guess += theirs.no_guess;
        exact.guess_reports += theirs.guess_reports;
        exact.guess_sum = exact.guess_sum.saturating_add(theirs.guess_sum);
        exact.timed += theirs.timed;
        exact.solve_nanos += theirs.solve_nanos;
        exact.startup_nanos += theirs.startup_nanos;
        exact.read_nanos += theirs.read_nanos;
        exact.read_cpu_nanos += theirs.read_cpu_nanos;
        let room = MAX_KEPT_MISMATCHES.saturating_sub(exact.problems.len());
        exact
            .problems
            .extend(theirs.problems.iter().take(room).cloned());
        self.covered += other.covered;
        self.total += other.total;
        self.records += other.records;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.unknown += other.unknown;
        self.solved += other.solved;
        self.mismatches += other.mismatches;
        self.parse_errors += other.parse_errors;
        self.budget_spent |= other.budget_spent;
        if self.fault.is_none() {
            self.fault.clone_from(&other.fault);
        }
        self.not_applicable += other.not_applicable;
        self.shapes = union_of_shapes(&self.shapes, &other.shapes);
        self.set_mismatches += other.set_mismatches;
        self.data_errors += other.data_errors;
        self.refereed += other.refereed;
        self.unsettled += other.unsettled;
        if self.referee.is_none() {
            self.referee.clone_from(&other.referee);
        }
        if self.error.is_none() {
            self.error.clone_from(&other.error);
        }
        let backend = BackendReport {
            covered: self.covered,
            // What decides whether it has a rate (see `BackendReport::has_rate`).
            unique: self.unique,
            multiple: self.multiple,
            none: self.none,
            solved: self.solved,
            budget_spent: self.budget_spent,
            timed: exact.timed,
            time: Duration::from_nanos(exact.solve_nanos),
            startup: Duration::from_nanos(exact.startup_nanos),
            no_guess: exact.no_guess,
            guess_reports: exact.guess_reports,
            guess_sum: exact.guess_sum,
            ..BackendReport::default()
        };
        let set = SetReport {
            records: self.records,
            parse_errors: self.parse_errors,
            read_time: Duration::from_nanos(exact.read_nanos),
            read_cpu: Duration::from_nanos(exact.read_cpu_nanos),
            ..SetReport::default()
        };
        self.derive(&backend, &set);
        self.exact = Some(exact);
        Ok(())
    }

    /// The documented fields as CSV text, in order (`None`: an empty field).
    pub fn csv_fields(&self) -> [(&'static str, Option<String>); 35] {
        let s = |v: &dyn ToString| Some(v.to_string());
        [
            ("set", s(&self.set)),
            ("source", s(&self.source)),
            ("backend", s(&self.backend)),
            ("complete", s(&self.complete)),
            (
                "puzzles_per_sec",
                self.puzzles_per_sec.map(|v| v.to_string()),
            ),
            ("us_per_puzzle", self.us_per_puzzle.map(|v| v.to_string())),
            ("no_guess_pct", self.no_guess_pct.map(|v| v.to_string())),
            (
                "guesses_per_puzzle",
                self.guesses_per_puzzle.map(|v| v.to_string()),
            ),
            ("covered", s(&self.covered)),
            ("total", s(&self.total)),
            ("records", s(&self.records)),
            ("unique", s(&self.unique)),
            ("multiple", s(&self.multiple)),
            ("none", s(&self.none)),
            ("unknown", s(&self.unknown)),
            ("solved", s(&self.solved)),
            ("mismatches", s(&self.mismatches)),
            ("parse_errors", s(&self.parse_errors)),
            ("read_puzzles_per_sec", s(&self.read_puzzles_per_sec)),
            (
                "read_cpu_puzzles_per_sec",
                s(&self.read_cpu_puzzles_per_sec),
            ),
            ("budget_spent", s(&self.budget_spent)),
            ("solve_seconds", s(&self.solve_seconds)),
            ("threads", s(&self.threads)),
            ("limit", s(&self.limit)),
            ("fault", self.fault.clone()),
            ("set_mismatches", s(&self.set_mismatches)),
            ("data_errors", s(&self.data_errors)),
            ("refereed", s(&self.refereed)),
            ("unsettled", s(&self.unsettled)),
            ("referee", self.referee.clone()),
            ("error", self.error.clone()),
            ("clock", s(&self.clock)),
            ("startup_seconds", s(&self.startup_seconds)),
            ("not_applicable", s(&self.not_applicable)),
            ("shapes", s(&self.shapes)),
        ]
    }

    /// A record read back from one JSON line (`None`: not a bench record).
    pub fn from_json(line: &str) -> Option<BenchRow> {
        serde_json::from_str(line).ok()
    }

    /// The record as one JSON line (no line break).
    pub fn to_json(&self) -> String {
        // A struct of strings, numbers and raw numbers always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `verify --format json`'s record, one per puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyRow {
    pub source: String,
    pub line: u64,
    pub puzzle: String,
    /// `0`, `1` or `2+` (`unknown` when undecided, `mismatch` when no answer stands).
    pub count: String,
    /// The solution when it is unique.
    pub solution: Option<String>,
    /// What the judge found wrong with the puzzle's answers, when no answer stands.
    #[serde(default)]
    pub mismatch: Option<String>,
}

/// `grade --format json`'s record, one per puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeRow {
    pub source: String,
    pub line: u64,
    pub puzzle: String,
    pub clues: usize,
    pub technique: String,
    pub guesses: Fixed<3>,
    /// `0`, `1`, `2+` or `unknown`.
    pub solutions: String,
    /// Searches that spent their node budget or time limit (the guesses are then a lower
    /// bound).
    pub undecided: u32,
}

impl GradeRow {
    /// The record of one grade.
    pub fn new(record: &crate::format::Record, g: &crate::grade::Grade) -> GradeRow {
        GradeRow {
            source: record.source.to_string(),
            line: record.line,
            puzzle: record.puzzle.to_string(),
            clues: g.clues,
            technique: g.technique.name().to_string(),
            guesses: Fixed(g.guesses),
            solutions: match g.solutions {
                Some(n) if n >= 2 => "2+".to_string(),
                Some(n) => n.to_string(),
                None => "unknown".to_string(),
            },
            undecided: g.undecided,
        }
    }
}

/// The record of one puzzle of `certify` (CSV header and JSON keys in this order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CertifyRow {
    /// The puzzle's file (`-` for standard input).
    pub source: String,
    /// Its line.
    pub line: u64,
    /// `0`, `1`, `2+`, or `unknown` when the search gave up.
    pub count: &'static str,
    /// Whether the count is certified (its certificate checked).
    pub certified: bool,
    /// The certificate's size: the proof, or the two solutions of a `2+`.
    pub bytes: u64,
    /// Search nodes.
    pub nodes: u64,
    /// CPU time of producing, microseconds.
    pub produce_us: u128,
    /// CPU time of checking, microseconds.
    pub check_us: u128,
    /// Why the puzzle is not certified (empty when it is).
    pub reason: String,
}

impl CertifyRow {
    /// The CSV header.
    pub const CSV_HEADER: &'static str =
        "source,line,count,certified,bytes,nodes,produce_us,check_us,reason";

    /// The record of one certification; `ok` and `reason` say whether it stands (a
    /// certificate that could not be kept makes it fail too).
    pub fn new(
        record: &crate::format::Record,
        c: &crate::certify::Certified,
        ok: bool,
        reason: &str,
    ) -> CertifyRow {
        CertifyRow {
            source: record.source.to_string(),
            line: record.line,
            count: c.count.map_or("unknown", crate::certify::Count::text),
            certified: ok,
            bytes: c.bytes as u64,
            nodes: c.nodes,
            produce_us: c.produce.as_micros(),
            check_us: c.check.as_micros(),
            reason: reason.to_string(),
        }
    }

    /// The CSV row (no line break).
    pub fn csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{}",
            csv_field(&self.source),
            self.line,
            self.count,
            if self.certified { "yes" } else { "no" },
            self.bytes,
            self.nodes,
            self.produce_us,
            self.check_us,
            csv_field(&self.reason)
        )
    }
}

/// A typed record as one JSON line (no line break).
pub fn json_line<T: Serialize>(row: &T) -> String {
    serde_json::to_string(row).unwrap_or_default()
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.is_empty() {
        // (A record of one empty field would be written `""`.)
        return String::new();
    }
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to memory cannot fail. A whole record, so that the writer closes the quotes
    // (it closes a quoted field only when the field ends), without its line break.
    writer.write_record([s]).ok();
    let bytes = writer.into_inner().unwrap_or_default();
    let mut text = String::from_utf8(bytes).unwrap_or_default();
    if text.ends_with('\n') {
        text.pop();
    }
    text
}
