//! Hill climbing towards puzzles that make backtracking guess a lot.
//!
//! The difficulty of a puzzle is the mean number of guesses the `bitmask` backend makes to
//! decide it (count up to 2, as `bench` does) over `K` random validity-preserving symmetries of
//! it, as tdoku measures difficulty: one orientation alone says as much about the branching
//! order as about the puzzle. The same `K` symmetries are used for every puzzle of one climb,
//! so that two scores differ because the puzzles do.
//!
//! A step changes the current minimal puzzle: one or two clue orbits go, one empty orbit gets
//! random digits its peers allow; if that leaves several solutions, clues of the first one are
//! added where the first two differ until one solution is left (none: the step is dropped);
//! then the puzzle is reduced to a minimal one again. The step is kept when it scores at least
//! as high as the current puzzle (equal scores let the climb drift across plateaus), and the
//! climb ends when the goal is reached or the steps are spent.

use super::reduce::Clues;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::bitmask::Bitmask;
use crate::solver::Options;
use crate::symmetry::Symmetry;
use crate::util::SplitMix64;

/// A hardness goal for generated puzzles.
#[derive(Clone, Debug, PartialEq)]
pub struct Hardness {
    /// Keep a puzzle once its mean guesses reach this.
    pub min_guesses: f64,
    /// Random symmetries the guesses are averaged over (`K`).
    pub symmetries: u32,
    /// Changes tried per starting puzzle before a new random one is drawn (0: random minimal
    /// puzzles are kept or dropped as they come).
    pub steps: u32,
}

impl Default for Hardness {
    fn default() -> Hardness {
        Hardness {
            min_guesses: 0.0,
            symmetries: 16,
            steps: 10_000,
        }
    }
}

/// Scores puzzles and climbs.
pub(crate) struct Climber {
    goal: Hardness,
    bitmask: Bitmask,
    symmetries: Vec<Symmetry>,
}

impl Climber {
    /// A climber for `goal`; `Err` says what is wrong with the goal.
    pub(crate) fn new(goal: Hardness) -> Result<Climber, String> {
        if !(goal.min_guesses.is_finite() && goal.min_guesses >= 0.0) {
            return Err(format!(
                "the guess goal must be a number ≥ 0, not {}",
                goal.min_guesses
            ));
        }
        if !(1..=10_000).contains(&goal.symmetries) {
            return Err(format!(
                "symmetries must be 1..=10000, not {}",
                goal.symmetries
            ));
        }
        Ok(Climber {
            goal,
            bitmask: Bitmask::new(&Options::default()),
            symmetries: Vec::new(),
        })
    }

    /// Mean guesses of `bitmask` over the climb's symmetries of `cells`.
    fn score(&mut self, cells: &[u8; 81]) -> f64 {
        let puzzle = Puzzle::Grid(Grid::from_cells(*cells).unwrap_or_default());
        crate::grade::mean_guesses(&mut self.bitmask, &puzzle, &self.symmetries).0
    }

    /// Climbs from a minimal puzzle; the puzzle, its solution and its score once the goal is
    /// reached, `None` if the steps ran out first.
    pub(crate) fn climb(
        &mut self,
        generator: &mut impl Steps,
        clues: Clues,
        solution: [u8; 81],
        rng: &mut SplitMix64,
    ) -> Option<(Clues, [u8; 81], f64)> {
        self.symmetries = (0..self.goal.symmetries)
            .map(|_| Symmetry::random(rng))
            .collect();
        let mut score = self.score(clues.cells());
        let mut current = (clues, solution);
        for _ in 0..self.goal.steps {
            if score >= self.goal.min_guesses || generator.out_of_time() {
                break;
            }
            let Some(next) = generator.step(&current.0, rng) else {
                continue;
            };
            let s = self.score(next.0.cells());
            if s >= score {
                (current, score) = (next, s);
            }
        }
        (score >= self.goal.min_guesses).then_some((current.0, current.1, score))
    }
}

/// What a climb needs of the generator it serves: steps, and its clock.
pub(crate) trait Steps {
    /// One step from `clues`: a changed, unique, minimal puzzle within the clue range, with
    /// its solution (`None`: the step led nowhere). See the module documentation.
    fn step(&mut self, clues: &Clues, rng: &mut SplitMix64) -> Option<(Clues, [u8; 81])>;
    /// Whether the generator's time is spent.
    fn out_of_time(&self) -> bool;
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Generator};
    use super::*;
    use crate::solver::basic::Basic;
    use crate::solver::{Count, Limit, Solver};

    #[test]
    fn climbing_reaches_the_goal_with_unique_minimal_puzzles() {
        let goal = Hardness {
            min_guesses: 4.0,
            symmetries: 8,
            steps: 400,
        };
        let mut g = Generator::new(Config {
            hardness: Some(goal),
            ..Config::default()
        })
        .unwrap();
        let mut basic = Basic::new(&Options::default());
        for i in 0..2 {
            let p = g.generate(11, i).unwrap();
            assert!(p.guesses.unwrap() >= 4.0);
            let out = basic.solve(&p.puzzle.into(), Limit::TWO);
            assert_eq!(out.count(), Count::Exactly(1));
            assert_eq!(out.solution(), p.solution.as_ref());
            assert_eq!(
                crate::probe::redundant_clues(&mut basic, &p.puzzle),
                Some(vec![])
            );
        }
    }

    #[test]
    fn bad_goals_are_refused() {
        for goal in [
            Hardness {
                min_guesses: f64::NAN,
                ..Hardness::default()
            },
            Hardness {
                min_guesses: -1.0,
                ..Hardness::default()
            },
            Hardness {
                symmetries: 0,
                ..Hardness::default()
            },
        ] {
            assert!(Climber::new(goal).is_err());
        }
    }
}
