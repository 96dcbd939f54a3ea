//! The second hostile-user pass (issue "a hang, a security hole, and claims that still get
//! through"): every budget holds, also for the referee and in the middle of a puzzle; outside
//! claims are checked; `verify` writes only what the judge accepts; the reader keeps every
//! record; argument errors say what is wrong.

use crate::common::{run, run_in, EASY, EASY_SOLUTION};
use std::time::Duration;
use sudobench::grid::Candidates;
use sudobench::runner::{Backend, Config, NoObserver, Runner};
use sudobench::solver::{Count, Limit, Options, Outcome, Solver, Stats};
use sudobench::{Grid, Puzzle};

/// A pencilmark position with two solutions on which `basic` (no propagation) needs tens of
/// millions of nodes and `bitmask` a handful.
pub const SLOW_FOR_BASIC: &str = "12.4567..1234.6......4.678..23456..9.23.567891.3...78..234...891234.6.8912..56789.23..678.123.5.78..2345...912.456.8.1.34.67.91.3.56..91.3..67.91..4..7.91.3...78.12.45...9..3.56.89123....8.1.3456.891..456.8..234.6..91...5.7891.3.5678.12..567..12.4.6.8..234567..1...567.912....789.23..678912...678.1..45.78.12345.7..1.34..78912.4..78..234.6.89..3456.8912.4.6.89..3456...123..67..1.345.78.1.34..7891234...8..23..67..1234.67....3.567.9.23.5.7.9.234.6.89..345.78..234.678..2.456.8..23..6789..34..7.9.2...678.1..456.891..456789..34.6.8912..567.9123....891..4.6.8912.45.78..23456.8.....5.7891.3.5.78.12.4.6.8.1.34567...234..7891.34.6..912345.78.1.3.56.89123.567.9...456.89123456.8..2.4...89.2.456.89..34.678.12.4567....345.78.....56789";

/// The first solution of [`SLOW_FOR_BASIC`], found by `bitmask`.
fn slow_solution() -> String {
    let puzzle = Puzzle::Candidates(Candidates::from_bytes(SLOW_FOR_BASIC.as_bytes()).unwrap());
    let mut bitmask = sudobench::backends::build("bitmask", &Options::default()).unwrap();
    let out = bitmask.solve(&puzzle, Limit::TWO);
    assert_eq!(out.count(), Count::AtLeast(2));
    out.solution().unwrap().to_string()
}

/// Two `exec:` programs disputing `1` against a `2+` without a second solution.
fn disputing_programs(solution: &str) -> String {
    format!(
        "exec:while read p l; do echo 1 {solution}; done,exec:while read p l; do echo 2 {solution}; done"
    )
}

fn csv_rows(stdout: &[u8]) -> Vec<std::collections::HashMap<String, String>> {
    let text = String::from_utf8_lossy(stdout);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("csv header").split(',').collect();
    lines
        .map(|l| {
            // The backend names hold no commas here.
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let path = path.to_string_lossy().into_owned();
    (dir, path)
}

#[test]
fn the_referee_is_a_fast_backend_and_works_under_max_nodes() {
    let solution = slow_solution();
    let (_dir, file) = temp_file("slow.txt", &format!("{SLOW_FOR_BASIC}\n"));
    let backends = disputing_programs(&solution);
    // No budget: bitmask, not the slow oracle, settles it (the 2+ stands).
    let out = run(
        &["bench", "--backends", &backends, "--format", "csv", &file],
        b"",
    );
    let rows = csv_rows(&out.stdout);
    assert_eq!(rows[0]["referee"], "bitmask", "{rows:?}");
    assert_eq!(
        (rows[0]["refereed"].as_str(), rows[0]["unsettled"].as_str()),
        ("1", "0")
    );
    // One node: the referee cannot finish, and the dispute is unsettled, nobody blamed.
    let out = run(
        &[
            "bench",
            "--backends",
            &backends,
            "--max-nodes",
            "1",
            "--format",
            "csv",
            &file,
        ],
        b"",
    );
    let rows = csv_rows(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        (rows[0]["refereed"].as_str(), rows[0]["unsettled"].as_str()),
        ("0", "1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("referee bitmask could not settle it"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// The CSV rows of `bench --backends basic` on `file` under one budget flag and its value.
fn basic_bench(file: &str, budget: [&str; 2]) -> Vec<std::collections::HashMap<String, String>> {
    let args = [
        "bench",
        "--backends",
        "basic",
        "--format",
        "csv",
        budget[0],
        budget[1],
        file,
    ];
    csv_rows(&run(&args, b"").stdout)
}

#[test]
fn a_time_budget_stops_a_puzzle_in_progress() {
    let (_dir, file) = temp_file("slow.txt", &format!("{SLOW_FOR_BASIC}\n{EASY}\n"));
    let rows = basic_bench(&file, ["--time-budget", "0.2"]);
    // Tens of millions of nodes do not fit in 0.2 s: the search is stopped, its answer is
    // unknown, and the backend goes no further.
    assert_eq!(rows[0]["unknown"], "1", "{rows:?}");
    assert_eq!(rows[0]["budget_spent"], "true", "{rows:?}");
    assert_eq!(rows[0]["covered"], "1", "{rows:?}");
}

#[test]
fn a_time_limit_per_puzzle_stops_that_puzzle_only() {
    let (_dir, file) = temp_file("slow.txt", &format!("{SLOW_FOR_BASIC}\n{EASY}\n"));
    let limited = ["--backend", "basic", "--max-seconds", "0.2"];
    let out = run(&[&["count"][..], &limited, &[&file]].concat(), b"");
    // The slow puzzle is given up after 0.2 s; the next one still gets its own time.
    assert_eq!(crate::common::lines(&out), ["unknown", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&[&["solve"][..], &limited, &[&file]].concat(), b"");
    assert_eq!(crate::common::lines(&out), ["unknown", EASY_SOLUTION]);
    // In bench it makes an unknown, not a spent budget: the backend goes on.
    let rows = basic_bench(&file, ["--max-seconds", "0.2"]);
    assert_eq!(rows[0]["unknown"], "1", "{rows:?}");
    assert_eq!(rows[0]["budget_spent"], "false", "{rows:?}");
    assert_eq!(rows[0]["covered"], "2", "{rows:?}");
    // The table's header names the budgets per puzzle.
    let args = [
        "bench",
        "--backends",
        "basic",
        "--max-nodes",
        "1000",
        "--max-seconds",
        "0.2",
    ];
    let out = run(&[&args[..], &[&file]].concat(), b"");
    let table = crate::common::stdout(&out);
    assert!(
        table.contains(", at most 1,000 nodes and 0.2 s per puzzle,"),
        "{table}"
    );
    // An outside backend's calls are bounded by --timeout: the limit is refused, not ignored.
    let out = run(
        &[
            "count",
            "--backend",
            "exec:cat",
            "--max-seconds",
            "1",
            &file,
        ],
        b"",
    );
    crate::common::assert_exit(
        &out,
        2,
        "an outside backend's calls are bounded by its timeout",
    );
    for bad in ["0", "-1", "soon", "1e20"] {
        let out = run(&["count", &format!("--max-seconds={bad}"), &file], b"");
        crate::common::assert_exit(&out, 2, "is not a positive number of seconds below");
    }
}

/// A backend that always answers the same.
struct Fixed {
    answer: Outcome,
}

impl Solver for Fixed {
    fn solve(&mut self, _: &Puzzle, _: Limit) -> Outcome {
        self.answer.clone()
    }
}

#[test]
fn the_referee_works_under_its_time_per_dispute() {
    let solution: Grid = EASY_SOLUTION.parse().unwrap();
    let found = |n: u32| {
        Outcome::claimed(n, Limit::TWO, Some(solution), None, Stats::default())
            .expect("a possible claim")
    };
    let (one, two) = (found(1), found(2));
    let backends = || {
        let (one, two) = (one.clone(), two.clone());
        vec![
            Backend::new("one", true, move || Fixed {
                answer: one.clone(),
            }),
            Backend::new("two", true, move || Fixed {
                answer: two.clone(),
            }),
        ]
    };
    let text = format!("{EASY}\n");
    let run_with = |time: Option<Duration>| {
        let config = Config {
            referee_time: time,
            ..Config::default()
        };
        let reader =
            sudobench::format::Reader::new("t", std::io::Cursor::new(text.clone().into_bytes()));
        Runner::new(config, backends())
            .run_items("t", reader, None, &mut NoObserver)
            .unwrap()
    };
    let set = run_with(None);
    assert_eq!((set.refereed, set.unsettled), (1, 0));
    assert_eq!(
        set.backends[1].mismatches, 1,
        "the witnessless 2+ is overruled"
    );
    // No time at all: the referee stops at its first node and settles nothing.
    let set = run_with(Some(Duration::ZERO));
    assert_eq!((set.refereed, set.unsettled), (0, 1));
    assert_eq!(set.backends[0].mismatches + set.backends[1].mismatches, 0);
}

#[test]
fn undecided_minimality_is_not_called_not_minimal() {
    let path = format!("{}/data/puzzles2_17_clue.gz", env!("CARGO_MANIFEST_DIR"));
    let text: String = sudobench::format::Reader::open(&path)
        .unwrap()
        .take(20)
        .map(|r| format!("{}\n", r.unwrap().puzzle))
        .collect();
    // Ten nodes decide most 17-clue puzzles but few of their smaller puzzles.
    let out = run(
        &["verify", "--minimal", "--max-nodes", "10", "-"],
        text.as_bytes(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("0 not minimal"), "{stderr}");
    assert!(stderr.contains("minimality undecided"), "{stderr}");
    assert!(!stderr.contains(", 0 minimality undecided"), "{stderr}");
    assert_eq!(out.status.code(), Some(1));
    // With threads, the same lines.
    let threaded = run(
        &[
            "verify",
            "--minimal",
            "--max-nodes",
            "10",
            "--threads",
            "2",
            "-",
        ],
        text.as_bytes(),
    );
    assert_eq!(threaded.stdout, out.stdout);
    assert_eq!(threaded.stderr, out.stderr);
}

fn items(text: &str) -> Vec<sudobench::format::Item> {
    sudobench::format::Reader::new("t.csv", std::io::Cursor::new(text.as_bytes().to_vec()))
        .collect()
}

#[test]
fn a_malformed_first_row_is_a_record_with_an_error_not_a_header() {
    let row = format!("{EASY},{EASY_SOLUTION}\n");
    let bad_first = format!("{},{EASY_SOLUTION}\n", &EASY[1..]);
    for first in [bad_first.as_str(), "foo,bar\n"] {
        let got = items(&format!("{first}{row}{row}"));
        assert_eq!(got.len(), 3, "{first}: {got:?}");
        assert!(got[0].is_err(), "{first}: {got:?}");
        assert!(got[1..]
            .iter()
            .all(|i| i.as_ref().is_ok_and(|r| r.expected.is_some())));
    }
    // A real header is still one.
    let got = items(&format!("quizzes,solutions\n{row}"));
    assert_eq!(got.len(), 1);
}

#[test]
fn a_lone_carriage_return_is_never_swallowed() {
    let text = format!("{EASY}\r{EASY}\r{EASY}\r");
    let got = items(&text);
    assert!(
        !got.iter().any(|i| i.is_ok()),
        "nothing read as a record with metadata: {got:?}"
    );
    let err = got[0].as_ref().expect_err("an error").to_string();
    assert!(err.contains("carriage return"), "{err}");
    // CRLF is fine.
    let got = items(&format!("{EASY}\r\n{EASY}\r\n"));
    assert_eq!(got.iter().filter(|i| i.is_ok()).count(), 2);
    // A CR-only file starting with a comment is not one long comment.
    let got = items(&format!("# comment\r{EASY}\r"));
    assert_eq!(got.len(), 1);
    assert!(got[0].is_err());
}

/// `verify`, `grade` and `cnf --out` answer a puzzle on standard input while the input is
/// still open (a person or a program waiting for each answer).
#[test]
fn verify_grade_and_cnf_answer_stdin_as_it_arrives() {
    use std::io::{BufRead, BufReader, Write};
    use std::sync::mpsc;
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("cnf");
    let out_dir = out_dir.to_str().unwrap();
    for args in [
        &["verify", "-"][..],
        &["grade", "-"],
        &["grade", "--format", "csv", "-"],
        &["cnf", "--out", out_dir, "--force"],
    ] {
        let mut child = crate::common::spawn_in(dir.path(), args);
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        writeln!(stdin, "{EASY}").unwrap();
        stdin.flush().unwrap();
        // A guard against a hang, not a timing figure.
        let wait = Duration::from_secs(30);
        let mut got = Vec::new();
        // The answer line: verify's `…,1,SOLUTION`, grade's `-:1 …` or `-,1,…`, cnf's file.
        while !got
            .iter()
            .any(|l: &String| l.contains(",1,") || l.starts_with("-:1 ") || l.contains(".cnf "))
        {
            match rx.recv_timeout(wait) {
                Ok(line) => got.push(line),
                Err(_) => panic!("{args:?}: no answer while input is open: {got:?}"),
            }
        }
        drop(stdin);
        child.wait().unwrap();
        reader.join().unwrap();
    }
}

/// `verify … | head -1`: a closed output stops the run.
#[test]
fn verify_stops_when_its_output_closes() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = crate::common::spawn_in(std::path::Path::new("."), &["verify", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    // Endless input, until the program stops reading.
    let feeder = std::thread::spawn(move || {
        let block = format!("{EASY}\n").repeat(1000);
        while stdin.write_all(block.as_bytes()).is_ok() {}
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "puzzle,count,solution");
    drop(stdout);
    // It ends by itself (the feeder sees a broken pipe and ends too).
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    assert!(status.code().is_some(), "{status:?}");
}

#[test]
fn generate_checks_clue_ranges_before_searching() {
    for clues in ["81", "50..60", "41.."] {
        let out = run(&["generate", "-n", "1", "--clues", clues], b"");
        assert_eq!(out.status.code(), Some(2), "{clues}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no minimal puzzle has that many clues"),
            "{stderr}"
        );
    }
}

#[test]
fn argument_errors_say_what_is_wrong() {
    let say = |args: &[&str], wanted: &str| {
        let out = run(args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
    };
    say(&["count", "--limit", "4294967296"], "too large");
    say(&["count", "--limit", "99999999999999999999"], "too large");
    say(
        &["count", "--limit", "3.5"],
        "not a whole number of at least 1",
    );
    say(
        &["bench", "--time-budget", "-1", "x"],
        "--time-budget -1: must be",
    );
    say(&["solve", "--threads", "65535"], "1..=256");
    say(&["bench", "--sample", "0", "x"], "--sample");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("exists");
    std::fs::write(&file, "").unwrap();
    let out = run_in(
        dir.path(),
        &["count", "--backend", "sat", "--proof", "exists"],
        format!("{EASY}\n").as_bytes(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("File exists").count(), 1, "{stderr}");
    assert!(stderr.contains("proof directory"), "{stderr}");
}

#[test]
fn a_single_mismatch_and_dispute_are_singular() {
    let solution = slow_solution();
    let (_dir, file) = temp_file("slow.txt", &format!("{SLOW_FOR_BASIC}\n"));
    let out = run(
        &["bench", "--backends", &disputing_programs(&solution), &file],
        b"",
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("1 MISMATCH,") || text.contains("1 MISMATCH "),
        "{text}"
    );
    assert!(text.contains("1 dispute settled"), "{text}");
    assert!(text.contains("1 mismatch (see above)"), "{text}");
    assert!(
        !text.contains("1 MISMATCHES") && !text.contains("1 disputes"),
        "{text}"
    );
}

/// `cnf` writing one large formula to a reader that stops early (as `| head` does) ends
/// quietly with exit 0, as every command does on a closed pipe.
#[test]
fn cnf_to_a_reader_that_stops_early_is_no_error() {
    use std::io::Read;
    let empty64 = vec!["0"; 4096].join(" ");
    let (_dir, path) = temp_file("empty64.txt", &format!("{empty64}\n"));
    let mut child = crate::common::spawn_in(std::path::Path::new("."), &["cnf", &path]);
    drop(child.stdin.take());
    let mut stdout = child.stdout.take().expect("stdout pipe");
    let mut start = [0u8; 100];
    stdout.read_exact(&mut start).expect("the formula starts");
    assert!(start.starts_with(b"c sudobench puzzle"));
    drop(stdout);
    let out = child.wait_with_output().expect("binary finishes");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&out)
    );
    assert_eq!(crate::common::stderr(&out), "");
}
