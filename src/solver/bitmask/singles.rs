//! The singles-only fixpoint: naked and hidden singles, nothing else.
//!
//! Exposed because it is the yardstick of "how far does the simplest logic get": many
//! published puzzles are rated by whether singles alone solve them. It works on plain
//! per-cell masks for clarity; the solver itself uses the band words of [`crate::bitboard`].

use crate::grid::{Candidates, CELLS, PEERS, UNITS};

/// The result of [`singles_fixpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SinglesFixpoint {
    /// The candidates when nothing more follows from singles (or when the contradiction was
    /// found, in which case they are only partly reduced).
    pub candidates: Candidates,
    /// Whether the position was found to have no solution (a cell with no candidate or a
    /// unit where some digit has no place).
    pub contradiction: bool,
}

impl SinglesFixpoint {
    /// Number of cells with more than one candidate left.
    pub fn undecided(&self) -> usize {
        self.candidates
            .masks()
            .iter()
            .filter(|m| m.count_ones() > 1)
            .count()
    }
}

/// Applies naked singles (a cell with one candidate removes it from its 20 peers) and hidden
/// singles (a digit with one place in a row, column or box goes there) until neither changes
/// anything or a contradiction appears.
pub fn singles_fixpoint(start: &Candidates) -> SinglesFixpoint {
    let mut masks = *start.masks();
    let contradiction = run(&mut masks).is_err();
    SinglesFixpoint {
        // Only bits of the input are ever cleared, so the masks stay 9-bit.
        candidates: Candidates::from_masks(masks).unwrap_or(*start),
        contradiction,
    }
}

fn run(masks: &mut [u16; CELLS]) -> Result<(), ()> {
    let mut spread = [false; CELLS];
    loop {
        let mut changed = false;
        for cell in 0..CELLS {
            let m = masks[cell];
            if m == 0 {
                return Err(());
            }
            if m.count_ones() == 1 && !spread[cell] {
                spread[cell] = true;
                for &p in &PEERS[cell] {
                    let p = p as usize;
                    if masks[p] & m != 0 {
                        masks[p] &= !m;
                        changed = true;
                        if masks[p] == 0 {
                            return Err(());
                        }
                    }
                }
            }
        }
        for unit in &UNITS {
            for d in 0..9 {
                let bit = 1u16 << d;
                let mut places = unit.iter().filter(|&&c| masks[c as usize] & bit != 0);
                match (places.next(), places.next()) {
                    (None, _) => return Err(()),
                    (Some(&c), None) if masks[c as usize] != bit => {
                        masks[c as usize] = bit;
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::test_puzzles::{EASY, EASY_SOLUTION, HARD};

    fn fixpoint(text: &str) -> SinglesFixpoint {
        let grid: Grid = text.parse().expect("test grid");
        singles_fixpoint(&Candidates::from_grid(&grid))
    }

    #[test]
    fn singles_alone_solve_the_easy_puzzle() {
        let r = fixpoint(EASY);
        assert!(!r.contradiction);
        assert_eq!(r.undecided(), 0);
        assert_eq!(r.candidates.singles().to_line(), EASY_SOLUTION);
    }

    #[test]
    fn singles_stall_on_the_hard_puzzle_with_60_cells_left() {
        let r = fixpoint(HARD);
        assert!(!r.contradiction);
        assert_eq!(r.undecided(), 60);
    }

    #[test]
    fn singles_find_contradictions() {
        // Two 5s in the first row.
        let r = fixpoint(
            "550000000000000000000000000000000000000000000000000000000000000000000000000000000",
        );
        assert!(r.contradiction);
        // A cell with no candidate at all.
        let mut masks = [0x1ffu16; CELLS];
        masks[40] = 0;
        let c = Candidates::from_masks(masks).expect("masks");
        assert!(singles_fixpoint(&c).contradiction);
    }
}
