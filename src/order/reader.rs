//! The streaming reader for puzzle files of any order: character lines, numbers lines,
//! blocks, Kaggle-style CSV (a puzzle column and an optional solution column), `#` comments
//! and blank lines, plain or gzip (any number of members). Each record is detected on its
//! own, so one file may mix orders and forms. See [`super::format`] for the forms.

use super::format::{self, FormatError, LineFault, PENCILMARKS};
use super::{Order, OrderGrid};
use crate::grid::Candidates;
use crate::util::read_line_bounded;
use flate2::bufread::MultiGzDecoder;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

/// What a record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A clue grid of any order.
    Grid(OrderGrid),
    /// A 9×9 pencilmark position (729 characters).
    Pencilmarks(Candidates),
}

impl Entry {
    /// The order of the puzzle (3 for pencilmarks).
    pub fn order(&self) -> Order {
        match self {
            Entry::Grid(g) => g.order(),
            Entry::Pencilmarks(_) => Order::ALL[1],
        }
    }
}

/// One puzzle read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRecord {
    /// File name as given (`-` for standard input).
    pub source: Arc<str>,
    /// 1-based line number (a block's first row).
    pub line: u64,
    /// The puzzle.
    pub puzzle: Entry,
    /// The solution the file claims (CSV solution column, `puzzle,solution` pair).
    pub expected: Option<OrderGrid>,
    /// What followed the puzzle on a character line; other CSV columns.
    pub meta: String,
}

/// A malformed record or a failed stream, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderError {
    /// File name as given.
    pub source: Arc<str>,
    /// 1-based line.
    pub line: u64,
    /// What is wrong (`None`: the stream failed with the message in `io`).
    pub kind: Option<FormatError>,
    /// The read error, when the stream itself failed; reading stops there.
    pub io: Option<String>,
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, &self.io) {
            (Some(k), _) => write!(f, "{}:{}: {k}", self.source, self.line),
            (None, io) => write!(
                f,
                "{}:{}: read failed: {}",
                self.source,
                self.line,
                io.as_deref().unwrap_or("")
            ),
        }
    }
}

impl std::error::Error for OrderError {}

/// What the reader yields.
pub type OrderItem = Result<OrderRecord, OrderError>;

/// Lines longer than this are reported as errors and skipped, never buffered whole (the
/// longest record, a 64×64 numbers line, is about 12 KiB).
pub const MAX_LINE: usize = 64 * 1024;

/// A line of the look-ahead: its number and its text, or why it is no text (invalid UTF-8,
/// too long, a carriage return inside). A line that is no text is not blank, not a comment
/// and holds no number, so no block takes it.
struct Line {
    no: u64,
    text: Result<String, FormatError>,
}

impl Line {
    /// Whether the line is text and blank (ends a block).
    fn is_blank(&self) -> bool {
        self.text.as_ref().is_ok_and(|t| t.trim().is_empty())
    }

    /// Whether the line is a comment.
    fn is_comment(&self) -> bool {
        self.text
            .as_ref()
            .is_ok_and(|t| t.trim_start().starts_with('#'))
    }

    /// The line's numbers, if it is text holding whitespace-separated numbers.
    fn numbers(&self) -> Option<Vec<(u8, usize, u64)>> {
        self.text
            .as_ref()
            .ok()
            .and_then(|t| format::numbers(t).ok())
    }
}

#[derive(Clone, Debug)]
struct CsvLayout {
    columns: usize,
    puzzle: usize,
    solution: Option<usize>,
}

/// Streams records of any order from one source.
pub struct OrderReader {
    input: Box<dyn BufRead + Send>,
    source: Arc<str>,
    line_no: u64,
    ahead: VecDeque<Line>,
    pending: VecDeque<OrderItem>,
    csv: Option<CsvLayout>,
    seen_data: bool,
    done: bool,
}

impl OrderReader {
    /// Opens a file (`-`: standard input), gzip or plain by its magic bytes.
    pub fn open(path: &str) -> io::Result<OrderReader> {
        let input: Box<dyn Read + Send> = if path == "-" {
            Box::new(io::stdin())
        } else {
            Box::new(std::fs::File::open(path)?)
        };
        Ok(OrderReader::new(path, input))
    }

    /// Reads from any byte stream, gzip or plain by its magic bytes.
    pub fn new(source: &str, input: impl Read + Send + 'static) -> OrderReader {
        let mut buffered = BufReader::with_capacity(1 << 16, input);
        let gzip = buffered
            .fill_buf()
            .map(|b| b.starts_with(&[0x1f, 0x8b]))
            .unwrap_or(false);
        let input: Box<dyn BufRead + Send> = if gzip {
            Box::new(BufReader::new(MultiGzDecoder::new(buffered)))
        } else {
            Box::new(buffered)
        };
        OrderReader {
            input,
            source: source.into(),
            line_no: 0,
            ahead: VecDeque::new(),
            pending: VecDeque::new(),
            csv: None,
            seen_data: false,
            done: false,
        }
    }

    fn error(&self, line: u64, kind: FormatError) -> OrderError {
        OrderError {
            source: self.source.clone(),
            line,
            kind: Some(kind),
            io: None,
        }
    }

    /// Reads one more line into the look-ahead queue; false at the end or on a failure (which
    /// is queued as an error and ends the stream).
    fn fill(&mut self) -> bool {
        if self.done {
            return false;
        }
        let mut bytes = Vec::new();
        match read_line_bounded(&mut self.input, &mut bytes, MAX_LINE) {
            Ok(None) => {
                self.done = true;
                false
            }
            Ok(Some((_, long))) => {
                self.line_no += 1;
                let line = self.line_no;
                let text = match long {
                    true => Err(LineFault::TooLong(MAX_LINE)),
                    false => {
                        format::line_text(format::strip_line(&bytes, line == 1)).map(str::to_string)
                    }
                };
                self.ahead.push_back(Line {
                    no: line,
                    text: text.map_err(FormatError::Line),
                });
                true
            }
            Err(e) => {
                self.done = true;
                self.pending.push_back(Err(OrderError {
                    source: self.source.clone(),
                    line: self.line_no + 1,
                    kind: None,
                    io: Some(e.to_string()),
                }));
                false
            }
        }
    }

    fn next_line(&mut self) -> Option<Line> {
        if self.ahead.is_empty() && !self.fill() {
            return None;
        }
        self.ahead.pop_front()
    }

    /// The `k`-th line ahead (0: the next), reading as needed.
    fn peek(&mut self, k: usize) -> Option<&Line> {
        while self.ahead.len() <= k {
            if !self.fill() {
                return None;
            }
        }
        self.ahead.get(k)
    }

    fn record(
        &self,
        line: u64,
        puzzle: Entry,
        expected: Option<OrderGrid>,
        meta: &str,
    ) -> OrderItem {
        Ok(OrderRecord {
            source: self.source.clone(),
            line,
            puzzle,
            expected,
            meta: meta.to_string(),
        })
    }

    /// Skips lines up to the next blank one (after an error inside a block).
    fn skip_block(&mut self) {
        while self.peek(0).is_some_and(|l| !l.is_blank()) {
            self.ahead.pop_front();
        }
    }

    fn numbers_record(&mut self, line: u64, text: &str) -> OrderItem {
        let nums = format::numbers(text).map_err(|k| self.error(line, k))?;
        let count = nums.len();
        if count == 16 && self.block16(&nums) {
            return self.block(line, nums, Order::ALL[2]);
        }
        if let Some(grid) = format::numbers_grid(&nums) {
            let grid = grid.map_err(|k| self.error(line, k))?;
            return self.record(line, Entry::Grid(grid), None, "");
        }
        match Order::from_side(count) {
            Some(order) => self.block(line, nums, order),
            None => Err(self.error(line, FormatError::Count { found: count })),
        }
    }

    /// Whether the 16-number line just read starts a 16×16 block (see [`super::format`]).
    fn block16(&mut self, row0: &[(u8, usize, u64)]) -> bool {
        for k in 0..15 {
            match self.peek(k).and_then(Line::numbers) {
                Some(n) if n.len() == 16 => {}
                _ => return false,
            }
        }
        let ends = self.peek(15).is_none_or(Line::is_blank);
        // A 16×16 puzzle has some number above 4, in its first row or a later one.
        let big = |n: &[(u8, usize, u64)]| n.iter().any(|&(v, ..)| v > 4);
        ends && (big(row0)
            || (0..15).any(|k| {
                self.ahead
                    .get(k)
                    .and_then(Line::numbers)
                    .is_some_and(|n| big(&n))
            }))
    }

    fn block(&mut self, first: u64, row0: Vec<(u8, usize, u64)>, order: Order) -> OrderItem {
        let side = order.side();
        let mut values = format::values(order, &row0).map_err(|k| {
            let e = self.error(first, k);
            self.skip_block();
            e
        })?;
        for row in 1..side {
            let last = self.line_no;
            let (line, text) = match self.peek(0) {
                Some(l) if !l.is_blank() => (l.no, l.text.clone()),
                other => {
                    // At a blank line, that line; at the end of the input, its last line.
                    let at = other.map_or(last, |l| l.no);
                    return Err(self.error(at, FormatError::ShortBlock { rows: row, order }));
                }
            };
            self.ahead.pop_front();
            let text = match text {
                Ok(text) => text,
                Err(kind) => {
                    self.skip_block();
                    return Err(self.error(line, kind));
                }
            };
            let parsed = format::numbers(&text).and_then(|nums| {
                if nums.len() != side {
                    return Err(FormatError::Ragged {
                        expected: side,
                        found: nums.len(),
                    });
                }
                format::values(order, &nums)
            });
            match parsed {
                Ok(v) => values.extend(v),
                Err(k) => {
                    self.skip_block();
                    return Err(self.error(line, k));
                }
            }
        }
        if let Some(next) = self.peek(0) {
            if !next.is_blank() && !next.is_comment() {
                let line = next.no;
                self.skip_block();
                return Err(self.error(line, FormatError::LongBlock { order }));
            }
        }
        let grid = OrderGrid::from_values(order, values)
            .map_err(|e| self.error(first, FormatError::Solution(e.to_string())))?;
        self.record(first, Entry::Grid(grid), None, "")
    }

    fn chars_record(&mut self, line: u64, text: &str) -> OrderItem {
        let text = text.trim();
        let (token, meta) = match text.find(char::is_whitespace) {
            Some(i) => (&text[..i], text[i..].trim()),
            None => (text, ""),
        };
        if let Some((p, s)) = token.split_once(',') {
            let puzzle = self.puzzle(line, p)?;
            let expected = self.solution(line, &puzzle, s)?;
            return self.record(line, puzzle, Some(expected), meta);
        }
        let puzzle = self.puzzle(line, token)?;
        self.record(line, puzzle, None, meta)
    }

    fn puzzle(&self, line: u64, field: &str) -> Result<Entry, OrderError> {
        if field.len() == PENCILMARKS && field.is_ascii() {
            return Candidates::from_bytes(field.as_bytes())
                .map(Entry::Pencilmarks)
                .map_err(|e| self.error(line, FormatError::Solution(format!("pencilmarks {e}"))));
        }
        format::parse_chars(field)
            .map(Entry::Grid)
            .map_err(|k| self.error(line, k))
    }

    fn solution(&self, line: u64, puzzle: &Entry, field: &str) -> Result<OrderGrid, OrderError> {
        let bad = |m: String| self.error(line, FormatError::Solution(m));
        let grid = format::parse_chars(field).map_err(|k| bad(k.to_string()))?;
        if grid.order() != puzzle.order() {
            return Err(bad(format!(
                "is {}, the puzzle {}",
                grid.order(),
                puzzle.order()
            )));
        }
        if !grid.is_full() {
            return Err(bad("has empty cells".into()));
        }
        Ok(grid)
    }

    fn csv_record(&mut self, line: u64, text: &str, layout: &CsvLayout) -> OrderItem {
        let fields: Vec<&str> = text
            .split(',')
            .map(|f| f.trim().trim_matches('"'))
            .collect();
        if fields.len() != layout.columns {
            return Err(self.error(
                line,
                FormatError::Solution(format!(
                    "CSV row has {} fields, the header has {}",
                    fields.len(),
                    layout.columns
                )),
            ));
        }
        let puzzle = self.puzzle(line, fields[layout.puzzle])?;
        let expected = match layout.solution {
            Some(s) => Some(self.solution(line, &puzzle, fields[s])?),
            None => None,
        };
        let meta: Vec<&str> = (0..fields.len())
            .filter(|&i| i != layout.puzzle && Some(i) != layout.solution)
            .map(|i| fields[i])
            .collect();
        self.record(line, puzzle, expected, &meta.join(","))
    }
}

fn header(text: &str) -> Option<CsvLayout> {
    if !text.contains(',') {
        return None;
    }
    let fields: Vec<String> = text
        .split(',')
        .map(|f| f.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    let wordy = |f: &String| {
        !f.is_empty()
            && f.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_' || c == ' ')
    };
    if !fields.iter().all(wordy) {
        return None;
    }
    let find = |names: &[&str]| fields.iter().position(|f| names.contains(&f.as_str()));
    Some(CsvLayout {
        columns: fields.len(),
        puzzle: find(&["quizzes", "quiz", "puzzle", "puzzles"]).unwrap_or(0),
        solution: find(&["solutions", "solution"]),
    })
}

impl Iterator for OrderReader {
    type Item = OrderItem;

    fn next(&mut self) -> Option<OrderItem> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            let (line, text) = match self.next_line() {
                Some(Line { no, text: Ok(text) }) => (no, text),
                Some(Line {
                    no,
                    text: Err(kind),
                }) => {
                    self.seen_data = true;
                    return Some(Err(self.error(no, kind)));
                }
                None => return self.pending.pop_front(),
            };
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let first = !self.seen_data;
            self.seen_data = true;
            if let Some(layout) = self.csv.clone() {
                return Some(self.csv_record(line, trimmed, &layout));
            }
            if first {
                if let Some(layout) = header(trimmed) {
                    self.csv = Some(layout);
                    continue;
                }
            }
            if format::is_numbers_line(trimmed) {
                return Some(self.numbers_record(line, trimmed));
            }
            return Some(self.chars_record(line, trimmed));
        }
    }
}
