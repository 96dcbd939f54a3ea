//! `sudobench count --backend sat --proof DIR`: proofs of the answers `1` and `0`.
//!
//! For every puzzle the backend counts as unique or as having no solution, [`Prover::prove`]
//! writes `DIR/NAME.cnf` (the puzzle's formula, plus the clause blocking its solution when it
//! has one) and `DIR/NAME.drat` (varisat's DRAT refutation of it), where NAME is the input's
//! file name and line (`puzzles.txt-12`; `stdin` for `-`). Check one with
//! `rate DIR/NAME.cnf DIR/NAME.drat` (or any DRAT checker).

use super::BackendArgs;
use anyhow::{bail, Context, Result};
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use sudobench::format::Record;
use sudobench::grid::Grid;
use sudobench::solver::sat::proof::{prove, Proven};
use sudobench::solver::sat::Encoding;

/// Writes proofs of uniqueness and of unsolvability into one directory.
pub struct Prover {
    dir: PathBuf,
    encoding: Encoding,
}

impl Prover {
    /// Checks the flags (`--backend sat`, a limit of at least 2) and creates `dir`.
    pub fn new(dir: &Path, backend: &BackendArgs, limit: u32) -> Result<Prover> {
        if backend.backend != "sat" {
            bail!("--proof needs --backend sat (got {})", backend.backend);
        }
        if limit < 2 {
            bail!("--proof needs --limit 2 or more (uniqueness is only decided then)");
        }
        let encoding = backend.settings.encoding.unwrap_or(Encoding::DEFAULT);
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Prover {
            dir: dir.to_path_buf(),
            encoding,
        })
    }

    /// Proves that `record` has no solution other than `solution` (with `None`: no solution
    /// at all) and writes the two files.
    pub fn prove(&self, record: &Record, solution: Option<&Grid>) -> Result<(), String> {
        let source = match Path::new(&*record.source).file_name() {
            Some(name) if &*record.source != "-" => name.to_string_lossy().into_owned(),
            _ => "stdin".to_string(),
        };
        let stem = format!("{source}-{}", record.line);
        let cnf_path = self.dir.join(format!("{stem}.cnf"));
        let drat_path = self.dir.join(format!("{stem}.drat"));
        let create =
            |p: &Path| File::create(p).map_err(|e| format!("creating {}: {e}", p.display()));
        let mut cnf = create(&cnf_path)?;
        let mut drat = create(&drat_path)?;
        let result = prove(&record.puzzle, self.encoding, &mut cnf, &mut drat);
        let problem = match (result, solution) {
            (Ok(Proven::Unique(s)), Some(solution)) if &s == solution => return Ok(()),
            (Ok(Proven::NoSolution), None) => return Ok(()),
            (Ok(Proven::Unique(s)), Some(solution)) => {
                format!("proof run found solution {s}, the backend {solution}")
            }
            (Ok(Proven::Unique(s)), None) => format!("proof run found solution {s}"),
            (Ok(Proven::NoSolution), Some(_)) => "proof run found no solution".to_string(),
            (Ok(Proven::Multiple), _) => "proof run found a second solution".to_string(),
            (Err(e), _) => format!("proof: {e}"),
        };
        // No valid proof: leave no files that look like one.
        let _ = fs::remove_file(&cnf_path);
        let _ = fs::remove_file(&drat_path);
        Err(problem)
    }
}
