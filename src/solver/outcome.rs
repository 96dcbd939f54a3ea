//! What a backend answers: [`Outcome`] (which cannot hold an impossible answer), the solution
//! [`Limit`] it was asked for, the [`Count`] it amounts to, and its work counters ([`Stats`]).

use crate::grid::Grid;
use crate::puzzle::Solution;
use std::fmt;
use std::num::NonZeroU32;

/// How many solutions to look for: 1 finds one, 2 decides uniqueness. Never zero, so no
/// backend has to guess what a limit of 0 would mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Limit(NonZeroU32);

impl Limit {
    /// Stop at the first solution.
    pub const ONE: Limit = Limit(NonZeroU32::MIN);
    /// Decide uniqueness (stop at the second solution).
    pub const TWO: Limit = match NonZeroU32::new(2) {
        Some(n) => Limit(n),
        None => unreachable!(),
    };

    /// A limit of `n` solutions; `None` for 0.
    pub const fn new(n: u32) -> Option<Limit> {
        match NonZeroU32::new(n) {
            Some(n) => Some(Limit(n)),
            None => None,
        }
    }

    /// The limit as a number (at least 1).
    pub const fn get(self) -> u32 {
        self.0.get()
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How many solutions an answer claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Count {
    /// Exactly this many: the search ended below its limit.
    Exactly(u32),
    /// At least this many: the search stopped at its limit (a limit of 2 that found two
    /// solutions claims "2 or more").
    AtLeast(u32),
    /// The backend could not decide (incomplete method, budget spent, failed backend).
    Unknown,
}

impl Count {
    /// `n` solutions found by a search with this limit: exactly `n` below the limit, at least
    /// the limit from there on.
    pub fn of(n: u32, limit: Limit) -> Count {
        if n >= limit.get() {
            Count::AtLeast(limit.get())
        } else {
            Count::Exactly(n)
        }
    }

    /// Solutions found, exact or a lower bound; `None` if undecided.
    pub fn found(self) -> Option<u32> {
        match self {
            Count::Exactly(n) | Count::AtLeast(n) => Some(n),
            Count::Unknown => None,
        }
    }

    /// The count as text: `0`, `1`, `2+` (at least two), `1+`, or `unknown`.
    pub fn display(&self) -> String {
        match *self {
            Count::Exactly(n) => n.to_string(),
            Count::AtLeast(n) => format!("{n}+"),
            Count::Unknown => "unknown".to_string(),
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// Work counters of one answer. `guesses` is `None` when the backend does not count guesses
/// (SAT, projection, an external program that did not say), so reports show no figure
/// rather than a made-up 0; the other counters stay 0 where a backend has no use for them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points at which the backend had to guess (tried an alternative that deduction
    /// did not force). `Some(0)` means solved by deduction alone.
    pub guesses: Option<u64>,
    /// Search nodes visited (backend-specific granularity, e.g. DLX column choices).
    pub nodes: u64,
    /// Link updates (DLX) or candidate eliminations (propagating backends).
    pub updates: u64,
    /// SAT conflicts.
    pub conflicts: u64,
    /// SAT decisions (or SAT calls, for solvers without a decision counter).
    pub decisions: u64,
    /// Iterations of an iterative method (projection).
    pub iterations: u64,
    /// Largest subset size a deduction used (logic backend).
    pub max_subset: u64,
}

impl Stats {
    /// Counters of a backend that counts guesses, all zero.
    pub const GUESSING: Stats = Stats {
        guesses: Some(0),
        nodes: 0,
        updates: 0,
        conflicts: 0,
        decisions: 0,
        iterations: 0,
        max_subset: 0,
    };

    /// Adds another answer's counters to these (`max_subset` takes the maximum; guesses are
    /// summed over the answers that counted them).
    pub fn accumulate(&mut self, other: &Stats) {
        // Sums saturate: a backend's counters are its own word, and a huge one must not wrap
        // into a small figure (the runner keeps an exact wide sum of guesses for its mean).
        if let Some(g) = other.guesses {
            let sum = self.guesses.get_or_insert(0);
            *sum = sum.saturating_add(g);
        }
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.updates = self.updates.saturating_add(other.updates);
        self.conflicts = self.conflicts.saturating_add(other.conflicts);
        self.decisions = self.decisions.saturating_add(other.decisions);
        self.iterations = self.iterations.saturating_add(other.iterations);
        self.max_subset = self.max_subset.max(other.max_subset);
    }

    /// Counts one guess (and starts counting guesses if this answer did not yet).
    #[inline(always)]
    pub fn add_guess(&mut self) {
        *self.guesses.get_or_insert(0) += 1;
    }
}

/// An answer a backend cannot give: [`Outcome::claimed`] refuses it (an outside backend
/// that says so has lied or is broken).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Impossible {
    /// More solutions than the search was asked for.
    #[error("{count} solutions claimed, above the limit of {limit}")]
    AboveLimit {
        /// The count claimed.
        count: u32,
        /// The limit asked for.
        limit: Limit,
    },
    /// Solutions claimed with none shown.
    #[error("{count} solution(s) claimed, none shown")]
    NoSolution {
        /// The count claimed.
        count: u32,
    },
    /// A solution shown beside a count of none.
    #[error("no solution claimed, yet one shown")]
    SolutionBesideNone,
    /// A second solution beside a count of one.
    #[error("a second solution shown beside a count of 1")]
    SecondBesideOne,
    /// The "second" solution is the first one again.
    #[error("the second solution is the first one again")]
    SecondEqualsFirst,
}

/// One answer of a backend to one puzzle. Its fields are private and its constructors refuse
/// the impossible: a count of one or more carries its first solution, "no solution" carries
/// none, a count never exceeds the limit asked for, a second solution differs from the first
/// and stands only beside a count of two or more, and a count that reached its limit says "at
/// least" ([`Count::AtLeast`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    answer: Answer,
    stats: Stats,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// No solution.
    None,
    /// `count` solutions found (at most the limit; `at_least` when it reached it).
    Found {
        count: NonZeroU32,
        at_least: bool,
        first: Solution,
        /// The witness of a count of two or more. Built-in complete backends always give it;
        /// an external program may not.
        second: Option<Solution>,
    },
    /// Undecided, with a solution found on the way, if any (an incomplete method that found
    /// one but cannot tell whether it is the only one; a search stopped by its budget).
    Unknown { solution: Option<Solution> },
}

impl Outcome {
    /// "No solution".
    pub fn none(stats: Stats) -> Outcome {
        Outcome {
            answer: Answer::None,
            stats,
        }
    }

    /// One solution found by a search with `limit`: exactly one below a limit of 1's reach,
    /// "at least one" with a limit of 1.
    pub fn one(first: Grid, limit: Limit, stats: Stats) -> Outcome {
        Outcome {
            answer: Answer::Found {
                count: NonZeroU32::MIN,
                at_least: limit == Limit::ONE,
                first: Solution::Grid(first),
                second: None,
            },
            stats,
        }
    }

    /// "Could not decide", with no solution.
    pub fn unknown(stats: Stats) -> Outcome {
        Outcome::undecided(None, stats)
    }

    /// "Could not decide", keeping a solution found on the way.
    pub fn undecided(solution: Option<Grid>, stats: Stats) -> Outcome {
        Outcome::undecided_any(solution.map(Solution::Grid), stats)
    }

    /// "Could not decide", keeping a solution of any order found on the way.
    pub fn undecided_any(solution: Option<Solution>, stats: Stats) -> Outcome {
        Outcome {
            answer: Answer::Unknown { solution },
            stats,
        }
    }

    /// The answer of a built-in search with `limit` that found `found` solutions, the first
    /// two being `first` and `second`; undecided (keeping `first`) when its budget ran out
    /// before it finished. What a correct search cannot produce (a count without a solution, a
    /// count above the limit, a second equal to the first) fails debug builds and is mended in
    /// release builds: undecided, the limit, no second.
    pub fn searched<S: Into<Solution>>(
        found: u32,
        limit: Limit,
        budget_spent: bool,
        first: Option<S>,
        second: Option<S>,
        stats: Stats,
    ) -> Outcome {
        let first: Option<Solution> = first.map(Into::into);
        if budget_spent {
            return Outcome::undecided_any(first, stats);
        }
        debug_assert!(found <= limit.get(), "a search went past its limit");
        let found = found.min(limit.get());
        // The checks of `claimed`, without a copy of the solution for the impossible case
        // (this runs once per puzzle on the fastest backends).
        match (NonZeroU32::new(found), first) {
            (None, None) => Outcome::none(stats),
            (Some(count), Some(first)) => {
                let second = second.map(Into::into).filter(|s| found >= 2 && *s != first);
                Outcome {
                    answer: Answer::Found {
                        count,
                        at_least: found == limit.get(),
                        first,
                        second,
                    },
                    stats,
                }
            }
            (_, first) => {
                debug_assert!(
                    false,
                    "a built-in search counted {found} with first {first:?}"
                );
                Outcome::undecided_any(first, stats)
            }
        }
    }

    /// The answer an outside backend claims: `count` solutions for a search with `limit`,
    /// shown by `first` and `second` (9×9 grids or [`Solution`]s). Refused when impossible
    /// (see [`Impossible`]); a second solution may be missing beside a count of two or more
    /// (a claim without its witness).
    pub fn claimed<S: Into<Solution>>(
        count: u32,
        limit: Limit,
        first: Option<S>,
        second: Option<S>,
        stats: Stats,
    ) -> Result<Outcome, Impossible> {
        let (first, second) = (first.map(Into::into), second.map(Into::into));
        if count > limit.get() {
            return Err(Impossible::AboveLimit { count, limit });
        }
        let Some(n) = NonZeroU32::new(count) else {
            return match (first, second) {
                (None, None) => Ok(Outcome::none(stats)),
                _ => Err(Impossible::SolutionBesideNone),
            };
        };
        let first = first.ok_or(Impossible::NoSolution { count })?;
        match &second {
            Some(_) if count == 1 => return Err(Impossible::SecondBesideOne),
            Some(s) if *s == first => return Err(Impossible::SecondEqualsFirst),
            _ => {}
        }
        Ok(Outcome {
            answer: Answer::Found {
                count: n,
                at_least: count == limit.get(),
                first,
                second,
            },
            stats,
        })
    }

    /// The count this answer claims.
    pub fn count(&self) -> Count {
        match self.answer {
            Answer::None => Count::Exactly(0),
            Answer::Found {
                count,
                at_least: true,
                ..
            } => Count::AtLeast(count.get()),
            Answer::Found { count, .. } => Count::Exactly(count.get()),
            Answer::Unknown { .. } => Count::Unknown,
        }
    }

    /// The first solution, if the answer has one (of any order).
    pub fn first_solution(&self) -> Option<&Solution> {
        match &self.answer {
            Answer::None => None,
            Answer::Found { first, .. } => Some(first),
            Answer::Unknown { solution } => solution.as_ref(),
        }
    }

    /// The witness of a second solution, if the answer has one (of any order).
    pub fn second_solution(&self) -> Option<&Solution> {
        match &self.answer {
            Answer::Found { second, .. } => second.as_ref(),
            _ => None,
        }
    }

    /// The first solution as a 9×9 grid, if the answer has one and it is 9×9.
    pub fn solution(&self) -> Option<&Grid> {
        self.first_solution().and_then(Solution::grid)
    }

    /// The witness of a second solution as a 9×9 grid, if there is one and it is 9×9.
    pub fn second(&self) -> Option<&Grid> {
        self.second_solution().and_then(Solution::grid)
    }

    /// Whether the answer is undecided.
    pub fn is_unknown(&self) -> bool {
        matches!(self.answer, Answer::Unknown { .. })
    }

    /// The work counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The work counters, to add to them.
    pub fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }

    /// Applies `f` to every solution the answer carries (to map them back through a
    /// symmetry, which keeps two different solutions different).
    pub fn map_solutions(&mut self, mut f: impl FnMut(&Grid) -> Grid) {
        let mut map = |s: &mut Solution| {
            if let Solution::Grid(g) = s {
                *g = f(g);
            }
        };
        match &mut self.answer {
            Answer::None => {}
            Answer::Found { first, second, .. } => {
                map(first);
                second.iter_mut().for_each(map);
            }
            Answer::Unknown { solution } => solution.iter_mut().for_each(map),
        }
    }

    /// The answer as text: the count, then the solution or `-`.
    pub fn text(&self) -> String {
        match self.first_solution() {
            Some(s) => format!("{} {s}", self.count()),
            None => format!("{} -", self.count()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_never_zero() {
        assert_eq!(Limit::new(0), None);
        assert_eq!(Limit::ONE.get(), 1);
        assert_eq!(Limit::TWO.get(), 2);
        assert_eq!(Limit::new(5).map(Limit::get), Some(5));
    }

    #[test]
    fn counts_say_exactly_or_at_least() {
        assert_eq!(Count::of(2, Limit::TWO), Count::AtLeast(2));
        assert_eq!(Count::of(1, Limit::ONE), Count::AtLeast(1));
        assert_eq!(Count::of(1, Limit::TWO), Count::Exactly(1));
        assert_eq!(Count::of(0, Limit::ONE), Count::Exactly(0));
        assert_eq!(Count::AtLeast(2).display(), "2+");
        assert_eq!(Count::AtLeast(1).to_string(), "1+");
        assert_eq!(Count::Exactly(1).display(), "1");
        assert_eq!(Count::Unknown.display(), "unknown");
        assert_ne!(Count::Exactly(1), Count::AtLeast(1));
    }

    #[test]
    fn a_search_cannot_claim_solutions_it_did_not_keep() {
        let g = Grid::EMPTY;
        let s = Stats::default();
        let two = Limit::TWO;
        assert_eq!(
            Outcome::searched(0, two, false, None::<Grid>, None, s).count(),
            Count::Exactly(0)
        );
        assert_eq!(
            Outcome::searched(2, two, true, Some(g), None, s).solution(),
            Some(&g)
        );
        assert_eq!(
            Outcome::searched(2, two, true, Some(g), None, s).count(),
            Count::Unknown
        );
        assert_eq!(Outcome::one(g, Limit::ONE, s).count(), Count::AtLeast(1));
        assert_eq!(Outcome::one(g, two, s).count(), Count::Exactly(1));
    }

    #[test]
    fn claims_refuse_the_impossible() {
        let a: Grid =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
                .parse()
                .unwrap();
        let b: Grid =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531624"
                .parse()
                .unwrap();
        let s = Stats::default();
        let two = Limit::TWO;
        assert_eq!(
            Outcome::claimed(3, two, Some(a), Some(b), s),
            Err(Impossible::AboveLimit {
                count: 3,
                limit: two
            })
        );
        assert_eq!(
            Outcome::claimed(1, two, None::<Grid>, None, s),
            Err(Impossible::NoSolution { count: 1 })
        );
        assert_eq!(
            Outcome::claimed(0, two, Some(a), None, s),
            Err(Impossible::SolutionBesideNone)
        );
        assert_eq!(
            Outcome::claimed(1, two, Some(a), Some(b), s),
            Err(Impossible::SecondBesideOne)
        );
        assert_eq!(
            Outcome::claimed(2, two, Some(a), Some(a), s),
            Err(Impossible::SecondEqualsFirst)
        );
        let ok = Outcome::claimed(2, two, Some(a), None, s).expect("a claim without a witness");
        assert_eq!((ok.count(), ok.second()), (Count::AtLeast(2), None));
        assert_eq!(
            Outcome::claimed(1, two, Some(a), None, s).map(|o| o.count()),
            Ok(Count::Exactly(1))
        );
    }

    #[test]
    fn guesses_start_uncounted() {
        let mut s = Stats::default();
        assert_eq!(s.guesses, None);
        s.add_guess();
        assert_eq!(s.guesses, Some(1));
        assert_eq!(Stats::GUESSING.guesses, Some(0));
    }
}
