//! The search of the `wide` backend for one order: candidate masks per cell, propagation to a
//! fixpoint (naked singles through a queue, hidden singles from the places of each symbol per
//! house, kept as bit masks, locked candidates per box-line intersection), probing of
//! two-candidate cells, all-different in full per house when probing is done, then branching
//! with the state copied per level.
//!
//! Everything the search touches is allocated when the engine is built for its order and
//! reused for every puzzle: the candidate array, one snapshot per depth (grown on first use
//! and kept), the queue and the intersection masks. A branch costs one copy of the candidate
//! array (n⁴ masks and the decided symbols of the 3n² houses) and of the places.

use super::mask::Mask;
use crate::order::found::Found;
use crate::order::{Geometry, Order, OrderGrid};

/// One branching level: the cell, the candidates still to try as placements, the unsolved
/// count before, and for a symbol with two places in a house, `exclude`: the last branch
/// removes the tried symbol from the cell instead (the house's other place then follows by
/// hidden singles).
#[derive(Clone, Copy)]
struct Level<M> {
    cell: u16,
    rest: M,
    unsolved: u32,
    exclude: M,
}

/// Probes that change nothing after which probing stops until the next branch, by order:
/// more probes find a little more and cost more than the branches they save. Callgrind
/// counts on generated puzzles (of 12 to 45): 16 took the fewest instructions on 16×16 and
/// 25×25 (7–9% fewer than 30 over 300 16×16 and 100 25×25 puzzles), 30 on 36×36 (16 took
/// 19% more there).
const fn probe_quiet(n: usize) -> usize {
    if n <= 5 {
        16
    } else {
        30
    }
}

/// Which inferences run between branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Hidden singles (a symbol with one place in a house).
    pub hidden: bool,
    /// Locked candidates (pointing and claiming on box-line intersections).
    pub locked: bool,
    /// Branch on a symbol with two places in a house when no cell has two candidates.
    pub pairs: bool,
    /// Among two-candidate cells, branch on the one whose symbols have the most open peers.
    pub degree: bool,
    /// Before branching, try both symbols of two-candidate cells (singles only, no locked
    /// candidates, inside a probe): a symbol whose propagation fails is removed, and what
    /// both propagations remove is removed too (every solution takes one of the two). This
    /// makes the search tree 24–80 times smaller on generated 16×16 to 36×36 puzzles.
    pub probe: bool,
    /// When probing finds nothing more, all-different on every house in full: a candidate
    /// that no assignment of the house's open symbols to its open cells uses is removed
    /// (every naked or hidden subset, of any size), found by a matching and the strongly
    /// connected components of its alternating graph; then propagation and probing again.
    /// Run after probing rather than before, it took 8 %, 2 % and 34 % of the instructions
    /// off on generated 16×16, 25×25 and 36×36 puzzles (before probing: +9 %, +11 %, −27 %).
    pub hall: bool,
    /// After [`LEARN_AFTER`] branches, go on from the first fixpoint with clause learning
    /// ([`super::learn`]): branching alone meets the same dead ends again and again on
    /// Frisch's minimal 25×25 puzzles (5 of 18 within 10 s without it, 9 with it).
    pub learn: bool,
    /// Branch on the two-candidate cell whose two probes decided most cells between them
    /// (the product of the two counts, each plus one), among the cells probed since the
    /// position last changed; the other rules choose when there are none.
    pub lookahead: bool,
}

/// Branches after which a search with [`Rules::learn`] hands over to clause learning. Above
/// every bundled generated puzzle (7–38 branches on average per set, 446 at most: a 16×16;
/// the 48,766 forum-hardest 9×9 puzzles 158 at most) so that they never reach it, and
/// low enough that a puzzle that needs learning loses about 40 ms on a 25×25 before it gets
/// it (at 3,000 branches it lost about 250 ms; Frisch's minimal 25×25 puzzles all need it).
pub const LEARN_AFTER: u64 = 500;

impl Rules {
    /// Every rule but probing: the search the generator and the grader were built on (their
    /// puzzles and guess counts stay what they were).
    pub const WITHOUT_PROBING: Rules = Rules {
        hidden: true,
        locked: true,
        pairs: true,
        degree: true,
        probe: false,
        hall: false,
        learn: false,
        lookahead: false,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            hidden: true,
            locked: true,
            pairs: true,
            degree: true,
            probe: true,
            hall: true,
            learn: true,
            lookahead: true,
        }
    }
}

/// The search state of one order `N` with masks `M`.
pub struct Search<M: Mask, const N: usize> {
    geometry: &'static Geometry,
    full: M,
    /// The candidates of each cell, then per house the symbols decided in it (held alone by
    /// one of its cells): one array, so that a snapshot saves both.
    cand: Vec<M>,
    unsolved: u32,
    queue: Vec<u16>,
    snapshots: Vec<Vec<M>>,
    levels: Vec<Level<M>>,
    /// Row segments: `side × n` (row, box column) unions; then column segments.
    rows: Vec<M>,
    cols: Vec<M>,
    rules: Rules,
    rng: u64,
    /// Branching decisions a search may take before it gives up (`u64::MAX`: no budget).
    max_nodes: u64,
    /// Bands of rows (bit b: rows b·n … b·n + n − 1) and stacks of columns with a cell whose
    /// candidates changed since their last locked-candidates check.
    dirty_bands: [u8; 2],
    /// Per cell, the band and stack [`Search::touch`] marks.
    touches: Vec<[u8; 2]>,
    /// Probing: the position probed, and the fixpoint of its first branch.
    probe_base: Vec<M>,
    probe_first: Vec<M>,
    /// Where the next probing starts, the probes of this search, and whether probing met
    /// the thread's deadline.
    probe_next: usize,
    probes: u64,
    out_of_time: bool,
    /// The two-candidate cells probed since the position last changed, with their scores
    /// (see [`Rules::lookahead`]), and the score of the last probe.
    quiet: Vec<(u16, u32)>,
    probe_score: u32,
    /// The three houses of each cell.
    houses_of: Vec<[u16; 3]>,
    /// Per cell, its place in each of its three houses (bit `k`: the house's `k`-th cell).
    place_bits: Vec<[M; 3]>,
    /// Per house and symbol (`house * S + symbol`), the places of the house (bit `k` for its
    /// `k`-th cell) whose cell holds it: a placement finds the peers it takes the symbol
    /// from without scanning the house, and a lone place is a hidden single.
    places: Vec<M>,
    /// `places` at each branching level.
    place_snapshots: Vec<Vec<M>>,
    /// How a probe gets the probed position's places back: up to 25×25 from a copy (see
    /// [`Search::LOG_PLACES`]), from 36×36 on by undoing the changes it logged (where, and
    /// the mask before) while `logging`.
    probe_base_places: Vec<M>,
    probe_first_places: Vec<M>,
    places_log: Vec<(u16, M)>,
    logging: bool,
    /// House and symbol (`house * S + symbol`) pairs whose places fell to one or none since
    /// the last hidden-singles pass.
    lonely: Vec<u16>,
    /// Scratch of the all-different pass (see [`Search::hall`]).
    hall: Hall,
    /// The clause-learning search a long search hands over to, built on first use.
    learner: Option<Box<super::learn::Learner<N>>>,
    /// The position after the first propagation (the learner starts from it).
    root: Vec<M>,
}

/// Scratch of one house's all-different check: its open cells (local index → cell), their
/// candidates, the matching both ways, and the alternating graph.
struct Hall {
    cells: Vec<u16>,
    masks: Vec<u64>,
    mate: Vec<u8>,
    owner: Vec<u8>,
    adj: Vec<u64>,
    radj: Vec<u64>,
    /// Candidates to remove: cell and symbols.
    cuts: Vec<(u16, u64)>,
    /// The symbols no cell is matched to.
    free: u64,
}

impl Hall {
    fn new(side: usize) -> Hall {
        Hall {
            cells: Vec::with_capacity(side),
            masks: vec![0; side],
            mate: vec![0; side],
            owner: vec![0; side],
            adj: vec![0; side],
            radj: vec![0; side],
            cuts: Vec::with_capacity(side),
            free: 0,
        }
    }

    /// Matches cell `i` to a symbol not in `seen`, moving other cells along an alternating
    /// path if need be.
    fn augment(&mut self, i: usize, seen: &mut u64) -> bool {
        let mut rest = self.masks[i] & !*seen;
        // A free symbol ends the path at once, before any matched one is followed.
        let free = rest & self.free;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            self.free &= !(1 << v);
            self.owner[v] = i as u8;
            self.mate[i] = v as u8;
            return true;
        }
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            *seen |= 1 << v;
            let j = self.owner[v];
            if self.augment(j as usize, seen) {
                self.owner[v] = i as u8;
                self.mate[i] = v as u8;
                return true;
            }
        }
        false
    }

    /// The nodes reachable from `from` over `adj` within `within`.
    fn reach(adj: &[u64], from: usize, within: u64) -> u64 {
        let mut reached = 1u64 << from;
        let mut frontier = reached;
        while frontier != 0 {
            let x = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = adj[x] & within & !reached;
            reached |= new;
            frontier |= new;
        }
        reached
    }
}

impl<M: Mask, const N: usize> Search<M, N> {
    const S: usize = N * N;
    const C: usize = N * N * N * N;
    /// Cells, then houses (see `cand`).
    const STATE: usize = Self::C + 3 * N * N;
    /// Whether a probe logs its changes to `places` and undoes them, rather than copying
    /// them all: from 36×36 on, where they are 64-bit masks (31 KiB on 36×36, copied three
    /// times a probe). `bench --backends wide`, AMD EPYC, µs per puzzle: 36×36 unique 3,174
    /// and 3,187 copying, 2,418 and 2,422 logging; 16×16 minimal 901 and 905 copying, 1,112
    /// and 1,029 logging (the log's cost in every lost candidate outweighs a 1.5 KiB copy);
    /// 25×25 level.
    const LOG_PLACES: bool = N >= 6;

    /// The engine for order `N` (2…8; `M` must have at least N² bits).
    pub fn new(rules: Rules) -> Search<M, N> {
        let order = Order::new(N).expect("wide: order in 2..=8");
        Search {
            geometry: order.geometry(),
            full: M::full(Self::S),
            cand: vec![M::ZERO; Self::STATE],
            unsolved: 0,
            queue: Vec::with_capacity(Self::C),
            snapshots: Vec::new(),
            levels: Vec::new(),
            rows: vec![M::ZERO; Self::S * N],
            cols: vec![M::ZERO; Self::S * N],
            rules,
            rng: 0,
            max_nodes: u64::MAX,
            dirty_bands: [0; 2],
            touches: (0..Self::C)
                .map(|cell| [1 << (cell / Self::S / N), 1 << (cell % Self::S / N)])
                .collect(),
            place_bits: (0..Self::C)
                .map(|cell| {
                    let geometry = order.geometry();
                    geometry.houses_of(cell).map(|h| {
                        let k = geometry
                            .house(h as usize)
                            .iter()
                            .position(|&c| c as usize == cell);
                        M::bit(k.expect("a cell is in its houses") as u32)
                    })
                })
                .collect(),
            places: vec![M::ZERO; 3 * Self::S * Self::S],
            place_snapshots: Vec::new(),
            probe_base_places: vec![M::ZERO; 3 * Self::S * Self::S],
            probe_first_places: vec![M::ZERO; 3 * Self::S * Self::S],
            places_log: Vec::new(),
            logging: false,
            lonely: Vec::new(),
            hall: Hall::new(Self::S),
            learner: None,
            root: vec![M::ZERO; Self::C],
            probe_base: vec![M::ZERO; Self::STATE],
            probe_first: vec![M::ZERO; Self::STATE],
            houses_of: (0..Self::C)
                .map(|cell| {
                    let mut hs = [0u16; 3];
                    for (k, h) in order.geometry().houses_of(cell).into_iter().enumerate() {
                        hs[k] = h;
                    }
                    hs
                })
                .collect(),
            probe_next: 0,
            probes: 0,
            out_of_time: false,
            quiet: Vec::new(),
            probe_score: 0,
        }
    }

    /// Marks the band and stack of `cell` for the next locked-candidates check.
    #[inline(always)]
    fn touch(&mut self, cell: usize) {
        let t = self.touches[cell];
        self.dirty_bands[0] |= t[0];
        self.dirty_bands[1] |= t[1];
    }

    /// Forgets every change: the position is a fixpoint (a snapshot of one).
    #[inline(always)]
    fn clean(&mut self) {
        self.dirty_bands = [0; 2];
        self.lonely.clear();
    }

    /// Takes `cell` out of the places of symbol `v` in its houses (the cell lost it), noting
    /// the house and symbol pairs left with one place or none.
    #[inline(always)]
    fn lose_one(&mut self, cell: usize, v: usize) {
        let bits = self.place_bits[cell];
        for (k, h) in self.houses_of[cell].into_iter().enumerate() {
            let at = h as usize * Self::S + v;
            debug_assert!(at < self.places.len());
            // SAFETY: `h` is one of the 3·S houses and `v` one of the S symbols: callers pass
            // the index of a bit of a candidate mask, and candidate masks hold bits below S
            // only (`load` takes values 1…S, `solve_masks` only bits below S, and every later
            // change clears bits or joins masks of the same position). `places` has S entries
            // per house.
            let place = unsafe { self.places.get_unchecked_mut(at) };
            let was = *place;
            let left = was & !bits[k];
            *place = left;
            if Self::LOG_PLACES && self.logging {
                self.places_log.push((at as u16, was));
            }
            if left.clear_low() == M::ZERO {
                self.lonely.push(at as u16);
            }
        }
    }

    /// [`Search::lose_one`] for every symbol of `bits`.
    #[inline(always)]
    fn lose(&mut self, cell: usize, bits: M) {
        let mut rest = bits;
        while rest != M::ZERO {
            self.lose_one(cell, rest.low() as usize);
            rest = rest.clear_low();
        }
    }

    /// Finds every house's places from the cells, noting the pairs with one place or none.
    fn recount(&mut self) {
        self.places.fill(M::ZERO);
        self.lonely.clear();
        for cell in 0..Self::C {
            let (houses, bits) = (self.houses_of[cell], self.place_bits[cell]);
            let mut rest = self.cand[cell];
            while rest != M::ZERO {
                let v = rest.low() as usize;
                rest = rest.clear_low();
                for k in 0..3 {
                    self.places[houses[k] as usize * Self::S + v] |= bits[k];
                }
            }
        }
        for at in 0..self.places.len() {
            if self.places[at].clear_low() == M::ZERO {
                self.lonely.push(at as u16);
            }
        }
    }

    /// Marks every band and stack (a new position).
    fn touch_all(&mut self) {
        self.dirty_bands = [((1u16 << N) - 1) as u8; 2];
    }

    /// Gives every later search a budget of `max_nodes` branching decisions (`None`: none).
    /// The thread's deadline ([`crate::solver::deadline`]) stops a search too.
    pub fn set_max_nodes(&mut self, max_nodes: Option<u64>) {
        self.max_nodes = max_nodes.unwrap_or(u64::MAX);
    }

    /// Makes branching try candidates in an order drawn from `seed` (0: lowest first).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = seed;
    }

    /// Records that `cell` holds `bit` alone: the symbol is decided in its three houses.
    #[inline(always)]
    fn decided(&mut self, cell: usize, bit: M) {
        for h in self.houses_of[cell] {
            self.cand[Self::C + h as usize] |= bit;
        }
    }

    /// Sets the cell to one symbol (it had several) and queues it.
    #[inline(always)]
    fn place(&mut self, cell: usize, bit: M) {
        let others = self.cand[cell] & !bit;
        self.lose(cell, others);
        self.cand[cell] = bit;
        self.decided(cell, bit);
        self.unsolved -= 1;
        self.queue.push(cell as u16);
        self.touch(cell);
    }

    /// Removes each queued cell's symbol from its peers, queueing the cells left with one.
    /// False on a contradiction (a cell without candidates).
    #[inline]
    fn drain(&mut self) -> bool {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            let b = self.cand[cell];
            let v = b.low() as usize;
            let (houses, bits) = (self.houses_of[cell], self.place_bits[cell]);
            for k in 0..3 {
                let h = houses[k] as usize;
                // The symbol's other places in the house; a peer met in an earlier house
                // has left them already.
                let mut others = self.places[h * Self::S + v] & !bits[k];
                let house = self.geometry.house(h);
                while others != M::ZERO {
                    debug_assert!((others.low() as usize) < house.len());
                    // SAFETY: the bits of a place mask are positions in the house, below S,
                    // the length of `house`.
                    let p = unsafe { *house.get_unchecked(others.low() as usize) } as usize;
                    others = others.clear_low();
                    let m = self.cand[p] & !b;
                    self.cand[p] = m;
                    self.touch(p);
                    self.lose_one(p, v);
                    if m == M::ZERO {
                        self.queue.clear();
                        return false;
                    }
                    if m.is_single() {
                        self.unsolved -= 1;
                        self.decided(p, m);
                        self.queue.push(p as u16);
                    }
                }
            }
        }
        true
    }

    /// Hidden singles: every house and symbol pair noted with one place or none since the
    /// last pass. `Some(changed)`, or `None` on a contradiction (a symbol with no place in a
    /// house).
    fn hidden(&mut self) -> Option<bool> {
        let mut changed = false;
        while let Some(at) = self.lonely.pop() {
            let (h, v) = (at as usize / Self::S, at as usize % Self::S);
            let bit = M::bit(v as u32);
            if self.cand[Self::C + h] & bit != M::ZERO {
                // Decided in the house already: its one place holds it.
                continue;
            }
            let place = self.places[at as usize];
            if place == M::ZERO {
                self.lonely.clear();
                return None;
            }
            let c = self.geometry.house(h)[place.low() as usize];
            self.place(c as usize, bit);
            changed = true;
            if !self.drain() {
                self.lonely.clear();
                return None;
            }
        }
        Some(changed)
    }

    /// Removes `bits` from the n cells of a segment; `None` on a contradiction.
    #[inline]
    fn strip(&mut self, cells: impl Iterator<Item = usize>, bits: M) -> Option<bool> {
        let mut changed = false;
        for c in cells {
            let m = self.cand[c];
            if m & bits != M::ZERO {
                self.lose(c, m & bits);
                let m = m & !bits;
                self.cand[c] = m;
                self.touch(c);
                changed = true;
                if m == M::ZERO {
                    return None;
                }
                if m.is_single() {
                    self.unsolved -= 1;
                    self.decided(c, self.cand[c]);
                    self.queue.push(c as u16);
                }
            }
        }
        Some(changed)
    }

    /// One pass of locked candidates on the box-line intersections of the bands (rows) and
    /// stacks (columns) with a changed cell since their last check, rows then columns: the
    /// others would find nothing new, their segments being the same.
    fn locked(&mut self) -> Option<bool> {
        let (n, s) = (N, Self::S);
        let mut changed = false;
        for columns in [false, true] {
            let bands = std::mem::take(&mut self.dirty_bands[usize::from(columns)]);
            if bands == 0 {
                continue;
            }
            for band in (0..n).filter(|&band| bands >> band & 1 == 1) {
                for line in band * n..band * n + n {
                    for b in 0..n {
                        let mut u = M::ZERO;
                        for k in 0..n {
                            u |= self.cand[cell_of(columns, line, b * n + k, s)];
                        }
                        if columns {
                            self.cols[line * n + b] = u;
                        } else {
                            self.rows[line * n + b] = u;
                        }
                    }
                }
            }
            for band in (0..n).filter(|&band| bands >> band & 1 == 1) {
                for line in band * n..band * n + n {
                    for b in 0..n {
                        let segs = if columns { &self.cols } else { &self.rows };
                        let seg = segs[line * n + b];
                        // The union of the box's other lines, and of the line's other boxes.
                        let (mut in_box, mut in_line) = (M::ZERO, M::ZERO);
                        for k in 0..n {
                            let other = band * n + k;
                            if other != line {
                                in_box |= segs[other * n + b];
                            }
                            if k != b {
                                in_line |= segs[line * n + k];
                            }
                        }
                        let pointing = seg & !in_box & in_line;
                        let claiming = seg & !in_line & in_box;
                        if pointing != M::ZERO {
                            for k in (0..n).filter(|&k| k != b) {
                                let cells = (0..n).map(|j| cell_of(columns, line, k * n + j, s));
                                changed |= self.strip(cells, pointing)?;
                            }
                        }
                        if claiming != M::ZERO {
                            for k in 0..n {
                                let other = band * n + k;
                                if other != line {
                                    let cells =
                                        (0..n).map(|j| cell_of(columns, other, b * n + j, s));
                                    changed |= self.strip(cells, claiming)?;
                                }
                            }
                        }
                    }
                }
            }
            if changed {
                // The other direction's segments are stale now: checked on the next pass.
                return Some(true);
            }
        }
        Some(changed)
    }

    /// All-different in full on every house of a fixpoint: `Some(changed)`, or `None` when
    /// a house's open symbols cannot all be placed.
    fn hall(&mut self) -> Option<bool> {
        let mut changed = false;
        for h in 0..3 * Self::S {
            if self.unsolved == 0 {
                break;
            }
            changed |= self.hall_house(h)?;
        }
        Some(changed)
    }

    /// All-different on house `h`: a perfect matching of its open cells to its open
    /// symbols, then the strongly connected components of the graph from each cell to the
    /// cells matched to its other candidates. A candidate outside its cell's component
    /// is in no perfect matching, so in no solution.
    fn hall_house(&mut self, h: usize) -> Option<bool> {
        let open = (self.full & !self.cand[Self::C + h]).to_u64();
        if open == 0 {
            return Some(false);
        }
        let hall = &mut self.hall;
        hall.cells.clear();
        for &c in self.geometry.house(h) {
            let m = self.cand[c as usize];
            if !m.is_single() {
                hall.masks[hall.cells.len()] = m.to_u64();
                hall.cells.push(c);
            }
        }
        let k = hall.cells.len();
        if k as u32 != open.count_ones() {
            return None;
        }
        hall.owner.fill(u8::MAX);
        hall.free = u64::MAX;
        for i in 0..k {
            let mut seen = 0;
            if !hall.augment(i, &mut seen) {
                return None;
            }
        }
        hall.radj[..k].fill(0);
        for i in 0..k {
            let mut rest = hall.masks[i] & !(1u64 << hall.mate[i]);
            let mut adj = 0u64;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let j = hall.owner[v] as usize;
                adj |= 1 << j;
                hall.radj[j] |= 1 << i;
            }
            hall.adj[i] = adj;
        }
        let all = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
        let mut remaining = all;
        hall.cuts.clear();
        while remaining != 0 {
            let u = remaining.trailing_zeros() as usize;
            let forward = Hall::reach(&hall.adj, u, remaining);
            let component = forward & Hall::reach(&hall.radj, u, remaining);
            remaining &= !component;
            if component == all {
                break;
            }
            let mut symbols = 0u64;
            let mut rest = component;
            while rest != 0 {
                symbols |= 1 << hall.mate[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            let mut rest = component;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let extra = hall.masks[i] & !symbols;
                if extra != 0 {
                    hall.cuts.push((hall.cells[i], extra));
                }
            }
        }
        let mut changed = false;
        for k in 0..self.hall.cuts.len() {
            let (cell, bits) = self.hall.cuts[k];
            changed |= self.strip(std::iter::once(cell as usize), M::from_u64(bits))?;
        }
        // Cells left with one symbol give it up to their peers before the next house.
        if !self.drain() {
            return None;
        }
        Some(changed)
    }

    /// Propagates to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        self.propagate_with(self.rules.locked)
    }

    fn propagate_with(&mut self, locked: bool) -> bool {
        loop {
            if !self.drain() {
                return false;
            }
            if self.unsolved == 0 {
                return true;
            }
            if self.rules.hidden {
                match self.hidden() {
                    None => return false,
                    Some(true) => continue,
                    Some(false) => {}
                }
            }
            if locked {
                match self.locked() {
                    None => {
                        self.queue.clear();
                        return false;
                    }
                    Some(true) => continue,
                    Some(false) => {}
                }
            }
            return true;
        }
    }

    /// Propagates, then probes two-candidate cells (see [`Rules::probe`]) and runs the
    /// all-different pass ([`Rules::hall`]) until neither changes anything; false on a
    /// contradiction. Probing walks the cells round from where the last probing of this
    /// search stopped, and stops after [`probe_quiet`] probes that changed nothing, when the
    /// grid is solved, or when the thread's deadline has passed (the search then stops too).
    fn settle(&mut self) -> bool {
        if !self.propagate() {
            return false;
        }
        loop {
            if self.rules.probe && !self.probe_round() {
                return false;
            }
            if !self.rules.hall || self.unsolved == 0 || self.out_of_time {
                return true;
            }
            match self.hall() {
                None => {
                    self.queue.clear();
                    return false;
                }
                Some(true) => {
                    if !self.propagate() {
                        return false;
                    }
                }
                Some(false) => return true,
            }
        }
    }

    /// Probes two-candidate cells of a fixpoint, from where the last probing stopped, until
    /// [`probe_quiet`] probes changed nothing; false on a contradiction.
    fn probe_round(&mut self) -> bool {
        // `visited`: cells looked at since the position last changed.
        let (mut cell, mut quiet, mut visited) = (self.probe_next, 0, 0);
        self.quiet.clear();
        while quiet < probe_quiet(N) && visited < Self::C && self.unsolved != 0 {
            if self.cand[cell].is_pair() {
                self.probes += 1;
                if crate::solver::deadline::due(self.probes) {
                    self.out_of_time = true;
                    break;
                }
                match self.probe(cell) {
                    None => return false,
                    Some(false) => {
                        quiet += 1;
                        self.quiet.push((cell as u16, self.probe_score));
                    }
                    Some(true) => {
                        self.quiet.clear();
                        if !self.propagate() {
                            return false;
                        }
                        visited = 0;
                    }
                }
            }
            visited += 1;
            cell += 1;
            if cell == Self::C {
                cell = 0;
            }
        }
        self.probe_next = cell;
        true
    }

    /// Restores the probed position (a fixpoint).
    fn restore(&mut self, unsolved: u32) {
        self.cand.copy_from_slice(&self.probe_base);
        if Self::LOG_PLACES {
            self.undo_places();
        } else {
            self.places.copy_from_slice(&self.probe_base_places);
        }
        self.unsolved = unsolved;
        self.queue.clear();
        self.clean();
    }

    /// Undoes the changes to `places` since the probe began.
    fn undo_places(&mut self) {
        while let Some((at, was)) = self.places_log.pop() {
            self.places[at as usize] = was;
        }
    }

    /// Probes the two-candidate `cell` of a fixpoint: `Some(true)` when candidates were
    /// removed (the position then needs propagating), `None` when neither of its symbols
    /// survives.
    fn probe(&mut self, cell: usize) -> Option<bool> {
        if !Self::LOG_PLACES {
            return self.probe_once(cell);
        }
        self.places_log.clear();
        self.logging = true;
        let result = self.probe_once(cell);
        self.logging = false;
        self.places_log.clear();
        result
    }

    /// [`Search::probe`] after the choice of how places are restored.
    fn probe_once(&mut self, cell: usize) -> Option<bool> {
        let unsolved = self.unsolved;
        let m = self.cand[cell];
        self.probe_base.copy_from_slice(&self.cand);
        if !Self::LOG_PLACES {
            self.probe_base_places.copy_from_slice(&self.places);
        }
        let a = M::bit(m.low());
        let b = m & !a;
        self.place(cell, a);
        let first = self.propagate_with(false);
        let decided_first = unsolved - self.unsolved;
        if first {
            self.probe_first.copy_from_slice(&self.cand);
            if !Self::LOG_PLACES {
                self.probe_first_places.copy_from_slice(&self.places);
            }
        }
        self.restore(unsolved);
        self.place(cell, b);
        let second = self.propagate_with(false);
        self.probe_score = (decided_first + 1) * (unsolved - self.unsolved + 1);
        match (first, second) {
            (false, false) => {
                self.restore(unsolved);
                return None;
            }
            // The surviving branch's fixpoint is the position now.
            (false, true) => return Some(true),
            (true, false) if Self::LOG_PLACES => {
                // The first branch's fixpoint is: propagating it again costs less than
                // logging a second time for this rare case.
                self.restore(unsolved);
                self.place(cell, a);
                let again = self.propagate_with(false);
                debug_assert!(again, "the first branch propagated without a contradiction");
                self.queue.clear();
                self.clean();
                return Some(true);
            }
            (true, false) => {
                self.cand.copy_from_slice(&self.probe_first);
                self.places.copy_from_slice(&self.probe_first_places);
                self.unsolved = self.cand[..Self::C]
                    .iter()
                    .filter(|m| !m.is_single())
                    .count() as u32;
                self.queue.clear();
                self.clean();
                return Some(true);
            }
            (true, true) => {
                let mut changed = false;
                let cells = self.cand[..Self::C].iter_mut();
                for ((u, &first), &was) in cells.zip(&self.probe_first).zip(&self.probe_base) {
                    *u |= first;
                    changed |= *u != was;
                }
                if changed {
                    // Both branches agree on what they removed: so does every solution.
                    // Places and decided symbols are the probed position's less what
                    // the cells lost.
                    self.queue.clear();
                    self.clean();
                    if Self::LOG_PLACES {
                        self.undo_places();
                        self.logging = false;
                    } else {
                        self.places.copy_from_slice(&self.probe_base_places);
                    }
                    self.cand[Self::C..].copy_from_slice(&self.probe_base[Self::C..]);
                    self.unsolved = unsolved;
                    for c in 0..Self::C {
                        let (u, was) = (self.cand[c], self.probe_base[c]);
                        if u != was {
                            self.touch(c);
                            self.lose(c, was & !u);
                            if u.is_single() {
                                self.unsolved -= 1;
                                self.decided(c, u);
                                self.queue.push(c as u16);
                            }
                        }
                    }
                    return Some(true);
                }
                self.restore(unsolved);
            }
        }
        Some(false)
    }

    /// With [`Rules::lookahead`], the probed two-candidate cell of best score (the first of
    /// equals), as [`choose`](Search::choose) answers.
    fn choose_probed(&self) -> Option<(usize, M, M)> {
        if !self.rules.lookahead {
            return None;
        }
        let mut best: Option<(u16, u32)> = None;
        for &(cell, score) in &self.quiet {
            if best.is_none_or(|(_, s)| score > s) && self.cand[cell as usize].is_pair() {
                best = Some((cell, score));
            }
        }
        best.map(|(cell, _)| (cell as usize, self.cand[cell as usize], M::ZERO))
    }

    /// What to branch on: the unsolved cell with the fewest candidates, unless it has more
    /// than two and some symbol has two places in a house: then that symbol in its first
    /// place, or not. Returns the cell, the symbols to place, and the symbol to exclude last.
    fn choose(&self) -> (usize, M, M) {
        let (mut best, mut fewest) = (0, u32::MAX);
        for (i, &m) in self.cand[..Self::C].iter().enumerate() {
            let k = m.count();
            if k > 1 && k < fewest {
                best = i;
                fewest = k;
                if k == 2 && !self.rules.degree {
                    return (best, self.cand[best], M::ZERO);
                }
            }
        }
        if self.rules.degree && fewest <= 3 {
            let mut score = 0;
            for (i, &m) in self.cand[..Self::C].iter().enumerate() {
                if m.count() == fewest {
                    let d = self.degree(i, m);
                    if d > score {
                        score = d;
                        best = i;
                    }
                }
            }
            return (best, self.cand[best], M::ZERO);
        }
        if self.rules.pairs {
            for h in 0..3 * Self::S {
                let cells = self.geometry.house(h);
                let (mut once, mut twice, mut thrice) = (M::ZERO, M::ZERO, M::ZERO);
                for &c in cells {
                    let m = self.cand[c as usize];
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                let two = twice & !thrice;
                if two != M::ZERO {
                    let bit = M::bit(two.low());
                    if let Some(&c) = cells
                        .iter()
                        .find(|&&c| self.cand[c as usize] & bit != M::ZERO)
                    {
                        return (c as usize, bit, bit);
                    }
                }
            }
        }
        (best, self.cand[best], M::ZERO)
    }

    /// The peers of `cell` that share a candidate with `m`, counted house by house over
    /// contiguous rows and box segments instead of through the peer table (the same number:
    /// the row, column and box counts less the row-box and column-box overlaps, less the
    /// cell itself, which holds `m`).
    #[inline]
    fn degree(&self, cell: usize, m: M) -> usize {
        let (s, n) = (Self::S, N);
        let (r, c) = (cell / s, cell % s);
        let (br, bc) = (r / n * n, c / n * n);
        let hits = |cells: &[M]| cells.iter().filter(|&&x| x & m != M::ZERO).count();
        let row = hits(&self.cand[r * s..r * s + s]);
        let column = (0..s)
            .filter(|&k| self.cand[k * s + c] & m != M::ZERO)
            .count();
        let boxed: usize = (0..n)
            .map(|k| hits(&self.cand[(br + k) * s + bc..(br + k) * s + bc + n]))
            .sum();
        let row_in_box = hits(&self.cand[r * s + bc..r * s + bc + n]);
        let column_in_box = (0..n)
            .filter(|&k| self.cand[(br + k) * s + c] & m != M::ZERO)
            .count();
        row + column + boxed - row_in_box - column_in_box - 1
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The candidate to try next out of `rest`: the lowest, or a random one when seeded.
    fn pick(&mut self, rest: M) -> M {
        if self.rng == 0 {
            return M::bit(rest.low());
        }
        let mut k = (self.next_random() % rest.count() as u64) as u32;
        let mut r = rest;
        while k > 0 {
            r = r.clear_low();
            k -= 1;
        }
        M::bit(r.low())
    }

    fn grid(&self) -> OrderGrid {
        let order = self.geometry.order();
        let values = self.cand[..Self::C]
            .iter()
            .map(|m| m.low() as u8 + 1)
            .collect();
        OrderGrid::from_values(order, values).expect("wide: solved masks are in range")
    }

    /// Loads the clues; false if two clues clash or a value is out of range.
    fn load(&mut self, puzzle: &OrderGrid) -> bool {
        self.queue.clear();
        self.touch_all();
        self.cand[..Self::C].fill(self.full);
        self.cand[Self::C..].fill(M::ZERO);
        self.unsolved = Self::C as u32;
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                self.cand[i] = M::bit(v as u32 - 1);
                self.unsolved -= 1;
                self.decided(i, self.cand[i]);
                self.queue.push(i as u16);
            }
        }
        self.recount();
        true
    }

    /// Looks for up to `limit` solutions of a candidate position: one mask per cell (bit
    /// `v - 1` for value `v`); an empty mask has no solution.
    pub fn solve_masks(&mut self, masks: &[u64], limit: u32) -> Found {
        if masks.len() != Self::C {
            return Found::default();
        }
        self.queue.clear();
        self.touch_all();
        self.unsolved = Self::C as u32;
        self.cand[Self::C..].fill(M::ZERO);
        for (i, &m) in masks.iter().enumerate() {
            let mut mask = M::ZERO;
            for v in 0..Self::S as u32 {
                if m >> v & 1 == 1 {
                    mask |= M::bit(v);
                }
            }
            if mask == M::ZERO {
                return Found {
                    exhausted: true,
                    ..Found::default()
                };
            }
            self.cand[i] = mask;
            if mask.is_single() {
                self.unsolved -= 1;
                self.decided(i, self.cand[i]);
                self.queue.push(i as u16);
            }
        }
        self.recount();
        self.search(limit)
    }

    /// Looks for up to `limit` solutions of `puzzle`, which must be of order `N`.
    pub fn solve(&mut self, puzzle: &OrderGrid, limit: u32) -> Found {
        if puzzle.order().n() != N || !self.load(puzzle) {
            return Found::default();
        }
        self.search(limit)
    }

    fn search(&mut self, limit: u32) -> Found {
        let mut found = Found::default();
        self.levels.clear();
        (self.probe_next, self.probes, self.out_of_time) = (0, 0, false);
        let mut ok = self.settle();
        if ok {
            self.root.copy_from_slice(&self.cand[..Self::C]);
        }
        loop {
            if self.rules.learn
                && ok
                && found.guesses >= LEARN_AFTER
                && found.count <= 2
                && !self.out_of_time
            {
                return self.hand_over(found, limit);
            }
            if found.guesses >= self.max_nodes
                || self.out_of_time
                || crate::solver::deadline::due(found.guesses + 1)
            {
                found.stopped = true;
                return found;
            }
            if ok {
                if self.unsolved == 0 {
                    found.push(|| self.grid());
                    if found.count >= limit {
                        return found;
                    }
                } else {
                    let (cell, rest, exclude) =
                        self.choose_probed().unwrap_or_else(|| self.choose());
                    let depth = self.levels.len();
                    if self.snapshots.len() <= depth {
                        self.snapshots.push(vec![M::ZERO; Self::STATE]);
                    }
                    self.snapshots[depth].copy_from_slice(&self.cand);
                    if self.place_snapshots.len() <= depth {
                        self.place_snapshots.push(vec![M::ZERO; self.places.len()]);
                    }
                    self.place_snapshots[depth].copy_from_slice(&self.places);
                    self.levels.push(Level {
                        cell: cell as u16,
                        rest,
                        unsolved: self.unsolved,
                        exclude,
                    });
                }
            }
            // Take the next candidate of the deepest level that has one left.
            loop {
                let Some(level) = self.levels.last_mut() else {
                    found.exhausted = true;
                    return found;
                };
                if level.rest == M::ZERO {
                    if level.exclude != M::ZERO {
                        // The last branch of a two-place symbol: not in this cell.
                        let (cell, bit, unsolved) =
                            (level.cell as usize, level.exclude, level.unsolved);
                        self.levels.pop();
                        let depth = self.levels.len();
                        // The snapshot was taken at a fixpoint: nothing is pending there.
                        self.cand.copy_from_slice(&self.snapshots[depth]);
                        self.places.copy_from_slice(&self.place_snapshots[depth]);
                        self.unsolved = unsolved;
                        self.queue.clear();
                        self.clean();
                        self.lose(cell, bit);
                        let m = self.cand[cell] & !bit;
                        self.cand[cell] = m;
                        self.touch(cell);
                        if m.is_single() {
                            self.unsolved -= 1;
                            self.decided(cell, self.cand[cell]);
                            self.queue.push(cell as u16);
                        }
                        found.guesses += 1;
                        break;
                    }
                    self.levels.pop();
                    continue;
                }
                let (cell, rest, unsolved) = (level.cell as usize, level.rest, level.unsolved);
                let bit = self.pick(rest);
                let depth = self.levels.len() - 1;
                self.levels[depth].rest = rest & !bit;
                self.cand.copy_from_slice(&self.snapshots[depth]);
                self.places.copy_from_slice(&self.place_snapshots[depth]);
                self.unsolved = unsolved;
                self.queue.clear();
                self.clean();
                self.place(cell, bit);
                found.guesses += 1;
                break;
            }
            ok = self.settle();
        }
    }
}

impl<M: Mask, const N: usize> Search<M, N> {
    /// Goes on with clause learning from the position after the first propagation, the
    /// solutions found so far counted and kept out.
    fn hand_over(&mut self, mut found: Found, limit: u32) -> Found {
        let learner = self.learner.get_or_insert_with(Box::default);
        let masks: Vec<u64> = self.root.iter().map(|m| m.to_u64()).collect();
        let known: Vec<OrderGrid> = [found.first.take(), found.second.take()]
            .into_iter()
            .flatten()
            .collect();
        let budget = self.max_nodes.saturating_sub(found.guesses);
        let mut rest = learner.solve(&masks, &known, limit, budget);
        rest.guesses += found.guesses;
        rest
    }
}

/// The cell at position `k` of row (or column) `line`.
#[inline(always)]
fn cell_of(columns: bool, line: usize, k: usize, s: usize) -> usize {
    if columns {
        k * s + line
    } else {
        line * s + k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The house-by-house degree equals the count through the peer table, on positions
    /// reached by propagation from the empty grid with a few seeded clues.
    #[test]
    fn degree_counts_the_same_peers_as_the_peer_table() {
        fn check<M: Mask, const N: usize>() {
            let mut search = Search::<M, N>::new(Rules::default());
            let order = Order::new(N).unwrap();
            let side = order.side();
            let mut grid = OrderGrid::empty(order);
            // Three clues that break no rule: cells keep different candidate sets.
            grid.set(0, 1);
            grid.set(1, 2);
            grid.set(side + N, 3);
            assert!(search.load(&grid));
            search.propagate();
            let mut checked = 0;
            for cell in 0..order.cells() {
                let m = search.cand[cell];
                if m == M::ZERO || m.is_single() {
                    continue;
                }
                let by_table = search
                    .geometry
                    .peers(cell)
                    .iter()
                    .filter(|&&p| search.cand[p as usize] & m != M::ZERO)
                    .count();
                assert_eq!(search.degree(cell, m), by_table, "order {N}, cell {cell}");
                checked += 1;
            }
            assert!(checked > 0, "order {N}");
        }
        check::<u16, 2>();
        check::<u16, 3>();
        check::<u16, 4>();
        check::<u32, 5>();
        check::<u64, 6>();
    }

    /// Three cells of a row that share the same two symbols: singles and locked candidates
    /// see nothing wrong, the all-different pass sees the contradiction at once (probing
    /// would too, by trying both symbols); and a naked pair it removes from the rest of the
    /// row.
    #[test]
    fn hall_finds_what_singles_and_locked_candidates_miss() {
        let full = (1u64 << 9) - 1;
        let hall = Rules {
            probe: false,
            ..Rules::default()
        };
        let without = Rules {
            hall: false,
            ..hall
        };
        let mut masks = vec![full; 81];
        masks[..3].fill(0b11);
        let found = Search::<u16, 3>::new(hall).solve_masks(&masks, 2);
        assert_eq!((found.count, found.guesses, found.exhausted), (0, 0, true));
        let found = Search::<u16, 3>::new(without).solve_masks(&masks, 2);
        assert_eq!((found.count, found.exhausted), (0, true));
        assert!(
            found.guesses > 0,
            "without the pass the search has to branch"
        );

        // Two cells of row 0 hold {1, 2} (in different boxes, so no locked candidates):
        // the pass takes 1 and 2 from the row's other cells.
        let mut search = Search::<u16, 3>::new(Rules::default());
        let mut masks = vec![full; 81];
        masks[0] = 0b11;
        masks[8] = 0b11;
        search.cand[..81].copy_from_slice(&masks.iter().map(|&m| m as u16).collect::<Vec<_>>());
        search.cand[81..].fill(0);
        search.unsolved = 81;
        search.recount();
        assert_eq!(search.hall(), Some(true));
        for cell in 1..8 {
            assert_eq!(search.cand[cell], full as u16 & !0b11, "cell {cell}");
        }
        assert_eq!(search.cand[9], full as u16, "row 1 keeps every symbol");
    }
}
