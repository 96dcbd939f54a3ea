//! The oracle: Algorithm X over plain sets, with no links at all, written to be obviously
//! right rather than fast. Each step takes the uncovered primary item with fewest options
//! compatible with what is chosen so far (MRV, first in item order on ties; a scan over every
//! option of every uncovered item) and tries each of those options in file order. An option is
//! compatible when its primary items are all uncovered and each of its secondary items is
//! either unused or used so far only with the option's own colour (an uncoloured use admits
//! nothing else). The search is iterative, so deep instances cannot overflow the stack.

use super::{Found, Instance, Tally};

/// One level of the search: the options to try for the item it chose, the next to try, and
/// the one in force.
struct Frame {
    candidates: Vec<usize>,
    next: usize,
    applied: Option<usize>,
}

/// The state of every item: how many chosen options use it and the colour of the first.
struct State<'a> {
    instance: &'a Instance,
    uses: Vec<u32>,
    colour: Vec<u32>,
    /// Primary items covered.
    covered: usize,
    /// Item state changes (the `updates` this backend reports).
    changes: u64,
}

impl State<'_> {
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

/// Searches `instance` as the tally asks, showing it each solution (option indices in the
/// order chosen).
pub fn search(instance: &Instance, mut t: Tally) -> Found {
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
        uses: vec![0; instance.items()],
        colour: vec![0; instance.items()],
        covered: 0,
        changes: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut chosen: Vec<usize> = Vec::new();
    'node: loop {
        if !t.count_node() {
            break;
        }
        if state.covered == instance.primary {
            chosen.clear();
            chosen.extend(stack.iter().filter_map(|f| f.applied));
            if t.count_solution(&chosen) {
                break;
            }
        } else {
            // MRV over the uncovered primary items.
            let mut best: Option<Vec<usize>> = None;
            for (i, options) in containing.iter().enumerate() {
                if state.uses[i] > 0 {
                    continue;
                }
                let candidates: Vec<usize> = options
                    .iter()
                    .copied()
                    .filter(|&o| state.compatible(o))
                    .collect();
                if best.as_ref().is_none_or(|b| candidates.len() < b.len()) {
                    let small = candidates.len() <= 1;
                    best = Some(candidates);
                    if small {
                        break;
                    }
                }
            }
            let candidates = best.unwrap_or_default();
            if !candidates.is_empty() {
                stack.push(Frame {
                    candidates,
                    next: 0,
                    applied: None,
                });
            }
        }
        // Next option at the deepest level that has one left.
        while let Some(top) = stack.last_mut() {
            if let Some(o) = top.applied.take() {
                state.unapply(o);
            }
            if top.next < top.candidates.len() {
                let o = top.candidates[top.next];
                top.next += 1;
                top.applied = Some(o);
                state.apply(o);
                continue 'node;
            }
            stack.pop();
        }
        break;
    }
    t.found.updates = state.changes;
    t.found
}
