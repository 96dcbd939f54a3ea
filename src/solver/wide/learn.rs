//! Clause learning for `wide`: the search `wide` hands a puzzle to when branching alone
//! takes too long (Alain Frisch's minimal 25×25 puzzles, where search without learning
//! meets the same dead ends again and again).
//!
//! The model is the direct one, a boolean per cell and symbol, under 4·n⁴ exactly-one
//! constraints ("groups": each cell holds one symbol; each house holds each symbol once).
//! The groups are propagated natively — a true member makes the others false, a group
//! down to one open member makes it true, a group with none is a conflict — instead of
//! through the hundreds of thousands of binary clauses a CNF spells them out with (each
//! group keeps a bit mask of its members not yet false); only the clauses learnt from
//! conflicts are watched. Around that, a conflict-driven search in the manner of MiniSat:
//! first-UIP learning with minimisation (a depth-first search that remembers, until the
//! analysis ends, what it found implied and what not, and skips a literal alone on its
//! level) and shrinking (Fleury and Biere's: the literals of one level become that level's
//! dominator), activity-ordered decisions with saved phases (a conflict bumps the variables
//! it analysed and those of the reasons of its learnt clause's literals), Luby restarts, and
//! learnt clauses kept by their number of decision levels (LBD).

use crate::order::found::Found;
use crate::order::{Order, OrderGrid};

/// Why a variable holds its value.
#[derive(Clone, Copy, Debug)]
enum Reason {
    /// A decision, or a fact of the starting position.
    Decision,
    /// False because this variable of one of its groups is true.
    Beside(u32),
    /// True because every other member of this group is false.
    Last(u32),
    /// Implied by this learnt clause (its first literal).
    Clause(u32),
}

/// What failed.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// Two true members of one group.
    Both(u32, u32),
    /// A group with every member false.
    Empty(u32),
    /// A learnt clause with every literal false.
    Clause(u32),
}

/// A clause in the arena: its length, its LBD (the top bit marks a deleted clause), then
/// its literals, the two watched ones first.
const HEADER: usize = 2;
const DELETED: u32 = 1 << 31;

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: u32,
}

/// Activity decay per conflict (each conflict's bumps weigh 1 / `DECAY` times the last's).
/// 0.98 rather than MiniSat's 0.95: a longer memory of where conflicts were. On eleven of
/// Frisch's 25×25 (entries 19–25 and 28–31), two interleaved runs each: 10 % fewer decisions
/// (625,790 against 698,128) and 9–11 % less time; 0.97, 0.985 and 0.99 were between, 0.90
/// worse than 0.95.
const DECAY: f64 = 0.98;

/// Restarts after `RESTART_UNIT` × Luby(i) conflicts.
const RESTART_UNIT: u64 = 100;
/// Learnt clauses are halved after this many conflicts, then `REDUCE_STEP` more each time.
const REDUCE_FIRST: u64 = 2000;
const REDUCE_STEP: u64 = 300;

/// The learning search of one order, its tables built once and reused.
pub struct Learner<const N: usize> {
    /// Per cell, its three houses and its place in each.
    houses_of: Vec<[u16; 3]>,
    place_in: Vec<[u8; 3]>,
    /// The cells of each house (rows, columns, boxes).
    house_cells: Vec<u16>,
    /// Per variable (`cell · side + symbol`): 1 true, −1 false, 0 open.
    value: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    /// Per group (cells, then `cells + house · side + symbol`): its members not false, bit
    /// `k` for the member at place `k`.
    open: Vec<u64>,
    trail: Vec<u32>,
    trail_lim: Vec<usize>,
    head: usize,
    /// Learnt clauses, one after another (see [`HEADER`]); a reason or watch names a clause
    /// by its offset.
    arena: Vec<u32>,
    learnts: usize,
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    phase: Vec<bool>,
    seen: Vec<bool>,
    /// Shrinking's marks: the literals of one level still to be resolved.
    pending: Vec<bool>,
    scratch: Vec<u32>,
    learnt: Vec<u32>,
    /// The literals whose `seen` mark an analysis must clear.
    clear: Vec<u32>,
    /// Minimisation's depth-first stack: a variable and the next literal of its reason.
    frames: Vec<(u32, u32)>,
    /// Variables an analysis found not implied by its clause, and the list of them.
    poison: Vec<bool>,
    poisoned: Vec<u32>,
    level_stamp: Vec<u64>,
    /// Per variable, the stamp of the last [`Self::bump_reasons`] that bumped it.
    bumped: Vec<u64>,
    stamp: u64,
}

impl<const N: usize> Default for Learner<N> {
    fn default() -> Learner<N> {
        Learner::new()
    }
}

impl<const N: usize> Learner<N> {
    const SIDE: usize = N * N;
    const CELLS: usize = N * N * N * N;

    /// The search for puzzles of order `N` (2…8).
    pub fn new() -> Learner<N> {
        let order = Order::new(N).expect("wide: order in 2..=8");
        let geometry = order.geometry();
        let (side, cells) = (Self::SIDE, Self::CELLS);
        let vars = cells * side;
        let houses_of: Vec<[u16; 3]> = (0..cells).map(|c| geometry.houses_of(c)).collect();
        let place_in = (0..cells)
            .map(|c| {
                let hs = houses_of[c];
                let mut at = [0u8; 3];
                for k in 0..3 {
                    let house = geometry.house(hs[k] as usize);
                    at[k] = house.iter().position(|&x| x as usize == c).unwrap_or(0) as u8;
                }
                at
            })
            .collect();
        let house_cells = (0..3 * side)
            .flat_map(|h| geometry.house(h).to_vec())
            .collect();
        Learner {
            houses_of,
            place_in,
            house_cells,
            value: vec![0; vars],
            level: vec![0; vars],
            reason: vec![Reason::Decision; vars],
            open: vec![0; 4 * cells],
            trail: Vec::with_capacity(vars),
            trail_lim: Vec::new(),
            head: 0,
            arena: Vec::new(),
            learnts: 0,
            watches: vec![Vec::new(); 2 * vars],
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Heap::new(vars),
            phase: vec![false; vars],
            seen: vec![false; vars],
            pending: vec![false; vars],
            scratch: Vec::new(),
            learnt: Vec::new(),
            clear: Vec::new(),
            frames: Vec::new(),
            poison: vec![false; vars],
            poisoned: Vec::new(),
            level_stamp: vec![0; vars + 1],
            bumped: vec![0; vars],
            stamp: 0,
        }
    }

    /// The four groups of variable `x` and its place in each.
    #[inline(always)]
    fn groups(&self, x: usize) -> [(usize, u32); 4] {
        let (cell, v) = (x / Self::SIDE, x % Self::SIDE);
        let (hs, at) = (self.houses_of[cell], self.place_in[cell]);
        let house = |k: usize| Self::CELLS + hs[k] as usize * Self::SIDE + v;
        [
            (cell, v as u32),
            (house(0), u32::from(at[0])),
            (house(1), u32::from(at[1])),
            (house(2), u32::from(at[2])),
        ]
    }

    /// Member `k` of group `g`.
    #[inline(always)]
    fn member(&self, g: usize, k: usize) -> usize {
        if g < Self::CELLS {
            g * Self::SIDE + k
        } else {
            let (h, v) = (
                (g - Self::CELLS) / Self::SIDE,
                (g - Self::CELLS) % Self::SIDE,
            );
            self.house_cells[h * Self::SIDE + k] as usize * Self::SIDE + v
        }
    }

    #[inline(always)]
    fn lit_value(&self, lit: u32) -> i8 {
        let v = self.value[(lit >> 1) as usize];
        if lit & 1 == 0 {
            v
        } else {
            -v
        }
    }

    fn level_now(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline(always)]
    fn assign(&mut self, lit: u32, reason: Reason) {
        let x = (lit >> 1) as usize;
        let truth = lit & 1 == 0;
        self.value[x] = if truth { 1 } else { -1 };
        self.level[x] = self.level_now();
        self.reason[x] = reason;
        self.trail.push(lit);
        if !truth {
            for (g, k) in self.groups(x) {
                self.open[g] &= !(1 << k);
            }
        }
    }

    fn cancel_until(&mut self, level: u32) {
        if self.level_now() <= level {
            return;
        }
        let start = self.trail_lim[level as usize];
        for i in (start..self.trail.len()).rev() {
            let lit = self.trail[i];
            let x = (lit >> 1) as usize;
            if lit & 1 == 1 {
                for (g, k) in self.groups(x) {
                    self.open[g] |= 1 << k;
                }
            }
            self.phase[x] = lit & 1 == 0;
            self.value[x] = 0;
            self.heap.insert(x, &self.activity);
        }
        self.trail.truncate(start);
        self.trail_lim.truncate(level as usize);
        self.head = start;
    }

    /// Propagates the trail from `head`; the conflict if one is met.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            let x = (p >> 1) as usize;
            if p & 1 == 0 {
                for (g, at) in self.groups(x) {
                    let mut others = self.open[g] & !(1 << at);
                    while others != 0 {
                        let y = self.member(g, others.trailing_zeros() as usize);
                        others &= others - 1;
                        if self.value[y] == 1 {
                            return Some(Conflict::Both(x as u32, y as u32));
                        }
                        self.assign((y as u32) << 1 | 1, Reason::Beside(x as u32));
                    }
                }
            } else {
                for (g, _) in self.groups(x) {
                    let open = self.open[g];
                    match open.count_ones() {
                        0 => return Some(Conflict::Empty(g as u32)),
                        1 => {
                            let z = self.member(g, open.trailing_zeros() as usize);
                            if self.value[z] == 0 {
                                self.assign((z as u32) << 1, Reason::Last(g as u32));
                            }
                        }
                        _ => {}
                    }
                }
            }
            if let Some(conflict) = self.propagate_clauses(p ^ 1) {
                return Some(conflict);
            }
        }
        None
    }

    /// Visits the learnt clauses watching `false_lit`, which has just become false.
    fn propagate_clauses(&mut self, false_lit: u32) -> Option<Conflict> {
        let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.lit_value(w.blocker) == 1 {
                ws[j] = w;
                j += 1;
                continue;
            }
            let at = w.clause as usize;
            let len = self.arena[at] as usize;
            let lits = at + HEADER;
            if self.arena[lits] == false_lit {
                self.arena.swap(lits, lits + 1);
            }
            let first = self.arena[lits];
            let watch = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == 1 {
                ws[j] = watch;
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in lits + 2..lits + len {
                let lit = self.arena[k];
                if self.lit_value(lit) != -1 {
                    self.arena.swap(lits + 1, k);
                    self.watches[lit as usize].push(watch);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            ws[j] = watch;
            j += 1;
            if self.lit_value(first) == -1 {
                while i < ws.len() {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                }
                conflict = Some(Conflict::Clause(w.clause));
            } else {
                self.assign(first, Reason::Clause(w.clause));
            }
        }
        ws.truncate(j);
        self.watches[false_lit as usize] = ws;
        conflict
    }

    /// The false literals of a reason (the implied literal left out) into `scratch`.
    fn reason_lits(&mut self, x: usize) {
        self.scratch.clear();
        match self.reason[x] {
            Reason::Decision => {}
            Reason::Beside(y) => self.scratch.push(y << 1 | 1),
            Reason::Last(g) => {
                for k in 0..Self::SIDE {
                    let y = self.member(g as usize, k);
                    if y != x {
                        self.scratch.push((y as u32) << 1);
                    }
                }
            }
            Reason::Clause(c) => {
                let (at, len) = (c as usize, self.arena[c as usize] as usize);
                self.scratch
                    .extend_from_slice(&self.arena[at + HEADER + 1..at + HEADER + len]);
            }
        }
    }

    /// The literals of a conflict into `scratch`.
    fn conflict_lits(&mut self, conflict: Conflict) {
        self.scratch.clear();
        match conflict {
            Conflict::Both(x, y) => self.scratch.extend([x << 1 | 1, y << 1 | 1]),
            Conflict::Empty(g) => {
                for k in 0..Self::SIDE {
                    let y = self.member(g as usize, k);
                    self.scratch.push((y as u32) << 1);
                }
            }
            Conflict::Clause(c) => {
                let (at, len) = (c as usize, self.arena[c as usize] as usize);
                self.scratch
                    .extend_from_slice(&self.arena[at + HEADER..at + HEADER + len]);
            }
        }
    }

    fn bump_var(&mut self, x: usize) {
        self.activity[x] += self.bump;
        if self.activity[x] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.raise(x, &self.activity);
    }

    /// First-UIP learning: the learnt clause in `learnt` (asserting literal first, a literal
    /// of the backjump level second), the level to jump back to, and the clause's LBD.
    fn analyze(&mut self, conflict: Conflict) -> (u32, u32) {
        let now = self.level_now();
        self.learnt.clear();
        self.learnt.push(0);
        let mut pending = 0;
        let mut index = self.trail.len();
        let mut p: Option<u32>;
        self.conflict_lits(conflict);
        loop {
            for i in 0..self.scratch.len() {
                let q = self.scratch[i];
                let y = (q >> 1) as usize;
                debug_assert_eq!(self.lit_value(q), -1, "a reason's literals are false");
                if !self.seen[y] && self.level[y] > 0 {
                    self.seen[y] = true;
                    self.bump_var(y);
                    if self.level[y] >= now {
                        pending += 1;
                    } else {
                        self.learnt.push(q);
                    }
                }
            }
            loop {
                index -= 1;
                if self.seen[(self.trail[index] >> 1) as usize] {
                    break;
                }
            }
            let lit = self.trail[index];
            p = Some(lit);
            self.seen[(lit >> 1) as usize] = false;
            pending -= 1;
            if pending == 0 {
                break;
            }
            self.reason_lits((lit >> 1) as usize);
        }
        self.learnt[0] = p.map_or(0, |lit| lit ^ 1);
        // Minimisation: a literal implied by literals of the clause (or by facts), through
        // any chain of reasons, adds nothing.
        self.clear.clear();
        self.clear.extend_from_slice(&self.learnt[1..]);
        // The clause's levels as bits (level mod 32), and those with two literals or more:
        // the only literal of its level cannot be implied by the others, as its reasons
        // lead back within the level to the level's decision (a shared bit can only make a
        // level look fuller, which costs a search, never a wrong removal).
        let (mut levels, mut twice) = (0u32, 0u32);
        for &q in &self.learnt[1..] {
            let bit = 1 << (self.level[(q >> 1) as usize] & 31);
            twice |= levels & bit;
            levels |= bit;
        }
        let mut keep = 1;
        for i in 1..self.learnt.len() {
            let q = self.learnt[i];
            let y = (q >> 1) as usize;
            let alone = twice & 1 << (self.level[y] & 31) == 0;
            let redundant = match self.reason[y] {
                Reason::Decision => false,
                _ if alone => false,
                _ => self.implied(q, levels),
            };
            if !redundant {
                self.learnt[keep] = q;
                keep += 1;
            }
        }
        for &q in &self.clear {
            self.seen[(q >> 1) as usize] = false;
        }
        self.learnt.truncate(keep);
        self.shrink();
        self.bump_reasons();
        for &w in &self.poisoned {
            self.poison[w as usize] = false;
        }
        self.poisoned.clear();
        // The backjump level: the highest below the conflict's, its literal second.
        let mut back = 0;
        if self.learnt.len() > 1 {
            let mut at = 1;
            for i in 1..self.learnt.len() {
                let l = self.level[(self.learnt[i] >> 1) as usize];
                if l > back {
                    back = l;
                    at = i;
                }
            }
            self.learnt.swap(1, at);
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &q in &self.learnt {
            let l = self.level[(q >> 1) as usize] as usize;
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                lbd += 1;
            }
        }
        (back, lbd)
    }

    /// Bumps, once each, the variables in the reasons of the learnt clause's literals below
    /// the conflict level (one step back from the clause, as CaDiCaL does): variables close
    /// to the conflict that the analysis did not reach. On nine of Frisch's 25×25 puzzles it
    /// cut the conflicts from 389,746 to 299,181 (fewer on every one).
    fn bump_reasons(&mut self) {
        self.stamp += 1;
        for k in 1..self.learnt.len() {
            let x = (self.learnt[k] >> 1) as usize;
            for i in 0..self.reason_len(x) {
                let Some(r) = self.reason_lit(x, i) else {
                    continue;
                };
                let z = (r >> 1) as usize;
                if self.level[z] > 0 && self.bumped[z] != self.stamp {
                    self.bumped[z] = self.stamp;
                    self.bump_var(z);
                }
            }
        }
    }

    /// Shrinking: the literals of one decision level below the conflict's are replaced by
    /// the single literal that dominates them on that level (the level's own UIP), where
    /// the reasons between them bring in no literal of another level the clause lacks.
    fn shrink(&mut self) {
        if self.learnt.len() <= 2 {
            return;
        }
        let mut rest: Vec<u32> = self.learnt[1..].to_vec();
        rest.sort_unstable_by_key(|&q| std::cmp::Reverse(self.level[(q >> 1) as usize]));
        for &q in &rest {
            self.seen[(q >> 1) as usize] = true;
        }
        let levels = rest
            .iter()
            .fold(0u32, |a, &q| a | 1 << (self.level[(q >> 1) as usize] & 31));
        self.clear.clear();
        let mut out: Vec<u32> = Vec::with_capacity(rest.len());
        let mut touched: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let level = self.level[(rest[i] >> 1) as usize];
            let mut j = i + 1;
            while j < rest.len() && self.level[(rest[j] >> 1) as usize] == level {
                j += 1;
            }
            if j - i < 2 {
                out.push(rest[i]);
                i = j;
                continue;
            }
            let start = self.trail_lim[level as usize - 1];
            let end = self.trail_lim[level as usize];
            let mut open = j - i;
            let mut uip = None;
            touched.clear();
            for &q in &rest[i..j] {
                self.pending[(q >> 1) as usize] = true;
                touched.push(q >> 1);
            }
            let mut at = end;
            'walk: while at > start {
                at -= 1;
                let lit = self.trail[at];
                let x = (lit >> 1) as usize;
                if !self.pending[x] {
                    continue;
                }
                if open == 1 {
                    uip = Some(lit);
                    break;
                }
                if matches!(self.reason[x], Reason::Decision) {
                    break;
                }
                open -= 1;
                self.reason_lits(x);
                for k in 0..self.scratch.len() {
                    let z = (self.scratch[k] >> 1) as usize;
                    let l = self.level[z];
                    if l == 0 || (l != level && self.seen[z]) {
                        continue;
                    }
                    if l != level {
                        // (`implied` leaves `scratch` alone and marks `z` when it succeeds.)
                        let q = self.scratch[k];
                        let ok =
                            !matches!(self.reason[z], Reason::Decision) && self.implied(q, levels);
                        if !ok {
                            break 'walk;
                        }
                        continue;
                    }
                    if !self.pending[z] {
                        self.pending[z] = true;
                        touched.push(z as u32);
                        open += 1;
                    }
                }
            }
            for &z in &touched {
                self.pending[z as usize] = false;
            }
            match uip {
                Some(lit) => out.push(lit ^ 1),
                None => out.extend_from_slice(&rest[i..j]),
            }
            i = j;
        }
        for &q in &rest {
            self.seen[(q >> 1) as usize] = false;
        }
        for &q in &self.clear {
            self.seen[(q >> 1) as usize] = false;
        }
        self.learnt.truncate(1);
        self.learnt.extend_from_slice(&out);
    }

    /// The number of false literals in the reason of `x` (the implied literal included for
    /// a group, where [`Self::reason_lit`] skips it).
    #[inline(always)]
    fn reason_len(&self, x: usize) -> usize {
        match self.reason[x] {
            Reason::Decision => 0,
            Reason::Beside(_) => 1,
            Reason::Last(_) => Self::SIDE,
            Reason::Clause(c) => self.arena[c as usize] as usize - 1,
        }
    }

    /// Literal `i` of the reason of `x` (as [`Self::reason_lits`] lists them), or `None`
    /// for the place of `x` itself in its group.
    #[inline(always)]
    fn reason_lit(&self, x: usize, i: usize) -> Option<u32> {
        match self.reason[x] {
            Reason::Decision => None,
            Reason::Beside(y) => Some(y << 1 | 1),
            Reason::Last(g) => {
                let y = self.member(g as usize, i);
                (y != x).then_some((y as u32) << 1)
            }
            Reason::Clause(c) => Some(self.arena[c as usize + HEADER + 1 + i]),
        }
    }

    /// Whether the false literal `q` follows from literals marked `seen` (and facts) through
    /// reasons alone; `levels`: the clause's decision levels as bits, to give up early on a
    /// reason reaching a level the clause does not have. Literals found implied stay marked
    /// `seen` (listed in `clear`); literals found not implied are marked `poison` (listed in
    /// `poisoned`) until the analysis ends, so no search goes down either again.
    fn implied(&mut self, q: u32, levels: u32) -> bool {
        let mut stack = std::mem::take(&mut self.frames);
        stack.clear();
        stack.push(((q >> 1), 0));
        let mut ok = true;
        while let Some(top) = stack.last_mut() {
            let (y, i) = (top.0 as usize, top.1 as usize);
            if i == self.reason_len(y) {
                stack.pop();
                if !self.seen[y] {
                    self.seen[y] = true;
                    self.clear.push(self.trail_lit(y));
                }
                continue;
            }
            top.1 += 1;
            let Some(r) = self.reason_lit(y, i) else {
                continue;
            };
            let z = (r >> 1) as usize;
            if self.seen[z] || self.level[z] == 0 {
                continue;
            }
            let decided = matches!(self.reason[z], Reason::Decision);
            if self.poison[z] || decided || levels & 1 << (self.level[z] & 31) == 0 {
                for &(w, _) in &stack {
                    if !self.poison[w as usize] {
                        self.poison[w as usize] = true;
                        self.poisoned.push(w);
                    }
                }
                ok = false;
                break;
            }
            stack.push((z as u32, 0));
        }
        self.frames = stack;
        ok
    }

    /// The false literal of the assigned variable `x` (as a clause would hold it).
    #[inline(always)]
    fn trail_lit(&self, x: usize) -> u32 {
        (x as u32) << 1 | u32::from(self.value[x] == 1)
    }

    /// Adds `lits` (at least two, the first two watched) as a clause; its offset.
    fn add_clause(&mut self, lits: &[u32], lbd: u32) -> u32 {
        let at = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena.push(lbd);
        self.arena.extend_from_slice(lits);
        self.watch(at);
        self.learnts += 1;
        at
    }

    /// Watches the first two literals of the clause at `at`.
    fn watch(&mut self, at: u32) {
        let lits = at as usize + HEADER;
        let (a, b) = (self.arena[lits], self.arena[lits + 1]);
        self.watches[a as usize].push(Watch {
            clause: at,
            blocker: b,
        });
        self.watches[b as usize].push(Watch {
            clause: at,
            blocker: a,
        });
    }

    /// Halves the learnt clauses of LBD above 2 that are no reason now, worst LBD first, and
    /// compacts the arena (reasons follow their clauses; watches are rebuilt).
    fn reduce(&mut self) {
        let mut candidates: Vec<(u32, u32, u32)> = Vec::new();
        let mut at = 0;
        while at < self.arena.len() {
            let (len, lbd) = (self.arena[at], self.arena[at + 1]);
            let first = self.arena[at + HEADER];
            let x = (first >> 1) as usize;
            let locked = self.lit_value(first) == 1
                && matches!(self.reason[x], Reason::Clause(r) if r as usize == at);
            if lbd > 2 && !locked {
                candidates.push((lbd, len, at as u32));
            }
            at += HEADER + len as usize;
        }
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, _, at) in &candidates[..candidates.len() / 2] {
            self.arena[at as usize + 1] |= DELETED;
            self.learnts -= 1;
        }
        // Compact: each kept clause's old LBD slot holds its new offset meanwhile.
        let mut kept = Vec::with_capacity(self.arena.len());
        let mut at = 0;
        while at < self.arena.len() {
            let (len, lbd) = (self.arena[at] as usize, self.arena[at + 1]);
            if lbd & DELETED == 0 {
                let to = kept.len() as u32;
                kept.extend_from_slice(&self.arena[at..at + HEADER + len]);
                self.arena[at + 1] = to;
            }
            at += HEADER + len;
        }
        for &lit in &self.trail {
            let x = (lit >> 1) as usize;
            if let Reason::Clause(r) = self.reason[x] {
                self.reason[x] = Reason::Clause(self.arena[r as usize + 1]);
            }
        }
        self.arena = kept;
        for ws in &mut self.watches {
            ws.clear();
        }
        let mut at = 0;
        while at < self.arena.len() {
            self.watch(at as u32);
            at += HEADER + self.arena[at] as usize;
        }
    }

    /// Clears every assignment and clause and loads the candidates (bit `v` of `masks[cell]`:
    /// symbol `v` still possible there) as facts; false if they contradict at once.
    fn load(&mut self, masks: &[u64]) -> bool {
        self.value.fill(0);
        self.trail.clear();
        self.trail_lim.clear();
        self.head = 0;
        self.arena.clear();
        self.learnts = 0;
        for ws in &mut self.watches {
            ws.clear();
        }
        self.activity.fill(0.0);
        self.bump = 1.0;
        self.phase.fill(false);
        self.open.fill(u64::MAX >> (64 - Self::SIDE));
        self.heap.clear();
        for x in 0..self.value.len() {
            self.heap.insert(x, &self.activity);
        }
        for (cell, &m) in masks.iter().enumerate() {
            for v in 0..Self::SIDE {
                if m >> v & 1 == 0 {
                    self.assign(((cell * Self::SIDE + v) as u32) << 1 | 1, Reason::Decision);
                }
            }
        }
        self.propagate().is_none()
    }

    /// Rules out the solution on the trail (every variable assigned): true if another may
    /// exist. Jumps back to level 0.
    fn block(&mut self, solution: &[u32]) -> bool {
        self.cancel_until(0);
        let lits: Vec<u32> = solution
            .iter()
            .map(|&x| x << 1 | 1)
            .filter(|&l| self.lit_value(l) != -1)
            .collect();
        if lits.iter().any(|&l| self.lit_value(l) == 1) {
            return true;
        }
        match lits.len() {
            0 => false,
            1 => {
                self.assign(lits[0], Reason::Decision);
                self.propagate().is_none()
            }
            _ => {
                self.add_clause(&lits, 0);
                true
            }
        }
    }

    /// The true variable of each cell.
    fn solution(&self) -> Vec<u32> {
        (0..Self::CELLS)
            .map(|cell| {
                let base = cell * Self::SIDE;
                (base..base + Self::SIDE)
                    .find(|&x| self.value[x] == 1)
                    .unwrap_or(base) as u32
            })
            .collect()
    }

    fn grid_of(&self, solution: &[u32]) -> OrderGrid {
        let values = solution
            .iter()
            .map(|&x| (x as usize % Self::SIDE) as u8 + 1)
            .collect();
        OrderGrid::from_values(Order::new(N).expect("wide: order in 2..=8"), values)
            .expect("wide: solved cells are in range")
    }

    /// Looks for up to `limit` solutions of a candidate position (`masks`: one per cell,
    /// bit `v` for symbol `v + 1`), counting `known` ones (solutions of it found before)
    /// without finding them again, within `max_nodes` decisions.
    pub fn solve(
        &mut self,
        masks: &[u64],
        known: &[OrderGrid],
        limit: u32,
        max_nodes: u64,
    ) -> Found {
        let mut found = Found::default();
        if masks.len() != Self::CELLS || !self.load(masks) {
            found.exhausted = true;
            return found;
        }
        for grid in known {
            let solution: Vec<u32> = grid
                .cells()
                .iter()
                .enumerate()
                .map(|(cell, &v)| (cell * Self::SIDE + v as usize - 1) as u32)
                .collect();
            found.push(|| grid.clone());
            if found.count >= limit {
                return found;
            }
            if !self.block(&solution) {
                found.exhausted = true;
                return found;
            }
        }
        let (mut conflicts, mut restarts, mut since_restart) = (0u64, 1u64, 0u64);
        let (mut next_reduce, mut reductions) = (REDUCE_FIRST, 0u64);
        loop {
            if let Some(conflict) = self.propagate() {
                conflicts += 1;
                since_restart += 1;
                if self.level_now() == 0 {
                    found.exhausted = true;
                    return found;
                }
                let (back, lbd) = self.analyze(conflict);
                self.cancel_until(back);
                let learnt = std::mem::take(&mut self.learnt);
                if learnt.len() == 1 {
                    self.assign(learnt[0], Reason::Decision);
                    self.learnt = learnt;
                } else {
                    let ci = self.add_clause(&learnt, lbd);
                    self.assign(learnt[0], Reason::Clause(ci));
                    self.learnt = learnt;
                }
                self.bump *= 1.0 / DECAY;
                continue;
            }
            if since_restart >= RESTART_UNIT * luby(restarts) {
                since_restart = 0;
                restarts += 1;
                self.cancel_until(0);
            }
            if conflicts >= next_reduce {
                reductions += 1;
                next_reduce = conflicts + REDUCE_FIRST + REDUCE_STEP * reductions;
                self.reduce();
            }
            let Some(x) = self.next_open() else {
                let solution = self.solution();
                found.push(|| self.grid_of(&solution));
                if found.count >= limit {
                    return found;
                }
                if !self.block(&solution) {
                    found.exhausted = true;
                    return found;
                }
                continue;
            };
            if found.guesses >= max_nodes || crate::deadline::due(found.guesses + 1) {
                found.stopped = true;
                return found;
            }
            found.guesses += 1;
            self.trail_lim.push(self.trail.len());
            let lit = (x as u32) << 1 | u32::from(!self.phase[x]);
            self.assign(lit, Reason::Decision);
        }
    }

    /// The most active open variable.
    fn next_open(&mut self) -> Option<usize> {
        while let Some(x) = self.heap.pop(&self.activity) {
            if self.value[x] == 0 {
                return Some(x);
            }
        }
        None
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … (from `i` = 1).
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A binary max-heap of variables by activity, with each variable's position.
struct Heap {
    items: Vec<u32>,
    at: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Heap {
    fn new(vars: usize) -> Heap {
        Heap {
            items: Vec::with_capacity(vars),
            at: vec![ABSENT; vars],
        }
    }

    fn clear(&mut self) {
        self.items.clear();
        self.at.fill(ABSENT);
    }

    fn insert(&mut self, x: usize, activity: &[f64]) {
        if self.at[x] != ABSENT {
            return;
        }
        self.at[x] = self.items.len() as u32;
        self.items.push(x as u32);
        self.up(self.items.len() - 1, activity);
    }

    fn raise(&mut self, x: usize, activity: &[f64]) {
        if self.at[x] != ABSENT {
            self.up(self.at[x] as usize, activity);
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("heap has an item");
        self.at[top as usize] = ABSENT;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.at[last as usize] = 0;
            self.down(0, activity);
        }
        Some(top as usize)
    }

    fn up(&mut self, mut i: usize, activity: &[f64]) {
        let x = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if activity[p as usize] >= activity[x as usize] {
                break;
            }
            self.items[i] = p;
            self.at[p as usize] = i as u32;
            i = parent;
        }
        self.items[i] = x;
        self.at[x as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, activity: &[f64]) {
        let x = self.items[i];
        let n = self.items.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n
                && activity[self.items[right] as usize] > activity[self.items[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.items[child];
            if activity[c as usize] <= activity[x as usize] {
                break;
            }
            self.items[i] = c;
            self.at[c as usize] = i as u32;
            i = child;
        }
        self.items[i] = x;
        self.at[x as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masks_of(line: &str) -> Vec<u64> {
        line.bytes()
            .map(|b| match b {
                b'1'..=b'9' => 1u64 << (b - b'1'),
                _ => 0x1ff,
            })
            .collect()
    }

    #[test]
    fn counts_the_empty_4x4_grid() {
        let mut learner = Learner::<2>::new();
        let found = learner.solve(&[0b1111u64; 16], &[], 1000, u64::MAX);
        assert_eq!((found.count, found.exhausted), (288, true));
    }

    #[test]
    fn counts_what_is_known_once_and_honours_the_budget() {
        // A hard 9x9 with one solution.
        let line =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let mut learner = Learner::<3>::new();
        let found = learner.solve(&masks_of(line), &[], 2, u64::MAX);
        assert_eq!((found.count, found.exhausted), (1, true));
        let solution = found.first.clone().unwrap();
        assert!(solution.is_full());
        for (cell, b) in line.bytes().enumerate() {
            if b != b'.' {
                assert_eq!(solution.get(cell), b - b'0');
            }
        }
        // Told of that solution, it counts it and proves there is no other.
        let again = learner.solve(
            &masks_of(line),
            std::slice::from_ref(&solution),
            2,
            u64::MAX,
        );
        assert_eq!((again.count, again.exhausted), (1, true));
        assert_eq!(again.first, Some(solution));
        // Two clues fewer: several solutions, two of them different.
        let fewer = line.replacen('8', ".", 1).replacen('3', ".", 1);
        let two = learner.solve(&masks_of(&fewer), &[], 2, u64::MAX);
        assert_eq!(two.count, 2);
        assert_ne!(two.first, two.second);
        // No decision allowed: stopped, no answer.
        let none = learner.solve(&masks_of(&fewer), &[], 2, 0);
        assert!(none.stopped && !none.exhausted);
        // Contradictory clues: none.
        let clash = format!("88{}", &line[2..]);
        let zero = learner.solve(&masks_of(&clash), &[], 2, u64::MAX);
        assert_eq!((zero.count, zero.exhausted), (0, true));
    }

    /// Counts that learning, minimisation and shrinking must reproduce exactly, from the
    /// oracle backtracker.
    #[test]
    fn counts_positions_of_many_solutions_exactly() {
        use crate::grid::Grid;
        use crate::solver::basic::Basic;
        use crate::solver::{Count, Limit, Options, Solver};
        const ORACLE_LIMIT: Limit = match Limit::new(10_000) {
            Some(limit) => limit,
            None => unreachable!(),
        };
        let hard =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let mut learner = Learner::<3>::new();
        for drop in [8, 17, 18] {
            // Without its `drop`-th clue the puzzle has hundreds of solutions (434, 630, 85).
            let mut seen = 0;
            let line: String = hard
                .chars()
                .map(|ch| {
                    if ch == '.' {
                        return ch;
                    }
                    seen += 1;
                    if seen == drop {
                        '.'
                    } else {
                        ch
                    }
                })
                .collect();
            // The oracle's count, well below its limit: exact.
            let grid: Grid = line.parse().unwrap();
            let oracle = Basic::new(&Options::default()).solve(&grid.into(), ORACLE_LIMIT);
            let Count::Exactly(want) = oracle.count() else {
                panic!("{line}: the oracle did not count exactly");
            };
            assert!(want > 1, "{line}");
            let found = learner.solve(&masks_of(&line), &[], u32::MAX, u64::MAX);
            assert_eq!((found.count, found.exhausted), (want, true), "{line}");
        }
    }
}
