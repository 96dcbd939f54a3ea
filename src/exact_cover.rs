//! A generic exact-cover engine: Knuth's Algorithm X with Dancing Links, independent of
//! Sudoku.
//!
//! A problem has *items* (the first `primary` of them must be covered exactly once, the
//! `secondary` ones at most once) and *options* (sets of items). An exact cover is a set of
//! options that covers every primary item exactly once and every secondary item at most once.
//!
//! The layout follows TAOCP 7.2.2.1 (Algorithm X as in Knuth's DLX1 program): all nodes
//! live in one flat array with `u32` links; each option's nodes are contiguous and separated
//! by *spacer* nodes, so walking across an option is a sequential scan with no left/right
//! links. Item headers keep left/right links in their own small arrays: the active
//! primary items form one circular list (root `0`), the active secondary items another, so a
//! secondary item is never chosen for branching but is covered like any other when an option
//! that contains it is taken (that is what "at most once" means).
//!
//! The search is iterative (an explicit stack of chosen nodes, one per level, sized once when
//! the problem is built), chooses the primary item with fewest remaining options (MRV, the
//! scan stops early at 0 or 1, and is skipped when the last covers left a column with 0 or 1
//! options), counts covers up to a limit and stops after a node budget. It
//! allocates nothing, and leaves the structure exactly as it found it, so one instance serves
//! many searches. Before a search, a caller may [`select`](ExactCover::select) options (force
//! them into the cover, as a Sudoku client does with clues) and [`remove`](ExactCover::remove)
//! options (forbid them, as with pencilmark eliminations); [`reset`](ExactCover::reset) undoes
//! both in reverse order.

/// Marks a spacer node in the `top` field.
const SPACER: u32 = u32::MAX;

/// Why a problem could not be built or changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactCoverError {
    /// An option names an item that does not exist.
    #[error("item {item} out of range (the problem has {items} items)")]
    ItemOutOfRange {
        /// The item named.
        item: usize,
        /// How many items exist.
        items: usize,
    },
    /// An option lists the same item twice.
    #[error("item {0} appears twice in one option")]
    DuplicateItem(usize),
    /// An option with no items.
    #[error("empty option")]
    EmptyOption,
    /// An option index that does not exist.
    #[error("option {option} out of range (the problem has {options} options)")]
    OptionOutOfRange {
        /// The option named.
        option: usize,
        /// How many options exist.
        options: usize,
    },
    /// The problem needs more nodes than `u32` links can address.
    #[error("problem too large for 32-bit links")]
    TooLarge,
    /// Options cannot be added while selections or removals are in force.
    #[error("options cannot be added before reset() undoes selections and removals")]
    Busy,
}

/// Work counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Search nodes: entries into the "choose an item" step, including solution leaves and
    /// dead ends.
    pub nodes: u64,
    /// Link updates: nodes unlinked from a column plus item headers unlinked from the list
    /// of active items (each is restored later, which is not counted again).
    pub updates: u64,
    /// Options tried at items that had more than one option left (real guesses).
    pub guesses: u64,
}

/// What one search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Covers found (at most the limit).
    pub count: u64,
    /// False if the node budget ran out before the search finished (the count is then a
    /// lower bound and the caller should answer "unknown").
    pub complete: bool,
    /// Work counters.
    pub stats: SearchStats,
}

/// One node: the item it belongs to (or [`SPACER`]) and its vertical links. For a spacer,
/// `up` is the first node of the option before it and `down` the last node of the option
/// after it.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Node {
    top: u32,
    up: u32,
    down: u32,
}

/// What [`ExactCover::reset`] must undo.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Selected(u32),
    Removed(u32),
}

/// An exact-cover problem and its Algorithm X / Dancing Links solver.
///
/// Items are numbered `0..primary + secondary` by callers (primary first); internally item
/// `i` is header node `i + 1`, node `0` is the root of the primary list and `items + 1` the
/// root of the secondary list.
#[derive(Clone, Debug)]
pub struct ExactCover {
    primary: usize,
    /// A primary item whose column dropped to 0 or 1 options during the last covers (0:
    /// none): the MRV choice without a scan, if it is still active.
    hint: u32,
    items: usize,
    /// Left links of the item lists (index `0..=items + 1`).
    llink: Vec<u32>,
    /// Right links of the item lists.
    rlink: Vec<u32>,
    /// Options still available in each item's column (index `1..=items`).
    len: Vec<u32>,
    /// Headers `0..=items`, then a spacer, then per option its nodes and a spacer.
    nodes: Vec<Node>,
    /// First node of every option.
    option_start: Vec<u32>,
    /// The option each node belongs to (`u32::MAX` for headers and spacers).
    option_of: Vec<u32>,
    /// Items covered by [`select`](Self::select) (index `1..=items`).
    covered: Vec<bool>,
    /// Options hidden by [`remove`](Self::remove).
    removed: Vec<bool>,
    /// Selections and removals in force, oldest first.
    undo: Vec<Undo>,
    /// The node chosen at each search level (depth ≤ number of primary items).
    choice: Vec<u32>,
    /// Options of the cover being reported to a visitor.
    cover_buf: Vec<usize>,
    /// Options the search added in the first cover of the last search.
    first: Vec<usize>,
    has_first: bool,
    /// Options of the second cover of the last search.
    second: Vec<usize>,
    has_second: bool,
}

impl ExactCover {
    /// A problem with `primary` items that must be covered exactly once and `secondary` items
    /// that may be covered at most once, and no options yet.
    pub fn new(primary: usize, secondary: usize) -> Result<ExactCover, ExactCoverError> {
        let items = primary
            .checked_add(secondary)
            .filter(|&n| n < (u32::MAX / 2) as usize)
            .ok_or(ExactCoverError::TooLarge)?;
        let sec_root = items + 1;
        let mut llink = vec![0u32; items + 2];
        let mut rlink = vec![0u32; items + 2];
        // Primary list: 0 ↔ 1 ↔ … ↔ primary ↔ 0.
        for i in 0..=primary {
            rlink[i] = if i == primary { 0 } else { (i + 1) as u32 };
            llink[i] = if i == 0 {
                primary as u32
            } else {
                (i - 1) as u32
            };
        }
        // Secondary list: sec_root ↔ primary+1 ↔ … ↔ items ↔ sec_root.
        let sec: Vec<usize> = std::iter::once(sec_root)
            .chain(primary + 1..=items)
            .collect();
        for (k, &i) in sec.iter().enumerate() {
            rlink[i] = sec[(k + 1) % sec.len()] as u32;
            llink[i] = sec[(k + sec.len() - 1) % sec.len()] as u32;
        }
        let mut nodes = Vec::with_capacity(items + 2);
        for i in 0..=items {
            let i = i as u32;
            nodes.push(Node {
                top: i,
                up: i,
                down: i,
            });
        }
        // The first spacer.
        nodes.push(Node {
            top: SPACER,
            up: 0,
            down: 0,
        });
        Ok(ExactCover {
            primary,
            hint: 0,
            items,
            llink,
            rlink,
            len: vec![0; items + 1],
            option_of: vec![u32::MAX; nodes.len()],
            nodes,
            option_start: Vec::new(),
            covered: vec![false; items + 1],
            removed: Vec::new(),
            undo: Vec::new(),
            choice: vec![0; primary + 1],
            cover_buf: Vec::with_capacity(primary + 1),
            first: Vec::with_capacity(primary + 1),
            has_first: false,
            second: Vec::with_capacity(primary + 1),
            has_second: false,
        })
    }

    /// Number of primary items.
    pub fn primary_items(&self) -> usize {
        self.primary
    }

    /// Number of items (primary and secondary).
    pub fn items(&self) -> usize {
        self.items
    }

    /// Number of options.
    pub fn options(&self) -> usize {
        self.option_start.len()
    }

    /// Adds an option covering the given items (each `< items()`, no repeats) and returns its
    /// index. Options are numbered in the order they are added.
    pub fn add_option(&mut self, items: &[usize]) -> Result<usize, ExactCoverError> {
        if !self.undo.is_empty() {
            return Err(ExactCoverError::Busy);
        }
        if items.is_empty() {
            return Err(ExactCoverError::EmptyOption);
        }
        for (k, &i) in items.iter().enumerate() {
            if i >= self.items {
                return Err(ExactCoverError::ItemOutOfRange {
                    item: i,
                    items: self.items,
                });
            }
            if items[..k].contains(&i) {
                return Err(ExactCoverError::DuplicateItem(i));
            }
        }
        let option = self.option_start.len();
        let needed = self.nodes.len() + items.len() + 1;
        if needed >= u32::MAX as usize || option >= u32::MAX as usize - 1 {
            return Err(ExactCoverError::TooLarge);
        }
        let start = self.nodes.len() as u32;
        let spacer_before = start as usize - 1;
        for &i in items {
            let header = (i + 1) as u32;
            let q = self.nodes.len() as u32;
            let last = self.nodes[header as usize].up;
            self.nodes.push(Node {
                top: header,
                up: last,
                down: header,
            });
            self.nodes[last as usize].down = q;
            self.nodes[header as usize].up = q;
            self.len[header as usize] += 1;
            self.option_of.push(option as u32);
        }
        let end = self.nodes.len() as u32 - 1;
        self.nodes[spacer_before].down = end;
        self.nodes.push(Node {
            top: SPACER,
            up: start,
            down: 0,
        });
        self.option_of.push(u32::MAX);
        self.option_start.push(start);
        self.removed.push(false);
        Ok(option)
    }

    /// The items of an option, in the order they were given.
    pub fn option_items(&self, option: usize) -> Result<Vec<usize>, ExactCoverError> {
        let start = self.option_node(option)? as usize;
        Ok(self.nodes[start..]
            .iter()
            .take_while(|n| n.top != SPACER)
            .map(|n| n.top as usize - 1)
            .collect())
    }

    fn option_node(&self, option: usize) -> Result<u32, ExactCoverError> {
        self.option_start
            .get(option)
            .copied()
            .ok_or(ExactCoverError::OptionOutOfRange {
                option,
                options: self.option_start.len(),
            })
    }

    /// Whether an option can still be part of a cover: not removed and none of its items
    /// covered by a selected option.
    fn is_live(&self, option: usize, start: u32) -> bool {
        if self.removed[option] {
            return false;
        }
        let mut q = start as usize;
        while self.nodes[q].top != SPACER {
            if self.covered[self.nodes[q].top as usize] {
                return false;
            }
            q += 1;
        }
        true
    }

    /// Forces an option into every cover the next searches find (as a Sudoku clue does).
    ///
    /// Returns `Ok(false)` and changes nothing if the option is no longer available: removed,
    /// or sharing an item with an option already selected. Such a problem has no cover with
    /// this option, which is the caller's answer (e.g. "0 solutions"), not an error.
    pub fn select(&mut self, option: usize) -> Result<bool, ExactCoverError> {
        let start = self.option_node(option)?;
        if !self.is_live(option, start) {
            return Ok(false);
        }
        let mut q = start as usize;
        while self.nodes[q].top != SPACER {
            let item = self.nodes[q].top;
            self.cover(item);
            self.covered[item as usize] = true;
            q += 1;
        }
        self.undo.push(Undo::Selected(start));
        Ok(true)
    }

    /// Forbids an option in the next searches (as a pencilmark elimination does).
    ///
    /// Returns `Ok(false)` and changes nothing if the option is already unavailable (removed,
    /// or in conflict with a selected option).
    pub fn remove(&mut self, option: usize) -> Result<bool, ExactCoverError> {
        let start = self.option_node(option)?;
        if !self.is_live(option, start) {
            return Ok(false);
        }
        let mut q = start as usize;
        while self.nodes[q].top != SPACER {
            self.unlink_node(q as u32);
            q += 1;
        }
        self.removed[option] = true;
        self.undo.push(Undo::Removed(start));
        Ok(true)
    }

    /// Undoes every [`select`](Self::select) and [`remove`](Self::remove), newest first, so
    /// the structure is back to the problem as built.
    pub fn reset(&mut self) {
        while let Some(u) = self.undo.pop() {
            match u {
                Undo::Selected(start) => {
                    let mut q = start as usize;
                    while self.nodes[q + 1].top != SPACER {
                        q += 1;
                    }
                    loop {
                        let item = self.nodes[q].top;
                        self.covered[item as usize] = false;
                        self.uncover(item);
                        if q == start as usize {
                            break;
                        }
                        q -= 1;
                    }
                }
                Undo::Removed(start) => {
                    let mut q = start as usize;
                    while self.nodes[q + 1].top != SPACER {
                        q += 1;
                    }
                    loop {
                        self.relink_node(q as u32);
                        if q == start as usize {
                            break;
                        }
                        q -= 1;
                    }
                    self.removed[self.option_of[start as usize] as usize] = false;
                }
            }
        }
    }

    /// Options the search added in the first cover of the last search (selected options are
    /// not repeated here), or `None` if it found none.
    pub fn first_cover(&self) -> Option<&[usize]> {
        self.has_first.then_some(self.first.as_slice())
    }

    /// Like [`first_cover`](Self::first_cover), for the second cover of the last search.
    pub fn second_cover(&self) -> Option<&[usize]> {
        self.has_second.then_some(self.second.as_slice())
    }

    /// Counts covers up to `limit` (0 counts as 1), visiting at most `max_nodes` search nodes
    /// (`None`: no budget). The first two covers are kept for
    /// [`first_cover`](Self::first_cover) and [`second_cover`](Self::second_cover).
    pub fn search(&mut self, limit: u64, max_nodes: Option<u64>) -> SearchResult {
        let mut first = std::mem::take(&mut self.first);
        let mut second = std::mem::take(&mut self.second);
        first.clear();
        second.clear();
        let mut found = 0;
        let result = self.search_each(limit, max_nodes, |cover| {
            match found {
                0 => first.extend_from_slice(cover),
                1 => second.extend_from_slice(cover),
                _ => {}
            }
            found += 1;
        });
        self.first = first;
        self.second = second;
        self.has_first = found >= 1;
        self.has_second = found >= 2;
        result
    }

    /// Like [`search`](Self::search), calling `visit` with the options of every cover found
    /// (selected options excluded; in the order the search chose them).
    pub fn search_each<F: FnMut(&[usize])>(
        &mut self,
        limit: u64,
        max_nodes: Option<u64>,
        mut visit: F,
    ) -> SearchResult {
        let limit = limit.max(1);
        let max_nodes = max_nodes.unwrap_or(u64::MAX);
        let mut stats = SearchStats::default();
        let mut updates = 0u64;
        let mut count = 0u64;
        let mut complete = true;
        let mut level = 0usize;
        // Hints left by select/remove or an earlier search are not this search's.
        self.hint = 0;
        'search: loop {
            // Forward: a new level (Knuth's X2–X5).
            stats.nodes += 1;
            let mut stop = false;
            if stats.nodes > max_nodes || crate::deadline::due(stats.nodes) {
                complete = false;
                stop = true;
            } else if self.rlink[0] == 0 {
                count += 1;
                self.cover_buf.clear();
                for &x in &self.choice[..level] {
                    self.cover_buf.push(self.option_of[x as usize] as usize);
                }
                visit(&self.cover_buf);
                stop = count >= limit;
            } else {
                let (item, n) = self.choose();
                self.hint = 0;
                if n > 0 {
                    updates += self.cover(item);
                    let x = self.node(item).down;
                    if n > 1 {
                        stats.guesses += 1;
                    }
                    self.choice[level] = x;
                    updates += self.cover_rest(x);
                    level += 1;
                    continue 'search;
                }
            }
            // Backward: undo the newest choice and try the next option of its item (X6–X8);
            // once stopped, only undo.
            while level > 0 {
                level -= 1;
                let x = self.choice[level];
                self.uncover_rest(x);
                let Node {
                    top: item,
                    down: next,
                    ..
                } = *self.node(x);
                if !stop && next != item {
                    stats.guesses += 1; // the item had at least two options
                    self.choice[level] = next;
                    self.hint = 0;
                    updates += self.cover_rest(next);
                    level += 1;
                    continue 'search;
                }
                self.uncover(item);
            }
            break;
        }
        stats.updates = updates;
        SearchResult {
            count,
            complete,
            stats,
        }
    }

    // The hot path below reads links with unchecked indexing (bounds checks were a quarter
    // of the instructions under callgrind). Soundness rests on one invariant, established by
    // `new` and `add_option` (the only code that creates links) and kept by every other
    // method (which only copy existing link values or restore saved ones): every `top`,
    // `up` and `down` of a non-spacer node, and the `up`/`down` of a spacer, is an index
    // into `nodes`; every header `top` (an item `1..=items`) and every `llink`/`rlink` value
    // is an index into `llink`, `rlink` and `len` (length `items + 2`, `items + 2`,
    // `items + 1`; a list link can be the secondary root `items + 1`, but `len` is only read
    // at primary items reached from root 0, whose list never contains that root). `nodes`
    // never shrinks. Each accessor repeats the check in debug builds.

    #[inline(always)]
    fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link value; see the invariant above.
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link value; see the invariant above.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn len_mut(&mut self, item: u32) -> &mut u32 {
        debug_assert!((item as usize) < self.len.len());
        // SAFETY: `item` is the `top` of a non-spacer node or a primary list member.
        unsafe { self.len.get_unchecked_mut(item as usize) }
    }

    #[inline(always)]
    fn len_of(&self, item: u32) -> u32 {
        debug_assert!((item as usize) < self.len.len());
        // SAFETY: `item` is a primary list member; see the invariant above.
        unsafe { *self.len.get_unchecked(item as usize) }
    }

    #[inline(always)]
    fn left(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.llink.len());
        // SAFETY: list links stay within the list arrays; see the invariant above.
        unsafe { *self.llink.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn right(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.rlink.len());
        // SAFETY: list links stay within the list arrays; see the invariant above.
        unsafe { *self.rlink.get_unchecked(i as usize) }
    }

    /// Unlinks item header `item` from its list.
    #[inline(always)]
    fn unlink_item(&mut self, item: u32) {
        let i = item as usize;
        debug_assert!(i < self.rlink.len());
        // SAFETY: `item` and its list neighbours are list indices; see the invariant above.
        unsafe {
            let l = *self.llink.get_unchecked(i);
            let r = *self.rlink.get_unchecked(i);
            *self.rlink.get_unchecked_mut(l as usize) = r;
            *self.llink.get_unchecked_mut(r as usize) = l;
        }
    }

    /// Puts item header `item` back into its list.
    #[inline(always)]
    fn relink_item(&mut self, item: u32) {
        let i = item as usize;
        debug_assert!(i < self.rlink.len());
        // SAFETY: as in `unlink_item`.
        unsafe {
            let l = *self.llink.get_unchecked(i);
            let r = *self.rlink.get_unchecked(i);
            *self.rlink.get_unchecked_mut(l as usize) = item;
            *self.llink.get_unchecked_mut(r as usize) = item;
        }
    }

    /// The active primary item with fewest options, and that number (MRV; the scan stops at
    /// 0 or 1). Only called when the primary list is not empty.
    ///
    /// The scan is skipped when the covers since the last choice left a hint: a primary item
    /// whose column dropped to 0 or 1 options. It is used if still active (a later cover in
    /// the same step may have covered it) — the same choice the scan would make up to ties,
    /// found without walking the list (kudoku finds its minimum the same way).
    #[inline]
    fn choose(&self) -> (u32, u32) {
        let h = self.hint;
        if h != 0 && self.right(self.left(h)) == h {
            let n = self.len_of(h);
            if n <= 1 {
                return (h, n);
            }
        }
        let mut best = self.right(0);
        let mut best_len = self.len_of(best);
        let mut i = self.right(best);
        while best_len > 1 && i != 0 {
            let l = self.len_of(i);
            if l < best_len {
                best = i;
                best_len = l;
            }
            i = self.right(i);
        }
        (best, best_len)
    }

    /// Removes a node from its column.
    #[inline(always)]
    fn unlink_node(&mut self, q: u32) {
        let Node { top, up, down } = *self.node(q);
        self.node_mut(up).down = down;
        self.node_mut(down).up = up;
        let len = self.len_mut(top);
        *len -= 1;
        if *len <= 1 && top as usize <= self.primary {
            self.hint = top;
        }
    }

    /// Puts a node back into its column (inverse of [`unlink_node`](Self::unlink_node)).
    #[inline(always)]
    fn relink_node(&mut self, q: u32) {
        let Node { top, up, down } = *self.node(q);
        self.node_mut(up).down = q;
        self.node_mut(down).up = q;
        *self.len_mut(top) += 1;
    }

    /// Removes the option of node `p` from every column except `p`'s own; returns how many
    /// nodes it unlinked.
    #[inline(always)]
    fn hide(&mut self, p: u32) -> u64 {
        let mut n = 0;
        let mut q = p + 1;
        while q != p {
            let Node { top, up, .. } = *self.node(q);
            if top == SPACER {
                q = up;
            } else {
                self.unlink_node(q);
                n += 1;
                q += 1;
            }
        }
        n
    }

    /// Inverse of [`hide`](Self::hide), walking the option the other way.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { top, down, .. } = *self.node(q);
            if top == SPACER {
                q = down;
            } else {
                self.relink_node(q);
                q -= 1;
            }
        }
    }

    /// Covers an item: takes it out of its list and hides every option that contains it;
    /// returns the number of link updates.
    fn cover(&mut self, item: u32) -> u64 {
        let mut n = 1;
        let mut p = self.node(item).down;
        while p != item {
            n += self.hide(p);
            p = self.node(p).down;
        }
        self.unlink_item(item);
        n
    }

    /// Inverse of [`cover`](Self::cover).
    fn uncover(&mut self, item: u32) {
        self.relink_item(item);
        let mut p = self.node(item).up;
        while p != item {
            self.unhide(p);
            p = self.node(p).up;
        }
    }

    /// Covers the items of `x`'s option other than `x`'s own, left to right.
    #[inline]
    fn cover_rest(&mut self, x: u32) -> u64 {
        let mut n = 0;
        let mut p = x + 1;
        while p != x {
            let Node { top, up, .. } = *self.node(p);
            if top == SPACER {
                p = up;
            } else {
                n += self.cover(top);
                p += 1;
            }
        }
        n
    }

    /// Inverse of [`cover_rest`](Self::cover_rest), right to left.
    #[inline]
    fn uncover_rest(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let Node { top, down, .. } = *self.node(p);
            if top == SPACER {
                p = down;
            } else {
                self.uncover(top);
                p -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's example from "Dancing Links" (2000): items a..g (here 0..6) and six options;
    /// its only cover is options 3 {a d}, 4 {b g} and 0 {c e f}.
    fn knuth() -> ExactCover {
        let mut ec = ExactCover::new(7, 0).unwrap();
        let (a, b, c, d, e, f, g) = (0, 1, 2, 3, 4, 5, 6);
        for o in [
            vec![c, e, f],
            vec![a, d, g],
            vec![b, c, f],
            vec![a, d],
            vec![b, g],
            vec![d, e, g],
        ] {
            ec.add_option(&o).unwrap();
        }
        ec
    }

    /// A snapshot of every link, to check that searches leave the structure as they found it.
    type Snapshot = (Vec<u32>, Vec<u32>, Vec<u32>, Vec<(u32, u32, u32)>);

    fn snapshot(ec: &ExactCover) -> Snapshot {
        (
            ec.llink.clone(),
            ec.rlink.clone(),
            ec.len.clone(),
            ec.nodes.iter().map(|n| (n.top, n.up, n.down)).collect(),
        )
    }

    #[test]
    fn knuth_example_has_one_cover() {
        let mut ec = knuth();
        let before = snapshot(&ec);
        let r = ec.search(10, None);
        assert_eq!(r.count, 1);
        assert!(r.complete);
        let mut cover = ec.first_cover().unwrap().to_vec();
        cover.sort_unstable();
        // {a d}, {b g}, {c e f}.
        assert_eq!(cover, vec![0, 3, 4]);
        assert_eq!(snapshot(&ec), before);
        assert!(r.stats.nodes > 0 && r.stats.updates > 0);
    }

    #[test]
    fn select_and_remove_restrict_and_reset_restores() {
        let mut ec = knuth();
        let before = snapshot(&ec);
        // Removing an option of the only cover leaves none.
        assert_eq!(ec.remove(4), Ok(true));
        assert_eq!(ec.remove(4), Ok(false), "already removed");
        assert_eq!(ec.search(10, None).count, 0);
        assert_eq!(ec.first_cover(), None);
        ec.reset();
        assert_eq!(snapshot(&ec), before);
        // Selecting an option of the cover: the search adds the other two.
        assert_eq!(ec.select(3), Ok(true));
        // Option 1 shares item a with option 3: conflict, not a panic, nothing changed.
        assert_eq!(ec.select(1), Ok(false));
        assert_eq!(ec.remove(1), Ok(false));
        let r = ec.search(10, None);
        assert_eq!(r.count, 1);
        let mut cover = ec.first_cover().unwrap().to_vec();
        cover.sort_unstable();
        assert_eq!(cover, vec![0, 4]);
        // Selecting an option outside the cover: none.
        ec.reset();
        assert_eq!(ec.select(5), Ok(true));
        assert_eq!(ec.search(10, None).count, 0);
        ec.reset();
        assert_eq!(snapshot(&ec), before);
        assert_eq!(ec.search(10, None).count, 1);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut ec = ExactCover::new(3, 1).unwrap();
        assert_eq!(ec.add_option(&[]), Err(ExactCoverError::EmptyOption));
        assert_eq!(
            ec.add_option(&[0, 4]),
            Err(ExactCoverError::ItemOutOfRange { item: 4, items: 4 })
        );
        assert_eq!(
            ec.add_option(&[1, 1]),
            Err(ExactCoverError::DuplicateItem(1))
        );
        assert_eq!(
            ec.select(0),
            Err(ExactCoverError::OptionOutOfRange {
                option: 0,
                options: 0
            })
        );
        assert_eq!(ec.add_option(&[0, 3]), Ok(0));
        assert_eq!(ec.option_items(0), Ok(vec![0, 3]));
        assert_eq!(ec.select(0), Ok(true));
        assert_eq!(ec.add_option(&[1]), Err(ExactCoverError::Busy));
        ec.reset();
        assert_eq!(ec.add_option(&[1]), Ok(1));
    }

    /// Items 0..n: row r; n..2n: column c (primary); then 2n−1 diagonals and 2n−1
    /// anti-diagonals (secondary: at most one queen each). Option (r, c) = queen there.
    fn queens(n: usize) -> ExactCover {
        let mut ec = ExactCover::new(2 * n, 2 * (2 * n - 1)).unwrap();
        for r in 0..n {
            for c in 0..n {
                let diag = 2 * n + (r + c);
                let anti = 2 * n + (2 * n - 1) + (r + n - 1 - c);
                ec.add_option(&[r, n + c, diag, anti]).unwrap();
            }
        }
        ec
    }

    #[test]
    fn n_queens_counts() {
        for (n, want) in [
            (1, 1),
            (2, 0),
            (3, 0),
            (4, 2),
            (5, 10),
            (6, 4),
            (8, 92),
            (10, 724),
        ] {
            let mut ec = queens(n);
            let before = snapshot(&ec);
            let r = ec.search(u64::MAX, None);
            assert_eq!((n, r.count), (n, want));
            assert!(r.complete);
            assert_eq!(snapshot(&ec), before, "n = {n}: structure restored");
        }
    }

    #[test]
    fn every_cover_is_visited_and_valid() {
        let n = 6;
        let mut ec = queens(n);
        let mut seen = Vec::new();
        let r = ec.search_each(u64::MAX, None, |cover| {
            let mut squares: Vec<usize> = cover.to_vec();
            squares.sort_unstable();
            seen.push(squares);
        });
        assert_eq!(r.count, 4);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 4, "covers are distinct");
        for cover in &seen {
            assert_eq!(cover.len(), n);
            let q: Vec<(usize, usize)> = cover.iter().map(|&o| (o / n, o % n)).collect();
            for (i, &(r1, c1)) in q.iter().enumerate() {
                for &(r2, c2) in &q[i + 1..] {
                    assert!(r1 != r2 && c1 != c2);
                    assert_ne!(r1.abs_diff(r2), c1.abs_diff(c2), "diagonal attack");
                }
            }
        }
    }

    #[test]
    fn limit_stops_early_and_restores() {
        let mut ec = queens(8);
        let before = snapshot(&ec);
        let r = ec.search(2, None);
        assert_eq!(r.count, 2);
        assert!(r.complete);
        assert_eq!(snapshot(&ec), before);
        // Limit 0 counts as 1.
        assert_eq!(ec.search(0, None).count, 1);
        assert_eq!(snapshot(&ec), before);
    }

    #[test]
    fn node_budget_gives_up_and_restores() {
        let mut ec = queens(8);
        let before = snapshot(&ec);
        let r = ec.search(u64::MAX, Some(50));
        assert!(!r.complete);
        assert!(r.count < 92);
        assert_eq!(r.stats.nodes, 51);
        assert_eq!(snapshot(&ec), before);
        // A budget large enough changes nothing.
        let full = ec.search(u64::MAX, None);
        let r = ec.search(u64::MAX, Some(full.stats.nodes));
        assert!(r.complete);
        assert_eq!(r.count, 92);
    }

    #[test]
    fn problems_without_a_cover() {
        // Item 2 is in no option.
        let mut ec = ExactCover::new(3, 0).unwrap();
        ec.add_option(&[0, 1]).unwrap();
        ec.add_option(&[1]).unwrap();
        ec.add_option(&[0]).unwrap();
        let r = ec.search(2, None);
        assert_eq!((r.count, r.complete), (0, true));
        assert_eq!(ec.first_cover(), None);
        // Every item has options, but they overlap: {0 1}, {1 2}, {0 2} on three items.
        let mut ec = ExactCover::new(3, 0).unwrap();
        ec.add_option(&[0, 1]).unwrap();
        ec.add_option(&[1, 2]).unwrap();
        ec.add_option(&[0, 2]).unwrap();
        let before = snapshot(&ec);
        assert_eq!(ec.search(2, None).count, 0);
        assert_eq!(snapshot(&ec), before);
        // Queens on 3×3.
        assert_eq!(queens(3).search(2, None).count, 0);
    }

    #[test]
    fn secondary_items_are_optional() {
        // One primary item, one secondary: both options cover it, only one may be taken
        // with the secondary, and the one without it is a cover too.
        let mut ec = ExactCover::new(1, 1).unwrap();
        ec.add_option(&[0, 1]).unwrap();
        ec.add_option(&[0]).unwrap();
        assert_eq!(ec.search(10, None).count, 2);
        // No primary items: the empty cover is the only one.
        let mut ec = ExactCover::new(0, 2).unwrap();
        ec.add_option(&[0, 1]).unwrap();
        assert_eq!(ec.search(10, None).count, 1);
        assert_eq!(ec.first_cover(), Some(&[][..]));
    }
}
