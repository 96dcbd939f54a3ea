//! A Sudoku grid of any order as exact cover, reduced by its clues: the items are the
//! constraints the clues leave open (a cell to fill; a digit to place in a row, a column, a
//! box), the options the (cell, digit) pairs no clue rules out. The exact-cover engines then
//! solve grids of every order, and a cover maps back to a grid.

use super::knuth::Instance;
use crate::order::OrderGrid;

/// A clue grid as an exact-cover instance.
pub enum Reduced {
    /// Two clues break a rule: no solution.
    Contradiction,
    /// The instance, and the (cell, digit) of each of its options.
    Cover {
        /// The instance.
        instance: Instance,
        /// Option `o` places digit `placements[o].1` in cell `placements[o].0`.
        placements: Vec<(usize, u8)>,
    },
}

/// Reduces `grid` by its clues.
pub fn reduce(grid: &OrderGrid) -> Reduced {
    let (n, side) = (grid.order().n(), grid.order().side());
    let box_of = |cell: usize| (cell / side / n) * n + (cell % side) / n;
    // Digits used per row, column and box (bit d − 1).
    let (mut rows, mut cols, mut boxes) = (vec![0u64; side], vec![0u64; side], vec![0u64; side]);
    for cell in 0..side * side {
        let d = grid.get(cell);
        if d == 0 {
            continue;
        }
        let bit = 1u64 << (d - 1);
        let (r, c, b) = (cell / side, cell % side, box_of(cell));
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return Reduced::Contradiction;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    // Item numbers of the open constraints: cells first, then row, column and box digits.
    let mut item = vec![usize::MAX; 4 * side * side];
    let mut names = Vec::new();
    let mut open = |slot: usize, name: String| {
        item[slot] = names.len();
        names.push(name);
    };
    for cell in 0..side * side {
        if grid.get(cell) == 0 {
            open(cell, format!("p{cell}"));
        }
    }
    for (k, used) in [&rows, &cols, &boxes].into_iter().enumerate() {
        for (h, &mask) in used.iter().enumerate() {
            for d in 0..side {
                if mask >> d & 1 == 0 {
                    let kind = ["r", "c", "b"][k];
                    open(
                        (k + 1) * side * side + h * side + d,
                        format!("{kind}{h}_{}", d + 1),
                    );
                }
            }
        }
    }
    let (mut options, mut placements) = (Vec::new(), Vec::new());
    for cell in 0..side * side {
        if grid.get(cell) != 0 {
            continue;
        }
        let (r, c, b) = (cell / side, cell % side, box_of(cell));
        let free = !(rows[r] | cols[c] | boxes[b]);
        for d in 0..side {
            if free >> d & 1 == 0 {
                continue;
            }
            let slots = [
                cell,
                side * side + r * side + d,
                2 * side * side + c * side + d,
                3 * side * side + b * side + d,
            ];
            options.push(slots.iter().map(|&s| (item[s], 0)).collect());
            placements.push((cell, d as u8 + 1));
        }
    }
    let primary = names.len();
    Reduced::Cover {
        instance: Instance {
            source: format!("{} puzzle", grid.order()),
            names,
            primary,
            colours: Vec::new(),
            option_lines: vec![0; options.len()],
            options,
            expected: None,
            provenance: String::new(),
        },
        placements,
    }
}

/// The grid a cover (option indices) completes.
pub fn fill(grid: &OrderGrid, placements: &[(usize, u8)], cover: &[usize]) -> OrderGrid {
    let mut out = grid.clone();
    for &o in cover {
        let (cell, digit) = placements[o];
        out.set(cell, digit);
    }
    out
}
