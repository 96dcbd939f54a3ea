//! Digit boards: where each digit may still go, one bit per cell, and single propagation on
//! them.
//!
//! Naked and hidden singles are the size-1 reductions of the closure, and the bulk of its
//! work: a 17-clue puzzle places some sixty digits by them before any subset is needed.
//! Per-digit boards do that work a board at a time instead of a candidate at a time:
//! placing a digit clears its 20 peers with one mask, the cells left with one candidate are
//! found by counting bits across the nine boards, and the cells that are a digit's only place
//! in a row, column or box come from folding its board's rows.

use crate::grid::{ALL_DIGITS, CELLS};

/// Deduction found that the position has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Contradiction;

pub(super) type Step<T = ()> = Result<T, Contradiction>;

/// A set of cells: bit `9·row + column`.
pub(super) use crate::grid::{Cells, PEER_CELLS};

/// All 81 cells.
pub(super) const ALL_CELLS: Cells = (1 << CELLS) - 1;

/// A 9-bit row mask (bit = column) with the three bits of every triad (a box's columns) set
/// whose triad in the index has exactly one bit.
const TRIAD_ONE: [u16; 512] = triad_table(true);

/// A 9-bit row mask with the three bits of every triad set whose triad in the index has any bit.
const TRIAD_ANY: [u16; 512] = triad_table(false);

const fn triad_table(exactly_one: bool) -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let n = ((m >> (3 * k)) & 7u32).count_ones();
            if (exactly_one && n == 1) || (!exactly_one && n > 0) {
                t[m as usize] |= 7 << (3 * k);
            }
            k += 1;
        }
        m += 1;
    }
    t
}

/// The cells of `board` (one digit's places) that are its only place in their row, column or
/// box; `None` if some row, column or box has no place for the digit.
#[inline(always)]
fn lone_cells(board: Cells) -> Option<Cells> {
    let mut rows = [0u16; 9];
    let (mut once, mut twice) = (0u16, 0u16);
    for (r, row) in rows.iter_mut().enumerate() {
        let w = (board >> (9 * r)) as u16 & 0x1ff;
        *row = w;
        twice |= once & w;
        once |= w;
    }
    if once != 0x1ff {
        return None;
    }
    let column_lone = once & !twice;
    let mut lone: Cells = 0;
    for band in 0..3 {
        let [a, b, c] = [rows[3 * band], rows[3 * band + 1], rows[3 * band + 2]];
        if a == 0 || b == 0 || c == 0 {
            return None;
        }
        let any = a | b | c;
        if TRIAD_ANY[usize::from(any)] != 0x1ff {
            return None;
        }
        // A box holds one cell if its triad of `any` has one bit that no second row shares.
        let more = (a & b) | (a & c) | (b & c);
        let box_lone = TRIAD_ONE[usize::from(any)] & !TRIAD_ANY[usize::from(more)];
        for (k, w) in [a, b, c].into_iter().enumerate() {
            let row_lone = if w & (w - 1) == 0 { w } else { 0 };
            let cells = w & (column_lone | box_lone | row_lone);
            lone |= Cells::from(cells) << (9 * (3 * band + k));
        }
    }
    Some(lone)
}

/// The candidates of a position as nine digit boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Boards {
    /// Board `d`: the cells that may still hold digit `d + 1`.
    pub(super) digits: [Cells; 9],
    /// Cells whose digit has been placed (cleared from their peers).
    pub(super) solved: Cells,
    /// Each board as it was at its last hidden-single check: a board not changed since then
    /// has nothing new to find.
    checked: [Cells; 9],
}

/// A `checked` value no board can have.
const UNCHECKED: Cells = Cells::MAX;

impl Boards {
    /// The boards of candidate masks per cell (bit `d` = digit `d + 1`); nothing placed yet.
    pub(super) fn from_masks(masks: &[u16; CELLS]) -> Boards {
        // Most fields of a puzzle are open with all nine digits: gather those into one set.
        let mut digits = [0; 9];
        let mut open: Cells = 0;
        for (cell, &m) in masks.iter().enumerate() {
            if m & ALL_DIGITS == ALL_DIGITS {
                open |= 1 << cell;
                continue;
            }
            let mut m = m & ALL_DIGITS;
            while m != 0 {
                digits[m.trailing_zeros() as usize] |= 1 << cell;
                m &= m - 1;
            }
        }
        for board in &mut digits {
            *board |= open;
        }
        Boards {
            digits,
            solved: 0,
            checked: [UNCHECKED; 9],
        }
    }

    /// Marks the boards as checked: for a state that is a fixpoint of [`singles`](Self::singles).
    pub(super) fn settle(&mut self) {
        self.checked = self.digits;
    }

    /// Whether every cell holds a placed digit.
    pub(super) fn is_solved(&self) -> bool {
        self.solved == ALL_CELLS
    }

    /// Removes digit `d + 1` from `cells`.
    #[inline(always)]
    pub(super) fn remove(&mut self, d: usize, cells: Cells) {
        self.digits[d] &= !cells;
    }

    /// Restricts `cell` to digit `d + 1` (which must be among its candidates).
    pub(super) fn assign(&mut self, cell: usize, d: usize) {
        for (e, board) in self.digits.iter_mut().enumerate() {
            if e != d {
                *board &= !(1 << cell);
            }
        }
    }

    /// Naked and (if `hidden`) hidden singles to a fixpoint, or the contradiction they run
    /// into (a cell without candidates, or a row, column or box without a place for some
    /// digit; without `hidden` an empty row, column or box may go unnoticed).
    pub(super) fn singles(&mut self, hidden: bool) -> Step {
        loop {
            // Naked singles: count candidates per cell across the boards, saturating at two.
            let (mut once, mut twice) = (0 as Cells, 0 as Cells);
            for &board in &self.digits {
                twice |= once & board;
                once |= board;
            }
            if once != ALL_CELLS {
                return Err(Contradiction);
            }
            let new = once & !twice & !self.solved;
            if new != 0 {
                self.solved |= new;
                for board in &mut self.digits {
                    let mut cells = new & *board;
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        // Two new singles of this digit that are peers clear each other, and
                        // the emptied cell ends the next round.
                        *board &= !PEER_CELLS[cell];
                    }
                }
                continue;
            }
            if !hidden {
                return Ok(());
            }
            // Hidden singles: a digit's only place in a unit loses its other candidates (and
            // becomes a naked single for the next round).
            let mut found = false;
            for d in 0..9 {
                let board = self.digits[d];
                if board == self.checked[d] {
                    continue;
                }
                self.checked[d] = board;
                let lone = lone_cells(board).ok_or(Contradiction)? & !self.solved;
                if lone != 0 {
                    found = true;
                    for (e, other) in self.digits.iter_mut().enumerate() {
                        if e != d {
                            *other &= !lone;
                        }
                    }
                }
            }
            if !found {
                return Ok(());
            }
        }
    }

    /// The candidates of `cell` as a digit mask.
    #[cfg(test)]
    fn candidates(&self, cell: usize) -> u16 {
        let mut m = 0;
        for (d, &board) in self.digits.iter().enumerate() {
            m |= ((board >> cell) as u16 & 1) << d;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(list: &[(usize, usize)]) -> Cells {
        list.iter().fold(0, |a, &(r, c)| a | 1 << (9 * r + c))
    }

    #[test]
    fn lone_cells_in_rows_columns_and_boxes() {
        // Digit possible everywhere but in row 0 only at c4, in column 8 only at r5, in box 6
        // (rows 6-8, columns 0-2) only at r7c1.
        let mut board = ALL_CELLS;
        board &= !cells(
            &(0..9)
                .filter(|&c| c != 4)
                .map(|c| (0, c))
                .collect::<Vec<_>>(),
        );
        board &= !cells(
            &(0..9)
                .filter(|&r| r != 5)
                .map(|r| (r, 8))
                .collect::<Vec<_>>(),
        );
        let box6: Vec<_> = (6..9)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .filter(|&x| x != (7, 1))
            .collect();
        board &= !cells(&box6);
        assert_eq!(lone_cells(board), Some(cells(&[(0, 4), (5, 8), (7, 1)])));
    }

    #[test]
    fn lone_cells_reports_an_empty_unit() {
        let row3 = cells(&(0..9).map(|c| (3, c)).collect::<Vec<_>>());
        let col2 = cells(&(0..9).map(|r| (r, 2)).collect::<Vec<_>>());
        let box4 = cells(
            &(3..6)
                .flat_map(|r| (3..6).map(move |c| (r, c)))
                .collect::<Vec<_>>(),
        );
        for gone in [row3, col2, box4] {
            assert_eq!(lone_cells(ALL_CELLS & !gone), None);
        }
        assert_eq!(lone_cells(ALL_CELLS), Some(0));
    }

    #[test]
    fn singles_find_a_naked_and_a_hidden_single() {
        // r0c0 holds only 5: 5 leaves its peers. Digit 9 can go only in r8c8 within its box
        // (removed from the other eight cells of box 8): r8c8 becomes 9.
        let mut masks = [0x1ffu16; CELLS];
        masks[0] = 1 << 4;
        for r in 6..9 {
            for c in 6..9 {
                if (r, c) != (8, 8) {
                    masks[9 * r + c] &= !(1 << 8);
                }
            }
        }
        let mut b = Boards::from_masks(&masks);
        b.singles(true).unwrap();
        assert_eq!(b.candidates(0), 1 << 4);
        assert_eq!(b.candidates(1), 0x1ff & !(1 << 4));
        assert_eq!(b.candidates(80), 1 << 8);
        assert_eq!(b.solved, cells(&[(0, 0), (8, 8)]));
    }
}
