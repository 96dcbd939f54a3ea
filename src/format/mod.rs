//! Puzzle files: what a record is, what can be wrong with one, and the streaming reader.
//!
//! Accepted, in one reader and detected per file:
//! - one puzzle per line, 81 characters (`1`–`9`, `.` or `0` for empty), optionally followed by
//!   whitespace and metadata (ratings, names), or 729-character pencilmark lines;
//! - `#` comment lines and blank lines anywhere (tdoku's data files);
//! - CSV with a header naming a puzzle column and optionally a solution column (Kaggle's
//!   `quizzes,solutions`); the solution becomes the record's expected answer;
//! - any of these gzipped (one or more members), recognised by the magic bytes;
//! - a UTF-8 byte-order mark at the start of the input, which is skipped.
//!
//! Lengths and columns in error messages count characters, not bytes.

mod bundled;
mod line;
mod reader;
mod record;

pub use bundled::bundled_sets;
pub use reader::{OpenError, Reader};
pub use record::{Item, ParseError, ParseErrorKind, Record};
