//! `bitmask`: the fast backend. Bit boards per digit and band, propagation to a fixpoint
//! (naked singles, hidden singles in rows, columns and boxes, locked candidates pointing and
//! claiming in both directions, and once per node hidden triads: three digits bound to one
//! minirow or minicolumn fill it), and a depth-first search that branches on the
//! configurations of one digit in one band or stack (where its three minirows, or
//! minicolumns, lie) and copies the 236-byte state per guess.
//!
//! Branching on configurations, as tdoku does, fixes three triads at once, which is what lets
//! the triad rule fire; with cell branching the rule hardly finds anything. On
//! forum_hardest_1905_11+ the pair takes the search from 163 guesses per puzzle to 114, on
//! forum_hardest_1106 from 274 to 151 (the README's *`bitmask`* section has the choice of where
//! to branch and the guesses of each rule).
//! The search is compiled three times, for the x86-64 baseline, for AVX2, and for AVX2 with
//! a fast PEXT (chosen at run time: PEXT is microcoded on AMD before Zen 3).
//!
//! The design follows the ideas of JCZSolve and tdoku (representation first: per-digit band
//! words, band-local inference by table lookup, a solved-cells word) in code of its own; the
//! shared `bitboard` module has the board and its propagation (the generator searches on it
//! too), `bitboard::triads` the triad rule and the branching choice, `bitboard::tables` the
//! lookup tables; this module has the search, and [`singles_fixpoint`] the singles-only logic
//! exposed for study.

mod singles;

pub use singles::{singles_fixpoint, SinglesFixpoint};

use super::progress::Progress;
use super::{Limit, Options, Outcome, Solver, Stats};
use crate::bitboard::triads::{Choice, OPEN_POSITION};
use crate::bitboard::{Avx2, Avx2Pext, Avx2Proof, Baseline, Board, Isa, Step};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::util::Popcnt;

/// The bit-board solver. Holds no per-puzzle buffers: the whole search state lives on the
/// stack (at most 54 levels of 236 bytes).
#[derive(Debug, Clone)]
pub struct Bitmask {
    max_nodes: u64,
    /// Proof that the CPU has POPCNT (detected once, for choosing the cell to branch on).
    popcnt: Option<Popcnt>,
    /// The AVX2 build of the search, if the CPU has what it needs (detected once).
    avx2: Option<Avx2>,
    /// The AVX2 build with PEXT, if the CPU has AVX2 and a fast PEXT (detected once).
    pext: Option<Avx2Pext>,
}

impl Bitmask {
    /// Builds the backend; honours `options.max_nodes`.
    pub fn new(options: &Options) -> Bitmask {
        let popcnt = Popcnt::detect();
        Bitmask {
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
            popcnt,
            avx2: Avx2::detect(),
            pext: Avx2Pext::detect(),
        }
    }
}

/// At most how many cells the propagation of the clues may solve for a puzzle to be searched
/// by configurations. (Of the open puzzles, every one of forum_hardest_1905_11+ has none so
/// solved, those of 1106 0 to 4, mostly 0 or 1, those of 17-clue 1 to 9, of magictour 0 to
/// 8.) With 2 the hardest sets keep their guesses (114.3, 151.0) and 17-clue and magictour
/// have fewer than with either search alone (1.07, 19.78).
const SOLVED_BY_CLUES: u32 = 2;

/// Where a search starts: a grid's clues, built into a board inside the build of the search
/// (so with its instruction set), or a board.
enum Start<'a> {
    Clues(&'a [u8; 81]),
    Board(&'a Board),
}

impl Start<'_> {
    /// The board; `Err` if the clues contradict each other.
    #[inline(always)]
    fn board<I: Isa>(self, isa: I) -> Step<Board> {
        match self {
            Start::Clues(cells) => Board::from_clues(cells, isa),
            Start::Board(board) => Ok(*board),
        }
    }
}

/// One search: the limit, what was found so far and the counters.
struct Search {
    popcnt: Option<Popcnt>,
    progress: Progress,
}

impl Search {
    fn new(limit: Limit, max_nodes: u64, popcnt: Option<Popcnt>) -> Search {
        Search {
            popcnt,
            // Its nodes take a fraction of a microsecond: the clock is read every 1,024.
            progress: Progress::new(limit, Some(max_nodes)).with_coarse_clock(),
        }
    }

    /// Builds the board of `start` and explores it with the code compiled for the best
    /// instruction set this CPU has; `false` if the clues contradict each other.
    #[inline(always)]
    fn run(&mut self, start: Start<'_>, avx2: Option<Avx2>, pext: Option<Avx2Pext>) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY (both): an `Avx2` or `Avx2Pext` value exists only on a CPU with every
            // feature `root_avx2` is compiled for (`Avx2::detect`, `Avx2Pext::detect`).
            if let Some(isa) = pext {
                return unsafe { self.root_avx2(start, isa) };
            }
            if let Some(isa) = avx2 {
                return unsafe { self.root_avx2(start, isa) };
            }
        }
        let _ = (avx2, pext);
        self.root(
            start,
            Baseline,
            |s, b| s.cells_portable(b),
            |s, b| s.configs_portable::<false>(b),
        )
    }

    /// [`root`](Search::root) compiled with AVX2, BMI1/2, POPCNT and LZCNT, and so both
    /// searches below it: the compiler then does the passes over all words eight at a time
    /// and uses the bit instructions.
    ///
    /// # Safety
    /// The CPU must have those features (as `isa` proves).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn root_avx2<I: Avx2Proof>(&mut self, start: Start<'_>, isa: I) -> bool {
        // SAFETY (both closures): `isa` proves the features, and the search stays on this CPU.
        self.root(
            start,
            isa,
            |s, b| unsafe { s.cells_avx2(b, isa) },
            |s, b| unsafe { s.configs_avx2::<false, I>(b, isa) },
        )
    }

    /// Propagates the clues of `board` and explores it: by configurations (`configs`
    /// explores a child) when the position is still open (at least [`OPEN_POSITION`] cells
    /// unsolved) and the propagation solved at most [`SOLVED_BY_CLUES`] cells, else by cells
    /// (`cells` explores a child), where the cheaper node of cell branching pays more than
    /// the fewer guesses of configurations (serg_benchmark: 7.5 guesses against 8.3, 0.80×
    /// the `sudoku` crate against 0.65×; 17-clue, whose open puzzles have 1 to 9 cells
    /// solved by their clues: 1.32 guesses per puzzle on the whole set against 1.43 with
    /// every open puzzle searched by configurations).
    #[inline(always)]
    fn root<I: Isa>(
        &mut self,
        start: Start<'_>,
        isa: I,
        cells: impl Fn(&mut Search, &mut Board),
        configs: impl Fn(&mut Search, &mut Board),
    ) -> bool {
        let Ok(mut board) = start.board(isa) else {
            return false;
        };
        if !self.progress.enter() {
            return true;
        }
        let open_clues = board.unsolved_count();
        let Ok(pairs) = board.propagate_with(isa) else {
            return true;
        };
        let unsolved = board.unsolved_count();
        if unsolved < OPEN_POSITION || open_clues - unsolved > SOLVED_BY_CLUES {
            self.cells_below(&mut board, pairs, isa, cells)
        } else {
            self.node::<true, I>(&mut board, isa, configs)
        }
        true
    }

    fn configs_portable<const ROOT: bool>(&mut self, board: &mut Board) {
        self.node::<ROOT, _>(board, Baseline, |s, b| s.configs_portable::<false>(b))
    }

    /// [`node`](Search::node) in the AVX2 build.
    ///
    /// # Safety
    /// The CPU must have the features of [`root_avx2`](Search::root_avx2) (as `isa`
    /// proves).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn configs_avx2<const ROOT: bool, I: Avx2Proof>(&mut self, board: &mut Board, isa: I) {
        // SAFETY: `isa` proves the features, and the recursion stays on this CPU.
        self.node::<ROOT, _>(board, isa, |s, b| unsafe {
            s.configs_avx2::<false, I>(b, isa)
        })
    }

    fn cells_portable(&mut self, board: &mut Board) {
        self.cell_node(board, Baseline, |s, b| s.cells_portable(b))
    }

    /// [`cell_node`](Search::cell_node) in the AVX2 build.
    ///
    /// # Safety
    /// The CPU must have the features of [`root_avx2`](Search::root_avx2) (as `isa`
    /// proves).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn cells_avx2<I: Avx2Proof>(&mut self, board: &mut Board, isa: I) {
        // SAFETY: `isa` proves the features, and the recursion stays on this CPU.
        self.cell_node(board, isa, |s, b| unsafe { s.cells_avx2(b, isa) })
    }

    /// The search for positions that are not open: singles and locked candidates (the rules
    /// of [`Board::propagate_claims`]), branching on the bivalue cell with most unsolved peers, as
    /// `bitmask` did before configurations (`recurse` explores a child).
    #[inline(always)]
    fn cell_node<I: Isa>(
        &mut self,
        board: &mut Board,
        isa: I,
        recurse: impl Fn(&mut Search, &mut Board),
    ) {
        if !self.progress.enter() {
            return;
        }
        let Ok(pairs) = board.propagate_claims(isa) else {
            return;
        };
        self.cells_below(board, pairs, isa, recurse)
    }

    /// [`cell_node`](Search::cell_node) after the propagation (`pairs`: the bivalue cells).
    #[inline(always)]
    fn cells_below<I: Isa>(
        &mut self,
        board: &mut Board,
        pairs: [u32; 3],
        isa: I,
        recurse: impl Fn(&mut Search, &mut Board),
    ) {
        if board.is_solved() {
            // Here rather than in the closure, which is not compiled with this build's
            // instruction set.
            let cells = board.cells_with(isa);
            self.progress.solution(|| Grid::from_cells(cells).ok());
            return;
        }
        let (b, bit, mut digits) = board.choose(pairs, isa, self.popcnt);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.progress.guesses += 1;
            if digits == 0 {
                // Last alternative: no need to keep this node's state.
                if board.guess(d, b, bit).is_ok() {
                    recurse(self, board);
                }
                return;
            }
            let mut child = *board;
            if child.guess(d, b, bit).is_ok() {
                recurse(self, &mut child);
            }
            if self.progress.done() {
                return;
            }
        }
    }

    /// Propagates `board` and explores it, branching on a digit's configurations in a band or
    /// stack (`recurse` explores a child). Each level fixes one more digit in one band or
    /// stack, so the recursion is at most 54 deep. The `ROOT` was counted and its clues
    /// propagated by [`root`](Search::root).
    #[inline(always)]
    fn node<const ROOT: bool, I: Isa>(
        &mut self,
        board: &mut Board,
        isa: I,
        recurse: impl Fn(&mut Search, &mut Board),
    ) {
        if !ROOT && !self.progress.enter() {
            return;
        }
        if board.propagate_triads(isa).is_err() {
            return;
        }
        if board.is_solved() {
            // Here rather than in the closure, which is not compiled with this build's
            // instruction set.
            let cells = board.cells_with(isa);
            self.progress.solution(|| Grid::from_cells(cells).ok());
            return;
        }
        let branch = match board.choose_band() {
            Choice::Branch(branch) => branch,
            Choice::Dead => return,
            // Not reached on a propagated board (a digit fixed in every band and stack has one
            // cell per box, which the update places), but a cell is a safe branch anyway.
            Choice::Fixed => {
                let mut copy = *board;
                if let Ok(pairs) = copy.propagate() {
                    self.cells_below(board, pairs, isa, recurse);
                }
                return;
            }
        };
        let mut configs = branch.configs;
        while configs != 0 {
            let k = configs.trailing_zeros() as usize;
            configs &= configs - 1;
            self.progress.guesses += 1;
            if configs == 0 {
                // Last alternative: no need to keep this node's state.
                board.assume(&branch, k);
                recurse(self, board);
                return;
            }
            let mut child = *board;
            child.assume(&branch, k);
            recurse(self, &mut child);
            if self.progress.done() {
                return;
            }
        }
    }

    fn outcome(self) -> Outcome {
        self.progress.outcome()
    }
}

impl Solver for Bitmask {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let mut search = Search::new(limit, self.max_nodes, self.popcnt);
        let consistent = match puzzle {
            Puzzle::Grid(grid) => search.run(Start::Clues(grid.cells()), self.avx2, self.pext),
            Puzzle::Candidates(candidates) => {
                let board = Board::from_masks(candidates.masks());
                search.run(Start::Board(&board), self.avx2, self.pext)
            }
            // 9×9 only (the registry says so; `wide` takes the other orders).
            Puzzle::Order(_) => return Outcome::unknown(Stats::default()),
        };
        if !consistent {
            return Outcome::none(Stats::GUESSING);
        }
        search.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Candidates;
    use crate::solver::basic::Basic;
    use crate::solver::Count;
    use crate::test_puzzles::{Xorshift, EASY, HARD, HARD_SOLUTION};
    use crate::verify;

    fn grid(text: &str) -> Grid {
        text.parse().expect("test grid")
    }

    #[test]
    fn easy_puzzle_needs_no_guess() {
        let mut s = Bitmask::new(&Options::default());
        let o = s.solve(&grid(EASY).into(), Limit::TWO);
        assert_eq!(o.count(), Count::Exactly(1));
        assert_eq!(o.stats().guesses, Some(0));
        assert_eq!(o.stats().nodes, 1);
    }

    #[test]
    fn hard_puzzle_needs_guesses_and_respects_the_budget() {
        let mut s = Bitmask::new(&Options::default());
        let o = s.solve(&grid(HARD).into(), Limit::TWO);
        assert_eq!(o.count(), Count::Exactly(1));
        assert_eq!(o.solution(), Some(&grid(HARD_SOLUTION)));
        assert!(o.stats().guesses > Some(0));
        let nodes = o.stats().nodes;
        assert!(nodes > 2);

        let tight = Options {
            max_nodes: Some(nodes - 1),
            ..Options::default()
        };
        let o = Bitmask::new(&tight).solve(&grid(HARD).into(), Limit::TWO);
        assert_eq!(o.count(), Count::Unknown);
        assert!(o.stats().nodes <= nodes);

        let exact = Options {
            max_nodes: Some(nodes),
            ..Options::default()
        };
        assert_eq!(
            Bitmask::new(&exact)
                .solve(&grid(HARD).into(), Limit::TWO)
                .count(),
            Count::Exactly(1)
        );
    }

    /// The baseline build of the search (no AVX2, no POPCNT) and the AVX2 build without PEXT
    /// make exactly the same search as the detected one: the same answers and the same
    /// counters.
    #[test]
    fn every_build_matches() {
        let mut fast = Bitmask::new(&Options::default());
        let mut others = vec![Bitmask {
            popcnt: None,
            avx2: None,
            pext: None,
            ..fast.clone()
        }];
        if fast.pext.is_some() {
            others.push(Bitmask {
                pext: None,
                ..fast.clone()
            });
        }
        let mut n = 0;
        // Open positions (1106) and the others (17-clue) take different branching rules.
        for (set, take) in [
            ("data/puzzles6_forum_hardest_1106.gz", 20),
            ("data/puzzles2_17_clue.gz", 300),
        ] {
            for rec in crate::format::Reader::open(set)
                .expect("bundled data set")
                .take(take)
            {
                let puzzle = rec.expect("bundled record").puzzle;
                let want = fast.solve(&puzzle, Limit::TWO);
                for other in &mut others {
                    assert_eq!(want, other.solve(&puzzle, Limit::TWO));
                }
                n += 1;
            }
        }
        assert_eq!(n, 320);
    }

    /// The solver and the oracle, to compare on the same puzzles.
    struct Pair(Bitmask, Basic);

    impl Pair {
        fn new() -> Pair {
            Pair(
                Bitmask::new(&Options::default()),
                Basic::new(&Options::default()),
            )
        }

        /// Solves `p` with both at `limit`: the counts agree, and so do the solutions of a
        /// unique puzzle. The solver's outcome.
        fn agree(&mut self, p: Puzzle, limit: Limit) -> Outcome {
            let (a, b) = (self.0.solve(&p, limit), self.1.solve(&p, limit));
            assert_eq!(a.count(), b.count(), "{p}");
            if a.count() == Count::Exactly(1) {
                assert_eq!(a.solution(), b.solution(), "{p}");
            }
            a
        }
    }

    /// Random clue subsets of a solution (often many solutions) and random extra clues (often
    /// none, sometimes without a visible conflict): counts up to 3 and first solutions must
    /// agree with the oracle.
    #[test]
    fn agrees_with_basic_on_random_grids() {
        let solution = grid(HARD_SOLUTION);
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut pair = Pair::new();
        let mut seen = [0usize; 4];
        for _ in 0..400 {
            let mut cells = [0u8; 81];
            let clues = 24 + rng.below(40) as usize;
            for _ in 0..clues {
                let c = rng.below(81) as usize;
                cells[c] = solution.get(c);
            }
            for _ in 0..rng.below(3) {
                cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
            }
            let g = Grid::from_cells(cells).expect("digits 0..=9");
            let a = pair.agree(g.into(), Limit::new(3).expect("nonzero"));
            if let Some(s) = &a.solution() {
                verify::check(&g, s).expect("valid solution");
            }
            if let Some(n) = a.count().found() {
                seen[n as usize] += 1;
            }
        }
        // The generator reaches no solution, a unique one and at least three.
        assert!(seen[0] > 0 && seen[1] > 0 && seen[3] > 0, "{seen:?}");
    }

    /// Random pencilmark positions: the candidates of a solution with random extra digits, some
    /// cells' true digit removed now and then.
    #[test]
    fn agrees_with_basic_on_random_candidates() {
        let solution = grid(HARD_SOLUTION);
        let mut rng = Xorshift(0x1234_5678_9abc_def1);
        let mut pair = Pair::new();
        for _ in 0..300 {
            let mut masks = [0u16; 81];
            for (c, m) in masks.iter_mut().enumerate() {
                *m = 1 << (solution.get(c) - 1);
                if rng.below(3) == 0 {
                    *m |= rng.below(512) as u16;
                }
            }
            if rng.below(4) == 0 {
                let c = rng.below(81) as usize;
                masks[c] &= !(1 << (solution.get(c) - 1));
            }
            let cand = Candidates::from_masks(masks).expect("9-bit masks");
            pair.agree(cand.into(), Limit::TWO);
        }
    }
}
