//! `dlx-array`: Algorithm X without links, for any exact-cover instance, colours included.
//! Where the Sudoku `dlx-array` backend (after kudoku) keeps counters in flat arrays, this
//! one keeps the options still available as a bit set and, per primary item, a count of its
//! available options.
//!
//! Tables, built once: the primary items of every option (padded to one length), the options
//! of every item as a sparse bit set (its non-zero 64-bit words), and the same for the
//! options each option conflicts with. Two options conflict when they share a primary item,
//! or share a secondary item that either leaves uncoloured or the two colour differently:
//! exactly the pairs Algorithm C never lets into one solution, so colours cost nothing here.
//!
//! Choosing an option clears its conflicts from the available set word by word; each option
//! that goes (the bits of the cleared words) lowers the counts of its primary items. The
//! cleared words go on a trail, and undoing the choice puts them back. With few primary
//! items (at most 256) every level of the search has its own copy of the
//! counts, in which covered items are marked, so nothing but the words is undone; with more,
//! one set of counts is raised back and a bit set keeps the uncovered items. The options to
//! try at a level are read a word at a time from the item's bit set and the available set.
//! Per choice that is a few word operations and a few counter updates per option removed:
//! no pointer chasing, no counter per conflict.
//!
//! Branching: the uncovered primary item with fewest available options (MRV; the first in
//! item order with at most one, else the first with the fewest), its options in file order —
//! the same search tree as `dlx`, so the same node counts. `updates` counts options newly
//! made unavailable.
//!
//! Conflict lists can grow quadratically with the size of an item's column, so instances
//! whose lists would exceed [`MAX_CONFLICTS`] entries are refused (see [`too_large`]).

use super::knuth::Instance;
use super::search::{backtrack, Branching, Found, Tally};

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
    primary: usize,
    /// The primary items of option `o` at `items[o * stride..(o + 1) * stride]`, padded
    /// with `primary` (the index of a spare counter), so the inner loops read them without
    /// looking up where they start.
    stride: usize,
    items: Vec<u32>,
    /// Options of item `i`, in file order: `options[option_start[i]..option_start[i + 1]]`.
    option_start: Vec<u32>,
    options: Vec<u32>,
    /// Options of item `i` as the non-zero words of a bit set over the options:
    /// `(word index, bits)` at `option_words[word_start[i]..word_start[i + 1]]`.
    word_start: Vec<u32>,
    option_words: Vec<(u32, u64)>,
    /// Options conflicting with option `o` (not `o` itself), as the non-zero words of a bit
    /// set over the options: `(word index, bits)` at `conflicts[conflict_start[o]..conflict_start[o + 1]]`.
    conflict_start: Vec<u32>,
    conflicts: Vec<(u32, u64)>,
}

impl Tables {
    fn new(instance: &Instance) -> Tables {
        let primary = instance.primary;
        let n_options = instance.options.len();
        let mut option_start = vec![0u32; instance.items() + 1];
        let mut stride = 0;
        for option in &instance.options {
            for &(i, _) in option {
                option_start[i + 1] += 1;
            }
            stride = stride.max(option.iter().filter(|&&(i, _)| i < primary).count());
        }
        for i in 0..instance.items() {
            option_start[i + 1] += option_start[i];
        }
        let entries = option_start[instance.items()] as usize;
        let (mut options, mut colours) = (vec![0u32; entries], vec![0u32; entries]);
        let mut fill = option_start.clone();
        let mut items = vec![primary as u32; n_options * stride];
        for (o, option) in instance.options.iter().enumerate() {
            let mut k = o * stride;
            for &(i, colour) in option {
                if i < primary {
                    items[k] = i as u32;
                    k += 1;
                }
                let at = fill[i] as usize;
                options[at] = o as u32;
                colours[at] = colour;
                fill[i] += 1;
            }
        }
        let words = n_options.div_ceil(64);
        let mut word_start = Vec::with_capacity(instance.items() + 1);
        word_start.push(0u32);
        let mut option_words: Vec<(u32, u64)> = Vec::with_capacity(entries);
        for i in 0..instance.items() {
            let first = option_words.len();
            for &o in &options[option_start[i] as usize..option_start[i + 1] as usize] {
                match option_words[first..].last_mut() {
                    Some((w, bits)) if *w == o / 64 => *bits |= 1 << (o % 64),
                    _ => option_words.push((o / 64, 1 << (o % 64))),
                }
            }
            word_start.push(option_words.len() as u32);
        }
        let mut conflict_start = Vec::with_capacity(n_options + 1);
        conflict_start.push(0u32);
        let mut conflicts = Vec::with_capacity(n_options.saturating_mul(words).min(1 << 16));
        let mut bits = vec![0u64; words];
        let mut touched: Vec<u32> = Vec::with_capacity(words);
        for (o, option) in instance.options.iter().enumerate() {
            // Adds `mask` to word `w` of the conflict set, noting words set for the first time.
            let mut add = |w: u32, mask: u64| {
                let word = &mut bits[w as usize];
                if *word == 0 {
                    touched.push(w);
                }
                *word |= mask;
            };
            for &(i, colour) in option {
                if colour == 0 {
                    // Every option of the item, a word at a time.
                    let span = word_start[i] as usize..word_start[i + 1] as usize;
                    for &(w, options) in &option_words[span] {
                        add(w, options);
                    }
                    continue;
                }
                // A coloured secondary item: the options that leave it uncoloured or give
                // it another colour.
                let column = option_start[i] as usize..option_start[i + 1] as usize;
                for (&c, &other) in options[column.clone()].iter().zip(&colours[column]) {
                    if other != colour {
                        add(c / 64, 1 << (c % 64));
                    }
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
            primary,
            stride,
            items,
            option_start,
            options,
            word_start,
            option_words,
            conflict_start,
            conflicts,
        }
    }

    /// The primary items of option `o`, padded to `stride` entries with the spare counter.
    #[inline]
    fn items_of(&self, o: usize) -> &[u32] {
        &self.items[o * self.stride..(o + 1) * self.stride]
    }

    /// Adds `delta` (wrapping: `u32::MAX` subtracts 1) to the counts of the primary items of
    /// the options in `bits`, word `w` of an option set; returns how many options that was.
    /// `count` starts at the counts of the level (`primary + 1` of them, the spare included).
    #[inline(always)]
    fn add_to_counts(&self, count: &mut [u32], w: u32, mut bits: u64, delta: u32) -> u32 {
        assert!(count.len() > self.primary);
        let mut options = 0;
        while bits != 0 {
            options += 1;
            let c = w as usize * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for &i in self.items_of(c) {
                // SAFETY: `items` holds primary items and the spare `primary` only (see
                // `Tables::new`), and `count.len() > primary` was asserted above.
                let n = unsafe { count.get_unchecked_mut(i as usize) };
                *n = n.wrapping_add(delta);
            }
        }
        options
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

/// Instances with at most this many primary items keep a copy of the counts per level of
/// the search (copying them is cheaper than raising them back one by one); larger ones keep
/// one set of counts and restore it on the way back.
const COPIED_COUNTS: usize = 256;

/// Added to the count of a covered item in a level's copy of the counts, so that the
/// branching rule passes it over without a separate set of uncovered items (a count never
/// drops below the number of its options still to be removed, so this stays set).
const COVERED: u32 = 1 << 31;

/// The state of a search. `COPIED`: one copy of the counts per level (see
/// [`COPIED_COUNTS`]), covered items marked in them by [`COVERED`]; otherwise one set of
/// counts, restored on the way back, and a bit set of the uncovered items.
struct State<const COPIED: bool> {
    /// Bit `o`: option `o` is still available.
    available: Vec<u64>,
    /// Per primary item, how many of its options are available, and a spare counter
    /// (`primary + 1` counts; with `COPIED`, those of level `l` at `l * (primary + 1)`).
    count: Vec<u32>,
    primary: usize,
    level: usize,
    /// Without `COPIED`, bit `i`: primary item `i` is not yet covered.
    uncovered: Vec<u64>,
    /// How many primary items are not yet covered.
    open: usize,
    /// The words cleared by the choices made, as `(word index, bits cleared)`.
    trail: Vec<(u32, u64)>,
    /// Where each choice made starts on the trail.
    marks: Vec<u32>,
    updates: u64,
}

impl<const COPIED: bool> State<COPIED> {
    fn new(t: &Tables, options: usize, primary: usize) -> Self {
        State {
            available: first_bits(options),
            // One more: the spare counter that padded item lists point to.
            count: (0..primary as u32)
                .map(|i| t.options_of(i).len() as u32)
                .chain([0])
                .collect(),
            primary,
            level: 0,
            uncovered: if COPIED {
                Vec::new()
            } else {
                first_bits(primary)
            },
            open: primary,
            trail: Vec::with_capacity(4 * options.div_ceil(64)),
            marks: Vec::with_capacity(primary + 1),
            updates: 0,
        }
    }

    /// The counts of the current level.
    #[inline]
    fn counts(&self) -> &[u32] {
        if COPIED {
            &self.count[self.level * (self.primary + 1)..]
        } else {
            &self.count
        }
    }

    #[inline]
    fn apply(&mut self, t: &Tables, o: usize) {
        self.marks.push(self.trail.len() as u32);
        let mut counts = 0;
        if COPIED {
            let p = self.primary + 1;
            let here = self.level * p;
            counts = here + p;
            if self.count.len() < counts + p {
                self.count.resize(counts + p, 0);
            }
            self.count.copy_within(here..counts, counts);
        }
        self.level += 1;
        for &(w, bits) in t.conflicts_of(o) {
            let word = &mut self.available[w as usize];
            let gone = *word & bits;
            if gone == 0 {
                continue;
            }
            *word &= !gone;
            self.trail.push((w, gone));
            self.updates +=
                u64::from(t.add_to_counts(&mut self.count[counts..], w, gone, u32::MAX));
        }
        for &i in t.items_of(o) {
            if i as usize == t.primary {
                break;
            }
            if COPIED {
                self.count[counts + i as usize] += COVERED;
            } else {
                self.uncovered[i as usize / 64] &= !(1 << (i % 64));
            }
            self.open -= 1;
        }
    }

    #[inline]
    fn unapply(&mut self, t: &Tables, o: usize) {
        self.level -= 1;
        let mark = self.marks.pop().expect("a choice to undo") as usize;
        for &(w, back) in &self.trail[mark..] {
            self.available[w as usize] |= back;
            if !COPIED {
                t.add_to_counts(&mut self.count, w, back, 1);
            }
        }
        self.trail.truncate(mark);
        for &i in t.items_of(o) {
            if i as usize == t.primary {
                break;
            }
            if !COPIED {
                self.uncovered[i as usize / 64] |= 1 << (i % 64);
            }
            self.open += 1;
        }
    }

    /// The uncovered primary item with fewest available options, and that number: the
    /// first (in item order) with at most one, else the first with the fewest.
    #[inline]
    fn choose(&self) -> (u32, u32) {
        let count = self.counts();
        if COPIED {
            let count = &count[..self.primary];
            if let Some(i) = count.iter().position(|&n| n <= 1) {
                return (i as u32, count[i]);
            }
            let least = count.iter().copied().min().unwrap_or(u32::MAX);
            let i = count.iter().position(|&n| n == least).unwrap_or(0);
            return (i as u32, least);
        }
        let (mut best, mut best_n) = (0u32, u32::MAX);
        for (w, &word) in self.uncovered.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let n = count[i];
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
struct Search<'a, const COPIED: bool> {
    s: State<COPIED>,
    t: &'a Tables,
}

impl<const COPIED: bool> Branching for Search<'_, COPIED> {
    /// The options of the item branched on not yet tried: those in words `.0..1` of its
    /// `option_words` still to be read, and `.3`, the bits of word `.2` (of the available
    /// set) still to be tried.
    type Level = (u32, u32, u32, u64);

    fn solved(&self) -> bool {
        self.s.open == 0
    }

    fn branch(&mut self) -> Option<Self::Level> {
        let (item, n) = self.s.choose();
        let item = item as usize;
        (n > 0).then(|| (self.t.word_start[item], self.t.word_start[item + 1], 0, 0))
    }

    /// The next option in file order: the lowest bit left of the current word, or of the
    /// next word that has one. The available set is the same at every call for one level
    /// (the choices below it are undone), so bits read earlier are still good.
    #[inline]
    fn next(&mut self, (next, end, word, bits): &mut Self::Level) -> Option<usize> {
        while *bits == 0 {
            if *next == *end {
                return None;
            }
            let (w, options) = self.t.option_words[*next as usize];
            *next += 1;
            *word = w;
            *bits = self.s.available[w as usize] & options;
        }
        let o = *word as usize * 64 + bits.trailing_zeros() as usize;
        *bits &= *bits - 1;
        self.s.apply(self.t, o);
        Some(o)
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
    let (options, primary) = (instance.options.len(), instance.primary);
    let depth = primary + 1;
    tally.found.updates = if primary <= COPIED_COUNTS {
        let mut search = Search::<true> {
            s: State::new(&t, options, primary),
            t: &t,
        };
        backtrack(&mut search, &mut tally, depth);
        search.s.updates
    } else {
        let mut search = Search::<false> {
            s: State::new(&t, options, primary),
            t: &t,
        };
        backtrack(&mut search, &mut tally, depth);
        search.s.updates
    };
    tally.found
}
