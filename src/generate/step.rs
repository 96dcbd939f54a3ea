//! The generator's side of a climb: one step from a minimal puzzle to another (the `climb`
//! module describes the step and decides which steps to keep).

use super::climb::Steps;
use super::reduce::Clues;
use super::search::Searcher;
use super::Generator;
use crate::util::SplitMix64;

impl Steps for Generator {
    fn step(&mut self, clues: &Clues, rng: &mut SplitMix64) -> Option<(Clues, [u8; 81])> {
        step(self, clues, rng)
    }

    fn out_of_time(&self) -> bool {
        Generator::out_of_time(self)
    }
}

/// One step of a climb from `clues` (see the `climb` module).
fn step(
    generator: &mut Generator,
    clues: &Clues,
    rng: &mut SplitMix64,
) -> Option<(Clues, [u8; 81])> {
    let orbits = &generator.orbits;
    let (filled, empty): (Vec<usize>, Vec<usize>) =
        (0..orbits.len()).partition(|&o| clues.cells()[usize::from(orbits[o][0])] != 0);
    if filled.is_empty() || empty.is_empty() {
        return None;
    }
    let mut next = clues.clone();
    let mut filled = filled;
    for _ in 0..1 + rng.below(2) {
        if filled.is_empty() {
            break;
        }
        let o = filled.swap_remove(rng.below(filled.len() as u64) as usize);
        for &c in &orbits[o] {
            next.take(usize::from(c));
        }
    }
    let added = empty[rng.below(empty.len() as u64) as usize];
    for &c in &orbits[added] {
        let allowed = next.allowed(usize::from(c));
        if allowed == 0 {
            return None;
        }
        let mut k = rng.below(u64::from(allowed.count_ones()));
        let mut rest = allowed;
        while k > 0 {
            rest &= rest - 1;
            k -= 1;
        }
        next.put(usize::from(c), rest.trailing_zeros() as u8 + 1);
    }
    // Add clues of the first solution where the first two differ until one is left (each
    // round fills at least one cell, so at most 81 rounds).
    for _ in 0..81 {
        let board = Searcher::board(next.cells())?;
        match generator.searcher.count(board, 2) {
            0 => return None,
            1 => {
                let solution = *generator.searcher.first();
                generator.reduce(&mut next, &solution, rng);
                return generator.in_range(next.count()).then_some((next, solution));
            }
            _ => {
                let (first, second) = (*generator.searcher.first(), generator.searcher.second());
                let differ: Vec<usize> = (0..81).filter(|&c| first[c] != second[c]).collect();
                let cell = *differ.get(rng.below(differ.len() as u64) as usize)?;
                for &c in &generator.orbits[generator.orbit_of[cell]] {
                    let c = usize::from(c);
                    if next.cells()[c] == 0 {
                        next.put(c, first[c]);
                    }
                }
            }
        }
    }
    None
}
