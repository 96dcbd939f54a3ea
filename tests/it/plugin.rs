//! The shared-library backend `lib:PATH:SYMBOL`, on a C solver with tdoku's signature that
//! these tests compile with the system C compiler (`tests/c/sb_solver.c`): it agrees with the
//! built-in backends, and a library that crashes, exits, hangs, lies about counts or writes
//! wrong grids fails or is blamed, with the puzzle named, while the run goes on.

use crate::common::{assert_exit, bench_json, lines, one_per_line, samples, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use sudobench::puzzle::Puzzle;
use sudobench::solver::{Count, Limit, Options, Solver};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The C test solver as a shared library, compiled once per test run with `cc`.
pub fn library() -> &'static Path {
    static LIBRARY: OnceLock<PathBuf> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let built = dir.join(format!("libsb_solver.so.{}", std::process::id()));
        let source = root().join("tests/c/sb_solver.c");
        let status = Command::new("cc")
            .args(["-O2", "-Wall", "-shared", "-fPIC", "-pthread", "-o"])
            .arg(&built)
            .arg(&source)
            .status();
        match status {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "the system C compiler `cc` was not found: these tests compile their C solver \
                 ({}) with it; install gcc or clang",
                source.display()
            ),
            Err(e) => panic!("cannot run the C compiler `cc`: {e}"),
            Ok(s) => assert!(s.success(), "cc could not compile {}", source.display()),
        }
        // Renamed into place, so a library another test run has loaded is never rewritten.
        let path = dir.join("libsb_solver.so");
        std::fs::rename(&built, &path).expect("move the library into place");
        path
    })
}

/// `lib:` with the test library and one of its functions.
fn lib(symbol: &str) -> String {
    format!("lib:{}:{symbol}", library().display())
}

fn sudobench(args: &[&str], stdin: &str) -> Output {
    crate::common::run(args, stdin.as_bytes())
}

/// A sample of every bundled set (small where the plain C backtracker is slow), plus a
/// puzzle without a solution, one with clashing clues, and the empty grid.
fn sample() -> String {
    let mut text = one_per_line(&samples(&[
        ("puzzles0_kaggle.csv.gz", 30),
        ("puzzles2_17_clue.gz", 3),
        ("puzzles3_magictour_top1465.gz", 15),
        ("puzzles5_forum_hardest_1905_11+.gz", 10),
        ("puzzles6_forum_hardest_1106.gz", 6),
        ("puzzles7_serg_benchmark.gz", 30),
    ]));
    text.push_str(&format!("12345678.........9{}\n", ".".repeat(63)));
    text.push_str(&format!("5...5....{}\n", ".".repeat(72)));
    text.push_str(&format!("{}\n", ".".repeat(81)));
    text
}

/// `n` unique puzzles from magictour.
fn unique(n: usize) -> Vec<String> {
    crate::common::sample("puzzles3_magictour_top1465.gz", n)
        .iter()
        .map(Puzzle::to_string)
        .collect()
}

/// A temporary file of `n` unique puzzles (gone with the directory).
fn unique_file(n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write(dir.path(), "unique.txt", &one_per_line(&unique(n)));
    (dir, file)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write puzzles");
    path
}

/// `bench --format json --time-budget 0` on one file: the exit status and a row per backend.
fn bench(backends: &str, file: &Path, more: &[&str]) -> (Output, Vec<serde_json::Value>) {
    let mut args = vec!["--backends", backends];
    args.extend_from_slice(more);
    bench_json(&args, file)
}

fn row<'a>(rows: &'a [serde_json::Value], backend: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["backend"] == backend)
        .unwrap_or_else(|| panic!("no row for {backend}: {rows:?}"))
}

#[test]
fn agrees_with_the_builtin_backends_on_every_bundled_set() {
    let input = sample();
    let backend = lib("sb_solve");
    for command in [
        vec!["solve"],
        vec!["solve", "--first"],
        vec!["count"],
        vec!["count", "--limit", "1"],
        vec!["count", "--limit", "3"],
    ] {
        let run = |b: &str, extra: &[&str]| {
            let mut args = command.clone();
            args.extend_from_slice(&["--backend", b]);
            args.extend_from_slice(extra);
            sudobench(&args, &input)
        };
        let want = run("basic", &[]);
        let got = run(&backend, &[]);
        assert_eq!(lines(&got), lines(&want), "{command:?}: {}", stderr(&got));
        assert_eq!(got.status.code(), want.status.code(), "{command:?}");
        // One worker per thread, same output.
        let threaded = run(&backend, &["--threads", "2"]);
        assert_eq!(lines(&threaded), lines(&want), "{command:?} on 2 threads");
    }
    let counts = lines(&sudobench(&["count", "--backend", &backend], &input));
    let n = counts.len();
    assert_eq!(counts[n - 3..], ["0", "0", "2+"], "the special cases");

    // Side by side in bench, judged: nobody is blamed, and the counts are bitmask's.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write(dir.path(), "sample.txt", &input);
    let (out, rows) = bench(&format!("basic,bitmask,{backend}"), &file, &[]);
    crate::common::assert_success(&out);
    let (ours, theirs) = (row(&rows, &backend), row(&rows, "bitmask"));
    for field in ["covered", "unique", "multiple", "none", "unknown", "solved"] {
        assert_eq!(ours[field], theirs[field], "{field}: {ours}");
    }
    assert_eq!(ours["unique"], 64);
    assert_eq!(ours["mismatches"], 0);
    assert!(ours["fault"].is_null(), "{ours}");
    assert!(ours["guesses_per_puzzle"].is_number(), "{ours}");
}

#[test]
fn pencilmark_puzzles_agree() {
    // The logical closure of some puzzles, as 729-character pencilmark lines; one of them
    // with a cell left without candidates (no solution).
    let puzzles = unique(12).join("\n") + "\n";
    let closed = sudobench(
        &["solve", "--backend", "logic", "--no-guess", "--pencilmarks"],
        &puzzles,
    );
    let mut marks = lines(&closed);
    assert!(marks.iter().all(|l| l.len() == 729), "{marks:?}");
    let mut empty_cell = marks[0].clone();
    empty_cell.replace_range(0..9, ".........");
    marks.push(empty_cell);
    let input = marks.join("\n") + "\n";
    for command in ["solve", "count"] {
        let want = sudobench(&[command, "--backend", "basic"], &input);
        let got = sudobench(&[command, "--backend", &lib("sb_solve")], &input);
        assert_eq!(lines(&got), lines(&want), "{command}: {}", stderr(&got));
    }
    let counted = lines(&sudobench(
        &["count", "--backend", &lib("sb_solve")],
        &input,
    ));
    assert_eq!(counted.last().map(String::as_str), Some("0"));
}

/// Runs `count --limit 1` (one call per puzzle, in order) on `puzzles` and returns the
/// output lines, checking that the run failed and that every line before the failure is a
/// right answer and every line after it no answer.
fn count_until_failure(backend: &str, puzzles: &[String], extra: &[&str]) -> (Vec<String>, String) {
    let mut args = vec!["count", "--limit", "1", "--backend", backend];
    args.extend_from_slice(extra);
    let out = sudobench(&args, &(puzzles.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let got = lines(&out);
    assert_eq!(got.len(), puzzles.len(), "{got:?}");
    let failed = got
        .iter()
        .position(|l| l.starts_with("error:"))
        .expect("a line says the backend failed");
    assert!(got[..failed].iter().all(|l| l == "1+"), "{got:?}");
    assert!(
        got[failed].starts_with(&format!(
            "error: -:{}: backend {backend} failed: ",
            failed + 1
        )),
        "{}",
        got[failed]
    );
    for (i, line) in got.iter().enumerate().skip(failed + 1) {
        assert_eq!(
            *line,
            format!(
                "error: -:{}: no answer: the backend failed at -:{}",
                i + 1,
                failed + 1
            )
        );
    }
    let message = got[failed].clone();
    (got, message)
}

#[test]
fn a_library_that_crashes_or_exits_fails_its_backend_naming_the_puzzle() {
    let puzzles = unique(8);
    for (symbol, says) in [
        ("sb_abort", "crashed: killed by signal 6 (SIGABRT)"),
        ("sb_segv", "crashed: killed by signal 11 (SIGSEGV)"),
        ("sb_exit", "the worker exited with status 3"),
    ] {
        // Fails on its 5th call, which at limit 1 is the 5th puzzle.
        let (_, message) = count_until_failure(&lib(symbol), &puzzles, &["--config", "5"]);
        assert!(
            message.ends_with(&format!("{says} on puzzle {}", puzzles[4])),
            "{symbol}: {message}"
        );
    }
}

/// Whether a process whose command line mentions `needle` is still running.
fn running(needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        std::fs::read(e.path().join("cmdline"))
            .map(|c| String::from_utf8_lossy(&c).contains(needle))
            .unwrap_or(false)
    })
}

#[test]
fn an_endless_call_times_out_and_its_worker_is_killed() {
    let puzzles = unique(6);
    let (_, message) = count_until_failure(
        &lib("sb_hang"),
        &puzzles,
        &["--config", "3", "--timeout", "0.5"],
    );
    assert!(
        message.ends_with(&format!(
            "no answer within 0.5 s: a call did not return (killed) on puzzle {}",
            puzzles[2]
        )),
        "{message}"
    );
    assert!(
        !running(&format!("{}\0sb_hang", library().display())),
        "the hung worker was left running"
    );
}

#[test]
fn impossible_answers_fail_the_backend() {
    let puzzles = unique(5);
    let (_, message) = count_until_failure(&lib("sb_over"), &puzzles, &["--config", "2"]);
    assert!(
        message.ends_with(&format!(
            "impossible answer: 2 solutions at limit 1; on puzzle {}",
            puzzles[1]
        )),
        "{message}"
    );
    let (_, message) = count_until_failure(&lib("sb_blank"), &puzzles, &[]);
    assert!(
        message.ends_with(&format!(
            "impossible answer: 1 solution(s) but no solution written (81 digits 1-9); on \
             puzzle {}",
            puzzles[0]
        )),
        "{message}"
    );
    // At limit 2 the worker asks again with limit 1 before it gives up.
    let out = sudobench(
        &["count", "--backend", &lib("sb_blank")],
        &(puzzles.join("\n") + "\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let first = lines(&out).remove(0);
    assert!(
        first.contains("not even when called again with limit 1 (which returned 1)"),
        "{first}"
    );
}

#[test]
fn wrong_grids_are_blamed_on_the_library_and_the_run_goes_on() {
    let (_dir, file) = unique_file(20);
    // Every 4th call, from the first, returns a grid with two cells swapped: calls 1, 5, 9,
    // 13 and 17, one per puzzle (it always writes its solution, so no second calls).
    let backend = lib("sb_wrong");
    let (out, rows) = bench(&format!("bitmask,{backend}"), &file, &["--config", "4"]);
    crate::common::assert_exit(&out, 1, "returned an invalid solution");
    assert_eq!(row(&rows, &backend)["mismatches"], 5);
    assert!(row(&rows, &backend)["fault"].is_null());
    assert_eq!(row(&rows, "bitmask")["mismatches"], 0);
}

#[test]
fn bench_goes_on_when_a_library_crashes() {
    let (_dir, file) = unique_file(30);
    let backend = lib("sb_abort");
    let (out, rows) = bench(&format!("{backend},bitmask"), &file, &["--config", "3"]);
    assert_eq!(out.status.code(), Some(1));
    let (ours, theirs) = (row(&rows, &backend), row(&rows, "bitmask"));
    assert!(
        ours["fault"]
            .as_str()
            .is_some_and(|f| f.contains("SIGABRT") && f.contains(" on puzzle ")),
        "{ours}"
    );
    // Every puzzle still counts: the failed library's are unknown.
    assert_eq!(ours["covered"], 30);
    assert!(ours["unknown"].as_u64().is_some_and(|u| u > 0), "{ours}");
    assert_eq!(ours["mismatches"], 0);
    assert_eq!(theirs["unique"], 30);
    assert!(theirs["fault"].is_null());
    let table = Command::new(env!("CARGO_BIN_EXE_sudobench"))
        .args([
            "bench",
            "--backends",
            &format!("{backend},bitmask"),
            "--config",
            "3",
        ])
        .arg(&file)
        .output()
        .expect("bench runs");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains(&format!("! {backend} failed: crashed")),
        "{text}"
    );
    assert_eq!(table.status.code(), Some(1));
}

#[test]
fn the_library_cannot_disturb_the_protocol_through_standard_streams() {
    // Configuration 4: every call prints a line on standard output and reads standard input.
    let input = unique(10).join("\n") + "\n";
    let want = sudobench(&["solve", "--backend", "basic"], &input);
    let got = sudobench(
        &["solve", "--backend", &lib("sb_solve"), "--config", "4"],
        &input,
    );
    assert_eq!(lines(&got), lines(&want));
    crate::common::assert_exit(&got, 0, "sb_solve was called");
}

#[test]
fn guess_counts_come_from_num_guesses_when_the_library_writes_it() {
    let (_dir, file) = unique_file(10);
    let backend = lib("sb_solve");
    let (_, counted) = bench(&backend, &file, &[]);
    assert!(counted[0]["guesses_per_puzzle"]
        .as_f64()
        .is_some_and(|g| g > 0.0));
    // Configuration 2: num_guesses left alone, so no guess figure at all (not 0).
    let (_, silent) = bench(&backend, &file, &["--config", "2"]);
    assert!(silent[0]["guesses_per_puzzle"].is_null(), "{}", silent[0]);
    assert!(silent[0]["no_guess_pct"].is_null(), "{}", silent[0]);
    // Configuration 1: the solution written at every limit (no second calls): same answers.
    let (out, filled) = bench(&format!("bitmask,{backend}"), &file, &["--config", "1"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(row(&filled, &backend)["unique"], 10);
}

#[test]
fn bad_library_names_are_usage_errors() {
    let input = format!("{}\n", unique(1)[0]);
    let lib_path = library().display().to_string();
    for (backend, says) in [
        (
            "lib:/no/such/libx.so:f".to_string(),
            "cannot load /no/such/libx.so: dlopen failed",
        ),
        (
            format!("lib:{lib_path}:no_such_function"),
            "no function no_such_function in",
        ),
        (format!("lib:{lib_path}"), "expected lib:PATH:SYMBOL"),
        ("lib::sb_solve".to_string(), "expected lib:PATH:SYMBOL"),
        (
            format!("lib:{lib_path}:sb-solve"),
            "is not a C function name",
        ),
    ] {
        let out = sudobench(&["count", "--backend", &backend], &input);
        assert_eq!(out.status.code(), Some(2), "{backend}");
        assert!(stderr(&out).contains(says), "{backend}: {}", stderr(&out));
    }
}

#[test]
fn the_library_api_runs_the_worker_it_is_told_to() {
    let puzzles: Vec<Puzzle> = unique(3)
        .iter()
        .map(|p| Puzzle::Grid(p.parse().expect("puzzle")))
        .collect();
    let name = lib("sb_solve");
    // The test binary is no sudobench: without `lib_worker` the handshake fails clearly.
    let not_worker = Options {
        lib_worker: Some(PathBuf::from("/bin/echo")),
        ..Options::default()
    };
    let err = sudobench::backends::build(&name, &not_worker)
        .err()
        .expect("echo is no worker");
    assert!(
        err.to_string().contains("is not a sudobench lib worker"),
        "{err}"
    );
    let options = Options {
        lib_worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_sudobench"))),
        ..Options::default()
    };
    let mut solver = sudobench::backends::build(&name, &options).expect("worker starts");
    let batch = solver.solve_batch(&puzzles, Limit::TWO, sudobench::solver::Clock::Wall);
    assert_eq!(batch.outcomes.len(), 3);
    for (p, o) in puzzles.iter().zip(&batch.outcomes) {
        assert_eq!(o.count(), Count::Exactly(1));
        let solution = o.solution().expect("a solution, from the second call");
        assert!(sudobench::verify::check_puzzle(p, solution).is_ok());
    }
    // The first batch reports the worker's start-up (it did start), apart from solving.
    assert!(!batch.startup.is_zero());
    assert!(batch.fault.is_none());
    let again = solver.solve_batch(&puzzles, Limit::TWO, sudobench::solver::Clock::Wall);
    assert!(again.startup.is_zero(), "start-up is reported once");
}

/// Lines of a data set's first `n` records.
fn data_lines(file: &str, n: usize) -> String {
    one_per_line(&crate::common::sample(file, n))
}

#[test]
fn an_outside_backend_alone_is_checked_by_a_built_in_referee() {
    let unique = data_lines("puzzles3_magictour_top1465.gz", 5);
    // `bench --backend lib:…` alone: a library answering 0 to everything is caught.
    let zero = lib("sb_zero");
    let out = sudobench(
        &["bench", "--backend", &zero, "--format", "csv", "-"],
        &unique,
    );
    assert_exit(&out, 1, "claimed no solution");
    // Trusted on request: nothing checks it, and nothing is found.
    let out = sudobench(
        &[
            "bench",
            "--backend",
            &zero,
            "--trust-outside",
            "--format",
            "csv",
            "-",
        ],
        &unique,
    );
    crate::common::assert_success(&out);
    // `solve --backend lib:…`: "unique" for puzzles with two or more solutions is refuted.
    let several = data_lines("puzzles7_serg_benchmark.gz", 3);
    let out = sudobench(&["solve", "--backend", &lib("sb_one")], &several);
    assert_eq!(out.status.code(), Some(1));
    let got = lines(&out);
    assert_eq!(got.len(), 3);
    assert!(
        got.iter()
            .all(|l| l.contains("claimed exactly one solution")),
        "{got:?}"
    );
    // `count` with an exec: program too; an honest one passes the check.
    let out = sudobench(
        &["count", "--backend", "exec:while read p l; do echo 0; done"],
        &unique,
    );
    assert_eq!(out.status.code(), Some(1));
    let out = sudobench(&["count", "--backend", &lib("sb_solve")], &unique);
    assert_eq!(lines(&out), vec!["1"; 5], "{}", stderr(&out));
}

#[test]
fn the_library_api_never_hands_the_worker_arguments_to_another_program() {
    // This test binary is not sudobench: it must not be run as the worker (another program,
    // a Python interpreter say, could take `lib-worker` for a file to run).
    let err = sudobench::backends::build(&lib("sb_solve"), &Options::default())
        .err()
        .expect("not a sudobench binary");
    assert!(
        err.to_string().contains("is not the sudobench binary"),
        "{err}"
    );
}

/// A unique 18-clue puzzle with exactly one redundant clue: the first 17-clue puzzle (minimal,
/// as every 17-clue puzzle is) with one more clue of its solution.
fn not_minimal() -> String {
    let line = data_lines("puzzles2_17_clue.gz", 1);
    let puzzle = line.trim();
    let out = sudobench(&["solve"], &format!("{puzzle}\n"));
    let solution = lines(&out)[0].clone();
    let cell = puzzle.find('.').expect("an empty cell");
    let mut more = puzzle.as_bytes().to_vec();
    more[cell] = solution.as_bytes()[cell];
    String::from_utf8(more).expect("ascii")
}

#[test]
fn verify_minimal_judges_the_smaller_puzzles() {
    let puzzle = format!("{}\n", not_minimal());
    // The library claims 2+ without a second solution below 18 clues: every smaller puzzle
    // would look ambiguous. The referee checks those claims, and the redundant clue is found.
    let liar = lib("sb_two_below");
    // Cross-checked too, even when the outside backend is trusted.
    for extra in [&[][..], &["--cross-check", "--trust-outside"]] {
        let mut args = vec!["verify", "--minimal"];
        args.extend(extra);
        args.extend(["--backend", &liar, "--config", "18", "-"]);
        let out = sudobench(&args, &puzzle);
        assert_exit(&out, 1, "not minimal: 1 redundant clue");
    }
    // "1" everywhere: the smaller puzzles' 2+ is shown by the referee; nothing is called
    // redundant, and the lies are mismatches.
    let minimal = data_lines("puzzles2_17_clue.gz", 1);
    let out = sudobench(
        &["verify", "--minimal", "--backend", &lib("sb_one"), "-"],
        &minimal,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("0 not minimal"), "{err}");
    assert!(err.contains("17 mismatches"), "{err}");
}

#[test]
fn verify_writes_what_the_judge_accepts_not_refuted_claims() {
    // Kaggle puzzles come with verified solutions: a library's 0 is refuted by them.
    let kaggle = root().join("data/puzzles0_kaggle.csv.gz");
    let text: String = std::iter::once("quizzes,solutions\n".to_string())
        .chain(
            sudobench::format::Reader::open(kaggle.to_str().expect("path"))
                .expect("data")
                .take(3)
                .map(|r| {
                    let r = r.expect("record");
                    format!("{},{}\n", r.puzzle.to_line(), r.expected.expect("solution"))
                }),
        )
        .collect();
    let zero = lib("sb_zero");
    let out = sudobench(&["verify", "--backend", &zero, "-"], &text);
    let got = lines(&out);
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(
        got[1..].iter().all(|l| l.ends_with(",mismatch,")),
        "{got:?}"
    );
    let out = sudobench(
        &["verify", "--backend", &zero, "--format", "json", "-"],
        &text,
    );
    for l in lines(&out) {
        assert!(l.contains("\"count\":\"mismatch\""), "{l}");
        assert!(l.contains("\"mismatch\":\"lib:"), "{l}");
    }
    // With --cross-check a refuted "1" is not written with its grid: sat's 2+ stands.
    let several = data_lines("puzzles7_serg_benchmark.gz", 2);
    let out = sudobench(
        &["verify", "--cross-check", "--backend", &lib("sb_one"), "-"],
        &several,
    );
    let got = lines(&out);
    assert!(got[1..].iter().all(|l| l.ends_with(",2+,")), "{got:?}");
    assert_eq!(out.status.code(), Some(1));
}
