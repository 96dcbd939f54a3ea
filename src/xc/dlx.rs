//! Exact cover with colours by Dancing Links: Knuth's Algorithm C (TAOCP 7.2.2.1, his program
//! DLX2), written for this module beside the Sudoku engine in [`crate::exact_cover`] (which
//! has no colours and stays as it is).
//!
//! The layout is DLX1's: one flat array of nodes, each option's nodes contiguous between
//! spacers. Each node also holds a colour (0: none). Choosing an option *commits* its other
//! items: an uncoloured item is covered as in Algorithm X; a coloured one is *purified*: the
//! options that give the item another colour are hidden, and the nodes of the same colour are
//! marked (colour `PURIFIED`) so later covers leave them alone. Branching is on the active
//! primary item with fewest options (MRV, first in item order on ties). The search is
//! iterative, so deep instances cannot overflow the stack.

use super::knuth::Instance;
use super::search::{Found, Limit, Tally};

/// Marks a spacer node's `top`.
const SPACER: u32 = u32::MAX;
/// A node whose item has been purified with the node's own colour.
const PURIFIED: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    top: u32,
    up: u32,
    down: u32,
    colour: u32,
}

/// An instance laid out for Algorithm C.
#[derive(Clone, Debug)]
pub struct Dlx {
    /// Item `i` is header node `i + 1`; node 0 is the primary root, `items + 1` the secondary.
    llink: Vec<u32>,
    rlink: Vec<u32>,
    len: Vec<u32>,
    nodes: Vec<Node>,
    /// The option of each node (`u32::MAX` for headers and spacers).
    option_of: Vec<u32>,
    primary: usize,
    updates: u64,
}

impl Dlx {
    /// Lays out `instance` (which the reader has checked: items in range, none twice in an
    /// option, every option with a primary item).
    pub fn new(instance: &Instance) -> Dlx {
        let items = instance.items();
        let primary = instance.primary;
        let mut llink = vec![0u32; items + 2];
        let mut rlink = vec![0u32; items + 2];
        for i in 0..=primary {
            rlink[i] = if i == primary { 0 } else { i as u32 + 1 };
            llink[i] = if i == 0 { primary as u32 } else { i as u32 - 1 };
        }
        let sec: Vec<usize> = std::iter::once(items + 1)
            .chain(primary + 1..=items)
            .collect();
        for (k, &i) in sec.iter().enumerate() {
            rlink[i] = sec[(k + 1) % sec.len()] as u32;
            llink[i] = sec[(k + sec.len() - 1) % sec.len()] as u32;
        }
        let mut nodes: Vec<Node> = (0..=items as u32)
            .map(|i| Node {
                top: i,
                up: i,
                down: i,
                colour: 0,
            })
            .collect();
        let mut len = vec![0u32; items + 1];
        let mut option_of = vec![u32::MAX; items + 1];
        nodes.push(Node {
            top: SPACER,
            ..Node::default()
        });
        option_of.push(u32::MAX);
        for (o, option) in instance.options.iter().enumerate() {
            let start = nodes.len() as u32;
            let spacer_before = start as usize - 1;
            for &(i, colour) in option {
                let header = i as u32 + 1;
                let q = nodes.len() as u32;
                let last = nodes[header as usize].up;
                nodes.push(Node {
                    top: header,
                    up: last,
                    down: header,
                    colour,
                });
                nodes[last as usize].down = q;
                nodes[header as usize].up = q;
                len[header as usize] += 1;
                option_of.push(o as u32);
            }
            nodes[spacer_before].down = nodes.len() as u32 - 1;
            nodes.push(Node {
                top: SPACER,
                up: start,
                down: 0,
                colour: 0,
            });
            option_of.push(u32::MAX);
        }
        Dlx {
            llink,
            rlink,
            len,
            nodes,
            option_of,
            primary,
            updates: 0,
        }
    }

    /// Searches for up to `limit` solutions within `max_nodes` search nodes, calling `visit`
    /// with each (option indices in the order chosen). Leaves the structure as it found it.
    pub fn search(
        &mut self,
        limit: Limit,
        max_nodes: Option<u64>,
        visit: &mut dyn FnMut(&[usize]),
    ) -> Found {
        self.search_with(Tally::new(limit, max_nodes, visit))
    }

    /// [`search`](Self::search) for a search under way.
    pub fn search_with(&mut self, mut t: Tally) -> Found {
        self.updates = 0;
        let mut choice: Vec<u32> = Vec::with_capacity(self.primary + 1);
        let mut solution: Vec<usize> = Vec::with_capacity(self.primary + 1);
        'forward: loop {
            let mut stop = false;
            if !t.count_node() {
                stop = true;
            } else if self.rlink[0] == 0 {
                solution.clear();
                solution.extend(choice.iter().map(|&x| self.option_of[x as usize] as usize));
                stop = t.count_solution(&solution);
            } else {
                let (item, n) = self.choose();
                if n > 0 {
                    self.cover(item);
                    let x = self.nodes[item as usize].down;
                    choice.push(x);
                    self.commit_rest(x);
                    continue 'forward;
                }
            }
            while let Some(x) = choice.pop() {
                self.uncommit_rest(x);
                let Node { top, down, .. } = self.nodes[x as usize];
                if !stop && down != top {
                    choice.push(down);
                    self.commit_rest(down);
                    continue 'forward;
                }
                self.uncover(top);
            }
            break;
        }
        t.found.updates = self.updates;
        t.found
    }

    /// The active primary item with fewest options and that number (the scan stops at 0 or
    /// 1). Only called when some primary item is active.
    fn choose(&self) -> (u32, u32) {
        let mut best = self.rlink[0];
        let mut best_len = self.len[best as usize];
        let mut i = self.rlink[best as usize];
        while best_len > 1 && i != 0 {
            let l = self.len[i as usize];
            if l < best_len {
                best = i;
                best_len = l;
            }
            i = self.rlink[i as usize];
        }
        (best, best_len)
    }

    // The hot loops below read links with unchecked indexing. Soundness rests on one
    // invariant, established by `new` (the only code that creates links) and kept by every
    // other method (which only copy existing link values or restore saved ones): every `up`
    // and `down` of a node is an index into `nodes`, and every `top` of a non-spacer node is
    // an item header `1..=items`, an index into `len`. `nodes` never changes length after
    // `new`. Debug builds check each access.

    #[inline(always)]
    fn node(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link value; see the invariant above.
        unsafe { *self.nodes.get_unchecked(i as usize) }
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
        // SAFETY: `item` is the `top` of a non-spacer node; see the invariant above.
        unsafe { self.len.get_unchecked_mut(item as usize) }
    }

    /// Hides the option of node `p` from every column but `p`'s own, except nodes already
    /// purified (Knuth's hide′); returns the nodes unlinked.
    #[inline(always)]
    fn hide(&mut self, p: u32) -> u64 {
        let mut n = 0;
        let mut q = p + 1;
        while q != p {
            let Node {
                top,
                up,
                down,
                colour,
            } = self.node(q);
            if top == SPACER {
                q = up;
                continue;
            }
            if colour != PURIFIED {
                self.node_mut(up).down = down;
                self.node_mut(down).up = up;
                *self.len_mut(top) -= 1;
                n += 1;
            }
            q += 1;
        }
        n
    }

    /// Inverse of [`hide`](Self::hide), walking the other way.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node {
                top,
                up,
                down,
                colour,
            } = self.node(q);
            if top == SPACER {
                q = down;
                continue;
            }
            if colour != PURIFIED {
                self.node_mut(up).down = q;
                self.node_mut(down).up = q;
                *self.len_mut(top) += 1;
            }
            q -= 1;
        }
    }

    /// Covers item header `i` (Knuth's cover′).
    fn cover(&mut self, i: u32) {
        let mut n = 1;
        let mut p = self.node(i).down;
        while p != i {
            n += self.hide(p);
            p = self.node(p).down;
        }
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
        self.updates += n;
    }

    /// Inverse of [`cover`](Self::cover).
    fn uncover(&mut self, i: u32) {
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = i;
        self.llink[r as usize] = i;
        let mut p = self.node(i).up;
        while p != i {
            self.unhide(p);
            p = self.node(p).up;
        }
    }

    /// Hides every option that gives `p`'s item another colour than `p`'s, and marks the
    /// other nodes of `p`'s colour as purified (`p` keeps its colour, which `unpurify` reads).
    fn purify(&mut self, p: u32) {
        let Node { top: i, colour, .. } = self.nodes[p as usize];
        let mut q = self.nodes[i as usize].down;
        while q != i {
            if self.nodes[q as usize].colour != colour {
                self.updates += self.hide(q);
            } else if q != p {
                self.nodes[q as usize].colour = PURIFIED;
            }
            q = self.nodes[q as usize].down;
        }
    }

    /// Inverse of [`purify`](Self::purify).
    fn unpurify(&mut self, p: u32) {
        let Node { top: i, colour, .. } = self.nodes[p as usize];
        let mut q = self.nodes[i as usize].up;
        while q != i {
            if self.nodes[q as usize].colour == PURIFIED {
                self.nodes[q as usize].colour = colour;
            } else if q != p {
                self.unhide(q);
            }
            q = self.nodes[q as usize].up;
        }
    }

    /// Commits the items of `x`'s option other than `x`'s own, left to right: covers an
    /// uncoloured item, purifies a coloured one, leaves an already purified node alone.
    fn commit_rest(&mut self, x: u32) {
        let mut p = x + 1;
        while p != x {
            let Node {
                top, up, colour, ..
            } = self.nodes[p as usize];
            if top == SPACER {
                p = up;
                continue;
            }
            match colour {
                0 => self.cover(top),
                PURIFIED => {}
                _ => self.purify(p),
            }
            p += 1;
        }
    }

    /// Inverse of [`commit_rest`](Self::commit_rest), right to left.
    fn uncommit_rest(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let Node {
                top, down, colour, ..
            } = self.nodes[p as usize];
            if top == SPACER {
                p = down;
                continue;
            }
            match colour {
                0 => self.uncover(top),
                PURIFIED => {}
                _ => self.unpurify(p),
            }
            p -= 1;
        }
    }
}
