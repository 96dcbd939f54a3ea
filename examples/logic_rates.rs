//! Throughput and deduction strength of `logic` and `logic-lc`, timed beside `basic` in the
//! same process (single thread, counting to 2 as the uniqueness benchmark does).
//!
//! ```text
//! cargo run --release --example logic_rates -- [--rounds R] [--sample N] [--ratio-sample M]
//!     [--backends a,b,..] [--set NAME]
//! ```
//!
//! Every set is loaded into memory first; each round times every backend over the set in turn
//! (interleaved, so machine noise hits all alike) and the best round is reported. Times are
//! the thread's CPU time (`sudobench::util::thread_cpu_time`), so time
//! spent preempted by other processes on a shared machine does not count; the wall-clock rate
//! is printed beside it.
//! `--sample N` takes N puzzles spread evenly over the 1905_11+ set (default 5000; 0 = all);
//! the other sets are used whole. `basic` is far too slow for whole sets (about 50 ms per
//! 17-clue puzzle), so it runs only on `--ratio-sample M` puzzles spread evenly over each set
//! (default 200), and the `× basic` column compares every backend with it on that same
//! sample, in the same rounds. With `bitmask` among the backends (it is by default), the
//! `% of bitmask` column gives each backend's throughput on the whole set as a share of
//! bitmask's, measured in the same rounds. Per backend and set it prints puzzles/s, µs/puzzle,
//! the share solved without guessing, guesses and search nodes per puzzle, and the
//! distribution of the largest subset used.

use std::time::Instant;
use sudobench::backends;
use sudobench::format::Reader;
use sudobench::puzzle::Puzzle;
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options, Solver};

const SETS: &[(&str, &str)] = &[
    ("17-clue", "data/puzzles2_17_clue.gz"),
    ("magictour", "data/puzzles3_magictour_top1465.gz"),
    ("1905_11+", "data/puzzles5_forum_hardest_1905_11+.gz"),
    ("1106", "data/puzzles6_forum_hardest_1106.gz"),
    ("kaggle", "data/puzzles0_kaggle.csv.gz"),
];

fn load(path: &str) -> Vec<Puzzle> {
    Reader::open(path)
        .unwrap_or_else(|e| panic!("{e}"))
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")).puzzle)
        .collect()
}

/// `sample` puzzles spread evenly over `all` (all of them if `sample` is 0 or too large).
fn spread(all: &[Puzzle], sample: usize) -> Vec<Puzzle> {
    if sample == 0 || sample >= all.len() {
        return all.to_vec();
    }
    let step = all.len() as f64 / sample as f64;
    (0..sample)
        .map(|i| all[(i as f64 * step) as usize].clone())
        .collect()
}

/// Nanoseconds this thread has spent on a CPU.
fn cpu_ns() -> Option<u64> {
    Some(sudobench::util::thread_cpu_time().as_nanos() as u64)
}

/// Best times over the rounds for one backend on one list, in seconds (CPU time, or wall
/// time where CPU time is unavailable; and wall time); panics on a wrong count.
fn time(s: &mut dyn Solver, puzzles: &[Puzzle], best: &mut (f64, f64), tally: Option<&mut Tally>) {
    let start = Instant::now();
    let cpu_start = cpu_ns();
    let mut sink = 0u64;
    let mut tally = tally;
    // Short lists are repeated until 0.3 s have passed: the kernel's CPU clock is coarse.
    let mut reps = 0u32;
    while reps == 0 || start.elapsed().as_secs_f64() < 0.3 {
        reps += 1;
        if reps > 1 {
            tally = None;
        }
        run(s, puzzles, &mut sink, tally.as_deref_mut());
    }
    std::hint::black_box(sink);
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => wall,
    };
    best.0 = best.0.min(cpu / f64::from(reps));
    best.1 = best.1.min(wall / f64::from(reps));
}

/// Solves every puzzle once (limit 2), adding to the tally if given.
fn run(s: &mut dyn Solver, puzzles: &[Puzzle], sink: &mut u64, mut tally: Option<&mut Tally>) {
    for p in puzzles {
        let out = s.solve(p, Limit::TWO);
        if out.count() != Count::Exactly(1) {
            panic!("backend on {p}: {:?}", out.count());
        }
        if let Some(t) = tally.as_deref_mut() {
            t.no_guess += u64::from(out.stats().guesses == Some(0));
            t.guesses += out.stats().guesses.unwrap_or(0);
            t.nodes += out.stats().nodes;
            t.subset_hist[(out.stats().max_subset as usize).min(9)] += 1;
        }
        *sink += out.stats().nodes;
    }
}

#[derive(Default, Clone)]
struct Tally {
    /// Best (CPU, wall) time on the set.
    best_secs: (f64, f64),
    /// Best (CPU, wall) time on the ratio sample.
    ratio_secs: (f64, f64),
    no_guess: u64,
    guesses: u64,
    nodes: u64,
    /// Puzzles whose largest subset was 0..=9.
    subset_hist: [u64; 10],
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut rounds = 3;
    let mut sample = 5000;
    let mut ratio_sample = 200;
    let mut backends = vec![
        "basic".to_string(),
        "bitmask".to_string(),
        "logic".to_string(),
        "logic-lc".to_string(),
    ];
    let mut only: Option<String> = None;
    let mut i = 1;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--rounds" => rounds = value.parse().expect("--rounds N"),
            "--sample" => sample = value.parse().expect("--sample N"),
            "--ratio-sample" => ratio_sample = value.parse().expect("--ratio-sample M"),
            "--backends" => backends = value.split(',').map(str::to_string).collect(),
            "--set" => only = Some(value),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    println!(
        "| set | backend | puzzles | puzzles/s (CPU) | µs/puzzle (CPU) | puzzles/s (wall) | \
         × basic | % of bitmask | % no guess | guesses/puzzle | nodes/puzzle | \
         largest subset: puzzles with 0/1/2/3/4+ (max) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for &(set, file) in SETS {
        if only.as_deref().is_some_and(|o| o != set) {
            continue;
        }
        let all = load(&format!("{root}/{file}"));
        let puzzles = spread(&all, if set == "1905_11+" { sample } else { 0 });
        let small = spread(&all, ratio_sample);
        let mut solvers: Vec<_> = backends
            .iter()
            .map(|b| backends::build(b, &Options::default()).expect("backend builds"))
            .collect();
        let mut tallies = vec![
            Tally {
                best_secs: (f64::INFINITY, f64::INFINITY),
                ratio_secs: (f64::INFINITY, f64::INFINITY),
                ..Tally::default()
            };
            solvers.len()
        ];
        for round in 0..rounds {
            for ((s, t), name) in solvers.iter_mut().zip(tallies.iter_mut()).zip(&backends) {
                let mut ratio_secs = t.ratio_secs;
                time(s.as_mut(), &small, &mut ratio_secs, None);
                t.ratio_secs = ratio_secs;
                if *name != "basic" {
                    let mut best = t.best_secs;
                    time(
                        s.as_mut(),
                        &puzzles,
                        &mut best,
                        (round == 0).then_some(&mut *t),
                    );
                    t.best_secs = best;
                }
            }
        }
        let n = puzzles.len() as f64;
        let basic_secs = backends
            .iter()
            .position(|b| b == "basic")
            .map(|i| tallies[i].ratio_secs.0);
        let bitmask_secs = backends
            .iter()
            .position(|b| b == "bitmask")
            .map(|i| tallies[i].best_secs.0);
        for (name, t) in backends.iter().zip(&tallies) {
            if name == "basic" {
                let m = small.len() as f64;
                println!(
                    "| {set} | basic (sample) | {} | {:.0} | {:.1} | {:.0} | 1.0 | | | | | |",
                    small.len(),
                    m / t.ratio_secs.0,
                    t.ratio_secs.0 * 1e6 / m,
                    m / t.ratio_secs.1,
                );
                continue;
            }
            let hist = &t.subset_hist;
            let max = hist.iter().rposition(|&c| c > 0).unwrap_or(0);
            let ratio = basic_secs
                .map(|b| format!("{:.1}", b / t.ratio_secs.0))
                .unwrap_or_else(|| "-".into());
            let share = bitmask_secs
                .map(|b| format!("{:.1}%", 100.0 * b / t.best_secs.0))
                .unwrap_or_else(|| "-".into());
            println!(
                "| {set} | {name} | {} | {:.0} | {:.1} | {:.0} | {ratio} | {share} | {:.1}% | {:.2} | {:.1} \
                 | {}/{}/{}/{}/{} ({max}) |",
                puzzles.len(),
                n / t.best_secs.0,
                t.best_secs.0 * 1e6 / n,
                n / t.best_secs.1,
                100.0 * t.no_guess as f64 / n,
                t.guesses as f64 / n,
                t.nodes as f64 / n,
                hist[0],
                hist[1],
                hist[2],
                hist[3],
                hist[4..].iter().sum::<u64>(),
            );
        }
    }
}
