//! Criterion benchmarks: every registered complete backend on a fixed sample of every bundled
//! data set. One group per set, `BenchmarkId::new(backend, set)`, throughput in puzzles, so
//! criterion reports puzzles per second. Limit 2 (uniqueness), puzzles as in the files.
//!
//! ```sh
//! cargo bench --bench backends                 # everything (a few minutes)
//! cargo bench --bench backends -- 17_clue      # one set
//! cargo bench --bench backends -- basic/       # one backend
//! ```

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use sudobench::backends::{build, BACKENDS};
use sudobench::format::Reader;
use sudobench::solver::Limit;
use sudobench::solver::Options;
use sudobench::Puzzle;

/// Puzzles per set: small enough that the slowest backend stays cheap on the hardest set.
const SAMPLE: usize = 40;

/// The bundled sets, sorted by name.
fn sets() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "gz"))
                .map(|p| {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().trim_end_matches(".gz").to_string())
                        .unwrap_or_default();
                    (name, p.to_string_lossy().into_owned())
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// `SAMPLE` puzzles spread evenly over the file (every k-th record), so the sample is fixed.
fn sample(path: &str) -> Vec<Puzzle> {
    let all: Vec<Puzzle> = match Reader::open(path) {
        Ok(r) => r.filter_map(|i| i.ok()).map(|r| r.puzzle).collect(),
        Err(_) => Vec::new(),
    };
    let step = (all.len() / SAMPLE).max(1);
    all.into_iter().step_by(step).take(SAMPLE).collect()
}

fn backends(c: &mut Criterion) {
    let options = Options::default();
    for (set, path) in sets() {
        let puzzles = sample(&path);
        if puzzles.is_empty() {
            continue;
        }
        let mut group = c.benchmark_group(&set);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for info in BACKENDS {
            if !info.complete {
                continue;
            }
            let Ok(mut solver) = build(info.name, &options) else {
                continue;
            };
            group.bench_with_input(BenchmarkId::new(info.name, &set), &puzzles, |b, ps| {
                b.iter(|| {
                    for p in ps {
                        black_box(solver.solve(black_box(p), Limit::TWO));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, backends);
criterion_main!(benches);
