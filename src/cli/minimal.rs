//! `verify --minimal`: which clues of a unique puzzle are not needed.
//!
//! The smaller puzzles (the puzzle with one clue removed, one per clue) go through the same
//! runner as the puzzles themselves: [`WithSmaller`] sends them right after their puzzle, with
//! its source and line, so they are solved on the worker threads and judged like any puzzle
//! (cross-checked, an outside backend's counts checked by the referee). [`Pending`] collects
//! what the judge accepted for them, in input order, and decides.

use std::collections::VecDeque;
use sudobench::format::{Item, Reader, Record};
use sudobench::puzzle::Puzzle;
use sudobench::runner::Source;
use sudobench::solver::Count;

/// A source that follows every clue grid with its smaller puzzles. They are sent for every
/// grid, since whether it is unique is known only once it is judged; the observer ignores
/// those of a puzzle that is not.
pub struct WithSmaller {
    inner: Reader,
    queue: VecDeque<Item>,
}

impl WithSmaller {
    /// Wraps a reader.
    pub fn new(inner: Reader) -> WithSmaller {
        WithSmaller {
            inner,
            queue: VecDeque::new(),
        }
    }
}

impl Iterator for WithSmaller {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if let Some(item) = self.queue.pop_front() {
            return Some(item);
        }
        let item = self.inner.next()?;
        if let Ok(record) = &item {
            if let Puzzle::Grid(grid) = &record.puzzle {
                for cell in (0..81).filter(|&c| grid.get(c) != 0) {
                    let mut smaller = *grid;
                    smaller.set(cell, 0);
                    self.queue.push_back(Ok(Record {
                        puzzle: Puzzle::Grid(smaller),
                        meta: String::new(),
                        ..record.clone()
                    }));
                }
            }
        }
        Some(item)
    }
}

impl Source for WithSmaller {
    fn ready(&self) -> bool {
        !self.queue.is_empty() || self.inner.line_ready()
    }
}

/// A unique puzzle whose smaller puzzles are being collected.
pub struct Pending {
    record: Record,
    /// Clues not yet answered for.
    left: usize,
    redundant: Vec<usize>,
    undecided: Vec<usize>,
}

/// What the smaller puzzles showed.
pub enum Verdict {
    /// Every smaller puzzle has two or more solutions.
    Minimal,
    /// Some clue is not needed: the message names them.
    NotMinimal(String),
    /// Some smaller puzzle's count was not settled.
    Undecided(String),
}

impl Pending {
    /// Starts collecting for a puzzle the judge accepted as unique; `None` for one with no
    /// smaller puzzles to wait for (a pencilmark puzzle, reported at once by
    /// [`Pending::verdict`] callers as an error line).
    pub fn start(record: &Record) -> Option<Pending> {
        let Puzzle::Grid(grid) = &record.puzzle else {
            let why = match &record.puzzle {
                Puzzle::Order(g) => format!("--minimal checks 9x9 clue grids; this one is {}", g.order()),
                _ => "a pencilmark puzzle has no clues to be minimal about (--minimal checks clue grids)".to_string(),
            };
            eprintln!("error: {}:{}: {why}", record.source, record.line);
            return None;
        };
        Some(Pending {
            record: record.clone(),
            left: grid.clue_count(),
            redundant: Vec::new(),
            undecided: Vec::new(),
        })
    }

    /// Whether `record` is one of this puzzle's smaller puzzles.
    pub fn is_smaller(&self, record: &Record) -> bool {
        record.line == self.record.line
            && record.source == self.record.source
            && record.puzzle != self.record.puzzle
    }

    /// The count the judge accepted for one smaller puzzle (`None`: no answer stood).
    pub fn smaller(&mut self, record: &Record, count: Option<Count>) {
        let (Puzzle::Grid(grid), Puzzle::Grid(smaller)) = (&self.record.puzzle, &record.puzzle)
        else {
            return;
        };
        let Some(cell) = (0..81).find(|&c| grid.get(c) != smaller.get(c)) else {
            return;
        };
        self.left = self.left.saturating_sub(1);
        match count {
            Some(Count::Exactly(1)) => self.redundant.push(cell),
            Some(Count::Exactly(n) | Count::AtLeast(n)) if n >= 2 => {}
            // No solution for a smaller puzzle of a unique one cannot be: undecided too.
            _ => self.undecided.push(cell),
        }
    }

    /// The verdict once every smaller puzzle was answered for.
    pub fn verdict(&self) -> Option<Verdict> {
        if self.left > 0 {
            return None;
        }
        let place = format!("{}:{}", self.record.source, self.record.line);
        let Puzzle::Grid(grid) = &self.record.puzzle else {
            return None;
        };
        let names = |cells: &[usize]| -> String {
            cells
                .iter()
                .map(|&c| format!("r{}c{}={}", c / 9 + 1, c % 9 + 1, grid.get(c)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let s = |n: usize| if n == 1 { "" } else { "s" };
        Some(if !self.redundant.is_empty() {
            Verdict::NotMinimal(format!(
                "{place}: not minimal: {} redundant clue{} (removing one leaves the solution unique): {}",
                self.redundant.len(),
                s(self.redundant.len()),
                names(&self.redundant)
            ))
        } else if !self.undecided.is_empty() {
            Verdict::Undecided(format!(
                "{place}: minimality undecided: the count without clue{} {} was not settled",
                s(self.undecided.len()),
                names(&self.undecided)
            ))
        } else {
            Verdict::Minimal
        })
    }
}
