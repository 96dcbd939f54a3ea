//! The board of a grid's clues, built for all clues at once without a branch per cell.
//!
//! Placing the clues one by one ([`Board::place_cell`]) branches on every cell (empty or not),
//! which the CPU cannot predict: on Kaggle, where the whole search is a few hundred
//! instructions, that branch alone cost about 40 mispredictions per puzzle. Here the cells of
//! each digit come out of byte compares (SSE2 on x86-64), and each digit-band word is cleared
//! of the rows and boxes its clues occupy, all word by word without a branch. The result is
//! the board that placing the clues one by one builds, and it is refused exactly when that
//! would fail (two equal clues in one row or box; equal clues in one column of two bands are
//! left, as there, to the propagation).

use super::isa::Isa;
use super::tables::BAND;
use super::{pad, Board, Contradiction, Step, STALE};

/// The cells of each box of a band (box `k` holds columns `3k..3k+3` of its three rows).
const BOX: [u32; 3] = [0x1c0e07, 0x1c0e07 << 3, 0x1c0e07 << 6];

/// The cells of each row of a band.
const ROW: [u32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];

/// Word `3·d + b`: the cells of band `b` holding digit `d + 1` (word 27 is 0), in the code of
/// instruction set `I`: byte compares of a band at a time with AVX2, of half a band with SSE2.
#[inline(always)]
fn digit_words<I: Isa>(cells: &[u8; 81]) -> [u32; 28] {
    let mut words = [0u32; 28];
    #[cfg(target_arch = "x86_64")]
    if I::AVX2 {
        use std::arch::x86_64::{
            __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
        };
        let mut padded = [0u8; 96];
        padded[..81].copy_from_slice(cells);
        for b in 0..3 {
            // SAFETY: an `Isa` with `AVX2` set exists only once the CPU was found to have
            // AVX2 (`Avx2::detect`). The load reads bytes 27b..27b+32 (at most 54..86) of the
            // 96-byte `padded`.
            unsafe {
                let band = _mm256_loadu_si256(padded.as_ptr().add(27 * b) as *const __m256i);
                for d in 0..9 {
                    let v = _mm256_set1_epi8(d as i8 + 1);
                    let hits = _mm256_movemask_epi8(_mm256_cmpeq_epi8(band, v)) as u32;
                    words[3 * d + b] = hits & BAND;
                }
            }
        }
        return words;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        let mut padded = [0u8; 96];
        padded[..81].copy_from_slice(cells);
        for b in 0..3 {
            // SAFETY: SSE2 is part of the x86-64 baseline. The loads read bytes 27b..27b+32
            // (at most 54..86) of the 96-byte `padded`.
            unsafe {
                let lo = _mm_loadu_si128(padded.as_ptr().add(27 * b) as *const __m128i);
                let hi = _mm_loadu_si128(padded.as_ptr().add(27 * b + 16) as *const __m128i);
                for d in 0..9 {
                    let v = _mm_set1_epi8(d as i8 + 1);
                    let low = _mm_movemask_epi8(_mm_cmpeq_epi8(lo, v)) as u32;
                    let high = _mm_movemask_epi8(_mm_cmpeq_epi8(hi, v)) as u32;
                    words[3 * d + b] = (low | high << 16) & BAND;
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (cell, &v) in cells.iter().enumerate() {
        if let Some(d) = (v as usize).checked_sub(1).filter(|&d| d < 9) {
            words[3 * d + cell / 27] |= 1 << (cell % 27);
        }
    }
    words
}

/// All of `mask` if `x` is not 0, else 0 (without a branch).
#[inline(always)]
fn if_any(x: u32, mask: u32) -> u32 {
    0u32.wrapping_sub((x != 0) as u32) & mask
}

impl Board {
    /// The board of the clues `cells` (0 for empty, else 1..=9), nothing propagated yet: what
    /// [`Board::empty`] and [`Board::place_cell`] for every clue in turn give, or `Err` where
    /// one of those placements fails. In the code of instruction set `I`: the search builds
    /// the board inside its own build (on serg_benchmark, where the whole solve takes 16k
    /// instructions, building it there rather than in the baseline saved 480 of them).
    #[inline(always)]
    pub(crate) fn from_clues<I: Isa>(cells: &[u8; 81], _isa: I) -> Step<Board> {
        let words = digit_words::<I>(cells);
        let mut solved = [0u32; 3];
        for d in 0..9 {
            for (b, s) in solved.iter_mut().enumerate() {
                *s |= words[3 * d + b];
            }
        }
        // Lane-wise over the 28 words (the padding word is 0 and stays so), so that the
        // compiler does several words per instruction.
        let mut free = [0u32; 28];
        for (i, f) in free[..27].iter_mut().enumerate() {
            *f = BAND & !solved[i % 3];
        }
        let mut cand = [0u32; 28];
        let mut clashes = [0u32; 28];
        for i in 0..28 {
            let x = words[i];
            let mut taken = 0u32;
            let mut clash = 0u32;
            for k in 0..3 {
                let (row, bx) = (x & ROW[k], x & BOX[k]);
                // Two clues of a digit in one row or box.
                clash |= row & row.wrapping_sub(1) | bx & bx.wrapping_sub(1);
                taken |= if_any(row, ROW[k]) | if_any(bx, BOX[k]);
            }
            clashes[i] = clash;
            // Free cells outside the rows and boxes of the digit's clues, and the clues.
            cand[i] = free[i] & !taken | x;
        }
        let clash = clashes.iter().fold(0, |a, &c| a | c);
        if clash != 0 {
            return Err(Contradiction);
        }
        Ok(Board {
            cand,
            seen: pad(STALE),
            unsolved: [BAND & !solved[0], BAND & !solved[1], BAND & !solved[2]],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::isa::{Avx2, Baseline};
    use super::*;

    /// One by one, as the generator does.
    fn placed(cells: &[u8; 81]) -> Step<Board> {
        let mut board = Board::empty();
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                board.place_cell(v as usize - 1, cell)?;
            }
        }
        Ok(board)
    }

    /// Builds the board of `cells` in every build this CPU has, checks that each is the one
    /// placing the clues one by one gives, and returns it.
    fn assert_same(cells: &[u8; 81]) -> Step<Board> {
        let expected = placed(cells);
        assert_eq!(Board::from_clues(cells, Baseline), expected, "{cells:?}");
        if let Some(isa) = Avx2::detect() {
            assert_eq!(Board::from_clues(cells, isa), expected, "{cells:?}");
        }
        expected
    }

    /// Bundled puzzles and random clue sets (many with clashing clues) give the same board
    /// both ways.
    #[test]
    fn same_board_as_placing_one_by_one() {
        let mut n = 0;
        for set in [
            "data/puzzles2_17_clue.gz",
            "data/puzzles7_serg_benchmark.gz",
            "data/puzzles0_kaggle.csv.gz",
        ] {
            for rec in crate::format::Reader::open(set)
                .expect("bundled data set")
                .take(300)
            {
                if let crate::puzzle::Puzzle::Grid(g) = rec.expect("bundled record").puzzle {
                    assert!(assert_same(g.cells()).is_ok());
                    n += 1;
                }
            }
        }
        assert_eq!(n, 900);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut ok, mut clashing) = (0, 0);
        for _ in 0..3000 {
            let mut cells = [0u8; 81];
            for _ in 0..next(30) {
                cells[next(81) as usize] = 1 + next(9) as u8;
            }
            let a = assert_same(&cells);
            if a.is_ok() {
                ok += 1;
            } else {
                clashing += 1;
            }
        }
        assert!(ok > 100 && clashing > 100, "{ok} {clashing}");
    }
}
