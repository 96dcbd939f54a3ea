//! Symmetric clue patterns: which cells must be given or left empty together.
//!
//! A [`ClueSymmetry`] is a group of geometric maps of the 9×9 square (rotations and mirrors);
//! its orbits partition the 81 cells, and a puzzle has the symmetry when each orbit is either
//! all clues or all empty. The generator removes whole orbits, so its puzzles keep the pattern
//! (the digits themselves are not symmetric; that is a property of the solution grid).

use std::fmt;

/// A cell as (row, column), both 0..9.
type Rc = (usize, usize);

fn identity((r, c): Rc) -> Rc {
    (r, c)
}
fn half_turn((r, c): Rc) -> Rc {
    (8 - r, 8 - c)
}
fn quarter_turn((r, c): Rc) -> Rc {
    (c, 8 - r)
}
fn three_quarter_turn((r, c): Rc) -> Rc {
    (8 - c, r)
}
fn diagonal((r, c): Rc) -> Rc {
    (c, r)
}
fn antidiagonal((r, c): Rc) -> Rc {
    (8 - c, 8 - r)
}
fn flip_rows((r, c): Rc) -> Rc {
    (8 - r, c)
}
fn flip_columns((r, c): Rc) -> Rc {
    (r, 8 - c)
}

/// The symmetry of a clue pattern. Every variant is a group of maps of the square, so the
/// images of a cell under it are exactly the cell's orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClueSymmetry {
    /// Any pattern.
    None,
    /// 180° rotation about the centre (the usual newspaper symmetry).
    Central,
    /// 90° rotation (and so 180° and 270° too).
    Quarter,
    /// Mirror in the main diagonal (top left to bottom right).
    Diagonal,
    /// Mirror in the anti-diagonal (bottom left to top right).
    Antidiagonal,
    /// Mirror in both diagonals (and so the 180° rotation).
    Bidiagonal,
    /// Mirror in the horizontal axis (row `r` ↔ row `8 − r`).
    Horizontal,
    /// Mirror in the vertical axis (column `c` ↔ column `8 − c`).
    Vertical,
    /// Mirror in both axes (and so the 180° rotation).
    Biaxial,
    /// All eight rotations and mirrors of the square.
    Dihedral,
}

impl ClueSymmetry {
    /// Every symmetry, in the order `--symmetry` lists them.
    pub const ALL: [ClueSymmetry; 10] = [
        ClueSymmetry::None,
        ClueSymmetry::Central,
        ClueSymmetry::Quarter,
        ClueSymmetry::Diagonal,
        ClueSymmetry::Antidiagonal,
        ClueSymmetry::Bidiagonal,
        ClueSymmetry::Horizontal,
        ClueSymmetry::Vertical,
        ClueSymmetry::Biaxial,
        ClueSymmetry::Dihedral,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ClueSymmetry::None => "none",
            ClueSymmetry::Central => "central",
            ClueSymmetry::Quarter => "quarter",
            ClueSymmetry::Diagonal => "diagonal",
            ClueSymmetry::Antidiagonal => "antidiagonal",
            ClueSymmetry::Bidiagonal => "bidiagonal",
            ClueSymmetry::Horizontal => "horizontal",
            ClueSymmetry::Vertical => "vertical",
            ClueSymmetry::Biaxial => "biaxial",
            ClueSymmetry::Dihedral => "dihedral",
        }
    }

    /// The symmetry called `name` (also `rotational` and `180` for central, `90` for
    /// quarter), ignoring case.
    pub fn from_name(name: &str) -> Option<ClueSymmetry> {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "rotational" | "180" => return Some(ClueSymmetry::Central),
            "90" => return Some(ClueSymmetry::Quarter),
            _ => {}
        }
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The maps of the group.
    fn maps(self) -> &'static [fn(Rc) -> Rc] {
        match self {
            ClueSymmetry::None => &[identity],
            ClueSymmetry::Central => &[identity, half_turn],
            ClueSymmetry::Quarter => &[identity, quarter_turn, half_turn, three_quarter_turn],
            ClueSymmetry::Diagonal => &[identity, diagonal],
            ClueSymmetry::Antidiagonal => &[identity, antidiagonal],
            ClueSymmetry::Bidiagonal => &[identity, diagonal, antidiagonal, half_turn],
            ClueSymmetry::Horizontal => &[identity, flip_rows],
            ClueSymmetry::Vertical => &[identity, flip_columns],
            ClueSymmetry::Biaxial => &[identity, flip_rows, flip_columns, half_turn],
            ClueSymmetry::Dihedral => &[
                identity,
                quarter_turn,
                half_turn,
                three_quarter_turn,
                diagonal,
                antidiagonal,
                flip_rows,
                flip_columns,
            ],
        }
    }

    /// The orbits: disjoint cell lists (each sorted, the list ordered by first cell) covering
    /// all 81 cells.
    pub fn orbits(self) -> Vec<Vec<u8>> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for cell in 0..81 {
            if seen[cell] {
                continue;
            }
            let mut orbit: Vec<u8> = self
                .maps()
                .iter()
                .map(|m| {
                    let (r, c) = m((cell / 9, cell % 9));
                    (9 * r + c) as u8
                })
                .collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &c in &orbit {
                seen[usize::from(c)] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the filled cells of `cells` (non-zero values) form a pattern with this symmetry.
    pub fn holds_for(self, cells: &[u8; 81]) -> bool {
        self.orbits().iter().all(|orbit| {
            let filled = orbit
                .iter()
                .filter(|&&c| cells[usize::from(c)] != 0)
                .count();
            filled == 0 || filled == orbit.len()
        })
    }
}

impl fmt::Display for ClueSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid_with_the_expected_sizes() {
        // (symmetry, number of orbits): fixed points make some orbits smaller.
        let expected = [
            (ClueSymmetry::None, 81),
            (ClueSymmetry::Central, 41),
            (ClueSymmetry::Quarter, 21),
            (ClueSymmetry::Diagonal, 45),
            (ClueSymmetry::Antidiagonal, 45),
            (ClueSymmetry::Bidiagonal, 25),
            (ClueSymmetry::Horizontal, 45),
            (ClueSymmetry::Vertical, 45),
            (ClueSymmetry::Biaxial, 25),
            (ClueSymmetry::Dihedral, 15),
        ];
        for (sym, n) in expected {
            let orbits = sym.orbits();
            assert_eq!(orbits.len(), n, "{sym}");
            let mut cells: Vec<u8> = orbits.concat();
            cells.sort_unstable();
            assert_eq!(cells, (0..81).collect::<Vec<u8>>(), "{sym}");
            // Each orbit maps onto itself under every map of the group.
            for orbit in &orbits {
                for m in sym.maps() {
                    for &c in orbit {
                        let (r, k) = m((usize::from(c) / 9, usize::from(c) % 9));
                        assert!(orbit.contains(&((9 * r + k) as u8)), "{sym} {orbit:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn names_round_trip_and_aliases() {
        for sym in ClueSymmetry::ALL {
            assert_eq!(ClueSymmetry::from_name(sym.name()), Some(sym));
        }
        assert_eq!(
            ClueSymmetry::from_name("Rotational"),
            Some(ClueSymmetry::Central)
        );
        assert_eq!(ClueSymmetry::from_name("90"), Some(ClueSymmetry::Quarter));
        assert_eq!(ClueSymmetry::from_name("spiral"), None);
    }

    #[test]
    fn holds_for_detects_a_broken_pattern() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        assert!(ClueSymmetry::None.holds_for(&cells));
        assert!(!ClueSymmetry::Central.holds_for(&cells));
        cells[80] = 7;
        assert!(ClueSymmetry::Central.holds_for(&cells));
        assert!(ClueSymmetry::Diagonal.holds_for(&cells));
        assert!(!ClueSymmetry::Horizontal.holds_for(&cells));
    }
}
