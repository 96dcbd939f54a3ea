//! Solve rates of the projection backends: for each data set, iteration cap and algorithm,
//! how many of the first `--count` puzzles are solved, the mean and median iterations of the
//! solved ones, and the throughput (puzzles/s, iterations/s).
//!
//! ```sh
//! cargo run --release --example projection_rates -- \
//!     --sets 17,top1465,1106 --caps 10000,50000 --algorithms dr,tm
//! ```
//!
//! With `--derive-caps` each (set, algorithm) runs once with the largest cap and the smaller
//! caps are read off the same runs (the iteration is deterministic, so a puzzle solved at
//! iteration n ≤ cap is solved under that cap); their throughput is then not measured and is
//! shown as `-`.

use clap::Parser;
use std::time::Instant;
use sudobench::format::Reader;
use sudobench::solver::projection::{Algorithm, Precision, Projection, ProjectionOptions};
use sudobench::solver::Limit;
use sudobench::solver::{Options, Solver};
use sudobench::verify;

#[derive(Parser, Debug)]
struct Args {
    /// Data sets: 17, top1465, 1106, 1905, kaggle, or a path.
    #[arg(long, value_delimiter = ',', default_value = "17,top1465,1106")]
    sets: Vec<String>,
    /// Iteration caps.
    #[arg(long, value_delimiter = ',', default_value = "10000")]
    caps: Vec<u64>,
    /// Algorithms: dr, tm.
    #[arg(long, value_delimiter = ',', default_value = "dr,tm")]
    algorithms: Vec<String>,
    /// Puzzles taken from the start of each set.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Skip this many puzzles first.
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Relaxation (λ for DR, γ for TM); default: the backend's.
    #[arg(long)]
    relaxation: Option<f64>,
    /// Noise amplitude.
    #[arg(long)]
    noise: Option<f64>,
    /// Restart every this many iterations (0 = never).
    #[arg(long)]
    restart_every: Option<u64>,
    /// Use f64 iterates.
    #[arg(long)]
    f64: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run the largest cap only and derive the smaller caps' rates from it.
    #[arg(long)]
    derive_caps: bool,
    /// Worker threads (puzzles split between them; throughput is then per process).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn path(set: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    match set {
        "17" => format!("{root}/data/puzzles2_17_clue.gz"),
        "top1465" => format!("{root}/data/puzzles3_magictour_top1465.gz"),
        "1106" => format!("{root}/data/puzzles6_forum_hardest_1106.gz"),
        "1905" => format!("{root}/data/puzzles5_forum_hardest_1905_11+.gz"),
        "kaggle" => format!("{root}/data/puzzles0_kaggle.csv.gz"),
        other => other.to_string(),
    }
}

fn median(v: &mut [u64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
    }
}

/// Per puzzle (iterations if solved, iterations spent), wall seconds, CPU seconds.
type RunResult = (Vec<(Option<u64>, u64)>, f64, Option<f64>);

/// CPU time of the calling thread in seconds: on a shared machine wall time includes waiting
/// for a core, CPU time does not.
fn cpu_seconds() -> Option<f64> {
    Some(sudobench::util::thread_cpu_time().as_secs_f64())
}

/// Solves every puzzle once; returns (Some(iterations) if solved, iterations spent) per puzzle.
fn run(options: &Options, puzzles: &[sudobench::Puzzle], threads: usize) -> RunResult {
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let chunk = puzzles.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<(Option<u64>, u64)> = if threads <= 1 {
        let mut solver = Projection::new(options);
        puzzles
            .iter()
            .map(|p| {
                let got = solver.solve(p, Limit::ONE);
                let it = got.stats().iterations;
                match got.solution() {
                    Some(sol) => {
                        verify::check_puzzle(p, sol).expect("verified solution");
                        (Some(it), it)
                    }
                    None => (None, it),
                }
            })
            .collect()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = puzzles
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut solver = Projection::new(options);
                        part.iter()
                            .map(|p| {
                                let got = solver.solve(p, Limit::ONE);
                                let it = got.stats().iterations;
                                match got.solution() {
                                    Some(sol) => {
                                        verify::check_puzzle(p, sol).expect("verified solution");
                                        (Some(it), it)
                                    }
                                    None => (None, it),
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("worker"))
                .collect()
        })
    };
    let wall = start.elapsed().as_secs_f64();
    // CPU time is only meaningful here when this thread did all the work.
    let cpu = match (threads <= 1, cpu_start, cpu_seconds()) {
        (true, Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    (results, wall, cpu)
}

fn main() {
    let args = Args::parse();
    println!(
        "{:<10} {:>6} {:>3} {:>9} {:>8} {:>8} {:>10} {:>12} {:>12} {:>12}",
        "set",
        "cap",
        "alg",
        "solved",
        "mean_it",
        "med_it",
        "puzzles/s",
        "iter/s",
        "puz/cpu-s",
        "iter/cpu-s"
    );
    for set in &args.sets {
        let puzzles: Vec<_> = Reader::open(&path(set))
            .expect("data set opens")
            .filter_map(Result::ok)
            .skip(args.skip)
            .take(args.count)
            .map(|r| r.puzzle)
            .collect();
        for alg in &args.algorithms {
            let algorithm = match alg.as_str() {
                "dr" => Algorithm::DouglasRachford,
                "tm" => Algorithm::MalitskyTam,
                other => panic!("unknown algorithm {other}"),
            };
            let mut options = Options {
                seed: args.seed,
                ..Options::default()
            };
            let mut o = ProjectionOptions {
                algorithm,
                ..ProjectionOptions::default()
            };
            o.relaxation = args.relaxation;
            if let Some(n) = args.noise {
                o.noise = Some(n);
            }
            if let Some(r) = args.restart_every {
                o.restart_every = Some(r);
            }
            if args.f64 {
                o.precision = Precision::F64;
            }
            let mut with_cap = |iterations| {
                options.set(ProjectionOptions { iterations, ..o });
                options.clone()
            };
            let mut caps = args.caps.clone();
            caps.sort_unstable();
            let runs: Vec<(u64, bool)> = if args.derive_caps {
                let max = *caps.last().expect("a cap");
                caps.iter().map(|&c| (c, c == max)).collect()
            } else {
                caps.iter().map(|&c| (c, true)).collect()
            };
            let mut shared = None;
            if args.derive_caps {
                let options = with_cap(*caps.last().expect("a cap"));
                shared = Some(run(&options, &puzzles, args.threads));
            }
            for (cap, timed) in runs {
                let (results, secs, cpu) = match &shared {
                    Some(r) => r.clone(),
                    None => {
                        let options = with_cap(cap);
                        run(&options, &puzzles, args.threads)
                    }
                };
                let mut solved: Vec<u64> = results
                    .iter()
                    .filter_map(|r| r.0.filter(|&i| i <= cap))
                    .collect();
                let total: u64 = results.iter().map(|r| r.1).sum();
                let mean = solved.iter().sum::<u64>() as f64 / solved.len().max(1) as f64;
                let n = solved.len();
                let med = median(&mut solved);
                let rate = |secs: Option<f64>| match (timed, secs) {
                    (true, Some(t)) => (
                        format!("{:.1}", puzzles.len() as f64 / t),
                        format!("{:.0}", total as f64 / t),
                    ),
                    _ => ("-".to_string(), "-".to_string()),
                };
                let (pps, ips) = rate(Some(secs));
                let (cpps, cips) = rate(cpu);
                println!(
                    "{:<10} {:>6} {:>3} {:>5}/{:<3} {:>8.0} {:>8.0} {:>10} {:>12} {:>12} {:>12}",
                    set,
                    cap,
                    alg,
                    n,
                    puzzles.len(),
                    mean,
                    med,
                    pps,
                    ips,
                    cpps,
                    cips
                );
            }
        }
    }
}
