//! Puzzle generation rate of `sudobench::generate` against the `sudoku` crate (a
//! dev-dependency only, AGPL), in one process on one thread: the two alternate on slices of
//! puzzles and each one's thread CPU time is added up, so load from other processes falls on
//! both alike.
//!
//! ```text
//! cargo run --release --example generate_ratio -- [--rounds N] [--count N] [--slice N]
//!     [--seed S] [--only ours|sudoku]
//! ```
//!
//! Ours: `Generator::generate(seed, i)` with the default configuration (random solution grid,
//! clue removal to a minimal unique puzzle, no symmetry), which includes the confirmation of
//! every puzzle by a second backend (`logic`); the rate without that confirmation is printed
//! too. Theirs:
//! `Sudoku::generate_from(Sudoku::generate_solved())`, the same task (random grid, removal to a
//! minimal unique puzzle). Prints the rates, their ratio, and the clue histograms.

use std::collections::BTreeMap;
use sudobench::generate::{Config, Generator};
use sudobench::util::thread_cpu_time;

fn cpu_now() -> f64 {
    thread_cpu_time().as_secs_f64()
}

/// Generates `n` puzzles with ours from index `from`; returns the CPU seconds.
fn ours(g: &mut Generator, seed: u64, from: u64, n: u64, clues: &mut BTreeMap<usize, u64>) -> f64 {
    let start = cpu_now();
    for i in from..from + n {
        match g.generate(seed, i) {
            Ok(p) => *clues.entry(p.puzzle.clue_count()).or_default() += 1,
            Err(e) => eprintln!("puzzle {i}: {e}"),
        }
    }
    cpu_now() - start
}

/// Generates `n` puzzles with the `sudoku` crate; returns the CPU seconds.
fn theirs(n: u64, clues: &mut BTreeMap<usize, u64>) -> f64 {
    let start = cpu_now();
    for _ in 0..n {
        let s = sudoku::Sudoku::generate_from(sudoku::Sudoku::generate_solved());
        let given = s.to_bytes().iter().filter(|&&v| v != 0).count();
        *clues.entry(given).or_default() += 1;
    }
    cpu_now() - start
}

fn mean(h: &BTreeMap<usize, u64>) -> f64 {
    let n: u64 = h.values().sum();
    h.iter().map(|(&k, &v)| k as f64 * v as f64).sum::<f64>() / n.max(1) as f64
}

fn main() -> anyhow::Result<()> {
    let (mut rounds, mut count, mut slice, mut seed) = (3u64, 4000u64, 100u64, 1u64);
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--rounds" => rounds = value().parse()?,
            "--count" => count = value().parse()?,
            "--slice" => slice = value().parse::<u64>()?.max(1),
            "--seed" => seed = value().parse()?,
            "--only" => only = Some(value()),
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    let mut g = Generator::new(Config::default())?;
    let (mut h_ours, mut h_theirs) = (BTreeMap::new(), BTreeMap::new());
    // `--only`: one generator, untimed (the CPU clock's vDSO lookup does not run under
    // valgrind), for instruction counts with callgrind.
    match only.as_deref() {
        Some("ours") => {
            for i in 0..count {
                g.generate(seed, i)?;
            }
            return Ok(());
        }
        Some("sudoku") => {
            for _ in 0..count {
                sudoku::Sudoku::generate_from(sudoku::Sudoku::generate_solved());
            }
            return Ok(());
        }
        Some(other) => anyhow::bail!("--only takes ours or sudoku, not {other}"),
        None => {}
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    println!(
        "{cpu}; {rounds} rounds of {count} puzzles each, alternating per {slice}, thread CPU time"
    );
    let (mut t_ours, mut t_theirs) = (0f64, 0f64);
    let mut index = 0u64;
    for round in 0..rounds {
        let mut done = 0;
        let mut k = 0u64;
        while done < count {
            let n = slice.min(count - done);
            if (round + k).is_multiple_of(2) {
                t_ours += ours(&mut g, seed, index, n, &mut h_ours);
                t_theirs += theirs(n, &mut h_theirs);
            } else {
                t_theirs += theirs(n, &mut h_theirs);
                t_ours += ours(&mut g, seed, index, n, &mut h_ours);
            }
            index += n;
            done += n;
            k += 1;
        }
    }
    let total = (rounds * count) as f64;
    let (r_ours, r_theirs) = (total / t_ours, total / t_theirs);
    // The confirmation's share: the same puzzles again, confirmed only.
    let confirm_share = {
        let mut dlx = sudobench::backends::build(&Config::default().confirm, &Default::default())?;
        let mut again = Generator::new(Config::default())?;
        let puzzles: Vec<_> = (0..count.min(2000))
            .filter_map(|i| again.generate(seed, i).ok())
            .collect();
        let start = cpu_now();
        for p in &puzzles {
            sudobench::probe::probe_grid(dlx.as_mut(), &p.puzzle, 2);
        }
        (cpu_now() - start) / puzzles.len().max(1) as f64
    };
    println!(
        "{:<28} {:>12} {:>10} {:>12}",
        "generator", "puzzles/s", "µs/puzzle", "mean clues"
    );
    println!(
        "{:<28} {:>12.0} {:>10.1} {:>12.2}",
        "sudobench (confirmed)",
        r_ours,
        1e6 / r_ours,
        mean(&h_ours)
    );
    let raw = 1.0 / (1.0 / r_ours - confirm_share);
    println!(
        "{:<28} {:>12.0} {:>10.1} {:>12}",
        "sudobench (unconfirmed)",
        raw,
        1e6 / raw,
        ""
    );
    println!(
        "{:<28} {:>12.0} {:>10.1} {:>12.2}",
        "sudoku crate",
        r_theirs,
        1e6 / r_theirs,
        mean(&h_theirs)
    );
    println!(
        "ratio sudobench / sudoku: {:.2} (confirmed), {:.2} (without the confirmation)",
        r_ours / r_theirs,
        raw / r_theirs
    );
    println!(
        "\nclue histogram (share of puzzles, %)\n{:>5} {:>10} {:>10}",
        "clues", "sudobench", "sudoku"
    );
    let keys: std::collections::BTreeSet<usize> =
        h_ours.keys().chain(h_theirs.keys()).copied().collect();
    for k in keys {
        let pct = |h: &BTreeMap<usize, u64>| {
            100.0 * *h.get(&k).unwrap_or(&0) as f64 / h.values().sum::<u64>().max(1) as f64
        };
        println!("{k:>5} {:>10.2} {:>10.2}", pct(&h_ours), pct(&h_theirs));
    }
    Ok(())
}
