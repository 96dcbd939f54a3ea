//! `sudobench solve --no-guess`: deduction only. For every record the logical closure of the
//! `logic` backend (or `logic-lc`, which adds locked candidates) is printed instead of a
//! solution: the grid of decided cells (`.` where deduction stalled; `0` in the numbers
//! format of 36×36 and up), or for 9×9 with `--pencilmarks` the 729-character line of
//! remaining candidates. Other backends have no
//! closure to stop at, so asking them is a usage error. Runs on the library's pipeline, so
//! `--threads` and interactive input work as for `solve`.

use super::args::BackendArgs;
use super::output::Output;
use anyhow::{bail, Result};
use std::time::Instant;
use sudobench::backends;
use sudobench::format::Record;
use sudobench::format::{Item, Reader};
use sudobench::order::OrderGrid;
use sudobench::puzzle::Puzzle;
use sudobench::runner::pipeline::{run_ordered, Sink, Stage};
use sudobench::solver::logic::{closure, orders, LogicConfig};
use sudobench::verify;

/// How one record ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Solved,
    Partial,
    Failed,
}

/// Computes the closures of a batch on a worker thread.
struct Closures {
    config: LogicConfig,
    pencilmarks: bool,
}

impl Stage for Closures {
    type Output = Vec<(String, End)>;

    fn process(&mut self, items: &[Item]) -> Vec<(String, End)> {
        items.iter().map(|item| self.line(item)).collect()
    }
}

impl Closures {
    fn line(&self, item: &Item) -> (String, End) {
        let record = match item {
            Err(e) => return (format!("error: {e}"), End::Failed),
            Ok(record) => record,
        };
        let Some(start) = record.puzzle.candidates() else {
            return match &record.puzzle {
                Puzzle::Order(grid) if !self.pencilmarks => self.order_line(record, grid),
                _ => (
                    format!(
                        "error: {}:{}: --pencilmarks takes 9x9 puzzles (the 729-character line)",
                        record.source, record.line
                    ),
                    End::Failed,
                ),
            };
        };
        let c = closure(&start, self.config);
        let shown = |c: &sudobench::solver::logic::Closure| match self.pencilmarks {
            true => c.candidates.to_line(),
            false => c.grid().to_line(),
        };
        if c.contradiction {
            return ("no solution".to_string(), End::Failed);
        }
        if !c.is_solved() {
            return (shown(&c), End::Partial);
        }
        let grid = c.grid();
        match verify::check_puzzle(&record.puzzle, &grid) {
            Ok(()) => (shown(&c), End::Solved),
            Err(e) => (
                format!(
                    "error: {}:{}: closure gave an invalid grid {grid}: {e}",
                    record.source, record.line
                ),
                End::Failed,
            ),
        }
    }
}

impl Closures {
    /// The closure of a grid of another order: the decided cells in the grid's own format
    /// (`.` or `0` where deduction stalled).
    fn order_line(&self, record: &Record, grid: &OrderGrid) -> (String, End) {
        let c = orders::closure(grid, self.config);
        if c.contradiction {
            return ("no solution".to_string(), End::Failed);
        }
        let shown = c.grid();
        if !c.is_solved() {
            return (shown.to_line(), End::Partial);
        }
        match sudobench::order::check::check(grid, &shown) {
            Ok(()) => (shown.to_line(), End::Solved),
            Err(e) => (
                format!(
                    "error: {}:{}: closure gave an invalid grid {shown}: {e}",
                    record.source, record.line
                ),
                End::Failed,
            ),
        }
    }
}

/// Prints the lines in input order and counts how records ended.
struct Printer {
    out: Output,
    counts: [u64; 3],
}

impl Printer {
    fn emit(&mut self, line: &str, end: End) {
        self.counts[end as usize] += 1;
        self.out.line(line);
    }
}

impl Sink<Item, Vec<(String, End)>> for Printer {
    fn deliver(&mut self, _: Vec<Item>, lines: Vec<(String, End)>) -> bool {
        for (line, end) in lines {
            self.emit(&line, end);
        }
        self.out.is_open()
    }

    fn idle(&mut self) {
        self.out.flush();
    }
}

/// Prints the closure of every input record; returns whether every record was read and has
/// no contradiction.
pub fn run(args: &BackendArgs, files: &[String], pencilmarks: bool, threads: u16) -> Result<bool> {
    let Some(config) = backends::info(args.name()).and_then(|b| b.closure) else {
        bail!(
            "--no-guess needs --backend logic or logic-lc, not {}",
            args.name()
        );
    };
    let start = Instant::now();
    let mut printer = Printer {
        out: Output::stdout(),
        counts: [0; 3],
    };
    let mut stages: Vec<Closures> = (0..threads.max(1))
        .map(|_| Closures {
            config,
            pencilmarks,
        })
        .collect();
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    for file in files {
        match Reader::open(file) {
            Ok(mut reader) => {
                run_ordered(&mut reader, &mut stages, 256, &mut printer);
            }
            Err(e) => printer.emit(&format!("error: {e}"), End::Failed),
        }
        if !printer.out.is_open() {
            break;
        }
    }
    let [solved, partial, failed] = printer.counts;
    printer.out.finish()?;
    eprintln!(
        "sudobench: {} records: {solved} solved by deduction, {partial} partial, \
         {failed} without solution or malformed ({:.3} s, backend {}, no guessing)",
        solved + partial + failed,
        start.elapsed().as_secs_f64(),
        args.name()
    );
    Ok(failed == 0)
}
