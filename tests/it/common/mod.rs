//! What the integration tests share: puzzles with known answers, and running the
//! `sudobench` binary. Each test crate uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// Runs the binary with `args` in `dir`, feeding `stdin` from another thread (so a full stdout
/// pipe cannot deadlock the test, and a program that exits before reading is no error).
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn_in(dir, args);
    let mut pipe = child.stdin.take().expect("stdin pipe");
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // A usage error exits before reading its input: a broken pipe is expected then.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("binary finishes");
    feeder.join().expect("stdin feeder");
    out
}

/// Starts the binary with `args` in `dir`, with its standard streams piped.
pub fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sudobench"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// Runs the binary with `args` in the package root.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, stdin)
}

/// Puzzles with known answers (one copy, in the library).
pub use sudobench::test_puzzles::*;

/// Standard output's lines.
pub fn lines(o: &Output) -> Vec<String> {
    stdout(o).lines().map(str::to_string).collect()
}

/// Standard output as text (invalid UTF-8 shown as replacement characters).
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text (invalid UTF-8 shown as replacement characters).
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The path of a bundled data set.
pub fn data(name: &str) -> String {
    format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `report --backends basic --results RESULTS` with `more` arguments.
pub fn report(results: &Path, more: &[&str]) -> Output {
    let mut args = vec![
        "report",
        "--backends",
        "basic",
        "--results",
        results.to_str().expect("path"),
    ];
    args.extend(more);
    run(&args, b"")
}

/// The first `n` records of a bundled data set.
pub fn sample(file: &str, n: usize) -> Vec<sudobench::puzzle::Puzzle> {
    sudobench::format::Reader::open(&format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{e}"))
        .take(n)
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")).puzzle)
        .collect()
}

/// The first puzzles of several bundled data sets: `n` of each `(file, n)`, in order.
pub fn samples(sets: &[(&str, usize)]) -> Vec<sudobench::puzzle::Puzzle> {
    sets.iter().flat_map(|&(file, n)| sample(file, n)).collect()
}

/// Items one per line, each line ended: the text of a puzzle file.
pub fn one_per_line<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(|p| format!("{p}\n")).collect()
}

/// `bench --time-budget 0` with `args` on `file`.
pub fn bench(args: &[&str], file: &Path) -> Output {
    let mut all = vec!["bench", "--time-budget", "0"];
    all.extend(args);
    all.push(file.to_str().expect("path"));
    run(&all, b"")
}

/// `bench --format json --time-budget 0` with `args` on `file`: the output and its JSON rows
/// (one a backend, in order).
pub fn bench_json(args: &[&str], file: &Path) -> (Output, Vec<serde_json::Value>) {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let out = bench(&all, file);
    let rows = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (out, rows)
}

/// A built-in backend with the facts the registry holds for it (a [`sudobench::Solver`] has
/// no name of its own), for tests that name it in a message or ask whether it is complete.
pub struct Named {
    pub info: &'static sudobench::backends::BackendInfo,
    pub solver: Box<dyn sudobench::Solver>,
}

impl Named {
    /// The registry's backend `name`, built with `options`.
    pub fn build(name: &str, options: &sudobench::solver::Options) -> Named {
        let info = sudobench::backends::info(name).expect("a built-in backend");
        Named {
            info,
            solver: (info.build)(options).expect("backend builds"),
        }
    }

    pub fn name(&self) -> &'static str {
        self.info.name
    }

    pub fn is_complete(&self) -> bool {
        self.info.complete
    }
}

impl sudobench::Solver for Named {
    fn solve(&mut self, puzzle: &sudobench::Puzzle, limit: sudobench::Limit) -> sudobench::Outcome {
        self.solver.solve(puzzle, limit)
    }
}

/// Asserts that the run exited 0, showing its standard error if not.
#[track_caller]
pub fn assert_success(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// Asserts that the run exited with `code` and said `needle` on standard error.
#[track_caller]
pub fn assert_exit(o: &Output, code: i32, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(err.contains(needle), "{err}");
}

/// `verify --minimal FILE` in `dir`, where line 2 of FILE and no other line has a redundant
/// clue: exit 1, and the error line of line 2 names the clue `name` (`r{row}c{col}={symbol}`).
pub fn assert_only_line_2_not_minimal(dir: &Path, file: &str, name: &str) {
    let bad = run_in(dir, &["verify", "--minimal", file], b"");
    assert_eq!(bad.status.code(), Some(1));
    let err = stderr(&bad);
    let line = err
        .lines()
        .find(|l| l.contains("not minimal:"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.starts_with(&format!("error: {file}:2: ")), "{line}");
    assert!(line.contains(name), "{name} in {line}");
    assert!(!err.contains(&format!("{file}:1:")), "{err}");
    assert!(err.contains("1 not minimal"), "{err}");
}
