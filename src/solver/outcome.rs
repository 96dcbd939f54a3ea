//! What a backend answers: [`Outcome`] (which cannot hold an impossible answer), the solution
//! [`Limit`] it was asked for, the [`Count`] it amounts to, and its work counters ([`Stats`]).

use crate::grid::Grid;
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
    /// Exactly this many were found before the search ended or reached the limit. A value equal
    /// to the limit means "at least that many".
    Exactly(u32),
    /// The backend could not decide (incomplete method, budget spent, failed backend).
    Unknown,
}

impl Count {
    /// The count as text for a given limit: `0`, `1`, `2+` (limit reached), or `unknown`.
    pub fn display(&self, limit: Limit) -> String {
        match *self {
            Count::Exactly(n) if n >= limit.get() && n > 0 => format!("{n}+"),
            Count::Exactly(n) => n.to_string(),
            Count::Unknown => "unknown".to_string(),
        }
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

/// One answer of a backend to one puzzle, shaped so that it cannot claim the impossible: a
/// count of one or more always carries its first solution, "no solution" carries none, and
/// undecided answers say so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The puzzle has no solution.
    None {
        /// Work counters.
        stats: Stats,
    },
    /// `count` solutions were found (at most the limit; equal to it means "at least").
    Found {
        /// Solutions found.
        count: NonZeroU32,
        /// The first solution.
        first: Grid,
        /// A second solution, different from the first: the witness of a count of two or
        /// more. Built-in complete backends always give it; an external program cannot.
        second: Option<Grid>,
        /// Work counters.
        stats: Stats,
    },
    /// Undecided: an incomplete method, a spent budget, or a failed backend.
    Unknown {
        /// A solution found on the way, if any (an incomplete method that found one but cannot
        /// tell whether it is the only one; a search stopped by its budget after one).
        solution: Option<Grid>,
        /// Work counters.
        stats: Stats,
    },
}

impl Outcome {
    /// "No solution".
    pub fn none(stats: Stats) -> Outcome {
        Outcome::None { stats }
    }

    /// One solution found (with a limit of 1: "at least one").
    pub fn unique(first: Grid, stats: Stats) -> Outcome {
        Outcome::Found {
            count: NonZeroU32::MIN,
            first,
            second: None,
            stats,
        }
    }

    /// "Could not decide", with no solution.
    pub fn unknown(stats: Stats) -> Outcome {
        Outcome::Unknown {
            solution: None,
            stats,
        }
    }

    /// The answer of a search that found `found` solutions, the first two being `first` and
    /// `second`; `Unknown` (keeping `first`) when its budget ran out before it finished. A
    /// count of one or more without a first solution cannot be represented: it becomes
    /// `Unknown` (and fails debug builds, since it is a backend bug).
    pub fn searched(
        found: u32,
        budget_spent: bool,
        first: Option<Grid>,
        second: Option<Grid>,
        stats: Stats,
    ) -> Outcome {
        match (budget_spent, NonZeroU32::new(found), first) {
            (true, _, solution) => Outcome::Unknown { solution, stats },
            (false, None, _) => Outcome::None { stats },
            (false, Some(count), Some(first)) => Outcome::Found {
                count,
                first,
                second: if count.get() >= 2 { second } else { None },
                stats,
            },
            (false, Some(_), None) => {
                debug_assert!(false, "a search counted solutions but kept none");
                Outcome::unknown(stats)
            }
        }
    }

    /// The count this answer claims.
    pub fn count(&self) -> Count {
        match self {
            Outcome::None { .. } => Count::Exactly(0),
            Outcome::Found { count, .. } => Count::Exactly(count.get()),
            Outcome::Unknown { .. } => Count::Unknown,
        }
    }

    /// The first solution, if the answer has one.
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::None { .. } => None,
            Outcome::Found { first, .. } => Some(first),
            Outcome::Unknown { solution, .. } => solution.as_ref(),
        }
    }

    /// The witness of a second solution, if the answer has one.
    pub fn second(&self) -> Option<&Grid> {
        match self {
            Outcome::Found { second, .. } => second.as_ref(),
            _ => None,
        }
    }

    /// The work counters.
    pub fn stats(&self) -> &Stats {
        match self {
            Outcome::None { stats }
            | Outcome::Found { stats, .. }
            | Outcome::Unknown { stats, .. } => stats,
        }
    }

    /// The work counters, to add to them.
    pub fn stats_mut(&mut self) -> &mut Stats {
        match self {
            Outcome::None { stats }
            | Outcome::Found { stats, .. }
            | Outcome::Unknown { stats, .. } => stats,
        }
    }

    /// Applies `f` to every solution the answer carries (to map them back through a symmetry).
    pub fn map_solutions(&mut self, mut f: impl FnMut(&Grid) -> Grid) {
        match self {
            Outcome::None { .. } => {}
            Outcome::Found { first, second, .. } => {
                *first = f(first);
                if let Some(s) = second {
                    *s = f(s);
                }
            }
            Outcome::Unknown { solution, .. } => {
                if let Some(s) = solution {
                    *s = f(s);
                }
            }
        }
    }

    /// The answer as text: the count, then the solution or `-`.
    pub fn text(&self, limit: Limit) -> String {
        match self.solution() {
            Some(s) => format!("{} {s}", self.count().display(limit)),
            None => format!("{} -", self.count().display(limit)),
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
    fn counts_read_as_at_least_at_the_limit() {
        assert_eq!(Count::Exactly(2).display(Limit::TWO), "2+");
        assert_eq!(Count::Exactly(1).display(Limit::ONE), "1+");
        assert_eq!(Count::Exactly(1).display(Limit::TWO), "1");
        assert_eq!(Count::Exactly(0).display(Limit::ONE), "0");
        assert_eq!(Count::Unknown.display(Limit::TWO), "unknown");
    }

    #[test]
    fn a_search_cannot_claim_solutions_it_did_not_keep() {
        let g = Grid::EMPTY;
        let s = Stats::default();
        assert_eq!(
            Outcome::searched(0, false, None, None, s).count(),
            Count::Exactly(0)
        );
        assert_eq!(
            Outcome::searched(3, true, Some(g), None, s).solution(),
            Some(&g)
        );
        assert_eq!(
            Outcome::searched(3, true, Some(g), None, s).count(),
            Count::Unknown
        );
        let one = Outcome::searched(1, false, Some(g), Some(g), s);
        assert_eq!(
            one.second(),
            None,
            "a count of one keeps no second solution"
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
