//! `sudobench generate --order N`: random minimal puzzles of any order (and the sets with
//! several solutions or none), one per line in the order's line form.

use super::output::Output;
use anyhow::Result;
use std::time::Instant;
use sudobench::generate::order::{minimal, no_solution, puzzle_seed, several};
use sudobench::order::{Order, OrderGrid};
use sudobench::runner::pipeline::map_ordered;
use sudobench::solver::wide::{Rules, Wide};

/// What the order-n generator is asked for (the flags of `generate` it takes).
pub struct OrderPlan {
    /// Indices of the puzzles to make (all of `--count`, or a shard's part).
    pub indices: std::ops::Range<u64>,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Clue sets without a solution.
    pub no_solution: bool,
    /// Puzzles with two or more solutions.
    pub several: bool,
}

/// `sudobench generate --order N`.
pub fn generate(plan: &OrderPlan, n: u8) -> Result<bool> {
    let order = Order::new(n as usize)?;
    let (seed, threads, none) = (plan.seed, plan.threads, plan.no_solution);
    let started = Instant::now();
    let mut out = Output::stdout();
    let (mut made, mut failed, mut clues) = (0u64, 0u64, 0usize);
    map_ordered(
        plan.indices.clone(),
        threads,
        1,
        || Wide::new(Rules::WITHOUT_PROBING),
        |wide, &index| {
            let s = puzzle_seed(seed, index);
            let made = if none {
                no_solution(order, s, wide)
            } else if plan.several {
                several(order, s, wide)
            } else {
                minimal(order, s, wide)
            };
            made.map_err(|e| e.to_string())
        },
        |index, result: Result<OrderGrid, String>| match result {
            Ok(p) => {
                made += 1;
                clues += p.clue_count();
                out.line(&p.to_line());
                out.is_open()
            }
            Err(e) => {
                failed += 1;
                eprintln!("error: puzzle {index}: {e}");
                true
            }
        },
    );
    out.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "sudobench generate: {made} {order} {} in {seconds:.2} s ({:.2}/s, {}); \
         mean {:.2} clues; {failed} failed",
        if made == 1 { "puzzle" } else { "puzzles" },
        made as f64 / seconds.max(1e-9),
        super::output::plural(threads as u64, "thread", "threads"),
        clues as f64 / made.max(1) as f64,
    );
    Ok(failed == 0)
}
