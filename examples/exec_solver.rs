//! A small external solver speaking sudobench's line protocol, for `--backend 'exec:CMD'`.
//!
//! Reads `PUZZLE LIMIT` lines on stdin and answers `COUNT [SOLUTION] [GUESSES]` per line (see
//! `src/solver/exec.rs` for the protocol). Modes:
//! - default: a plain backtracker;
//! - `--table FILE`: answers from the expected solutions in FILE (e.g. the Kaggle CSV), with
//!   no solving at all, to measure the harness's own overhead per puzzle;
//! - `--wrong N`: like the default, but corrupts the answer to every N-th puzzle (swaps two
//!   digits), to show that sudobench flags a lying solver.
//!
//! Run: `cargo build --release --example exec_solver`, then
//! `sudobench solve --backend 'exec:target/release/examples/exec_solver' FILE`.

use std::collections::HashMap;
use std::io::{self, BufRead, BufWriter, Write};

/// Backtracking over digit masks per row, column and box; counts up to `limit`.
fn count(
    cells: &mut [u8; 81],
    used: &mut [[u16; 9]; 3],
    limit: u32,
    first: &mut Option<[u8; 81]>,
    guesses: &mut u64,
) -> u32 {
    let mut best: Option<(usize, u16)> = None;
    for (i, &cell) in cells.iter().enumerate() {
        if cell != 0 {
            continue;
        }
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        let free = !(used[0][r] | used[1][c] | used[2][b]) & 0x1ff;
        if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
            best = Some((i, free));
        }
    }
    let Some((i, free)) = best else {
        first.get_or_insert(*cells);
        return 1;
    };
    let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
    let mut found = 0;
    for d in 0..9 {
        let bit = 1u16 << d;
        if free & bit == 0 {
            continue;
        }
        if free.count_ones() > 1 {
            *guesses += 1;
        }
        cells[i] = d as u8 + 1;
        used[0][r] |= bit;
        used[1][c] |= bit;
        used[2][b] |= bit;
        found += count(cells, used, limit - found, first, guesses);
        used[0][r] ^= bit;
        used[1][c] ^= bit;
        used[2][b] ^= bit;
        cells[i] = 0;
        if found >= limit {
            break;
        }
    }
    found
}

fn solve(puzzle: &str, limit: u32) -> String {
    let bytes = puzzle.as_bytes();
    if bytes.len() != 81 {
        return "unknown".to_string();
    }
    let mut cells = [0u8; 81];
    let mut used = [[0u16; 9]; 3];
    for i in 0..81 {
        let d = match bytes[i] {
            b'1'..=b'9' => bytes[i] - b'0',
            _ => 0,
        };
        if d == 0 {
            continue;
        }
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        let bit = 1u16 << (d - 1);
        if (used[0][r] | used[1][c] | used[2][b]) & bit != 0 {
            return "0".to_string();
        }
        used[0][r] |= bit;
        used[1][c] |= bit;
        used[2][b] |= bit;
        cells[i] = d;
    }
    let (mut first, mut guesses) = (None, 0);
    let n = count(
        &mut cells,
        &mut used,
        limit.max(1),
        &mut first,
        &mut guesses,
    );
    match first {
        Some(grid) => {
            let text: String = grid.iter().map(|&d| char::from(b'0' + d)).collect();
            format!("{n} {text} {guesses}")
        }
        None => format!("0 {guesses}"),
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut table = HashMap::new();
    let mut wrong_every = 0usize;
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => {}
        ["--table", file] => {
            for record in sudobench::format::Reader::open(file)
                .map_err(io::Error::other)?
                .flatten()
            {
                if let (sudobench::Puzzle::Grid(p), Some(s)) = (record.puzzle, record.expected) {
                    table.insert(p.to_string(), s.to_string());
                }
            }
        }
        ["--wrong", n] => wrong_every = n.parse().map_err(io::Error::other)?,
        _ => {
            eprintln!("usage: exec_solver [--table FILE | --wrong N]");
            std::process::exit(2);
        }
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let mut n = 0usize;
    for line in io::stdin().lock().lines() {
        let line = line?;
        let mut words = line.split_whitespace();
        let puzzle = words.next().unwrap_or("");
        let limit = words.next().and_then(|w| w.parse().ok()).unwrap_or(1);
        n += 1;
        let mut answer = if table.is_empty() {
            solve(puzzle, limit)
        } else {
            match table.get(puzzle) {
                Some(s) => format!("1 {s} 0"),
                None => "unknown".to_string(),
            }
        };
        if wrong_every > 0 && n.is_multiple_of(wrong_every) {
            // Swap the first two digits of the solution: still 81 digits, no longer valid.
            if let Some(start) = answer.find(' ') {
                let mut bytes = answer.into_bytes();
                if bytes.len() > start + 2 {
                    bytes.swap(start + 1, start + 2);
                }
                answer = String::from_utf8(bytes).unwrap_or_default();
            }
        }
        writeln!(out, "{answer}")?;
        // Answer before reading on: sudobench waits for this line.
        out.flush()?;
    }
    out.flush()
}
