//! Knuth's format for exact-cover problems (the input of his DLX programs), read into an
//! [`Instance`].
//!
//! - The first line that is neither blank nor a comment names the items: the primary items,
//!   then optionally a `|` and the secondary items, separated by whitespace.
//! - Every further non-blank, non-comment line is one option: the names of its items. A
//!   secondary item may carry a colour, `name:colour`; primary items may not.
//! - Lines whose first non-blank character is `|` are comments. A comment
//!   `| count: N (source)` states the instance's known number of solutions and where that
//!   figure comes from; the reader keeps it as [`Instance::expected`].
//! - Names (of items and of colours) are 1 to [`MAX_NAME`] bytes of anything but whitespace,
//!   `:` and `|`.
//! - The file may be gzipped (recognised by its magic bytes).
//!
//! Every error names the file, the line and, where there is one, the item. A primary item that
//! no option contains is an error too: such an instance has no solution, and a file that says
//! so without meaning to is far more common than one that means it (a misspelt name), so the
//! reader refuses it rather than answering 0.

use flate2::bufread::MultiGzDecoder;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};

/// The longest item or colour name, in bytes.
pub const MAX_NAME: usize = 32;

/// The most items, options or option entries an instance may have (the DLX engine links
/// nodes with 32-bit indices).
pub const MAX_SIZE: usize = 1 << 30;

/// An exact-cover problem with colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Where it was read from (file name as given).
    pub source: String,
    /// Item names, primary items first.
    pub names: Vec<String>,
    /// How many of the items are primary (covered exactly once; the rest at most once).
    pub primary: usize,
    /// Colour names: colour `k ≥ 1` is `colours[k - 1]` (0 means no colour).
    pub colours: Vec<String>,
    /// Every option as (item, colour) pairs in the order of the file.
    pub options: Vec<Vec<(usize, u32)>>,
    /// The line of each option.
    pub option_lines: Vec<u64>,
    /// The count a `| count: N` comment states.
    pub expected: Option<u64>,
    /// The rest of that comment (its source).
    pub provenance: String,
}

/// What is wrong with an instance file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The file cannot be opened or read.
    #[error("cannot read: {0}")]
    Read(String),
    /// A line that is not UTF-8.
    #[error("not UTF-8")]
    Utf8,
    /// No line names the items.
    #[error("no item line: the first line that is not a comment must name the items")]
    NoItems,
    /// An option made of secondary items only (Knuth's programs skip such options with a
    /// warning: no search ever chooses one, since searches branch on primary items).
    #[error("the option has no primary item (no solution could contain it)")]
    NoPrimary,
    /// The item line has two `|` separators.
    #[error("a second `|` on the item line (it separates primary from secondary items once)")]
    SecondBar,
    /// An item declared twice on the item line.
    #[error("item {0} is declared twice")]
    Declared(String),
    /// An option names an item the item line does not.
    #[error("unknown item {0}")]
    UnknownItem(String),
    /// An option names the same item twice.
    #[error("item {0} appears twice in the option")]
    Repeated(String),
    /// A colour on a primary item.
    #[error("primary item {item} has colour {colour}: only secondary items take colours")]
    ColourOnPrimary {
        /// The item.
        item: String,
        /// The colour.
        colour: String,
    },
    /// A name with a forbidden character, empty or too long.
    #[error("bad name {name:?}: {why}")]
    BadName {
        /// The name as written.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// A primary item that no option contains.
    #[error("primary item {0} is in no option: the instance has no solution")]
    Uncovered(String),
    /// A malformed `| count:` comment, or a second one.
    #[error("bad count comment: {0}")]
    Count(String),
    /// More items, options or entries than the engines address.
    #[error("instance too large (at most {MAX_SIZE} items, options and entries)")]
    TooLarge,
}

/// An error in an instance file, with where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {kind}", at_line(*line))]
pub struct KnuthError {
    /// The file name as given.
    pub file: String,
    /// 1-based line (0 when the file could not be read at all).
    pub line: u64,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// `:LINE`, or nothing for an error of the whole file (line 0).
fn at_line(line: u64) -> String {
    match line {
        0 => String::new(),
        n => format!(":{n}"),
    }
}

/// Checks one name (an item's or a colour's).
fn check_name(name: &str) -> Result<(), ErrorKind> {
    let why = if name.is_empty() {
        "empty".to_string()
    } else if name.contains(':') {
        "names may not contain `:` (it separates an item from its colour)".to_string()
    } else if name.contains('|') {
        "names may not contain `|`".to_string()
    } else if name.len() > MAX_NAME {
        format!("{} bytes, names are at most {MAX_NAME}", name.len())
    } else {
        return Ok(());
    };
    Err(ErrorKind::BadName {
        name: name.to_string(),
        why,
    })
}

/// Whether `text` (the start of a file) looks like an instance in Knuth's format rather than
/// a puzzle file: its first line that is not blank nor a comment (`|` or `#`) has at least
/// two words, all valid names (or one `|`), not all of them numbers (a Sudoku row of
/// numbers), and the next such line is an option naming only those items.
pub fn looks_like(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with('|') && !t.starts_with('#'));
    let (Some(items), Some(option)) = (lines.next(), lines.next()) else {
        return false;
    };
    let words: Vec<&str> = items.split_ascii_whitespace().collect();
    let names: Vec<&str> = words.iter().copied().filter(|&w| w != "|").collect();
    let numeric = |w: &&str| w.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    words.len() >= 2
        && words.len() - names.len() <= 1
        && names.iter().all(|w| check_name(w).is_ok())
        && !names.iter().all(numeric)
        && option.split_ascii_whitespace().all(|w| {
            let name = w.split_once(':').map_or(w, |(n, _)| n);
            names.contains(&name)
        })
}

/// Reads a file (plain or gzip; `-`: standard input) whole into a byte buffer.
pub fn read_bytes(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        return read_all(std::io::stdin().lock());
    }
    read_all(BufReader::new(std::fs::File::open(path)?))
}

fn read_all(mut raw: impl BufRead) -> std::io::Result<Vec<u8>> {
    let gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let mut bytes = Vec::new();
    if gzip {
        MultiGzDecoder::new(raw).read_to_end(&mut bytes)?;
    } else {
        raw.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

impl Instance {
    /// Reads an instance file (plain or gzip).
    pub fn read_path(path: &str) -> Result<Instance, KnuthError> {
        let bytes = read_bytes(path).map_err(|e| KnuthError {
            file: path.to_string(),
            line: 0,
            kind: ErrorKind::Read(e.to_string()),
        })?;
        Instance::parse(path, &bytes)
    }

    /// Parses an instance from the bytes of a file named `source`.
    pub fn parse(source: &str, bytes: &[u8]) -> Result<Instance, KnuthError> {
        let err = |line: usize, kind| KnuthError {
            file: source.to_string(),
            line: line as u64 + 1,
            kind,
        };
        let mut inst = Instance {
            source: source.to_string(),
            names: Vec::new(),
            primary: 0,
            colours: Vec::new(),
            options: Vec::new(),
            option_lines: Vec::new(),
            expected: None,
            provenance: String::new(),
        };
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut colour_index: HashMap<String, u32> = HashMap::new();
        let mut item_line = None;
        let mut entries = 0usize;
        // Per item: the number (from 1) of the last option that named it.
        let mut last_option: Vec<usize> = Vec::new();
        // A UTF-8 byte-order mark at the very start (as some editors write) is skipped.
        let bytes = bytes.strip_prefix(crate::util::BOM).unwrap_or(bytes);
        for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let line = std::str::from_utf8(raw).map_err(|_| err(n, ErrorKind::Utf8))?;
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(comment) = t.strip_prefix('|') {
                if let Some(rest) = comment.trim_start().strip_prefix("count:") {
                    if inst.expected.is_some() {
                        return Err(err(n, ErrorKind::Count("a second count comment".into())));
                    }
                    let rest = rest.trim();
                    let (number, source) =
                        rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    let count = number.parse::<u64>().map_err(|_| {
                        err(n, ErrorKind::Count(format!("{number:?} is not a number")))
                    })?;
                    inst.expected = Some(count);
                    inst.provenance = source.trim().to_string();
                }
                continue;
            }
            if item_line.is_none() {
                item_line = Some(n);
                let mut secondary = false;
                for word in t.split_ascii_whitespace() {
                    if word == "|" {
                        if secondary {
                            return Err(err(n, ErrorKind::SecondBar));
                        }
                        secondary = true;
                        continue;
                    }
                    check_name(word).map_err(|k| err(n, k))?;
                    if index.contains_key(word) {
                        return Err(err(n, ErrorKind::Declared(word.to_string())));
                    }
                    if inst.names.len() >= MAX_SIZE {
                        return Err(err(n, ErrorKind::TooLarge));
                    }
                    index.insert(word.to_string(), inst.names.len());
                    inst.names.push(word.to_string());
                    if !secondary {
                        inst.primary += 1;
                    }
                }
                continue;
            }
            let mut option: Vec<(usize, u32)> = Vec::new();
            // Items are marked with the option's number as they come, so that a repeated one
            // is found in constant time (a scan of the option so far made reading quadratic in
            // its length: 6 s for 3,000 options of 3,000 items).
            let this_option = inst.options.len() + 1;
            if last_option.len() < inst.names.len() {
                last_option.resize(inst.names.len(), 0);
            }
            for word in t.split_ascii_whitespace() {
                let (name, colour) = match word.split_once(':') {
                    Some((name, colour)) => (name, Some(colour)),
                    None => (word, None),
                };
                check_name(name).map_err(|k| err(n, k))?;
                let &item = index
                    .get(name)
                    .ok_or_else(|| err(n, ErrorKind::UnknownItem(name.to_string())))?;
                if std::mem::replace(&mut last_option[item], this_option) == this_option {
                    return Err(err(n, ErrorKind::Repeated(name.to_string())));
                }
                let colour = match colour {
                    None => 0,
                    Some(c) => {
                        check_name(c).map_err(|k| err(n, k))?;
                        if item < inst.primary {
                            return Err(err(
                                n,
                                ErrorKind::ColourOnPrimary {
                                    item: name.to_string(),
                                    colour: c.to_string(),
                                },
                            ));
                        }
                        match colour_index.get(c) {
                            Some(&k) => k,
                            None => {
                                inst.colours.push(c.to_string());
                                let k = inst.colours.len() as u32;
                                colour_index.insert(c.to_string(), k);
                                k
                            }
                        }
                    }
                };
                option.push((item, colour));
            }
            if option.iter().all(|&(i, _)| i >= inst.primary) {
                return Err(err(n, ErrorKind::NoPrimary));
            }
            entries += option.len();
            if entries >= MAX_SIZE || inst.options.len() >= MAX_SIZE {
                return Err(err(n, ErrorKind::TooLarge));
            }
            inst.options.push(option);
            inst.option_lines.push(n as u64 + 1);
        }
        let Some(item_line) = item_line else {
            return Err(KnuthError {
                file: source.to_string(),
                // The last line of the file.
                line: (bytes.split(|&b| b == b'\n').count() - usize::from(bytes.ends_with(b"\n")))
                    .max(1) as u64,
                kind: ErrorKind::NoItems,
            });
        };
        let mut covered = vec![false; inst.primary];
        for o in &inst.options {
            for &(i, _) in o {
                if i < inst.primary {
                    covered[i] = true;
                }
            }
        }
        if let Some(i) = covered.iter().position(|&c| !c) {
            return Err(err(item_line, ErrorKind::Uncovered(inst.names[i].clone())));
        }
        Ok(inst)
    }

    /// Number of items.
    pub fn items(&self) -> usize {
        self.names.len()
    }

    /// An option as written in the file: its item names, with `:colour` where it has one.
    pub fn option_text(&self, option: usize) -> String {
        let mut s = String::new();
        for (k, &(item, colour)) in self.options[option].iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(&self.names[item]);
            if colour > 0 {
                s.push(':');
                s.push_str(&self.colours[colour as usize - 1]);
            }
        }
        s
    }

    /// A solution as one line: its options (increasing index) as written, separated by
    /// ` | ` (no name contains `|`).
    pub fn solution_text(&self, solution: &[usize]) -> String {
        let mut sorted = solution.to_vec();
        sorted.sort_unstable();
        let texts: Vec<String> = sorted.iter().map(|&o| self.option_text(o)).collect();
        texts.join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Instance, KnuthError> {
        Instance::parse("t.dlx", text.as_bytes())
    }

    fn kind(text: &str) -> (u64, ErrorKind) {
        let e = parse(text).unwrap_err();
        assert_eq!(e.file, "t.dlx");
        (e.line, e.kind)
    }

    #[test]
    fn reads_items_options_colours_comments_and_count() {
        let text = "| Knuth's example with colours\n\n| count: 1 (by hand)\n\
                    p q r | x y\np q x y:A\np r x:A y\n  | an indented comment\np x:B\nq x:A\nr y:B\n";
        let inst = parse(text).unwrap();
        assert_eq!(inst.names, ["p", "q", "r", "x", "y"]);
        assert_eq!(inst.primary, 3);
        assert_eq!(inst.colours, ["A", "B"]);
        assert_eq!(inst.options.len(), 5);
        assert_eq!(inst.options[0], vec![(0, 0), (1, 0), (3, 0), (4, 1)]);
        assert_eq!(inst.option_lines, vec![5, 6, 8, 9, 10]);
        assert_eq!(inst.expected, Some(1));
        assert_eq!(inst.provenance, "(by hand)");
        assert_eq!(inst.option_text(1), "p r x:A y");
        assert_eq!(inst.solution_text(&[4, 1]), "p r x:A y | r y:B");
    }

    #[test]
    fn crlf_and_no_secondary_items() {
        let inst = parse("a b\r\na\r\nb\r\n").unwrap();
        assert_eq!((inst.primary, inst.items(), inst.options.len()), (2, 2, 2));
    }

    #[test]
    fn every_error_names_its_line_and_item() {
        assert_eq!(kind("a b\na c\n"), (2, ErrorKind::UnknownItem("c".into())));
        assert_eq!(kind("a b\na b a\n"), (2, ErrorKind::Repeated("a".into())));
        // Items named by earlier options are no repeat; a repeat far into a line is.
        assert_eq!(
            kind("a b c\na b\nc a b\nb c a b\n"),
            (4, ErrorKind::Repeated("b".into()))
        );
        assert_eq!(
            kind("a | x\na x:1 x:2\n"),
            (2, ErrorKind::Repeated("x".into()))
        );
        assert_eq!(
            kind("a b\na:red b\n"),
            (
                2,
                ErrorKind::ColourOnPrimary {
                    item: "a".into(),
                    colour: "red".into()
                }
            )
        );
        assert_eq!(kind("| c\na b\na\n"), (2, ErrorKind::Uncovered("b".into())));
        assert_eq!(kind("| only comments\n\n"), (2, ErrorKind::NoItems));
        assert_eq!(kind(""), (1, ErrorKind::NoItems));
        assert_eq!(kind("| x y\n"), (1, ErrorKind::NoItems));
        assert_eq!(kind(" | x y\n"), (1, ErrorKind::NoItems));
        assert_eq!(kind("x | y | z\n"), (1, ErrorKind::SecondBar));
        assert_eq!(kind("a a\na\n"), (1, ErrorKind::Declared("a".into())));
        assert_eq!(kind("a | x\nx\na\n"), (2, ErrorKind::NoPrimary));
        let e = Instance::parse("t.dlx", b"a\n\xff\n").unwrap_err();
        assert_eq!((e.line, e.kind), (2, ErrorKind::Utf8));
        assert_eq!(
            kind("a | b\na\n| count: lots\n"),
            (3, ErrorKind::Count("\"lots\" is not a number".into()))
        );
        assert!(matches!(
            kind("a\n| count: 1\n| count: 2\na\n"),
            (3, ErrorKind::Count(_))
        ));
    }

    #[test]
    fn bad_names() {
        let long = "x".repeat(MAX_NAME + 1);
        for (text, line, name) in [
            ("a:b c\na\n", 1, "a:b"),
            ("a b|c\na\n", 1, "b|c"),
            (&format!("a {long}\na\n")[..], 1, &long[..]),
            ("a | x\na x:\n", 2, ""),
            ("a | x\na x:re|d\n", 2, "re|d"),
            ("a | x\na|b\n", 2, "a|b"),
        ] {
            let (l, k) = kind(text);
            assert_eq!(l, line, "{text:?}");
            match k {
                ErrorKind::BadName { name: n, why } => {
                    assert_eq!(n, name);
                    assert!(!why.is_empty());
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        let msg = parse(&format!("a {long}\na\n")).unwrap_err().to_string();
        assert!(msg.starts_with("t.dlx:1: bad name"), "{msg}");
        assert!(msg.contains("names are at most 32"), "{msg}");
        // Exactly the limit is fine.
        let ok = "y".repeat(MAX_NAME);
        assert!(parse(&format!("{ok}\n{ok}\n")).is_ok());
    }

    #[test]
    fn messages_name_file_line_and_item() {
        let e = parse("a b\na\n").unwrap_err().to_string();
        assert_eq!(
            e,
            "t.dlx:1: primary item b is in no option: the instance has no solution"
        );
        let e = parse("a b\na zz\n").unwrap_err().to_string();
        assert_eq!(e, "t.dlx:2: unknown item zz");
    }

    #[test]
    fn gzip_is_read() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.dlx.gz");
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"a b\na b\n").unwrap();
        std::fs::write(&path, z.finish().unwrap()).unwrap();
        let inst = Instance::read_path(path.to_str().unwrap()).unwrap();
        assert_eq!(inst.options, vec![vec![(0, 0), (1, 0)]]);
        let e = Instance::read_path("/nonexistent/x.dlx").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Read(_)));
    }

    #[test]
    fn content_detection() {
        assert!(looks_like("| c\na b | x\na x\n"));
        assert!(looks_like("a b\na\n"));
        assert!(!looks_like("# comment\n..3456789456789123789123456..4365897365897214897214365531642978642978531978531642\n"));
        assert!(!looks_like("quizzes,solutions\n"));
        assert!(!looks_like("1 0 0 2\n0 0 0 0\n"));
        assert!(looks_like("1 2 s0 s1\n1 s0\n"));
        assert!(!looks_like("a | b | c\na\n"));
        assert!(!looks_like("a b\n"), "no option line");
        assert!(!looks_like("\u{feff}# made on Windows\n12.4\n"));
        assert!(!looks_like("made on Windows\nsome text here\n"));
        assert!(looks_like("\u{feff}a b | x\na x:1\n"));
        let inst = Instance::parse("t.dlx", "\u{feff}a b\na b\n".as_bytes()).unwrap();
        assert_eq!(inst.names, ["a", "b"]);
    }
}
