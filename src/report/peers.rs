//! Peer solvers for `sudobench report --peers DIR`: the shared libraries `scripts/peers.sh`
//! builds from a tdoku checkout (tdoku, kudoku, fsss, JSolve, …), listed in `DIR/peers.txt`
//! one per line as `NAME LIBRARY SYMBOL` (blank lines and `#` comments allowed). Each becomes a
//! `lib:LIBRARY:SYMBOL` backend in the same run as the built-in ones, and its rows in the
//! report are labelled `NAME (lib)` rather than with the library's path, which says nothing
//! to a reader and differs between machines.

use crate::runner::SetReport;
use std::path::{Path, PathBuf};

/// The list file inside a peers directory.
pub const PEERS_FILE: &str = "peers.txt";

/// A peer: a function with tdoku's C signature in a shared library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    /// The name shown in the report (`tdoku`, `kudoku`, …).
    pub name: String,
    /// The shared library.
    pub library: PathBuf,
    /// The function's symbol.
    pub symbol: String,
}

impl Peer {
    /// The backend name that runs it (`lib:LIBRARY:SYMBOL`).
    pub fn backend(&self) -> String {
        format!("lib:{}:{}", self.library.display(), self.symbol)
    }

    /// Its label in the report.
    pub fn label(&self) -> String {
        format!("{} (lib)", self.name)
    }
}

/// Why a peers directory could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PeersError {
    /// The list could not be read.
    #[error("cannot read {path}: {source} (scripts/peers.sh writes it)")]
    Read {
        /// The list file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not `NAME LIBRARY SYMBOL`.
    #[error("{path}:{line}: expected `NAME LIBRARY SYMBOL`, found {text:?}")]
    Malformed {
        /// The list file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// Two lines give the same name.
    #[error("{path}:{line}: the name {name:?} is listed twice")]
    Repeated {
        /// The list file.
        path: PathBuf,
        /// 1-based line number of the second one.
        line: usize,
        /// The name.
        name: String,
    },
}

/// The peers listed in `dir/peers.txt` whose library file exists (a relative library path is
/// taken from `dir`). A missing library is left out, so a list naming an optional peer that
/// was not built still works.
pub fn read_peers(dir: &Path) -> Result<Vec<Peer>, PeersError> {
    let path = dir.join(PEERS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| PeersError::Read {
        path: path.clone(),
        source,
    })?;
    let mut peers: Vec<Peer> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, library, symbol] = fields[..] else {
            return Err(PeersError::Malformed {
                path,
                line: k + 1,
                text: line.to_string(),
            });
        };
        if names.contains(&name) {
            return Err(PeersError::Repeated {
                path,
                line: k + 1,
                name: name.to_string(),
            });
        }
        names.push(name);
        let library = dir.join(library);
        if library.is_file() {
            peers.push(Peer {
                name: name.to_string(),
                library,
                symbol: symbol.to_string(),
            });
        }
    }
    Ok(peers)
}

/// Renames the peers' backends in `sets` from `lib:LIBRARY:SYMBOL` to their labels.
pub fn relabel(sets: &mut [SetReport], peers: &[Peer]) {
    for set in sets {
        for b in &mut set.backends {
            if let Some(peer) = peers.iter().find(|p| p.backend() == b.name) {
                b.name = peer.label();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_list_and_skips_missing_libraries() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("libone.so"), b"").expect("write");
        std::fs::write(
            dir.path().join(PEERS_FILE),
            "# built by scripts/peers.sh\none libone.so Solve\n\ntwo libtwo.so Solve2\n",
        )
        .expect("write");
        let peers = read_peers(dir.path()).expect("list");
        assert_eq!(
            peers,
            [Peer {
                name: "one".into(),
                library: dir.path().join("libone.so"),
                symbol: "Solve".into(),
            }]
        );
        assert_eq!(peers[0].label(), "one (lib)");
        assert!(peers[0].backend().ends_with("libone.so:Solve"));
    }

    #[test]
    fn malformed_and_repeated_lines_name_file_and_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        let list = dir.path().join(PEERS_FILE);
        std::fs::write(&list, "one a.so S\ntwo b.so\n").expect("write");
        let e = read_peers(dir.path()).expect_err("malformed").to_string();
        assert!(e.contains(&format!("{}:2:", list.display())), "{e}");
        std::fs::write(&list, "one a.so S\none b.so T\n").expect("write");
        let e = read_peers(dir.path()).expect_err("repeated").to_string();
        assert!(e.contains(":2:") && e.contains("twice"), "{e}");
        let e = read_peers(&dir.path().join("nowhere")).expect_err("missing");
        assert!(e.to_string().contains("peers.txt"), "{e}");
    }
}
