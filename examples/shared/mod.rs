//! What the measuring examples share: the thread's CPU clock and the clue grids of a data set.
#![allow(dead_code)]

use sudobench::format::Reader;
use sudobench::grid::Grid;
use sudobench::puzzle::Puzzle;

/// CPU time of this thread in seconds. Unlike wall-clock time it does not count the time the
/// thread spends waiting for a core, which on a loaded shared machine is most of the noise.
pub fn cpu_seconds() -> f64 {
    sudobench::util::thread_cpu_time().as_secs_f64()
}

/// The first `take` clue grids of a data set (0: all; pencilmark records are passed over).
/// `path` is taken as given when it exists, else relative to the crate's root (as
/// `data/...`). Panics on a file that does not open or a malformed record: an example
/// measures bundled sets.
pub fn grids(path: &str, take: usize) -> Vec<Grid> {
    let path = if std::path::Path::new(path).exists() {
        path.to_string()
    } else {
        format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
    };
    Reader::open(&path)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|r| match r.unwrap_or_else(|e| panic!("{e}")).puzzle {
            Puzzle::Grid(g) => Some(g),
            Puzzle::Candidates(_) | Puzzle::Order(_) => None,
        })
        .take(if take == 0 { usize::MAX } else { take })
        .collect()
}
