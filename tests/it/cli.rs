//! End-to-end tests of `sudobench bench` and `sudobench verify`: counts, errors with line
//! numbers, exit codes, machine-readable output, threads.

use flate2::write::GzEncoder;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{data, stderr, stdout};
use crate::common::{CLASH as NONE, EASY as UNIQUE, EASY_SOLUTION as SOLVED, OPEN, OPEN_A, OPEN_B};

const BIN: &str = env!("CARGO_BIN_EXE_sudobench");
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// The empty grid: many solutions.
fn multi() -> String {
    ".".repeat(81)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("run sudobench")
}

/// The mixed file: comment, unique, multi, none, two malformed lines, hard, blank.
fn mixed(dir: &Path) -> (PathBuf, PathBuf) {
    let text = format!(
        "# a mixed file\n{UNIQUE}\n{}\n{NONE}\n12345\n{}x\n{HARD}\n\n",
        multi(),
        &HARD[..80]
    );
    let plain = dir.join("mixed.txt");
    std::fs::write(&plain, &text).unwrap();
    let gz = dir.join("mixed.txt.gz");
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    (plain, gz)
}

/// `bench --backends BACKENDS --format FORMAT FILE`.
fn bench_as(backends: &str, format: &str, file: &str) -> Output {
    run(&["bench", "--backends", backends, "--format", format, file])
}

fn json_rows(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn verify_gives_counts_errors_with_lines_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, gz) = mixed(dir.path());
    let hard_solution = {
        let mut c = Command::new(BIN)
            .args(["solve", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin
            .take()
            .unwrap()
            .write_all(format!("{HARD}\n").as_bytes())
            .unwrap();
        stdout(&c.wait_with_output().unwrap()).trim().to_string()
    };
    for file in [&plain, &gz] {
        let o = run(&["verify", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let expected = format!(
            "puzzle,count,solution\n{},1,{SOLVED}\n{},2+,\n{NONE},0,\n{HARD},1,{hard_solution}\n",
            UNIQUE.replace('0', "."),
            multi()
        );
        assert_eq!(stdout(&o), expected);
        let err = stderr(&o);
        let name = file.display();
        assert!(
            err.contains(&format!("{name}:5: puzzle has 5 characters")),
            "{err}"
        );
        assert!(
            err.contains(&format!("{name}:6: puzzle illegal character 'x'")),
            "{err}"
        );
        assert!(
            err.contains("4 puzzles: 2 unique, 1 multiple, 1 no solution, 0 unknown; 2 malformed"),
            "{err}"
        );
    }

    // Only unique, well-formed puzzles: exit 0; JSON lines parse.
    let good = dir.path().join("good.txt");
    std::fs::write(&good, format!("{UNIQUE}\n{HARD}\n")).unwrap();
    let o = run(&[
        "verify",
        "--format",
        "json",
        "--cross-check",
        good.to_str().unwrap(),
    ]);
    crate::common::assert_success(&o);
    let rows = json_rows(&stdout(&o));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["count"], "1");
    assert_eq!(rows[0]["solution"], SOLVED);
    assert_eq!(rows[1]["line"], 2);

    // Usage errors: exit 2.
    let o = run(&["verify", "--backend", "nosuch", good.to_str().unwrap()]);
    crate::common::assert_exit(&o, 2, "unknown backend");
    // A missing file: exit 1 with the file named.
    let o = run(&["verify", "/no/such/file.gz"]);
    crate::common::assert_exit(&o, 1, "/no/such/file.gz");
}

#[test]
fn bench_json_has_one_record_per_set_and_backend_with_the_right_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, gz) = mixed(dir.path());
    let o = run(&[
        "bench",
        "--backends",
        "basic,dlx",
        "--format",
        "json",
        plain.to_str().unwrap(),
        gz.to_str().unwrap(),
    ]);
    // Malformed lines make the run fail, after it finished.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let rows = json_rows(&stdout(&o));
    assert_eq!(rows.len(), 4, "2 sets × 2 backends");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["backend"], ["basic", "dlx"][i % 2]);
        assert_eq!(r["covered"], 4);
        assert_eq!(r["total"], 4);
        assert_eq!(
            (&r["unique"], &r["multiple"], &r["none"], &r["unknown"]),
            (&2.into(), &1.into(), &1.into(), &0.into())
        );
        assert_eq!(r["parse_errors"], 2);
        assert_eq!(r["mismatches"], 0);
        assert!(r["puzzles_per_sec"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(rows[0]["set"], "mixed.txt");
    assert_eq!(rows[2]["set"], "mixed.txt");
    assert!(rows[2]["source"].as_str().unwrap().ends_with(".gz"));
    assert!(stderr(&o).contains("mixed.txt:5: puzzle has 5 characters"));

    // CSV: header plus one row per (set, backend).
    let o = bench_as("basic", "csv", plain.to_str().unwrap());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("set,source,backend,complete,puzzles_per_sec,us_per_puzzle"));
}

#[test]
fn a_wrong_expected_solution_is_a_mismatch_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut wrong = SOLVED.as_bytes().to_vec();
    wrong.swap(0, 1);
    let file = dir.path().join("k.csv");
    std::fs::write(
        &file,
        format!(
            "quizzes,solutions\n{UNIQUE},{SOLVED}\n{UNIQUE},{}\n",
            String::from_utf8(wrong).unwrap()
        ),
    )
    .unwrap();
    let o = bench_as("basic", "json", file.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("k.csv:3: mismatch"), "{err}");
    assert!(
        err.contains("expected solution") && err.contains("is invalid"),
        "{err}"
    );
    assert!(err.contains("basic"), "{err}");
    let rows = json_rows(&stdout(&o));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["parse_errors"], 0);
    // The file's error is counted in the machine output, and not charged to the backend.
    assert_eq!(rows[0]["data_errors"], 1);
    assert_eq!(rows[0]["set_mismatches"], 1);
    assert_eq!(rows[0]["mismatches"], 0);
}

#[test]
fn solve_and_count_judge_expected_solutions_like_bench() {
    let dir = tempfile::tempdir().unwrap();
    let mut wrong = OPEN_A.as_bytes().to_vec();
    wrong.swap(9, 10);
    let wrong = String::from_utf8(wrong).unwrap();
    let file = dir.path().join("k.csv");
    // Line 2: a valid expected solution of a two-solution puzzle; line 3: an invalid one.
    std::fs::write(
        &file,
        format!("quizzes,solutions\n{OPEN},{OPEN_B}\n{OPEN},{wrong}\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    // `count` checks the expected solution even when the puzzle has two or more.
    let o = run(&["count", f]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "2+", "{out}");
    assert!(lines[1].starts_with("error: "), "{out}");
    assert!(lines[1].contains("k.csv:3"), "{out}");
    assert!(lines[1].contains("expected solution"), "{out}");
    // `solve --first` never checked uniqueness, so a first solution other than the file's is
    // no error: both are valid.
    let o = run(&["solve", "--first", f]);
    let out = stdout(&o);
    let first = out.lines().next().unwrap_or_default();
    assert!(first == OPEN_A || first == OPEN_B, "{out}");
    assert!(!out.contains("differs"), "{out}");
    // `solve` decides uniqueness: two solutions, and no word of a differing unique one.
    let o = run(&["solve", f]);
    assert!(
        stdout(&o).starts_with("multiple solutions\n"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("differs"));
}

#[test]
fn an_unreadable_file_still_gets_its_records() {
    let o = bench_as("basic,bitmask", "json", "/nonexistent/sudobench-set.txt");
    assert_eq!(o.status.code(), Some(1));
    let rows = json_rows(&stdout(&o));
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in &rows {
        let error = row["error"].as_str().expect("error field");
        assert!(error.contains("/nonexistent/sudobench-set.txt"), "{error}");
        assert_eq!(row["covered"], 0);
        // The run's settings, as a readable file's record has them (so `merge` adds them up).
        assert_eq!(row["threads"], 1);
        assert_eq!(row["clock"], "cpu");
    }
    let o = run(&[
        "bench",
        "--backends",
        "basic",
        "--format",
        "json",
        "--threads",
        "2",
        "--clock",
        "wall",
        "/nonexistent/sudobench-set.txt",
    ]);
    let rows = json_rows(&stdout(&o));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["threads"], 2);
    assert_eq!(rows[0]["clock"], "wall");
    let o = bench_as("basic", "csv", "/nonexistent/sudobench-set.txt");
    let text = stdout(&o);
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "error")
        .expect("error column");
    let row = text
        .lines()
        .nth(1)
        .expect("a record for the unreadable file");
    assert!(
        row.split(',').nth(col).is_some_and(|e| !e.is_empty()),
        "{text}"
    );
}

#[test]
fn table_names_cpu_and_bundled_sets_run_by_default() {
    let o = run(&[
        "bench",
        "--sample",
        "20",
        "--sample-seed",
        "3",
        "--time-budget",
        "5",
    ]);
    crate::common::assert_success(&o);
    let text = stdout(&o);
    assert!(text.starts_with("CPU: "), "{text}");
    assert!(text.contains("hardware threads"));
    let sets = sudobench::format::bundled_sets().expect("bundled data sets");
    assert!(sets.len() >= 6, "{sets:?}");
    for path in &sets {
        let set = path.rsplit('/').next().unwrap().trim_end_matches(".gz");
        assert!(
            text.contains(&format!("{set} — ")),
            "{set} missing:\n{text}"
        );
    }
    // Every default backend covered all 20 sampled puzzles of every set.
    let backends = sudobench::backends::default_names().count();
    assert_eq!(
        text.matches(" 20/20 ").count(),
        sets.len() * backends,
        "{text}"
    );
    // Not a terminal: no progress bar escape codes on stderr.
    assert!(!stderr(&o).contains('\u{1b}'));
}

#[test]
fn two_threads_and_symmetries_give_the_same_counts_as_one_thread() {
    let files = [
        data("puzzles6_forum_hardest_1106.gz"),
        data("puzzles7_serg_benchmark.gz"),
    ];
    let run_json = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            "--format",
            "json",
            "--sample",
            "100",
            "--sample-seed",
            "9",
            "--time-budget",
            "0",
        ];
        args.extend_from_slice(extra);
        args.extend(files.iter().map(|s| s.as_str()));
        let o = run(&args);
        crate::common::assert_success(&o);
        json_rows(&stdout(&o))
    };
    let counts = |rows: &[serde_json::Value]| -> Vec<String> {
        rows.iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {} {} {}",
                    r["set"],
                    r["covered"],
                    r["unique"],
                    r["multiple"],
                    r["none"],
                    r["unknown"],
                    r["mismatches"]
                )
            })
            .collect()
    };
    // Every default backend, so several backends run side by side in each worker thread.
    let one = run_json(&[]);
    let backends = one.len() / 2;
    assert!(backends >= 1 && one.len() == 2 * backends);
    assert_eq!(one[0]["threads"], 1);
    let two = run_json(&["--threads", "2"]);
    assert_eq!(two[0]["threads"], 2);
    assert_eq!(counts(&one), counts(&two));
    let transformed = run_json(&["--transform", "5"]);
    assert_eq!(counts(&one), counts(&transformed));
    // serg: every puzzle has several solutions; 1106: every puzzle is unique.
    // An incomplete backend (projection) answers `unknown` and is not held to these.
    for r in one[..backends].iter().filter(|r| r["complete"] == true) {
        assert_eq!(r["unique"], 100, "{r}");
    }
    for r in one[backends..].iter().filter(|r| r["complete"] == true) {
        assert_eq!(r["multiple"], 100, "{r}");
    }
    assert!(one.iter().any(|r| r["complete"] == true));
}

#[test]
fn report_rewrites_only_the_generated_part() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("RESULTS.md");
    let chart = dir.path().join("chart.svg");
    std::fs::write(
        &results,
        "# Results\n\nhand-written intro\n\n<!-- bench:begin -->\nold\n<!-- bench:end -->\n\n## Peers\nkept\n",
    )
    .unwrap();
    let o = crate::common::report(
        &results,
        &[
            "--chart",
            chart.to_str().unwrap(),
            "--command",
            "test command",
            "--sample",
            "10",
            &data("puzzles3_magictour_top1465.gz"),
            &data("puzzles6_forum_hardest_1106.gz"),
        ],
    );
    crate::common::assert_success(&o);
    let page = std::fs::read_to_string(&results).unwrap();
    assert!(page.contains("hand-written intro") && page.contains("## Peers\nkept"));
    assert!(!page.contains("\nold\n"));
    assert!(page.contains("_Generated by `test command`_"));
    assert!(page.contains("### puzzles3_magictour_top1465"));
    assert!(page.contains("### puzzles6_forum_hardest_1106"));
    assert!(page.contains("![puzzles per second, log scale](chart.svg)"));
    assert!(page.contains("| basic |"));
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<rect x=").count(),
        2 + 1,
        "two bars and one legend box"
    );
}

/// `--backends`: unknown names anywhere in the list and repeated names are usage errors;
/// `--backend` takes a name whole (an `exec:` command with a comma) and may be repeated.
#[test]
fn backend_lists_refuse_unknown_and_repeated_names() {
    let file = data("puzzles6_forum_hardest_1106.gz");
    for list in ["all,foo", "foo,all", "bitmask,bitmask", "all,bitmask"] {
        let o = run(&["bench", "--backends", list, "--sample", "2", &file]);
        assert_eq!(o.status.code(), Some(2), "{list}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{list}");
    }
    let o = run(&["bench", "--backends", "all,foo", &file]);
    assert!(
        stderr(&o).contains("unknown backend \"foo\""),
        "{}",
        stderr(&o)
    );
    let o = run(&["bench", "--backends", "bitmask,bitmask", &file]);
    assert!(stderr(&o).contains("named twice"), "{}", stderr(&o));
    // A command with a comma, given whole; `all` with an exec: backend runs both.
    let example = Path::new(BIN)
        .parent()
        .expect("target dir")
        .join("examples/exec_solver");
    let comma = format!("exec:{} # a comment, with a comma", example.display());
    let o = run(&[
        "bench",
        "--backends",
        "basic",
        "--backend",
        &comma,
        "--format",
        "json",
        "--sample",
        "3",
        &file,
    ]);
    let rows = json_rows(&stdout(&o));
    let names: Vec<&str> = rows.iter().filter_map(|r| r["backend"].as_str()).collect();
    assert_eq!(names, vec!["basic", comma.as_str()], "{}", stderr(&o));
}

/// The table's columns stay aligned whatever the backend names' lengths.
#[test]
fn table_columns_fit_long_backend_names() {
    let long = "exec:python3 scripts/exec_solver.py # a rather long backend name";
    let o = run(&[
        "bench",
        "--backends",
        "basic",
        "--backend",
        long,
        "--sample",
        "3",
        &data("puzzles6_forum_hardest_1106.gz"),
    ]);
    let text = stdout(&o);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("  backend") || l.starts_with("  basic") || l.starts_with("  exec:")
        })
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    let width = |l: &str| l.chars().count();
    assert!(rows.iter().all(|r| width(r) == width(rows[0])), "{text}");
}
