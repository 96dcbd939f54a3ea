//! `bitmask`: the fast backend. Bit boards per digit and band, propagation to a fixpoint
//! (naked singles, hidden singles in rows, columns and boxes, locked candidates pointing and
//! claiming in both directions), and a depth-first search that branches on a cell with fewest
//! candidates (a bivalue cell when there is one) and copies the 128-byte state per guess.
//!
//! The design follows the ideas of JCZSolve and tdoku (representation first: per-digit band
//! words, band-local inference by table lookup, a solved-cells word) in code of its own; see
//! [`board`] for the propagation and [`singles_fixpoint`] for the singles-only logic exposed
//! for study.

mod board;
mod singles;
mod tables;

pub use singles::{singles_fixpoint, SinglesFixpoint};

use super::{Count, Options, Outcome, Solver, Stats};
use crate::grid::{Candidates, Grid};
use board::Board;

/// The bit-board solver. Holds no per-puzzle buffers: the whole search state lives on the
/// stack (at most 81 levels of 128 bytes).
#[derive(Debug, Clone)]
pub struct Bitmask {
    max_nodes: u64,
}

impl Bitmask {
    /// Builds the backend; honours `options.max_nodes`.
    pub fn new(options: &Options) -> Bitmask {
        Bitmask {
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
        }
    }
}

/// One search: the limit, what was found so far and the counters.
struct Search {
    limit: u32,
    max_nodes: u64,
    found: u32,
    first: Option<[u8; 81]>,
    out_of_budget: bool,
    stats: Stats,
}

impl Search {
    fn new(limit: u32, max_nodes: u64) -> Search {
        Search {
            limit: limit.max(1),
            max_nodes,
            found: 0,
            first: None,
            out_of_budget: false,
            stats: Stats::default(),
        }
    }

    /// Whether the search should stop (limit reached or budget spent).
    #[inline]
    fn done(&self) -> bool {
        self.found >= self.limit || self.out_of_budget
    }

    /// Propagates `board` and explores it. Each level solves at least one more cell, so the
    /// recursion is at most 81 deep.
    fn run(&mut self, mut board: Board) {
        self.stats.nodes += 1;
        if self.stats.nodes > self.max_nodes {
            self.out_of_budget = true;
            return;
        }
        let Ok(pairs) = board.propagate() else {
            return;
        };
        if board.is_solved() {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(board.cells());
            }
            return;
        }
        let (b, bit, mut digits) = board.choose(pairs);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.stats.guesses += 1;
            if digits == 0 {
                // Last alternative: no need to keep this node's state.
                if board.guess(d, b, bit).is_ok() {
                    self.run(board);
                }
                return;
            }
            let mut child = board;
            if child.guess(d, b, bit).is_ok() {
                self.run(child);
            }
            if self.done() {
                return;
            }
        }
    }

    fn outcome(self) -> Outcome {
        Outcome {
            count: if self.out_of_budget {
                Count::Unknown
            } else {
                Count::Exactly(self.found)
            },
            solution: self.first.and_then(|c| Grid::from_cells(c).ok()),
            stats: self.stats,
        }
    }
}

impl Solver for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u32) -> Outcome {
        let mut board = Board::empty();
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 && board.place_cell(v as usize - 1, cell).is_err() {
                return Outcome::none(Stats::default());
            }
        }
        let mut search = Search::new(limit, self.max_nodes);
        search.run(board);
        search.outcome()
    }

    fn solve_candidates(&mut self, candidates: &Candidates, limit: u32) -> Outcome {
        let mut search = Search::new(limit, self.max_nodes);
        search.run(Board::from_masks(candidates.masks()));
        search.outcome()
    }
}
