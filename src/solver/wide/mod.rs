//! `wide`: the fast backend for large grids. Candidate masks per cell as wide as the order
//! needs (`u16` up to 16×16, `u32` for 25×25, `u64` up to 64×64), propagation to a fixpoint
//! — naked singles through a queue, hidden singles from the places of each symbol per house
//! (a bit mask of the house's cells that hold it), locked candidates (pointing and claiming) per box-line intersection — then probing
//! of two-candidate cells, all-different in full per house (a matching), and branching (on
//! the probed cell whose two probes decided most cells), the state copied once per level into a snapshot kept from puzzle to puzzle. One engine per
//! order, monomorphised on the order so the box loops have constant bounds; built on first
//! use.
//!
//! Why this shape: on 16×16 and larger, a search without hidden singles or intersections
//! branches far too often (a 25×25 minimal puzzle has hundreds of cells left after the naked
//! singles), and the exact-cover and SAT backends pay per node for generality. Masks per cell
//! and the places of each symbol per house make both singles cost in proportion to what
//! changed: a placed symbol is cleared from exactly the peers that hold it, and a house is
//! looked at only when one of its symbols is down to one place. That is what probing,
//! hundreds of propagations per branch, needs.

pub mod learn;
pub mod mask;
pub mod search;

use crate::order::found::Found;
use crate::order::{Order, OrderGrid};
pub use search::{Rules, Search};

/// An engine for one order behind a common call.
trait Engine: Send {
    fn solve(&mut self, puzzle: &OrderGrid, limit: u32) -> Found;
    fn set_seed(&mut self, seed: u64);
    fn solve_masks(&mut self, masks: &[u64], limit: u32) -> Found;
    fn set_max_nodes(&mut self, max_nodes: Option<u64>);
}

impl<M: mask::Mask, const N: usize> Engine for Search<M, N> {
    fn solve(&mut self, puzzle: &OrderGrid, limit: u32) -> Found {
        Search::solve(self, puzzle, limit)
    }
    fn set_seed(&mut self, seed: u64) {
        Search::set_seed(self, seed)
    }
    fn solve_masks(&mut self, masks: &[u64], limit: u32) -> Found {
        Search::solve_masks(self, masks, limit)
    }
    fn set_max_nodes(&mut self, max_nodes: Option<u64>) {
        Search::set_max_nodes(self, max_nodes)
    }
}

/// The `wide` backend: one engine per order, built on first use and reused.
pub struct Wide {
    rules: Rules,
    engines: [Option<Box<dyn Engine>>; 7],
    max_nodes: Option<u64>,
}

impl Default for Wide {
    fn default() -> Wide {
        Wide::new(Rules::default())
    }
}

impl Wide {
    /// A backend using `rules` between branches.
    pub fn new(rules: Rules) -> Wide {
        Wide {
            rules,
            engines: Default::default(),
            max_nodes: None,
        }
    }

    /// The backend with a budget of `max_nodes` branching decisions per search (`None`:
    /// none): a search that spends it answers `unknown`.
    pub fn with_max_nodes(mut self, max_nodes: Option<u64>) -> Wide {
        self.max_nodes = max_nodes;
        self
    }

    /// Sets the budget of branching decisions per search (`None`: none).
    pub fn set_max_nodes(&mut self, max_nodes: Option<u64>) {
        self.max_nodes = max_nodes;
    }

    fn engine(&mut self, order: Order) -> &mut dyn Engine {
        let (rules, max_nodes) = (self.rules, self.max_nodes);
        let slot = &mut self.engines[order.n() - 2];
        let engine = slot
            .get_or_insert_with(|| -> Box<dyn Engine> {
                match order.n() {
                    2 => Box::new(Search::<u16, 2>::new(rules)),
                    3 => Box::new(Search::<u16, 3>::new(rules)),
                    4 => Box::new(Search::<u16, 4>::new(rules)),
                    5 => Box::new(Search::<u32, 5>::new(rules)),
                    6 => Box::new(Search::<u64, 6>::new(rules)),
                    7 => Box::new(Search::<u64, 7>::new(rules)),
                    _ => Box::new(Search::<u64, 8>::new(rules)),
                }
            })
            .as_mut();
        engine.set_max_nodes(max_nodes);
        engine
    }

    /// Looks for up to `limit` solutions (at least 1).
    pub fn solve(&mut self, puzzle: &OrderGrid, limit: u32) -> Found {
        self.engine(puzzle.order()).solve(puzzle, limit.max(1))
    }

    /// Makes branching draw its candidate order from `seed` (0: lowest first): the generator
    /// fills empty grids this way.
    pub fn set_seed(&mut self, order: Order, seed: u64) {
        self.engine(order).set_seed(seed)
    }
}

impl crate::solver::Solver for Wide {
    /// 9×9 clue grids and pencilmark positions through the order-3 engine (the backend is
    /// built for larger orders; this lets `bench` compare it on 9×9 too).
    fn solve(
        &mut self,
        puzzle: &crate::puzzle::Puzzle,
        limit: crate::solver::Limit,
    ) -> crate::solver::Outcome {
        use crate::solver::{Outcome, Stats};
        let found = match puzzle {
            crate::puzzle::Puzzle::Grid(grid) => {
                Wide::solve(self, &OrderGrid::from_grid(grid), limit.get())
            }
            crate::puzzle::Puzzle::Candidates(c) => {
                let masks: Vec<u64> = c.masks().iter().map(|&m| u64::from(m)).collect();
                self.engine(Order::ALL[1])
                    .solve_masks(&masks, limit.get().max(1))
            }
            crate::puzzle::Puzzle::Order(grid) => Wide::solve(self, grid, limit.get()),
        };
        let mut stats = Stats::GUESSING;
        stats.guesses = Some(found.guesses);
        let first = found.first.map(crate::puzzle::Solution::from);
        let second = found.second.map(crate::puzzle::Solution::from);
        Outcome::searched(found.count, limit, found.stopped, first, second, stats)
    }
}
