//! What a record is, and what can be wrong with one.

use crate::grid::GridError;
use crate::order::format::{nearest_text, LineFault};
use crate::order::Order;
use crate::puzzle::{Puzzle, Solution};
use std::fmt;
use std::sync::Arc;

/// What a puzzle field of `n` characters should have had: where `n` is the cell count of no
/// order, the nearest orders' (a 9×9 file with a character too many or too few is told 81,
/// a 16×16 one 256), and the pencilmark line's 729.
fn length_text(n: usize) -> String {
    if Order::from_cells(n).is_some() {
        return format!("puzzle has {n} characters, expected 81 (or 729 for pencilmarks)");
    }
    format!(
        "puzzle has {n} characters, no order has that many cells (n⁴): {}; a 9x9 pencilmark \
         line has 729",
        nearest_text(&n)
    )
}

/// One puzzle read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// File name as given (`-` for standard input).
    pub source: Arc<str>,
    /// 1-based line number.
    pub line: u64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The solution the file claims, if it has one (Kaggle CSV).
    pub expected: Option<Solution>,
    /// Whatever followed the puzzle on its line (ratings, names, extra CSV columns).
    pub meta: String,
}

/// What is wrong with one line (or with the stream at that line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The puzzle field is not a grid or pencilmark line.
    #[error("puzzle {0}")]
    Puzzle(GridError),
    /// The puzzle field has a length that is neither 81 nor 729 (nor, on a line of its own,
    /// the n⁴ of another order).
    #[error("{}", length_text(*.0))]
    Length(usize),
    /// The expected-solution column is not a full grid.
    #[error("solution column {0}")]
    Solution(GridError),
    /// The expected-solution column has empty cells.
    #[error("solution column has empty cells")]
    SolutionIncomplete,
    /// A CSV row with the wrong number of fields.
    #[error("CSV row has {found} fields, the header has {expected}")]
    Fields {
        /// Fields in the header.
        expected: usize,
        /// Fields in this row.
        found: usize,
    },
    /// A line that is no text: not UTF-8, too long, or with a carriage return inside.
    #[error("{0}")]
    Line(LineFault),
    /// The stream itself failed (corrupt or truncated gzip, I/O error); reading of this
    /// source stops here.
    #[error("read failed: {0}")]
    Io(String),
    /// A record of another order than 9×9 is malformed (see [`crate::order::format`]).
    #[error("{0}")]
    Order(crate::order::format::FormatError),
    /// A gzip member failed (checksum mismatch, corrupt or truncated data) after some of its
    /// puzzles had already been read and passed on: gzip checks a member only at its end, so
    /// those records came from data now known to be bad. Reading of this source stops here.
    #[error(
        "read failed: {message} (the {records} puzzles on lines {first_line}-{last_line} came \
         from this gzip member, which failed: do not trust their answers)"
    )]
    CorruptMember {
        /// What the decompressor reported.
        message: String,
        /// Puzzles read from the failed member before the failure.
        records: u64,
        /// Line of the first of them.
        first_line: u64,
        /// Line of the last of them.
        last_line: u64,
    },
}

impl ParseErrorKind {
    /// How many records already read came from the data this error shows to be corrupt (a
    /// [`CorruptMember`](ParseErrorKind::CorruptMember)'s puzzles); 0 for every other error.
    pub fn suspect_records(&self) -> u64 {
        match self {
            ParseErrorKind::CorruptMember { records, .. } => *records,
            _ => 0,
        }
    }
}

/// A malformed record, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// File name as given.
    pub source: Arc<str>,
    /// 1-based line number.
    pub line: u64,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.source, self.line, self.kind)
    }
}

impl std::error::Error for ParseError {}

/// What the reader yields: a record, or an error naming file and line.
pub type Item = Result<Record, ParseError>;
