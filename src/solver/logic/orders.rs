//! `logic` and `logic-lc` on grids of every order (4×4 to 64×64): the same two reductions on
//! the 3n² houses of n² fields each, over `u64` candidate masks (64 symbols at most).
//!
//! - **reduction by field** (naked subsets): `k` open fields of a house whose candidates
//!   together number `k` remove those symbols from the house's other fields (fewer than `k`:
//!   a contradiction); `k = 1` is the naked single, propagated through the peers.
//! - **reduction by element** (hidden subsets): `k` open symbols of a house with `k` places
//!   between them remove every other symbol from those places; `k = 1` is the hidden single.
//! - with `logic-lc`, locked candidates (pointing and claiming) on every box–line
//!   intersection, between singles and subsets.
//!
//! Shortest first, as on 9×9: singles to a fixpoint, then the smallest reducing subset of any
//! house, and again, until nothing changes. On 9×9 every subset size is searched (a house of
//! `m` open fields never needs more than `m / 2`, at most 4); a 16×16 house would need up to 8
//! and a 64×64 one 32, whose combinations no closure can afford, so on other orders subsets
//! stop at [`MAX_SUBSET`] and whatever is left goes to the search. The 9×9 engine (digit
//! boards, `super`) stays as it is; this one is written plainly, for any order.

use super::super::progress::Progress;
use super::super::{Limit, Outcome};
use super::config::LogicConfig;
use crate::order::{Geometry, Order, OrderGrid};

/// The largest subset the closure searches on grids of other orders than 9×9.
pub const MAX_SUBSET: u32 = 4;

/// What deduction alone makes of a grid of any order: the result of [`closure`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderClosure {
    /// The candidates left per cell (bit `v - 1` for symbol `v`); after a contradiction, those
    /// at the moment it was found.
    pub candidates: Vec<u64>,
    /// Deduction proved that the grid has no solution.
    pub contradiction: bool,
    /// The largest subset a reduction used (0: nothing eliminated, 1: singles only).
    pub max_subset: u32,
    order: Order,
}

impl OrderClosure {
    /// Whether deduction alone decided every cell (and found no contradiction).
    pub fn is_solved(&self) -> bool {
        !self.contradiction && self.candidates.iter().all(|m| m.count_ones() == 1)
    }

    /// The cells deduction decided, as a grid (0 where a cell is still open).
    pub fn grid(&self) -> OrderGrid {
        let values = self
            .candidates
            .iter()
            .map(|&m| match m.count_ones() {
                1 => m.trailing_zeros() as u8 + 1,
                _ => 0,
            })
            .collect();
        OrderGrid::from_values(self.order, values).unwrap_or_else(|_| OrderGrid::empty(self.order))
    }
}

/// The logical closure of `puzzle` under `config` (see the module documentation).
pub fn closure(puzzle: &OrderGrid, config: LogicConfig) -> OrderClosure {
    let mut engine = Engine::new(puzzle.order(), config);
    let consistent = engine.load(puzzle) && engine.close().is_ok();
    OrderClosure {
        candidates: engine.cand,
        contradiction: !consistent,
        max_subset: engine.max_subset,
        order: puzzle.order(),
    }
}

/// Deduction found that the position has no solution.
#[derive(Debug)]
struct Contradiction;

type Step<T = ()> = Result<T, Contradiction>;

/// The closure engine for one order.
struct Engine {
    geometry: &'static Geometry,
    n: usize,
    side: usize,
    full: u64,
    config: LogicConfig,
    cand: Vec<u64>,
    /// Cells decided but not yet removed from their peers.
    queue: Vec<usize>,
    /// Per house: a cell changed since the house was last searched for subsets.
    dirty: Vec<bool>,
    max_subset: u32,
    /// Candidates removed (the backend's `updates`).
    updates: u64,
}

impl Engine {
    fn new(order: Order, config: LogicConfig) -> Engine {
        let side = order.side();
        Engine {
            geometry: order.geometry(),
            n: order.n(),
            side,
            full: order.all_values(),
            config,
            cand: vec![0; order.cells()],
            queue: Vec::new(),
            dirty: vec![true; order.houses()],
            max_subset: 0,
            updates: 0,
        }
    }

    /// Loads the clues; false if a value is out of range.
    fn load(&mut self, puzzle: &OrderGrid) -> bool {
        self.queue.clear();
        self.dirty.fill(true);
        self.max_subset = 0;
        self.cand.clear();
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                self.cand.push(self.full);
            } else if usize::from(v) <= self.side {
                self.cand.push(1 << (v - 1));
                self.queue.push(i);
            } else {
                return false;
            }
        }
        true
    }

    /// Removes `bits` from `cell`; queues it when one symbol is left.
    fn remove(&mut self, cell: usize, bits: u64) -> Step<bool> {
        let m = self.cand[cell];
        if m & bits == 0 {
            return Ok(false);
        }
        let left = m & !bits;
        self.cand[cell] = left;
        self.updates += u64::from((m & bits).count_ones());
        for h in self.geometry.houses_of(cell) {
            self.dirty[h as usize] = true;
        }
        match left.count_ones() {
            0 => Err(Contradiction),
            1 => {
                self.queue.push(cell);
                Ok(true)
            }
            _ => Ok(true),
        }
    }

    /// Sets `cell` to the one symbol `bit`.
    fn assign(&mut self, cell: usize, bit: u64) -> Step {
        let others = self.cand[cell] & !bit;
        if self.cand[cell] & bit == 0 {
            return Err(Contradiction);
        }
        self.remove(cell, others).map(|_| ())
    }

    /// Naked singles: each decided cell's symbol leaves its peers.
    fn naked(&mut self) -> Step {
        while let Some(cell) = self.queue.pop() {
            let bit = self.cand[cell];
            for k in 0..self.geometry.peers(cell).len() {
                let p = self.geometry.peers(cell)[k] as usize;
                self.remove(p, bit)?;
            }
        }
        Ok(())
    }

    /// One sweep of hidden singles over every house; whether one was placed.
    fn hidden(&mut self) -> Step<bool> {
        let mut placed = false;
        for h in 0..3 * self.side {
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in self.geometry.house(h) {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once != self.full {
                return Err(Contradiction);
            }
            let mut lone = once & !twice;
            while lone != 0 {
                let bit = lone & lone.wrapping_neg();
                lone ^= bit;
                let cell = self
                    .geometry
                    .house(h)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.cand[c] & bit != 0)
                    .ok_or(Contradiction)?;
                if self.cand[cell] != bit {
                    self.assign(cell, bit)?;
                    placed = true;
                }
            }
            if placed {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Singles to a fixpoint.
    fn singles(&mut self) -> Step {
        loop {
            self.naked()?;
            if self.config.naked_singles_only || !self.hidden()? {
                return Ok(());
            }
        }
    }

    /// The cells of row (or column) `line` in the box column (or row) `b`, and outside it.
    fn segment(&self, columns: bool, line: usize, inside: bool, b: usize) -> Vec<usize> {
        (0..self.side)
            .filter(|&k| (k / self.n == b) == inside)
            .map(|k| {
                if columns {
                    k * self.side + line
                } else {
                    line * self.side + k
                }
            })
            .collect()
    }

    /// One pass of locked candidates; whether anything was removed.
    fn locked(&mut self) -> Step<bool> {
        let (n, side) = (self.n, self.side);
        let union = |e: &Engine, cells: &[usize]| cells.iter().fold(0u64, |u, &c| u | e.cand[c]);
        for columns in [false, true] {
            for line in 0..side {
                for b in 0..n {
                    let inter = self.segment(columns, line, true, b);
                    let line_rest = self.segment(columns, line, false, b);
                    // The box holding this segment, less the segment.
                    let band = line / n;
                    let box_rest: Vec<usize> = (band * n..band * n + n)
                        .filter(|&l| l != line)
                        .flat_map(|l| self.segment(columns, l, true, b))
                        .collect();
                    let seg = union(self, &inter);
                    let pointing = seg & !union(self, &box_rest);
                    let claiming = seg & !union(self, &line_rest);
                    let mut changed = false;
                    for &c in &line_rest {
                        changed |= self.remove(c, pointing)?;
                    }
                    for &c in &box_rest {
                        changed |= self.remove(c, claiming)?;
                    }
                    if changed {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The smallest reducing subset of size 2…`max` in any house with a change since its last
    /// search, applied; whether one was found.
    fn subsets(&mut self, max: u32) -> Step<bool> {
        for k in 2..=max {
            for h in 0..3 * self.side {
                if !self.dirty[h] {
                    continue;
                }
                if self.subset_in(h, k)? {
                    self.max_subset = self.max_subset.max(k);
                    return Ok(true);
                }
            }
        }
        // Every house was searched at every size without a reduction.
        self.dirty.fill(false);
        Ok(false)
    }

    /// A reducing naked or hidden subset of size `k` in house `h`, applied.
    fn subset_in(&mut self, h: usize, k: u32) -> Step<bool> {
        let cells: Vec<usize> = self.geometry.house(h).iter().map(|&c| c as usize).collect();
        let open: Vec<usize> = (0..cells.len())
            .filter(|&i| self.cand[cells[i]].count_ones() > 1)
            .collect();
        if (open.len() as u32) < 2 * k {
            // A k-subset among fewer than 2k open fields has a smaller complement.
            return Ok(false);
        }
        // Naked: fields (by position in `open`) with their symbols.
        let fields: Vec<u64> = open.iter().map(|&i| self.cand[cells[i]]).collect();
        // Hidden: open symbols with their places (bit j: open field j).
        let symbols: Vec<u64> = {
            let all = fields.iter().fold(0u64, |u, &m| u | m);
            let mut out = Vec::new();
            let mut rest = all;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                out.push(
                    fields
                        .iter()
                        .enumerate()
                        .filter(|(_, &m)| m & bit != 0)
                        .fold(0u64, |p, (j, _)| p | 1 << j),
                );
            }
            out
        };
        for hidden in [false, true] {
            let items = if hidden { &symbols } else { &fields };
            let Some((chosen, union)) = find_subset(items, k)? else {
                continue;
            };
            let mut changed = false;
            if hidden {
                // The chosen symbols, as a mask, stay alone in the fields of `union`.
                let all = fields.iter().fold(0u64, |u, &m| u | m);
                let mut keep = 0u64;
                let mut rest = all;
                let mut idx = 0;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    if chosen >> idx & 1 == 1 {
                        keep |= bit;
                    }
                    idx += 1;
                }
                for (j, &i) in open.iter().enumerate() {
                    if union >> j & 1 == 1 {
                        changed |= self.remove(cells[i], !keep)?;
                    }
                }
            } else {
                for (j, &i) in open.iter().enumerate() {
                    if chosen >> j & 1 == 0 {
                        changed |= self.remove(cells[i], union)?;
                    }
                }
            }
            if changed {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Closes the position: singles, locked candidates, subsets, shortest first.
    fn close(&mut self) -> Step {
        let max = match self.config.max_subset {
            Some(m) => u32::from(m).min(MAX_SUBSET),
            None => MAX_SUBSET,
        };
        loop {
            self.singles()?;
            if self.max_subset == 0 && self.updates > 0 {
                self.max_subset = 1;
            }
            if self.cand.iter().all(|m| m.count_ones() == 1) {
                return Ok(());
            }
            if self.config.locked_candidates && self.locked()? {
                continue;
            }
            if max >= 2 && self.subsets(max)? {
                continue;
            }
            return Ok(());
        }
    }

    /// The open cell with fewest candidates, if any.
    fn branch_cell(&self) -> Option<usize> {
        (0..self.cand.len())
            .filter(|&c| self.cand[c].count_ones() > 1)
            .min_by_key(|&c| self.cand[c].count_ones())
    }
}

/// Finds `k` items (fields with their symbols, or symbols with their places) whose union has
/// `k` bits and meets some other item, so that applying the subset removes something.
/// Returns the chosen items (bit i: item i) and their union; `k` items with fewer than `k`
/// bits between them are a contradiction.
fn find_subset(items: &[u64], k: u32) -> Step<Option<(u64, u64)>> {
    // Only items with at most k bits can be in the subset.
    let small: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].count_ones() <= k)
        .collect();
    if (small.len() as u32) < k {
        return Ok(None);
    }
    let mut found = None;
    let mut pick = Vec::with_capacity(k as usize);
    search(items, &small, k, 0, 0, &mut pick, &mut found)?;
    Ok(found)
}

/// Extends `pick` (indices into `small`) from `from` on with unions of at most `k` bits.
fn search(
    items: &[u64],
    small: &[usize],
    k: u32,
    from: usize,
    union: u64,
    pick: &mut Vec<usize>,
    found: &mut Option<(u64, u64)>,
) -> Step {
    if pick.len() == k as usize {
        if union.count_ones() < k {
            return Err(Contradiction);
        }
        let chosen = pick.iter().fold(0u64, |c, &i| c | 1 << small[i]);
        // Reducing: some other item meets the union.
        let reduces = (0..items.len()).any(|i| chosen >> i & 1 == 0 && items[i] & union != 0);
        if reduces {
            *found = Some((chosen, union));
        }
        return Ok(());
    }
    for i in from..small.len() {
        let u = union | items[small[i]];
        if u.count_ones() > k {
            continue;
        }
        pick.push(i);
        search(items, small, k, i + 1, u, pick, found)?;
        pick.pop();
        if found.is_some() {
            return Ok(());
        }
    }
    Ok(())
}

/// Counts up to `limit` solutions of `puzzle` (any order) by the closure and fewest-candidates
/// branching, within `max_nodes` closures; the answer of `logic`/`logic-lc` on other orders.
pub fn solve(
    puzzle: &OrderGrid,
    config: LogicConfig,
    limit: Limit,
    max_nodes: Option<u64>,
) -> Outcome {
    let mut engine = Engine::new(puzzle.order(), config);
    let mut progress: Progress<OrderGrid> = Progress::new(limit, max_nodes);
    if engine.load(puzzle) {
        node(&mut engine, &mut progress);
    }
    progress.stats.updates = engine.updates;
    progress.stats.max_subset = u64::from(engine.max_subset);
    progress.outcome()
}

/// One node: close, then branch on the open cell with fewest candidates. The depth is at most
/// the number of open cells.
fn node(engine: &mut Engine, progress: &mut Progress<OrderGrid>) {
    if !progress.enter() || engine.close().is_err() {
        return;
    }
    let Some(cell) = engine.branch_cell() else {
        let grid = OrderClosure {
            candidates: engine.cand.clone(),
            contradiction: false,
            max_subset: 0,
            order: engine.geometry.order(),
        }
        .grid();
        progress.solution(|| Some(grid));
        return;
    };
    let saved = engine.cand.clone();
    let mut options = saved[cell];
    while options != 0 {
        let bit = options & options.wrapping_neg();
        options ^= bit;
        progress.guesses += 1;
        engine.cand.copy_from_slice(&saved);
        engine.queue.clear();
        // The parent is a fixpoint: every house was searched for subsets without a find.
        engine.dirty.fill(false);
        if engine.assign(cell, bit).is_ok() {
            node(engine, progress);
        }
        if progress.done() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Count;

    fn grid(order: usize, text: &str) -> OrderGrid {
        let order = Order::new(order).unwrap();
        let values: Vec<u8> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        OrderGrid::from_values(order, values).unwrap()
    }

    #[test]
    fn empty_4x4_has_288_solutions_and_a_full_grid_minus_one_cell_one() {
        let empty = OrderGrid::empty(Order::new(2).unwrap());
        for config in [LogicConfig::PLAIN, LogicConfig::LOCKED] {
            let o = solve(&empty, config, Limit::new(1000).unwrap(), None);
            assert_eq!(o.count(), Count::Exactly(288), "{config:?}");
        }
        let full = grid(2, "1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1");
        for cell in 0..16 {
            let mut g = full.clone();
            g.set(cell, 0);
            let c = closure(&g, LogicConfig::PLAIN);
            assert!(c.is_solved());
            assert_eq!(c.grid(), full);
        }
    }

    /// A naked pair in a 16×16 row: two fields holding only {1, 2} take 1 and 2 from the
    /// rest of the row.
    #[test]
    fn a_naked_pair_reduces_a_16x16_row() {
        let order = Order::new(4).unwrap();
        let mut e = Engine::new(order, LogicConfig::PLAIN);
        e.load(&OrderGrid::empty(order));
        e.queue.clear();
        e.cand[0] = 0b11;
        e.cand[5] = 0b11;
        assert!(e.subsets(2).unwrap());
        for c in 1..16 {
            if c != 5 {
                assert_eq!(e.cand[c] & 0b11, 0, "cell {c}");
            }
        }
        // Hidden pair: symbols 3 and 4 only in fields 16 and 17 of row 1 (the complement of
        // a naked 14-subset the closure would not search for).
        let mut e = Engine::new(order, LogicConfig::PLAIN);
        e.load(&OrderGrid::empty(order));
        e.queue.clear();
        for c in 18..32 {
            e.cand[c] &= !0b1100;
        }
        assert!(e.subsets(2).unwrap());
        assert_eq!(e.cand[16], 0b1100);
        assert_eq!(e.cand[17], 0b1100);
    }

    #[test]
    fn contradictions_are_found() {
        // Two 1s in the first row.
        let mut g = OrderGrid::empty(Order::new(2).unwrap());
        g.set(0, 1);
        g.set(1, 1);
        assert!(closure(&g, LogicConfig::PLAIN).contradiction);
        let o = solve(&g, LogicConfig::PLAIN, Limit::TWO, None);
        assert_eq!(o.count(), Count::Exactly(0));
    }
}
