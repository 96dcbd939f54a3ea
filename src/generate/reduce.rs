//! Clue removal: from a unique puzzle down to a minimal one, one orbit at a time.
//!
//! Removing clue `v` from cell `c` of a unique puzzle with solution `S` keeps it unique exactly
//! when no solution of the smaller puzzle puts another digit in `c` (every solution that keeps
//! `v` there is a solution of the larger puzzle, so it is `S`). So each test is "does the
//! puzzle without `c`, with `v` excluded from `c`, have any solution?" — a search that stops at
//! the first solution and usually ends in a contradiction after a few propagation steps.
//! Before searching, two tests read off the clues alone: if `c`'s peers hold all eight other
//! digits (naked single), or some row, column or box of `c` has no other empty cell that `v`
//! could take (hidden single), the clue is forced and can go. On a full grid most early
//! removals pass that way without a search.
//!
//! An orbit of several cells (symmetric patterns) is removed as a whole: it is forced if each
//! of its cells is, and otherwise the smaller puzzle's solutions are counted up to two.

use super::search::Searcher;
use crate::bitboard::Board;
use crate::grid::{Cells, PEER_CELLS, UNITS_OF, UNIT_CELLS};

/// How many positions of the removal order share one stored board of untested clues: the
/// others place the few clues in between on it. Fewer stored boards cost fewer propagations
/// than a test loses to the clues placed but not yet propagated (callgrind, 300 puzzles of
/// `examples/generate_ratio`: stride 1 160.3 M instructions, 2 154.5 M, 4 151.7 M, 8 151.3 M,
/// 16 153.5 M, 81 (no stored board but the empty one) 166.9 M).
const STRIDE: usize = 8;

/// The clues of a puzzle under reduction, with the cells of each digit for the single tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clues {
    cells: [u8; 81],
    /// `by_digit[d]`: the clue cells holding digit `d + 1`.
    by_digit: [Cells; 9],
    /// Every clue cell.
    filled: Cells,
}

impl Clues {
    /// The clues of `cells` (values 0..=9; 0 empty).
    pub(crate) fn new(cells: &[u8; 81]) -> Clues {
        let mut clues = Clues {
            cells: [0; 81],
            by_digit: [0; 9],
            filled: 0,
        };
        for (cell, &v) in cells.iter().enumerate() {
            if (1..=9).contains(&v) {
                clues.put(cell, v);
            }
        }
        clues
    }

    pub(crate) fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    pub(crate) fn count(&self) -> u32 {
        self.filled.count_ones()
    }

    /// Sets clue `v` (1..=9) in the empty `cell`.
    pub(crate) fn put(&mut self, cell: usize, v: u8) {
        self.cells[cell] = v;
        self.by_digit[usize::from(v - 1)] |= 1 << cell;
        self.filled |= 1 << cell;
    }

    /// Empties `cell`, returning its clue (0 if it was empty).
    pub(crate) fn take(&mut self, cell: usize) -> u8 {
        let v = self.cells[cell];
        if v != 0 {
            self.cells[cell] = 0;
            self.by_digit[usize::from(v - 1)] &= !(1 << cell);
            self.filled &= !(1 << cell);
        }
        v
    }

    /// The digits (bit `d` = digit `d + 1`) no clue among `cell`'s peers holds.
    pub(crate) fn allowed(&self, cell: usize) -> u16 {
        let peers = PEER_CELLS[cell];
        let mut mask = 0;
        for (d, &on) in self.by_digit.iter().enumerate() {
            if on & peers == 0 {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// Whether the empty `cell` must hold `v` by a single read off the clues alone: its peers
    /// hold every other digit, or in one of its units no other empty cell can take `v`.
    fn forced(&self, cell: usize, v: u8) -> bool {
        let d = usize::from(v - 1);
        if self.allowed(cell) == 1 << d {
            return true;
        }
        let mut seen: Cells = 0;
        let mut at = self.by_digit[d];
        while at != 0 {
            seen |= PEER_CELLS[at.trailing_zeros() as usize];
            at &= at - 1;
        }
        let open = !self.filled & !seen;
        UNITS_OF[cell]
            .iter()
            .any(|&u| open & UNIT_CELLS[usize::from(u)] == 1 << cell)
    }
}

/// Clue removal with its scratch space: the propagated boards of the clues not yet tested.
///
/// Testing orbit `k` of the order asks about the puzzle made of the clues kept so far (`K`)
/// and the clues not tested yet (`U`, the orbits after `k`). Rather than placing and
/// propagating all of them for every test, the propagated board of every suffix `U` of the
/// order is computed once, backwards (each one is the next with one orbit placed), and the
/// propagated board of `K` grows as clues are kept; a test starts from the two boards' meet,
/// which is at a fixpoint except where they differ. A cell that either board has already
/// solved needs no search at all.
///
/// Many clues cannot go for a reason that needs no search: they are the last clue of an
/// *unavoidable set* of the solution, a set of cells whose digits can be rearranged into
/// another valid grid (a puzzle without a clue there has that grid as a second solution). The
/// cheapest to find are those of two rows of one band (or two columns of one stack): where the
/// two rows' digits on some columns are the same set, swapping them on those columns gives
/// another grid. They are collected before the tests (see [`unavoidable_sets`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reducer {
    /// `untested[j]`: the propagated board of the clues in orbits `order[STRIDE · j..]`.
    untested: Vec<Board>,
    /// Unavoidable sets of the solution.
    unavoidable: Vec<Cells>,
}

impl Reducer {
    /// Removes every orbit of `order` (indices into `orbits`) whose cells are all clues and
    /// whose removal keeps `clues` unique, in that order. `clues` must be a unique puzzle;
    /// afterwards it is minimal among the puzzles with the orbit pattern (no clue orbit can
    /// go). Should the clues contradict each other after all, nothing is removed.
    pub(crate) fn reduce(
        &mut self,
        clues: &mut Clues,
        solution: &[u8; 81],
        orbits: &[Vec<u8>],
        order: &[usize],
        searcher: &mut Searcher,
    ) {
        if !self.prepare(clues, orbits, order) {
            return;
        }
        unavoidable_sets(solution, &mut self.unavoidable);
        let mut kept = Board::empty();
        if kept.propagate().is_err() {
            return;
        }
        let mut taken = [0u8; 8];
        for (k, &o) in order.iter().enumerate() {
            let orbit = &orbits[o];
            if orbit.iter().any(|&c| clues.cells[usize::from(c)] == 0) {
                continue;
            }
            for (t, &c) in taken.iter_mut().zip(orbit) {
                *t = clues.take(usize::from(c));
            }
            let taken = &taken[..orbit.len()];
            let forced = orbit
                .iter()
                .zip(taken)
                .all(|(&c, &v)| clues.forced(usize::from(c), v));
            let unhit = || self.unavoidable.iter().any(|&u| u & clues.filled == 0);
            let mut unique = || match self.untested_from(k + 1, clues, orbits, order) {
                Some(untested) => stays_unique(&untested, &kept, orbit, taken, searcher),
                None => false,
            };
            if forced || (!unhit() && unique()) {
                continue;
            }
            for (&c, &v) in orbit.iter().zip(taken) {
                let c = usize::from(c);
                clues.put(c, v);
                if kept.is_unsolved_cell(c) && kept.place_cell(usize::from(v - 1), c).is_err() {
                    return;
                }
            }
            if kept.propagate().is_err() {
                return;
            }
        }
    }

    /// Computes `untested`, one board per [`STRIDE`] positions of the order (the last one,
    /// for the end of the order, empty); false if the clues contradict each other.
    fn prepare(&mut self, clues: &Clues, orbits: &[Vec<u8>], order: &[usize]) -> bool {
        let mut board = Board::empty();
        if board.propagate().is_err() {
            return false;
        }
        self.untested.clear();
        self.untested
            .resize(order.len().div_ceil(STRIDE) + 1, board);
        for (k, &o) in order.iter().enumerate().rev() {
            for &c in &orbits[o] {
                let (c, v) = (usize::from(c), clues.cells[usize::from(c)]);
                if v != 0
                    && board.is_unsolved_cell(c)
                    && board.place_cell(usize::from(v - 1), c).is_err()
                {
                    return false;
                }
            }
            if k % STRIDE == 0 {
                if board.propagate().is_err() {
                    return false;
                }
                self.untested[k / STRIDE] = board;
            }
        }
        true
    }

    /// The board of the clues in orbits `order[from..]`: the nearest stored board at or after
    /// `from`, with the clues of the orbits between placed (not propagated). `None` if they
    /// clash.
    fn untested_from(
        &self,
        from: usize,
        clues: &Clues,
        orbits: &[Vec<u8>],
        order: &[usize],
    ) -> Option<Board> {
        let stored = from.div_ceil(STRIDE).min(self.untested.len() - 1);
        let mut board = *self.untested.get(stored)?;
        let end = (stored * STRIDE).min(order.len());
        for &o in &order[from.min(end)..end] {
            for &c in &orbits[o] {
                let (c, v) = (usize::from(c), clues.cells[usize::from(c)]);
                if v != 0 && board.is_unsolved_cell(c) {
                    board.place_cell(usize::from(v - 1), c).ok()?;
                }
            }
        }
        Some(board)
    }
}

/// The unavoidable sets of `solution` made by two rows of a band or two columns of a stack,
/// up to 12 cells, into `out`.
///
/// For rows `r1`, `r2` of one band, let `σ(c)` be the column where `r2` holds the digit `r1`
/// holds in column `c`. On the columns of a cycle of `σ` the two rows hold the same digits, so
/// exchanging the rows' digits there keeps every row, column and box valid (both rows are in
/// the same boxes): the cycle's cells are unavoidable. Cycles of length 2 are the classic
/// "unavoidable rectangles". Columns of a stack work the same way.
pub(crate) fn unavoidable_sets(solution: &[u8; 81], out: &mut Vec<Cells>) {
    out.clear();
    // (line a, line b, cell of position p on a line): rows, then columns.
    let row_cell = |line: usize, p: usize| 9 * line + p;
    let col_cell = |line: usize, p: usize| 9 * p + line;
    for cell_of in [&row_cell as &dyn Fn(usize, usize) -> usize, &col_cell] {
        for group in 0..3 {
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                let (a, b) = (3 * group + i, 3 * group + j);
                // where[d]: the position of digit d on line b.
                let mut at = [0usize; 10];
                for p in 0..9 {
                    at[usize::from(solution[cell_of(b, p)]) % 10] = p;
                }
                let mut seen = 0u16;
                for start in 0..9 {
                    if seen >> start & 1 != 0 {
                        continue;
                    }
                    let (mut set, mut size, mut p) = (0 as Cells, 0, start);
                    // A cycle visits each position at most once, so at most 9 steps.
                    for _ in 0..9 {
                        seen |= 1 << p;
                        set |= 1 << cell_of(a, p) | 1 << cell_of(b, p);
                        size += 2;
                        p = at[usize::from(solution[cell_of(a, p)]) % 10];
                        if p == start {
                            break;
                        }
                    }
                    if size <= 12 {
                        out.push(set);
                    }
                }
            }
        }
    }
}

/// Whether the puzzle of the clues behind `untested` and `kept` (a unique puzzle with the
/// cells of `orbit`, which held `taken`, just removed) is still unique.
fn stays_unique(
    untested: &Board,
    kept: &Board,
    orbit: &[u8],
    taken: &[u8],
    searcher: &mut Searcher,
) -> bool {
    let mut board = untested.meet(kept);
    // A cell either board solved holds its clue in every solution.
    let mut open = 0;
    let mut last = (0, 0);
    for (&c, &v) in orbit.iter().zip(taken) {
        if board.is_unsolved_cell(usize::from(c)) {
            open += 1;
            last = (usize::from(c), v);
        }
    }
    match open {
        0 => true,
        1 => {
            // One open cell: unique unless some solution puts another digit there.
            let (c, v) = last;
            board.exclude_cell(usize::from(v - 1), c);
            searcher.count(board, 1) == 0
        }
        _ => searcher.count(board, 2) == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::pattern::ClueSymmetry;
    use crate::grid::Grid;
    use crate::solver::basic::Basic;
    use crate::solver::Limit;
    use crate::solver::{Options, Solver};
    use crate::util::SplitMix64;

    use crate::test_puzzles::EASY_SOLUTION as SOLUTION;

    #[test]
    fn forced_clues_are_singles_of_the_remaining_clues() {
        let full: Grid = SOLUTION.parse().unwrap();
        let mut clues = Clues::new(full.cells());
        // With one cell removed from a full grid, its peers hold the eight other digits.
        let v = clues.take(40);
        assert!(clues.forced(40, v));
        assert_eq!(clues.allowed(40), 1 << (v - 1));
        // Empty the whole first row: no cell there is a naked single any more (its row is
        // empty), but every digit's box and column still pin it.
        let mut row: Vec<(usize, u8)> = (0..9).map(|c| (c, clues.take(c))).collect();
        assert!(row.iter().all(|&(c, v)| clues.forced(c, v)));
        // Only v possible in the cell, never another digit.
        let (c, v) = row.pop().unwrap();
        assert!(!clues.forced(c, if v == 9 { 1 } else { v + 1 }));
        assert_eq!(clues.count(), 81 - 10);
    }

    /// Every unavoidable set found is one: some other valid grid differs from the solution
    /// exactly on its cells (found by the `basic` backend with those cells left open and each
    /// one forbidden its own digit).
    #[test]
    fn unavoidable_sets_are_unavoidable() {
        let full: Grid = SOLUTION.parse().unwrap();
        let mut sets = Vec::new();
        unavoidable_sets(full.cells(), &mut sets);
        assert!(!sets.is_empty());
        let mut basic = Basic::new(&Options::default());
        for &set in &sets {
            let n = set.count_ones();
            assert!((4..=12).contains(&n) && n % 2 == 0, "{set:b}");
            let mut masks = [0u16; 81];
            for (c, m) in masks.iter_mut().enumerate() {
                let own = 1 << (full.get(c) - 1);
                *m = if set >> c & 1 != 0 { 0x1ff & !own } else { own };
            }
            let cand = crate::grid::Candidates::from_masks(masks).unwrap();
            let out = basic.solve(&cand.into(), Limit::ONE);
            assert_eq!(out.count(), crate::solver::Count::AtLeast(1), "{set:b}");
        }
    }

    /// Reduction of a full grid, every symmetry: the result is unique (for the `basic`
    /// backend) and no orbit of clues can be removed.
    #[test]
    fn reduction_leaves_a_unique_puzzle_minimal_for_its_pattern() {
        let full: Grid = SOLUTION.parse().unwrap();
        let mut basic = Basic::new(&Options::default());
        let mut searcher = Searcher::new();
        for (k, sym) in ClueSymmetry::ALL.into_iter().enumerate() {
            let orbits = sym.orbits();
            let mut order: Vec<usize> = (0..orbits.len()).collect();
            SplitMix64::new(k as u64).shuffle(&mut order);
            let mut clues = Clues::new(full.cells());
            Reducer::default().reduce(&mut clues, full.cells(), &orbits, &order, &mut searcher);
            let puzzle = Grid::from_cells(*clues.cells()).unwrap();
            assert!(sym.holds_for(puzzle.cells()), "{sym}: {puzzle}");
            let out = basic.solve(&puzzle.into(), Limit::TWO);
            assert_eq!(
                out.count(),
                crate::solver::Count::Exactly(1),
                "{sym}: {puzzle}"
            );
            assert_eq!(out.solution(), Some(&full));
            for orbit in orbits.iter().filter(|o| puzzle.get(usize::from(o[0])) != 0) {
                let mut smaller = puzzle;
                for &c in orbit {
                    smaller.set(usize::from(c), 0);
                }
                let n = basic.solve(&smaller.into(), Limit::TWO).count();
                assert_eq!(n, crate::solver::Count::AtLeast(2), "{sym}: {orbit:?}");
            }
        }
    }
}
