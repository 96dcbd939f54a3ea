//! sudobench's exact-cover engine beside two peer crates on the bundled instances: counts
//! every solution of each `data/xc` instance (or of the files given) with
//!
//! - `sudobench dlx-array`: `sudobench::xc::array` (Algorithm X over a bit set of available
//!   options, colours included; the `dlx-array` backend);
//! - `sudobench dlx`: `sudobench::xc::dlx` (Algorithm C, the `dlx` backend);
//! - `sudobench dlx1`: the Sudoku suite's engine, `sudobench::exact_cover` (the `dlx1`
//!   backend; instances without colours only);
//! - `dlx crate`: the `dlx` crate (its Algorithm X for instances without colours, its
//!   Algorithm C for those with; MRV chooser, no tie-break; reads Knuth's format itself);
//! - `exact-covers`: the `exact-covers` crate's dancing links (`DlSolver`; its dancing-cells
//!   `DcSolver` is a `todo!()` in version 0.3.0).
//!
//! Every count is compared with the file's `| count:` line (exit code 1 on a difference).
//! Times are wall clock, best of several runs for the quick ones; `ratio` is the peer's time
//! over `dlx-array`'s (above 1: `dlx-array` is faster), and each instance ends with a line
//! giving the faster peer's time over `dlx-array`'s.
//!
//! ```sh
//! cargo run --profile ci --example xc_peers                  # every bundled instance
//! cargo run --profile ci --example xc_peers -- data/xc/queens-10.dlx
//! ```

use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use sudobench::xc::{dlx::Dlx, knuth::read_bytes, Instance, Limit, Tally};

/// Runs `count` until at least `MIN_TOTAL` has passed (at most `MAX_RUNS` times); the best
/// time and the count.
fn timed(mut count: impl FnMut() -> u64) -> (u64, Duration) {
    const MIN_TOTAL: Duration = Duration::from_millis(300);
    const MAX_RUNS: usize = 20;
    let (mut best, mut total, mut n) = (Duration::MAX, Duration::ZERO, 0);
    let mut result = 0;
    while n < MAX_RUNS && (n == 0 || total < MIN_TOTAL) {
        let start = Instant::now();
        result = count();
        let t = start.elapsed();
        best = best.min(t);
        total += t;
        n += 1;
    }
    (result, best)
}

fn ours_array(inst: &Instance) -> u64 {
    let mut ignore = |_: &[usize]| {};
    sudobench::xc::array::search(inst, Tally::new(Limit::All, None, &mut ignore)).count
}

fn ours(inst: &Instance) -> u64 {
    Dlx::new(inst).search(Limit::All, None, &mut |_| {}).count
}

fn ours_dlx1(inst: &Instance) -> u64 {
    sudobench::xc::run("dlx1", inst, Limit::All, None, 0, &mut |_| {}).map_or(0, |f| f.count)
}

/// The `dlx` crate on the file's text (comments are skipped by its reader).
fn dlx_crate(text: &str, coloured: bool) -> u64 {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    let spec = dlx::Spec::new(text, false).expect("the dlx crate reads the file");
    let mut n = 0;
    if coloured {
        let mut problem = dlx::c::Problem::from_spec(&spec).expect("problem");
        let mut solver = dlx::Solver::new(&mut problem);
        let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
        while solver.next_solution(&mut chooser) {
            n += 1;
        }
    } else {
        let mut problem = dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("problem");
        let mut solver = dlx::Solver::new(&mut problem);
        let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
        while solver.next_solution(&mut chooser) {
            n += 1;
        }
    }
    n
}

/// The `exact-covers` crate's dancing links.
fn exact_covers(inst: &Instance) -> u64 {
    use exact_covers::Solver;
    let primary: Vec<usize> = (0..inst.primary).collect();
    let secondary: Vec<usize> = (inst.primary..inst.items()).collect();
    fn fill<'i, S: exact_covers::Solver<'i, usize, u32>>(solver: &mut S, inst: &Instance) {
        for option in &inst.options {
            let p: Vec<usize> = option
                .iter()
                .filter(|&&(i, _)| i < inst.primary)
                .map(|&(i, _)| i)
                .collect();
            let s: Vec<(usize, Option<u32>)> = option
                .iter()
                .filter(|&&(i, _)| i >= inst.primary)
                .map(|&(i, c)| (i, (c > 0).then_some(c)))
                .collect();
            solver.add_option(&p, &s);
        }
    }
    let mut n = 0;
    let mut solver: exact_covers::DlSolver<usize, u32> =
        exact_covers::DlSolver::new(&primary, &secondary);
    fill(&mut solver, inst);
    solver.solve(|_| {
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

fn main() {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        let mut found: Vec<String> = std::fs::read_dir("data/xc")
            .expect("run from the package root")
            .map(|e| {
                format!(
                    "data/xc/{}",
                    e.expect("entry").file_name().to_string_lossy()
                )
            })
            .filter(|f| f.contains(".dlx"))
            .collect();
        found.sort();
        files = found;
    }
    let mut clean = true;
    println!(
        "{:<30} {:<19} {:>10} {:>10} {:>8}",
        "instance", "engine", "solutions", "seconds", "ratio"
    );
    for file in &files {
        let bytes = read_bytes(file).expect("readable");
        let text = String::from_utf8(bytes.clone()).expect("UTF-8");
        let inst = Instance::parse(file, &bytes).expect("a valid instance");
        let coloured = inst.options.iter().flatten().any(|&(_, c)| c > 0);
        let (count, base) = timed(|| ours_array(&inst));
        let mut rows = vec![("sudobench dlx-array", count, base)];
        let (c, t) = timed(|| ours(&inst));
        rows.push(("sudobench dlx", c, t));
        if !coloured {
            let (c, t) = timed(|| ours_dlx1(&inst));
            rows.push(("sudobench dlx1", c, t));
        }
        let (c, t) = timed(|| dlx_crate(&text, coloured));
        rows.push(("dlx crate", c, t));
        let (c, t) = timed(|| exact_covers(&inst));
        rows.push(("exact-covers", c, t));
        let peer = rows[rows.len() - 2..]
            .iter()
            .map(|r| r.2)
            .min()
            .expect("two peers");
        for (engine, c, t) in rows {
            let verdict = match inst.expected {
                Some(e) if e != c => {
                    clean = false;
                    format!("  MISMATCH: the file says {e}")
                }
                _ => String::new(),
            };
            println!(
                "{:<30} {:<19} {:>10} {:>10.6} {:>8.2}{verdict}",
                file,
                engine,
                c,
                t.as_secs_f64(),
                t.as_secs_f64() / base.as_secs_f64().max(1e-9)
            );
        }
        println!(
            "{:<30} {:<19} {:>10} {:>10} {:>8.2}",
            file,
            "faster peer",
            "",
            "",
            peer.as_secs_f64() / base.as_secs_f64().max(1e-9)
        );
    }
    if !clean {
        std::process::exit(1);
    }
}
