//! Triads and band configurations: the reasoning and the branching that take `bitmask` past
//! singles and locked candidates on the hardest puzzles.
//!
//! A *triad* is the three cells where a row (a minirow) or a column (a minicolumn) crosses a
//! box; it holds three different digits. A digit is *locked* to a triad when every solution
//! puts it there: it is the digit's only minirow in its row of the band, or its only column in
//! its box. Three digits locked to one triad fill it, so no other digit may stay in its cells
//! (a hidden triple of the row and the box at once, or of the column and the box).
//!
//! A digit's places in a band form one of six *configurations*, one minirow per row and per
//! box (a permutation of the three boxes); in a stack, one minicolumn per box and per column.
//! Branching on the configurations of one digit in one band or stack fixes three triads at
//! once, which is what lets the triad rule fire: on forum_hardest_1905_11+ the pair takes
//! bitmask from 163 guesses per puzzle to 127 with tdoku's choice of where to branch, and to
//! 114 with the choice of [`Board::choose_band`].

use super::tables::{fold_cols, spread_cols, EXPAND};
use super::{Board, Contradiction, Step};

/// The lowest cell of each of a band's nine minirows.
const FLAGS: u32 = 0o111_111_111;
/// The flags of the first box of each row.
const FIRST_BOX: u32 = 1 | 1 << 9 | 1 << 18;
/// The first column of each box, in a 9-bit column set.
const FIRST_COL: u32 = 0o111;

/// The minirow flags (the lowest cell of each minirow) of the minirows of `w` holding a cell.
#[inline(always)]
fn triads_of(w: u32) -> u32 {
    (w | w >> 1 | w >> 2) & FLAGS
}

/// The bits of `x` that are the only one of their group, for groups of three bits `step`
/// apart whose first bits are `first`.
#[inline(always)]
fn alone_of_three(x: u32, step: u32, first: u32) -> u32 {
    let others = ((x >> step | x >> (2 * step)) & first)
        | ((x << step | x >> step) & first << step)
        | ((x << step | x << (2 * step)) & first << (2 * step));
    x & !others
}

/// The flags of `t` (as from [`triads_of`]) that are the only one of their row.
#[inline(always)]
fn alone_in_row(t: u32) -> u32 {
    alone_of_three(t, 3, FIRST_BOX)
}

/// The columns of a 9-bit column set that are the only one of their box.
#[inline(always)]
fn alone_in_box(f: u32) -> u32 {
    alone_of_three(f, 1, FIRST_COL)
}

/// From how many unsolved cells on a position counts as open: the solver searches by
/// configurations only a puzzle open after the propagation of its clues (and whose clues
/// solved few cells so), others by cells, and [`Board::choose_band`] takes its rule by it. (After the clues, the puzzles of
/// forum_hardest_1905_11+ and 1106 have 54 to 61 cells unsolved, the 17-clue puzzles that
/// need a guess mostly 20 to 50, those of magictour_top1465 21 to 63.)
pub(crate) const OPEN_POSITION: u32 = 55;

/// The six configurations of a digit in a band: for permutation `k` of the three boxes, the
/// minirow mask (bit `3·r + box`) that puts row `r` in box `σ_k(r)`. In a stack the same masks
/// read bit `3·band + column`.
const PERMS: [u16; 6] = {
    const S: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 6];
    let mut k = 0;
    while k < 6 {
        let mut r = 0;
        while r < 3 {
            t[k] |= 1 << (3 * r + S[k][r]);
            r += 1;
        }
        k += 1;
    }
    t
};

/// For a 9-bit minirow (or minicolumn) mask: the configurations it allows, bit `k` for
/// [`PERMS`]`[k]`, and their number in bits 8 and up.
const CONFIGS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        let mut n = 0;
        while k < 6 {
            if m & PERMS[k] as usize == PERMS[k] as usize {
                t[m] |= 1 << k;
                n += 1;
            }
            k += 1;
        }
        t[m] |= n << 8;
        m += 1;
    }
    t
};

/// Where to branch: one digit's configurations in one band or stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Branch {
    /// Whether `index` is a stack (else a band).
    stack: bool,
    index: usize,
    digit: usize,
    /// The configurations to try, bit `k` for [`PERMS`]`[k]` (at least two).
    pub(crate) configs: u32,
}

/// What [`Board::choose_band`] found.
pub(crate) enum Choice {
    Branch(Branch),
    /// The chosen band or stack has a digit without a configuration: no solution.
    Dead,
    /// Every digit is fixed in every band and stack.
    Fixed,
}

impl Board {
    /// Removes from every triad that three digits are locked to the other digits' cells.
    /// `Ok(true)` if anything changed. Sound on any board (a digit's only minirow in a row
    /// of the band, or only column in a box, holds it); run where the cheaper rules stall,
    /// since it finds what they cannot.
    #[inline(always)]
    pub(crate) fn hidden_triads(&mut self) -> Step<bool> {
        // Per word: the minirows and minicolumns its digit is locked to (written as plain
        // loops over all 28 words so that the compiler does four words per instruction).
        let (mut rows, mut cols) = ([0u32; 28], [0u32; 28]);
        let (mut others_h, mut others_v) = ([0u32; 28], [0u32; 28]);
        for i in 0..28 {
            let (t, f) = (triads_of(self.cand[i]), fold_cols(self.cand[i]));
            rows[i] = alone_in_row(t);
            cols[i] = alone_in_box(f);
            others_h[i] = t & !rows[i];
            others_v[i] = f & !cols[i];
        }
        // Per band (lanes 0..3; lane 3 is padding): the triads with at least one, two and
        // three locked digits, and those that hold a digit not locked to them.
        let (mut h1, mut h2, mut h3, mut hx) = ([0u32; 4], [0u32; 4], [0u32; 4], [0u32; 4]);
        let (mut v1, mut v2, mut v3, mut vx) = ([0u32; 4], [0u32; 4], [0u32; 4], [0u32; 4]);
        for d in 0..9 {
            for l in 0..4 {
                let i = (3 * d + l).min(27);
                let (h, v) = (rows[i], cols[i]);
                h3[l] |= h2[l] & h;
                h2[l] |= h1[l] & h;
                h1[l] |= h;
                hx[l] |= others_h[i];
                v3[l] |= v2[l] & v;
                v2[l] |= v1[l] & v;
                v1[l] |= v;
                vx[l] |= others_v[i];
            }
        }
        let mut changed = false;
        for b in 0..3 {
            let full_h = h3[b] & hx[b];
            let full_v = v3[b] & vx[b];
            if full_h | full_v == 0 {
                continue;
            }
            for d in 0..9 {
                let i = 3 * d + b;
                let w = self.cand[i];
                let h = full_h & !rows[i];
                let v = full_v & !cols[i];
                let new = w & !(h | h << 1 | h << 2 | spread_cols(v));
                if new != w {
                    if new == 0 {
                        return Err(Contradiction);
                    }
                    self.cand[i] = new;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Where to branch: a band or stack, then its first digit with fewest configurations (at
    /// least two). The band or stack is, in an open position (at least [`OPEN_POSITION`]
    /// cells unsolved), the one with fewest digits not yet fixed there (a fixed digit has
    /// three minirows, or minicolumns), ties going to the one whose open digits have more
    /// places; elsewhere the one with fewest minirows (minicolumns) over all digits among
    /// those with an open digit. tdoku takes the band with fewest configurations over all
    /// digits. Guesses per puzzle, count to 2 (17-clue, magictour_top1465, 1905_11+, 1106,
    /// first 2,000 puzzles of each): fewest configurations 0.79, 18.2, 127.3, 227.6; fewest
    /// minirows 0.79, 18.2, 121.7, 229.4; fewest open digits 1.17, 20.6, 110.8, 147.9; the
    /// two by openness 0.85, 19.7, 114.3, 149.0 (every puzzle searched by configurations).
    #[inline(always)]
    pub(crate) fn choose_band(&self) -> Choice {
        let (bands, stacks) = if self.unsolved_count() >= OPEN_POSITION {
            self.open_digit_scores()
        } else {
            self.minirow_scores()
        };
        let (mut best, mut stack, mut index) = (u32::MAX, false, 0);
        for (b, &score) in bands[..3].iter().enumerate() {
            if score != 0 && score < best {
                (best, stack, index) = (score, false, b);
            }
        }
        for s in 0..3 {
            let score = stacks >> (8 * s) & 0xff;
            if score != 0 && score < best {
                (best, stack, index) = (score, true, s);
            }
        }
        if best == u32::MAX {
            return Choice::Fixed;
        }
        let (mut digit, mut configs, mut fewest) = (0, 0, u32::MAX);
        for d in 0..9 {
            let m = if stack {
                let w = &self.cand[3 * d..3 * d + 3];
                let cols = |b: usize| fold_cols(w[b]) >> (3 * index) & 7;
                cols(0) | cols(1) << 3 | cols(2) << 6
            } else {
                compress_minirows(triads_of(self.cand[3 * d + index]))
            };
            let c = CONFIGS[m as usize & 0x1ff] as u32;
            let n = c >> 8;
            if n == 0 {
                // Not reached at the fixpoint of the locked-candidate rules (by Hall's theorem
                // a band with a minirow in every row and box, closed under pointing and
                // claiming, has a configuration), but a dead end is a safe answer.
                return Choice::Dead;
            }
            if n >= 2 && n < fewest {
                (digit, configs, fewest) = (d, c & 0x3f, n);
                if n == 2 {
                    break;
                }
            }
        }
        Choice::Branch(Branch {
            stack,
            index,
            digit,
            configs,
        })
    }

    /// [`choose_band`](Board::choose_band)'s scores in an open position: per band (lanes
    /// 0..3) and per stack (a byte each), over its open digits, `OPEN` minus the digit's
    /// places (4 to 9), so that one open digit more outweighs any difference of places; 0
    /// when every digit is fixed there.
    #[inline(always)]
    fn open_digit_scores(&self) -> ([u32; 4], u32) {
        const OPEN: u32 = 25;
        let mut bands = [0u32; 4];
        for d in 0..9 {
            for (score, &w) in bands.iter_mut().zip(&self.cand[3 * d..3 * d + 4]) {
                let m = count_triads(triads_of(w));
                let open = 0u32.wrapping_sub((m + 124) >> 7); // all ones if m > 3
                *score += (OPEN - m) & open;
            }
        }
        // The digits as lanes, each lane's stacks a byte each.
        let (mut f0, mut f1, mut f2) = ([0u32; 16], [0u32; 16], [0u32; 16]);
        for d in 0..9 {
            (f0[d], f1[d], f2[d]) = (self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]);
        }
        let mut stacks = 0u32;
        for d in 0..16 {
            let x = count_per_box(fold_cols(f0[d]))
                + count_per_box(fold_cols(f1[d]))
                + count_per_box(fold_cols(f2[d]));
            // Per byte: all ones where the digit has more than three minicolumns.
            let flags = (x + 0x7c_7c7c) >> 7 & 0x01_0101;
            let open = (flags << 8) - flags;
            stacks += (OPEN * 0x01_0101 - x) & open;
        }
        (bands, stacks)
    }

    /// [`choose_band`](Board::choose_band)'s scores elsewhere: per band (lanes 0..3) and per
    /// stack (a byte each), its minirows (minicolumns) over all digits less 27, the fixed
    /// digits' share; 0 when every digit is fixed there.
    #[inline(always)]
    fn minirow_scores(&self) -> ([u32; 4], u32) {
        // Per band (lanes): its minirows, and its minicolumns per stack (a byte each).
        let (mut bands, mut cols) = ([0u32; 4], [0u32; 4]);
        for d in 0..9 {
            let words = &self.cand[3 * d..3 * d + 4];
            for l in 0..4 {
                bands[l] += count_triads(triads_of(words[l]));
                cols[l] += count_per_box(fold_cols(words[l]));
            }
        }
        // Nine digits of at least three minirows (minicolumns) each: every band (every
        // stack's byte) is at least 27.
        for score in &mut bands[..3] {
            *score -= 27;
        }
        (bands, cols[0] + cols[1] + cols[2] - 27 * 0x01_0101)
    }

    /// Restricts the branch's digit to configuration `k` (a bit of `branch.configs`).
    #[inline]
    pub(crate) fn assume(&mut self, branch: &Branch, k: usize) {
        let perm = PERMS[k] as u32;
        let d = branch.digit;
        if branch.stack {
            let stack = spread_cols(7 << (3 * branch.index));
            for b in 0..3 {
                // One bit: the column of the stack that the digit takes in band b.
                let j = perm >> (3 * b) & 7;
                self.cand[3 * d + b] &= !stack | spread_cols(j << (3 * branch.index));
            }
        } else {
            self.cand[3 * d + branch.index] &= EXPAND[perm as usize];
        }
    }
}

/// How many minirow flags `t` (as from [`triads_of`]) holds, without POPCNT (so that the
/// compiler can count several words at once).
#[inline(always)]
fn count_triads(t: u32) -> u32 {
    let r = (t & 0o111) + (t >> 9 & 0o111) + (t >> 18 & 0o111);
    (r & 7) + (r >> 3 & 7) + (r >> 6 & 7)
}

/// How many columns of each box a 9-bit column set holds: a byte per box.
#[inline(always)]
fn count_per_box(c: u32) -> u32 {
    let p = (c & 0o111) + (c >> 1 & 0o111) + (c >> 2 & 0o111);
    (p & 7) | (p >> 3 & 7) << 8 | (p >> 6 & 7) << 16
}

/// The 9-bit minirow mask (bit `3·r + box`) of a band's minirow flags (see [`triads_of`]).
#[inline(always)]
fn compress_minirows(t: u32) -> u32 {
    let z = (t | t >> 2 | t >> 4) & 0o007_007_007;
    z & 7 | z >> 6 & 0o70 | z >> 12 & 0o700
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_triads_and_columns() {
        // Row 0: boxes 0 and 2; row 1: box 1 only; row 2: none.
        let t = 1 | 1 << 6 | 1 << 12;
        assert_eq!(alone_in_row(t), 1 << 12);
        // Box 0: column 1; box 1: columns 3 and 5; box 2: column 8.
        assert_eq!(alone_in_box(0b100_101_010), 0b100_000_010);
        assert_eq!(triads_of(0b110 << 18 | 1 << 9), 1 << 18 | 1 << 9);
    }

    #[test]
    fn minirow_masks_match_the_tables() {
        for w in (0..1u32 << 27).step_by(9973) {
            assert_eq!(
                compress_minirows(triads_of(w)) as usize,
                super::super::tables::minirows(w)
            );
        }
    }

    #[test]
    fn counts() {
        for w in (0..1u32 << 27).step_by(7919) {
            let t = triads_of(w);
            assert_eq!(count_triads(t), t.count_ones());
            let c = fold_cols(w);
            let per_box = count_per_box(c);
            for k in 0..3 {
                assert_eq!(per_box >> (8 * k) & 0xff, (c >> (3 * k) & 7).count_ones());
            }
        }
    }

    #[test]
    fn configurations() {
        assert_eq!(CONFIGS[0x1ff] >> 8, 6);
        assert_eq!(CONFIGS[0o421] >> 8, 1);
        assert_eq!(CONFIGS[0o421] & 0x3f, 1);
        // Rows 0 and 1 both only in box 0: no configuration.
        assert_eq!(CONFIGS[0o711] >> 8, 0);
        for p in PERMS {
            assert_eq!(p.count_ones(), 3);
        }
    }
}
