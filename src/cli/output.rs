//! Standard output for results, shared by every subcommand: buffered, and a closed pipe (the
//! reader went away, as with `| head`) turns into a quiet stop rather than an error.

use std::io::{self, BufWriter, StdoutLock, Write};

/// `1 mismatch`, `2 mismatches`: a count and its noun, for summaries.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Buffered standard output that remembers whether it was closed.
pub struct Output {
    out: BufWriter<StdoutLock<'static>>,
    closed: bool,
    error: Option<io::Error>,
}

impl Output {
    /// Standard output, locked for the rest of the run.
    pub fn stdout() -> Output {
        Output {
            out: BufWriter::new(io::stdout().lock()),
            closed: false,
            error: None,
        }
    }

    /// Writes `text` as it is; nothing once the output is closed or failed.
    pub fn write(&mut self, text: &str) {
        if self.is_open() {
            let written = self.out.write_all(text.as_bytes());
            self.note(written);
        }
    }

    /// Writes one line.
    pub fn line(&mut self, text: &str) {
        if self.is_open() {
            let written = writeln!(self.out, "{text}");
            self.note(written);
        }
    }

    /// Shows what has been written so far (before waiting for input, say).
    pub fn flush(&mut self) {
        if self.is_open() {
            let flushed = self.out.flush();
            self.note(flushed);
        }
    }

    /// Whether writing still reaches anyone.
    pub fn is_open(&self) -> bool {
        !self.closed && self.error.is_none()
    }

    /// Flushes and reports a real write error (a closed pipe is none).
    pub fn finish(mut self) -> io::Result<()> {
        self.flush();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn note(&mut self, result: io::Result<()>) {
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.closed = true,
            Err(e) => self.error = Some(e),
        }
    }
}

/// Output formats of `bench` (on Sudoku sets and on exact-cover instances alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned table for people.
    Table,
    /// CSV, one row per (data set, backend), with a header.
    Csv,
    /// JSON lines, one object per (data set, backend).
    Json,
}
