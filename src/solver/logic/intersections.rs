//! Box–line intersections, the pattern behind locked candidates ("pointing" and "claiming"):
//! where the digits of the three cells a box shares with a row or column are confined.

use super::board::Cells;
use crate::grid::{BOX_OF, UNITS};

/// A box–line intersection: three cells shared by a box and a row or column, the box's other
/// six cells and the line's other six cells.
#[derive(Clone, Copy)]
pub(super) struct Intersection {
    /// Unit bits of the box and the line (for dirty tracking).
    pub(super) units: u32,
    /// The three shared cells.
    pub(super) inter: [u8; 3],
    /// The box's other six cells.
    pub(super) box_rest: [u8; 6],
    /// The line's other six cells.
    pub(super) line_rest: [u8; 6],
    /// `box_rest` as a cell set.
    pub(super) box_rest_cells: Cells,
    /// `line_rest` as a cell set.
    pub(super) line_rest_cells: Cells,
}

/// The 54 box–line intersections: for every box, its three rows and three columns.
pub(super) const INTERSECTIONS: [Intersection; 54] = {
    let empty = Intersection {
        units: 0,
        inter: [0; 3],
        box_rest: [0; 6],
        line_rest: [0; 6],
        box_rest_cells: 0,
        line_rest_cells: 0,
    };
    let mut t = [empty; 54];
    let mut n = 0;
    let mut b = 0;
    while b < 9 {
        let box_unit = 18 + b;
        // lines 0..3: the box's rows; 3..6: its columns.
        let mut l = 0;
        while l < 6 {
            let line_unit = if l < 3 {
                (b / 3) * 3 + l
            } else {
                9 + (b % 3) * 3 + (l - 3)
            };
            let mut x = Intersection {
                units: (1 << box_unit) | (1 << line_unit),
                ..empty
            };
            let (mut ni, mut nb, mut nl) = (0, 0, 0);
            let mut k = 0;
            while k < 9 {
                let cell = UNITS[box_unit][k];
                let mut in_line = false;
                let mut j = 0;
                while j < 9 {
                    if UNITS[line_unit][j] == cell {
                        in_line = true;
                    }
                    j += 1;
                }
                if in_line {
                    x.inter[ni] = cell;
                    ni += 1;
                } else {
                    x.box_rest[nb] = cell;
                    x.box_rest_cells |= 1 << cell;
                    nb += 1;
                }
                k += 1;
            }
            let mut j = 0;
            while j < 9 {
                let cell = UNITS[line_unit][j];
                if BOX_OF[cell as usize] as usize != b {
                    x.line_rest[nl] = cell;
                    x.line_rest_cells |= 1 << cell;
                    nl += 1;
                }
                j += 1;
            }
            t[n] = x;
            n += 1;
            l += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersections_are_well_formed() {
        for x in &INTERSECTIONS {
            let b = BOX_OF[x.inter[0] as usize];
            assert!(x.inter.iter().all(|&c| BOX_OF[c as usize] == b));
            assert!(x.box_rest.iter().all(|&c| BOX_OF[c as usize] == b));
            assert!(x.line_rest.iter().all(|&c| BOX_OF[c as usize] != b));
            let mut all: Vec<u8> = x.inter.iter().chain(&x.box_rest).copied().collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 9);
            assert_eq!(x.units.count_ones(), 2);
        }
    }

    #[test]
    fn intersection_cell_sets_match_their_lists() {
        for x in &INTERSECTIONS {
            let set = |cells: &[u8]| cells.iter().fold(0 as Cells, |a, &c| a | 1 << c);
            assert_eq!(x.box_rest_cells, set(&x.box_rest));
            assert_eq!(x.line_rest_cells, set(&x.line_rest));
        }
    }
}
