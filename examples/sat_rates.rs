//! Puzzles per second of the `sat` backend in each encoding, counting up to 2 solutions on one
//! thread, over 17-clue (a sample), magictour_top1465 and forum_hardest_1106, in one process
//! with the configurations interleaved round by round, timed in thread CPU time (the machine
//! is shared: compare ratios).
//! It also measures reusing one varisat solver (clues as assumptions, blocking clauses behind
//! activation literals) against the backend's fresh solver per puzzle.
//!
//! ```text
//! cargo run --release --example sat_rates -- [ROUNDS] [SAMPLE_17]
//! ```
//! Defaults: 3 rounds (the best round is reported), the first 3000 17-clue puzzles.

#[path = "shared/mod.rs"]
mod shared;

use sudobench::grid::Grid;
use sudobench::solver::sat::{Encoding, Formula, Givens, Sat};
use sudobench::solver::Limit;
use sudobench::solver::{Count, Solver};
use sudobench::verify;
use varisat::{ExtendFormula, Lit, Var};

/// One varisat solver kept across puzzles: the full encoding (no givens) loaded once, each
/// puzzle's clues assumed, its blocking clauses guarded by a fresh activation variable that is
/// retired (asserted false) afterwards. `rebuild` > 0 starts a new solver every that many
/// puzzles (tdoku's minisat harness rebuilds every 20).
fn reuse_run(encoding: Encoding, puzzles: &[Grid], rebuild: usize) -> (f64, usize) {
    let mut base = Formula::new();
    base.build(encoding, Givens::Grid(&Grid::EMPTY));
    let base_vars = base.num_vars();
    let start = shared::cpu_seconds();
    let mut solver = varisat::Solver::new();
    let mut next_var = base_vars;
    let mut truth = vec![false; base_vars];
    let mut blocking = Vec::new();
    let mut assumptions = Vec::new();
    let mut unique = 0;
    for (i, g) in puzzles.iter().enumerate() {
        if i == 0 || (rebuild > 0 && i % rebuild == 0) {
            solver = varisat::Solver::new();
            for c in base.clauses() {
                solver.add_clause(c);
            }
            next_var = base_vars;
        }
        let act = Var::from_index(next_var);
        next_var += 1;
        assumptions.clear();
        for (cell, &d) in g.cells().iter().enumerate() {
            if d != 0 {
                assumptions.push(Lit::from_index(cell * 9 + d as usize - 1, true));
            }
        }
        assumptions.push(act.positive());
        let mut found = 0;
        loop {
            solver.assume(&assumptions);
            if !solver.solve().expect("no interrupt") {
                break;
            }
            let model = solver.model().expect("model");
            for l in model {
                if l.index() < base_vars {
                    truth[l.index()] = l.is_positive();
                }
            }
            let mut scratch = Vec::new();
            let sol = base.decode(&truth, &mut scratch).expect("decodes");
            found += 1;
            if found == 2 {
                break;
            }
            blocking.clear();
            blocking.push(act.negative());
            for (cell, &d) in sol.cells().iter().enumerate() {
                if g.cells()[cell] == 0 {
                    blocking.push(Lit::from_index(cell * 9 + d as usize - 1, false));
                }
            }
            solver.add_clause(&blocking);
        }
        solver.add_clause(&[act.negative()]);
        if found == 1 {
            unique += 1;
        }
    }
    (shared::cpu_seconds() - start, unique)
}

/// Fresh solver per puzzle through the backend: (seconds, puzzles counted unique).
fn fresh_run(encoding: Encoding, place_first: bool, puzzles: &[Grid]) -> (f64, usize) {
    let mut s = Sat::with_encoding(encoding);
    s.set_place_first(place_first);
    let start = shared::cpu_seconds();
    let mut unique = 0;
    for g in puzzles {
        let o = s.solve(&(*g).into(), Limit::TWO);
        if o.count() == Count::Exactly(1) {
            unique += 1;
        }
    }
    (shared::cpu_seconds() - start, unique)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let sample: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let sets = [
        ("17-clue", shared::grids("data/puzzles2_17_clue.gz", sample)),
        (
            "magictour",
            shared::grids("data/puzzles3_magictour_top1465.gz", usize::MAX),
        ),
        (
            "1106",
            shared::grids("data/puzzles6_forum_hardest_1106.gz", usize::MAX),
        ),
    ];

    // Correctness first (not timed): every answer verified, every puzzle unique.
    for (name, puzzles) in &sets {
        for e in Encoding::ALL {
            let mut s = Sat::with_encoding(e);
            for g in puzzles {
                let o = s.solve(&(*g).into(), Limit::TWO);
                assert_eq!(o.count(), Count::Exactly(1), "{name} {e} {g}");
                verify::check(g, o.solution().as_ref().expect("solution")).expect("verifies");
            }
        }
    }

    // Formula sizes.
    println!("formula size (mean over the set): variables / clauses");
    let mut f = Formula::new();
    for (name, puzzles) in &sets {
        let mut line = format!("  {name:10}");
        for e in Encoding::ALL {
            let (mut v, mut c) = (0usize, 0usize);
            for g in puzzles {
                f.build(e, Givens::Grid(g));
                v += f.num_vars();
                c += f.num_clauses();
            }
            let n = puzzles.len() as f64;
            line += &format!("  {e}: {:.0} / {:.0}", v as f64 / n, c as f64 / n);
        }
        println!("{line}");
    }

    #[derive(Clone, Copy)]
    enum Config {
        Fresh(Encoding, bool),
        Reuse(Encoding, usize),
    }
    let mut configs: Vec<(String, Config)> = Vec::new();
    for e in Encoding::ALL {
        configs.push((format!("fresh {e}"), Config::Fresh(e, true)));
        configs.push((
            format!("fresh {e} (eliminate first)"),
            Config::Fresh(e, false),
        ));
    }
    for e in [Encoding::Extended, Encoding::Augmented] {
        for k in [0, 20] {
            let label = if k == 0 {
                format!("reuse {e} (one solver)")
            } else {
                format!("reuse {e} (rebuild/{k})")
            };
            configs.push((label, Config::Reuse(e, k)));
        }
    }
    let mut best = vec![vec![f64::INFINITY; configs.len()]; sets.len()];
    for round in 0..rounds {
        for (si, (_, puzzles)) in sets.iter().enumerate() {
            for (ci, (_, config)) in configs.iter().enumerate() {
                let (secs, unique) = match *config {
                    Config::Fresh(e, p) => fresh_run(e, p, puzzles),
                    Config::Reuse(e, k) => reuse_run(e, puzzles, k),
                };
                assert_eq!(unique, puzzles.len());
                best[si][ci] = best[si][ci].min(secs);
            }
        }
        eprintln!("round {} done", round + 1);
    }
    println!(
        "\npuzzles/s (µs/puzzle), best of {rounds} interleaved rounds, count up to 2, one thread"
    );
    print!("{:32}", "configuration");
    for (name, p) in &sets {
        print!("{:>24}", format!("{name} ({})", p.len()));
    }
    println!();
    for (ci, (label, _)) in configs.iter().enumerate() {
        print!("{label:32}");
        for (si, (_, p)) in sets.iter().enumerate() {
            let secs = best[si][ci];
            let rate = p.len() as f64 / secs;
            print!("{:>24}", format!("{rate:.0} ({:.0} µs)", 1e6 / rate));
        }
        println!();
    }
}
