//! `bitmask` against the `sudoku` crate (a JCZSolve port; a dev-dependency only, it is
//! AGPL-3.0 and never linked into the library or binary), on the same puzzles, counting up to
//! 2 solutions (uniqueness) and up to 1 (first solution).
//!
//! ```text
//! cargo bench --bench peers            # all sets, both limits (a few minutes)
//! cargo bench --bench peers -- magictour
//! ```
//!
//! One group per limit; ids are `BenchmarkId::new(solver, set)` with the set size as
//! `Throughput::Elements`, so criterion reports puzzles per second. For a ratio that is robust
//! on a shared machine, see `examples/peers_ratio.rs` (interleaved in one process).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudobench::format::Reader;
use sudobench::grid::Grid;
use sudobench::puzzle::Puzzle;
use sudobench::solver::bitmask::Bitmask;
use sudobench::solver::{Limit, Options, Solver};

/// Data sets and how many puzzles of each are timed (the first ones of the file).
const SETS: &[(&str, &str, usize)] = &[
    ("17-clue", "data/puzzles2_17_clue.gz", 2000),
    ("magictour", "data/puzzles3_magictour_top1465.gz", 1465),
    ("1905_11+", "data/puzzles5_forum_hardest_1905_11+.gz", 2000),
    ("1106", "data/puzzles6_forum_hardest_1106.gz", 375),
];

fn load(path: &str, sample: usize) -> Vec<Grid> {
    Reader::open(path)
        .expect("bundled data set opens")
        .filter_map(|r| match r.expect("bundled data set parses").puzzle {
            Puzzle::Grid(g) => Some(g),
            Puzzle::Candidates(_) | Puzzle::Order(_) => None,
        })
        .take(sample)
        .collect()
}

fn peers(c: &mut Criterion) {
    let sets: Vec<(&str, Vec<Grid>, Vec<sudoku::Sudoku>)> = SETS
        .iter()
        .map(|&(name, path, n)| {
            let grids = load(path, n);
            let theirs = grids
                .iter()
                .map(|g| sudoku::Sudoku::from_bytes_slice(g.cells()).expect("valid grid"))
                .collect();
            (name, grids, theirs)
        })
        .collect();
    for limit in [2u32, 1] {
        let mut group = c.benchmark_group(format!("peers_limit{limit}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        for (name, grids, theirs) in &sets {
            group.throughput(Throughput::Elements(grids.len() as u64));
            let mut solver = Bitmask::new(&Options::default());
            group.bench_with_input(BenchmarkId::new("bitmask", name), grids, |b, grids| {
                b.iter(|| {
                    let mut n = 0u32;
                    for g in grids {
                        if let Some(k) = solver
                            .solve(&(*black_box(g)).into(), Limit::new(limit).expect("nonzero"))
                            .count()
                            .found()
                        {
                            n += k;
                        }
                    }
                    n
                })
            });
            group.bench_with_input(BenchmarkId::new("sudoku", name), theirs, |b, theirs| {
                b.iter(|| {
                    let mut n = 0usize;
                    for s in theirs {
                        n += if limit == 1 {
                            black_box(*s).some_solution().is_some() as usize
                        } else {
                            black_box(*s).solutions_count_up_to(limit as usize)
                        };
                    }
                    n
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
