//! `sudobench solve --no-guess`: deduction only. For every record the logical closure of the
//! `logic` backend (or `logic-lc`, which adds locked candidates) is printed instead of a
//! solution: the 81-character grid of decided cells (`.` where deduction stalled), or with
//! `--pencilmarks` the 729-character line of remaining candidates. Other backends have no
//! closure to stop at, so asking them is a usage error.

use super::input::inputs;
use super::BackendArgs;
use anyhow::{bail, Result};
use std::io::{self, BufWriter, Write};
use std::time::Instant;
use sudobench::solver::logic::{closure, LogicConfig};
use sudobench::verify;

/// Prints the closure of every input record; returns whether every record was read and has
/// no contradiction.
pub fn run(args: &BackendArgs, files: &[String], pencilmarks: bool) -> Result<bool> {
    let config = match args.backend.as_str() {
        "logic" => LogicConfig::PLAIN,
        "logic-lc" => LogicConfig::LOCKED,
        other => bail!("--no-guess needs --backend logic or logic-lc, not {other}"),
    };
    let start = Instant::now();
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    let (mut records, mut solved, mut partial, mut failed) = (0u64, 0u64, 0u64, 0u64);
    let mut inputs = inputs(files);
    while let Some(input) = inputs.next() {
        records += 1;
        let line = match input {
            Err(e) => {
                failed += 1;
                format!("error: {e}")
            }
            Ok(record) => {
                let c = closure(&record.puzzle.candidates(), config);
                if c.contradiction {
                    failed += 1;
                    "no solution".to_string()
                } else if c.is_solved() {
                    let grid = c.grid();
                    if let Err(e) = verify::check_puzzle(&record.puzzle, &grid) {
                        failed += 1;
                        format!(
                            "error: {}:{}: closure gave an invalid grid {grid}: {e}",
                            record.source, record.line
                        )
                    } else {
                        solved += 1;
                        if pencilmarks {
                            c.candidates.to_line()
                        } else {
                            grid.to_line()
                        }
                    }
                } else {
                    partial += 1;
                    if pencilmarks {
                        c.candidates.to_line()
                    } else {
                        c.grid().to_line()
                    }
                }
            }
        };
        // Answer what has come before waiting for more input.
        let written = writeln!(out, "{line}").and_then(|()| match inputs.ready() {
            true => Ok(()),
            false => out.flush(),
        });
        if let Err(e) = written {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(failed == 0);
            }
            return Err(e.into());
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    eprintln!(
        "sudobench: {records} records: {solved} solved by deduction, {partial} partial, \
         {failed} without solution or malformed ({:.3} s, backend {}, no guessing)",
        start.elapsed().as_secs_f64(),
        args.backend
    );
    Ok(failed == 0)
}
