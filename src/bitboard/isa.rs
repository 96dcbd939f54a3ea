//! The instruction sets the search is compiled for. Each is a type whose value proves that the
//! CPU has what that build uses, so that a build cannot run where it would fault.

/// An instruction set the search can be compiled for; the value is the proof that this CPU
/// has it.
pub(crate) trait Isa: Copy {
    /// Whether AVX2 may be used.
    const AVX2: bool;
    /// Whether BMI2's PEXT is fast enough to replace table lookups in the update (a cycle or
    /// so, as on Intel since Haswell and AMD since Zen 3, not microcoded as on earlier AMD).
    const PEXT: bool = false;
}

/// A build with AVX2, BMI1, BMI2, POPCNT and LZCNT ([`Avx2`] or [`Avx2Pext`]): what the
/// search functions compiled with those features take as their proof.
pub(crate) trait Avx2Proof: Isa {}

/// The x86-64 baseline (or any other architecture).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Baseline;

impl Isa for Baseline {
    const AVX2: bool = false;
}

/// AVX2 with BMI1, BMI2, POPCNT and LZCNT; built only by [`Avx2::detect`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The proof that this CPU has the features, if it has them.
    pub(crate) fn detect() -> Option<Avx2> {
        crate::util::has_avx2().then_some(Avx2(()))
    }
}

impl Isa for Avx2 {
    const AVX2: bool = true;
}

impl Avx2Proof for Avx2 {}

/// [`Avx2`] on a CPU whose PEXT is fast; built only by [`Avx2Pext::detect`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Pext(());

impl Avx2Pext {
    /// The proof that this CPU has the features and a fast PEXT, if it has them.
    pub(crate) fn detect() -> Option<Avx2Pext> {
        Avx2::detect()
            .filter(|_| crate::util::has_fast_pext())
            .map(|_| Avx2Pext(()))
    }
}

impl Isa for Avx2Pext {
    const AVX2: bool = true;
    const PEXT: bool = true;
}

impl Avx2Proof for Avx2Pext {}

/// The minirow mask of a band (bit `3·r + k` set if row `r`, box `k` holds a cell): by PEXT
/// where it is fast, else by three table lookups. PEXT shortens the update's chain of
/// dependent loads (serg_benchmark 4% faster, 17-clue and Kaggle 8%, on a Zen 4).
#[inline(always)]
pub(crate) fn minirows<I: Isa>(band: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if I::PEXT {
        // Bit 9·r + 3·k of `any` is set if minirow (r, k) holds a cell.
        let any = band | band >> 1 | band >> 2;
        // SAFETY: `I::PEXT` is set only by `Avx2Pext`, which exists only on a CPU with BMI2
        // (`Avx2Pext::detect`).
        let m = unsafe { std::arch::x86_64::_pext_u32(any, 0o111_111_111) };
        // Below 512 already: the mask only tells the compiler, which then drops the bounds
        // check of the lookup that follows.
        return m as usize & 0x1ff;
    }
    super::tables::minirows(band)
}

#[cfg(test)]
mod tests {
    use super::super::Board;
    use super::*;
    use crate::test_puzzles::{Xorshift, HARD_SOLUTION};

    /// The grid written a band at a time with AVX2 is the one written bit by bit, for solved
    /// boards and for boards where only some cells are solved (0 elsewhere), where the CPU
    /// has AVX2.
    #[test]
    fn cells_by_avx2_match() {
        let Some(isa) = Avx2::detect() else {
            return;
        };
        let solution: crate::grid::Grid = HARD_SOLUTION.parse().expect("test grid");
        let mut rng = Xorshift(0x5eed);
        let (mut solved, mut open) = (0, 0);
        for round in 0..300 {
            let mut cells = *solution.cells();
            // Every other board keeps a third of the clues, too few to solve it.
            let emptied = if round % 2 == 0 { 1 } else { 2 };
            for c in cells.iter_mut() {
                if rng.below(3) < emptied {
                    *c = 0;
                }
            }
            let mut board = Board::from_clues(&cells, Baseline).expect("consistent clues");
            board.propagate().expect("clues of a solution");
            if board.is_solved() {
                solved += 1;
            } else {
                open += 1;
            }
            assert_eq!(board.cells_with(isa), board.cells());
        }
        assert!(solved > 0 && open > 0, "{solved} {open}");
    }

    /// PEXT and the tables agree on every band (where the CPU has a fast PEXT).
    #[test]
    fn minirows_by_pext_match_the_tables() {
        if Avx2Pext::detect().is_none() {
            return;
        }
        let mut band = 0x1234567u32;
        for _ in 0..100_000 {
            band ^= band << 13;
            band ^= band >> 17;
            band ^= band << 5;
            let b = band & super::super::tables::BAND;
            assert_eq!(
                minirows::<Avx2Pext>(b),
                super::super::tables::minirows(b),
                "{b:#x}"
            );
        }
    }
}
