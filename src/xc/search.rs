//! What every exact-cover solver shares: the limit it searches to, the tally of what it
//! found, and the depth-first driver of the solvers without links.

/// How many solutions a search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Every solution.
    All,
    /// Stop after this many (at least 1).
    AtMost(u64),
}

impl Limit {
    /// `0` means all, any other number at most that many.
    pub fn from_count(n: u64) -> Limit {
        if n == 0 {
            Limit::All
        } else {
            Limit::AtMost(n)
        }
    }

    /// Whether `found` solutions are enough to stop.
    pub fn reached(self, found: u64) -> bool {
        matches!(self, Limit::AtMost(n) if found >= n)
    }
}

/// What one search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// False when the node budget ran out first: the count is then a lower bound.
    pub complete: bool,
    /// Search nodes (for the SAT backends: solver calls).
    pub nodes: u64,
    /// Link updates (Knuth's measure, for `dlx`); item state changes for `basic`; 0 for
    /// the SAT backends.
    pub updates: u64,
    /// The first solutions found, each as option indices in increasing order (up to the
    /// `keep` the search was given).
    pub solutions: Vec<Vec<usize>>,
}

impl Found {
    /// Whether the limit stopped the search (the count is then "at least").
    pub fn limited(&self, limit: Limit) -> bool {
        limit.reached(self.count)
    }
}

/// A search under way: what it was asked for (up to `limit` solutions within `max_nodes`
/// nodes, each shown to `visit`) and what it has found so far.
pub struct Tally<'a> {
    pub(super) limit: Limit,
    pub(super) max_nodes: Option<u64>,
    pub(super) visit: &'a mut dyn FnMut(&[usize]),
    /// Found so far: complete until the budget stops the search.
    pub found: Found,
}

impl<'a> Tally<'a> {
    /// A search for up to `limit` solutions within `max_nodes` nodes (`None`: no budget),
    /// showing each to `visit`.
    pub fn new(limit: Limit, max_nodes: Option<u64>, visit: &'a mut dyn FnMut(&[usize])) -> Self {
        Tally {
            limit,
            max_nodes,
            visit,
            found: Found {
                complete: true,
                ..Found::default()
            },
        }
    }

    /// Counts one more search node; false (and the search incomplete) once that is past the
    /// budget, or the thread's deadline ([`crate::deadline`]: a time budget of the runner)
    /// has passed.
    #[inline]
    pub fn count_node(&mut self) -> bool {
        let f = &mut self.found;
        f.nodes += 1;
        if f.nodes > self.max_nodes.unwrap_or(u64::MAX) || crate::deadline::due(f.nodes) {
            f.complete = false;
        }
        f.complete
    }

    /// [`count_node`](Tally::count_node) for a node that is a whole solver call (the SAT
    /// backends): the clock is read at every one, since one call can take a second where a
    /// search node takes a microsecond.
    #[inline]
    pub fn count_call(&mut self) -> bool {
        if self.count_node() && crate::deadline::passed() {
            self.found.complete = false;
        }
        self.found.complete
    }

    /// Counts `solution` and shows it to the visitor; true if that reaches the limit.
    #[inline]
    pub fn count_solution(&mut self, solution: &[usize]) -> bool {
        self.found.count += 1;
        (self.visit)(solution);
        self.limit.reached(self.found.count)
    }
}

/// An Algorithm X search without links, as [`backtrack`] drives it (`basic` and `dlx-array`):
/// the state picks the item to branch on, applies the options to try there one at a time, and
/// undoes them.
pub(super) trait Branching {
    /// Where one level stands: its item and the options tried there so far.
    type Level;
    /// Whether every primary item is covered.
    fn solved(&self) -> bool;
    /// The level of the item to branch on next, or `None` at a dead end (an uncovered item
    /// with no option left).
    fn branch(&mut self) -> Option<Self::Level>;
    /// Applies the next option to try at `level` and returns it; `None` when none is left.
    fn next(&mut self, level: &mut Self::Level) -> Option<usize>;
    /// Undoes option `o`, the last one applied.
    fn undo(&mut self, o: usize);
}

/// Searches `state` depth first as the tally asks, without recursion (deep instances cannot
/// overflow the stack), showing the tally each solution (options in the order chosen).
/// `depth` is a guess of the deepest level, to size the stack.
#[inline]
pub(super) fn backtrack<B: Branching>(state: &mut B, tally: &mut Tally, depth: usize) {
    let mut stack: Vec<(B::Level, Option<usize>)> = Vec::with_capacity(depth);
    let mut solution: Vec<usize> = Vec::with_capacity(depth);
    'node: loop {
        if !tally.count_node() {
            break;
        }
        if state.solved() {
            solution.clear();
            solution.extend(stack.iter().filter_map(|f| f.1));
            if tally.count_solution(&solution) {
                break;
            }
        } else if let Some(level) = state.branch() {
            stack.push((level, None));
        }
        // The next option at the deepest level that has one left.
        while let Some((level, applied)) = stack.last_mut() {
            if let Some(o) = applied.take() {
                state.undo(o);
            }
            if let Some(o) = state.next(level) {
                *applied = Some(o);
                continue 'node;
            }
            stack.pop();
        }
        break;
    }
    // A stop at the limit or the budget leaves options applied: the state is dropped.
}
