//! Sudoku of any order n = 2…8: a grid of n²×n² cells, n² rows, n² columns and n² boxes of
//! n×n, filled with the numbers 1…n².
//!
//! This module holds what every order-n piece shares: the [`Order`], its geometry tables
//! ([`Geometry`], computed once per order and shared), and the clue grid [`OrderGrid`].
//! The 9×9 fast paths keep their own fixed-size types ([`crate::grid::Grid`]); an order-3
//! [`OrderGrid`] converts to and from one.
//!
//! - [`format`](mod@format): reading and writing grids of any order (character lines, numbers, blocks);
//! - [`check`]: whether a full grid is a solution of a clue grid (used by tests and tools);
//! - the `wide` backend (in `solver`) solves them, and `generate::order` makes them.

pub mod check;
pub mod format;
pub mod found;
pub mod reader;
pub mod symmetry;

use std::fmt;
use std::sync::OnceLock;

/// The smallest order (4×4).
pub const MIN_ORDER: u8 = 2;
/// The largest order (64×64): 64 numbers still fit one `u64` candidate mask.
pub const MAX_ORDER: u8 = 8;

/// The order n of a Sudoku: boxes are n×n, the grid n²×n².
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Order(u8);

/// An order outside 2…8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("order {0} is not supported (orders 2 to 8: 4x4 to 64x64)")]
pub struct BadOrder(pub usize);

impl Order {
    /// Every supported order, smallest first.
    pub const ALL: [Order; 7] = [
        Order(2),
        Order(3),
        Order(4),
        Order(5),
        Order(6),
        Order(7),
        Order(8),
    ];

    /// The order of the 9×9 grid.
    pub const NINE: Order = Order(3);

    /// The order `n`, if it is in 2…8.
    pub fn new(n: usize) -> Result<Order, BadOrder> {
        if (MIN_ORDER as usize..=MAX_ORDER as usize).contains(&n) {
            Ok(Order(n as u8))
        } else {
            Err(BadOrder(n))
        }
    }

    /// The order whose grid has `cells` cells (n⁴), if any.
    pub fn from_cells(cells: usize) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.cells() == cells)
    }

    /// The order whose side is `side` (n²), if any.
    pub fn from_side(side: usize) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.side() == side)
    }

    /// n: the box side.
    pub fn n(self) -> usize {
        self.0 as usize
    }

    /// n²: the grid side, the number of symbols, the size of every house.
    pub fn side(self) -> usize {
        self.n() * self.n()
    }

    /// Every value as a bit mask: bit `v − 1` for value `v`, `side` bits.
    pub fn all_values(self) -> u64 {
        match self.side() {
            64 => u64::MAX,
            side => (1u64 << side) - 1,
        }
    }

    /// n⁴: the number of cells.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// 3n²: rows, then columns, then boxes.
    pub fn houses(self) -> usize {
        3 * self.side()
    }

    /// `16x16` and so on.
    pub fn label(self) -> String {
        format!("{0}x{0}", self.side())
    }

    /// The shared geometry tables of this order.
    pub fn geometry(self) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; 7] = [const { OnceLock::new() }; 7];
        TABLES[self.n() - MIN_ORDER as usize].get_or_init(|| Geometry::new(self))
    }

    /// The orders nearest to a wrong cell count, for error messages: the orders whose n⁴
    /// lies just below and just above `cells`.
    pub fn nearest(cells: usize) -> Vec<Order> {
        let below = Order::ALL.into_iter().rev().find(|o| o.cells() < cells);
        let above = Order::ALL.into_iter().find(|o| o.cells() > cells);
        below.into_iter().chain(above).collect()
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// The houses of one order as cell lists, computed once ([`Order::geometry`]).
#[derive(Debug)]
pub struct Geometry {
    order: Order,
    /// `houses × side` cell indices: rows, then columns, then boxes.
    house_cells: Vec<u16>,
    /// For each cell, its row, column and box house numbers.
    houses_of: Vec<[u16; 3]>,
    /// For each cell, `peer_count` peers (cells sharing a house, itself excluded).
    peers: Vec<u16>,
    peer_count: usize,
}

impl Geometry {
    fn new(order: Order) -> Geometry {
        let (n, s) = (order.n(), order.side());
        let mut house_cells = Vec::with_capacity(3 * s * s);
        for r in 0..s {
            house_cells.extend((0..s).map(|c| (r * s + c) as u16));
        }
        for c in 0..s {
            house_cells.extend((0..s).map(|r| (r * s + c) as u16));
        }
        for b in 0..s {
            let (r0, c0) = (b / n * n, b % n * n);
            house_cells.extend((0..s).map(|k| ((r0 + k / n) * s + c0 + k % n) as u16));
        }
        let houses_of: Vec<[u16; 3]> = (0..s * s)
            .map(|i| {
                let (r, c) = (i / s, i % s);
                [r as u16, (s + c) as u16, (2 * s + r / n * n + c / n) as u16]
            })
            .collect();
        let peer_count = 2 * (s - 1) + (n - 1) * (n - 1);
        let mut peers = Vec::with_capacity(s * s * peer_count);
        for (i, houses) in houses_of.iter().enumerate() {
            let start = peers.len();
            for &h in houses {
                for &p in &house_cells[h as usize * s..(h as usize + 1) * s] {
                    if p as usize != i && !peers[start..].contains(&p) {
                        peers.push(p);
                    }
                }
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        Geometry {
            order,
            house_cells,
            houses_of,
            peers,
            peer_count,
        }
    }

    /// The order these tables are for.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The cells of house `h` (rows 0…side, columns side…2·side, boxes 2·side…3·side).
    pub fn house(&self, h: usize) -> &[u16] {
        let s = self.order.side();
        &self.house_cells[h * s..(h + 1) * s]
    }

    /// The row, column and box of `cell`.
    pub fn houses_of(&self, cell: usize) -> [u16; 3] {
        self.houses_of[cell]
    }

    /// The cells that share a house with `cell`, itself excluded.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

/// Why values do not make a grid of an order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderGridError {
    /// The number of values is not the order's n⁴.
    #[error("{found} cells, expected {expected} for {order}")]
    Cells {
        /// The order asked for.
        order: Order,
        /// Its n⁴.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A value above n².
    #[error("cell {cell} holds {value}, above {side}")]
    Value {
        /// 0-based cell.
        cell: usize,
        /// The value.
        value: u8,
        /// n².
        side: usize,
    },
}

/// A clue grid (or a solution) of any order: n⁴ values, `0` for an empty cell, else 1…n².
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct OrderGrid {
    order: Order,
    cells: Vec<u8>,
}

impl OrderGrid {
    /// The empty grid of `order`.
    pub fn empty(order: Order) -> OrderGrid {
        OrderGrid {
            order,
            cells: vec![0; order.cells()],
        }
    }

    /// A grid from its values, row by row (`0` empty).
    pub fn from_values(order: Order, cells: Vec<u8>) -> Result<OrderGrid, OrderGridError> {
        if cells.len() != order.cells() {
            return Err(OrderGridError::Cells {
                order,
                expected: order.cells(),
                found: cells.len(),
            });
        }
        if let Some(cell) = cells.iter().position(|&v| v as usize > order.side()) {
            return Err(OrderGridError::Value {
                cell,
                value: cells[cell],
                side: order.side(),
            });
        }
        Ok(OrderGrid { order, cells })
    }

    /// The 9×9 grid as an order-3 grid.
    pub fn from_grid(grid: &crate::grid::Grid) -> OrderGrid {
        OrderGrid {
            order: Order(3),
            cells: grid.cells().to_vec(),
        }
    }

    /// The order-3 grid as the fixed-size 9×9 [`crate::grid::Grid`]; `None` for other orders.
    pub fn to_grid(&self) -> Option<crate::grid::Grid> {
        let cells: [u8; 81] = self.cells.as_slice().try_into().ok()?;
        crate::grid::Grid::from_cells(cells).ok()
    }

    /// The order.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The values, row by row.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value of `cell` (`0` empty).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets `cell` to `value` (`0` empties it).
    ///
    /// # Panics
    /// If `value` is above n² or `cell` outside the grid: a programming error.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value as usize <= self.order.side(), "value above n²");
        self.cells[cell] = value;
    }

    /// Filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }
}

impl fmt::Display for OrderGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for OrderGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OrderGrid({}: {})", self.order, self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_every_order() {
        for order in Order::ALL {
            let g = order.geometry();
            let s = order.side();
            for h in 0..order.houses() {
                let mut seen = vec![false; order.cells()];
                for &c in g.house(h) {
                    assert!(!seen[c as usize]);
                    seen[c as usize] = true;
                }
            }
            for cell in [0, s + 1, order.cells() - 1] {
                let p = g.peers(cell);
                assert_eq!(p.len(), 2 * (s - 1) + (order.n() - 1).pow(2));
                assert!(!p.contains(&(cell as u16)));
                for &h in &g.houses_of(cell) {
                    assert!(g.house(h as usize).contains(&(cell as u16)));
                }
            }
        }
    }

    #[test]
    fn nearest_orders() {
        assert_eq!(Order::nearest(100), vec![Order(3), Order(4)]);
        assert_eq!(Order::nearest(10), vec![Order(2)]);
        assert_eq!(Order::nearest(5000), vec![Order(8)]);
        assert_eq!(Order::nearest(3), vec![Order(2)]);
    }

    #[test]
    fn values_above_side_refused() {
        let o = Order::new(2).unwrap();
        assert!(OrderGrid::from_values(o, vec![5; 16]).is_err());
        assert!(OrderGrid::from_values(o, vec![4; 15]).is_err());
        assert!(Order::new(9).is_err() && Order::new(1).is_err());
    }
}
