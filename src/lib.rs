//! sudobench: Sudoku solvers behind one [`Solver`](solver::Solver) trait, checked against
//! each other and an independent verifier, and benchmarked on the standard public data sets.
//!
//! - [`grid`]: the grid, candidate sets and geometry tables;
//! - [`format`]: the streaming reader for puzzle files (plain, gzip, CSV, pencilmarks);
//! - [`solver`]: the trait, its outcome types, the backends and the registry;
//! - [`verify`]: the independent checker every answer passes through;
//! - [`runner`]: streams data sets through backends, cross-checks and times them;
//! - [`report`]: the runner's figures as a table, CSV, JSON lines, Markdown and an SVG chart;
//! - [`symmetry`]: validity-preserving grid symmetries and a seeded generator.

pub mod format;
pub mod grid;
pub mod report;
pub mod runner;
pub mod solver;
pub mod symmetry;
pub mod verify;

pub use grid::{Candidates, Grid, Puzzle};
pub use solver::{Count, Outcome, Solver, Stats};
