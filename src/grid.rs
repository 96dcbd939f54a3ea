//! The 9×9 grid, candidate sets, and the shared geometry tables.
//!
//! Cells are numbered 0..81 in row-major order; digits are 1..=9 and 0 means an empty cell.
//! The geometry tables ([`ROW_OF`], [`UNITS`], [`PEERS`], …) are computed at compile time so
//! every backend can use them without start-up cost.

use std::fmt;
use std::str::FromStr;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// Row (0..9) of every cell.
pub const ROW_OF: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
};

/// Column (0..9) of every cell.
pub const COL_OF: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i % 9) as u8;
        i += 1;
    }
    t
};

/// Box (0..9, row-major over the 3×3 boxes) of every cell.
pub const BOX_OF: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = ((i / 27) * 3 + (i % 9) / 3) as u8;
        i += 1;
    }
    t
};

/// The 27 units: rows 0..9, then columns 9..18, then boxes 18..27; each lists its 9 cells.
pub const UNITS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < CELLS {
        let (r, c, b) = (i / 9, i % 9, BOX_OF[i] as usize);
        t[r][c] = i as u8;
        t[9 + c][r] = i as u8;
        t[18 + b][(r % 3) * 3 + c % 3] = i as u8;
        i += 1;
    }
    t
};

/// The three units (row, column, box) each cell belongs to, as indices into [`UNITS`].
pub const UNITS_OF: [[u8; 3]; CELLS] = {
    let mut t = [[0u8; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = [ROW_OF[i], 9 + COL_OF[i], 18 + BOX_OF[i]];
        i += 1;
    }
    t
};

/// The 20 peers of every cell: the other cells sharing its row, column or box.
pub const PEERS: [[u8; 20]; CELLS] = {
    let mut t = [[0u8; 20]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut n = 0;
        let mut j = 0;
        while j < CELLS {
            if j != i
                && (ROW_OF[i] == ROW_OF[j] || COL_OF[i] == COL_OF[j] || BOX_OF[i] == BOX_OF[j])
            {
                t[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Why a text or a cell array is not a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The text does not have exactly 81 cells.
    #[error("has {0} characters, expected 81")]
    Length(usize),
    /// A character that is neither a digit 1–9 nor an empty-cell marker (`.` or `0`).
    #[error("illegal character {ch:?} at column {column} (expected 1-9, '.' or '0')")]
    Character {
        /// The offending character.
        ch: char,
        /// 1-based column of the character.
        column: usize,
    },
    /// A character in a pencilmark line that is not allowed in its slot: slot `9·cell + d−1`
    /// holds the digit `d` or an eliminated mark (`.` or `0`), nothing else.
    #[error(
        "illegal character {ch:?} at column {column} (expected '{digit}', '.' or '0' in that slot)"
    )]
    Pencilmark {
        /// The offending character.
        ch: char,
        /// 1-based column of the character.
        column: usize,
        /// The only digit that slot can hold.
        digit: u8,
    },
    /// A cell value above 9.
    #[error("cell {cell} holds {value}, expected 0-9")]
    Value {
        /// Cell index 0..81.
        cell: usize,
        /// The value found.
        value: u8,
    },
}

/// A 9×9 Sudoku grid: clues of a puzzle or a (partial) solution. `0` is an empty cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

impl Default for Grid {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Grid {
    /// The grid with no clues.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from cell values, each 0 (empty) or 1..=9.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Grid, GridError> {
        match cells.iter().position(|&v| v > 9) {
            Some(cell) => Err(GridError::Value {
                cell,
                value: cells[cell],
            }),
            None => Ok(Grid { cells }),
        }
    }

    /// Parses 81 bytes: `1`–`9` are digits, `.` and `0` are empty cells.
    pub fn from_bytes(text: &[u8]) -> Result<Grid, GridError> {
        if text.len() != CELLS {
            return Err(GridError::Length(text.len()));
        }
        let mut cells = [0u8; CELLS];
        for (i, &b) in text.iter().enumerate() {
            cells[i] = match b {
                b'1'..=b'9' => b - b'0',
                b'.' | b'0' => 0,
                _ => {
                    return Err(GridError::Character {
                        ch: char::from(b),
                        column: i + 1,
                    })
                }
            };
        }
        Ok(Grid { cells })
    }

    /// All 81 cell values, row-major.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of one cell (0 = empty). Panics if `cell >= 81`.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell. Panics if `cell >= 81` or `digit > 9`.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "digit {digit} out of range");
        self.cells[cell] = digit;
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled (says nothing about validity).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The 81-character line form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [b'.'; CELLS];
        for (b, &v) in buf.iter_mut().zip(&self.cells) {
            if v != 0 {
                *b = b'0' + v;
            }
        }
        // The buffer holds only ASCII digits and dots.
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl FromStr for Grid {
    type Err = GridError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() != CELLS {
            return Err(GridError::Length(s.chars().count()));
        }
        Grid::from_bytes(s.as_bytes())
    }
}

/// Bit mask with all nine digits possible (bit `d-1` stands for digit `d`).
pub const ALL_DIGITS: u16 = 0x1ff;

/// A pencilmark position: for every cell, the set of digits still possible, as a 9-bit mask
/// (bit `d-1` set means digit `d` is possible).
///
/// Written as a 729-character line: character `81·row + 9·col + d−1` is the digit `d` if it is
/// still possible in that cell and `.` otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates {
    masks: [u16; CELLS],
}

impl Candidates {
    /// Every digit possible in every cell.
    pub const ALL: Candidates = Candidates {
        masks: [ALL_DIGITS; CELLS],
    };

    /// Builds from masks; bits above the ninth are an error (reported as a value error).
    pub fn from_masks(masks: [u16; CELLS]) -> Result<Candidates, GridError> {
        match masks.iter().position(|&m| m & !ALL_DIGITS != 0) {
            Some(cell) => Err(GridError::Value {
                cell,
                value: u8::MAX,
            }),
            None => Ok(Candidates { masks }),
        }
    }

    /// The candidates implied by a clue grid: a clue cell allows only its digit, an empty cell
    /// allows all nine. No elimination among peers is done.
    pub fn from_grid(grid: &Grid) -> Candidates {
        let mut masks = [ALL_DIGITS; CELLS];
        for (m, &v) in masks.iter_mut().zip(grid.cells()) {
            if v != 0 {
                *m = 1 << (v - 1);
            }
        }
        Candidates { masks }
    }

    /// Parses the 729-character pencilmark form.
    pub fn from_bytes(text: &[u8]) -> Result<Candidates, GridError> {
        if text.len() != CELLS * 9 {
            return Err(GridError::Length(text.len()));
        }
        let mut masks = [0u16; CELLS];
        for (i, &b) in text.iter().enumerate() {
            let digit = (i % 9) as u8 + 1;
            match b {
                b'.' | b'0' => {}
                _ if b == b'0' + digit => masks[i / 9] |= 1 << (digit - 1),
                _ => {
                    return Err(GridError::Pencilmark {
                        ch: char::from(b),
                        column: i + 1,
                        digit,
                    })
                }
            }
        }
        Ok(Candidates { masks })
    }

    /// The digit mask of every cell.
    pub fn masks(&self) -> &[u16; CELLS] {
        &self.masks
    }

    /// The digit mask of one cell.
    pub fn get(&self, cell: usize) -> u16 {
        self.masks[cell]
    }

    /// Whether `digit` (1..=9) is possible in `cell`.
    pub fn allows(&self, cell: usize, digit: u8) -> bool {
        (1..=9).contains(&digit) && self.masks[cell] & (1 << (digit - 1)) != 0
    }

    /// The grid of cells that have exactly one candidate.
    pub fn singles(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (c, &m) in cells.iter_mut().zip(&self.masks) {
            if m.count_ones() == 1 {
                *c = m.trailing_zeros() as u8 + 1;
            }
        }
        Grid { cells }
    }

    /// The 729-character pencilmark line.
    pub fn to_line(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [b'.'; CELLS * 9];
        for (cell, &m) in self.masks.iter().enumerate() {
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    buf[cell * 9 + d] = b'1' + d as u8;
                }
            }
        }
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Candidates({self})")
    }
}

/// A set of cells: bit `c` for cell `c` (the backends' and the generator's bit-set view of
/// the geometry tables).
pub(crate) type Cells = u128;

/// The peers of each cell as a cell set.
pub(crate) const PEER_CELLS: [Cells; CELLS] = {
    let mut t = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < 20 {
            t[i] |= 1 << PEERS[i][j];
            j += 1;
        }
        i += 1;
    }
    t
};

/// The cells of each unit (rows, columns, boxes as in [`UNITS`]) as a cell set.
pub(crate) const UNIT_CELLS: [Cells; 27] = {
    let mut t = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        let mut i = 0;
        while i < 9 {
            t[u] |= 1 << UNITS[u][i];
            i += 1;
        }
        u += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        for cell in 0..CELLS {
            for &u in &UNITS_OF[cell] {
                assert!(UNITS[u as usize].contains(&(cell as u8)));
            }
            let peers = PEERS[cell];
            assert!(!peers.contains(&(cell as u8)));
            let mut sorted = peers.to_vec();
            sorted.dedup();
            assert_eq!(sorted.len(), 20);
        }
        for unit in UNITS {
            let mut s = unit.to_vec();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), 9);
        }
        assert_eq!(BOX_OF[80], 8);
        assert_eq!(BOX_OF[30], 4);
        assert_eq!(UNITS[18 + 4][0], 30);
    }

    #[test]
    fn grid_round_trip() {
        let text =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let g: Grid = text.parse().unwrap();
        assert_eq!(g.to_string(), text);
        assert_eq!(g.clue_count(), 18);
        let zeros = text.replace('.', "0");
        assert_eq!(zeros.parse::<Grid>().unwrap(), g);
    }

    #[test]
    fn grid_errors() {
        assert_eq!("123".parse::<Grid>(), Err(GridError::Length(3)));
        let mut bad = ".".repeat(81);
        bad.replace_range(5..6, "x");
        assert_eq!(
            bad.parse::<Grid>(),
            Err(GridError::Character { ch: 'x', column: 6 })
        );
        assert!(Grid::from_cells([10; 81]).is_err());
    }

    #[test]
    fn candidates_round_trip() {
        let g: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let c = Candidates::from_grid(&g);
        let line = c.to_line();
        assert_eq!(line.len(), 729);
        assert_eq!(&line[..9], "...4.....");
        assert_eq!(&line[9..18], "123456789");
        assert_eq!(Candidates::from_bytes(line.as_bytes()).unwrap(), c);
        assert_eq!(c.singles(), g);
        let mut wrong = line.into_bytes();
        wrong[9] = b'2';
        let e = Candidates::from_bytes(&wrong).unwrap_err();
        assert_eq!(
            e,
            GridError::Pencilmark {
                ch: '2',
                column: 10,
                digit: 1
            }
        );
        assert_eq!(
            e.to_string(),
            "illegal character '2' at column 10 (expected '1', '.' or '0' in that slot)"
        );
        // `0` marks an eliminated candidate like `.`.
        let zeros = c.to_line().replace('.', "0");
        assert_eq!(Candidates::from_bytes(zeros.as_bytes()).unwrap(), c);
    }
}
