//! Turning one line of text into a record: plain puzzle lines, CSV headers and rows.

use super::record::ParseErrorKind;
use crate::grid::{Candidates, Grid, GridError, CELLS};
use crate::puzzle::Puzzle;
use std::borrow::Cow;

/// What a data line turned out to be.
#[allow(clippy::large_enum_variant)] // returned by value once per line; boxing would allocate
pub(super) enum Parsed {
    /// A puzzle with an optional expected solution and metadata.
    Puzzle {
        puzzle: Puzzle,
        expected: Option<Grid>,
        meta: String,
    },
    /// A CSV header: which column holds puzzles, which solutions, how many columns.
    Header(CsvLayout),
}

/// The columns of a CSV file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CsvLayout {
    pub columns: usize,
    pub puzzle: usize,
    pub solution: Option<usize>,
}

/// Parses a puzzle field of 81 or 729 characters. Lengths and columns in errors count
/// characters, not bytes, so a non-ASCII character (`é`, a full-width digit) is named with its
/// column rather than miscounted.
pub(super) fn parse_puzzle(field: &str) -> Result<Puzzle, ParseErrorKind> {
    let bytes = field.as_bytes();
    match bytes.len() {
        CELLS if field.is_ascii() => {
            return Grid::from_bytes(bytes)
                .map(Puzzle::Grid)
                .map_err(ParseErrorKind::Puzzle)
        }
        PENCILMARKS if field.is_ascii() => {
            return Candidates::from_bytes(bytes)
                .map(Puzzle::Candidates)
                .map_err(ParseErrorKind::Puzzle)
        }
        _ => {}
    }
    let chars = field.chars().count();
    if chars != CELLS && chars != PENCILMARKS {
        return Err(ParseErrorKind::Length(chars));
    }
    // The right number of characters but not all ASCII (else a branch above took it): name
    // the first character that cannot stand where it is.
    let pencilmarks = chars == PENCILMARKS;
    let bad = field.chars().enumerate().find_map(|(i, ch)| {
        let column = i + 1;
        if pencilmarks {
            let digit = (i % 9) as u8 + 1;
            let fits = matches!(ch, '.' | '0') || ch == char::from(b'0' + digit);
            (!fits).then_some(GridError::Pencilmark { ch, column, digit })
        } else {
            let fits = matches!(ch, '.' | '0'..='9');
            (!fits).then_some(GridError::Character { ch, column })
        }
    });
    // A non-ASCII character never fits, so `bad` is always found; the length error is only a
    // fallback that keeps this total.
    Err(bad.map_or(ParseErrorKind::Length(chars), ParseErrorKind::Puzzle))
}

/// Characters of a pencilmark line: nine slots per cell.
const PENCILMARKS: usize = 9 * CELLS;

/// Cell values of the bytes of a puzzle line: 0 for `.` and `0`, 1–9 for digits, and
/// [`BAD`] for anything else.
const CELL_OF: [u8; 256] = {
    let mut t = [BAD; 256];
    t[b'.' as usize] = 0;
    let mut d = 0;
    while d < 10 {
        t[(b'0' + d) as usize] = d;
        d += 1;
    }
    t
};
const BAD: u8 = 0x80;

/// The fast path for the commonest line: exactly 81 cell characters and nothing else.
/// Returns `None` for anything else (which then takes the general path, with its error
/// messages), so it never changes what a line means. Branch-free over the 81 bytes.
pub(super) fn parse_grid_line(bytes: &[u8]) -> Option<Grid> {
    let bytes: &[u8; CELLS] = bytes.try_into().ok()?;
    let mut cells = [0u8; CELLS];
    let mut bad = 0u8;
    for (c, &b) in cells.iter_mut().zip(bytes) {
        let v = CELL_OF[b as usize];
        bad |= v;
        *c = v;
    }
    if bad & BAD != 0 {
        return None;
    }
    Grid::from_cells(cells).ok()
}

/// The fast path for the commonest CSV row: two 81-character fields, puzzle and solution
/// (Kaggle's `quizzes,solutions`), with a full solution. `None` for anything else, which then
/// takes the general path with its error messages.
pub(super) fn parse_csv_pair(bytes: &[u8], layout: &CsvLayout) -> Option<(Grid, Grid)> {
    if layout.columns != 2 || bytes.len() != 2 * CELLS + 1 || bytes[CELLS] != b',' {
        return None;
    }
    let (first, second) = (&bytes[..CELLS], &bytes[CELLS + 1..]);
    let (puzzle, solution) = match (layout.puzzle, layout.solution) {
        (0, Some(1)) => (first, second),
        (1, Some(0)) => (second, first),
        _ => return None,
    };
    let solution = parse_grid_line(solution).filter(Grid::is_full)?;
    Some((parse_grid_line(puzzle)?, solution))
}

fn parse_solution(field: &str) -> Result<Grid, ParseErrorKind> {
    let grid = Grid::from_bytes(field.as_bytes()).map_err(ParseErrorKind::Solution)?;
    if !grid.is_full() {
        return Err(ParseErrorKind::SolutionIncomplete);
    }
    Ok(grid)
}

/// Column names that make a first line a CSV header: a puzzle column, a solution column.
const PUZZLE_NAMES: [&str; 5] = ["quiz", "puzzle", "question", "problem", "grid"];
const SOLUTION_NAMES: [&str; 2] = ["solution", "answer"];

/// Whether a first data line is a CSV header rather than a headerless row: it has commas, no
/// field of it is a puzzle, and it names a puzzle or solution column. Anything else (a
/// malformed first row, `foo,bar`) is a record, with an error if it is one, so that no row is
/// ever swallowed as a header.
fn looks_like_header(line: &str) -> bool {
    let fields = csv_fields(line);
    let named = |f: &str| {
        let f = f.to_lowercase();
        PUZZLE_NAMES
            .iter()
            .chain(&SOLUTION_NAMES)
            .any(|k| f.contains(k))
    };
    fields.len() > 1
        && fields.iter().all(|f| parse_puzzle(f).is_err())
        && fields.iter().any(|f| named(f))
}

fn unquote(field: &str) -> &str {
    let f = field.trim();
    f.strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(f)
}

/// The fields of a CSV line. A line without quotes is split on commas (the fast path every
/// bundled set takes); one with quotes is read by the `csv` crate, so a quoted field may hold
/// commas and doubled quotes (RFC 4180).
fn csv_fields(line: &str) -> Vec<Cow<'_, str>> {
    if !line.contains('"') {
        return line.split(',').map(|f| Cow::Borrowed(f.trim())).collect();
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    match reader.records().next() {
        Some(Ok(record)) => record
            .iter()
            .map(|f| Cow::Owned(f.trim().to_string()))
            .collect(),
        // An unterminated quote and the like: the plain split, whose fields then fail to read.
        _ => line.split(',').map(|f| Cow::Borrowed(unquote(f))).collect(),
    }
}

/// Reads a CSV header: the puzzle column is the one whose name mentions a puzzle or quiz
/// (else the first), the solution column the one mentioning a solution or answer.
fn header_layout(line: &str) -> CsvLayout {
    let names: Vec<String> = csv_fields(line).iter().map(|f| f.to_lowercase()).collect();
    let find = |keys: &[&str]| {
        names
            .iter()
            .position(|n| keys.iter().any(|k| n.contains(k)))
    };
    let puzzle = find(&PUZZLE_NAMES).unwrap_or(0);
    let solution = find(&SOLUTION_NAMES).filter(|&s| s != puzzle);
    CsvLayout {
        columns: names.len(),
        puzzle,
        solution,
    }
}

/// Parses a data line (not blank, not a comment). `csv` is the layout once a header was seen;
/// `first` says whether this is the source's first data line (where a header may stand).
pub(super) fn parse_line(
    line: &str,
    csv: Option<&CsvLayout>,
    first: bool,
) -> Result<Parsed, ParseErrorKind> {
    if let Some(layout) = csv {
        return parse_csv_row(line, layout);
    }
    if first && looks_like_header(line) {
        return Ok(Parsed::Header(header_layout(line)));
    }
    let line = line.trim_start();
    let (token, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    // A headerless `puzzle,solution` pair.
    if let Some((p, s)) = token.split_once(',') {
        if !s.contains(',') {
            return Ok(Parsed::Puzzle {
                puzzle: parse_puzzle(p)?,
                expected: Some(parse_solution(s)?),
                meta: rest.to_string(),
            });
        }
    }
    Ok(Parsed::Puzzle {
        puzzle: parse_puzzle(token)?,
        expected: None,
        meta: rest.to_string(),
    })
}

fn parse_csv_row(line: &str, layout: &CsvLayout) -> Result<Parsed, ParseErrorKind> {
    let fields = csv_fields(line);
    if fields.len() != layout.columns {
        return Err(ParseErrorKind::Fields {
            expected: layout.columns,
            found: fields.len(),
        });
    }
    let puzzle = parse_puzzle(&fields[layout.puzzle])?;
    let expected = match layout.solution {
        Some(s) => Some(parse_solution(&fields[s])?),
        None => None,
    };
    let meta = fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != layout.puzzle && Some(i) != layout.solution)
        .map(|(_, f)| f.as_ref())
        .collect::<Vec<_>>()
        .join(",");
    Ok(Parsed::Puzzle {
        puzzle,
        expected,
        meta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_path_agrees_with_the_general_parser() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9...0....";
        assert_eq!(
            parse_grid_line(line.as_bytes()),
            Some(Grid::from_bytes(line.as_bytes()).unwrap())
        );
        for bad in [
            &line[..80],
            "x".repeat(81).as_str(),
            &format!("{} ", &line[..80]),
        ] {
            assert_eq!(parse_grid_line(bad.as_bytes()), None, "{bad:?}");
        }
        let mut bytes = line.as_bytes().to_vec();
        for b in [b'a', b'/', b':', 0xff, b'#', b','] {
            bytes[40] = b;
            assert_eq!(parse_grid_line(&bytes), None);
        }
    }

    #[test]
    fn csv_fast_path_agrees_with_the_general_parser() {
        let puz =
            "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
        let sol =
            "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
        let layout = header_layout("quizzes,solutions");
        let row = format!("{puz},{sol}");
        let fast = parse_csv_pair(row.as_bytes(), &layout).unwrap();
        match parse_line(&row, Some(&layout), false) {
            Ok(Parsed::Puzzle {
                puzzle: Puzzle::Grid(p),
                expected: Some(e),
                meta,
            }) => assert_eq!((fast.0, fast.1, meta.as_str()), (p, e, "")),
            _ => panic!("general parser rejected {row}"),
        }
        let swapped = header_layout("solution,puzzle");
        assert_eq!(
            parse_csv_pair(format!("{sol},{puz}").as_bytes(), &swapped),
            Some(fast)
        );
        // Incomplete solution, bad character, wrong shape: left to the general path.
        assert_eq!(
            parse_csv_pair(format!("{puz},{puz}").as_bytes(), &layout),
            None
        );
        assert_eq!(
            parse_csv_pair(format!("{puz},x{}", &sol[1..]).as_bytes(), &layout),
            None
        );
        assert_eq!(
            parse_csv_pair(format!("{puz};{sol}").as_bytes(), &layout),
            None
        );
        assert_eq!(
            parse_csv_pair(row.as_bytes(), &header_layout("a,quizzes,solutions")),
            None
        );
    }

    fn puzzle_error(field: &str) -> String {
        match parse_puzzle(field) {
            Ok(p) => panic!("{field:?} parsed as {p}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn non_ascii_characters_are_counted_and_named() {
        let grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        // 81 characters, one of them two or three bytes long.
        for (ch, column) in [('é', 1), ('１', 40), ('\u{feff}', 81), ('é', 81)] {
            let mut chars: Vec<char> = grid.chars().collect();
            chars[column - 1] = ch;
            let field: String = chars.into_iter().collect();
            assert_eq!(
                puzzle_error(&field),
                format!(
                    "puzzle illegal character {ch:?} at column {column} (expected 1-9, '.' or '0')"
                )
            );
        }
        // An ASCII error before the non-ASCII one comes first.
        let field = format!("x{}é", &grid[2..]);
        assert_eq!(
            puzzle_error(&field),
            "puzzle illegal character 'x' at column 1 (expected 1-9, '.' or '0')"
        );
        // Lengths are in characters: 80 characters in 81 bytes, 82 in 83.
        assert_eq!(
            puzzle_error(&format!("é{}", &grid[2..])),
            "puzzle has 80 characters, no order has that many cells (n⁴): nearest are 16 (4x4) \
             and 81 (9x9); a 9x9 pencilmark line has 729"
        );
        assert_eq!(
            puzzle_error(&format!("é{grid}")),
            "puzzle has 82 characters, no order has that many cells (n⁴): nearest are 81 (9x9) \
             and 256 (16x16); a 9x9 pencilmark line has 729"
        );
    }

    #[test]
    fn pencilmark_errors_say_what_the_slot_may_hold() {
        let all = "123456789".repeat(81);
        let mut bytes = all.clone().into_bytes();
        bytes[5] = b'7';
        assert_eq!(
            puzzle_error(std::str::from_utf8(&bytes).unwrap()),
            "puzzle illegal character '7' at column 6 (expected '6', '.' or '0' in that slot)"
        );
        bytes[5] = b'x';
        assert_eq!(
            puzzle_error(std::str::from_utf8(&bytes).unwrap()),
            "puzzle illegal character 'x' at column 6 (expected '6', '.' or '0' in that slot)"
        );
        let wide: String = all
            .chars()
            .enumerate()
            .map(|(i, c)| if i == 700 { '８' } else { c })
            .collect();
        assert_eq!(
            puzzle_error(&wide),
            "puzzle illegal character '８' at column 701 (expected '8', '.' or '0' in that slot)"
        );
        // `0` and `.` both mark an eliminated candidate.
        let zeros = all.replace('5', "0");
        let dots = all.replace('5', ".");
        assert_eq!(parse_puzzle(&zeros), parse_puzzle(&dots));
        assert!(parse_puzzle(&zeros).is_ok());
    }

    #[test]
    fn quoted_fields_may_hold_commas_and_quotes() {
        let header = r#"id,"note, free text",quizzes,"solutions""#;
        assert!(looks_like_header(header));
        let layout = header_layout(header);
        assert_eq!(
            (layout.columns, layout.puzzle, layout.solution),
            (4, 2, Some(3))
        );
        let p = "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
        let s = "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
        let row = format!(r#"7,"a, ""quoted"" note",{p},"{s}""#);
        match parse_csv_row(&row, &layout) {
            Ok(Parsed::Puzzle {
                puzzle,
                expected,
                meta,
            }) => {
                assert_eq!(puzzle.to_string().replace('.', "0"), p);
                assert_eq!(expected.map(|g| g.to_string()), Some(s.to_string()));
                assert_eq!(meta, r#"7,a, "quoted" note"#);
            }
            Ok(Parsed::Header(_)) => panic!("a row read as a header"),
            Err(e) => panic!("{e:?}"),
        }
        // Split on every comma, the quoted note would make five fields.
        assert!(parse_csv_row(&row.replace("\"a, ", "a, \""), &layout).is_err());
    }

    #[test]
    fn header_detection() {
        assert!(looks_like_header("quizzes,solutions"));
        let l = header_layout("id,Solution,Puzzle,rating");
        assert_eq!(
            l,
            CsvLayout {
                columns: 4,
                puzzle: 2,
                solution: Some(1)
            }
        );
        let row = format!("{},{}", "0".repeat(81), "1".repeat(81));
        assert!(!looks_like_header(&row));
        // A malformed first row, or any two words, is no header: it is a record (an error).
        assert!(!looks_like_header("foo,bar"));
        assert!(!looks_like_header(&format!(
            "{},{}",
            "0".repeat(80),
            "1".repeat(81)
        )));
        assert!(!looks_like_header(&format!(
            "{},{}",
            "1".repeat(81),
            "x".repeat(81)
        )));
    }
}
