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
            if let Some(cells) = clues(&record.puzzle) {
                for cell in cells {
                    self.queue.push_back(Ok(Record {
                        puzzle: without(&record.puzzle, cell),
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

/// The clue cells of a clue grid of any order, in cell order; `None` for a pencilmark
/// puzzle (it has no clues to remove).
fn clues(puzzle: &Puzzle) -> Option<Vec<usize>> {
    let (_, values) = values(puzzle)?;
    Some((0..values.len()).filter(|&c| values[c] != 0).collect())
}

/// The side and the cell values of a clue grid of any order (`0` empty).
fn values(puzzle: &Puzzle) -> Option<(usize, &[u8])> {
    match puzzle {
        Puzzle::Grid(grid) => Some((9, grid.cells())),
        Puzzle::Order(grid) => Some((grid.order().side(), grid.cells())),
        Puzzle::Candidates(_) => None,
    }
}

/// The clue grid `puzzle` with `cell` emptied.
fn without(puzzle: &Puzzle, cell: usize) -> Puzzle {
    match puzzle {
        Puzzle::Grid(grid) => {
            let mut smaller = *grid;
            smaller.set(cell, 0);
            Puzzle::Grid(smaller)
        }
        Puzzle::Order(grid) => {
            let mut smaller = (**grid).clone();
            smaller.set(cell, 0);
            Puzzle::Order(std::sync::Arc::new(smaller))
        }
        Puzzle::Candidates(_) => puzzle.clone(),
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
        let Some(clues) = clues(&record.puzzle) else {
            eprintln!(
                "error: {}:{}: a pencilmark puzzle has no clues to be minimal about (--minimal \
                 checks clue grids)",
                record.source, record.line
            );
            return None;
        };
        Some(Pending {
            record: record.clone(),
            left: clues.len(),
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
        let (Some((_, grid)), Some((_, smaller))) =
            (values(&self.record.puzzle), values(&record.puzzle))
        else {
            return;
        };
        let Some(cell) = (0..grid.len().min(smaller.len())).find(|&c| grid[c] != smaller[c]) else {
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
        let (side, grid) = values(&self.record.puzzle)?;
        let names = |cells: &[usize]| -> String {
            cells
                .iter()
                .map(|&c| clue_name(side, grid, c))
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

/// A clue as `r{row}c{column}={value}`, rows and columns from 1, the value as the puzzle's
/// line form writes it: its symbol (`1`–`9`, `A`–`Z`) up to 25×25, its number beyond.
fn clue_name(side: usize, grid: &[u8], cell: usize) -> String {
    let value = grid[cell];
    let shown = if sudobench::order::format::written_in_symbols(side) {
        sudobench::order::format::symbol(value).to_string()
    } else {
        value.to_string()
    };
    format!("r{}c{}={shown}", cell / side + 1, cell % side + 1)
}

#[cfg(test)]
mod tests {
    use super::clue_name;

    #[test]
    fn clues_are_named_by_row_column_and_the_symbol_of_the_line_form() {
        let mut nine = [0u8; 81];
        nine[80] = 7;
        assert_eq!(clue_name(9, &nine, 80), "r9c9=7");
        let mut sixteen = vec![0u8; 256];
        sixteen[17] = 16;
        assert_eq!(clue_name(16, &sixteen, 17), "r2c2=G");
        let mut thirty_six = vec![0u8; 1296];
        thirty_six[1295] = 36;
        assert_eq!(clue_name(36, &thirty_six, 1295), "r36c36=36");
    }
}
