//! `--shard K/N` and `merge`: the parts of a run, merged, are the run (per-record output
//! byte for byte, totals identical), for every command that takes a shard.

use crate::common::{data, run_in};
use std::path::Path;

/// Runs the binary in `dir` and returns stdout; the command must finish.
fn out(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args, b"");
    assert!(o.status.code().is_some(), "{args:?} was killed");
    String::from_utf8(o.stdout).expect("utf-8 output")
}

/// Runs `args` whole and in `n` parts, merges the parts and returns (whole, merged).
fn whole_and_merged(args: &[&str], n: u64) -> (String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let whole = out(dir.path(), args);
    let mut parts = Vec::new();
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let mut with: Vec<&str> = args.to_vec();
        with.extend(["--shard", &shard]);
        let text = out(dir.path(), &with);
        let name = format!("part-{k:03}");
        std::fs::write(dir.path().join(&name), text).expect("write part");
        parts.push(name);
    }
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let merged = out(dir.path(), &merge);
    (whole, merged)
}

#[test]
fn count_verify_generate_and_grade_parts_merge_into_the_run() {
    // A file with malformed records between good ones, so that errors keep their place.
    let dir = tempfile::tempdir().expect("temp dir");
    let mixed = dir.path().join("mixed.txt");
    let good = "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
    let mut text = String::new();
    for i in 0..23 {
        match i % 7 {
            3 => text.push_str("not a puzzle\n"),
            5 => text.push_str(&format!("{}\n", ".".repeat(81))),
            _ => text.push_str(&format!("{good}\n")),
        }
    }
    std::fs::write(&mixed, text).expect("write");
    let mixed = mixed.to_string_lossy().into_owned();
    let serg = data("puzzles7_serg_benchmark.gz");
    let nosol = data("puzzles9_generated_no_solution.gz");
    let cases: Vec<Vec<&str>> = vec![
        vec!["count", &mixed, &serg, &nosol],
        vec!["count", "--witness", &nosol, &mixed],
        vec!["verify", "--format", "json", &mixed, &serg],
        vec!["verify", "--format", "csv", &nosol, &mixed],
        vec!["generate", "--count", "37", "--seed", "5"],
        vec![
            "grade",
            "--format",
            "json",
            "--symmetries",
            "2",
            &nosol,
            &mixed,
        ],
        vec!["grade", "--format", "csv", "--symmetries", "2", &mixed],
    ];
    for args in &cases {
        for n in [1, 2, 5] {
            let (whole, merged) = whole_and_merged(args, n);
            assert!(!whole.is_empty(), "{args:?}");
            assert_eq!(merged, whole, "{args:?} in {n} parts");
        }
    }
}

#[test]
fn summaries_add_up_exactly() {
    let nosol = data("puzzles9_generated_no_solution.gz");
    let magic = data("puzzles3_magictour_top1465.gz");
    let args = [
        "grade",
        "--summary",
        "--format",
        "json",
        "--symmetries",
        "1",
        &nosol,
        &magic,
    ];
    let (whole, merged) = whole_and_merged(&args, 3);
    assert_eq!(whole.lines().count(), 2);
    assert_eq!(merged, whole);
}

/// The figures of bench's JSON records that do not depend on timing.
fn totals(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON record");
            let o = v.as_object_mut().expect("an object");
            for timed in [
                "puzzles_per_sec",
                "us_per_puzzle",
                "read_puzzles_per_sec",
                "read_cpu_puzzles_per_sec",
                "solve_seconds",
            ] {
                assert!(o.remove(timed).is_some(), "{timed}");
            }
            let exact = o["exact"].as_object_mut().expect("exact sums");
            for timed in ["solve_nanos", "read_nanos", "read_cpu_nanos"] {
                assert!(exact.remove(timed).is_some(), "{timed}");
            }
            v
        })
        .collect()
}

#[test]
fn bench_parts_add_up_to_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A file whose expected solutions are partly wrong: data errors, kept with their lines.
    let kaggle = dir.path().join("k.csv");
    let good = "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
    let sol = "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
    let bad = format!("{}1", &sol[..80]);
    let mut text = String::from("quizzes,solutions\n");
    for i in 0..40 {
        let s = if i % 9 == 4 { &bad } else { sol };
        text.push_str(&format!("{good},{s}\n"));
    }
    std::fs::write(&kaggle, text).expect("write");
    let kaggle = kaggle.to_string_lossy().into_owned();
    let serg = data("puzzles7_serg_benchmark.gz");
    let args = [
        "bench",
        "--format",
        "json",
        "--time-budget",
        "0",
        "--backends",
        "bitmask,dlx-array",
        "--limit",
        "2",
        &kaggle,
        &serg,
    ];
    for n in [2, 3] {
        let (whole, merged) = whole_and_merged(&args, n);
        assert_eq!(whole.lines().count(), 4);
        let (w, m) = (totals(&whole), totals(&merged));
        assert_eq!(w, m, "{n} parts");
        let first = &w[0];
        assert_eq!(first["data_errors"], 4, "{first}");
        let problems = first["exact"]["problems"].as_array().expect("problems");
        let lines: Vec<u64> = problems.iter().filter_map(|p| p["line"].as_u64()).collect();
        assert_eq!(lines, vec![6, 15, 24, 33]);
    }
}

#[test]
fn bad_shards_and_out_of_order_parts_are_usage_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nosol = data("puzzles9_generated_no_solution.gz");
    for bad in ["0/2", "3/2", "x", "1/0"] {
        let o = run_in(dir.path(), &["count", "--shard", bad, &nosol], b"");
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("K/N"), "{bad}");
    }
    let o = run_in(dir.path(), &["count", "--shard", "1/2"], b"");
    crate::common::assert_exit(&o, 2, "standard input");
    for k in 1..=2 {
        let part = out(
            dir.path(),
            &[
                "verify",
                "--format",
                "json",
                "--shard",
                &format!("{k}/2"),
                &nosol,
            ],
        );
        std::fs::write(dir.path().join(format!("p{k}")), part).expect("write");
    }
    let o = run_in(dir.path(), &["merge", "p2", "p1"], b"");
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("in order"));
}
