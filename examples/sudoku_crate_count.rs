//! The `sudoku` crate (a JCZSolve port, dev-dependency only) as a whole program, for timing
//! `sudobench count` against it process to process: reads puzzle files with sudobench's own
//! reader (so both sides pay the same gunzip and parse), counts each puzzle's solutions up to
//! 2 and prints one count per puzzle (`0`, `1` or `2+`), as `sudobench count` does.
//!
//! ```text
//! cargo build --release --example sudoku_crate_count
//! time target/release/examples/sudoku_crate_count FILE... > /dev/null
//! time target/release/sudobench count --backend bitmask FILE... > /dev/null
//! ```

use std::io::{self, BufWriter, Write};

use sudobench::format::Reader;
use sudobench::puzzle::Puzzle;

fn main() -> anyhow::Result<()> {
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    let (mut puzzles, mut unique) = (0u64, 0u64);
    for file in std::env::args().skip(1) {
        for rec in Reader::open(&file)? {
            let Puzzle::Grid(grid) = rec?.puzzle else {
                anyhow::bail!("{file}: pencilmark puzzles are not for the sudoku crate");
            };
            let sudoku = sudoku::Sudoku::from_bytes_slice(grid.cells())
                .map_err(|_| anyhow::anyhow!("{file}: the sudoku crate rejected a puzzle"))?;
            let n = sudoku.solutions_count_up_to(2);
            puzzles += 1;
            unique += (n == 1) as u64;
            writeln!(out, "{}", ["0", "1", "2+"][n.min(2)])?;
        }
    }
    out.flush()?;
    eprintln!("{puzzles} puzzles, {unique} unique");
    Ok(())
}
