//! Throughput of `bitmask` against the `sudoku` crate (a JCZSolve port, dev-dependency only),
//! robust to a noisy shared machine: both solvers run in the same process on the same
//! puzzles, alternating on slices of 50 puzzles, and each one's time is added up over all
//! slices and rounds, so that load from other processes falls on both alike. Times are the
//! thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which leaves out time spent waiting for a
//! core.
//!
//! ```text
//! cargo run --release --example peers_ratio -- [--rounds N] [--limit L] [--sample N]
//!     [--only bitmask|sudoku|none] [files...]
//! ```
//!
//! Prints per set: puzzles/s and µs/puzzle for both, the ratio bitmask / sudoku, the share
//! of puzzles bitmask solves without guessing and its guesses per puzzle.

#[path = "shared/mod.rs"]
mod shared;

use sudobench::grid::Grid;
use sudobench::solver::bitmask::Bitmask;
use sudobench::solver::{Limit, Options, Solver};

/// Puzzles per alternation slice.
const CHUNK: usize = 50;

const DEFAULT_SETS: &[&str] = &[
    "data/puzzles2_17_clue.gz",
    "data/puzzles3_magictour_top1465.gz",
    "data/puzzles5_forum_hardest_1905_11+.gz",
    "data/puzzles6_forum_hardest_1106.gz",
];

fn time_bitmask(solver: &mut Bitmask, puzzles: &[Grid], limit: u32) -> (f64, u64) {
    let start = shared::cpu_seconds();
    let mut check = 0u64;
    for p in puzzles {
        if let Some(n) = solver
            .solve(&(*p).into(), Limit::new(limit).expect("nonzero"))
            .count()
            .found()
        {
            check += n as u64;
        }
    }
    (shared::cpu_seconds() - start, check)
}

fn time_sudoku(puzzles: &[sudoku::Sudoku], limit: u32) -> (f64, u64) {
    let start = shared::cpu_seconds();
    let mut check = 0u64;
    for p in puzzles {
        check += if limit == 1 {
            p.some_solution().is_some() as u64
        } else {
            p.solutions_count_up_to(limit as usize) as u64
        };
    }
    (shared::cpu_seconds() - start, check)
}

fn main() -> anyhow::Result<()> {
    let mut rounds = 5usize;
    let mut limit = 2u32;
    let mut sample = 2000usize;
    let mut files = Vec::new();
    // `--only bitmask|sudoku|none`: run one solver (or none: loading only) once over each set
    // and print nothing else (for instruction counts under callgrind).
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().unwrap_or_default().parse()?,
            "--limit" => limit = args.next().unwrap_or_default().parse()?,
            "--sample" => sample = args.next().unwrap_or_default().parse()?,
            "--only" => only = args.next(),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        files = DEFAULT_SETS.iter().map(|s| s.to_string()).collect();
    }
    let mut solver = Bitmask::new(&Options::default());
    println!(
        "limit {limit}, mean of {rounds} rounds, alternating per {CHUNK} puzzles\n{:<40} {:>6} {:>12} {:>9} {:>12} {:>9} {:>7} {:>8} {:>9}",
        "set", "n", "bitmask/s", "µs", "sudoku/s", "µs", "ratio", "no-guess", "guesses"
    );
    for file in &files {
        let grids = shared::grids(file, sample);
        let peers: Vec<sudoku::Sudoku> = grids
            .iter()
            .map(|g| sudoku::Sudoku::from_bytes_slice(g.cells()))
            .collect::<Result<_, _>>()
            .map_err(|_| anyhow::anyhow!("sudoku crate rejected a puzzle of {file}"))?;
        match only.as_deref() {
            Some("bitmask") => {
                time_bitmask(&mut solver, &grids, limit);
                continue;
            }
            Some("sudoku") => {
                time_sudoku(&peers, limit);
                continue;
            }
            Some("none") => continue,
            Some(other) => anyhow::bail!("--only takes bitmask, sudoku or none, not {other}"),
            None => {}
        }
        let (mut no_guess, mut guesses) = (0usize, 0u64);
        for g in &grids {
            let o = solver.solve(&(*g).into(), Limit::new(limit).expect("nonzero"));
            no_guess += (o.stats().guesses == Some(0)) as usize;
            guesses += o.stats().guesses.unwrap_or(0);
        }
        // Alternate the two solvers on slices of CHUNK puzzles (the first solver alternating
        // too) and add up each one's time: load from other processes then hits both alike.
        let (mut total_a, mut total_b) = (0f64, 0f64);
        for round in 0..rounds {
            for (k, (ga, gb)) in grids.chunks(CHUNK).zip(peers.chunks(CHUNK)).enumerate() {
                let run_a = |s: &mut Bitmask| time_bitmask(s, ga, limit);
                let ((ta, ca), (tb, cb)) = if (round + k) % 2 == 0 {
                    let a = run_a(&mut solver);
                    (a, time_sudoku(gb, limit))
                } else {
                    let b = time_sudoku(gb, limit);
                    (run_a(&mut solver), b)
                };
                anyhow::ensure!(ca == cb, "{file}: counts differ ({ca} vs {cb})");
                total_a += ta;
                total_b += tb;
            }
        }
        let (best_a, best_b) = (total_a / rounds as f64, total_b / rounds as f64);
        let n = grids.len() as f64;
        let name = file.rsplit('/').next().unwrap_or(file);
        println!(
            "{:<40} {:>6} {:>12.0} {:>9.2} {:>12.0} {:>9.2} {:>7.3} {:>7.1}% {:>9.2}",
            name,
            grids.len(),
            n / best_a,
            best_a / n * 1e6,
            n / best_b,
            best_b / n * 1e6,
            best_b / best_a,
            100.0 * no_guess as f64 / n,
            guesses as f64 / n
        );
    }
    Ok(())
}
