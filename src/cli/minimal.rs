//! `verify --minimal`: which clues of a unique puzzle are not needed.

use sudobench::format::Record;
use sudobench::grid::Puzzle;
use sudobench::probe::redundant_clues;
use sudobench::solver::Solver;

/// Why `record` (found unique) is not a minimal puzzle, as a line naming file, line and every
/// redundant clue (`r1c3=5`: the clue 5 in row 1, column 3); `None` if it is minimal.
pub fn not_minimal(record: &Record, solver: &mut dyn Solver) -> Option<String> {
    let place = format!("{}:{}", record.source, record.line);
    let Puzzle::Grid(grid) = &record.puzzle else {
        return Some(format!(
            "{place}: a pencilmark puzzle has no clues to be minimal about (--minimal checks clue grids)"
        ));
    };
    match redundant_clues(solver, grid) {
        Some(cells) if cells.is_empty() => None,
        Some(cells) => {
            let names: Vec<String> = cells
                .iter()
                .map(|&c| format!("r{}c{}={}", c / 9 + 1, c % 9 + 1, grid.get(c)))
                .collect();
            Some(format!(
                "{place}: not minimal: {} redundant clue{} (removing one leaves the solution unique): {}",
                cells.len(),
                if cells.len() == 1 { "" } else { "s" },
                names.join(" ")
            ))
        }
        None => Some(format!(
            "{place}: minimality undecided (the backend could not count a smaller puzzle)"
        )),
    }
}
