//! `dlx-array`: Algorithm X with counters in flat arrays instead of dancing links (the
//! representation of the Sudoku `dlx-array` backend, after kudoku), for any exact-cover
//! instance without colours.
//!
//! Tables, built once: the items of every option, the options of every item, and for every
//! option the list of the other options it conflicts with (shares an item with), each listed
//! once. The search state is two counter arrays: per option, how many chosen options forbid
//! it (`blocked`, 0 = available); per item, how many of its options are available. Choosing
//! an option marks its items covered and increments `blocked` of every conflicting option,
//! decrementing the item counts of those that became forbidden; undoing it is the mirror
//! image. Nothing is unlinked, so there is no pointer chasing and nothing to restore but the
//! counters. Branching: the uncovered primary item with fewest available options (MRV, first
//! in item order on ties), its options in file order — the same search tree as `dlx`, so the
//! same node counts.
//!
//! `updates` counts options newly forbidden. Conflict lists can grow quadratically with the
//! size of an item's column, so instances whose lists would exceed [`MAX_CONFLICTS`] entries
//! are refused (see [`too_large`]).

use super::{backtrack, Branching, Found, Instance, Tally};

/// The most conflict-list entries (before removing repeats) this backend builds.
pub const MAX_CONFLICTS: u64 = 1 << 26;

/// Whether `instance`'s conflict lists would exceed [`MAX_CONFLICTS`] entries.
pub fn too_large(instance: &Instance) -> bool {
    let mut column = vec![0u64; instance.items()];
    for option in &instance.options {
        for &(i, _) in option {
            column[i] += 1;
        }
    }
    let bound: u64 = instance
        .options
        .iter()
        .map(|o| o.iter().map(|&(i, _)| column[i]).sum::<u64>())
        .sum();
    bound > MAX_CONFLICTS
}

/// The tables and counters of one instance.
struct Tables {
    /// Items of option `o`: `items[item_start[o]..item_start[o + 1]]`.
    item_start: Vec<u32>,
    items: Vec<u32>,
    /// Options of item `i`, in file order: `options[option_start[i]..option_start[i + 1]]`.
    option_start: Vec<u32>,
    options: Vec<u32>,
    /// Options conflicting with option `o`: `conflicts[conflict_start[o]..conflict_start[o + 1]]`.
    conflict_start: Vec<u32>,
    conflicts: Vec<u32>,
}

impl Tables {
    fn new(instance: &Instance) -> Tables {
        let n_items = instance.items();
        let mut item_start = vec![0u32];
        let mut items = Vec::new();
        let mut column: Vec<Vec<u32>> = vec![Vec::new(); n_items];
        for (o, option) in instance.options.iter().enumerate() {
            for &(i, _) in option {
                items.push(i as u32);
                column[i].push(o as u32);
            }
            item_start.push(items.len() as u32);
        }
        let mut option_start = vec![0u32];
        let mut options = Vec::new();
        for c in &column {
            options.extend_from_slice(c);
            option_start.push(options.len() as u32);
        }
        let mut conflict_start = vec![0u32];
        let mut conflicts = Vec::new();
        let mut mark = vec![u32::MAX; instance.options.len()];
        for (o, option) in instance.options.iter().enumerate() {
            mark[o] = o as u32;
            for &(i, _) in option {
                for &c in &column[i] {
                    if mark[c as usize] != o as u32 {
                        mark[c as usize] = o as u32;
                        conflicts.push(c);
                    }
                }
            }
            conflict_start.push(conflicts.len() as u32);
        }
        Tables {
            item_start,
            items,
            option_start,
            options,
            conflict_start,
            conflicts,
        }
    }

    fn items_of(&self, o: u32) -> &[u32] {
        &self.items[self.item_start[o as usize] as usize..self.item_start[o as usize + 1] as usize]
    }

    fn options_of(&self, i: u32) -> &[u32] {
        &self.options
            [self.option_start[i as usize] as usize..self.option_start[i as usize + 1] as usize]
    }

    fn conflicts_of(&self, o: u32) -> &[u32] {
        &self.conflicts
            [self.conflict_start[o as usize] as usize..self.conflict_start[o as usize + 1] as usize]
    }
}

/// The counters of a search.
struct State {
    blocked: Vec<u32>,
    avail: Vec<u32>,
    covered: Vec<bool>,
    /// Primary items not yet covered.
    open: usize,
    primary: usize,
    updates: u64,
}

impl State {
    fn apply(&mut self, t: &Tables, o: u32) {
        for &i in t.items_of(o) {
            self.covered[i as usize] = true;
            if (i as usize) < self.primary {
                self.open -= 1;
            }
        }
        for &c in t.conflicts_of(o) {
            let b = &mut self.blocked[c as usize];
            *b += 1;
            if *b == 1 {
                self.updates += 1;
                for &i in t.items_of(c) {
                    self.avail[i as usize] -= 1;
                }
            }
        }
    }

    fn unapply(&mut self, t: &Tables, o: u32) {
        for &c in t.conflicts_of(o).iter().rev() {
            let b = &mut self.blocked[c as usize];
            *b -= 1;
            if *b == 0 {
                for &i in t.items_of(c) {
                    self.avail[i as usize] += 1;
                }
            }
        }
        for &i in t.items_of(o) {
            self.covered[i as usize] = false;
            if (i as usize) < self.primary {
                self.open += 1;
            }
        }
    }

    /// The uncovered primary item with fewest available options, and that number (the scan
    /// stops at 0 or 1).
    fn choose(&self) -> (u32, u32) {
        let (mut best, mut best_n) = (0u32, u32::MAX);
        for i in 0..self.primary {
            if self.covered[i] {
                continue;
            }
            let n = self.avail[i];
            if n < best_n {
                best = i as u32;
                best_n = n;
                if n <= 1 {
                    break;
                }
            }
        }
        (best, best_n)
    }
}

/// The state with the tables it reads, as [`backtrack`] drives it.
struct Search<'a> {
    s: State,
    t: &'a Tables,
}

impl Branching for Search<'_> {
    /// The item branched on and the position of the next option to try among its options.
    type Level = (u32, u32);

    fn solved(&self) -> bool {
        self.s.open == 0
    }

    fn branch(&mut self) -> Option<(u32, u32)> {
        let (item, n) = self.s.choose();
        (n > 0).then_some((item, 0))
    }

    #[inline]
    fn next(&mut self, (item, next): &mut (u32, u32)) -> Option<usize> {
        let options = self.t.options_of(*item);
        while (*next as usize) < options.len() {
            let o = options[*next as usize];
            *next += 1;
            if self.s.blocked[o as usize] == 0 {
                self.s.apply(self.t, o);
                return Some(o as usize);
            }
        }
        None
    }

    fn undo(&mut self, o: usize) {
        self.s.unapply(self.t, o as u32);
    }
}

/// Searches `instance` (no colours; not [`too_large`]) as the tally asks, showing it each
/// solution (option indices in the order chosen).
pub fn search(instance: &Instance, mut tally: Tally) -> Found {
    let t = Tables::new(instance);
    let s = State {
        blocked: vec![0; instance.options.len()],
        avail: (0..instance.items() as u32)
            .map(|i| t.options_of(i).len() as u32)
            .collect(),
        covered: vec![false; instance.items()],
        open: instance.primary,
        primary: instance.primary,
        updates: 0,
    };
    let mut search = Search { s, t: &t };
    backtrack(&mut search, &mut tally, instance.primary + 1);
    tally.found.updates = search.s.updates;
    tally.found
}
