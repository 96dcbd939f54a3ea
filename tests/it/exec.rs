//! The external-program backend through the CLI: the example programs in Rust and Python give
//! the same answers as `basic`, and a program that lies, crashes, hangs or prints garbage is
//! reported with file and line while the run goes on.

use crate::common::EASY;

use crate::common::lines;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `exec_solver` example, built by `cargo test` next to the test binaries.
fn example() -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let path = dir.join("examples").join("exec_solver");
    assert!(
        path.exists(),
        "{} missing: cargo test builds examples",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

fn sudobench(args: &[&str], stdin: &str) -> Output {
    crate::common::run(args, stdin.as_bytes())
}

/// The first 60 puzzles of magictour plus a no-solution and a multi-solution puzzle.
fn sample() -> String {
    let mut text = String::new();
    let reader = sudobench::format::Reader::open(
        root()
            .join("data/puzzles3_magictour_top1465.gz")
            .to_str()
            .expect("path"),
    )
    .expect("data opens");
    for r in reader.take(60) {
        text.push_str(&r.expect("record").puzzle.to_string());
        text.push('\n');
    }
    text.push_str(&format!("5...5....{}\n", ".".repeat(72)));
    text.push_str(&format!("{}\n", ".".repeat(81)));
    text
}

#[test]
fn rust_example_agrees_with_basic() {
    let input = sample();
    let want = sudobench(&["solve", "--backend", "basic"], &input);
    let backend = format!("exec:{}", example());
    let got = sudobench(&["solve", "--backend", &backend], &input);
    assert_eq!(lines(&got), lines(&want));
    assert_eq!(got.status.code(), want.status.code());
    let counted = sudobench(&["count", "--backend", &backend], &input);
    let lines = lines(&counted);
    assert_eq!(lines[60..], ["0", "2+"]);
}

#[test]
fn python_example_agrees_with_basic() {
    // The plain Python backtracker is slow on hard puzzles: the easy one, a few from the
    // magictour list and the two special cases.
    let all: Vec<String> = sample().lines().map(str::to_string).collect();
    let mut input = format!("{EASY}\n");
    for line in all[..3].iter().chain(&all[60..]) {
        input.push_str(line);
        input.push('\n');
    }
    let want = sudobench(&["count", "--backend", "basic"], &input);
    let got = sudobench(
        &["count", "--backend", "exec:python3 scripts/exec_solver.py"],
        &input,
    );
    assert_eq!(lines(&got), lines(&want));
    assert!(!lines(&got).is_empty());
}

#[test]
fn lying_program_is_flagged() {
    let input = format!("{EASY}\n").repeat(6);
    let backend = format!("exec:{} --wrong 3", example());
    let out = sudobench(&["solve", "--backend", &backend], &input);
    let lines = lines(&out);
    assert_eq!(lines.len(), 6);
    // The program's first line is the warm-up, so its every third answer falls on the
    // puzzles 2, 5 and so on.
    for (i, line) in lines.iter().enumerate() {
        if i % 3 == 1 {
            assert!(
                line.starts_with(&format!("error: -:{}: exec:", i + 1))
                    && line.contains("returned an invalid solution"),
                "{line}"
            );
        } else {
            assert_eq!(line.len(), 81, "{line}");
        }
    }
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn crashing_hanging_and_garbage_programs_are_reported() {
    let input = format!("{EASY}\n{EASY}\n");
    for (program, says) in [
        ("exec:exit 3", "program ended"),
        ("exec:sleep 30", "no answer within"),
        ("exec:yes garbage", "unreadable answer \"garbage\""),
    ] {
        let out = sudobench(&["solve", "--backend", program, "--timeout", "0.5"], &input);
        let lines = lines(&out);
        assert_eq!(lines.len(), 2, "{program}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!("error: -:1: backend {program} failed: "))
                && lines[0].contains(says),
            "{program}: {}",
            lines[0]
        );
        // A later line names its own place and points to where the backend failed.
        assert_eq!(
            lines[1], "error: -:2: no answer: the backend failed at -:1",
            "{program}"
        );
        assert_eq!(out.status.code(), Some(1));
    }
}

#[test]
fn bench_flags_a_lying_program_beside_the_builtins() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sample.txt");
    std::fs::write(&file, sample()).expect("write sample");
    let backends = format!("bitmask,exec:{} --wrong 5", example());
    let out = Command::new(env!("CARGO_BIN_EXE_sudobench"))
        .args(["bench", "--backends", &backends, "--format", "csv"])
        .arg(&file)
        .current_dir(root())
        .output()
        .expect("bench runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("exec:"), "{stderr}");
    let csv = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "header + one row per backend: {csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "mismatches")
        .expect("mismatches column");
    let mismatches = |row: &str| -> u64 {
        row.split(',')
            .nth(col)
            .and_then(|v| v.parse().ok())
            .expect("count")
    };
    let exec_row = lines
        .iter()
        .find(|l| l.contains("exec:"))
        .expect("exec row");
    let builtin_row = lines
        .iter()
        .find(|l| l.contains("bitmask") && !l.contains("exec:"))
        .expect("bitmask row");
    // 62 records, every 5th answer corrupted: 12 wrong answers, all blamed on the program.
    assert_eq!(mismatches(exec_row), 12, "{csv}");
    assert_eq!(mismatches(builtin_row), 0, "{csv}");
}

#[test]
fn bench_names_a_program_that_failed_and_exits_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sample.txt");
    std::fs::write(&file, sample()).expect("write sample");
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_sudobench"))
            .args([
                "bench",
                "--backends",
                "bitmask,exec:exit 3",
                "--format",
                format,
            ])
            .arg(&file)
            .current_dir(root())
            .output()
            .expect("bench runs")
    };
    let table = run("table");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("! exec:exit 3 failed: ") && text.contains("program ended"),
        "{text}"
    );
    assert_eq!(table.status.code(), Some(1));
    let json = run("json");
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["fault"].is_null(), "{}", rows[0]);
    assert!(
        rows[1]["fault"]
            .as_str()
            .is_some_and(|f| f.contains("program ended")),
        "{}",
        rows[1]
    );
    // Every puzzle is counted: the failed program answered `unknown` for all 62.
    assert_eq!(rows[1]["covered"], 62);
    assert_eq!(rows[1]["unknown"], 62);
    assert_eq!(json.status.code(), Some(1));
    // CSV: no value is an empty field (a backend that does not count guesses), never `null`.
    let csv = run("csv");
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(!csv.contains("null"), "{csv}");
}

/// JSON rows of `bench --format json` keyed by backend name.
fn bench_rows(backends: &str, file: &std::path::Path) -> (Output, Vec<serde_json::Value>) {
    crate::common::bench_json(&["--backends", backends], file)
}

fn mismatches_of(rows: &[serde_json::Value], backend: &str) -> u64 {
    rows.iter()
        .find(|r| r["backend"] == backend)
        .and_then(|r| r["mismatches"].as_u64())
        .unwrap_or_else(|| panic!("no row for {backend}: {rows:?}"))
}

/// The judge issue's cases: liars that claim 0, liars that claim a second solution they cannot
/// show, two liars, in every order beside a correct backend. The correct one is never charged,
/// each liar is charged with every puzzle it lied on, and the JSON says so.
#[test]
fn lying_programs_never_outvote_a_correct_backend() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("sample.txt");
    // 60 unique puzzles, one without a solution, one with many.
    std::fs::write(&file, sample()).expect("write sample");
    let zero = "exec:while read p l; do echo 0; done";
    // Copies the first solution of the example and claims a second one it does not show.
    let two = format!(
        "exec:{} | while read c s g; do if [ \"$c\" = 1 ]; then echo 2 $s; else echo $c $s; fi; done",
        example()
    );
    let zero2 = "exec:while read p l; do echo 0; done # another";
    // Each line-up, and how many puzzles each liar in it lies on.
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, u64)>);
    let cases: Vec<Case> = vec![
        (vec![zero, "bitmask"], vec![(zero, 61)]),
        (vec![&two, "bitmask"], vec![(&two, 60)]),
        (vec![zero, zero2, "bitmask"], vec![(zero, 61), (zero2, 61)]),
        (vec![zero, &two, "bitmask"], vec![(zero, 61), (&two, 60)]),
    ];
    for (lineup, liars) in cases {
        for rotation in 0..lineup.len() {
            let mut names = lineup.clone();
            names.rotate_left(rotation);
            let mut args = Vec::new();
            for n in &names {
                args.push(n.to_string());
            }
            let (out, rows) = bench_rows(&args.join(","), &file);
            assert_eq!(out.status.code(), Some(1), "{names:?}");
            assert_eq!(mismatches_of(&rows, "bitmask"), 0, "{names:?}: {rows:?}");
            for (liar, lies) in &liars {
                assert_eq!(mismatches_of(&rows, liar), *lies, "{liar} in {names:?}");
            }
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("bitmask claimed"), "{stderr}");
        }
    }
}

/// `count` judges an external answer like `bench` does: `0` with a grid is not an answer.
#[test]
fn count_rejects_what_bench_rejects() {
    let sol = "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
    let backend = format!("exec:while read p l; do echo 0 {sol}; done");
    let out = sudobench(&["count", "--backend", &backend], &format!("{EASY}\n"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("error: -:1:"), "{text}");
    assert!(
        text.contains("a count of 0 comes with no solution"),
        "{text}"
    );
}

/// Two puzzles without a solution, then two unique ones.
fn none_none_unique_unique() -> String {
    let none = format!("5...5....{}", ".".repeat(72));
    let unique = &sample().lines().map(str::to_string).collect::<Vec<_>>()[..2];
    format!("{none}\n{none}\n{}\n{}\n", unique[0], unique[1])
}

/// A program that prints every answer twice has its answers out of step: the second copy of
/// the first `0` would be taken for the second puzzle's answer, and so on. The extra lines
/// are found, the backend fails, and no out-of-step answer is printed as a count.
#[test]
fn answers_beyond_the_puzzles_sent_fail_the_backend() {
    let input = none_none_unique_unique();
    for twice in [
        format!("exec:{} | sed -u p", example()),
        "exec:python3 scripts/exec_solver.py | while read a; do echo \"$a\"; echo \"$a\"; done"
            .to_string(),
    ] {
        let out = sudobench(&["count", "--backend", &twice], &input);
        let lines = lines(&out);
        assert_eq!(out.status.code(), Some(1), "{twice}: {lines:?}");
        assert_eq!(lines.len(), 4, "{lines:?}");
        // Only a right count may stand, and an error for the rest.
        for (line, right) in lines.iter().zip(["0", "0", "1", "1"]) {
            assert!(
                line == right || line.starts_with("error: "),
                "{twice}: {lines:?}"
            );
        }
        let failure = lines
            .iter()
            .find(|l| l.contains(" failed: "))
            .unwrap_or_else(|| panic!("{twice}: no failure in {lines:?}"));
        assert!(
            failure.contains("more answers than puzzles sent"),
            "{failure}"
        );
    }
}

/// A program that writes one endless line is stopped once the line passes 64 KiB, long
/// before the timeout, and the error says so.
#[test]
fn an_endless_answer_line_is_cut_at_64_kib() {
    let out = sudobench(
        &[
            "count",
            "--backend",
            "exec:yes | tr -d '\\n'",
            "--timeout",
            "120",
        ],
        &format!("{EASY}\n{EASY}\n"),
    );
    let lines = lines(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        lines[0].contains("answer line longer than 64 KiB: the program wrote")
            && lines[0].contains("bytes without a newline"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "error: -:2: no answer: the backend failed at -:1");
}
