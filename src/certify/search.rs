//! The producer's shared parts (what a search found, its budget, the cell choice and the lemma
//! writer) and [`Producer`], the 9×9 face of the search in
//! [`search_order`](super::search_order): a backtracking search whose tree is the certificate.
//!
//! The search keeps candidate masks and propagates only what unit propagation on the extended
//! CNF encoding (see [`check`](super::check)) derives too: a cell with one candidate places it
//! (the cell's at-least-one clause), a digit with one place left in a row, column or box goes
//! there (the unit's at-least-one clause), a placed digit leaves its cell and its peers (the
//! at-most-one pairs); a cell without candidates or a unit without a place for a digit is a
//! conflict (a clause with every literal false). Failed-literal probes of the two-candidate
//! cells add RUP lemmas; then it branches on a cell (the probed one whose two values placed
//! most cells, else one with the fewest candidates), each value in turn, the decisions being
//! the positive literals x(cell, value).
//!
//! Every node, once its subtree is exhausted, emits the lemma ¬(its decisions) in post-order:
//! a leaf that propagation refutes is refuted by unit propagation in the checker; an inner
//! node's lemma is refuted by its children's lemmas (each a unit once the node's decisions
//! hold) and the branching cell's clause. The root's lemma is the empty clause. A solution's
//! leaf emits its lemma too: with the solution's blocking clause in the formula, propagation
//! refutes it. So the lemmas refute the formula when no solution is found, and the formula plus
//! the blocking clause of the one solution when one is; a second solution stops the search
//! (two verified solutions need no proof).

use super::search_order::produce_masks;
use crate::grid::Grid;
use crate::order::{Order, OrderGrid};
use crate::puzzle::Puzzle;

/// What the search found (solutions as 9×9 grids, or `G` for the other orders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found<G = Grid> {
    /// No solution: the proof refutes the puzzle's formula.
    None,
    /// Exactly one solution: the proof refutes the formula with it blocked.
    Unique(G),
    /// At least two solutions (the proof is empty).
    Two(G, G),
}

/// The search gave up: it visited more nodes than allowed, or its time ran out (the thread's
/// [`deadline`](crate::deadline)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Budget {
    /// More nodes than allowed (the allowance).
    #[error("search budget of {0} nodes spent")]
    Nodes(u64),
    /// The time limit passed (after this many nodes).
    #[error("search time limit reached after {0} {unit}", unit = if *.0 == 1 { "node" } else { "nodes" })]
    Time(u64),
}

impl Budget {
    /// The nodes the search visited.
    pub fn nodes(self) -> u64 {
        match self {
            Budget::Nodes(n) | Budget::Time(n) => n,
        }
    }
}

/// The producer for 9×9 puzzles and pencilmark positions (one per thread): the search of
/// [`search_order`](super::search_order) on their candidate masks, with its solutions as
/// 9×9 grids. (It had a fixed-size search of its own, without probing, whose certificates
/// were five to seven times larger.)
#[derive(Debug)]
pub struct Producer {
    max_nodes: u64,
}

impl Producer {
    /// A producer that gives up after `max_nodes` search nodes per puzzle.
    pub fn new(max_nodes: u64) -> Producer {
        Producer { max_nodes }
    }

    /// Searches `puzzle` and writes the DRUP proof of what it found into `proof` (cleared
    /// first; left empty for [`Found::Two`]). Returns what it found and the nodes visited.
    /// A puzzle of another order is not searched (a budget of 0 nodes).
    pub fn produce(
        &mut self,
        puzzle: &Puzzle,
        proof: &mut Vec<u8>,
    ) -> Result<(Found, u64), Budget> {
        let Some(cand) = puzzle.candidates() else {
            proof.clear();
            return Err(Budget::Nodes(0));
        };
        let masks = cand.masks().iter().map(|&m| u64::from(m)).collect();
        let (found, nodes) = produce_masks(Order::NINE, masks, self.max_nodes, proof)?;
        let nine = |g: OrderGrid| g.to_grid().expect("a full grid of order 3 is a 9×9 grid");
        let found = match found {
            Found::None => Found::None,
            Found::Unique(s) => Found::Unique(nine(s)),
            Found::Two(s, t) => Found::Two(nine(s), nine(t)),
        };
        Ok((found, nodes))
    }
}

/// The cell to branch on: the first open cell (more than one candidate) with the fewest
/// candidates, from each cell's candidate count; `None` when every cell is placed.
pub(super) fn fewest_open(counts: impl Iterator<Item = u32>) -> Option<usize> {
    let mut best = None;
    let mut fewest = u32::MAX;
    for (cell, n) in counts.enumerate() {
        if n > 1 && n < fewest {
            fewest = n;
            best = Some(cell);
            if n == 2 {
                break;
            }
        }
    }
    best
}

/// Appends the lemma ¬(decisions) to `proof`: each decision's variable negated, then `0`.
pub(super) fn write_lemma(proof: &mut Vec<u8>, decisions: impl Iterator<Item = u32>) {
    let mut buf = [0u8; 10];
    for v in decisions {
        proof.push(b'-');
        proof.extend_from_slice(format_u32(v, &mut buf));
        proof.push(b' ');
    }
    proof.extend_from_slice(b"0\n");
}

/// The decimal digits of `v`.
fn format_u32(mut v: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return &buf[i..];
        }
    }
}
