//! The SAT solvers the suite drives, behind two small traits: an [`Engine`] hands out a
//! [`Session`] per formula (a fresh solver, or a reused one), and a session adds clauses,
//! solves (under assumptions, if asked) and reads the model. varisat ([`Varisat`]), batsat
//! ([`batsat::Batsat`]) and CaDiCaL ([`cadical::Cadical`], with the `cadical` feature) take
//! part this way. Both the Sudoku backends (`crate::solver::sat`) and exact cover
//! (`crate::xc`) count models through these traits, so the adapters sit here, below both.

pub mod batsat;
#[cfg(feature = "cadical")]
pub mod cadical;
mod traits;
mod varisat;

pub use self::varisat::{Varisat, VarisatSession};
pub use traits::{Engine, Session};
