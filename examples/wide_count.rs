//! Counts (to 2) every grid of the given files with `wide`, outside the runner: no clock, no
//! threads, so that `valgrind --tool=callgrind` can count the search's instructions alone.
//!
//! ```text
//! cargo build --release --example wide_count
//! valgrind --tool=callgrind target/release/examples/wide_count FILE...
//! ```
//!
//! Prints per file the puzzles, the solutions found (to 2 each) and the guesses.

use sudobench::order::format::parse_line;
use sudobench::solver::wide::Wide;

fn main() {
    let mut wide = Wide::default();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (mut puzzles, mut solutions, mut guesses) = (0u64, 0u64, 0u64);
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let grid = parse_line(line).unwrap_or_else(|e| panic!("{path}: {e}"));
            let found = wide.solve(&grid, 2);
            puzzles += 1;
            solutions += u64::from(found.count);
            guesses += found.guesses;
        }
        println!("{path}: {puzzles} puzzles, {solutions} solutions, {guesses} guesses");
    }
}
