//! `sat-cadical`: the SAT backend over CaDiCaL (the [cadical](https://crates.io/crates/cadical)
//! crate, which compiles CaDiCaL's C++ with `cc`). It shares the encodings and the counting
//! loop with `sat` ([`super::engine`]); the adapter is [`crate::sat_engine::cadical`]. Behind the cargo feature
//! `cadical` (on by default): `cargo build --no-default-features` needs no C++ compiler.
//!
//! Each puzzle gets a fresh CaDiCaL solver. CaDiCaL's default phase is "true", so a decision
//! places a digit without negating the formula. The crate exposes no conflict or decision
//! counters and no proof output, so this backend reports neither and writes no DRAT proofs
//! (`count --proof` uses varisat, `--backend sat`).

use super::engine::SatBackend;

pub use crate::sat_engine::cadical::{Cadical, CadicalSession};

/// The backend `sat-cadical`.
pub type SatCadical = SatBackend<Cadical>;
