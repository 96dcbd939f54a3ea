//! `sudobench merge`: the outputs of a run's parts (`--shard K/N`) joined into the output
//! one whole run would have written (see [`sudobench::report::merge`]).

use super::output::Output;
use anyhow::{Context, Result};
use clap::Args;
use sudobench::report::merge::Merger;

/// Arguments of `sudobench merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts' outputs, in order 1..N (name them with zero-padded numbers so that a shell
    /// glob lists them in order).
    #[arg(required = true)]
    parts: Vec<String>,
}

/// `sudobench merge`.
pub fn merge(args: &MergeArgs) -> Result<bool> {
    let mut merger = Merger::new();
    for part in &args.parts {
        let text = std::fs::read_to_string(part).with_context(|| format!("reading {part}"))?;
        merger
            .part(part, &text)
            .with_context(|| format!("merging {part}"))?;
    }
    let (lines, sums) = (merger.lines, merger.sums);
    let mut out = Output::stdout();
    out.write(&merger.finish());
    out.finish()?;
    eprintln!(
        "sudobench merge: {} parts: {lines} per-record lines, {sums} summed records",
        args.parts.len()
    );
    Ok(true)
}
