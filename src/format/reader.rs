//! The streaming reader: one record (or one error) per data line, in constant memory.

use super::line::{parse_csv_pair, parse_grid_line, parse_line, CsvLayout, Parsed};
use super::record::{Item, ParseError, ParseErrorKind, Record};
use crate::order::format::{self as order_format, LineFault};
use crate::order::reader::{Entry, OrderItem, OrderReader};
use crate::order::{Order, OrderGrid};
use crate::puzzle::{Puzzle, Solution};
use crate::util::{read_line_bounded, BOM};
use flate2::bufread::GzDecoder;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Lines longer than this are reported as errors instead of being buffered whole (the same
/// limit as the reader of every order's).
pub const MAX_LINE: usize = crate::order::reader::MAX_LINE;

const BUFFER: usize = 256 * 1024;

/// A source that could not be opened at all.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The path does not exist, is unreadable, or similar.
    #[error("{path}: cannot open: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The underlying error.
        source: io::Error,
    },
    /// The path is a directory.
    #[error("{path}: is a directory, not a puzzle file")]
    Directory {
        /// The path as given.
        path: String,
    },
}

/// Streams records from one source: a file (plain or gzip) or standard input.
///
/// Yields one item per data line: `Ok(Record)` or `Err(ParseError)` naming source and line.
/// After an error in the stream itself (corrupt gzip, I/O failure) it yields that error once
/// and then ends. Gzip checks a member (CRC and length) only at its end, so the records of a
/// corrupt member are read before its failure shows; the error then says how many there were
/// and on which lines ([`ParseErrorKind::CorruptMember`]).
///
/// Lines are parsed in place in the input buffer when they fit in it (nearly always), and
/// plain 81-character puzzle lines take a fast path; see `line::parse_grid_line`.
pub struct Reader {
    /// A file whose first record is of another order than 9×9 is read by the reader of
    /// every order (blocks, numbers lines, …) and its records converted.
    orders: Option<OrderReader>,
    input: Box<dyn Buffered>,
    state: State,
    buf: Vec<u8>,
    finished: bool,
    /// Bytes of (decompressed) input consumed so far.
    pos: u64,
    /// For gzip input: which records came from the member being decompressed.
    members: Option<MemberRecords>,
}

/// Where the member being decompressed started: shared between the decoder, which sets it,
/// and the reader, which consumes the decoder's output some way behind it.
#[derive(Default)]
struct MemberStart {
    /// Members started before this one.
    index: AtomicU64,
    /// Offset of the member's first byte in the decompressed stream.
    offset: AtomicU64,
}

/// Counts the records read from the latest gzip member the reader has reached.
struct MemberRecords {
    start: Arc<MemberStart>,
    /// The member the counts are for.
    index: u64,
    records: u64,
    first_line: u64,
    last_line: u64,
}

impl MemberRecords {
    /// Called after each consumed line, `pos` being the offset just past it: a line with any
    /// byte from a newer member starts that member's count.
    fn line_done(&mut self, pos: u64) {
        let index = self.start.index.load(Ordering::Relaxed);
        if index != self.index && pos > self.start.offset.load(Ordering::Relaxed) {
            self.index = index;
            self.records = 0;
        }
    }

    fn record(&mut self, line: u64) {
        if self.records == 0 {
            self.first_line = line;
        }
        self.records += 1;
        self.last_line = line;
    }

    /// The error for a failure of the member being decompressed, which is the newest one.
    fn failure(&self, message: String) -> ParseErrorKind {
        if self.index != self.start.index.load(Ordering::Relaxed) || self.records == 0 {
            return ParseErrorKind::Io(message);
        }
        ParseErrorKind::CorruptMember {
            message,
            records: self.records,
            first_line: self.first_line,
            last_line: self.last_line,
        }
    }
}

/// Decompresses gzip member after member (as `MultiGzDecoder` does), publishing where each
/// member's output starts.
struct Members<R: BufRead> {
    /// `None` once the input has ended.
    decoder: Option<GzDecoder<R>>,
    /// Bytes decompressed so far.
    out: u64,
    start: Arc<MemberStart>,
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let Some(decoder) = &mut self.decoder else {
                return Ok(0);
            };
            let n = decoder.read(buf)?;
            if n > 0 {
                self.out += n as u64;
                return Ok(n);
            }
            // The member ended and passed its check; another follows unless the input ends.
            let Some(decoder) = self.decoder.take() else {
                return Ok(0);
            };
            let mut rest = decoder.into_inner();
            if rest.fill_buf()?.is_empty() {
                return Ok(0);
            }
            self.start.offset.store(self.out, Ordering::Relaxed);
            self.start.index.fetch_add(1, Ordering::Relaxed);
            self.decoder = Some(GzDecoder::new(rest));
        }
    }
}

/// A buffered byte stream whose buffer can be looked at without reading more.
trait Buffered: BufRead + Send {
    fn buffered(&self) -> &[u8];
}

impl<R: Read + Send> Buffered for BufReader<R> {
    fn buffered(&self) -> &[u8] {
        self.buffer()
    }
}

/// Everything but the input stream, so a line borrowed from the input's buffer can be parsed
/// while the state is updated.
struct State {
    source: Arc<str>,
    line_no: u64,
    csv: Option<CsvLayout>,
    seen_data: bool,
}

impl State {
    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source: self.source.clone(),
            line: self.line_no,
            kind,
        }
    }

    /// Parses one line (without its newline). `None` for blank and comment lines and CSV
    /// headers.
    fn parse(&mut self, line: &[u8]) -> Option<Item> {
        let bytes = order_format::strip_line(line, self.line_no == 1);
        // Fast paths for the two common line shapes; anything else takes the general path.
        let fast = match &self.csv {
            Some(layout) => parse_csv_pair(bytes, layout).map(|(p, s)| (p, Some(s))),
            None => parse_grid_line(bytes).map(|p| (p, None)),
        };
        if let Some((puzzle, expected)) = fast {
            self.seen_data = true;
            return Some(Ok(Record {
                source: self.source.clone(),
                line: self.line_no,
                puzzle: Puzzle::Grid(puzzle),
                expected: expected.map(Solution::Grid),
                meta: String::new(),
            }));
        }
        // A lone carriage return never ends a line silently inside another (a CR-only file
        // would be one record and the rest of it its metadata, or one long comment).
        let text = match order_format::line_text(bytes) {
            Ok(t) => t,
            Err(fault) => {
                // A record, if a broken one: a CSV header after it is no header (as in the
                // order reader).
                self.seen_data = true;
                return Some(Err(self.error(ParseErrorKind::Line(fault))));
            }
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return None;
        }
        let first = !self.seen_data;
        self.seen_data = true;
        match parse_line(text, self.csv.as_ref(), first) {
            Ok(Parsed::Header(layout)) => {
                self.csv = Some(layout);
                None
            }
            Ok(Parsed::Puzzle {
                puzzle,
                expected,
                meta,
            }) => Some(Ok(Record {
                source: self.source.clone(),
                line: self.line_no,
                puzzle,
                expected: expected.map(Solution::Grid),
                meta,
            })),
            Err(ParseErrorKind::Length(n)) => Some(match other_order_line(trimmed, n) {
                Ok((grid, meta)) => Ok(Record {
                    source: self.source.clone(),
                    line: self.line_no,
                    puzzle: Puzzle::from_order_grid(grid),
                    expected: None,
                    meta,
                }),
                Err(kind) => Err(self.error(kind)),
            }),
            Err(kind) => Some(Err(self.error(kind))),
        }
    }
}

/// A one-line grid of another order than 9×9 inside a file of 9×9 lines (or on standard
/// input): a character line of n⁴ characters (with metadata after whitespace), or n⁴ numbers.
/// Else what is wrong with the line as such a grid: a symbol outside the order's alphabet, a
/// number above n², a count of numbers that is no n⁴, or (`Length(length)`, `length` being
/// the puzzle field's as the 9×9 parser measured it) a length that is no order's.
fn other_order_line(text: &str, length: usize) -> Result<(OrderGrid, String), ParseErrorKind> {
    if order_format::is_numbers_line(text) {
        let nums = order_format::numbers(text).map_err(ParseErrorKind::Order)?;
        return match order_format::numbers_grid(&nums) {
            Some(grid) => Ok((grid.map_err(ParseErrorKind::Order)?, String::new())),
            None => Err(ParseErrorKind::Order(order_format::FormatError::Count {
                found: nums.len(),
            })),
        };
    }
    let (field, meta) = match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    };
    match order_format::parse_chars(field) {
        Ok(grid) => Ok((grid, meta.to_string())),
        Err(order_format::FormatError::Length { .. }) => Err(ParseErrorKind::Length(length)),
        Err(e) => Err(ParseErrorKind::Order(e)),
    }
}

impl Reader {
    /// Opens a path; `-` is standard input. Gzip is detected by its magic bytes.
    pub fn open(path: &str) -> Result<Reader, OpenError> {
        if path == "-" {
            return Ok(Reader::new("-", io::stdin()));
        }
        let p = Path::new(path);
        if p.is_dir() {
            return Err(OpenError::Directory {
                path: path.to_string(),
            });
        }
        let file = File::open(p).map_err(|source| OpenError::Io {
            path: path.to_string(),
            source,
        })?;
        Ok(Reader::new(path, file))
    }

    /// Reads from any byte stream, naming it `source` in errors.
    pub fn new(source: &str, input: impl Read + Send + 'static) -> Reader {
        let mut raw = BufReader::with_capacity(BUFFER, input);
        // Look at the first bytes without consuming them. A failure here shows up again on
        // the first real read, where it is reported with a line number.
        let is_gzip = matches!(raw.fill_buf(), Ok(head) if head.starts_with(&[0x1f, 0x8b]));
        let (input, members): (Box<dyn Buffered>, _) = if is_gzip {
            let start = Arc::new(MemberStart::default());
            let members = Members {
                decoder: Some(GzDecoder::new(raw)),
                out: 0,
                start: Arc::clone(&start),
            };
            let records = MemberRecords {
                start,
                index: 0,
                records: 0,
                first_line: 0,
                last_line: 0,
            };
            (
                Box::new(BufReader::with_capacity(BUFFER, members)),
                Some(records),
            )
        } else {
            (Box::new(raw), None)
        };
        let mut input = input;
        let (input, orders) = if first_record_is_other_order(&mut input, source == "-") {
            let orders = OrderReader::new(source, input);
            (Box::new(EmptyBuffered) as Box<dyn Buffered>, Some(orders))
        } else {
            (input, None)
        };
        Reader {
            orders,
            input,
            state: State {
                source: Arc::from(source),
                line_no: 0,
                csv: None,
                seen_data: false,
            },
            buf: Vec::with_capacity(1024),
            finished: false,
            pos: 0,
            members,
        }
    }

    /// Books a consumed line (its item, if any, already made): `pos` is just past it.
    fn line_done(&mut self, item: &Option<Item>) {
        if let Some(m) = &mut self.members {
            m.line_done(self.pos);
            if let Some(Ok(record)) = item {
                m.record(record.line);
            }
        }
    }

    /// The error that ends reading: the stream failed after the last line read.
    fn stream_error(&mut self, e: &io::Error) -> ParseError {
        self.finished = true;
        self.state.line_no += 1;
        let message = e.to_string();
        let kind = match &self.members {
            Some(m) => m.failure(message),
            None => ParseErrorKind::Io(message),
        };
        self.state.error(kind)
    }

    /// The source name used in records and errors.
    pub fn source(&self) -> &Arc<str> {
        &self.state.source
    }

    /// Whether the next item can be had without waiting for more input: a whole line is
    /// already buffered, or the input has ended. A caller that answers records as they come
    /// (standard input from another program, or a person) answers what it has when this is
    /// false, instead of blocking on the next record first.
    pub fn line_ready(&self) -> bool {
        self.orders.is_some()
            || self.finished
            || memchr::memchr(b'\n', self.input.buffered()).is_some()
    }

    /// Reads the rest of a line that does not fit in the input buffer into `self.buf`
    /// (without the newline). Returns Ok(None) at the end of input, Ok(Some(truncated)) with
    /// `truncated` set when the line was longer than [`MAX_LINE`].
    fn next_line(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        let read = read_line_bounded(&mut self.input, &mut self.buf, MAX_LINE)?;
        if let Some((used, _)) = read {
            self.pos += used;
        }
        Ok(read.map(|(_, truncated)| truncated))
    }

    /// The next item from a line that lies whole in the input buffer, parsed in place.
    /// `Ok(None)`: no whole line there (or a skipped line was consumed: `Ok(Some(None))`).
    fn next_in_place(&mut self) -> io::Result<Option<Option<Item>>> {
        let chunk = match self.input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(None),
            Err(e) => return Err(e),
        };
        let Some(end) = memchr::memchr(b'\n', chunk) else {
            return Ok(None);
        };
        self.state.line_no += 1;
        let item = if end > MAX_LINE {
            Some(Err(self
                .state
                .error(ParseErrorKind::Line(LineFault::TooLong(MAX_LINE)))))
        } else {
            self.state.parse(&chunk[..end])
        };
        self.input.consume(end + 1);
        self.pos += end as u64 + 1;
        self.line_done(&item);
        Ok(Some(item))
    }
}

impl Iterator for Reader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if let Some(orders) = &mut self.orders {
            return orders.next().map(from_order_item);
        }
        while !self.finished {
            match self.next_in_place() {
                Ok(Some(Some(item))) => return Some(item),
                Ok(Some(None)) => continue,
                Ok(None) => {}
                Err(e) => return Some(Err(self.stream_error(&e))),
            }
            // The line straddles the end of the buffer, or the input ends without a newline.
            let truncated = match self.next_line() {
                Ok(Some(t)) => t,
                Ok(None) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => return Some(Err(self.stream_error(&e))),
            };
            self.state.line_no += 1;
            let item = if truncated {
                Some(Err(self
                    .state
                    .error(ParseErrorKind::Line(LineFault::TooLong(MAX_LINE)))))
            } else {
                self.state.parse(&self.buf)
            };
            self.line_done(&item);
            if item.is_some() {
                return item;
            }
        }
        None
    }
}

/// An input with nothing in it (what is left of a reader whose input went to the reader of
/// every order).
struct EmptyBuffered;

impl Read for EmptyBuffered {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Ok(0)
    }
}

impl BufRead for EmptyBuffered {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&[])
    }
    fn consume(&mut self, _: usize) {}
}

impl Buffered for EmptyBuffered {
    fn buffered(&self) -> &[u8] {
        &[]
    }
}

/// Whether the first record of the (decompressed) input, as far as the buffer shows it, is a
/// grid of another order than 9×9: a numbers line (a one-line grid or a block's first row),
/// or a first field (up to a comma or whitespace) of n⁴ characters for an order other than
/// 9×9. CSV headers, comment and blank lines are passed over; anything else (a 9×9 line, a
/// malformed line) leaves the file to the 9×9 reader, whose messages name the line. On
/// standard input (`stdin`) a first line of 16 numbers does too.
fn first_record_is_other_order(input: &mut Box<dyn Buffered>, stdin: bool) -> bool {
    let Ok(head) = input.fill_buf() else {
        return false;
    };
    let head = head.strip_prefix(BOM).unwrap_or(head);
    for line in head.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let field = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("");
        if field.chars().all(|c| c.is_ascii_alphabetic() || c == '_') {
            continue; // a CSV header
        }
        if order_format::is_numbers_line(text) {
            // On standard input a first line of 16 numbers stays with the 9×9 reader, which
            // takes each such line as a one-line 4×4 grid and answers it at once: telling a
            // 16×16 block from 4×4 lines takes the next 15 lines, which a person typing 4×4
            // grids one at a time would wait for.
            return !(stdin && text.split_whitespace().count() == 16);
        }
        let len = field.chars().count();
        return len != 81 && Order::from_cells(len).is_some();
    }
    false
}

/// A record of the reader of every order as the 9×9 reader's item: a 9×9 grid becomes a
/// [`Puzzle::Grid`], other orders [`Puzzle::Order`].
fn from_order_item(item: OrderItem) -> Item {
    match item {
        Ok(r) => Ok(Record {
            source: r.source,
            line: r.line,
            puzzle: match r.puzzle {
                Entry::Grid(g) => Puzzle::from_order_grid(g),
                Entry::Pencilmarks(c) => Puzzle::Candidates(c),
            },
            expected: r.expected.map(Solution::from_order_grid),
            meta: r.meta,
        }),
        Err(e) => Err(ParseError {
            source: e.source,
            line: e.line,
            kind: match (e.kind, e.io) {
                // The same kind as from the 9×9 reader, for the same fault.
                (Some(order_format::FormatError::Line(fault)), _) => ParseErrorKind::Line(fault),
                (Some(kind), _) => ParseErrorKind::Order(kind),
                (None, io) => ParseErrorKind::Io(io.unwrap_or_default()),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use flate2::write::GzEncoder;
    use std::io::Write;

    const P1: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn read(bytes: Vec<u8>) -> Vec<Item> {
        Reader::new("t", io::Cursor::new(bytes)).collect()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_lines_comments_and_meta() {
        let text = format!(
            "# comment\n\n{P1}  rating 9.1\r\n{}\n",
            P1.replace('.', "0")
        );
        let items = read(text.into_bytes());
        assert_eq!(items.len(), 2);
        let r = items[0].as_ref().unwrap();
        assert_eq!(r.line, 3);
        assert_eq!(r.meta, "rating 9.1");
        assert_eq!(r.puzzle, Puzzle::Grid(P1.parse().unwrap()));
        assert_eq!(items[1].as_ref().unwrap().line, 4);
    }

    #[test]
    fn errors_name_the_line_and_reading_goes_on() {
        let text = format!("{}\n{}x\n{}\n", &P1[..80], &P1[..80], P1);
        let items = read(text.into_bytes());
        assert_eq!(items.len(), 3);
        let e = items[0].as_ref().unwrap_err();
        assert_eq!(e.line, 1);
        assert_eq!(e.kind, ParseErrorKind::Length(80));
        assert_eq!(
            items[1].as_ref().unwrap_err().to_string(),
            "t:2: puzzle illegal character 'x' at column 81 (expected 1-9, '.' or '0')"
        );
        assert!(items[2].is_ok());
    }

    #[test]
    fn invalid_utf8_and_long_lines() {
        let mut bytes = P1.as_bytes().to_vec();
        bytes[3] = 0xff;
        bytes.push(b'\n');
        bytes.extend(std::iter::repeat_n(b'1', MAX_LINE + 10));
        bytes.extend(format!("\n{P1}").as_bytes());
        let items = read(bytes);
        assert_eq!(items.len(), 3);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind,
            ParseErrorKind::Line(LineFault::Utf8(3))
        );
        assert_eq!(
            items[1].as_ref().unwrap_err().kind,
            ParseErrorKind::Line(LineFault::TooLong(MAX_LINE))
        );
        assert_eq!(items[2].as_ref().unwrap().line, 3);
        // A broken line is a record: a CSV header after it is not taken as one, whether the
        // line broke on its bytes or on a carriage return.
        for broken in [&b"\xff\n"[..], b"1\r2\n"] {
            let items = read([broken, b"quizzes,solutions\n"].concat());
            assert_eq!(items.len(), 2, "{broken:?}");
            assert!(items.iter().all(Result::is_err), "{broken:?}");
        }
    }

    #[test]
    fn kaggle_csv() {
        let sol =
            "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
        let puz =
            "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
        let text = format!(
            "# c\nquizzes,solutions\n{puz},{sol}\n{puz}\n{puz},{}\n",
            &sol[1..]
        );
        let items = read(text.into_bytes());
        assert_eq!(items.len(), 3);
        let r = items[0].as_ref().unwrap();
        assert_eq!(r.expected, Some(Solution::Grid(sol.parse().unwrap())));
        assert_eq!(r.line, 3);
        assert_eq!(
            items[1].as_ref().unwrap_err().kind,
            ParseErrorKind::Fields {
                expected: 2,
                found: 1
            }
        );
        assert!(matches!(
            items[2].as_ref().unwrap_err().kind,
            ParseErrorKind::Solution(_)
        ));
    }

    #[test]
    fn gzip_members_and_corruption() {
        let mut two = gzip(format!("{P1}\n").as_bytes());
        two.extend(gzip(format!("{P1}\n{P1}\n").as_bytes()));
        let items = read(two.clone());
        assert_eq!(items.len(), 3);
        assert!(items.iter().all(|i| i.is_ok()));

        let truncated = two[..two.len() / 2 + 3].to_vec();
        let items = read(truncated);
        let last = items.last().unwrap().as_ref().unwrap_err();
        assert!(matches!(last.kind, ParseErrorKind::Io(_)), "{last}");

        let mut garbage = gzip(format!("{P1}\n").as_bytes());
        garbage.extend(b"\x1f\x8bnot really gzip at all");
        let items = read(garbage);
        assert!(items[0].is_ok());
        assert!(matches!(
            items.last().unwrap().as_ref().unwrap_err().kind,
            ParseErrorKind::Io(_)
        ));
    }

    #[test]
    fn byte_order_mark_is_skipped_at_the_start_only() {
        const BOM_STR: &str = "\u{feff}";
        for text in [
            format!("{BOM_STR}{P1}\n"),
            format!("{BOM_STR}# comment\n{P1}\n"),
            format!("{BOM_STR}{P1} rated 3\n"),
            format!("{BOM_STR}quizzes,solutions\n{P1},{}\n", "1".repeat(81)),
        ] {
            let items = read(gzip(text.as_bytes()));
            assert!(!items.is_empty(), "{text:?}");
            assert!(items.iter().all(|i| i.is_ok()), "{text:?}: {:?}", items[0]);
            assert_eq!(read(text.clone().into_bytes()), items, "{text:?}");
        }
        // Anywhere else it is an illegal character like any other.
        let items = read(format!("{P1}\n{BOM_STR}{}\n", &P1[1..]).into_bytes());
        assert!(items[0].is_ok());
        assert_eq!(
            items[1].as_ref().unwrap_err().to_string(),
            "t:2: puzzle illegal character '\\u{feff}' at column 1 (expected 1-9, '.' or '0')"
        );
    }

    /// Gzip with its CRC broken: the data decompresses, the member fails only at its end.
    fn gzip_bad_crc(data: &[u8]) -> Vec<u8> {
        let mut z = gzip(data);
        let crc = z.len() - 8;
        z[crc] ^= 0x01;
        z
    }

    fn corrupt_member(item: &Item) -> (u64, u64, u64, u64) {
        match item {
            Err(ParseError {
                line,
                kind:
                    ParseErrorKind::CorruptMember {
                        records,
                        first_line,
                        last_line,
                        ..
                    },
                ..
            }) => (*line, *records, *first_line, *last_line),
            other => panic!("not a corrupt member: {other:?}"),
        }
    }

    #[test]
    fn a_failed_member_says_which_records_came_from_it() {
        // A good member of 3 puzzles, then one of a comment and 5 puzzles whose CRC is wrong.
        let mut bytes = gzip(format!("{P1}\n").repeat(3).as_bytes());
        bytes.extend(gzip_bad_crc(
            format!("# c\n{}", format!("{P1}\n").repeat(5)).as_bytes(),
        ));
        let items = read(bytes);
        assert_eq!(items.len(), 9);
        assert!(items[..8].iter().all(|i| i.is_ok()));
        assert_eq!(corrupt_member(&items[8]), (10, 5, 5, 9));
        assert_eq!(items[8].as_ref().unwrap_err().kind.suspect_records(), 5);
        let text = items[8].as_ref().unwrap_err().to_string();
        assert!(
            text.starts_with("t:10: read failed: ")
                && text.ends_with(
                    "(the 5 puzzles on lines 5-9 came from this gzip member, which failed: do \
                     not trust their answers)"
                ),
            "{text}"
        );

        // A member boundary inside a line: that line has bytes from the failed member.
        let mut bytes = gzip(format!("{P1}\n{}", &P1[..40]).as_bytes());
        bytes.extend(gzip_bad_crc(format!("{}\n{P1}\n", &P1[40..]).as_bytes()));
        let items = read(bytes);
        assert_eq!(items.len(), 4);
        assert_eq!(corrupt_member(&items[3]), (4, 2, 2, 3));

        // Only the failed member counts, however many good ones came before and however
        // much of them is still buffered; a failure after the last puzzle of a good member
        // (a broken next header) and a plain file's failure name no puzzles.
        let big = format!("{P1}\n").repeat(10_000);
        let mut bytes = gzip(big.as_bytes());
        bytes.extend(gzip(b""));
        bytes.extend(gzip(big.as_bytes()));
        bytes.extend(gzip_bad_crc(format!("{P1}\n").repeat(7).as_bytes()));
        let items = read(bytes.clone());
        assert_eq!(items.len(), 20_008);
        assert_eq!(corrupt_member(&items[20_007]), (20_008, 7, 20_001, 20_007));
        let mut bytes = gzip(big.as_bytes());
        bytes.extend(b"\x1f\x8b garbage");
        let items = read(bytes);
        assert_eq!(items.len(), 10_001);
        assert!(matches!(
            items[10_000].as_ref().unwrap_err().kind,
            ParseErrorKind::Io(_)
        ));

        // A truncated member: its complete lines are read, then counted in the error.
        let whole = gzip(big.as_bytes());
        let items = read(whole[..whole.len() - 100].to_vec());
        let (line, records, first, last) = corrupt_member(items.last().unwrap());
        assert_eq!(
            (records, first, last + 1),
            (items.len() as u64 - 1, 1, line)
        );
    }

    #[test]
    fn empty_input() {
        assert!(read(Vec::new()).is_empty());
        assert!(read(b"# only\n# comments\n".to_vec()).is_empty());
    }
}
