//! The producer for grids of the other orders (4×4 to 64×64): the search of
//! [`search`](super::search) on candidate masks of up to 64 values, with the houses of the
//! order's [`Geometry`]. Its propagation derives only what unit propagation on the extended
//! encoding derives too (naked and hidden singles, a placed value leaving its peers, a cell or
//! a house value without a place as a conflict), so its failed branches, in post-order, are a
//! DRUP proof over the variables `side·cell + value` the checker numbers. Before it branches,
//! a node probes its cells with two candidates (failed-literal probing): each failed probe is
//! one more lemma. (On the first 100 generated 16×16 puzzles this took the certificates from
//! 1.16 MB to 30 kB each and the run from 20.6 s to 2.4 s.)

use super::search::{fewest_open, write_lemma, Budget, Found};
use crate::order::{Geometry, Order, OrderGrid};

/// A search state: candidates per cell (bit v − 1 for value v), and which cells have been
/// placed (removed from their peers).
#[derive(Clone, Default)]
struct State {
    cand: Vec<u64>,
    placed: Vec<bool>,
    /// Cells not placed yet.
    open: usize,
}

/// One search over a grid of another order.
struct OrderSearch<'a> {
    geometry: &'a Geometry,
    /// Every value of the order.
    full: u64,
    path: Vec<u32>,
    solutions: Vec<OrderGrid>,
    nodes: u64,
    max_nodes: u64,
    proof: &'a mut Vec<u8>,
    /// The propagation's work lists and the probes' trial state, kept from one use to the
    /// next: a probe allocated four vectors, which took most of a 9×9 probe's time.
    scratch: Scratch,
    trial: State,
}

/// Result of a subtree: go on, or stop (two solutions, the node budget, or the deadline).
enum Stop {
    Two,
    Budget,
    Time,
}

/// The work lists of [`propagate_from`].
#[derive(Default)]
struct Scratch {
    dirty: Vec<bool>,
    singles: Vec<usize>,
    houses: Vec<usize>,
}

/// Searches `grid` and writes the DRUP proof of what it found into `proof` (cleared first;
/// left empty for [`Found::Two`]). Returns what it found and the nodes visited.
pub fn produce(
    grid: &OrderGrid,
    max_nodes: u64,
    proof: &mut Vec<u8>,
) -> Result<(Found<OrderGrid>, u64), Budget> {
    let full = grid.order().all_values();
    let cand = grid
        .cells()
        .iter()
        .map(|&v| if v == 0 { full } else { 1 << (v - 1) })
        .collect();
    produce_masks(grid.order(), cand, max_nodes, proof)
}

/// [`produce`] for a position given as candidate masks per cell (bit `v − 1` for value `v`;
/// a clue is a single candidate), such as a 9×9 pencilmark position.
pub fn produce_masks(
    order: Order,
    cand: Vec<u64>,
    max_nodes: u64,
    proof: &mut Vec<u8>,
) -> Result<(Found<OrderGrid>, u64), Budget> {
    proof.clear();
    let full = order.all_values();
    let mut state = State {
        cand,
        placed: vec![false; order.cells()],
        open: order.cells(),
    };
    let mut search = OrderSearch {
        geometry: order.geometry(),
        full,
        path: Vec::new(),
        solutions: Vec::new(),
        nodes: 0,
        max_nodes,
        proof,
        scratch: Scratch::default(),
        trial: State::default(),
    };
    let result = if search.propagate(&mut state) {
        search.node(&state)
    } else {
        search.lemma();
        Ok(())
    };
    let nodes = search.nodes;
    let found = match result {
        Err(Stop::Budget) => {
            proof.clear();
            return Err(Budget::Nodes(max_nodes));
        }
        Err(Stop::Time) => {
            proof.clear();
            return Err(Budget::Time(nodes));
        }
        Err(Stop::Two) => {
            let mut two = std::mem::take(&mut search.solutions).into_iter();
            proof.clear();
            match (two.next(), two.next()) {
                (Some(s), Some(t)) => Found::Two(s, t),
                _ => unreachable!("the search stops at its second solution"),
            }
        }
        Ok(()) => match search.solutions.pop() {
            None => Found::None,
            Some(s) => Found::Unique(s),
        },
    };
    Ok((found, nodes))
}

impl OrderSearch<'_> {
    /// Writes the lemma ¬(decisions on the path).
    fn lemma(&mut self) {
        write_lemma(self.proof, self.path.iter().copied());
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
        let mut probed = state.clone();
        let Some(lookahead) = self.probe(&mut probed) else {
            self.lemma();
            return Ok(());
        };
        let state = &probed;
        let open = || fewest_open(state.cand.iter().map(|m| m.count_ones()));
        let Some(best) = lookahead.or_else(open) else {
            // Every cell placed: a solution.
            let order = self.geometry.order();
            let values = state
                .cand
                .iter()
                .map(|m| m.trailing_zeros() as u8 + 1)
                .collect();
            if let Ok(g) = OrderGrid::from_values(order, values) {
                self.solutions.push(g);
            }
            if self.solutions.len() >= 2 {
                return Err(Stop::Two);
            }
            self.lemma();
            return Ok(());
        };
        let side = self.geometry.order().side();
        let mut values = state.cand[best];
        while values != 0 {
            let bit = values & values.wrapping_neg();
            values &= values - 1;
            let mut child = state.clone();
            child.cand[best] = bit;
            self.path
                .push((side * best + bit.trailing_zeros() as usize + 1) as u32);
            if self.propagate_from(&mut child, &[best]) {
                self.node(&child)?;
            } else {
                self.lemma();
            }
            self.path.pop();
        }
        self.lemma();
        Ok(())
    }

    /// Failed-literal probing of the cells with two candidates: a value whose placement
    /// propagates to a conflict is ruled out, with the lemma ¬(path ∧ that placement) (a RUP
    /// step: propagation refutes it), and the state propagated again; until no probe fails.
    /// `None` if the state itself is then refuted, else the cell to branch on, as `wide`
    /// chooses it (look-ahead): the probed cell whose two placements placed most cells, by
    /// the product of the two counts plus one (`Some(None)` when no cell has two values).
    /// This took the 1,000 minimal 16×16 from 218,980 nodes to 88,554, the ten no-solution
    /// 25×25 from 10,723 to 877.
    fn probe(&mut self, state: &mut State) -> Option<Option<usize>> {
        let side = self.geometry.order().side();
        loop {
            let mut failed = false;
            let mut best: Option<(usize, usize)> = None;
            for cell in 0..state.cand.len() {
                let m = state.cand[cell];
                if m.count_ones() != 2 {
                    continue;
                }
                let mut values = m;
                let mut score = 1;
                while values != 0 {
                    let bit = values & values.wrapping_neg();
                    values &= values - 1;
                    let mut trial = std::mem::take(&mut self.trial);
                    trial.clone_from(state);
                    trial.cand[cell] = bit;
                    let consistent = self.propagate_from(&mut trial, &[cell]);
                    let placed = state.open - trial.open;
                    self.trial = trial;
                    if consistent {
                        score *= placed + 1;
                        continue;
                    }
                    self.path
                        .push((side * cell + bit.trailing_zeros() as usize + 1) as u32);
                    self.lemma();
                    self.path.pop();
                    state.cand[cell] &= !bit;
                    if !self.propagate_from(state, &[cell]) {
                        return None;
                    }
                    failed = true;
                    score = 0;
                    break;
                }
                if score > 0 && best.is_none_or(|(_, s)| score > s) {
                    best = Some((cell, score));
                }
            }
            if !failed {
                return Some(best.map(|(cell, _)| cell));
            }
        }
    }

    /// Naked and hidden singles to a fixpoint; false on a conflict. Every cell is looked at.
    fn propagate(&mut self, s: &mut State) -> bool {
        let cells: Vec<usize> = (0..s.cand.len()).collect();
        self.propagate_from(s, &cells)
    }

    /// [`propagate`](OrderSearch::propagate) of a state that was at the fixpoint before the
    /// masks of `changed` changed: only the cells that become single and the houses of cells
    /// whose masks change are looked at (a probe changes one cell of a grid of up to 4,096).
    fn propagate_from(&mut self, s: &mut State, changed: &[usize]) -> bool {
        let g = self.geometry;
        let order = g.order();
        let Scratch {
            dirty,
            singles,
            houses,
        } = &mut self.scratch;
        dirty.clear();
        dirty.resize(order.houses(), false);
        singles.clear();
        houses.clear();
        for &cell in changed {
            if !s.placed[cell] && s.cand[cell].count_ones() <= 1 {
                singles.push(cell);
            }
            for h in g.houses_of(cell) {
                dirty[h as usize] = true;
            }
        }
        houses.extend((0..order.houses()).filter(|&h| dirty[h]));
        loop {
            // Naked singles: a placed value leaves the cell's peers.
            while let Some(cell) = singles.pop() {
                if s.placed[cell] {
                    continue;
                }
                let m = s.cand[cell];
                if m == 0 {
                    return false;
                }
                s.placed[cell] = true;
                s.open -= 1;
                for &p in g.peers(cell) {
                    let p = p as usize;
                    if s.cand[p] & m == 0 {
                        continue;
                    }
                    s.cand[p] &= !m;
                    match s.cand[p].count_ones() {
                        0 => return false,
                        1 => singles.push(p),
                        _ => {}
                    }
                    for h in g.houses_of(p) {
                        if !dirty[h as usize] {
                            dirty[h as usize] = true;
                            houses.push(h as usize);
                        }
                    }
                }
            }
            // Hidden singles in the houses whose cells changed.
            let Some(h) = houses.pop() else {
                return true;
            };
            dirty[h] = false;
            let house = g.house(h);
            let (mut once, mut twice) = (0u64, 0u64);
            for &cell in house {
                let m = s.cand[cell as usize];
                twice |= once & m;
                once |= m;
            }
            if once != self.full {
                return false;
            }
            let alone = once & !twice;
            if alone == 0 {
                continue;
            }
            for &cell in house {
                let cell = cell as usize;
                let m = s.cand[cell];
                let here = m & alone;
                if here == 0 {
                    continue;
                }
                if here & (here - 1) != 0 {
                    // Two values that can only go here: the cell's at-most-one clause.
                    return false;
                }
                if m != here {
                    s.cand[cell] = here;
                    singles.push(cell);
                    for h2 in g.houses_of(cell) {
                        if !dirty[h2 as usize] {
                            dirty[h2 as usize] = true;
                            houses.push(h2 as usize);
                        }
                    }
                }
            }
        }
    }
}
