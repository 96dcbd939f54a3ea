//! What a caller sees of a run while it goes.

use super::report::{Mismatch, SetReport};
use crate::format::{ParseError, Record};
use crate::solver::Outcome;

/// Hooks called from the thread that called the runner, in input order. Every method has a
/// no-op default.
pub trait Observer {
    /// A source starts; `bytes` is its size on disk when known.
    fn start(&mut self, source: &str, bytes: Option<u64>) {
        let _ = (source, bytes);
    }
    /// Progress: `puzzles` records done so far, `bytes` of the file consumed (when known).
    fn progress(&mut self, puzzles: u64, bytes: Option<u64>) {
        let _ = (puzzles, bytes);
    }
    /// One puzzle's answers, one per backend in run order (`None`: the backend's budget was
    /// spent), and what the judge found wrong, if anything. Solutions are already mapped back
    /// to the file's orientation.
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        let _ = (record, answers, mismatch);
    }
    /// A malformed record.
    fn parse_error(&mut self, error: &ParseError) {
        let _ = error;
    }
    /// A backend failed for good (see [`BackendReport::fault`](super::report::BackendReport::fault)); told once per source, before
    /// the first puzzle it could not answer. Its answers from then on are `unknown`.
    fn fault(&mut self, backend: &str, why: &str) {
        let _ = (backend, why);
    }
    /// The runner is about to wait for more input: show what has been answered so far.
    fn idle(&mut self) {}
    /// Whether the observer wants no more (its output was closed): the run then stops early.
    fn done(&self) -> bool {
        false
    }
    /// A source is done.
    fn finish(&mut self, report: &SetReport) {
        let _ = report;
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}
