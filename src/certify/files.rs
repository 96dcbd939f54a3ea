//! Where kept certificates and proofs go: one directory per run, one file name per record.
//!
//! `count --backend sat --proof DIR` writes `DIR/NAME-LINE.cnf` and `DIR/NAME-LINE.drat`;
//! `certify --keep DIR` writes the same two files for a count of 0 or 1 and `NAME-LINE.sols`
//! (the two solutions) for 2+. NAME is the input's file name (`puzzles.txt`; `stdin` for
//! `-`); inputs that share a file name get their whole path instead, every character but
//! letters, digits, `.`, `-` and `_` made `_` (`d1/x.txt` → `d1_x.txt`), and a name still
//! shared gets `~K`, K the input's position on the command line. A directory that already
//! holds `.cnf`, `.drat` or `.sols` files is refused, and no file is ever overwritten: each is
//! written under a temporary name (`.NAME-LINE.EXT.tmp`) and then linked to its final name,
//! which fails if that name exists, so an interrupted run leaves no half-written file under a
//! final name. Check a proof with `rate DIR/NAME-LINE.cnf DIR/NAME-LINE.drat` (or any DRAT
//! checker).

use crate::format::Record;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Write};
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
        "{dir} already holds proof files ({file}): give an empty or new directory \
         (proofs are never overwritten)"
    )]
    NotEmpty {
        /// The directory.
        dir: PathBuf,
        /// One of the proof files in it.
        file: PathBuf,
    },
}

/// A directory of certificate files for one run.
pub struct ProofDir {
    dir: PathBuf,
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

impl ProofDir {
    /// Creates `dir` (if needed) and checks that it holds no certificate files yet. `files`
    /// are the run's inputs as given (they name the files).
    pub fn new(dir: &Path, files: &[String]) -> Result<ProofDir, ProofDirError> {
        let io = |source| ProofDirError::Io {
            dir: dir.to_path_buf(),
            source,
        };
        fs::create_dir_all(dir).map_err(io)?;
        for entry in fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if path
                .extension()
                .is_some_and(|e| e == "cnf" || e == "drat" || e == "sols")
            {
                return Err(ProofDirError::NotEmpty {
                    dir: dir.to_path_buf(),
                    file: path,
                });
            }
        }
        Ok(ProofDir {
            dir: dir.to_path_buf(),
            names: input_names(files),
        })
    }

    /// `NAME-LINE` for a record.
    pub fn stem(&self, record: &Record) -> String {
        let name = match self.names.get(&*record.source) {
            Some(name) => name.clone(),
            None => file_name(&record.source),
        };
        format!("{name}-{}", record.line)
    }

    /// Writes `contents` to `DIR/NAME` through a temporary file; an error if `NAME` exists.
    pub fn write(&self, name: &str, contents: &[u8]) -> Result<PathBuf, String> {
        let path = self.dir.join(name);
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let fail = |e: io::Error| format!("creating proof file {}: {e}", path.display());
        let written = File::create(&tmp).and_then(|mut f| {
            f.write_all(contents)?;
            f.flush()
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(fail(e));
        }
        // A hard link, unlike a rename, never replaces an existing file.
        let linked = fs::hard_link(&tmp, &path);
        let _ = fs::remove_file(&tmp);
        linked.map_err(fail)?;
        Ok(path)
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
