//! CNF encodings of Sudoku over the candidate variables x(r,c,d) ("cell r,c holds digit d").
//!
//! Every encoding is described over one *full* variable space: the 729 candidate variables
//! (index `81·r + 9·c + d − 1`, 0-based r, c and 1-based d, so the DIMACS number of x(r,c,d) is
//! `81·r + 9·c + d`), followed by 486 triad variables used only by `augmented`: 243 row-segment
//! triads (row r, box column s, digit d: "d is in one of the three cells of row r inside box
//! column s") and 243 column-segment triads. A [`Formula`] numbers the solver's variables
//! compactly: `minimal` and `extended` keep the full numbering of the 729 candidates; the
//! simplified encodings (`reduced`, `augmented`) create a variable only for a candidate (or
//! triad) that the givens leave open, in full-index order.
//!
//! Clause counts (without givens; a clue adds one unit clause to the unsimplified encodings):
//!
//! | encoding | variables | clauses | what |
//! |---|---:|---:|---|
//! | `minimal` | 729 | 8,829 | each cell ≥ 1 digit (81 × 9 literals); each digit ≤ 1 per row, column and box (3 × 81 × 36 binary) |
//! | `extended` | 729 | 11,988 | `minimal` + each cell ≤ 1 digit (81 × 36 binary) + each digit ≥ 1 per row, column and box (243 × 9 literals); Lynce & Ouaknine |
//! | `reduced` | open candidates | puzzle-dependent | `extended` simplified by the givens (Kwon & Jain) |
//! | `augmented` | open candidates + open triads | puzzle-dependent (7,695 with no givens, over 1,215 variables) | tdoku's triad encoding, simplified by the givens like `reduced` |
//!
//! **Simplification by the givens** (`reduced`, `augmented`): a cell whose given candidate set
//! is a single digit (a clue) fixes that candidate true; every other candidate of that cell and
//! the same digit in its 20 peers are fixed false. Nothing else is deduced: the solver does all
//! the propagation and search. Then clauses with a true literal are dropped, false literals are
//! removed, and fixed variables are not created. Every clause that survives this comes from
//! one of the original groups ("exactly one of these literals"), so it is emitted directly as
//! the open members of that group: an at-least-one clause over them and the at-most-one pairs
//! among them. A pair that two groups share (two cells in the same row *and* box) is emitted
//! once, from the row or column, not again from the box. Two clues that contradict each other
//! would leave the empty clause, and so would a cell or a unit that has no candidate left for
//! a digit it needs; the formula holds two contradicting unit clauses `x` and `¬x` instead,
//! over the candidate behind it (DRAT checkers stumble on an empty clause among others), and
//! is unsatisfiable as given to the solver. A grid whose every cell is fixed keeps its first
//! cell's candidate as a variable with a unit clause, so that a blocking clause has a literal.
//!
//! **Triads** (`augmented`, after tdoku's SAT encodings): for each row segment and digit a
//! variable t ↔ (a ∨ b ∨ c) over the segment's three candidates, with at most one of a, b, c;
//! likewise for column segments. Exactly one row-segment triad per row and per box (for each
//! digit), exactly one column-segment triad per column and per box, and exactly one digit per
//! cell. This implies every Sudoku constraint (a row holds d exactly once because exactly one of
//! its segments does and that segment holds it in exactly one cell) and needs no row, column or
//! box pairs over the 729 candidates. Its gain is propagation: when a digit is confined to one
//! segment of a box (or of a line), unit propagation on the triads removes it from the rest of
//! the line (or box) — locked candidates, found without search.
//!
//! Pencilmark input works the same way: an eliminated candidate is a false literal (a negative
//! unit clause in `minimal`/`extended`, a variable never created in the simplified encodings).

use super::clauses::Clauses;
use crate::grid::{Candidates, Grid, ALL_DIGITS, CELLS, COL_OF, PEERS, ROW_OF, UNITS};
use std::fmt;
use std::str::FromStr;
use varisat::Lit;

/// Candidate variables x(r,c,d).
pub const CELL_VARS: usize = 729;
/// Row-segment plus column-segment triad variables.
pub const TRIAD_VARS: usize = 486;
/// The full variable space.
pub const FULL_VARS: usize = CELL_VARS + TRIAD_VARS;
/// First row-segment triad in the full space.
const ROW_TRIADS: usize = CELL_VARS;
/// First column-segment triad in the full space.
const COL_TRIADS: usize = CELL_VARS + 243;
/// Marks a full variable that has no solver variable.
const NONE: u32 = u32::MAX;

/// A named CNF encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Cell definedness and unit uniqueness only (8,829 clauses).
    Minimal,
    /// Lynce & Ouaknine's extended encoding (11,988 clauses).
    Extended,
    /// The extended encoding simplified by the givens (Kwon & Jain).
    Reduced,
    /// tdoku's triad encoding, simplified by the givens.
    Augmented,
}

impl Encoding {
    /// Every encoding, in the order reports list them.
    pub const ALL: [Encoding; 4] = [
        Encoding::Minimal,
        Encoding::Extended,
        Encoding::Reduced,
        Encoding::Augmented,
    ];

    /// The default: the fastest correct encoding as measured (the module docs of
    /// [`crate::solver::sat`] have the figures).
    pub const DEFAULT: Encoding = Encoding::Reduced;

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Extended => "extended",
            Encoding::Reduced => "reduced",
            Encoding::Augmented => "augmented",
        }
    }

    /// Whether the encoding is simplified by the givens (compact variable numbering).
    pub fn simplified(self) -> bool {
        matches!(self, Encoding::Reduced | Encoding::Augmented)
    }

    /// Comma-separated names of every encoding.
    pub fn names() -> String {
        Encoding::ALL.map(Encoding::name).join(", ")
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An encoding name that is not one of [`Encoding::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown SAT encoding {name:?} (known: {known})", known = Encoding::names())]
pub struct UnknownEncoding {
    /// The name asked for.
    pub name: String,
}

impl FromStr for Encoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> Result<Encoding, UnknownEncoding> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownEncoding {
                name: s.to_string(),
            })
    }
}

/// What the puzzle gives: clues in a grid, or candidate sets.
#[derive(Clone, Copy, Debug)]
pub enum Givens<'a> {
    /// Clues; empty cells allow every digit.
    Grid(&'a Grid),
    /// Pencilmarks; a cell with one candidate counts as a clue.
    Candidates(&'a Candidates),
}

impl Givens<'_> {
    /// The candidate mask of every cell.
    fn masks(&self) -> [u16; CELLS] {
        match self {
            Givens::Grid(g) => *Candidates::from_grid(g).masks(),
            Givens::Candidates(c) => *c.masks(),
        }
    }
}

/// What a variable of the full space stands for (0-based row, column, segment; digit 1..=9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// Cell (row, col) holds digit.
    Cell {
        /// 0-based row.
        row: u8,
        /// 0-based column.
        col: u8,
        /// Digit 1..=9.
        digit: u8,
    },
    /// Digit is in row `row`, in the three cells of box column `segment`.
    RowTriad {
        /// 0-based row.
        row: u8,
        /// 0-based box column (cells 3·segment .. 3·segment+3 of the row).
        segment: u8,
        /// Digit 1..=9.
        digit: u8,
    },
    /// Digit is in column `col`, in the three cells of box row `segment`.
    ColTriad {
        /// 0-based column.
        col: u8,
        /// 0-based box row (cells 3·segment .. 3·segment+3 of the column).
        segment: u8,
        /// Digit 1..=9.
        digit: u8,
    },
}

impl Meaning {
    /// The meaning of a full-space variable index (`None` past the end of the space).
    pub fn of(full: usize) -> Option<Meaning> {
        let digit = (full % 9) as u8 + 1;
        if full < CELL_VARS {
            let cell = full / 9;
            Some(Meaning::Cell {
                row: ROW_OF[cell],
                col: COL_OF[cell],
                digit,
            })
        } else if full < COL_TRIADS {
            let seg = (full - ROW_TRIADS) / 9;
            Some(Meaning::RowTriad {
                row: (seg / 3) as u8,
                segment: (seg % 3) as u8,
                digit,
            })
        } else if full < FULL_VARS {
            let seg = (full - COL_TRIADS) / 9;
            Some(Meaning::ColTriad {
                col: (seg / 3) as u8,
                segment: (seg % 3) as u8,
                digit,
            })
        } else {
            None
        }
    }
}

impl fmt::Display for Meaning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Meaning::Cell { row, col, digit } => write!(f, "r{}c{}={digit}", row + 1, col + 1),
            Meaning::RowTriad {
                row,
                segment,
                digit,
            } => write!(
                f,
                "r{}c{}-{}~{digit}",
                row + 1,
                3 * segment + 1,
                3 * segment + 3
            ),
            Meaning::ColTriad {
                col,
                segment,
                digit,
            } => write!(
                f,
                "r{}-{}c{}~{digit}",
                3 * segment + 1,
                3 * segment + 3,
                col + 1
            ),
        }
    }
}

/// Value of a full variable after simplification by the givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Open,
    True,
    False,
}

/// Full index of candidate x(cell, digit) for a 0-based digit index.
#[inline]
fn cand(cell: usize, d: usize) -> usize {
    cell * 9 + d
}

/// Full index of the row-segment triad (row, segment, 0-based digit).
#[inline]
fn row_triad(row: usize, seg: usize, d: usize) -> usize {
    ROW_TRIADS + (row * 3 + seg) * 9 + d
}

/// Full index of the column-segment triad (col, segment, 0-based digit).
#[inline]
fn col_triad(col: usize, seg: usize, d: usize) -> usize {
    COL_TRIADS + (col * 3 + seg) * 9 + d
}

/// A CNF formula for one puzzle, with the map between solver variables and the full space.
///
/// Built by [`Formula::build`]; its buffers are reused from puzzle to puzzle.
#[derive(Clone)]
pub struct Formula {
    encoding: Encoding,
    /// The clauses.
    list: Clauses,
    /// Full index of each solver variable.
    full_of: Vec<u16>,
    /// Solver variable of each full index ([`NONE`] if it has none).
    var_of: Box<[u32; FULL_VARS]>,
    /// Values after simplification (all open for unsimplified encodings).
    value: Box<[Value; FULL_VARS]>,
    /// Given candidate masks.
    given: [u16; CELLS],
    /// Scratch list of full indices.
    group: Vec<usize>,
    /// Scratch clause.
    clause: Vec<Lit>,
    /// The full variable behind the first clause that simplification emptied (see
    /// [`Formula::build`]).
    culprit: Option<usize>,
}

impl Default for Formula {
    fn default() -> Self {
        Formula::new()
    }
}

impl fmt::Debug for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Formula")
            .field("encoding", &self.encoding)
            .field("vars", &self.num_vars())
            .field("clauses", &self.num_clauses())
            .finish()
    }
}

impl Formula {
    /// An empty formula (no variables, no clauses) with its buffers allocated.
    pub fn new() -> Formula {
        Formula {
            encoding: Encoding::DEFAULT,
            list: Clauses::with_capacity(32 * 1024, 16 * 1024),
            full_of: Vec::with_capacity(FULL_VARS),
            var_of: Box::new([NONE; FULL_VARS]),
            value: Box::new([Value::Open; FULL_VARS]),
            given: [ALL_DIGITS; CELLS],
            group: Vec::with_capacity(16),
            clause: Vec::with_capacity(16),
            culprit: None,
        }
    }

    /// Builds the formula of `givens` in `encoding`, replacing what was there.
    ///
    /// The formula never holds an empty clause (DRAT checkers such as `rate` fail on one among
    /// other clauses) and never lacks a variable when it has clauses. Where simplification by
    /// the givens would leave an empty clause (two clues clash, or a cell or a unit has no
    /// candidate left for what it needs), the full variable behind it (the clashing clue's
    /// candidate, or the first candidate of the emptied group) gets a solver variable of its
    /// own and the two contradicting unit clauses `x` and `¬x` stand for the empty clause. A
    /// clue clash ends the formula there (it is unsatisfiable whatever else holds). When every
    /// cell is fixed by the givens, the first cell's candidate gets a variable and a unit
    /// clause, so that the clause blocking the solution is not empty.
    pub fn build(&mut self, encoding: Encoding, givens: Givens<'_>) {
        self.encoding = encoding;
        self.list.clear();
        self.full_of.clear();
        self.culprit = None;
        self.given = givens.masks();
        let clash = if encoding.simplified() {
            self.fix_values()
        } else {
            self.value.fill(Value::Open);
            None
        };
        let space = match encoding {
            Encoding::Augmented => FULL_VARS,
            _ => CELL_VARS,
        };
        for full in 0..FULL_VARS {
            self.var_of[full] = if full < space && self.value[full] == Value::Open {
                self.full_of.push(full as u16);
                (self.full_of.len() - 1) as u32
            } else {
                NONE
            };
        }
        if let Some(culprit) = clash {
            // Two clues with the same digit in one unit: their at-most-one clause is empty.
            self.culprit = Some(culprit);
        } else {
            match encoding {
                Encoding::Minimal => {
                    self.cell_groups(true, false);
                    self.unit_groups(false, true);
                    self.given_units();
                }
                Encoding::Extended => {
                    self.cell_groups(true, true);
                    self.unit_groups(true, true);
                    self.given_units();
                }
                Encoding::Reduced => {
                    self.cell_groups(true, true);
                    self.unit_groups(true, true);
                }
                Encoding::Augmented => {
                    self.cell_groups(true, true);
                    self.triads();
                }
            }
        }
        if let Some(culprit) = self.culprit {
            let v = self.pin(culprit);
            self.list.lits.push(Lit::from_index(v, true));
            self.end_clause();
            self.list.lits.push(Lit::from_index(v, false));
            self.end_clause();
        } else if encoding.simplified() && self.given.iter().all(|m| m.count_ones() == 1) {
            // Every cell fixed: pin the first cell's (true) candidate.
            let full = cand(0, self.given[0].trailing_zeros() as usize);
            let v = self.pin(full);
            self.list.lits.push(Lit::from_index(v, true));
            self.end_clause();
        }
    }

    /// Gives a full variable that simplification fixed a solver variable of its own (the
    /// next one) and returns it.
    fn pin(&mut self, full: usize) -> usize {
        if self.var_of[full] != NONE {
            return self.var_of[full] as usize;
        }
        self.full_of.push(full as u16);
        let v = self.full_of.len() - 1;
        self.var_of[full] = v as u32;
        v
    }

    /// Notes that simplification emptied a clause over `full` (the first such is kept).
    fn emptied(&mut self, full: usize) {
        self.culprit.get_or_insert(full);
    }

    /// The encoding this formula was built with.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Number of solver variables.
    pub fn num_vars(&self) -> usize {
        self.full_of.len()
    }

    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.list.len()
    }

    /// Every clause, in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        self.list.iter()
    }

    /// What solver variable `var` (0-based) stands for.
    pub fn meaning(&self, var: usize) -> Option<Meaning> {
        self.full_of.get(var).and_then(|&f| Meaning::of(f as usize))
    }

    /// Whether solver variables are the full numbering of the 729 candidates.
    pub fn identity_numbering(&self) -> bool {
        !self.encoding.simplified()
    }

    /// Reads a model (the truth value of every solver variable, indexed by variable) back into
    /// a grid, and writes the clause that blocks it into `blocking`: the negation of the
    /// candidates the model sets true in every cell the givens do not fix (a cell whose given
    /// candidate set is not a single digit). If every cell is fixed, the clause is over the
    /// fixed cells' variables instead where they exist (all 81 in `minimal` and `extended`,
    /// the first cell's in the simplified encodings, see [`Formula::build`]), so that the
    /// blocking clause is never empty (DRAT checkers such as `rate` stumble on an empty clause
    /// next to others). `None` if the model does not put exactly one digit in every cell.
    pub fn decode(&self, truth: &[bool], blocking: &mut Vec<Lit>) -> Option<Grid> {
        blocking.clear();
        let mut cells = [0u8; CELLS];
        for (cell, out) in cells.iter_mut().enumerate() {
            let fixed = self.given[cell].count_ones() == 1;
            for d in 0..9 {
                let full = cand(cell, d);
                let v = self.var_of[full];
                let is_true = if v == NONE {
                    self.value[full] == Value::True
                } else {
                    truth.get(v as usize).copied().unwrap_or(false)
                };
                if is_true {
                    if *out != 0 {
                        return None;
                    }
                    *out = d as u8 + 1;
                    if !fixed && v != NONE {
                        blocking.push(Lit::from_index(v as usize, false));
                    }
                }
            }
            if *out == 0 {
                return None;
            }
        }
        if blocking.is_empty() {
            for (cell, &digit) in cells.iter().enumerate() {
                let v = self.var_of[cand(cell, usize::from(digit) - 1)];
                if v != NONE {
                    blocking.push(Lit::from_index(v as usize, false));
                }
            }
        }
        Grid::from_cells(cells).ok()
    }

    /// Fixes the values implied directly by the givens; if two clues contradict, returns the
    /// candidate of the first clue that a peer clue contradicts.
    fn fix_values(&mut self) -> Option<usize> {
        let mut elim = [0u16; CELLS];
        for (&m, peers) in self.given.iter().zip(&PEERS) {
            if m.count_ones() == 1 {
                for &p in peers {
                    elim[p as usize] |= m;
                }
            }
        }
        let mut conflict = None;
        for (cell, (&m, &e)) in self.given.iter().zip(&elim).enumerate() {
            let fixed = m.count_ones() == 1;
            if fixed && e & m != 0 && conflict.is_none() {
                conflict = Some(cand(cell, m.trailing_zeros() as usize));
            }
            let open = m & !e;
            for d in 0..9 {
                let bit = 1u16 << d;
                self.value[cand(cell, d)] = if fixed && m & bit != 0 {
                    Value::True
                } else if !fixed && open & bit != 0 {
                    Value::Open
                } else {
                    Value::False
                };
            }
        }
        if self.encoding == Encoding::Augmented {
            for line in 0..9 {
                for seg in 0..3 {
                    for d in 0..9 {
                        let (row_cells, col_cells) = triad_cells(line, seg);
                        self.value[row_triad(line, seg, d)] = self.triad_value(row_cells, d);
                        self.value[col_triad(line, seg, d)] = self.triad_value(col_cells, d);
                    }
                }
            }
        } else {
            self.value[CELL_VARS..].fill(Value::False);
        }
        conflict
    }

    /// A triad is true if one of its candidates is, false if all are, open otherwise.
    fn triad_value(&self, cells: [usize; 3], d: usize) -> Value {
        let vals = cells.map(|c| self.value[cand(c, d)]);
        if vals.contains(&Value::True) {
            Value::True
        } else if vals.iter().all(|&v| v == Value::False) {
            Value::False
        } else {
            Value::Open
        }
    }

    /// Literal of an open full variable.
    #[inline]
    fn lit(&self, full: usize, positive: bool) -> Lit {
        Lit::from_index(self.var_of[full] as usize, positive)
    }

    /// Ends the clause being written in `lits`.
    #[inline]
    fn end_clause(&mut self) {
        self.list.end();
    }

    /// Emits "at least one" and/or "at most one" of the full variables in `self.group`,
    /// simplified by their values. `skip_pair(a, b)` drops at-most-one pairs that another
    /// group already emitted.
    fn emit_group(&mut self, alo: bool, amo: bool, skip_pair: impl Fn(usize, usize) -> bool) {
        let first = self.group.first().copied();
        let mut trues = 0;
        let mut n = 0;
        for i in 0..self.group.len() {
            let f = self.group[i];
            match self.value[f] {
                Value::True => {
                    trues += 1;
                    if trues == 2 && amo {
                        self.emptied(f);
                    }
                }
                Value::False => {}
                Value::Open => {
                    self.group[n] = f;
                    n += 1;
                }
            }
        }
        self.group.truncate(n);
        if trues > 0 {
            if amo {
                // A true member forces every other member false.
                for i in 0..n {
                    let l = self.lit(self.group[i], false);
                    self.list.lits.push(l);
                    self.end_clause();
                }
            }
            return;
        }
        if alo {
            if n == 0 {
                if let Some(f) = first {
                    self.emptied(f);
                }
            } else {
                for i in 0..n {
                    let l = self.lit(self.group[i], true);
                    self.list.lits.push(l);
                }
                self.end_clause();
            }
        }
        if amo {
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (self.group[i], self.group[j]);
                    if skip_pair(a, b) {
                        continue;
                    }
                    let (la, lb) = (self.lit(a, false), self.lit(b, false));
                    self.list.lits.push(la);
                    self.list.lits.push(lb);
                    self.end_clause();
                }
            }
        }
    }

    /// Per cell: at least one digit and/or at most one digit.
    fn cell_groups(&mut self, alo: bool, amo: bool) {
        for cell in 0..CELLS {
            self.group.clear();
            self.group.extend((0..9).map(|d| cand(cell, d)));
            self.emit_group(alo, amo, |_, _| false);
        }
    }

    /// Per row, column and box and per digit: at least once and/or at most once. Simplified
    /// encodings emit a pair shared by a box and a line only once (from the line).
    fn unit_groups(&mut self, alo: bool, amo: bool) {
        let dedup = self.encoding.simplified();
        for (u, unit) in UNITS.iter().enumerate() {
            for d in 0..9 {
                self.group.clear();
                self.group.extend(unit.iter().map(|&c| cand(c as usize, d)));
                if dedup && u >= 18 {
                    self.emit_group(alo, amo, |a, b| {
                        let (ca, cb) = (a / 9, b / 9);
                        ROW_OF[ca] == ROW_OF[cb] || COL_OF[ca] == COL_OF[cb]
                    });
                } else {
                    self.emit_group(alo, amo, |_, _| false);
                }
            }
        }
    }

    /// Unit clauses for the givens of unsimplified encodings: a clue is a positive unit; for
    /// pencilmark input every eliminated candidate is a negative unit.
    fn given_units(&mut self) {
        for cell in 0..CELLS {
            let m = self.given[cell];
            for d in 0..9 {
                let bit = 1u16 << d;
                let lit = if m == bit {
                    Some(true)
                } else if m & bit == 0 {
                    Some(false)
                } else {
                    None
                };
                // A grid clue is one positive unit; its other eight candidates need no unit.
                let grid_style = m.count_ones() == 1;
                match lit {
                    Some(true) => {
                        let l = self.lit(cand(cell, d), true);
                        self.list.lits.push(l);
                        self.end_clause();
                    }
                    Some(false) if !grid_style => {
                        let l = self.lit(cand(cell, d), false);
                        self.list.lits.push(l);
                        self.end_clause();
                    }
                    _ => {}
                }
            }
        }
    }

    /// Emits a clause over full literals `(index, positive)`, simplified by the values.
    fn emit_clause(&mut self, lits: &[(usize, bool)]) {
        self.clause.clear();
        for &(f, pos) in lits {
            match (self.value[f], pos) {
                (Value::True, true) | (Value::False, false) => return,
                (Value::True, false) | (Value::False, true) => {}
                (Value::Open, _) => self
                    .clause
                    .push(Lit::from_index(self.var_of[f] as usize, pos)),
            }
        }
        if self.clause.is_empty() {
            if let Some(&(f, _)) = lits.first() {
                self.emptied(f);
            }
            return;
        }
        self.list.push(&self.clause);
    }

    /// The triad part of `augmented`: definitions and exactly-one constraints.
    fn triads(&mut self) {
        // Definitions: t ↔ (a ∨ b ∨ c), and at most one of a, b, c.
        for line in 0..9 {
            for seg in 0..3 {
                for d in 0..9 {
                    let (row_cells, col_cells) = triad_cells(line, seg);
                    self.triad_definition(row_triad(line, seg, d), row_cells, d);
                    self.triad_definition(col_triad(line, seg, d), col_cells, d);
                }
            }
        }
        // Exactly one segment per line and per box, for each digit.
        for d in 0..9 {
            for line in 0..9 {
                self.group.clear();
                self.group.extend((0..3).map(|s| row_triad(line, s, d)));
                self.emit_group(true, true, |_, _| false);
                self.group.clear();
                self.group.extend((0..3).map(|s| col_triad(line, s, d)));
                self.emit_group(true, true, |_, _| false);
            }
            for b in 0..9 {
                let (band, stack) = (b / 3, b % 3);
                self.group.clear();
                self.group
                    .extend((0..3).map(|i| row_triad(3 * band + i, stack, d)));
                self.emit_group(true, true, |_, _| false);
                self.group.clear();
                self.group
                    .extend((0..3).map(|i| col_triad(3 * stack + i, band, d)));
                self.emit_group(true, true, |_, _| false);
            }
        }
    }

    fn triad_definition(&mut self, t: usize, cells: [usize; 3], d: usize) {
        let [a, b, c] = cells.map(|cell| cand(cell, d));
        self.emit_clause(&[(t, false), (a, true), (b, true), (c, true)]);
        for x in [a, b, c] {
            self.emit_clause(&[(t, true), (x, false)]);
        }
        self.group.clear();
        self.group.extend([a, b, c]);
        self.emit_group(false, true, |_, _| false);
    }
}

/// The three cells of segment `seg` (0..3) of row `line`, and of column `line`: the cells a
/// row triad and a column triad stand for.
fn triad_cells(line: usize, seg: usize) -> ([usize; 3], [usize; 3]) {
    let row = [0, 1, 2].map(|k| line * 9 + 3 * seg + k);
    let col = [0, 1, 2].map(|k| (3 * seg + k) * 9 + line);
    (row, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(encoding: Encoding, grid: &Grid) -> Formula {
        let mut f = Formula::new();
        f.build(encoding, Givens::Grid(grid));
        f
    }

    #[test]
    fn documented_counts_of_the_empty_grid() {
        let empty = Grid::EMPTY;
        let f = build(Encoding::Minimal, &empty);
        assert_eq!((f.num_vars(), f.num_clauses()), (729, 8829));
        let f = build(Encoding::Extended, &empty);
        assert_eq!((f.num_vars(), f.num_clauses()), (729, 11988));
        let f = build(Encoding::Augmented, &empty);
        assert_eq!((f.num_vars(), f.num_clauses()), (1215, 7695));
        // Reduced with no givens is extended minus the 2 × 81 × 9 box pairs shared with a line.
        let f = build(Encoding::Reduced, &empty);
        assert_eq!((f.num_vars(), f.num_clauses()), (729, 11988 - 81 * 18));
    }

    #[test]
    fn clues_add_units_or_shrink_the_formula() {
        let g: Grid =
            "000000907000420180000705026100904000050000040000507009920108000034059000507000000"
                .parse()
                .unwrap();
        let clues = g.clue_count();
        let f = build(Encoding::Extended, &g);
        assert_eq!(f.num_clauses(), 11988 + clues);
        let r = build(Encoding::Reduced, &g);
        assert!(r.num_vars() < 729 - clues * 9);
        assert!(r.num_clauses() < 11988 / 2);
        for e in Encoding::ALL {
            let f = build(e, &g);
            for c in f.clauses() {
                assert!(c.iter().all(|l| l.index() < f.num_vars()), "{e}");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        assert!("nope".parse::<Encoding>().is_err());
    }

    #[test]
    fn meanings() {
        assert_eq!(
            Meaning::of(80).map(|m| m.to_string()).as_deref(),
            Some("r1c9=9")
        );
        assert_eq!(
            Meaning::of(CELL_VARS + 9 * 5 + 2)
                .map(|m| m.to_string())
                .as_deref(),
            Some("r2c7-9~3")
        );
        assert_eq!(Meaning::of(FULL_VARS), None);
    }
}
