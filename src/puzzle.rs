//! What a backend is asked ([`Puzzle`]) and what it answers with ([`Solution`]), for every
//! problem kind the runner and the judge handle: 9×9 clue grids and pencilmark positions (the
//! fixed-size fast paths) and clue grids of the other orders (4×4, 16×16 … 64×64).
//!
//! A 9×9 grid is always [`Puzzle::Grid`], never an order-3 [`OrderGrid`], so the 9×9 backends
//! keep their fixed-size types and nothing on 9×9 pays for the other orders.

use crate::grid::{Candidates, Grid};
use crate::order::{Order, OrderGrid};
use std::fmt;
use std::sync::Arc;

/// What a backend is asked to solve.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Puzzle {
    /// A 9×9 clue grid; empty cells allow every digit.
    Grid(Grid),
    /// A 9×9 pencilmark position: candidates per cell.
    Candidates(Candidates),
    /// A clue grid of another order than 9×9 (shared, so copies are cheap).
    Order(Arc<OrderGrid>),
}

/// The kind of a puzzle, as the registry states which kinds a backend takes. Shapes sort by
/// size (4×4, 9×9, 16×16, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A 9×9 clue grid or pencilmark position.
    Nine,
    /// A clue grid of another order.
    Order(Order),
}

impl Shape {
    /// The order and whether it is a grid of [`Shape::Order`]: the key shapes sort by.
    fn size_key(self) -> (usize, bool) {
        match self {
            Shape::Nine => (3, false),
            Shape::Order(o) => (o.n(), true),
        }
    }
}

impl Ord for Shape {
    fn cmp(&self, other: &Shape) -> std::cmp::Ordering {
        self.size_key().cmp(&other.size_key())
    }
}

impl PartialOrd for Shape {
    fn partial_cmp(&self, other: &Shape) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Shape {
    /// `9x9`, `16x16`, …
    pub fn label(self) -> String {
        match self {
            Shape::Nine => "9x9".to_string(),
            Shape::Order(o) => o.label(),
        }
    }
}

impl Puzzle {
    /// A clue grid of any order: an order-3 grid becomes the 9×9 [`Puzzle::Grid`].
    pub fn from_order_grid(grid: OrderGrid) -> Puzzle {
        match grid.to_grid() {
            Some(nine) if grid.order().n() == 3 => Puzzle::Grid(nine),
            _ => Puzzle::Order(Arc::new(grid)),
        }
    }

    /// The puzzle as 9×9 candidate masks (clues become single candidates); `None` for
    /// another order.
    pub fn candidates(&self) -> Option<Candidates> {
        match self {
            Puzzle::Grid(g) => Some(Candidates::from_grid(g)),
            Puzzle::Candidates(c) => Some(*c),
            Puzzle::Order(_) => None,
        }
    }

    /// The kind of puzzle.
    pub fn shape(&self) -> Shape {
        match self {
            Puzzle::Grid(_) | Puzzle::Candidates(_) => Shape::Nine,
            Puzzle::Order(g) => Shape::Order(g.order()),
        }
    }

    /// The puzzle's text form: 81 characters for a grid, 729 for pencilmarks, the order's
    /// line form otherwise.
    pub fn to_line(&self) -> String {
        match self {
            Puzzle::Grid(g) => g.to_line(),
            Puzzle::Candidates(c) => c.to_line(),
            Puzzle::Order(g) => g.to_line(),
        }
    }
}

impl From<Grid> for Puzzle {
    fn from(grid: Grid) -> Puzzle {
        Puzzle::Grid(grid)
    }
}

impl From<Candidates> for Puzzle {
    fn from(candidates: Candidates) -> Puzzle {
        Puzzle::Candidates(candidates)
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Puzzle::Grid(g) => g.fmt(f),
            Puzzle::Candidates(c) => c.fmt(f),
            Puzzle::Order(g) => g.fmt(f),
        }
    }
}

/// A full grid a backend shows as a solution: 9×9, or of another order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Solution {
    /// A 9×9 grid.
    Grid(Grid),
    /// A grid of another order.
    Order(Arc<OrderGrid>),
}

impl Solution {
    /// The 9×9 grid, if it is one.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            Solution::Grid(g) => Some(g),
            Solution::Order(_) => None,
        }
    }

    /// The grid of another order, if it is one.
    pub fn order_grid(&self) -> Option<&OrderGrid> {
        match self {
            Solution::Grid(_) => None,
            Solution::Order(g) => Some(g),
        }
    }

    /// A grid of any order: an order-3 grid becomes [`Solution::Grid`].
    pub fn from_order_grid(grid: OrderGrid) -> Solution {
        match grid.to_grid() {
            Some(nine) if grid.order().n() == 3 => Solution::Grid(nine),
            _ => Solution::Order(Arc::new(grid)),
        }
    }

    /// The solution's text form (as [`Puzzle::to_line`]): its `Display`.
    pub fn to_line(&self) -> String {
        self.to_string()
    }
}

impl From<Grid> for Solution {
    fn from(grid: Grid) -> Solution {
        Solution::Grid(grid)
    }
}

impl From<OrderGrid> for Solution {
    fn from(grid: OrderGrid) -> Solution {
        Solution::from_order_grid(grid)
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Solution::Grid(g) => g.fmt(f),
            Solution::Order(g) => g.fmt(f),
        }
    }
}
