//! Text forms of grids of any order, one record at a time:
//!
//! - a **character line** of n⁴ characters: `.` or `0` for an empty cell, then `1`–`9` and
//!   `A`–`Z` (lower case accepted) for 1…35 — `1-4` on 4×4, `1-9A-G` on 16×16, `1-9A-P` on
//!   25×25; orders 2 to 5 (49×49 and 64×64 have more symbols than that);
//! - a **numbers line**: n⁴ whitespace-separated numbers, `0` for empty, for any order;
//! - a **block**: n² lines of n² numbers each (a grid drawn as rows), ended by a blank line or
//!   the end of the input — the usual layout of published 25×25 and larger instances. A line of
//!   16 numbers is ambiguous (a one-line 4×4 or a 16×16 row); it starts a block when it and the
//!   next 15 lines have 16 numbers each, the block ends there, and some number is above 4 (a
//!   16×16 puzzle whose clues are all 1…4 cannot have a unique solution); else each such line
//!   is a 4×4 grid.
//!
//! The 729-character 9×9 pencilmark line keeps its meaning; it is the reader's business
//! ([`super::reader`]) to hand it to the 9×9 parser. Errors name the column (1-based,
//! in characters) and say what would have been right.

use super::{Order, OrderGrid};
use std::fmt::Write as _;

/// The length of a 9×9 pencilmark line.
pub const PENCILMARKS: usize = 729;

/// What is wrong with one record's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A character line whose length is no n⁴.
    #[error("puzzle has {found} characters, no order has that many cells (n⁴): {}", nearest_text(.found))]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character line of an order with more than 35 symbols.
    #[error("{order} has too many symbols for one character a cell: write it as numbers")]
    TooManySymbols {
        /// The order.
        order: Order,
    },
    /// A character outside the order's alphabet.
    #[error("column {column}: {ch:?} is not a symbol of {order} (use {}, and . or 0 for empty)", alphabet(*.order))]
    Symbol {
        /// The character.
        ch: char,
        /// 1-based column.
        column: usize,
        /// The order the length says.
        order: Order,
    },
    /// A token of a numbers line or block that is not a number.
    #[error("column {column}: {token:?} is not a number")]
    NotNumber {
        /// The token.
        token: String,
        /// 1-based column of its first character.
        column: usize,
    },
    /// A number too long to read as one: above every order's n².
    #[error("column {column}: {token} is above 64, the largest number of any order")]
    Huge {
        /// The token.
        token: String,
        /// 1-based column of its first character.
        column: usize,
    },
    /// A number above n².
    #[error("column {column}: {value} is above {side}, the largest number of {order}")]
    Number {
        /// The number.
        value: u64,
        /// 1-based column.
        column: usize,
        /// The order.
        order: Order,
        /// n².
        side: usize,
    },
    /// A numbers line whose count is neither n⁴ (a one-line grid) nor n² (a block row).
    #[error("line has {found} numbers: a one-line grid has n⁴ ({}), a block row n² ({}); {}", list(Order::cells), list(Order::side), nearest_text(.found))]
    Count {
        /// Numbers found.
        found: usize,
    },
    /// A block row with another count than the block's first row.
    #[error("ragged block: this row has {found} numbers, the block's first row {expected}")]
    Ragged {
        /// The first row's count (n²).
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// A block that ends before its n² rows.
    #[error("ragged block: it ends after {rows} row{}, a {order} block has {}", if *.rows == 1 { "" } else { "s" }, .order.side())]
    ShortBlock {
        /// Rows read.
        rows: usize,
        /// The order its first row says.
        order: Order,
    },
    /// A block with more than n² rows before its blank line.
    #[error("ragged block: more than {} rows, a {order} block ends with a blank line after row {}", .order.side(), .order.side())]
    LongBlock {
        /// The order its first row says.
        order: Order,
    },
    /// The solution column of a CSV row is not a full grid of the puzzle's order.
    #[error("solution column: {0}")]
    Solution(String),
    /// A line that is no text.
    #[error("{0}")]
    Line(LineFault),
}

/// A line that is no text, as both readers (the one of every order and the 9×9 one) report
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    /// Bytes that are not UTF-8 (0-based byte where they start).
    #[error("invalid UTF-8 at byte {0} of the line")]
    Utf8(usize),
    /// A line longer than any record could be (the limit, in bytes).
    #[error("line is longer than {0} bytes")]
    TooLong(usize),
    /// A carriage return inside a line (1-based byte): lines end with a newline (`\n` or
    /// `\r\n`); a file with carriage returns alone as line ends (old Mac style) would
    /// otherwise be read as one line.
    #[error(
        "carriage return at byte {0} of the line: lines must end with a newline (convert \
         CR-only line endings, e.g. with `tr '\\r' '\\n'`)"
    )]
    CarriageReturn(usize),
}

/// A line as read (without its newline) with what is not part of its data removed: the
/// byte-order mark some editors put at the start of a file (`first`: the file's first line)
/// and one carriage return at its end (`\r\n` line ends). Both readers read lines so.
pub(crate) fn strip_line(bytes: &[u8], first: bool) -> &[u8] {
    let bytes = match first {
        true => bytes.strip_prefix(crate::util::BOM).unwrap_or(bytes),
        false => bytes,
    };
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// The text of a [stripped](strip_line) line, or why it is none: a carriage return inside it
/// or bytes that are not UTF-8.
pub(crate) fn line_text(bytes: &[u8]) -> Result<&str, LineFault> {
    if let Some(at) = memchr::memchr(b'\r', bytes) {
        return Err(LineFault::CarriageReturn(at + 1));
    }
    std::str::from_utf8(bytes).map_err(|e| LineFault::Utf8(e.valid_up_to()))
}

fn list(f: fn(Order) -> usize) -> String {
    Order::ALL
        .iter()
        .map(|&o| f(o).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn nearest_text(found: &usize) -> String {
    let names: Vec<String> = Order::nearest(*found)
        .into_iter()
        .map(|o| format!("{} ({o})", o.cells()))
        .collect();
    format!("nearest are {}", names.join(" and "))
}

/// The alphabet of an order as a range text: `1-4`, `1-9`, `1-9A-G`.
pub fn alphabet(order: Order) -> String {
    let s = order.side();
    if s <= 9 {
        format!("1-{s}")
    } else if s <= 35 {
        format!("1-9A-{}", symbol(s as u8))
    } else {
        format!("numbers 1-{s}")
    }
}

/// The character of value `v` (1…35): `1`–`9`, then `A`–`Z`; `.` for 0.
pub fn symbol(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

/// The value of a symbol character, if it is one (any order): `.`/`0` → 0.
fn value_of(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='Z' => Some(ch as u8 - b'A' + 10),
        'a'..='z' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

/// Parses a character line of n⁴ characters (orders 2 to 5). The 81-character 9×9 line is
/// one of them; the 729-character pencilmark line is not (see [`PENCILMARKS`]).
pub fn parse_chars(field: &str) -> Result<OrderGrid, FormatError> {
    let found = field.chars().count();
    let Some(order) = Order::from_cells(found) else {
        return Err(FormatError::Length { found });
    };
    if order.side() > 35 {
        return Err(FormatError::TooManySymbols { order });
    }
    let mut cells = Vec::with_capacity(found);
    for (i, ch) in field.chars().enumerate() {
        match value_of(ch) {
            Some(v) if v as usize <= order.side() => cells.push(v),
            _ => {
                return Err(FormatError::Symbol {
                    ch,
                    column: i + 1,
                    order,
                })
            }
        }
    }
    OrderGrid::from_values(order, cells).map_err(|e| FormatError::Solution(e.to_string()))
}

/// The numbers of a line with the 1-based column of each, or the first token that is not one.
/// Numbers above 255 are kept as 255 (above every n², so they are reported as too large).
pub fn numbers(line: &str) -> Result<Vec<(u8, usize, u64)>, FormatError> {
    let mut out = Vec::new();
    let mut column = 0;
    let mut chars = line.char_indices().peekable();
    while let Some(&(_, ch)) = chars.peek() {
        if ch.is_whitespace() {
            chars.next();
            column += 1;
            continue;
        }
        let start = column + 1;
        let mut token = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            token.push(c);
            chars.next();
            column += 1;
        }
        let digits = token.bytes().all(|b| b.is_ascii_digit());
        let value: u64 = match token.parse() {
            Ok(v) if digits => v,
            Err(_) if digits => {
                return Err(FormatError::Huge {
                    token,
                    column: start,
                })
            }
            _ => {
                return Err(FormatError::NotNumber {
                    token,
                    column: start,
                })
            }
        };
        out.push((value.min(255) as u8, start, value));
    }
    Ok(out)
}

/// Whether a line is a numbers line (a one-line grid or a block row) rather than a character
/// line: its first two tokens are written like numbers, and the first is not of a character
/// grid's length.
pub fn is_numbers_line(line: &str) -> bool {
    let mut tokens = line.split_whitespace();
    match (tokens.next(), tokens.next()) {
        (Some(t), Some(u)) => !grid_length(t.len()) && number_like(t) && number_like(u),
        _ => false,
    }
}

/// Whether a token of `len` characters may be a one-line character grid (n⁴ characters, or
/// a 9×9 pencilmark line): such a token and its metadata are a character line.
fn grid_length(len: usize) -> bool {
    Order::from_cells(len).is_some() || len == PENCILMARKS
}

/// Whether a token is written like a number, a valid one or not (`7`, `-1`, `1.5`, `100`): a
/// line of such tokens is a numbers line, whose errors name the bad number, rather than a
/// character line of the wrong length.
fn number_like(token: &str) -> bool {
    let body = token.strip_prefix(['-', '+']).unwrap_or(token);
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !whole.is_empty() && digits(whole) && digits(fraction)
}

/// The one-line grid `nums` are, when their count is n⁴ for some order: `None` for another
/// count (a block row, or no grid at all), else the grid or the first number above n².
pub fn numbers_grid(nums: &[(u8, usize, u64)]) -> Option<Result<OrderGrid, FormatError>> {
    let order = Order::from_cells(nums.len())?;
    Some(values(order, nums).and_then(|values| {
        OrderGrid::from_values(order, values).map_err(|e| FormatError::Solution(e.to_string()))
    }))
}

/// One grid of any order from one line of text: whitespace-separated numbers (`0` empty,
/// n⁴ of them) or n⁴ characters (`.`/`0` empty, symbols `1`–`9` then `A`–`Z`). For callers
/// that hand over single grids (the Python module); files go through the readers.
pub fn parse_line(text: &str) -> Result<OrderGrid, FormatError> {
    let text = text.trim();
    if is_numbers_line(text) {
        let nums = numbers(text)?;
        let found = nums.len();
        return numbers_grid(&nums).unwrap_or(Err(FormatError::Count { found }));
    }
    parse_chars(text)
}

/// The values of numbers of an order, or the first number above n².
pub fn values(order: Order, nums: &[(u8, usize, u64)]) -> Result<Vec<u8>, FormatError> {
    nums.iter()
        .map(|&(v, column, value)| {
            if v as usize <= order.side() {
                Ok(v)
            } else {
                Err(FormatError::Number {
                    value,
                    column,
                    order,
                    side: order.side(),
                })
            }
        })
        .collect()
}

/// Whether grids of side `side` are written with one symbol per cell (up to order 5: 35
/// symbols at most) rather than numbers.
pub fn written_in_symbols(side: usize) -> bool {
    side <= 35
}

impl OrderGrid {
    /// The grid on one line: n⁴ characters (`.` empty, `1-9A-Z`) up to order 5 (35 symbols
    /// at most), whitespace-separated numbers (`0` empty) from order 6 on.
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

/// A grid on one line: characters up to order 5, numbers (space-separated, `0` empty) above.
pub fn to_line(grid: &OrderGrid) -> String {
    if written_in_symbols(grid.order().side()) {
        grid.cells().iter().map(|&v| symbol(v)).collect()
    } else {
        to_numbers(grid)
    }
}

/// A grid as n⁴ space-separated numbers, `0` for empty.
pub fn to_numbers(grid: &OrderGrid) -> String {
    let mut out = String::with_capacity(grid.cells().len() * 3);
    for (i, v) in grid.cells().iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{v}");
    }
    out
}

/// A grid as a block: n² lines of n² numbers, aligned, `0` for empty, each line ended by `\n`.
pub fn to_block(grid: &OrderGrid) -> String {
    let s = grid.order().side();
    let width = if s > 9 { 2 } else { 1 };
    let mut out = String::new();
    for row in grid.cells().chunks(s) {
        let line: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_round_trip_every_char_order() {
        for order in &Order::ALL[..4] {
            let mut g = OrderGrid::empty(*order);
            for i in 0..order.cells() {
                g.set(i, (i % (order.side() + 1)) as u8);
            }
            assert_eq!(parse_chars(&g.to_line()).unwrap(), g);
        }
    }

    #[test]
    fn a_line_of_any_order_parses_as_numbers_or_characters() {
        for order in Order::ALL {
            let mut g = OrderGrid::empty(order);
            for i in 0..order.cells() {
                g.set(i, (i % (order.side() + 1)) as u8);
            }
            assert_eq!(parse_line(&to_numbers(&g)).unwrap(), g, "{order}");
            assert_eq!(parse_line(&to_line(&g)).unwrap(), g, "{order}");
        }
        let e = parse_line(&"0 ".repeat(17)).unwrap_err();
        assert!(e.to_string().starts_with("line has 17 numbers"), "{e}");
        let e = parse_line(&format!("17 {}", "0 ".repeat(15))).unwrap_err();
        assert!(e.to_string().contains("17 is above 4"), "{e}");
    }

    #[test]
    fn symbol_outside_alphabet() {
        let mut line = ".".repeat(256);
        line.replace_range(11..12, "H");
        let e = parse_chars(&line).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 12: 'H' is not a symbol of 16x16 (use 1-9A-G, and . or 0 for empty)"
        );
    }

    #[test]
    fn wrong_length_names_nearest_orders() {
        let e = parse_chars(&".".repeat(100)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "puzzle has 100 characters, no order has that many cells (n⁴): nearest are 81 (9x9) and 256 (16x16)"
        );
    }

    #[test]
    fn numbers_columns_and_limits() {
        let n = numbers("1  0 17").unwrap();
        assert_eq!(n, vec![(1, 1, 1), (0, 4, 0), (17, 6, 17)]);
        let order = Order::new(4).unwrap();
        let e = values(order, &n).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 6: 17 is above 16, the largest number of 16x16"
        );
        assert!(matches!(
            numbers("1 x"),
            Err(FormatError::NotNumber { column: 3, .. })
        ));
        assert!(is_numbers_line("0 1 2") && !is_numbers_line("123.. meta"));
        // Tokens written like numbers, valid or not, make a numbers line; a first token
        // of a grid's length (here 4×4) with its metadata stays a character line.
        assert!(is_numbers_line("-1 0") && is_numbers_line("1.5 0") && is_numbers_line("100 0"));
        assert!(!is_numbers_line("1234341221434321 12") && !is_numbers_line("12 rating 9"));
    }
}
