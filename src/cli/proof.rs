//! `sudobench count --backend sat --proof DIR`: the flags' checks; the proofs themselves are
//! written by the library's [`Prover`](sudobench::solver::sat::prover::Prover).

use super::BackendArgs;
use anyhow::{bail, Result};
use std::path::Path;
use sudobench::solver::sat::prover::Prover;
use sudobench::solver::sat::Encoding;

/// A prover for `count --proof DIR`: needs `--backend sat` and a limit of at least 2.
pub fn prover(dir: &Path, backend: &BackendArgs, limit: u32, files: &[String]) -> Result<Prover> {
    if backend.backend != "sat" {
        bail!("--proof needs --backend sat (got {})", backend.backend);
    }
    if limit < 2 {
        bail!("--proof needs --limit 2 or more (uniqueness is only decided then)");
    }
    let encoding = backend.settings.encoding.unwrap_or(Encoding::DEFAULT);
    Ok(Prover::new(dir, encoding, files)?)
}
