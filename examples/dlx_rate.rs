//! Single-thread solve rate of backends on the bundled sets, counting up to 2 solutions (the
//! tdoku/kudoku benchmark mode, without random symmetries).
//!
//! Backends are timed interleaved in rounds, on the same puzzles in the same process, so
//! their ratio is meaningful on a noisy shared machine; the best of the rounds is kept.
//! Time is the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall time, so time spent
//! descheduled by other processes on a loaded machine is not counted. Puzzles are parsed
//! before timing.
//!
//! ```text
//! cargo run --release --example dlx_rate -- [--backends dlx,basic] [--rounds 3] [--max N] [FILE...]
//! ```

use std::time::Duration;
use sudobench::backends;
use sudobench::solver::Limit;
use sudobench::util::thread_cpu_time;

use sudobench::format::Reader;
use sudobench::puzzle::Puzzle;
use sudobench::solver::{Count, Options, Stats};

const DEFAULT_FILES: &[&str] = &[
    "data/puzzles2_17_clue.gz",
    "data/puzzles3_magictour_top1465.gz",
    "data/puzzles5_forum_hardest_1905_11+.gz",
];

fn main() -> anyhow::Result<()> {
    let mut backends = vec!["dlx".to_string(), "basic".to_string()];
    let mut rounds = 3usize;
    let mut max = usize::MAX;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backends" => {
                backends = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            "--rounds" => rounds = args.next().unwrap_or_default().parse()?,
            "--max" => max = args.next().unwrap_or_default().parse()?,
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        let root = env!("CARGO_MANIFEST_DIR");
        files = DEFAULT_FILES
            .iter()
            .map(|f| format!("{root}/{f}"))
            .collect();
    }
    // Speed is shown relative to `basic` if it runs, else to the first backend.
    let base = backends.iter().position(|b| b == "basic").unwrap_or(0);
    println!(
        "{:<40} {:<10} {:>7} {:>11} {:>10} {:>12} {:>12} {:>9}",
        "set",
        "backend",
        "puzzles",
        "puzzles/s",
        "us/puzzle",
        "nodes/puz",
        "guesses/puz",
        format!("x {}", backends[base])
    );
    for file in &files {
        let puzzles: Vec<Puzzle> = Reader::open(file)?
            .take(max)
            .map(|r| r.map(|r| r.puzzle))
            .collect::<Result<_, _>>()?;
        let mut solvers = backends
            .iter()
            .map(|b| backends::build(b, &Options::default()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut best = vec![Duration::MAX; solvers.len()];
        let mut stats = vec![Stats::default(); solvers.len()];
        let mut counts = vec![[0u64; 4]; solvers.len()];
        for _ in 0..rounds {
            for (k, s) in solvers.iter_mut().enumerate() {
                let mut st = Stats::default();
                let mut c = [0u64; 4];
                let t = thread_cpu_time();
                for p in &puzzles {
                    let o = s.solve(p, Limit::TWO);
                    st.accumulate(o.stats());
                    match o.count() {
                        Count::Exactly(n) | Count::AtLeast(n) => c[n.min(2) as usize] += 1,
                        Count::Unknown => c[3] += 1,
                    }
                }
                best[k] = best[k].min(thread_cpu_time() - t);
                stats[k] = st;
                counts[k] = c;
            }
        }
        let name = std::path::Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let n = puzzles.len() as f64;
        for (k, b) in backends.iter().enumerate() {
            let secs = best[k].as_secs_f64();
            println!(
                "{:<40} {:<10} {:>7} {:>11.0} {:>10.2} {:>12.1} {:>12.2} {:>8.2}x",
                name,
                b,
                puzzles.len(),
                n / secs,
                secs * 1e6 / n,
                stats[k].nodes as f64 / n,
                stats[k].guesses.unwrap_or(0) as f64 / n,
                best[base].as_secs_f64() / secs,
            );
            if counts[k] != counts[0] {
                println!("  !! counts differ: {:?} vs {:?}", counts[k], counts[0]);
            }
        }
    }
    Ok(())
}
