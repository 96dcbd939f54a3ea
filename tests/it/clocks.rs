//! Honest clocks: every backend is timed by the run's clock (`--clock cpu|wall`), every call an
//! answer depends on is timed, start-up is timed apart, and the cheats of a library or program
//! that moves its work out of the timed region do not pay. The cheating libraries are in
//! `tests/c/sb_solver.c` (`sb_recall`, `sb_thread`, `sb_sleep`); the figures compared are CPU
//! or wall seconds from one run, with margins of several times, never a rate.

use crate::common::{bench_json, one_per_line, sample, stderr};
use crate::plugin::library;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn lib(symbol: &str) -> String {
    format!("lib:{}:{symbol}", library().display())
}

/// A file of the first `n` puzzles of a bundled set.
fn puzzles(dir: &Path, set: &str, n: usize) -> PathBuf {
    let file = dir.join(format!("{set}.{n}.txt"));
    std::fs::write(&file, one_per_line(&sample(set, n))).expect("write puzzles");
    file
}

/// `bench --format json --time-budget 0 --clock CLOCK` with these backends on one file: the
/// output and one row per backend, in order.
fn bench(backends: &[&str], clock: &str, file: &Path, more: &[&str]) -> (Output, Vec<Value>) {
    let mut args = vec!["--clock", clock];
    for b in backends {
        args.extend(["--backend", b]);
    }
    args.extend(more);
    let (out, rows) = bench_json(&args, file);
    assert_eq!(rows.len(), backends.len(), "{}", stderr(&out));
    (out, rows)
}

fn seconds(row: &Value, field: &str) -> f64 {
    row[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {row}"))
}

/// Benches the honest library and the cheating library `cheat` on the CPU clock over 30 hard
/// puzzles: the run succeeds, the cheat's answers are right (the calls it made are verified),
/// and its solving time is more than `1/share` of the honest one's. The two rows.
fn cheat_pays(cheat: &str, share: f64) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = puzzles(dir.path(), "puzzles3_magictour_top1465.gz", 30);
    let (honest, cheat) = (lib("sb_solve"), lib(cheat));
    let (out, rows) = bench(&[&honest, &cheat], "cpu", &file, &[]);
    crate::common::assert_success(&out);
    assert_eq!(rows[1]["mismatches"], 0);
    let (h, c) = (
        seconds(&rows[0], "solve_seconds"),
        seconds(&rows[1], "solve_seconds"),
    );
    assert!(
        c > h / share,
        "the cheat took {c} s, the honest library {h} s"
    );
    rows
}

/// A library that answers `1` at limit 2 at once and solves only in the recall with limit 1
/// is billed for the recall: its time is that of the limit-1 search it really made, not
/// nothing.
#[test]
fn a_library_that_solves_in_the_recall_pays_for_it() {
    // A limit-1 search costs a good part of a limit-2 one (before, the cheat's time was that
    // of 30 empty calls, thousands of times less).
    let rows = cheat_pays("sb_recall", 20.0);
    assert_eq!(rows[1]["clock"], "cpu");
    // Its answers are right (the recall's solutions are verified).
    assert_eq!(rows[1]["solved"], 30);
}

/// A library that solves in a helper thread it starts and joins is billed for that thread:
/// the worker's whole process is measured.
#[test]
fn a_library_that_solves_in_a_helper_thread_pays_for_it() {
    // The same search on another thread: about the same CPU time (before, next to none).
    cheat_pays("sb_thread", 4.0);
}

/// A library that sleeps is billed nothing for it by the CPU clock, and the sleep shows by
/// the wall clock.
#[test]
fn sleeping_is_wall_time_not_cpu_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = puzzles(dir.path(), "puzzles0_kaggle.csv.gz", 8);
    let sleepy = lib("sb_sleep");
    // 25 ms per call, 8 easy puzzles: at least 0.2 s of sleep.
    let (_, cpu) = bench(&[&sleepy], "cpu", &file, &["--config", "25"]);
    let (_, wall) = bench(&[&sleepy], "wall", &file, &["--config", "25"]);
    assert_eq!(
        (&cpu[0]["clock"], &wall[0]["clock"]),
        (&"cpu".into(), &"wall".into())
    );
    assert_eq!(cpu[0]["solved"], 8);
    let (c, w) = (
        seconds(&cpu[0], "solve_seconds"),
        seconds(&wall[0], "solve_seconds"),
    );
    assert!(w >= 0.2, "the wall clock saw {w} s of sleep");
    assert!(c < 0.1, "the CPU clock billed {c} s for sleeping");
}

/// An `exec:` program's start-up (`sleep 1` before it serves) is timed apart and reported,
/// not billed as solving, by either clock; the table names the clock and shows the start-up.
#[test]
fn an_exec_start_up_is_reported_not_billed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = puzzles(dir.path(), "puzzles0_kaggle.csv.gz", 8);
    let script = dir.path().join("slow_start.sh");
    std::fs::write(&script, "sleep 1\nwhile read p l; do echo unknown; done\n")
        .expect("write script");
    let backend = format!("exec:sh {}", script.display());
    let (out, wall) = bench(&[&backend], "wall", &file, &[]);
    crate::common::assert_success(&out);
    let (start, solve) = (
        seconds(&wall[0], "startup_seconds"),
        seconds(&wall[0], "solve_seconds"),
    );
    assert!(start >= 1.0, "start-up {start} s");
    assert!(solve < 1.0, "solving {solve} s: the start-up was billed");
    assert_eq!(wall[0]["unknown"], 8);
    let table = crate::common::bench(&["--clock", "wall", "--backend", &backend], &file);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("wall puzzles/s"), "{text}");
    assert!(text.contains("solving timed by wall-clock time"), "{text}");
    assert!(text.contains(&format!("start-up: {backend} ")), "{text}");
}

/// A backend that failed on its first call has no rate (it answered nothing it was timed
/// for), in the table and in machine output.
#[test]
fn a_backend_that_failed_at_once_has_no_rate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = puzzles(dir.path(), "puzzles0_kaggle.csv.gz", 3);
    let (out, rows) = bench(&["bitmask", "exec:exit 3"], "cpu", &file, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(rows[0]["puzzles_per_sec"].is_f64(), "{}", rows[0]);
    assert!(rows[1]["puzzles_per_sec"].is_null(), "{}", rows[1]);
    assert!(rows[1]["us_per_puzzle"].is_null(), "{}", rows[1]);
    assert_eq!(rows[1]["covered"], 3);
    assert_eq!(rows[1]["solved"], 0);
    let table = crate::common::bench(&["--backends", "bitmask,exec:exit 3"], &file);
    let text = String::from_utf8_lossy(&table.stdout);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("exec:exit 3 "))
        .unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[2..4], ["-", "-"], "{row}");
    assert!(text.contains("cpu puzzles/s"), "{text}");
}

/// A backend whose time budget ran out before it decided a puzzle has no rate (its time went
/// into an answer it never finished); on a set where it decided some, it keeps one.
#[test]
fn a_backend_cut_off_before_deciding_anything_has_no_rate() {
    let root = env!("CARGO_MANIFEST_DIR");
    // Gecode's first minimal 25x25 takes `wide` far longer than the budget.
    let hard = format!("{root}/data/orders_25x25_gecode.gz");
    let easy = format!("{root}/data/orders_25x25_unique.gz");
    let args = [
        "bench",
        "--format",
        "json",
        "--time-budget",
        "0.2",
        "--backends",
        "wide",
        &hard,
        &easy,
    ];
    let out = crate::common::run(&args, b"");
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(rows.len(), 2, "{}", stderr(&out));
    assert_eq!(
        (rows[0]["covered"].clone(), rows[0]["unknown"].clone()),
        (1.into(), 1.into())
    );
    assert_eq!(rows[0]["budget_spent"], true, "{}", rows[0]);
    assert!(rows[0]["puzzles_per_sec"].is_null(), "{}", rows[0]);
    assert!(rows[0]["us_per_puzzle"].is_null(), "{}", rows[0]);
    assert!(rows[1]["unique"].as_u64().unwrap() > 0, "{}", rows[1]);
    assert!(rows[1]["puzzles_per_sec"].is_f64(), "{}", rows[1]);
}

/// `--clock` takes `cpu` or `wall` only.
#[test]
fn an_unknown_clock_is_a_usage_error() {
    let out = crate::common::run(&["bench", "--clock", "sundial", "-"], b"");
    crate::common::assert_exit(&out, 2, "unknown clock");
}
