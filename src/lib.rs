//! sudobench: Sudoku solvers behind one [`Solver`] trait, checked against
//! each other and an independent verifier, and benchmarked on the standard public data sets.
//!
//! - [`grid`]: the grid, candidate sets and geometry tables;
//! - [`format`](mod@format): the streaming reader for puzzle files (plain, gzip, CSV, pencilmarks);
//! - [`solver`]: the trait, its outcome types, the backends and the registry;
//! - [`verify`]: the independent checker every answer passes through;
//! - [`judge`]: decides which answers to a puzzle are wrong, by evidence, never by majority;
//! - [`runner`]: streams data sets through backends, cross-checks and times them;
//! - [`report`]: the runner's figures as a table, CSV, JSON lines, Markdown and an SVG chart;
//! - [`symmetry`]: validity-preserving grid symmetries and a seeded generator;
//! - [`generate`]: random minimal puzzles with one solution, symmetric patterns, hard sets;
//! - [`grade`]: the hardest deduction a puzzle needs and its backtracking difficulty;
//! - [`probe`]: the one call through which `generate`, `grade` and `verify --minimal` ask a
//!   backend (they run on the runner's pipeline, [`runner::pipeline::map_ordered`]).
//!
//! # Benchmarking your own backend
//!
//! A third-party crate implements [`Solver`] and hands it to the [`runner`] beside built-in
//! backends; every answer is verified and cross-checked, and the report has its row. This
//! complete (if naive) backend fills the cells in order, trying each digit its row, column and
//! box allow:
//!
//! ```
//! use sudobench::runner::{Backend, Config, NoObserver, Runner, Sample};
//! use sudobench::solver::{Clock, Limit, Options, Outcome, Solver, Stats};
//! use sudobench::{Grid, Puzzle};
//!
//! struct InOrder;
//!
//! /// Whether digit `d` can go in `cell`: not already in its row, column or box.
//! fn allowed(cells: &[u8; 81], cell: usize, d: u8) -> bool {
//!     let (r, c) = (cell / 9, cell % 9);
//!     (0..9).all(|k| {
//!         let others = [r * 9 + k, k * 9 + c, (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3];
//!         others.iter().all(|&o| o == cell || cells[o] != d)
//!     })
//! }
//!
//! fn fill(cells: &mut [u8; 81], limit: usize, found: &mut Vec<Grid>, stats: &mut Stats) {
//!     let Some(cell) = cells.iter().position(|&v| v == 0) else {
//!         found.extend(Grid::from_cells(*cells));
//!         return;
//!     };
//!     for d in 1..=9u8 {
//!         if found.len() < limit && allowed(cells, cell, d) {
//!             stats.add_guess();
//!             cells[cell] = d;
//!             fill(cells, limit, found, stats);
//!             cells[cell] = 0;
//!         }
//!     }
//! }
//!
//! impl Solver for InOrder {
//!     fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
//!         // Clue grids only; pencilmark puzzles are left undecided.
//!         let Puzzle::Grid(grid) = puzzle else {
//!             return Outcome::unknown(Stats::default());
//!         };
//!         let mut cells = *grid.cells();
//!         let (mut found, mut stats) = (Vec::new(), Stats::GUESSING);
//!         let clues_agree = (0..81).all(|i| cells[i] == 0 || allowed(&cells, i, cells[i]));
//!         if clues_agree {
//!             fill(&mut cells, limit.get() as usize, &mut found, &mut stats);
//!         }
//!         // The count, the first solution and, for two, the second as the witness.
//!         let (first, second) = (found.first().copied(), found.get(1).copied());
//!         Outcome::searched(found.len() as u32, limit, false, first, second, stats)
//!     }
//! }
//!
//! // Side by side with the built-in `bitmask`, on 200 puzzles drawn from a bundled set. A
//! // backend of your own is named and said to be complete (or not) here: the registry knows
//! // only the built-in ones.
//! let backends = vec![
//!     Backend::new("in-order", true, || InOrder),
//!     Backend::builtin("bitmask", &Options::default()).unwrap(),
//! ];
//! let config = Config {
//!     sample: Some(Sample { size: 200, seed: 7 }),
//!     // Every backend is timed by the same clock: CPU time of what solves (the default), or
//!     // `Clock::Wall`.
//!     clock: Clock::Cpu,
//!     ..Config::default()
//! };
//! let runner = Runner::new(config, backends);
//! let report = runner
//!     .run_path("data/puzzles0_kaggle.csv.gz", &mut NoObserver)
//!     .unwrap();
//! assert!(report.mismatches.is_empty());
//! for b in &report.backends {
//!     assert_eq!(b.mismatches, 0);
//!     println!("{:<10} {:>10.0} puzzles/s", b.name, b.puzzles_per_sec());
//! }
//! ```
//!
//! Stability: the [`Solver`] trait, [`Grid`], [`Outcome`], the [`judge`] and the [`runner`] entry points
//! (`Runner`, `Config`, `Backend`, the report structs) are the supported surface; backend
//! modules' own public items (tables, helper functions) are for study and may change.

pub mod backends;
mod bitboard;
pub mod certify;
pub mod deadline;
pub mod exact_cover;
pub mod format;
pub mod generate;
pub mod grade;
pub mod grid;
pub mod judge;
pub mod order;
pub mod probe;
pub mod puzzle;
pub mod report;
pub mod runner;
pub mod sat_engine;
pub mod solver;
pub mod symmetry;
#[doc(hidden)]
pub mod test_puzzles;
pub mod util;
pub mod verify;
pub mod xc;

pub use grid::{Candidates, Grid};
pub use puzzle::{Puzzle, Solution};
pub use solver::{Count, Limit, Outcome, Solver, Stats};
