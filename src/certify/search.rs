//! The producer: a backtracking search whose tree is the certificate.
//!
//! The search keeps candidate masks and propagates only what unit propagation on the extended
//! CNF encoding (see [`check`](super::check)) derives too: a cell with one candidate places it
//! (the cell's at-least-one clause), a digit with one place left in a row, column or box goes
//! there (the unit's at-least-one clause), a placed digit leaves its cell and its peers (the
//! at-most-one pairs); a cell without candidates or a unit without a place for a digit is a
//! conflict (a clause with every literal false). Then it branches on a cell with the fewest
//! candidates, each digit in turn, the decisions being the positive literals x(cell, digit).
//!
//! Every node, once its subtree is exhausted, emits the lemma ¬(its decisions) in post-order:
//! a leaf that propagation refutes is refuted by unit propagation in the checker; an inner
//! node's lemma is refuted by its children's lemmas (each a unit once the node's decisions
//! hold) and the branching cell's clause. The root's lemma is the empty clause. A solution's
//! leaf emits its lemma too: with the solution's blocking clause in the formula, propagation
//! refutes it. So the lemmas refute the formula when no solution is found, and the formula plus
//! the blocking clause of the one solution when one is; a second solution stops the search
//! (two verified solutions need no proof).

use crate::grid::{Grid, CELLS, PEERS, UNITS};
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

/// A reusable producer (one per thread).
#[derive(Default)]
pub struct Producer {
    /// Decisions on the current path, as DIMACS variables.
    path: Vec<u16>,
    solutions: Vec<Grid>,
    nodes: u64,
    max_nodes: u64,
    /// The DRUP text being written.
    proof: Vec<u8>,
}

/// A search state: candidates per cell, and which cells have been placed (removed from their
/// peers).
#[derive(Clone, Copy)]
struct State {
    cand: [u16; CELLS],
    placed: u128,
}

/// Result of a subtree: go on, or stop (two solutions, the node budget, or the deadline).
/// (Shared with the producer of the other orders.)
pub(super) enum Stop {
    Two,
    Budget,
    Time,
}

impl Producer {
    /// A producer that gives up after `max_nodes` search nodes per puzzle.
    pub fn new(max_nodes: u64) -> Producer {
        Producer {
            max_nodes,
            ..Producer::default()
        }
    }

    /// Searches `puzzle` and writes the DRUP proof of what it found into `proof` (cleared
    /// first; left empty for [`Found::Two`]). Returns what it found and the nodes visited.
    pub fn produce(
        &mut self,
        puzzle: &Puzzle,
        proof: &mut Vec<u8>,
    ) -> Result<(Found, u64), Budget> {
        self.path.clear();
        self.solutions.clear();
        self.nodes = 0;
        std::mem::swap(&mut self.proof, proof);
        self.proof.clear();
        let Some(cand) = puzzle.candidates() else {
            return Err(Budget::Nodes(0));
        };
        let mut state = State {
            cand: *cand.masks(),
            placed: 0,
        };
        let result = if propagate(&mut state) {
            self.node(&state)
        } else {
            self.lemma();
            Ok(())
        };
        let found = match result {
            Err(stop @ (Stop::Budget | Stop::Time)) => {
                std::mem::swap(&mut self.proof, proof);
                proof.clear();
                return Err(match stop {
                    Stop::Time => Budget::Time(self.nodes),
                    _ => Budget::Nodes(self.max_nodes),
                });
            }
            Err(Stop::Two) => {
                self.proof.clear();
                Found::Two(self.solutions[0], self.solutions[1])
            }
            Ok(()) => match self.solutions.first() {
                None => Found::None,
                Some(&s) => Found::Unique(s),
            },
        };
        std::mem::swap(&mut self.proof, proof);
        Ok((found, self.nodes))
    }

    /// Writes the lemma ¬(decisions on the path).
    fn lemma(&mut self) {
        write_lemma(&mut self.proof, self.path.iter().map(|&v| u32::from(v)));
    }

    /// Explores a propagated, conflict-free state; emits its lemma when exhausted.
    fn node(&mut self, state: &State) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Stop::Budget);
        }
        if crate::deadline::due(self.nodes) {
            return Err(Stop::Time);
        }
        let Some(best) = fewest_open(state.cand.iter().map(|m| m.count_ones())) else {
            // Every cell placed: a solution.
            let mut cells = [0u8; CELLS];
            for (c, &m) in cells.iter_mut().zip(&state.cand) {
                *c = m.trailing_zeros() as u8 + 1;
            }
            if let Ok(g) = Grid::from_cells(cells) {
                self.solutions.push(g);
            }
            if self.solutions.len() >= 2 {
                return Err(Stop::Two);
            }
            self.lemma();
            return Ok(());
        };
        let mut digits = state.cand[best];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut child = *state;
            child.cand[best] = bit;
            self.path
                .push((9 * best + bit.trailing_zeros() as usize + 1) as u16);
            if propagate(&mut child) {
                self.node(&child)?;
            } else {
                self.lemma();
            }
            self.path.pop();
        }
        self.lemma();
        Ok(())
    }
}

/// Naked and hidden singles to a fixpoint; false on a conflict.
fn propagate(s: &mut State) -> bool {
    loop {
        let mut changed = false;
        for (cell, peers) in PEERS.iter().enumerate() {
            if s.placed & (1 << cell) != 0 {
                continue;
            }
            let m = s.cand[cell];
            if m == 0 {
                return false;
            }
            if m & (m - 1) != 0 {
                continue;
            }
            s.placed |= 1 << cell;
            for &p in peers {
                let p = p as usize;
                if s.cand[p] & m != 0 {
                    s.cand[p] &= !m;
                    if s.cand[p] == 0 {
                        return false;
                    }
                    changed = true;
                }
            }
        }
        for unit in &UNITS {
            let (mut once, mut twice) = (0u16, 0u16);
            for &cell in unit {
                let m = s.cand[cell as usize];
                twice |= once & m;
                once |= m;
            }
            if once != 0x1ff {
                return false;
            }
            let singles = once & !twice;
            if singles == 0 {
                continue;
            }
            for &cell in unit {
                let m = s.cand[cell as usize];
                let here = m & singles;
                if here == 0 {
                    continue;
                }
                if here & (here - 1) != 0 {
                    // Two digits that can only go here: the cell's at-most-one clause.
                    return false;
                }
                if m != here {
                    s.cand[cell as usize] = here;
                    changed = true;
                }
            }
        }
        if !changed {
            return true;
        }
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
