//! The [`Solver`] trait every backend implements, what it returns, and the registry that
//! builds backends by name.
//!
//! A backend is built once (per thread) and reused for many puzzles, so it may keep buffers
//! between calls. `solve(puzzle, limit)` looks for up to `limit` solutions: `limit = 1` finds
//! one, `limit = 2` decides uniqueness.

pub mod basic;
pub mod bitmask;
pub mod dlx;
pub mod dlx_array;
pub mod exact_cover;
pub mod exec;
pub mod logic;
mod progress;
pub mod projection;
mod registry;
pub mod sat;

pub use registry::{build, builtin_names, describe, BackendInfo, BuildError, Options, BACKENDS};

use crate::grid::{Candidates, Grid, Puzzle};

/// How many solutions a backend found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Count {
    /// Exactly this many were found before the search ended or reached the limit. A value equal
    /// to the limit means "at least that many".
    Exactly(u32),
    /// The backend could not decide (incomplete method, budget spent, unsupported input).
    Unknown,
}

impl Count {
    /// The count as text for a given limit: `0`, `1`, `2+` (limit reached), or `unknown`.
    pub fn display(&self, limit: u32) -> String {
        match *self {
            Count::Exactly(n) if n >= limit && n > 0 => format!("{n}+"),
            Count::Exactly(n) => n.to_string(),
            Count::Unknown => "unknown".to_string(),
        }
    }
}

/// Work counters a backend reports; fields a backend has no use for stay 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points at which the backend had to guess (tried an alternative that deduction
    /// did not force). 0 means solved by deduction alone.
    pub guesses: u64,
    /// Search nodes visited (backend-specific granularity, e.g. DLX column choices).
    pub nodes: u64,
    /// Link updates (DLX) or candidate eliminations (propagating backends).
    pub updates: u64,
    /// SAT conflicts.
    pub conflicts: u64,
    /// SAT decisions.
    pub decisions: u64,
    /// Iterations of an iterative method (projection).
    pub iterations: u64,
    /// Largest subset size a deduction used (logic backend).
    pub max_subset: u64,
}

impl Stats {
    /// Adds another set of counters to this one (`max_subset` takes the maximum).
    pub fn accumulate(&mut self, other: &Stats) {
        self.guesses += other.guesses;
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.conflicts += other.conflicts;
        self.decisions += other.decisions;
        self.iterations += other.iterations;
        self.max_subset = self.max_subset.max(other.max_subset);
    }
}

/// Whether the CPU has the POPCNT instruction, which the x86-64 baseline lacks: backends that
/// count bits in their branching choice compile that part with it when it is there.
pub(crate) fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// What one call to [`Solver::solve`] found. Built with [`Outcome::searched`],
/// [`Outcome::none`] or [`Outcome::unknown`] (and [`Outcome::with_second`]) outside this crate,
/// so that a field added later breaks no backend.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outcome {
    /// Solutions found, up to the limit.
    pub count: Count,
    /// The first solution found, if any. An incomplete backend may return a solution with an
    /// `Unknown` count.
    pub solution: Option<Grid>,
    /// A second solution, different from the first: the witness of a count of two or more.
    /// Backends that cannot produce one (an external program, say) leave it `None`.
    pub second: Option<Grid>,
    /// Work counters.
    pub stats: Stats,
}

impl Outcome {
    /// An answer saying "no solution".
    pub fn none(stats: Stats) -> Outcome {
        Outcome {
            count: Count::Exactly(0),
            solution: None,
            second: None,
            stats,
        }
    }

    /// The answer of a search that found `found` solutions (the first being `solution`), or
    /// `Unknown` when its node budget ran out before it could finish.
    pub fn searched(
        found: u32,
        budget_spent: bool,
        solution: Option<Grid>,
        stats: Stats,
    ) -> Outcome {
        Outcome {
            count: if budget_spent {
                Count::Unknown
            } else {
                Count::Exactly(found)
            },
            solution,
            second: None,
            stats,
        }
    }

    /// The same answer with `second` as the witness of a second solution.
    pub fn with_second(mut self, second: Option<Grid>) -> Outcome {
        self.second = second;
        self
    }

    /// What is wrong with the witness of a second solution, if there is one and anything is:
    /// it needs a first solution beside it, a count of two or more (or an undecided one), and
    /// it must be a valid solution of `puzzle` different from the first. Worded to follow the
    /// backend's name.
    pub fn second_problem(&self, puzzle: &Puzzle) -> Option<String> {
        let second = self.second.as_ref()?;
        match (&self.solution, self.count) {
            (None, _) => Some("returned a second solution but no first".to_string()),
            (_, Count::Exactly(n)) if n < 2 => {
                Some(format!("counted {n} but returned a second solution"))
            }
            (Some(first), _) => crate::verify::check_second(puzzle, first, second)
                .err()
                .map(|e| format!("returned an invalid second solution {second}: {e}")),
        }
    }

    /// An answer saying "could not decide".
    pub fn unknown(stats: Stats) -> Outcome {
        Outcome {
            count: Count::Unknown,
            solution: None,
            second: None,
            stats,
        }
    }
}

/// A Sudoku solving algorithm. One instance is reused for many puzzles.
///
/// Implement [`name`](Solver::name) and [`solve`](Solver::solve); override the others when the
/// backend can do better than the default.
pub trait Solver: Send {
    /// Short stable name used on the command line and in reports.
    fn name(&self) -> &'static str;

    /// Whether every answer is decided (`false` if [`Count::Unknown`] can come back for a
    /// puzzle without a budget being spent, as with the projection method).
    fn is_complete(&self) -> bool {
        true
    }

    /// Looks for up to `limit` solutions of the clue grid (a `limit` of 0 is treated as 1)
    /// and returns how many it found and the first one.
    ///
    /// Must not panic on any grid, including ones whose clues contradict each other.
    fn solve(&mut self, puzzle: &Grid, limit: u32) -> Outcome;

    /// Like [`solve`](Solver::solve), for a pencilmark position.
    ///
    /// The default answers [`Count::Unknown`]; override it when the backend can start from
    /// candidates (every built-in backend does).
    fn solve_candidates(&mut self, candidates: &Candidates, limit: u32) -> Outcome {
        let _ = (candidates, limit);
        Outcome::unknown(Stats::default())
    }

    /// Solves either kind of puzzle.
    fn solve_puzzle(&mut self, puzzle: &Puzzle, limit: u32) -> Outcome {
        match puzzle {
            Puzzle::Grid(g) => self.solve(g, limit),
            Puzzle::Candidates(c) => self.solve_candidates(c, limit),
        }
    }

    /// Solves several puzzles, appending one outcome per puzzle to `outcomes`, in order.
    ///
    /// The default solves them one by one; override it when handing over many puzzles at once
    /// saves time (the external-program backend pipelines them).
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: u32, outcomes: &mut Vec<Outcome>) {
        for p in puzzles {
            outcomes.push(self.solve_puzzle(p, limit));
        }
    }

    /// Why the backend can no longer answer, once it has failed for good (an external program
    /// that crashed, hung or wrote garbage). Its later answers are all `Unknown`.
    fn fault(&self) -> Option<&str> {
        None
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn is_complete(&self) -> bool {
        (**self).is_complete()
    }
    fn solve(&mut self, puzzle: &Grid, limit: u32) -> Outcome {
        (**self).solve(puzzle, limit)
    }
    fn solve_candidates(&mut self, candidates: &Candidates, limit: u32) -> Outcome {
        (**self).solve_candidates(candidates, limit)
    }
    fn solve_puzzle(&mut self, puzzle: &Puzzle, limit: u32) -> Outcome {
        (**self).solve_puzzle(puzzle, limit)
    }
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: u32, outcomes: &mut Vec<Outcome>) {
        (**self).solve_batch(puzzles, limit, outcomes)
    }
    fn fault(&self) -> Option<&str> {
        (**self).fault()
    }
}
