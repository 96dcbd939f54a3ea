//! A directory of proofs for a whole run (`sudobench count --backend sat --proof DIR`): for
//! every puzzle counted as unique or as having no solution, [`Prover::prove`]
//! writes `DIR/NAME-LINE.cnf` (the puzzle's formula, plus the clause blocking its solution
//! when it has one) and `DIR/NAME-LINE.drat` (varisat's DRAT refutation of it). NAME is the
//! input's file name (`puzzles.txt`; `stdin` for `-`); inputs that share a file name get
//! their whole path instead, every character but letters, digits, `.`, `-` and `_` made `_`
//! (`d1/x.txt` → `d1_x.txt`), and a name still shared gets `~K`, K the input's position on
//! the command line. A directory that already holds `.cnf` or `.drat` files is refused, and
//! no proof file is ever overwritten. Check one with `rate DIR/NAME-LINE.cnf
//! DIR/NAME-LINE.drat` (or any DRAT checker).

use super::proof::{prove, Proven};
use super::Encoding;
use crate::format::Record;
use crate::grid::Grid;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

/// Why a proof directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProofDirError {
    /// It could not be created or read (the cause is the error's source).
    #[error("{}: cannot be used as the proof directory (give a new or empty directory)", dir.display())]
    Io {
        /// The directory.
        dir: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// It already holds proofs, which would be mixed with the new ones.
    #[error(
        "{dir} already holds proof files ({file}): give --proof an empty or new directory \
         (proofs are never overwritten)"
    )]
    NotEmpty {
        /// The directory.
        dir: PathBuf,
        /// One of the proof files in it.
        file: PathBuf,
    },
}

/// Writes proofs of uniqueness and of unsolvability into one directory.
pub struct Prover {
    dir: PathBuf,
    encoding: Encoding,
    /// The NAME of every input, by the path as given.
    names: HashMap<String, String>,
}

/// The file name of an input (`stdin` for `-`).
fn file_name(input: &str) -> String {
    match Path::new(input).file_name() {
        _ if input == "-" => "stdin".to_string(),
        Some(name) => name.to_string_lossy().into_owned(),
        None => sanitized(input),
    }
}

/// A whole path as one file name: leading `.` and `/` dropped, every character but ASCII
/// letters, digits, `.`, `-` and `_` replaced by `_`.
fn sanitized(input: &str) -> String {
    let name: String = input
        .trim_start_matches(['.', '/'])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "input".to_string()
    } else {
        name
    }
}

/// The NAME of every input (see the module docs): distinct for distinct inputs.
fn input_names(files: &[String]) -> HashMap<String, String> {
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    // Distinct inputs with their 1-based position of first appearance.
    let mut inputs: Vec<(usize, &str)> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        if !inputs.iter().any(|&(_, g)| g == f) {
            inputs.push((i + 1, f));
        }
    }
    let shared = |names: &[String], name: &str| names.iter().filter(|n| *n == name).count() > 1;
    let base: Vec<String> = inputs.iter().map(|&(_, f)| file_name(f)).collect();
    let long: Vec<String> = inputs
        .iter()
        .zip(&base)
        .map(|(&(_, f), b)| {
            if shared(&base, b) {
                sanitized(f)
            } else {
                b.clone()
            }
        })
        .collect();
    inputs
        .iter()
        .zip(&long)
        .map(|(&(k, f), name)| {
            let name = if shared(&long, name) {
                format!("{name}~{k}")
            } else {
                name.clone()
            };
            (f.to_string(), name)
        })
        .collect()
}

impl Prover {
    /// Creates `dir` (if needed) and checks that it holds no proofs yet. `files` are the
    /// run's inputs as given (they name the proofs), `encoding` the formula's.
    pub fn new(dir: &Path, encoding: Encoding, files: &[String]) -> Result<Prover, ProofDirError> {
        let io = |source| ProofDirError::Io {
            dir: dir.to_path_buf(),
            source,
        };
        fs::create_dir_all(dir).map_err(io)?;
        for entry in fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if path.extension().is_some_and(|e| e == "cnf" || e == "drat") {
                return Err(ProofDirError::NotEmpty {
                    dir: dir.to_path_buf(),
                    file: path,
                });
            }
        }
        Ok(Prover {
            dir: dir.to_path_buf(),
            encoding,
            names: input_names(files),
        })
    }

    /// Proves that `record` has no solution other than `solution` (with `None`: no solution
    /// at all) and writes the two files.
    pub fn prove(&self, record: &Record, solution: Option<&Grid>) -> Result<(), String> {
        let name = match self.names.get(&*record.source) {
            Some(name) => name.clone(),
            None => file_name(&record.source),
        };
        let stem = format!("{name}-{}", record.line);
        let cnf_path = self.dir.join(format!("{stem}.cnf"));
        let drat_path = self.dir.join(format!("{stem}.drat"));
        // `create_new`: a name taken (the same input given twice) is an error, never a
        // silent overwrite.
        let create = |p: &Path| {
            File::create_new(p).map_err(|e| format!("creating proof file {}: {e}", p.display()))
        };
        let mut cnf = create(&cnf_path)?;
        let mut drat = match create(&drat_path) {
            Ok(f) => f,
            Err(e) => {
                drop(cnf);
                let _ = fs::remove_file(&cnf_path);
                return Err(e);
            }
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[&str]) -> Vec<String> {
        let files: Vec<String> = files.iter().map(|f| f.to_string()).collect();
        let map = input_names(&files);
        files.iter().map(|f| map[f].clone()).collect()
    }

    #[test]
    fn input_names_are_short_and_distinct() {
        assert_eq!(
            names(&["a/x.txt", "b/y.gz", "-"]),
            ["x.txt", "y.gz", "stdin"]
        );
        assert_eq!(input_names(&[])["-"], "stdin");
        assert_eq!(
            names(&["d1/x.txt", "./d2/x.txt", "/tmp/d 3/x.txt", "y.txt"]),
            ["d1_x.txt", "d2_x.txt", "tmp_d_3_x.txt", "y.txt"]
        );
        // Still shared after that: the position on the command line tells them apart.
        assert_eq!(
            names(&[
                "d1/x.txt",
                "d2/x.txt",
                "d1_x.txt",
                "d1_x.txt",
                "../d1/x.txt"
            ]),
            [
                "d1_x.txt~1",
                "d2_x.txt",
                "d1_x.txt~3",
                "d1_x.txt~3",
                "d1_x.txt~5"
            ]
        );
        assert_eq!(names(&["..", "/"]), ["input~1", "input~2"]);
    }
}
