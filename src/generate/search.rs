//! The generator's own searches on the `bitmask` backend's board: a randomised fill of the
//! empty grid, and solution counts that stop at one or two without building an `Outcome`.
//!
//! The board (per-digit band words, propagation to a fixpoint, branching on a bivalue cell)
//! is the bitmask backend's; only the driving loops live here. Going through the `Solver`
//! trait instead costs a validated `Grid` per solution and a board built from 81 candidate
//! masks per call, which is most of the time of a one-guess check.

use crate::bitboard::{Baseline, Board};
use crate::util::{Popcnt, SplitMix64};

/// Searches over a [`Board`].
#[derive(Clone, Debug)]
pub(crate) struct Searcher {
    popcnt: Option<Popcnt>,
    limit: u32,
    found: u32,
    first: [u8; 81],
    second: [u8; 81],
}

impl Searcher {
    pub(crate) fn new() -> Searcher {
        Searcher {
            popcnt: Popcnt::detect(),
            limit: 1,
            found: 0,
            first: [0; 81],
            second: [0; 81],
        }
    }

    /// A board with the clues of `cells` placed (not propagated); `None` if placing them
    /// meets a clash (a digit twice in a row or box; a clash in a column shows up only when
    /// the board is propagated, as a count of 0).
    pub(crate) fn board(cells: &[u8; 81]) -> Option<Board> {
        let mut board = Board::empty();
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                board.place_cell(usize::from(v) - 1, cell).ok()?;
            }
        }
        Some(board)
    }

    /// Counts the solutions of `board` up to `limit` (1 or 2). The first two are kept
    /// ([`first`](Searcher::first), [`second`](Searcher::second)).
    pub(crate) fn count(&mut self, board: Board, limit: u32) -> u32 {
        self.limit = limit.max(1);
        self.found = 0;
        self.run(board);
        self.found
    }

    /// The first solution of the last [`count`](Searcher::count) (meaningful when it found one).
    pub(crate) fn first(&self) -> &[u8; 81] {
        &self.first
    }

    /// The second solution of the last [`count`](Searcher::count) (meaningful when it found two).
    pub(crate) fn second(&self) -> &[u8; 81] {
        &self.second
    }

    /// Depth-first search; each level solves at least one more cell, so it is at most 81 deep.
    fn run(&mut self, mut board: Board) {
        let Ok(pairs) = board.propagate() else {
            return;
        };
        if board.is_solved() {
            match self.found {
                0 => self.first = board.cells(),
                1 => self.second = board.cells(),
                _ => {}
            }
            self.found += 1;
            return;
        }
        let (b, bit, mut digits) = board.choose(pairs, Baseline, self.popcnt);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                if board.guess(d, b, bit).is_ok() {
                    self.run(board);
                }
                return;
            }
            let mut child = board;
            if child.guess(d, b, bit).is_ok() {
                self.run(child);
            }
            if self.found >= self.limit {
                return;
            }
        }
    }

    /// A solution of `board` found by trying the digits of every branch in random order, or
    /// `None` if it has none. Branches on a bivalue cell when there is one (as the bitmask
    /// backend does), else on the first unsolved cell, which costs far less to find than the
    /// cell with fewest candidates and, on the nearly empty boards of a fill, backtracks about
    /// as rarely.
    pub(crate) fn random_solution(&self, board: Board, rng: &mut SplitMix64) -> Option<[u8; 81]> {
        let mut board = board;
        let pairs = board.propagate().ok()?;
        let (b, bit, mut digits) = if pairs == [0; 3] {
            match board.first_unsolved() {
                Some(choice) => choice,
                None => return Some(board.cells()),
            }
        } else {
            board.choose(pairs, Baseline, self.popcnt)
        };
        while digits != 0 {
            let d = random_bit(digits, rng) as usize;
            digits &= !(1 << d);
            let mut child = board;
            if child.guess(d, b, bit).is_ok() {
                if let Some(s) = self.random_solution(child, rng) {
                    return Some(s);
                }
            }
        }
        None
    }
}

/// The position of a set bit of `bits` (not 0), each equally likely.
pub(crate) fn random_bit(bits: u32, rng: &mut SplitMix64) -> u32 {
    let mut rest = bits;
    for _ in 0..rng.below(u64::from(bits.count_ones())) {
        rest &= rest - 1;
    }
    rest.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::verify;

    const PUZZLE: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn cells(text: &str) -> [u8; 81] {
        *text.parse::<Grid>().expect("test grid").cells()
    }

    #[test]
    fn counts_stop_at_the_limit_and_keep_two_different_solutions() {
        let mut s = Searcher::new();
        let unique = cells(PUZZLE);
        assert_eq!(s.count(Searcher::board(&unique).unwrap(), 2), 1);
        let solution = Grid::from_cells(*s.first()).unwrap();
        verify::check(&Grid::from_cells(unique).unwrap(), &solution).unwrap();
        // Without its first clue the puzzle has several solutions.
        let mut open = unique;
        open[0] = 0;
        assert_eq!(s.count(Searcher::board(&open).unwrap(), 2), 2);
        assert_ne!(s.first(), s.second());
        for g in [s.first(), s.second()] {
            verify::check(
                &Grid::from_cells(open).unwrap(),
                &Grid::from_cells(*g).unwrap(),
            )
            .unwrap();
        }
        assert_eq!(s.count(Searcher::board(&open).unwrap(), 1), 1);
        // Two equal clues in a row: no board.
        let mut clash = [0u8; 81];
        clash[0] = 3;
        clash[8] = 3;
        assert!(Searcher::board(&clash).is_none());
    }

    #[test]
    fn random_solutions_are_valid_and_differ_by_seed() {
        let s = Searcher::new();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..20 {
            let mut rng = SplitMix64::new(seed);
            let g = s.random_solution(Board::empty(), &mut rng).unwrap();
            verify::check_complete(&Grid::from_cells(g).unwrap()).unwrap();
            seen.insert(g);
        }
        assert_eq!(seen.len(), 20);
        // Random fillings of the diagonal boxes (which share no line) always complete.
        let mut rng = SplitMix64::new(99);
        for _ in 0..2000 {
            let mut board = Board::empty();
            for corner in [0, 30, 60] {
                let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
                rng.shuffle(&mut digits);
                for (k, &d) in digits.iter().enumerate() {
                    board
                        .place_cell(usize::from(d) - 1, corner + 9 * (k / 3) + k % 3)
                        .unwrap();
                }
            }
            assert!(s.random_solution(board, &mut rng).is_some());
        }
        // A board without solutions gives none.
        let mut board = Board::empty();
        for d in 0..9 {
            board.exclude_cell(d, 40);
        }
        assert!(s.random_solution(board, &mut SplitMix64::new(1)).is_none());
    }
}
