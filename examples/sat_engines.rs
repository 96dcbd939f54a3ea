//! Puzzles per second of the SAT backends (`sat`: varisat, `sat-batsat`, `sat-cadical` when
//! built with the `cadical` feature) in each encoding, and of one batsat solver reused across
//! puzzles (the full formula loaded once, clues as assumptions, blocking clauses behind an
//! activation literal retired after each puzzle; optionally rebuilt every K puzzles, as tdoku's
//! minisat harness does every 20) against the backend's fresh solver per puzzle. Counting up to
//! 2 solutions on one thread, configurations interleaved round by round, thread CPU time (the
//! machine is shared: compare ratios), best round reported.
//!
//! ```text
//! cargo run --release --example sat_engines -- [ROUNDS] [SAMPLE_17]
//! ```
//! Defaults: 3 rounds, the first 3000 17-clue puzzles.

#[path = "shared/mod.rs"]
mod shared;

use batsat::{lbool, SolverInterface};
use sudobench::grid::Grid;
use sudobench::solver::sat::{Encoding, Formula, Givens};
use sudobench::solver::{Count, Limit, Options, Solver};

/// A backend by name: (seconds, puzzles counted unique).
fn backend_run(name: &str, encoding: Encoding, puzzles: &[Grid]) -> (f64, usize) {
    let options = Options::default().with(encoding);
    let mut s = sudobench::backends::build(name, &options).expect("backend builds");
    let start = shared::cpu_seconds();
    let mut unique = 0;
    for g in puzzles {
        if s.solve(&(*g).into(), Limit::TWO).count() == Count::Exactly(1) {
            unique += 1;
        }
    }
    (shared::cpu_seconds() - start, unique)
}

struct Quiet;
impl batsat::Callbacks for Quiet {}

fn blit(var: usize, positive: bool) -> batsat::Lit {
    batsat::Lit::new(batsat::Var::unsafe_from_idx(var as u32), positive)
}

/// One batsat solver over the formula of the empty grid in `encoding` (whose first 729
/// variables are the candidates in their full numbering), rebuilt every `rebuild` puzzles
/// (0: never).
fn batsat_reuse_run(encoding: Encoding, puzzles: &[Grid], rebuild: usize) -> (f64, usize) {
    let mut base = Formula::new();
    base.build(encoding, Givens::Grid(&Grid::EMPTY));
    let base_vars = base.num_vars();
    let start = shared::cpu_seconds();
    let new_solver = || {
        let mut s = batsat::Solver::new(batsat::SolverOpts::default(), Quiet);
        for _ in 0..base_vars {
            s.new_var(lbool::TRUE, true);
        }
        let mut c = Vec::new();
        for clause in base.clauses() {
            c.clear();
            c.extend(clause.iter().map(|l| blit(l.index(), l.is_positive())));
            s.add_clause_reuse(&mut c);
        }
        s
    };
    let mut solver = new_solver();
    let mut assumptions = Vec::new();
    let mut clause = Vec::new();
    let mut unique = 0;
    for (i, g) in puzzles.iter().enumerate() {
        if rebuild > 0 && i > 0 && i % rebuild == 0 {
            solver = new_solver();
        }
        let act = solver.new_var(lbool::FALSE, false);
        assumptions.clear();
        for (cell, &d) in g.cells().iter().enumerate() {
            if d != 0 {
                assumptions.push(blit(cell * 9 + d as usize - 1, true));
            }
        }
        assumptions.push(batsat::Lit::new(act, true));
        let mut found = 0;
        while solver.solve_limited(&assumptions) == lbool::TRUE {
            found += 1;
            if found == 2 {
                break;
            }
            clause.clear();
            clause.push(batsat::Lit::new(act, false));
            let model = solver.get_model();
            for cell in 0..81 {
                if g.cells()[cell] == 0 {
                    let d = (0..9).find(|&d| model[cell * 9 + d] == lbool::TRUE);
                    clause.push(blit(cell * 9 + d.expect("a digit"), false));
                }
            }
            solver.add_clause_reuse(&mut clause);
        }
        clause.clear();
        clause.push(batsat::Lit::new(act, false));
        solver.add_clause_reuse(&mut clause);
        if found == 1 {
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
    #[derive(Clone, Copy)]
    enum Config {
        Backend(&'static str, Encoding),
        Reuse(Encoding, usize),
    }
    let mut configs: Vec<(String, Config)> = Vec::new();
    let names: Vec<&'static str> = sudobench::backends::builtin_names()
        .filter(|n| *n == "sat" || n.starts_with("sat-"))
        .collect();
    for e in Encoding::ALL {
        for &n in &names {
            configs.push((format!("{n} {e}"), Config::Backend(n, e)));
        }
    }
    for e in [Encoding::Reduced, Encoding::Augmented] {
        for k in [0, 20] {
            configs.push((
                format!("batsat reused {e} rebuild/{k}"),
                Config::Reuse(e, k),
            ));
        }
    }
    let mut best = vec![vec![f64::INFINITY; configs.len()]; sets.len()];
    for _ in 0..rounds {
        for (si, (_, puzzles)) in sets.iter().enumerate() {
            for (ci, (_, config)) in configs.iter().enumerate() {
                let (secs, unique) = match *config {
                    Config::Backend(n, e) => backend_run(n, e, puzzles),
                    Config::Reuse(e, k) => batsat_reuse_run(e, puzzles, k),
                };
                assert_eq!(unique, puzzles.len(), "{}", configs[ci].0);
                best[si][ci] = best[si][ci].min(secs);
            }
        }
    }
    println!("puzzles/s (thread CPU time, best of {rounds} rounds)");
    print!("{:34}", "configuration");
    for (name, puzzles) in &sets {
        print!(" {:>14}", format!("{name} ({})", puzzles.len()));
    }
    println!();
    for (ci, (label, _)) in configs.iter().enumerate() {
        print!("{label:34}");
        for (si, (_, puzzles)) in sets.iter().enumerate() {
            print!(" {:>14.0}", puzzles.len() as f64 / best[si][ci]);
        }
        println!();
    }
}
