//! Certificates of a puzzle's count, produced and checked independently (`sudobench certify`).
//!
//! For each puzzle the count (0, 1 or 2+) comes with a certificate that a separate checker
//! accepts or rejects:
//! - **0**: a proof refuting the puzzle's CNF formula;
//! - **1**: the solution, and a proof refuting the formula plus the clause blocking it;
//! - **2+**: two different solutions (no proof).
//!
//! [`search_order`] produces them for grids of every order, through [`search`]'s `Producer`
//! for 9×9 grids and pencilmark positions: a backtracking search whose propagation is exactly what unit
//! propagation on the CNF derives, so its failed branches, in post-order, are a DRUP proof
//! (reverse-unit-propagation lemmas ending in the empty clause). A 9×9 puzzle is first counted
//! to 2 by `bitmask`: when it has two solutions they are the certificate, and no proof is
//! searched for. [`check`] checks them with no
//! code in common with the producer (nor with the rest of the crate): its own CNF from the
//! puzzle's text, its own reading of the solutions and the proof, its own propagation. The
//! proofs are plain DRAT text, so any DRAT checker (`rate`, `drat-trim`) checks them too
//! against the CNF [`write_cnf`] writes (the `sat` backend's `extended` encoding, built by
//! other code again). [`files`] names and writes kept certificates (`certify --keep`) and
//! `count --proof`'s DRAT proofs.

pub mod check;
pub mod files;
pub mod search;
pub mod search_order;

use crate::grid::Candidates;
use crate::order::OrderGrid;
use crate::puzzle::{Puzzle, Solution};
use crate::solver::bitmask::Bitmask;
use crate::solver::sat::encoding::{Encoding, Formula, Givens};
use crate::solver::{Limit, Options, Solver};
use crate::util::thread_cpu_time;
use check::{Checker, Claim};
use search::{Found, Producer};
use std::io::{self, Write};
use std::time::Duration;

/// Search nodes allowed per puzzle by default (the hardest known 9×9 puzzles take tens of
/// thousands; so do the generated 16×16 ones).
pub const DEFAULT_MAX_NODES: u64 = 10_000_000;

/// The count a certificate is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// No solution.
    Zero,
    /// Exactly one.
    One,
    /// Two or more.
    TwoPlus,
}

impl Count {
    /// `0`, `1` or `2+`.
    pub fn text(self) -> &'static str {
        match self {
            Count::Zero => "0",
            Count::One => "1",
            Count::TwoPlus => "2+",
        }
    }
}

/// One puzzle's certification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certified {
    /// The count found (`None`: the search gave up, or the check ran out of time).
    pub count: Option<Count>,
    /// The solutions behind it (one for 1, two for 2+).
    pub solutions: Vec<Solution>,
    /// Whether the checker accepted the certificate; otherwise why not.
    pub verdict: Result<(), String>,
    /// Certificate size in bytes: the proof text, or the two solutions' lines for 2+ (164
    /// bytes on 9×9).
    pub bytes: usize,
    /// Search nodes.
    pub nodes: u64,
    /// Time to produce (search and proof writing): CPU time of the thread.
    pub produce: Duration,
    /// Time to check: CPU time of the thread.
    pub check: Duration,
}

impl Certified {
    /// Whether the count is certified.
    pub fn ok(&self) -> bool {
        self.count.is_some() && self.verdict.is_ok()
    }
}

/// A producer and a checker (one per thread), with the last proof kept for writing.
pub struct Certifier {
    /// For 9×9 grids and pencilmark positions.
    producer: Producer,
    /// Finds two solutions of a 9×9 grid that has them, far sooner than a search that
    /// probes (serg_benchmark: 2 µs a puzzle against 116 µs).
    two: Bitmask,
    max_nodes: u64,
    checker: Checker,
    proof: Vec<u8>,
}

impl Certifier {
    /// A certifier whose search gives up after `max_nodes` nodes per puzzle.
    pub fn new(max_nodes: u64) -> Certifier {
        Certifier {
            producer: Producer::new(max_nodes),
            two: Bitmask::new(&Options {
                max_nodes: Some(max_nodes),
                ..Options::default()
            }),
            max_nodes,
            checker: Checker::new(),
            proof: Vec::with_capacity(1 << 16),
        }
    }

    /// The proof of the last puzzle certified (empty for 2+ or when the search gave up).
    pub fn proof(&self) -> &[u8] {
        &self.proof
    }

    /// Produces and checks the certificate of `puzzle` (of any order).
    pub fn certify(&mut self, puzzle: &Puzzle) -> Certified {
        let start = thread_cpu_time();
        let produced = match puzzle {
            Puzzle::Order(g) => search_order::produce(g, self.max_nodes, &mut self.proof)
                .map(|(found, nodes)| (of_order(found), nodes)),
            // A 9×9 grid with two solutions is settled by `bitmask` at once: the search that
            // proves counts probes at every node, for nothing where two solutions are the
            // answer (serg_benchmark took 1.26 s instead of 0.09 s).
            _ => match self.two_solutions(puzzle) {
                Some(two) => {
                    self.proof.clear();
                    Ok(two)
                }
                None => self
                    .producer
                    .produce(puzzle, &mut self.proof)
                    .map(|(found, nodes)| (of_nine(found), nodes)),
            },
        };
        let produce = thread_cpu_time().saturating_sub(start);
        let (found, nodes) = match produced {
            Ok(x) => x,
            Err(budget) => {
                return Certified {
                    count: None,
                    solutions: Vec::new(),
                    verdict: Err(budget.to_string()),
                    bytes: 0,
                    nodes: budget.nodes(),
                    produce,
                    check: Duration::ZERO,
                }
            }
        };
        let text = puzzle.to_line();
        // The puzzle's time limit holds for the check too.
        self.checker.set_deadline(crate::deadline::current());
        let start = thread_cpu_time();
        let (count, solutions, verdict, bytes) = match &found {
            Found::None => (
                Count::Zero,
                vec![],
                self.checker.check(&text, Claim::None, &self.proof),
                self.proof.len(),
            ),
            Found::Unique(s) => (
                Count::One,
                vec![s.clone()],
                self.checker
                    .check(&text, Claim::Unique(&s.to_line()), &self.proof),
                self.proof.len(),
            ),
            Found::Two(s, t) => {
                let (s_text, t_text) = (s.to_line(), t.to_line());
                (
                    Count::TwoPlus,
                    vec![s.clone(), t.clone()],
                    self.checker.check(&text, Claim::Two(&s_text, &t_text), b""),
                    s_text.len() + t_text.len() + 2,
                )
            }
        };
        let check = thread_cpu_time().saturating_sub(start);
        if let Err(r @ check::Rejection::OutOfTime { .. }) = &verdict {
            // Neither accepted nor rejected: the count stays undecided, as when the search
            // runs out of time.
            return Certified {
                count: None,
                solutions: Vec::new(),
                verdict: Err(r.to_string()),
                bytes,
                nodes,
                produce,
                check,
            };
        }
        Certified {
            count: Some(count),
            solutions,
            verdict: verdict.map_err(|r| format!("checker rejects: {r}")),
            bytes,
            nodes,
            produce,
            check,
        }
    }
}

impl Certifier {
    /// Two solutions of a 9×9 puzzle that has them, by `bitmask` (the checker verifies them
    /// like any other's), with its nodes; `None` when it has fewer or the search gave up.
    fn two_solutions(&mut self, puzzle: &Puzzle) -> Option<(Found<Solution>, u64)> {
        // `bitmask` reads the clock every 1,024 nodes only: a puzzle whose time is already
        // up goes to the producer, which says so at its first node.
        if crate::deadline::passed() {
            return None;
        }
        let outcome = self.two.solve(puzzle, Limit::TWO);
        let (s, t) = (outcome.solution()?, outcome.second()?);
        let two = Found::Two(Solution::Grid(*s), Solution::Grid(*t));
        Some((two, outcome.stats().nodes))
    }
}

/// A 9×9 search's find with its solutions as [`Solution`]s.
fn of_nine(found: Found) -> Found<Solution> {
    match found {
        Found::None => Found::None,
        Found::Unique(s) => Found::Unique(Solution::Grid(s)),
        Found::Two(s, t) => Found::Two(Solution::Grid(s), Solution::Grid(t)),
    }
}

/// Another order's find with its solutions as [`Solution`]s.
fn of_order(found: Found<OrderGrid>) -> Found<Solution> {
    match found {
        Found::None => Found::None,
        Found::Unique(s) => Found::Unique(Solution::from_order_grid(s)),
        Found::Two(s, t) => Found::Two(Solution::from_order_grid(s), Solution::from_order_grid(t)),
    }
}

/// Writes the CNF a proof refutes, for outside DRAT checkers: on 9×9 the `sat` backend's
/// `extended` encoding of `puzzle` (the same numbering as the checker's), on the other orders
/// the same encoding written by [`write_order_cnf`]; plus the clause blocking `solution` when
/// there is one.
pub fn write_cnf(
    out: &mut dyn Write,
    puzzle: &Puzzle,
    solution: Option<&Solution>,
) -> io::Result<()> {
    let (givens, candidates) = match puzzle {
        Puzzle::Grid(g) => (Givens::Grid(g), Candidates::from_grid(g)),
        Puzzle::Candidates(c) => (Givens::Candidates(c), *c),
        Puzzle::Order(g) => {
            // (A grid of order 3 built as `Puzzle::Order` has its solution as a 9×9 grid.)
            let solution = solution.map(|s| match s {
                Solution::Order(s) => (**s).clone(),
                Solution::Grid(s) => OrderGrid::from_grid(s),
            });
            return write_order_cnf(out, g, solution.as_ref());
        }
    };
    let solution = match solution {
        Some(s) => Some(
            s.grid()
                .ok_or_else(|| io::Error::other("a solution of another order for a 9x9 puzzle"))?,
        ),
        None => None,
    };
    let mut formula = Formula::new();
    formula.build(Encoding::Extended, givens);
    let mut title = vec![format!("sudobench certificate input: puzzle {puzzle}")];
    let mut blocking = Vec::new();
    if let Some(s) = solution {
        title.push(format!("solution {s}"));
        title.push(
            "the last clause blocks it (over the cells the puzzle does not fix, or every cell \
             if it fixes all): the formula is unsatisfiable iff it is the only solution"
                .to_string(),
        );
        let open: Vec<usize> = (0..81)
            .filter(|&cell| candidates.get(cell).count_ones() != 1)
            .collect();
        for cell in blocking_cells(open, 81) {
            let v = 9 * cell + usize::from(s.get(cell));
            blocking.push(varisat::Lit::from_dimacs(-(v as isize)));
        }
    } else {
        title.push("the formula is unsatisfiable iff the puzzle has no solution".to_string());
    }
    let title: Vec<&str> = title.iter().map(String::as_str).collect();
    let extra: Vec<&[varisat::Lit]> = if solution.is_some() {
        vec![&blocking]
    } else {
        vec![]
    };
    crate::solver::sat::dimacs::write(out, &formula, &extra, &title)
}

/// The extended encoding of a grid of another order, in DIMACS: variable `side·cell + v`
/// means "the cell holds v"; per cell and per house and value, at least one and at most one
/// (pairwise: side·(side − 1)/2 clauses per group, so a 64×64 formula has 33 million); a unit
/// per clue; and the clause blocking `solution` (over the open cells) when there is one.
pub fn write_order_cnf(
    out: &mut dyn Write,
    grid: &OrderGrid,
    solution: Option<&OrderGrid>,
) -> io::Result<()> {
    let order = grid.order();
    let (side, geometry) = (order.side(), order.geometry());
    let var = |cell: usize, v: usize| side * cell + v;
    let clues: Vec<usize> = (0..order.cells()).filter(|&c| grid.get(c) != 0).collect();
    let groups = order.cells() + order.houses() * side;
    let pairs = groups * side * (side - 1) / 2;
    let clauses = groups + pairs + clues.len() + usize::from(solution.is_some());
    let mut out = io::BufWriter::new(out);
    writeln!(
        out,
        "c sudobench certificate input: puzzle {}",
        grid.to_line()
    )?;
    match solution {
        Some(s) => {
            writeln!(out, "c solution {}", s.to_line())?;
            writeln!(
                out,
                "c the last clause blocks it (over the cells the puzzle does not fix, or every \
                 cell if it fixes all): the formula is unsatisfiable iff it is the only solution"
            )?;
        }
        None => writeln!(
            out,
            "c the formula is unsatisfiable iff the puzzle has no solution"
        )?,
    }
    writeln!(out, "p cnf {} {clauses}", side * order.cells())?;
    let mut group = Vec::with_capacity(side);
    let write_group = |out: &mut io::BufWriter<_>, group: &[usize]| -> io::Result<()> {
        for &x in group {
            write!(out, "{x} ")?;
        }
        writeln!(out, "0")?;
        for (i, &x) in group.iter().enumerate() {
            for &y in &group[i + 1..] {
                writeln!(out, "-{x} -{y} 0")?;
            }
        }
        Ok(())
    };
    for cell in 0..order.cells() {
        group.clear();
        group.extend((1..=side).map(|v| var(cell, v)));
        write_group(&mut out, &group)?;
    }
    for h in 0..order.houses() {
        for v in 1..=side {
            group.clear();
            group.extend(geometry.house(h).iter().map(|&c| var(c as usize, v)));
            write_group(&mut out, &group)?;
        }
    }
    for &c in &clues {
        writeln!(out, "{} 0", var(c, usize::from(grid.get(c))))?;
    }
    if let Some(s) = solution {
        let open = (0..order.cells()).filter(|&c| grid.get(c) == 0).collect();
        for c in blocking_cells(open, order.cells()) {
            write!(out, "-{} ", var(c, usize::from(s.get(c))))?;
        }
        writeln!(out, "0")?;
    }
    out.flush()
}

/// The cells a blocking clause spans: the `open` ones (those the puzzle does not fix), or all
/// `cells` when the puzzle fixes every one. Over a fixed cell the clause's literal is false by
/// the cell's unit clause, so either set blocks the same grids; but over no cell it would be
/// the empty clause, which `rate` 0.3 does not read (it panics), where over every cell unit
/// propagation refutes it as the proof says.
fn blocking_cells(open: Vec<usize>, cells: usize) -> Vec<usize> {
    if open.is_empty() {
        (0..cells).collect()
    } else {
        open
    }
}
