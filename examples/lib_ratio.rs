//! Throughput of `bitmask` against a solver in a shared library with tdoku's C signature
//! (tdoku itself, or any peer `scripts/peers.sh` builds), in one process: the library is
//! loaded here (not through `lib:`'s worker), both solvers run on the same puzzles,
//! alternating on slices of 50, and each one's thread CPU time is added up over all slices
//! and rounds, so load from other processes falls on both alike.
//!
//! ```text
//! cargo run --release --example lib_ratio -- --lib LIBRARY:SYMBOL [--rounds N] [--limit L]
//!     [--sample N] [--only bitmask|lib|none] [files...]
//! ```
//!
//! Files default to every bundled 9×9 set; `--sample N` takes the first N puzzles of each
//! (0: all). Prints per set: puzzles/s and µs/puzzle for both, the ratio bitmask ÷ library,
//! and each side's guesses per puzzle (bitmask counts every alternative tried, tdoku one per
//! branch). The counts of both must agree. `--only` runs one side once over each set and
//! prints nothing, reading no clock (for `valgrind --tool=callgrind`, under which rustix's
//! clock crashes; `none` measures the loading). Valgrind has no AVX-512: build the library
//! for callgrind with `CFLAGS_PEERS="-O3 -march=native -mno-avx512f" scripts/peers.sh`.

#[path = "shared/mod.rs"]
mod shared;

use std::ffi::{c_char, CString};
use sudobench::puzzle::Puzzle;
use sudobench::solver::bitmask::Bitmask;
use sudobench::solver::{Limit, Options, Solver};

/// Puzzles per alternation slice.
const CHUNK: usize = 50;

const DEFAULT_SETS: &[&str] = &[
    "data/puzzles0_kaggle.csv.gz",
    "data/puzzles2_17_clue.gz",
    "data/puzzles3_magictour_top1465.gz",
    "data/puzzles5_forum_hardest_1905_11+.gz",
    "data/puzzles6_forum_hardest_1106.gz",
    "data/puzzles7_serg_benchmark.gz",
    "data/puzzles8_generated_minimal.gz",
    "data/puzzles9_generated_no_solution.gz",
];

/// tdoku's C signature.
type SolveFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

/// Solutions counted, guesses.
fn run_bitmask(solver: &mut Bitmask, puzzles: &[Puzzle], limit: Limit) -> (u64, u64) {
    let (mut count, mut guesses) = (0u64, 0u64);
    for p in puzzles {
        let o = solver.solve(p, limit);
        if let Some(n) = o.count().found() {
            count += u64::from(n);
        }
        guesses += o.stats().guesses.unwrap_or(0);
    }
    (count, guesses)
}

/// Solutions counted, guesses.
fn run_lib(solve: SolveFn, puzzles: &[CString], limit: usize) -> (u64, u64) {
    let mut solution = [0 as c_char; 82];
    let (mut count, mut guesses) = (0u64, 0u64);
    for p in puzzles {
        let mut g = 0usize;
        // SAFETY: `p` is NUL-terminated, `solution` has room for 81 characters and a NUL, `g`
        // is a valid place for the guess count: what tdoku's signature asks of a caller.
        count += unsafe { solve(p.as_ptr(), limit, 0, solution.as_mut_ptr(), &mut g) } as u64;
        guesses += g as u64;
    }
    (count, guesses)
}

/// `run`'s answer and the thread CPU time it took.
fn timed(run: impl FnOnce() -> (u64, u64)) -> (f64, u64, u64) {
    let start = shared::cpu_seconds();
    let (count, guesses) = run();
    (shared::cpu_seconds() - start, count, guesses)
}

fn main() -> anyhow::Result<()> {
    let mut rounds = 3usize;
    let mut limit = 2u32;
    let mut sample = 0usize;
    let mut files = Vec::new();
    let mut lib: Option<String> = None;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().unwrap_or_default().parse()?,
            "--limit" => limit = args.next().unwrap_or_default().parse()?,
            "--sample" => sample = args.next().unwrap_or_default().parse()?,
            "--lib" => lib = args.next(),
            "--only" => only = args.next(),
            _ => files.push(a),
        }
    }
    let lib = lib.ok_or_else(|| anyhow::anyhow!("--lib LIBRARY:SYMBOL is required"))?;
    let (path, symbol) = lib
        .rsplit_once(':')
        .ok_or_else(|| anyhow::anyhow!("--lib takes LIBRARY:SYMBOL, not {lib:?}"))?;
    // SAFETY: loading runs the library's initialisers; the library is one the user named
    // for benchmarking, with tdoku's signature.
    let library = unsafe { libloading::Library::new(path)? };
    // SAFETY: the symbol is declared with tdoku's signature, which the user vouches for.
    let solve: SolveFn = unsafe { *library.get::<SolveFn>(symbol.as_bytes())? };
    if files.is_empty() {
        files = DEFAULT_SETS.iter().map(|s| s.to_string()).collect();
    }
    let lim = Limit::new(limit).ok_or_else(|| anyhow::anyhow!("--limit must be at least 1"))?;
    let mut solver = Bitmask::new(&Options::default());
    if only.is_none() {
        println!(
            "limit {limit}, {rounds} rounds, alternating per {CHUNK} puzzles, thread CPU time\n\
             {:<38} {:>6} {:>11} {:>8} {:>11} {:>8} {:>7} {:>8} {:>8}",
            "set", "n", "bitmask/s", "µs", "lib/s", "µs", "ratio", "g bitm", "g lib"
        );
    }
    for file in &files {
        let grids = shared::grids(file, sample);
        let puzzles: Vec<Puzzle> = grids.iter().map(|&g| g.into()).collect();
        let texts: Vec<CString> = grids
            .iter()
            .map(|g| {
                let text: Vec<u8> = g
                    .cells()
                    .iter()
                    .map(|&v| if v == 0 { b'.' } else { b'0' + v })
                    .collect();
                CString::new(text).expect("no NUL in digits")
            })
            .collect();
        match only.as_deref() {
            Some("bitmask") => {
                run_bitmask(&mut solver, &puzzles, lim);
                continue;
            }
            Some("lib") => {
                run_lib(solve, &texts, limit as usize);
                continue;
            }
            Some("none") => continue,
            Some(other) => anyhow::bail!("--only takes bitmask, lib or none, not {other}"),
            None => {}
        }
        let (mut total_a, mut total_b) = (0f64, 0f64);
        let (mut guesses_a, mut guesses_b) = (0u64, 0u64);
        for round in 0..rounds {
            for (k, (pa, pb)) in puzzles.chunks(CHUNK).zip(texts.chunks(CHUNK)).enumerate() {
                let ((ta, ca, ga), (tb, cb, gb)) = if (round + k) % 2 == 0 {
                    let a = timed(|| run_bitmask(&mut solver, pa, lim));
                    (a, timed(|| run_lib(solve, pb, limit as usize)))
                } else {
                    let b = timed(|| run_lib(solve, pb, limit as usize));
                    (timed(|| run_bitmask(&mut solver, pa, lim)), b)
                };
                anyhow::ensure!(ca == cb, "{file}: counts differ ({ca} vs {cb})");
                total_a += ta;
                total_b += tb;
                if round == 0 {
                    guesses_a += ga;
                    guesses_b += gb;
                }
            }
        }
        let n = grids.len() as f64;
        let (ta, tb) = (total_a / rounds as f64, total_b / rounds as f64);
        let name = file.rsplit('/').next().unwrap_or(file);
        println!(
            "{:<38} {:>6} {:>11.0} {:>8.2} {:>11.0} {:>8.2} {:>7.3} {:>8.2} {:>8.2}",
            name,
            grids.len(),
            n / ta,
            ta / n * 1e6,
            n / tb,
            tb / n * 1e6,
            tb / ta,
            guesses_a as f64 / n,
            guesses_b as f64 / n
        );
    }
    Ok(())
}
