//! Generators of the classic exact-cover families, written in Knuth's format with a
//! `| count: N (source)` comment wherever the number of solutions is known.
//!
//! Conventions: every count counts *all* solutions, with no symmetry broken (mirror images
//! and rotations are different solutions), because that is what a plain exact-cover search
//! finds.
//!
//! - `queens N`: N queens on an N×N board; rows and columns primary, the 2N−1 diagonals and
//!   2N−1 anti-diagonals secondary. Counts for N ≤ 15 from OEIS A000170.
//! - `langford N`: Langford pairs: two copies of each of 1..N in 2N slots, the copies of k
//!   with k slots between them; values and slots primary. Counts (both mirror images) are
//!   twice OEIS A014552, for N ≤ 12; 0 whenever N ≡ 1 or 2 (mod 4) (Davies 1959: parity).
//! - `pentominoes R C` (R·C = 60, both ≥ 3): the 12 pentominoes packed into an R×C box;
//!   pieces and cells primary. Counts are the classic ones up to symmetry times 4, the
//!   rectangle's symmetries (6×10: 2339, 5×12: 1010, 4×15: 368, 3×20: 2; Haselgrove 1960).
//! - `sudoku PUZZLE`: a Sudoku of any order 2–5 as a character line (81 characters for 9×9,
//!   256 for 16×16, `.` or `0` empty); cells, row–digit, column–digit and box–digit primary.
//!   The count is the `wide` backend's (a different solver: bit masks, no exact cover).
//! - `hard-squares M [N]` (XCC, with colours): M×N 0/1 matrices with no two 1s adjacent in a
//!   row or column; one primary item per row and per column, each choosing a word with no
//!   two adjacent 1s, the cells secondary items coloured `0`/`1` so that row and column words
//!   agree. The count is the number of independent sets of the M×N grid graph (OEIS A006506
//!   for squares), computed here by a transfer matrix over rows, independently of any
//!   exact-cover search.

use crate::order::format::{parse_chars, symbol};
use std::fmt::Write;

/// The families, with their arguments.
pub const FAMILIES: &[(&str, &str)] = &[
    ("queens", "N"),
    ("langford", "N"),
    ("pentominoes", "ROWS COLS"),
    ("sudoku", "PUZZLE"),
    ("hard-squares", "M [N]"),
];

/// Instance text under construction.
struct Text {
    out: String,
}

impl Text {
    fn new(title: &str, count: Option<(u128, String)>) -> Text {
        let mut out = format!("| sudobench xc {title}\n");
        if let Some((n, source)) = count {
            let _ = writeln!(out, "| count: {n} ({source})");
        }
        Text { out }
    }

    fn items(&mut self, primary: &[String], secondary: &[String]) {
        self.out.push_str(&primary.join(" "));
        if !secondary.is_empty() {
            self.out.push_str(" | ");
            self.out.push_str(&secondary.join(" "));
        }
        self.out.push('\n');
    }

    fn option(&mut self, words: &[String]) {
        self.out.push_str(&words.join(" "));
        self.out.push('\n');
    }
}

fn number(args: &[String], k: usize, what: &str) -> Result<usize, String> {
    let s = args
        .get(k)
        .ok_or_else(|| format!("missing argument {what}"))?;
    s.parse::<usize>()
        .map_err(|_| format!("{what} must be a whole number, not {s:?}"))
}

/// Writes family `family` with `args` as an instance in Knuth's format.
pub fn generate(family: &str, args: &[String]) -> Result<String, String> {
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "{family} takes {n} argument(s), got {}",
                args.len()
            ))
        }
    };
    // The one argument N, if it is in `range` (else the error `why`).
    let only_n = |range: std::ops::RangeInclusive<usize>, why: &str| {
        want(1)?;
        let n = number(args, 0, "N")?;
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(why.to_string())
        }
    };
    match family {
        "queens" => Ok(queens(only_n(1..=64, "N must be 1 to 64")?)),
        "langford" => Ok(langford(only_n(
            2..=64,
            "N must be 2 to 64 (N = 1 leaves value 1 no place)",
        )?)),
        "pentominoes" => {
            want(2)?;
            let (r, c) = (number(args, 0, "ROWS")?, number(args, 1, "COLS")?);
            if r * c != 60 || r < 3 || c < 3 {
                return Err("ROWS x COLS must be 60 with both at least 3 (3x20 to 20x3)".into());
            }
            Ok(pentominoes(r, c))
        }
        "sudoku" => {
            want(1)?;
            sudoku(&args[0])
        }
        "hard-squares" => {
            if args.is_empty() || args.len() > 2 {
                return Err("hard-squares takes M and optionally N".into());
            }
            let m = number(args, 0, "M")?;
            let n = if args.len() == 2 {
                number(args, 1, "N")?
            } else {
                m
            };
            // A row of width 16 has F(18) = 4181 words: 134,000 options at 16x16.
            if !(1..=16).contains(&m) || !(1..=16).contains(&n) {
                return Err("M and N must be 1 to 16".into());
            }
            Ok(hard_squares(m, n))
        }
        _ => Err(format!(
            "unknown family {family:?}; families: {}",
            FAMILIES
                .iter()
                .map(|(f, a)| format!("{f} {a}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// OEIS A000170, N = 1..=15.
const QUEENS: [u128; 15] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
];

/// N queens.
pub fn queens(n: usize) -> String {
    let count = QUEENS.get(n - 1).map(|&c| (c, "OEIS A000170".to_string()));
    let mut t = Text::new(&format!("queens {n}: {n} queens on a {n}x{n} board"), count);
    let primary: Vec<String> = (0..n)
        .map(|r| format!("r{r}"))
        .chain((0..n).map(|c| format!("c{c}")))
        .collect();
    let secondary: Vec<String> = (0..2 * n - 1)
        .map(|d| format!("a{d}"))
        .chain((0..2 * n - 1).map(|d| format!("b{d}")))
        .collect();
    t.items(&primary, &secondary);
    for r in 0..n {
        for c in 0..n {
            t.option(&[
                format!("r{r}"),
                format!("c{c}"),
                format!("a{}", r + c),
                format!("b{}", r + n - 1 - c),
            ]);
        }
    }
    t.out
}

/// OEIS A014552 (up to mirror image), N = 1..=12.
const LANGFORD: [u128; 12] = [0, 0, 1, 1, 0, 0, 26, 150, 0, 0, 17792, 108144];

/// Langford pairs of 1..N.
pub fn langford(n: usize) -> String {
    let count = if n % 4 == 1 || n % 4 == 2 {
        Some((0, "parity: none when N = 1 or 2 mod 4".to_string()))
    } else {
        LANGFORD
            .get(n - 1)
            .map(|&c| (2 * c, "twice OEIS A014552: both mirror images".to_string()))
    };
    let mut t = Text::new(
        &format!("langford {n}: Langford pairs of 1..{n} in {} slots", 2 * n),
        count,
    );
    let primary: Vec<String> = (1..=n)
        .map(|k| k.to_string())
        .chain((0..2 * n).map(|s| format!("s{s}")))
        .collect();
    t.items(&primary, &[]);
    for k in 1..=n {
        for i in 0..2 * n {
            let j = i + k + 1;
            if j < 2 * n {
                t.option(&[k.to_string(), format!("s{i}"), format!("s{j}")]);
            }
        }
    }
    t.out
}

/// The twelve pentominoes (Conway's letters), as (row, column) cells.
pub const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each shifted to the
/// origin and sorted.
pub fn orientations(cells: &[(i32, i32); 5]) -> Vec<[(i32, i32); 5]> {
    let mut out: Vec<[(i32, i32); 5]> = Vec::new();
    for k in 0..8 {
        let mut v = cells.map(|(r, c)| {
            let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
            let r = if k & 1 != 0 { -r } else { r };
            let c = if k & 2 != 0 { -c } else { c };
            (r, c)
        });
        let r0 = v.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = v.iter().map(|p| p.1).min().unwrap_or(0);
        v.iter_mut().for_each(|p| *p = (p.0 - r0, p.1 - c0));
        v.sort_unstable();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// A base-36 digit.
fn digit36(x: usize) -> char {
    char::from_digit(x as u32, 36).unwrap_or('?')
}

/// The 12 pentominoes in a rows × cols box (rows · cols = 60).
pub fn pentominoes(rows: usize, cols: usize) -> String {
    let known = match (rows.min(cols), rows.max(cols)) {
        (6, 10) => Some(2339),
        (5, 12) => Some(1010),
        (4, 15) => Some(368),
        (3, 20) => Some(2),
        _ => None,
    };
    let count = known.map(|k: u128| {
        (
            4 * k,
            format!("{k} up to symmetry times 4; Haselgrove 1960"),
        )
    });
    let mut t = Text::new(
        &format!("pentominoes {rows} {cols}: the 12 pentominoes in a {rows}x{cols} box"),
        count,
    );
    let cell = |r: usize, c: usize| format!("{}{}", digit36(r), digit36(c));
    let primary: Vec<String> = PENTOMINOES
        .iter()
        .map(|(p, _)| p.to_string())
        .chain(
            (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .map(|(r, c)| cell(r, c)),
        )
        .collect();
    t.items(&primary, &[]);
    for (name, shape) in &PENTOMINOES {
        for o in orientations(shape) {
            let h = o.iter().map(|p| p.0).max().unwrap_or(0) as usize + 1;
            let w = o.iter().map(|p| p.1).max().unwrap_or(0) as usize + 1;
            for r in 0..=rows.saturating_sub(h) {
                for c in 0..=cols.saturating_sub(w) {
                    if h > rows || w > cols {
                        continue;
                    }
                    let mut words = vec![name.to_string()];
                    words.extend(
                        o.iter()
                            .map(|&(dr, dc)| cell(r + dr as usize, c + dc as usize)),
                    );
                    t.option(&words);
                }
            }
        }
    }
    t.out
}

/// A Sudoku puzzle (any order 2–5, as a character line) as exact cover.
pub fn sudoku(puzzle: &str) -> Result<String, String> {
    let grid = parse_chars(puzzle.trim()).map_err(|e| format!("puzzle: {e}"))?;
    let order = grid.order();
    let (n, side) = (order.n(), order.side());
    // The count, from the exact-cover engine on the grid reduced by its clues (up to 1,000
    // solutions within 10 million nodes; otherwise no count is stated).
    let found = match crate::xc::order::reduce(&grid) {
        crate::xc::order::Reduced::Contradiction => Some(0),
        crate::xc::order::Reduced::Cover { instance, .. } => {
            let limit = crate::xc::Limit::AtMost(1000);
            crate::xc::run("dlx", &instance, limit, Some(10_000_000), 0, &mut |_| {})
                .filter(|f| f.complete && !f.limited(limit))
                .map(|f| f.count)
        }
    };
    let count = found.map(|n| {
        (
            u128::from(n),
            "sudobench dlx on the reduced grid".to_string(),
        )
    });
    let mut t = Text::new(
        &format!(
            "sudoku {}: a {side}x{side} Sudoku as exact cover",
            grid.to_line()
        ),
        count,
    );
    let d36 = digit36;
    let sym = |v: usize| symbol(v as u8);
    let mut primary = Vec::new();
    for a in 0..side {
        for b in 0..side {
            primary.push(format!("p{}{}", d36(a), d36(b)));
        }
    }
    for kind in ['r', 'c', 'b'] {
        for a in 0..side {
            for v in 1..=side {
                primary.push(format!("{kind}{}{}", d36(a), sym(v)));
            }
        }
    }
    t.items(&primary, &[]);
    for r in 0..side {
        for c in 0..side {
            let given = grid.get(r * side + c) as usize;
            let b = (r / n) * n + c / n;
            for v in 1..=side {
                if given != 0 && given != v {
                    continue;
                }
                t.option(&[
                    format!("p{}{}", d36(r), d36(c)),
                    format!("r{}{}", d36(r), sym(v)),
                    format!("c{}{}", d36(c), sym(v)),
                    format!("b{}{}", d36(b), sym(v)),
                ]);
            }
        }
    }
    Ok(t.out)
}

/// The words of length `n` with no two adjacent 1s, as bit masks (bit k: position k).
fn fibonacci_words(n: usize) -> Vec<u32> {
    (0..1u32 << n).filter(|w| w & (w >> 1) == 0).collect()
}

/// Independent sets of the m×n grid graph, by a transfer matrix over rows of width
/// min(m, n) (`None` beyond u128, or for widths above 16).
pub fn hard_squares_count(m: usize, n: usize) -> Option<u128> {
    let (rows, width) = (m.max(n), m.min(n));
    if width > 16 {
        return None;
    }
    let words = fibonacci_words(width);
    let mut ways: Vec<u128> = vec![1; words.len()];
    for _ in 1..rows {
        let mut next = vec![0u128; words.len()];
        for (a, &wa) in words.iter().enumerate() {
            for (b, &wb) in words.iter().enumerate() {
                if wa & wb == 0 {
                    next[b] = next[b].checked_add(ways[a])?;
                }
            }
        }
        ways = next;
    }
    ways.iter().try_fold(0u128, |s, &w| s.checked_add(w))
}

/// M×N hard squares as exact cover with colours.
pub fn hard_squares(m: usize, n: usize) -> String {
    let count = hard_squares_count(m, n).map(|c| {
        let source = if m == n {
            "OEIS A006506; transfer matrix"
        } else {
            "transfer matrix"
        };
        (c, source.to_string())
    });
    let mut t = Text::new(
        &format!("hard-squares {m} {n}: {m}x{n} 0/1 matrices, no two 1s adjacent"),
        count,
    );
    let primary: Vec<String> = (0..m)
        .map(|r| format!("R{r}"))
        .chain((0..n).map(|c| format!("C{c}")))
        .collect();
    let cell = |r: usize, c: usize| format!("r{r}c{c}");
    let secondary: Vec<String> = (0..m)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| cell(r, c))
        .collect();
    t.items(&primary, &secondary);
    for r in 0..m {
        for w in fibonacci_words(n) {
            let mut words = vec![format!("R{r}")];
            words.extend((0..n).map(|c| format!("{}:{}", cell(r, c), (w >> c) & 1)));
            t.option(&words);
        }
    }
    for c in 0..n {
        for w in fibonacci_words(m) {
            let mut words = vec![format!("C{c}")];
            words.extend((0..m).map(|r| format!("{}:{}", cell(r, c), (w >> r) & 1)));
            t.option(&words);
        }
    }
    t.out
}
