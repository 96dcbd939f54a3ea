//! The oracle: Algorithm X over plain sets, with no links at all, written to be obviously
//! right rather than fast. Each step takes the uncovered primary item with fewest options
//! compatible with what is chosen so far (MRV, first in item order on ties; a scan over the
//! options of every uncovered item, each item's cut short once it cannot win, each option
//! checked at most once per step) and tries each of those options in file order. An option is
//! compatible when its primary items are all uncovered and each of its secondary items is
//! either unused or used so far only with the option's own colour (an uncoloured use admits
//! nothing else). The search is iterative, so deep instances cannot overflow the stack.

use super::knuth::Instance;
use super::search::{backtrack, Branching, Found, Tally};

/// The state of every item: how many chosen options use it and the colour of the first.
struct State<'a> {
    instance: &'a Instance,
    /// The options of each primary item.
    containing: Vec<Vec<usize>>,
    uses: Vec<u32>,
    colour: Vec<u32>,
    /// Primary items covered.
    covered: usize,
    /// Item state changes (the `updates` this backend reports).
    changes: u64,
    /// Per option: the number of the last [`branch`](Branching::branch) call that checked
    /// it, and whether it was compatible then. Each option is checked at most once per call
    /// (an item's options were checked again for every item they hold: on an instance of
    /// 3,000 options of 3,000 items, 27 billion item checks in one node).
    checked: Vec<(u64, bool)>,
    /// The number of the current `branch` call.
    call: u64,
}

impl State<'_> {
    /// [`compatible`](State::compatible), each option checked once per `branch` call.
    fn compatible_now(&mut self, option: usize) -> bool {
        let (call, yes) = self.checked[option];
        if call == self.call {
            return yes;
        }
        let yes = self.compatible(option);
        self.checked[option] = (self.call, yes);
        yes
    }

    fn compatible(&self, option: usize) -> bool {
        self.instance.options[option].iter().all(|&(i, c)| {
            if i < self.instance.primary {
                self.uses[i] == 0
            } else {
                self.uses[i] == 0 || (c != 0 && self.colour[i] == c)
            }
        })
    }

    fn apply(&mut self, option: usize) {
        for &(i, c) in &self.instance.options[option] {
            self.uses[i] += 1;
            if self.uses[i] == 1 {
                self.colour[i] = c;
                if i < self.instance.primary {
                    self.covered += 1;
                }
            }
            self.changes += 1;
        }
    }

    fn unapply(&mut self, option: usize) {
        for &(i, _) in &self.instance.options[option] {
            self.uses[i] -= 1;
            if self.uses[i] == 0 && i < self.instance.primary {
                self.covered -= 1;
            }
        }
    }
}

impl Branching for State<'_> {
    /// The options to try for the item chosen, and the position of the next.
    type Level = (Vec<usize>, usize);

    fn solved(&self) -> bool {
        self.covered == self.instance.primary
    }

    /// MRV over the uncovered primary items: each item's compatible options are counted
    /// only until the count cannot beat the best so far, and listed for the chosen item alone
    /// (listing every item's options took 2.3× the time on the 3×20 pentomino packing).
    fn branch(&mut self) -> Option<(Vec<usize>, usize)> {
        self.call += 1;
        // The chosen item and its number of compatible options.
        let mut best: Option<(usize, usize)> = None;
        for i in 0..self.containing.len() {
            if self.uses[i] > 0 {
                continue;
            }
            let bound = best.map_or(usize::MAX, |(_, n)| n);
            let mut n = 0;
            for k in 0..self.containing[i].len() {
                if self.compatible_now(self.containing[i][k]) {
                    n += 1;
                    if n >= bound {
                        break;
                    }
                }
            }
            if n < bound {
                best = Some((i, n));
                if n <= 1 {
                    break;
                }
            }
        }
        let (item, n) = best?;
        if n == 0 {
            return None;
        }
        let mut candidates = Vec::with_capacity(n);
        for k in 0..self.containing[item].len() {
            let o = self.containing[item][k];
            if self.compatible_now(o) {
                candidates.push(o);
            }
        }
        Some((candidates, 0))
    }

    fn next(&mut self, (candidates, next): &mut (Vec<usize>, usize)) -> Option<usize> {
        let o = *candidates.get(*next)?;
        *next += 1;
        self.apply(o);
        Some(o)
    }

    fn undo(&mut self, o: usize) {
        self.unapply(o);
    }
}

/// Searches `instance` as the tally asks, showing it each solution (option indices in the
/// order chosen).
pub fn search(instance: &Instance, mut tally: Tally) -> Found {
    let mut containing: Vec<Vec<usize>> = vec![Vec::new(); instance.primary];
    for (o, option) in instance.options.iter().enumerate() {
        for &(i, _) in option {
            if i < instance.primary {
                containing[i].push(o);
            }
        }
    }
    let mut state = State {
        instance,
        containing,
        uses: vec![0; instance.items()],
        colour: vec![0; instance.items()],
        covered: 0,
        changes: 0,
        checked: vec![(0, false); instance.options.len()],
        call: 0,
    };
    backtrack(&mut state, &mut tally, 0);
    tally.found.updates = state.changes;
    tally.found
}
