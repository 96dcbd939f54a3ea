//! Random puzzles of any order: a full grid filled by the `wide` search with seeded branching,
//! then clues removed in a seeded random order, each removal kept only if the puzzle stays
//! unique. Every clue was necessary when it was tried, with more clues than at the end, so the
//! result is minimal up to 16×16 (from 25×25 on the checks have a budget: see [`minimise`]).
//! The same seed gives the same puzzle.
//!
//! Also the test sets: puzzles with several solutions (a minimal puzzle with one more clue
//! removed) and clue sets without a solution (a minimal puzzle with one clue changed to a
//! value no peer holds, kept only if that leaves no solution).

use crate::order::{Order, OrderGrid};
use crate::solver::wide::Wide;

/// What can stop the generator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// No grid could be made in the attempts allowed.
    #[error("no {kind} {order} puzzle after {attempts} attempts")]
    GaveUp {
        /// What was asked for.
        kind: &'static str,
        /// The order.
        order: Order,
        /// Attempts made.
        attempts: u32,
    },
}

/// A small seeded generator (splitmix64), so that outputs do not depend on a crate's version.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// The seed of puzzle `index` of a run seeded `seed`: each puzzle depends on its index only,
/// so any number of threads makes the same file.
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed.wrapping_mul(0x1000_0000_01b3) ^ index);
    r.next_u64() | 1
}

/// Branching decisions allowed to each attempt at a full grid: an attempt that spends them is
/// dropped and the next seed tried, so no seed can keep the generator searching without end.
/// Far above what a fill takes (release build, seeded fills: about 480 on 25×25, 1,100–1,750
/// on 36×36, 2,000–28,000 on 49×49, 5,600–8,600 on 64×64), so it changes no generated puzzle.
pub const FULL_GRID_NODES: u64 = 1_000_000;

/// Attempts at a full grid, each with a new seed, before the generator gives up.
const FULL_GRID_ATTEMPTS: u32 = 100;

/// A random full grid of `order`.
pub fn full_grid(order: Order, wide: &mut Wide, rng: &mut Rng) -> Result<OrderGrid, GenerateError> {
    fill(order, wide, rng, FULL_GRID_NODES)
}

/// A random full grid of `order`, each attempt within `max_nodes` branching decisions.
fn fill(
    order: Order,
    wide: &mut Wide,
    rng: &mut Rng,
    max_nodes: u64,
) -> Result<OrderGrid, GenerateError> {
    wide.set_max_nodes(Some(max_nodes));
    let mut grid = None;
    for _ in 0..FULL_GRID_ATTEMPTS {
        wide.set_seed(order, rng.next_u64() | 1);
        let found = wide.solve(&OrderGrid::empty(order), 1);
        wide.set_seed(order, 0);
        if found.first.is_some() {
            grid = found.first;
            break;
        }
    }
    wide.set_max_nodes(None);
    grid.ok_or(GenerateError::GaveUp {
        kind: "full",
        order,
        attempts: FULL_GRID_ATTEMPTS,
    })
}

/// Branching decisions allowed to each uniqueness check on orders 5 and up (25×25 and
/// larger): a removal whose check does not finish within it is undone, so the puzzle stays
/// proven unique but may keep a clue a longer check would have removed. Without it, a few
/// checks near the end of the removal take minutes each on 25×25. It keeps many: on the
/// first three 25×25 puzzles of seed 25, 229 to 267 of the 625 checks ran out of it, and
/// 139 to 206 of the clues of each of the first five bundled ones are redundant on their own
/// (`verify --minimal`).
pub const LARGE_ORDER_CHECK_NODES: u64 = 2_000;

/// Removes clues of `grid` in a random order while the puzzle stays unique. Up to 16×16 the
/// result is minimal; from 25×25 on, every check has [`LARGE_ORDER_CHECK_NODES`] and the
/// result is unique but keeps every clue those checks could not decide.
pub fn minimise(grid: &OrderGrid, wide: &mut Wide, rng: &mut Rng) -> OrderGrid {
    let budget = (grid.order().n() >= 5).then_some(LARGE_ORDER_CHECK_NODES);
    wide.set_max_nodes(budget);
    let mut puzzle = grid.clone();
    let mut cells: Vec<usize> = (0..grid.cells().len())
        .filter(|&i| grid.get(i) != 0)
        .collect();
    rng.shuffle(&mut cells);
    for cell in cells {
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        let found = wide.solve(&puzzle, 2);
        if found.count != 1 || found.stopped {
            puzzle.set(cell, value);
        }
    }
    wide.set_max_nodes(None);
    puzzle
}

/// A random minimal puzzle with one solution; `seed` decides it.
pub fn minimal(order: Order, seed: u64, wide: &mut Wide) -> Result<OrderGrid, GenerateError> {
    let mut rng = Rng::new(seed);
    let full = full_grid(order, wide, &mut rng)?;
    Ok(minimise(&full, wide, &mut rng))
}

/// A puzzle with two or more solutions: a minimal one with one clue removed. From 25×25 on,
/// where the puzzle is minimal only as far as its checks could tell, the removal is kept only
/// once two solutions are found (clues are tried from a random one on, in turn).
pub fn several(order: Order, seed: u64, wide: &mut Wide) -> Result<OrderGrid, GenerateError> {
    let mut puzzle = minimal(order, seed, wide)?;
    let mut rng = Rng::new(seed ^ 0x5eed);
    let clues: Vec<usize> = (0..order.cells()).filter(|&i| puzzle.get(i) != 0).collect();
    let start = (rng.next_u64() % clues.len() as u64) as usize;
    if order.n() < 5 {
        puzzle.set(clues[start], 0);
        return Ok(puzzle);
    }
    wide.set_max_nodes(Some(LARGE_ORDER_CHECK_NODES));
    for k in 0..clues.len() {
        let cell = clues[(start + k) % clues.len()];
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        if wide.solve(&puzzle, 2).count >= 2 {
            wide.set_max_nodes(None);
            return Ok(puzzle);
        }
        puzzle.set(cell, value);
    }
    wide.set_max_nodes(None);
    Err(GenerateError::GaveUp {
        kind: "several-solution",
        order,
        attempts: clues.len() as u32,
    })
}

/// A clue set without a solution whose clues break no rule: a minimal puzzle with one clue
/// changed to a value none of its peers holds.
pub fn no_solution(order: Order, seed: u64, wide: &mut Wide) -> Result<OrderGrid, GenerateError> {
    let geometry = order.geometry();
    for attempt in 0..50u64 {
        let mut puzzle = minimal(order, seed.wrapping_add(attempt << 32), wide)?;
        let mut rng = Rng::new(seed ^ attempt);
        let mut clues: Vec<usize> = (0..order.cells()).filter(|&i| puzzle.get(i) != 0).collect();
        rng.shuffle(&mut clues);
        for cell in clues {
            let old = puzzle.get(cell);
            let taken: Vec<u8> = geometry
                .peers(cell)
                .iter()
                .map(|&p| puzzle.get(p as usize))
                .collect();
            let free: Vec<u8> = (1..=order.side() as u8)
                .filter(|v| *v != old && !taken.contains(v))
                .collect();
            for v in free {
                puzzle.set(cell, v);
                // From 25×25 on a check that does not finish in its budget is passed over.
                wide.set_max_nodes((order.n() >= 5).then_some(20 * LARGE_ORDER_CHECK_NODES));
                let found = wide.solve(&puzzle, 1);
                wide.set_max_nodes(None);
                if found.count == 0 && found.exhausted && !found.stopped {
                    return Ok(puzzle);
                }
            }
            puzzle.set(cell, old);
        }
    }
    Err(GenerateError::GaveUp {
        kind: "unsolvable",
        order,
        attempts: 50,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fill_that_spends_its_budget_gives_up_instead_of_searching_on() {
        // A 25×25 fill takes hundreds of branching decisions; one per attempt is never enough.
        let order = Order::ALL[3];
        let mut wide = Wide::default();
        let got = fill(order, &mut wide, &mut Rng::new(7), 1);
        assert_eq!(
            got,
            Err(GenerateError::GaveUp {
                kind: "full",
                order,
                attempts: FULL_GRID_ATTEMPTS
            })
        );
        // The budget is lifted afterwards, and the same generator still fills with the default.
        let grid = full_grid(order, &mut wide, &mut Rng::new(7)).expect("a full grid");
        assert!((0..order.cells()).all(|i| grid.get(i) != 0));
        assert_eq!(wide.solve(&grid, 2).count, 1);
    }
}
