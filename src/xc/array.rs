//! `dlx-array`: Algorithm X without links, for any exact-cover instance, colours included.
//! Where the Sudoku `dlx-array` backend (after kudoku) keeps counters in flat arrays, this
//! one keeps the options still available as a bit set and, per primary item, a count of its
//! available options.
//!
//! Tables, built once: the primary items of every option, the options of every primary item,
//! and for every option the options it conflicts with, as a sparse bit set (the 64-bit words
//! that are not zero). Two options conflict when they share a primary item, or share a
//! secondary item that either leaves uncoloured or the two colour differently — exactly the
//! pairs Algorithm C never lets into one solution, so colours cost nothing here. Choosing an
//! option marks its primary items covered and clears its conflicts from the available set,
//! word by word; each option that goes (found by the bits of the cleared words) lowers the
//! counts of its primary items. The cleared words go on a trail, and undoing a choice puts
//! them back and raises the counts again. Per choice that is a few dozen word operations and
//! a few counter updates per option removed: no pointer chasing, no per-conflict counter.
//!
//! Branching: the uncovered primary item with fewest available options (MRV, first in item
//! order on ties), its options in file order — the same search tree as `dlx`, so the same
//! node counts. `updates` counts options newly made unavailable.
//!
//! Conflict lists can grow quadratically with the size of an item's column, so instances
//! whose lists would exceed [`MAX_CONFLICTS`] entries are refused (see [`too_large`]).

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

/// The tables of one instance.
struct Tables {
    /// Primary items of option `o`: `items[item_start[o]..item_start[o + 1]]`.
    item_start: Vec<u32>,
    items: Vec<u32>,
    /// Options of primary item `i`, in file order:
    /// `options[option_start[i]..option_start[i + 1]]`.
    option_start: Vec<u32>,
    options: Vec<u32>,
    /// Options conflicting with option `o` (not `o` itself), as the non-zero words of a bit
    /// set over the options: `(word index, bits)` at `conflicts[conflict_start[o]..conflict_start[o + 1]]`.
    conflict_start: Vec<u32>,
    conflicts: Vec<(u32, u64)>,
}

impl Tables {
    fn new(instance: &Instance) -> Tables {
        let primary = instance.primary;
        let n_options = instance.options.len();
        let mut item_start = vec![0u32];
        let mut items = Vec::new();
        // Every item's options with the colour each gives it.
        let mut column: Vec<Vec<(u32, u32)>> = vec![Vec::new(); instance.items()];
        for (o, option) in instance.options.iter().enumerate() {
            for &(i, colour) in option {
                if i < primary {
                    items.push(i as u32);
                }
                column[i].push((o as u32, colour));
            }
            item_start.push(items.len() as u32);
        }
        let mut option_start = vec![0u32];
        let mut options = Vec::new();
        for c in &column[..primary] {
            options.extend(c.iter().map(|&(o, _)| o));
            option_start.push(options.len() as u32);
        }
        let mut conflict_start = vec![0u32];
        let mut conflicts = Vec::new();
        let mut bits = vec![0u64; n_options.div_ceil(64)];
        let mut touched: Vec<u32> = Vec::new();
        for (o, option) in instance.options.iter().enumerate() {
            for &(i, colour) in option {
                for &(c, other) in &column[i] {
                    // Same colour on a secondary item: compatible.
                    if i >= primary && colour != 0 && other == colour {
                        continue;
                    }
                    let word = &mut bits[c as usize / 64];
                    if *word == 0 {
                        touched.push(c / 64);
                    }
                    *word |= 1 << (c % 64);
                }
            }
            bits[o / 64] &= !(1 << (o % 64));
            touched.sort_unstable();
            for &w in &touched {
                let word = std::mem::take(&mut bits[w as usize]);
                if word != 0 {
                    conflicts.push((w, word));
                }
            }
            touched.clear();
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

    #[inline]
    fn items_of(&self, o: usize) -> &[u32] {
        &self.items[self.item_start[o] as usize..self.item_start[o + 1] as usize]
    }

    #[inline]
    fn options_of(&self, i: u32) -> &[u32] {
        &self.options
            [self.option_start[i as usize] as usize..self.option_start[i as usize + 1] as usize]
    }

    #[inline]
    fn conflicts_of(&self, o: usize) -> &[(u32, u64)] {
        &self.conflicts[self.conflict_start[o] as usize..self.conflict_start[o + 1] as usize]
    }
}

/// The state of a search.
struct State {
    /// Bit `o`: option `o` is still available.
    available: Vec<u64>,
    /// Per primary item, how many of its options are available.
    count: Vec<u32>,
    /// Bit `i`: primary item `i` is not yet covered.
    uncovered: Vec<u64>,
    /// How many primary items are not yet covered.
    open: usize,
    /// The words cleared by the choices made, as `(word index, bits cleared)`.
    trail: Vec<(u32, u64)>,
    /// Where each choice made starts on the trail.
    marks: Vec<u32>,
    updates: u64,
}

impl State {
    #[inline]
    fn apply(&mut self, t: &Tables, o: usize) {
        self.marks.push(self.trail.len() as u32);
        for &i in t.items_of(o) {
            self.uncovered[i as usize / 64] &= !(1 << (i % 64));
        }
        self.open -= t.items_of(o).len();
        for &(w, bits) in t.conflicts_of(o) {
            let word = &mut self.available[w as usize];
            let mut gone = *word & bits;
            if gone == 0 {
                continue;
            }
            *word &= !gone;
            self.trail.push((w, gone));
            while gone != 0 {
                self.updates += 1;
                let c = w as usize * 64 + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                for &i in t.items_of(c) {
                    self.count[i as usize] -= 1;
                }
            }
        }
    }

    #[inline]
    fn unapply(&mut self, t: &Tables, o: usize) {
        let mark = self.marks.pop().expect("a choice to undo") as usize;
        for &(w, back) in &self.trail[mark..] {
            self.available[w as usize] |= back;
            let mut back = back;
            while back != 0 {
                let c = w as usize * 64 + back.trailing_zeros() as usize;
                back &= back - 1;
                for &i in t.items_of(c) {
                    self.count[i as usize] += 1;
                }
            }
        }
        self.trail.truncate(mark);
        for &i in t.items_of(o) {
            self.uncovered[i as usize / 64] |= 1 << (i % 64);
        }
        self.open += t.items_of(o).len();
    }

    /// The uncovered primary item with fewest available options, and that number (the scan
    /// stops at 0 or 1).
    #[inline]
    fn choose(&self) -> (u32, u32) {
        let (mut best, mut best_n) = (0u32, u32::MAX);
        for (w, &word) in self.uncovered.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let n = self.count[i];
                if n < best_n {
                    best = i as u32;
                    best_n = n;
                    if n <= 1 {
                        return (best, best_n);
                    }
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
            let o = options[*next as usize] as usize;
            *next += 1;
            if self.s.available[o / 64] >> (o % 64) & 1 == 1 {
                self.s.apply(self.t, o);
                return Some(o);
            }
        }
        None
    }

    fn undo(&mut self, o: usize) {
        self.s.unapply(self.t, o);
    }
}

/// A bit set holding `0..n`.
fn first_bits(n: usize) -> Vec<u64> {
    let mut words = vec![u64::MAX; n / 64];
    if !n.is_multiple_of(64) {
        words.push((1 << (n % 64)) - 1);
    }
    words
}

/// Searches `instance` (not [`too_large`]) as the tally asks, showing it each solution
/// (option indices in the order chosen).
pub fn search(instance: &Instance, mut tally: Tally) -> Found {
    let t = Tables::new(instance);
    let n_options = instance.options.len();
    let available = first_bits(n_options);
    let uncovered = first_bits(instance.primary);
    let s = State {
        available,
        count: (0..instance.primary as u32)
            .map(|i| t.options_of(i).len() as u32)
            .collect(),
        uncovered,
        open: instance.primary,
        trail: Vec::new(),
        marks: Vec::with_capacity(instance.primary + 1),
        updates: 0,
    };
    let mut search = Search { s, t: &t };
    backtrack(&mut search, &mut tally, instance.primary + 1);
    tally.found.updates = search.s.updates;
    tally.found
}
