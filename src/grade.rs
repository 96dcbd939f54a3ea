//! Grading puzzles two ways: the hardest deduction a person would need, and how hard the
//! puzzle is for backtracking.
//!
//! **Technique.** The logic backend's closure ([`closure`]) is run with a growing set of
//! techniques — the *ladder* — and the first rung whose closure solves the puzzle names it:
//!
//! | rung | the closure uses |
//! |---|---|
//! | `naked-single` | naked singles only |
//! | `hidden-single` | + hidden singles |
//! | `locked-candidates` | + box–line intersections (pointing and claiming) |
//! | `pair` | + naked and hidden subsets of size 2 |
//! | `triple` | + subsets of size 3 |
//! | `quad` | + subsets of size 4 (every subset the closure knows: a naked `k`-subset among `n` open fields is a hidden `(n − k)`-subset, and `n ≤ 9`) |
//!
//! On grids of other orders the same rungs run on the closure written for every order, whose
//! subsets stop at 4 ([`orders::MAX_SUBSET`]): there `quad` means "subsets up to 4 suffice".
//!
//! Beyond the last rung the grade is `search` (deduction stalls; a guess is needed), or
//! `contradiction` when deduction proves that the puzzle has no solution; a full grid needs
//! nothing (`none`). Each rung includes the ones before it, and a closure with more techniques
//! never knows less, so the first solving rung is the hardest technique needed.
//!
//! **Guesses.** The mean number of guesses the `bitmask` backend (`wide` on other orders)
//! makes to decide the puzzle
//! (count up to 2, as `bench` does) over `K` random validity-preserving symmetries of it, as
//! tdoku measures difficulty: one orientation says as much about the branching order as about
//! the puzzle. The symmetries are drawn from the puzzle's own text and a seed, so a puzzle has
//! the same grade wherever it appears in a file and however many threads grade it.
//!
//! **Budget.** Each of those searches may branch [`DEFAULT_MAX_NODES`] times (or as many as
//! [`Grader::with_max_nodes`] says); one that runs out counts the guesses it made, so the
//! mean is then a lower bound, and the grade says how many ran out ([`Grade::undecided`]).
//! The grader searches without probing or clause learning, to count the guesses of plain
//! backtracking, and without a budget Frisch's minimal 25×25 would hold it for far longer
//! than minutes each.

use crate::deadline;
use crate::grid::Candidates;
use crate::order::symmetry::OrderSymmetry;
use crate::order::OrderGrid;
use crate::probe::probe;
use crate::puzzle::Puzzle;
use crate::solver::bitmask::Bitmask;
use crate::solver::logic::orders;
use crate::solver::logic::{closure, LogicConfig};
use crate::solver::wide::{Rules, Wide};
use crate::solver::{BuildError, Options, Solver};
use crate::symmetry::Symmetry;
use crate::util::{mix_seed, SplitMix64};
use std::fmt;
use std::time::Duration;

/// The hardest step a puzzle needs, in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// Nothing to deduce: every cell is given.
    None,
    /// Naked singles suffice.
    NakedSingle,
    /// Hidden singles are needed.
    HiddenSingle,
    /// Locked candidates (pointing, claiming) are needed.
    LockedCandidates,
    /// A naked or hidden pair is needed.
    Pair,
    /// A naked or hidden triple is needed.
    Triple,
    /// A naked or hidden quad is needed.
    Quad,
    /// Deduction stalls: the puzzle needs a guess (or has several solutions).
    Search,
    /// Deduction proves that the puzzle has no solution.
    Contradiction,
}

impl Technique {
    /// Every technique, easiest first (the order of summaries).
    pub const ALL: [Technique; 9] = [
        Technique::None,
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::LockedCandidates,
        Technique::Pair,
        Technique::Triple,
        Technique::Quad,
        Technique::Search,
        Technique::Contradiction,
    ];

    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Technique::None => "none",
            Technique::NakedSingle => "naked-single",
            Technique::HiddenSingle => "hidden-single",
            Technique::LockedCandidates => "locked-candidates",
            Technique::Pair => "pair",
            Technique::Triple => "triple",
            Technique::Quad => "quad",
            Technique::Search => "search",
            Technique::Contradiction => "contradiction",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rungs of the ladder: a technique and the closure configuration that stands for it.
const LADDER: [(Technique, LogicConfig); 6] = {
    const fn rung(naked_only: bool, lc: bool, subsets: u8) -> LogicConfig {
        LogicConfig {
            locked_candidates: lc,
            naked_singles_only: naked_only,
            max_subset: Some(subsets),
        }
    }
    [
        (Technique::NakedSingle, rung(true, false, 1)),
        (Technique::HiddenSingle, rung(false, false, 1)),
        (Technique::LockedCandidates, rung(false, true, 1)),
        (Technique::Pair, rung(false, true, 2)),
        (Technique::Triple, rung(false, true, 3)),
        (Technique::Quad, rung(false, true, 4)),
    ]
};

/// The hardest technique `puzzle` needs (see the [module documentation](self)), on any
/// order.
pub fn technique(puzzle: &Puzzle) -> Option<Technique> {
    match puzzle {
        Puzzle::Order(grid) => Some(technique_of_order(grid)),
        _ => puzzle.candidates().map(|start| technique_of(&start)),
    }
}

/// The ladder on a grid of another order, through the closure written for every order (whose
/// subsets stop at 4, the `quad` rung).
fn technique_of_order(grid: &OrderGrid) -> Technique {
    climb(grid.is_full(), |config| {
        let found = orders::closure(grid, config);
        (found.contradiction, found.is_solved())
    })
}

fn technique_of(start: &Candidates) -> Technique {
    let full = start.masks().iter().all(|m| m.count_ones() == 1);
    climb(full, |config| {
        let found = closure(start, config);
        (found.contradiction, found.is_solved())
    })
}

/// The ladder's verdict from `run`, which takes a rung's settings to (contradiction, solved):
/// a full grid needs nothing (or breaks a rule); otherwise the weakest rung that solves, or
/// search when the strongest does not.
fn climb(full: bool, run: impl Fn(LogicConfig) -> (bool, bool)) -> Technique {
    if full {
        return match run(LADDER[0].1).0 {
            true => Technique::Contradiction,
            false => Technique::None,
        };
    }
    let (contradiction, solved) = run(LADDER[LADDER.len() - 1].1);
    if contradiction {
        return Technique::Contradiction;
    }
    if !solved {
        return Technique::Search;
    }
    LADDER
        .iter()
        .find(|(_, config)| run(*config).1)
        .map_or(Technique::Quad, |&(t, _)| t)
}

/// A puzzle's grade.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grade {
    /// The hardest technique needed.
    pub technique: Technique,
    /// Mean guesses of `bitmask` over the random symmetries.
    pub guesses: f64,
    /// Clues (for a pencilmark puzzle: cells with one candidate).
    pub clues: usize,
    /// Solutions `bitmask` found, counting up to 2 (`None`: it could not decide).
    pub solutions: Option<u32>,
    /// Searches (one per symmetry) that spent their node budget or time limit before
    /// deciding: when there are any, [`guesses`](Grade::guesses) is a lower bound.
    pub undecided: u32,
}

/// Branchings each search of a [`Grader`] may make unless told otherwise: more than the
/// bundled puzzles need but Frisch's minimal 25×25 (plain backtracking ran 2 minutes on one
/// symmetry of the first without an end; with this budget the file is graded in minutes),
/// and one 36×36 puzzle with several solutions (in one of its 16 symmetries). Every search
/// on forum_hardest_1106 needs fewer than 2,000 (766 at most on average over the 16); the
/// generated 16×16 to 36×36 sets up to 32,130 on average (a 16×16).
pub const DEFAULT_MAX_NODES: u64 = 100_000;

/// Mean guesses of `solver` deciding `puzzle` (count up to 2) over `symmetries`, and the count
/// it found for the first of them.
pub fn mean_guesses(
    solver: &mut dyn Solver,
    puzzle: &Puzzle,
    symmetries: &[Symmetry],
) -> (f64, Option<u32>) {
    let g = guesses_over(solver, puzzle, symmetries, None);
    (g.mean, g.count)
}

/// What the searches over the symmetries of a puzzle found.
struct Guesses {
    mean: f64,
    /// The count of the first symmetry (`None`: undecided).
    count: Option<u32>,
    /// Searches that did not decide.
    undecided: u32,
}

/// `max_time`: the time limit of each search.
fn guesses_over(
    solver: &mut dyn Solver,
    puzzle: &Puzzle,
    symmetries: &[Symmetry],
    max_time: Option<Duration>,
) -> Guesses {
    Guesses::of(symmetries.iter().map(|s| {
        let image = s.apply_puzzle(puzzle);
        let p = deadline::within(max_time, || probe(solver, &image, 2));
        (p.guesses, p.count)
    }))
}

impl Guesses {
    /// The tally of searches, each its guesses and its count (`None`: undecided), the first
    /// search's count being the puzzle's.
    fn of(searches: impl Iterator<Item = (u64, Option<u32>)>) -> Guesses {
        let (mut total, mut n) = (0u64, 0u32);
        let (mut count, mut undecided) = (None, 0);
        for (guesses, found) in searches {
            total += guesses;
            undecided += u32::from(found.is_none());
            if n == 0 {
                count = found;
            }
            n += 1;
        }
        Guesses {
            mean: total as f64 / f64::from(n.max(1)),
            count,
            undecided,
        }
    }
}

/// Grades puzzles; holds its `bitmask` and `wide` instances, so build one per thread.
pub struct Grader {
    bitmask: Bitmask,
    /// The guesses of other orders: `wide`, the fast backend there.
    wide: Wide,
    symmetries: u32,
    seed: u64,
    /// The time limit of each search (`None`: the node budget alone).
    max_time: Option<Duration>,
    drawn: Vec<Symmetry>,
}

impl fmt::Debug for Grader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Grader")
            .field("symmetries", &self.symmetries)
            .field("seed", &self.seed)
            .finish()
    }
}

impl Grader {
    /// A grader averaging over `symmetries` random symmetries (at least 1) drawn with `seed`,
    /// each search with a budget of [`DEFAULT_MAX_NODES`].
    pub fn new(symmetries: u32, seed: u64) -> Result<Grader, BuildError> {
        Ok(Grader {
            bitmask: Bitmask::new(&Options::default()),
            wide: Wide::new(Rules::WITHOUT_PROBING),
            symmetries: symmetries.max(1),
            seed,
            max_time: None,
            drawn: Vec::new(),
        }
        .with_max_nodes(DEFAULT_MAX_NODES))
    }

    /// The grader with a budget of `max_nodes` branchings (at least 1) for each search.
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Grader {
        let max_nodes = Some(max_nodes.max(1));
        self.bitmask = Bitmask::new(&Options {
            max_nodes,
            ..Options::default()
        });
        self.wide.set_max_nodes(max_nodes);
        self
    }

    /// The grader with a time limit for each search as well. A search that reaches it counts
    /// as one that ran out of nodes (its guesses a lower bound, [`Grade::undecided`]); the
    /// grades then depend on the machine, where the node budget alone keeps them the same
    /// everywhere.
    pub fn with_max_time(mut self, max_time: Option<Duration>) -> Grader {
        self.max_time = max_time;
        self
    }

    /// The grade of one puzzle, of any order.
    pub fn grade(&mut self, puzzle: &Puzzle) -> Option<Grade> {
        let mut rng = SplitMix64::new(mix_seed(self.seed, text_hash(puzzle)));
        if let Puzzle::Order(grid) = puzzle {
            return Some(self.grade_order(grid, &mut rng));
        }
        let start = puzzle.candidates()?;
        self.drawn.clear();
        self.drawn
            .extend((0..self.symmetries).map(|_| Symmetry::random(&mut rng)));
        let g = guesses_over(&mut self.bitmask, puzzle, &self.drawn, self.max_time);
        Some(Grade {
            technique: technique_of(&start),
            guesses: g.mean,
            clues: start.masks().iter().filter(|m| m.count_ones() == 1).count(),
            solutions: g.count,
            undecided: g.undecided,
        })
    }
}

impl Grader {
    /// The grade of a grid of another order: its guesses are `wide`'s (count up to 2) over
    /// random symmetries of the grid, drawn from `rng`.
    fn grade_order(&mut self, grid: &OrderGrid, rng: &mut SplitMix64) -> Grade {
        let (wide, max_time) = (&mut self.wide, self.max_time);
        let g = Guesses::of((0..self.symmetries).map(|_| {
            let image = OrderSymmetry::random(grid.order(), rng).apply(grid);
            let found = deadline::within(max_time, || wide.solve(&image, 2));
            (found.guesses, (!found.stopped).then_some(found.count))
        }));
        Grade {
            technique: technique_of_order(grid),
            guesses: g.mean,
            clues: grid.clue_count(),
            solutions: g.count,
            undecided: g.undecided,
        }
    }
}

/// FNV-1a over the puzzle's cell values (or candidate masks): the puzzle's own seed.
fn text_hash(puzzle: &Puzzle) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    match puzzle {
        Puzzle::Grid(g) => g.cells().iter().for_each(|&v| eat(v)),
        Puzzle::Candidates(c) => c.masks().iter().for_each(|&m| {
            eat(m as u8);
            eat((m >> 8) as u8);
        }),
        Puzzle::Order(g) => g.cells().iter().for_each(|&v| eat(v)),
    }
    h
}

/// Per-file totals of a grading run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Puzzles graded.
    pub puzzles: u64,
    /// Puzzles per technique, in the order of [`Technique::ALL`].
    pub techniques: [u64; 9],
    /// Sum of the mean guesses.
    pub guesses: f64,
    /// Sum of the clue counts.
    pub clues: u64,
    /// Puzzles without exactly one solution (or whose count was undecided).
    pub not_unique: u64,
    /// Puzzles with a search that ran out of its node budget or time limit: their guesses
    /// are a lower bound, so the mean guesses is one too.
    pub undecided: u64,
}

impl Summary {
    /// Counts one grade.
    pub fn add(&mut self, g: &Grade) {
        self.puzzles += 1;
        if let Some(k) = Technique::ALL.iter().position(|&t| t == g.technique) {
            self.techniques[k] += 1;
        }
        self.guesses += g.guesses;
        self.clues += g.clues as u64;
        if g.solutions != Some(1) {
            self.not_unique += 1;
        }
        self.undecided += u64::from(g.undecided > 0);
    }

    /// Mean guesses per puzzle.
    pub fn mean_guesses(&self) -> f64 {
        self.guesses / self.puzzles.max(1) as f64
    }

    /// Mean clues per puzzle.
    pub fn mean_clues(&self) -> f64 {
        self.clues as f64 / self.puzzles.max(1) as f64
    }

    /// Puzzles graded `t`.
    pub fn with(&self, t: Technique) -> u64 {
        Technique::ALL
            .iter()
            .position(|&x| x == t)
            .map_or(0, |k| self.techniques[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn puzzle(text: &str) -> Puzzle {
        Puzzle::Grid(text.parse::<Grid>().expect("test grid"))
    }

    // Easy (Kaggle-like) and hard (forum hardest) puzzles.
    use crate::test_puzzles::{EASY, EASY_SOLUTION as SOLVED, HARD};

    #[test]
    fn ladder_ends_and_extremes() {
        assert_eq!(technique(&puzzle(SOLVED)), Some(Technique::None));
        let mut clash = SOLVED.to_string();
        clash.replace_range(0..1, "9");
        assert_eq!(technique(&puzzle(&clash)), Some(Technique::Contradiction));
        // A full grid minus one cell: a naked single.
        let mut one = SOLVED.to_string();
        one.replace_range(40..41, ".");
        assert_eq!(technique(&puzzle(&one)), Some(Technique::NakedSingle));
        assert_eq!(technique(&puzzle(HARD)), Some(Technique::Search));
        let easy = technique(&puzzle(EASY)).unwrap();
        assert!(easy < Technique::Search, "{easy}");
        // The empty grid: deduction stalls at once.
        assert_eq!(technique(&puzzle(&".".repeat(81))), Some(Technique::Search));
    }

    #[test]
    fn each_grade_is_the_first_rung_that_solves() {
        let mut g = crate::generate::Generator::new(Default::default()).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..40 {
            let p = Puzzle::Grid(g.generate(5, i).unwrap().puzzle);
            let t = technique(&p).unwrap();
            seen.insert(t);
            let start = p.candidates().unwrap();
            match LADDER.iter().position(|&(r, _)| r == t) {
                Some(k) => {
                    assert!(closure(&start, LADDER[k].1).is_solved(), "{p}");
                    if k > 0 {
                        assert!(!closure(&start, LADDER[k - 1].1).is_solved(), "{p}");
                    }
                }
                None => assert_eq!(t, Technique::Search, "{p}"),
            }
        }
        // Random minimal puzzles spread over several rungs.
        assert!(seen.len() >= 3, "{seen:?}");
    }

    #[test]
    fn grades_are_deterministic_and_harder_puzzles_guess_more() {
        let mut a = Grader::new(8, 1).unwrap();
        let mut b = Grader::new(8, 1).unwrap();
        let hard = puzzle(HARD);
        let easy = puzzle(EASY);
        let g = a.grade(&hard).unwrap();
        b.grade(&easy);
        assert_eq!(b.grade(&hard), Some(g));
        assert_eq!(g.solutions, Some(1));
        assert_eq!(g.clues, 21);
        let easy = a.grade(&easy).unwrap();
        assert!(g.guesses > easy.guesses);
        assert_eq!(easy.guesses, 0.0);
        let mut s = Summary::default();
        s.add(&g);
        s.add(&easy);
        assert_eq!(s.puzzles, 2);
        assert_eq!(s.with(Technique::Search), 1);
        assert_eq!(s.not_unique, 0);
        assert!((s.mean_clues() - (21.0 + 28.0) / 2.0).abs() < 1e-9);
    }
}
