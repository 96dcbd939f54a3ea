//! `sat-batsat`: the SAT backend over [batsat](https://crates.io/crates/batsat), a pure-Rust
//! CDCL solver in the minisat lineage. It shares the encodings and the counting loop with
//! `sat` ([`super::engine`]); the adapter is [`crate::sat_engine::batsat`].
//!
//! Each puzzle gets a fresh batsat solver. Its variables are created with the phase "true",
//! so that a decision places a digit (varisat needs the formula negated for that). batsat
//! counts conflicts and decisions; the backend reports them per puzzle in
//! [`Stats`](crate::solver::Stats) (`guesses` stays unset: a decision is not a guess in the
//! sense of the search backends, whose guesses follow full propagation). No DRAT proofs are
//! written for this backend; `count --proof` uses varisat (`--backend sat`).

use super::engine::SatBackend;

pub use crate::sat_engine::batsat::{Batsat, BatsatSession, Quiet};

/// The backend `sat-batsat`.
pub type SatBatsat = SatBackend<Batsat>;
