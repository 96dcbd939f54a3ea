//! `--shard K/N`: the window of a command's part of the run (see
//! [`sudobench::runner::shard`]), found by counting the items of every input first.

use anyhow::{bail, Result};
use sudobench::format::Reader;
use sudobench::runner::shard::{Shard, Window};

/// The window of `shard` over the items of `files` (`None` without a shard). Counting reads
/// every input once more, which costs little next to solving; standard input cannot be read
/// twice, so it cannot be sharded. An input that cannot be opened counts no items (the run
/// reports it, in every part alike).
pub fn window(shard: Option<Shard>, files: &[String]) -> Result<Option<Window>> {
    let Some(shard) = shard else {
        return Ok(None);
    };
    if files.is_empty() || files.iter().any(|f| f == "-") {
        bail!("--shard {shard} needs files: standard input cannot be cut into parts");
    }
    let total: u64 = files
        .iter()
        .map(|f| Reader::open(f).map_or(0, |r| r.count() as u64))
        .sum();
    Ok(Some(Window::new(shard, total)))
}
