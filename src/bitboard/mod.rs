//! The 9×9 bitboard: the search state of the `bitmask` backend and of the puzzle generator,
//! and its propagation to a fixpoint. It is shared so that the generator searches with the
//! backend's board rather than reaching into the backend.
//!
//! Per digit, the 81 cells are three band words (27 bits each, see [`tables`]): word
//! `3·d + b` holds the cells of band `b` where digit `d + 1` is still possible, including the
//! cell where it has been placed. A separate word per band holds the cells not yet solved.
//! The whole state is 59 words (236 bytes, with the `seen` copy of every word), so the search
//! copies it at each guess instead of undoing.
//!
//! Propagation works on one digit-band word at a time ([`Board::update`]), for every word that
//! changed since its last update: locked candidates inside the band (pointing along rows,
//! claiming from rows) by one table lookup on its nine minirows, pointing along columns (a box
//! whose cells lie in one column removes that column from the other two bands, which also
//! keeps a placed digit out of its column), and placement of every row left with one cell
//! (hidden singles in rows, and in boxes, since a box with one cell points along its row),
//! which removes the cell from the other digits. When no word changes, naked singles are
//! found by bit-parallel counting over the nine digit words. Claiming along columns (a column
//! whose digit lies in one box), from which hidden singles in columns follow, is done in a
//! pass over the board at that point ([`Board::propagate`], for clues: they start hundreds of
//! updates and few passes), or inside each update ([`Board::propagate_triads`] and
//! [`Board::propagate_claims`], below the root of the search: a guess starts a few updates
//! and several passes; 17-clue puzzles ran 17% slower with claims in every update, the
//! hardest sets 3–4% faster). The search adds hidden triads once per node ([`triads`]).
//! Every order of the rules reaches the same fixpoint, so these variants make the same
//! search.

mod clues;
mod isa;
pub(crate) mod tables;
pub(crate) mod triads;

pub(crate) use isa::{Avx2, Avx2Pext, Avx2Proof, Baseline, Isa};

use crate::util::Popcnt;
use tables::{fold_cols, BAND, BAND_PEERS, CLAIM_KEEP, COLS_BOTH, LOCK_BOTH, PEERS81};

/// The state of one search node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Word `3·d + b`: the cells of band `b` that may hold digit `d + 1`.
    /// (Word 27 is padding, always 0, so that [`Board::stale`] can compare four at a time.)
    cand: [u32; 28],
    /// Each word of `cand` as it was after its last update (a bit above 27 forces one).
    seen: [u32; 28],
    /// Per band: the cells not yet solved.
    unsolved: [u32; 3],
}

/// Three band words as one 81-bit word (bit `27·band + position`), the layout of
/// [`PEERS81`]: bits 0..54 and the band of bits 54..81.
#[inline(always)]
fn grid_words(bands: [u32; 3]) -> (u64, u32) {
    (bands[0] as u64 | (bands[1] as u64) << 27, bands[2])
}

/// The largest of `key(i)` over the cells `i` of an 81-bit word (0 if it has none). One
/// loop over a u128: a loop per part mispredicts one more exit.
#[inline(always)]
fn largest_key((low, high): (u64, u32), key: impl Fn(u32) -> u32) -> u32 {
    let mut t = low as u128 | (high as u128) << 54;
    let mut best = 0u32;
    while t != 0 {
        let i = t.trailing_zeros();
        t &= t - 1;
        best = best.max(key(i));
    }
    best
}

/// Propagation found that the position has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

pub(crate) type Step<T> = Result<T, Contradiction>;

/// A `seen` value no word can have, so that the word is updated.
const STALE: u32 = u32::MAX;

/// The band of each word.
const BAND_OF: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = (i % 3) as u8;
        i += 1;
    }
    t
};

/// The words of the same digit in the two other bands.
const NEIGHBOURS: [[u8; 2]; 27] = {
    let mut t = [[0u8; 2]; 27];
    let mut i = 0;
    while i < 27 {
        let base = i - i % 3;
        t[i] = [(base + (i + 1) % 3) as u8, (base + (i + 2) % 3) as u8];
        i += 1;
    }
    t
};

/// 27 words of `value` and a padding word 0.
const fn pad(value: u32) -> [u32; 28] {
    let mut t = [value; 28];
    t[27] = 0;
    t
}

impl Board {
    /// Every digit possible in every cell.
    pub(crate) fn empty() -> Board {
        Board {
            cand: pad(BAND),
            seen: pad(STALE),
            unsolved: [BAND; 3],
        }
    }

    /// A board from candidate masks per cell (bit `d` = digit `d + 1`), nothing solved yet.
    pub(crate) fn from_masks(masks: &[u16; 81]) -> Board {
        let mut cand = [0u32; 28];
        for (cell, &m) in masks.iter().enumerate() {
            let (b, pos) = (cell / 27, cell % 27);
            for (d, words) in cand[..27].chunks_exact_mut(3).enumerate() {
                if m >> d & 1 != 0 {
                    words[b] |= 1 << pos;
                }
            }
        }
        Board {
            cand,
            seen: pad(STALE),
            unsolved: [BAND; 3],
        }
    }

    /// Whether every cell is solved.
    #[inline]
    pub(crate) fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// How many cells are not solved yet.
    #[inline]
    pub(crate) fn unsolved_count(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    /// Whether cell `cell` (0..81) is not solved yet.
    #[inline]
    pub(crate) fn is_unsolved_cell(&self, cell: usize) -> bool {
        self.unsolved[cell / 27] >> (cell % 27) & 1 != 0
    }

    /// The board of both boards' clues, from two boards of consistent clue sets (for the
    /// generator, which keeps propagated boards of parts of a puzzle): the candidates both
    /// allow, the cells either solved. A word equal to a propagated word of either board
    /// needs no update (updating it again can only repeat what that board did, and the
    /// result holds less); every other word is marked for one.
    pub(crate) fn meet(&self, other: &Board) -> Board {
        let mut cand = [0u32; 28];
        let mut seen = [STALE; 28];
        for i in 0..28 {
            let c = self.cand[i] & other.cand[i];
            cand[i] = c;
            if (c == self.cand[i] && self.seen[i] == c)
                || (c == other.cand[i] && other.seen[i] == c)
            {
                seen[i] = c;
            }
        }
        Board {
            cand,
            seen,
            unsolved: [
                self.unsolved[0] & other.unsolved[0],
                self.unsolved[1] & other.unsolved[1],
                self.unsolved[2] & other.unsolved[2],
            ],
        }
    }

    /// Removes digit `d + 1` (0-based `d`) from the candidates of cell `cell` (0..81) of a
    /// board not yet propagated (the generator's "any other digit here?" question).
    #[inline]
    pub(crate) fn exclude_cell(&mut self, d: usize, cell: usize) {
        self.cand[3 * d + cell / 27] &= !(1 << (cell % 27));
    }

    /// Places digit `d + 1` (0-based `d`) in cell `cell` (0..81) and propagates nothing yet.
    #[inline]
    pub(crate) fn place_cell(&mut self, d: usize, cell: usize) -> Step<()> {
        self.place(d, cell / 27, 1 << (cell % 27))
    }

    /// Places digit `d + 1` on the band cell `bit` of band `b`: removes the digit from the
    /// cell's peers in the band and the cell from the other digits. The column in the other
    /// bands follows at the next update of the word (pointing along columns).
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) -> Step<()> {
        let i = 3 * d + b;
        if self.cand[i] & bit == 0 || self.unsolved[b] & bit == 0 {
            return Err(Contradiction);
        }
        let own = self.cand[i] & !BAND_PEERS[bit.trailing_zeros() as usize];
        self.unsolved[b] &= !bit;
        for e in 0..9 {
            self.cand[3 * e + b] &= !bit;
        }
        self.cand[i] = own;
        Ok(())
    }

    /// Updates word `i` (digit `i / 3`, band `i % 3`); see the module documentation.
    #[inline(always)]
    fn update<const CLAIMS: bool, const FLAT: bool, I: Isa>(&mut self, i: usize) -> Step<()> {
        let b = BAND_OF[i] as usize;
        let before = self.cand[i];
        let lock = LOCK_BOTH[isa::minirows::<I>(before)];
        let a = before & lock as u32;
        if a == 0 {
            return Err(Contradiction);
        }
        // Word `i` is written last: the clearing below would clear its own placed cells.
        self.seen[i] = a;
        let fa = fold_cols(a);
        let cols = COLS_BOTH[fa as usize];
        let keep = cols as u32;
        let [n1, n2] = NEIGHBOURS[i];
        let (n1, n2) = (n1 as usize, n2 as usize);
        // The digit's words in the two other bands, kept in registers: the clearing below
        // writes band `b` only, so it leaves them alone, and the claims read them without
        // waiting for their stores.
        let (w1, w2) = (self.cand[n1], self.cand[n2]);
        let (c1, c2) = (w1 & keep, w2 & keep);
        // A cell is placed where its minirow is the only one of its row and box and its box
        // holds the digit in one column: the high halves of both entries hold those cells.
        let solved = ((lock & cols) >> 32) as u32 & a;
        let new = solved & self.unsolved[b];
        // `FLAT`: without a branch on `new`, which is mispredicted often where updates place
        // cells as often as not (both searches); clearing nothing costs a dozen
        // instructions. In the propagation of the clues the branch pays (serg_benchmark 4-17%
        // slower without it on an AMD Zen 4, though Kaggle is 12% faster). In the cell search
        // it did not, on Zen 4 (serg_benchmark 4-5% faster without it, magictour 2-6%) nor on
        // an Intel Xeon with this update (serg 3-8% and magictour 4-7% faster without it;
        // an earlier build there had measured the opposite).
        if FLAT || new != 0 {
            self.unsolved[b] &= !new;
            for e in 0..9 {
                self.cand[3 * e + b] &= !new;
            }
        }
        if !CLAIMS {
            self.cand[i] = a;
            self.cand[n1] = c1;
            self.cand[n2] = c2;
            return Ok(());
        }
        // Claiming along columns, for the digit's three bands: a column whose digit lies in
        // one band keeps its box to that column. (Here rather than in a pass of its own since
        // a word of this digit changes whenever a claim may have appeared.)
        // The other bands' columns as they were before pointing: a superset, so fewer claims
        // (and a weaker test of the columns), but not waiting on the `COLS_BOTH` lookup. A
        // word that pointing changed is updated again, with its own columns exact, so the
        // fixpoint is the same.
        let (f0, f1, f2) = (fa, fold_cols(w1), fold_cols(w2));
        if f0 | f1 | f2 != 0x1ff {
            return Err(Contradiction);
        }
        self.cand[i] = a & CLAIM_KEEP[(f0 & !(f1 | f2)) as usize];
        self.cand[n1] = c1 & CLAIM_KEEP[(f1 & !(f0 | f2)) as usize];
        self.cand[n2] = c2 & CLAIM_KEEP[(f2 & !(f0 | f1)) as usize];
        Ok(())
    }

    /// The words changed since their last update, as a 27-bit mask (branch-free, so the
    /// compiler can compare several words per instruction).
    #[inline(always)]
    fn stale<I: Isa>(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if I::AVX2 {
            use std::arch::x86_64::{
                __m128i, __m256i, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256,
                _mm256_movemask_ps, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128,
                _mm_movemask_ps,
            };
            let mut equal = 0u32;
            // SAFETY: an `Isa` with `AVX2` set exists only once the CPU was found to have
            // AVX2 (`Avx2::detect`). The loads read words 0..24 (three of 8) and 24..28 of
            // `cand` and `seen`, 28-word arrays, so every load stays inside its array.
            unsafe {
                for k in 0..3 {
                    let a = _mm256_loadu_si256(self.cand.as_ptr().add(8 * k) as *const __m256i);
                    let b = _mm256_loadu_si256(self.seen.as_ptr().add(8 * k) as *const __m256i);
                    let eq = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)));
                    equal |= (eq as u32) << (8 * k);
                }
                let a = _mm_loadu_si128(self.cand.as_ptr().add(24) as *const __m128i);
                let b = _mm_loadu_si128(self.seen.as_ptr().add(24) as *const __m128i);
                equal |= (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b))) as u32) << 24;
            }
            return !equal & ((1 << 27) - 1);
        }
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps,
            };
            let mut equal = 0u32;
            // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are always
            // available. The seven 16-byte loads read words 0..28 of `cand` and `seen`, which
            // are 28-word arrays, so every load stays inside its array.
            unsafe {
                for k in 0..7 {
                    let a = _mm_loadu_si128(self.cand.as_ptr().add(4 * k) as *const __m128i);
                    let b = _mm_loadu_si128(self.seen.as_ptr().add(4 * k) as *const __m128i);
                    let eq = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)));
                    equal |= (eq as u32) << (4 * k);
                }
            }
            !equal & ((1 << 27) - 1)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut mask = 0u32;
            for i in 0..27 {
                mask |= ((self.cand[i] != self.seen[i]) as u32) << i;
            }
            mask
        }
    }

    /// Propagates to a fixpoint. `Err` means the position has no solution; otherwise returns
    /// the bivalue cells of each band (all 0 once solved).
    pub(crate) fn propagate(&mut self) -> Step<[u32; 3]> {
        self.propagate_with(Baseline)
    }

    /// [`propagate`](Board::propagate) in the code of instruction set `I`.
    #[inline(always)]
    pub(crate) fn propagate_with<I: Isa>(&mut self, _isa: I) -> Step<[u32; 3]> {
        self.settle::<false, false, false, I>()
    }

    /// [`propagate`](Board::propagate) with claiming along columns in every update rather
    /// than in a pass over the board: the propagation below the root of the cell search,
    /// where a guess starts few updates (serg_benchmark, 2,000 puzzles under callgrind: 92
    /// mispredicted branches per puzzle against 99, and slightly fewer instructions), and
    /// without a branch on whether an update solved cells (`FLAT`, see [`Board::update`]).
    #[inline(always)]
    pub(crate) fn propagate_claims<I: Isa>(&mut self, _isa: I) -> Step<[u32; 3]> {
        self.settle::<false, true, true, I>()
    }

    /// [`propagate`](Board::propagate) plus, once, at the first point where the cheaper rules
    /// stall, the hidden triads of [`triads`]: the solver's propagation. (Running the triad
    /// rule at every stall finds almost nothing more, 132.1 against 132.5 guesses per puzzle
    /// on forum_hardest_1905_11+, for a second pass over the board.)
    #[inline(always)]
    pub(crate) fn propagate_triads<I: Isa>(&mut self, _isa: I) -> Step<()> {
        self.settle::<true, true, true, I>().map(|_| ())
    }

    /// Updates to a fixpoint: with `TRIADS`, hidden triads once at the first stall; with
    /// `CLAIMS`, claiming along columns in every update, else in
    /// [`column_pass`](Board::column_pass).
    #[inline(always)]
    fn settle<const TRIADS: bool, const CLAIMS: bool, const FLAT: bool, I: Isa>(
        &mut self,
    ) -> Step<[u32; 3]> {
        let mut triads_done = !TRIADS;
        loop {
            loop {
                let mut stale = self.stale::<I>();
                if stale == 0 {
                    break;
                }
                while stale != 0 {
                    let i = stale.trailing_zeros() as usize;
                    stale &= stale - 1;
                    self.update::<CLAIMS, FLAT, I>(i)?;
                }
            }
            if self.is_solved() {
                return Ok([0; 3]);
            }
            let Some(pairs) = self.naked_singles()? else {
                continue;
            };
            if !CLAIMS && self.column_pass()? {
                continue;
            }
            if !triads_done {
                triads_done = true;
                if self.hidden_triads()? {
                    continue;
                }
            }
            return Ok(pairs);
        }
    }

    /// Per band (lanes 0..3; lane 3 is padding): the cells with at least one, at least two and
    /// at least three candidates. Written lane-wise so that the compiler keeps the three bands
    /// in one vector register.
    #[inline(always)]
    fn coverage(&self) -> [[u32; 4]; 3] {
        let (mut r1, mut r2, mut r3) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        for d in 0..9 {
            let mut x = [0u32; 4];
            x.copy_from_slice(&self.cand[3 * d..3 * d + 4]);
            for l in 0..4 {
                r3[l] |= r2[l] & x[l];
                r2[l] |= r1[l] & x[l];
                r1[l] |= x[l];
            }
        }
        [r1, r2, r3]
    }

    /// Places every unsolved cell with one candidate. Returns `Ok(None)` if any was placed,
    /// else the bivalue cells of each band (for [`choose`](Board::choose)).
    #[inline(always)]
    fn naked_singles(&mut self) -> Step<Option<[u32; 3]>> {
        let [r1, r2, r3] = self.coverage();
        let mut pairs = [0u32; 3];
        let mut any = false;
        for b in 0..3 {
            let u = self.unsolved[b];
            if u & !r1[b] != 0 {
                return Err(Contradiction);
            }
            pairs[b] = u & r2[b] & !r3[b];
            let mut singles = u & !r2[b];
            if singles == 0 {
                continue;
            }
            any = true;
            for d in 0..9 {
                let mut hits = self.cand[3 * d + b] & singles;
                singles &= !hits;
                while hits != 0 {
                    let bit = hits & hits.wrapping_neg();
                    hits ^= bit;
                    self.place(d, b, bit)?;
                }
            }
            // A single that lost its last candidate to another single of this band.
            if singles != 0 {
                return Err(Contradiction);
            }
        }
        Ok(if any { None } else { Some(pairs) })
    }

    /// Claiming along columns: a digit whose places in a column all lie in one box must go in
    /// that column of the box. Hidden singles in columns follow from it at the next update (the
    /// box is left with one cell, which points along its row), and pointing along columns is
    /// part of every update. `Ok(true)` if anything changed.
    #[inline(always)]
    fn column_pass(&mut self) -> Step<bool> {
        let mut changed = false;
        for d in 0..9 {
            let a = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
            let p = [fold_cols(a[0]), fold_cols(a[1]), fold_cols(a[2])];
            if p[0] | p[1] | p[2] != 0x1ff {
                return Err(Contradiction);
            }
            for b in 0..3 {
                let only = p[b] & !(p[(b + 1) % 3] | p[(b + 2) % 3]);
                let new = a[b] & CLAIM_KEEP[only as usize];
                if new != a[b] {
                    self.cand[3 * d + b] = new;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The cell to branch on: among the unsolved cells with fewest candidates (bivalue cells
    /// from `pairs`, found by the last naked singles pass, when there are any), the one with
    /// most unsolved peers, whose placement constrains the most. On the hard sets this halves
    /// the guesses compared with taking the first bivalue cell. Returns (band, cell bit, digit
    /// mask). Only called on a propagated, unsolved board.
    ///
    /// `popcnt`, the proof that the CPU has the POPCNT instruction (not part of the x86-64
    /// baseline), selects, in the baseline build `I`, a build compiled with it: the scoring
    /// counts bits, which without it takes a dozen instructions per count. (The AVX2 build
    /// has POPCNT, and inlines this.)
    #[inline(always)]
    pub(crate) fn choose<I: Isa>(
        &self,
        pairs: [u32; 3],
        _isa: I,
        popcnt: Option<Popcnt>,
    ) -> (usize, u32, u32) {
        if I::AVX2 {
            return self.choose_portable(pairs);
        }
        #[cfg(target_arch = "x86_64")]
        if popcnt.is_some() {
            // SAFETY: a `Popcnt` exists only when the CPU was found to have POPCNT.
            return unsafe { self.choose_popcnt(pairs) };
        }
        let _ = popcnt;
        self.choose_portable(pairs)
    }

    /// [`choose`](Board::choose) compiled with POPCNT.
    ///
    /// # Safety
    /// The CPU must support POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn choose_popcnt(&self, pairs: [u32; 3]) -> (usize, u32, u32) {
        self.choose_portable(pairs)
    }

    #[inline(always)]
    fn choose_portable(&self, pairs: [u32; 3]) -> (usize, u32, u32) {
        // The cells as one 81-bit word (bands 0 and 1 in a u64, band 2 in a u32), so that
        // two loops visit the candidates (a loop per band mispredicted its exit three times
        // per call) and a cell's unsolved peers are two masks. Each candidate gets a key,
        // larger is better: its score above, and below it 255 minus its index so that ties
        // go to the first cell. Taking the maximum of keys compiles to conditional moves,
        // where comparing scores took a mispredicted branch per improvement.
        let (low, high) = grid_words(self.unsolved);
        let peers = |i: u32| {
            let (p_low, p_high) = PEERS81[i as usize];
            (low & p_low).count_ones() + (high & p_high).count_ones()
        };
        let best = if pairs != [0; 3] {
            largest_key(grid_words(pairs), |i| peers(i) << 8 | (255 - i))
        } else {
            largest_key((low, high), |i| {
                let digits = self.digits(i as usize / 27, i % 27).count_ones();
                // Fewest digits first, then most unsolved peers (at most 20).
                ((9 - digits) * 32 + peers(i)) << 8 | (255 - i)
            })
        };
        let i = 255 - (best & 0xff);
        let (b, pos) = ((i / 27) as usize, i % 27);
        (b, 1 << pos, self.digits(b, pos))
    }

    /// The first unsolved cell in row-major order as (band, cell bit, digit mask), or `None`
    /// when every cell is solved: a branching choice far cheaper than
    /// [`choose`](Board::choose) without bivalue cells, for the generator's random fill.
    #[inline]
    pub(crate) fn first_unsolved(&self) -> Option<(usize, u32, u32)> {
        let b = self.unsolved.iter().position(|&u| u != 0)?;
        let bit = self.unsolved[b] & self.unsolved[b].wrapping_neg();
        Some((b, bit, self.digits(b, bit.trailing_zeros())))
    }

    /// The digit mask (bit `d` = digit `d + 1`) of band cell `pos` in band `b` (without
    /// branches: which digits a cell has is as good as random).
    #[inline(always)]
    fn digits(&self, b: usize, pos: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= (self.cand[3 * d + b] >> pos & 1) << d;
        }
        m
    }

    /// Places digit `d + 1` on band cell `bit` of band `b` as a guess.
    #[inline]
    pub(crate) fn guess(&mut self, d: usize, b: usize, bit: u32) -> Step<()> {
        self.place(d, b, bit)
    }

    /// [`cells`](Board::cells) in the code of instruction set `I`: with AVX2, a band at a
    /// time from four bit planes of the digits, about 80 instructions instead of 600 (a
    /// search that finds two solutions, as on every puzzle of serg_benchmark, spent 9% of
    /// its instructions here).
    #[inline(always)]
    pub(crate) fn cells_with<I: Isa>(&self, _isa: I) -> [u8; 81] {
        #[cfg(target_arch = "x86_64")]
        if I::AVX2 {
            use std::arch::x86_64::{
                __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_or_si256, _mm256_set1_epi32,
                _mm256_set1_epi64x, _mm256_set1_epi8, _mm256_setr_epi8, _mm256_setzero_si256,
                _mm256_shuffle_epi8, _mm256_storeu_si256,
            };
            // Five bytes past the grid, so that every band writes 32.
            let mut out = [0u8; 86];
            // SAFETY: `I::AVX2` is set only by builds that exist once the CPU was found to
            // have AVX2 (`Avx2::detect`). Each store writes bytes 27b..27b + 32 (at most
            // 54..86) of the 86-byte `out`.
            unsafe {
                // Byte j of a band takes byte j / 8 of the plane and tests bit j % 8 of it.
                let spread = _mm256_setr_epi8(
                    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                    3, 3, 3, 3, 3, 3,
                );
                let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
                // Band by band in order: a band's last five bytes (zeros) are overwritten by
                // the next band.
                for b in 0..3 {
                    let w = |d: usize| self.cand[3 * d + b] & !self.unsolved[b];
                    // Plane j: the cells whose digit has bit j set.
                    let planes = [
                        w(0) | w(2) | w(4) | w(6) | w(8),
                        w(1) | w(2) | w(5) | w(6),
                        w(3) | w(4) | w(5) | w(6),
                        w(7) | w(8),
                    ];
                    let mut digits = _mm256_setzero_si256();
                    for (j, &plane) in planes.iter().enumerate() {
                        let bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(plane as i32), spread);
                        let set = _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit);
                        let value = _mm256_set1_epi8(1 << j);
                        digits = _mm256_or_si256(digits, _mm256_and_si256(set, value));
                    }
                    _mm256_storeu_si256(out.as_mut_ptr().add(27 * b) as *mut __m256i, digits);
                }
            }
            let mut cells = [0u8; 81];
            cells.copy_from_slice(&out[..81]);
            return cells;
        }
        self.cells()
    }

    /// The solved grid as cell values (meaningful once [`is_solved`](Board::is_solved)).
    pub(crate) fn cells(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (d, words) in self.cand[..27].chunks_exact(3).enumerate() {
            for (b, &w) in words.iter().enumerate() {
                let mut w = w & !self.unsolved[b];
                while w != 0 {
                    out[27 * b + w.trailing_zeros() as usize] = d as u8 + 1;
                    w &= w - 1;
                }
            }
        }
        out
    }
}
