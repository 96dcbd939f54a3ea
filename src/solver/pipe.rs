//! Reading a child process's output pipe with a timeout and in bounded memory, for the
//! backends that talk to another process (`exec:` reads lines, `lib:` reads frames).
//!
//! The reader polls the pipe itself instead of handing lines over from a thread, so that
//! "has the program written anything more?" has a definite answer: every byte that had reached
//! the pipe when [`PipeReader::fill`] returned is either in [`PipeReader::pending`] or still in
//! the pipe, where a zero-timeout `fill` finds it.

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use std::io::{self, Read};
use std::process::ChildStdout;
use std::time::{Duration, Instant};

/// Bytes buffered at most: two 64 KiB answer lines' worth. Nothing a well-behaved program
/// writes comes near it, and a flood costs no more than this.
const CAPACITY: usize = 128 * 1024;

/// What one wait for more output brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    /// New bytes were appended to the pending ones.
    Data,
    /// The program closed its output (it ended, or closed the pipe).
    Eof,
    /// Nothing came within the timeout.
    Timeout,
}

/// The read end of a child's standard output, with the bytes read but not yet taken.
pub(crate) struct PipeReader {
    pipe: ChildStdout,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
}

impl PipeReader {
    pub(crate) fn new(pipe: ChildStdout) -> PipeReader {
        PipeReader {
            pipe,
            buf: vec![0; CAPACITY].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
        }
    }

    /// Bytes read and not yet consumed.
    pub(crate) fn pending(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Drops the first `n` pending bytes.
    pub(crate) fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    /// Whether the buffer has no room left for more bytes (the caller asked to keep more than
    /// [`CAPACITY`] pending).
    pub(crate) fn is_full(&self) -> bool {
        self.end - self.start == self.buf.len()
    }

    /// Waits up to `timeout` for the program to write, and appends what it wrote. A zero
    /// timeout only looks. With a full buffer nothing can be appended: `Data` comes back at
    /// once (the caller must consume first).
    pub(crate) fn fill(&mut self, timeout: Duration) -> io::Result<Fill> {
        if self.eof {
            return Ok(Fill::Eof);
        }
        if self.end == self.buf.len() {
            if self.start == 0 {
                return Ok(Fill::Data);
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let spec = Timespec::try_from(left).unwrap_or(Timespec {
                tv_sec: i64::from(i32::MAX),
                tv_nsec: 0,
            });
            let mut fds = [PollFd::new(&self.pipe, PollFlags::IN)];
            match poll(&mut fds, Some(&spec)) {
                Ok(0) => return Ok(Fill::Timeout),
                Ok(_) => break,
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        // Readable or hung up: this read does not block.
        loop {
            match self.pipe.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(Fill::Eof);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(Fill::Data);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}
