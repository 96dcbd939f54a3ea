//! What the `lib:` backend and its worker process say to each other, and the page of shared
//! memory on which the worker shows which call it is in.
//!
//! Everything is little-endian and fixed-size except the puzzles and an error message:
//!
//! ```text
//! worker → backend, once:  MAGIC, then b'K', u64 start-up CPU nanoseconds (library loaded,
//!                                 symbol found)
//!                                 or b'E', u32 length, message (UTF-8)
//! backend → worker, batch: b'S', u64 limit, u32 n, n × (u16 length (81 or 729), puzzle)
//! worker → backend, batch: b'A', u32 n, u64 CPU nanoseconds, u64 wall nanoseconds,
//!                          n × (u64 count, u64 guesses, u64 recount, 81 bytes solution)
//! ```
//!
//! The start-up CPU time is the worker process's CPU time from its start to the handshake
//! (loading the library and running its initialisers included). A batch's CPU time is the
//! worker process's CPU time (all threads) since the previous batch's timed region ended, less
//! what the worker's own thread spent outside the timed regions (reading and writing the
//! pipe): every call into the library, recalls included, and whatever its helper threads did
//! meanwhile. Its wall time is that of the timed region (first call to last recall).
//!
//! `guesses` is [`NOT_COUNTED`] when the library left `num_guesses` untouched; `recount` is
//! what the untimed second call with limit 1 returned, [`NOT_CALLED`] when there was none;
//! `solution` is the library's buffer as it left it (zeroed before the calls).

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// The worker's first bytes: a program that is not a sudobench worker will not write them.
pub const MAGIC: &[u8] = b"sudobench-lib-worker 2\n";
/// Handshake: library loaded and symbol found.
pub const READY: u8 = b'K';
/// Handshake: it could not be done; a message follows.
pub const ERROR: u8 = b'E';
/// A batch of puzzles.
pub const SOLVE: u8 = b'S';
/// A batch of answers.
pub const ANSWERS: u8 = b'A';
/// Most puzzles in one batch frame.
pub const MAX_BATCH: usize = 64;
/// Longest error message in a handshake.
pub const MAX_MESSAGE: usize = 4096;
/// `guesses` of a library that did not write `num_guesses`.
pub const NOT_COUNTED: u64 = u64::MAX;
/// `recount` when no second call was made.
pub const NOT_CALLED: u64 = u64::MAX;
/// Bytes of one answer record.
pub const ANSWER_BYTES: usize = 8 + 8 + 8 + 81;
/// Bytes of a batch frame's header (tag, n, CPU and wall nanoseconds).
pub const ANSWERS_HEADER: usize = 1 + 4 + 8 + 8;
/// Bytes of the ready handshake after the magic (tag, start-up CPU nanoseconds).
pub const READY_BYTES: usize = 1 + 8;

/// One answer of the worker, as the library gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What the timed call returned.
    pub count: u64,
    /// What it wrote to `num_guesses`, or [`NOT_COUNTED`].
    pub guesses: u64,
    /// What the second call (limit 1, for a solution) returned, or [`NOT_CALLED`].
    pub recount: u64,
    /// The solution buffer after the calls.
    pub solution: [u8; 81],
}

impl Answer {
    /// Appends the record to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.count.to_le_bytes());
        out.extend_from_slice(&self.guesses.to_le_bytes());
        out.extend_from_slice(&self.recount.to_le_bytes());
        out.extend_from_slice(&self.solution);
    }

    /// Reads a record of [`ANSWER_BYTES`] bytes.
    pub fn read(bytes: &[u8]) -> Option<Answer> {
        let word = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(bytes.get(i..i + 8)?.try_into().ok()?))
        };
        Some(Answer {
            count: word(0)?,
            guesses: word(8)?,
            recount: word(16)?,
            solution: bytes.get(24..24 + 81)?.try_into().ok()?,
        })
    }
}

/// Whether a solution buffer holds 81 digits `1`-`9` (a solution, right or wrong).
pub fn filled(solution: &[u8; 81]) -> bool {
    solution.iter().all(|b| (b'1'..=b'9').contains(b))
}

/// A page of memory shared by the backend and its worker. The worker stores, before every
/// call into the library, the number of calls it has started and the 1-based number of the
/// puzzle (counted over the worker's life) the call is for, and 0 there when it is not in a
/// call. Plain stores, no system call: the timed loop does not pay for them. The backend
/// reads it while it waits (a call that started no other for longer than the timeout has
/// hung) and after the worker died (on which puzzle).
pub struct Progress {
    words: NonNull<AtomicU64>,
    _fd: OwnedFd,
}

// SAFETY: the mapping is plain shared memory accessed only through atomics; it stays mapped
// for the life of the value, whichever thread owns it.
unsafe impl Send for Progress {}

/// Bytes mapped (one page).
const PAGE: usize = 4096;

impl Progress {
    /// A new zeroed page in a memory file (not inherited by children unless asked for).
    pub fn create() -> io::Result<Progress> {
        let fd =
            rustix::fs::memfd_create("sudobench-lib-progress", rustix::fs::MemfdFlags::CLOEXEC)?;
        rustix::fs::ftruncate(&fd, PAGE as u64)?;
        Progress::map(fd)
    }

    /// Maps the page of a memory file made by [`Progress::create`].
    pub fn map(fd: OwnedFd) -> io::Result<Progress> {
        let stat = rustix::fs::fstat(&fd)?;
        if stat.st_size < PAGE as i64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the progress file is smaller than a page",
            ));
        }
        // SAFETY: a fresh shared mapping of a file at least one page long; nothing else in
        // this process aliases it, and it is only read and written through `AtomicU64`s,
        // which are valid for any bit pattern and suitably aligned at the page start.
        let ptr = unsafe {
            rustix::mm::mmap(
                std::ptr::null_mut(),
                PAGE,
                rustix::mm::ProtFlags::READ | rustix::mm::ProtFlags::WRITE,
                rustix::mm::MapFlags::SHARED,
                fd.as_fd(),
                0,
            )?
        };
        let words = NonNull::new(ptr.cast::<AtomicU64>())
            .ok_or_else(|| io::Error::other("mmap returned a null pointer"))?;
        Ok(Progress { words, _fd: fd })
    }

    /// The memory file, to hand to the worker.
    pub fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self._fd.as_fd()
    }

    fn word(&self, i: usize) -> &AtomicU64 {
        debug_assert!(i < 2);
        // SAFETY: the page holds far more than two words and lives as long as `self`.
        unsafe { &*self.words.as_ptr().add(i) }
    }

    /// Worker: about to make call number `calls`, for puzzle number `puzzle` (0: none).
    #[inline(always)]
    pub fn enter(&self, calls: u64, puzzle: u64) {
        self.word(1).store(puzzle, Ordering::Relaxed);
        self.word(0).store(calls, Ordering::Release);
    }

    /// Worker: out of the library.
    #[inline(always)]
    pub fn leave(&self) {
        self.word(1).store(0, Ordering::Release);
    }

    /// Calls started so far.
    pub fn calls(&self) -> u64 {
        self.word(0).load(Ordering::Acquire)
    }

    /// The puzzle of the call in progress (1-based over the worker's life), 0 for none.
    pub fn puzzle(&self) -> u64 {
        self.word(1).load(Ordering::Acquire)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // SAFETY: the pointer and length of the mapping made in `map`; no reference into it
        // outlives `self`.
        unsafe {
            let _ = rustix::mm::munmap(self.words.as_ptr().cast(), PAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip() {
        let a = Answer {
            count: 2,
            guesses: NOT_COUNTED,
            recount: 1,
            solution: [b'7'; 81],
        };
        let mut bytes = Vec::new();
        a.write(&mut bytes);
        assert_eq!(bytes.len(), ANSWER_BYTES);
        assert_eq!(Answer::read(&bytes), Some(a));
        assert_eq!(Answer::read(&bytes[1..]), None);
        assert!(filled(&a.solution));
        let mut b = a.solution;
        b[80] = 0;
        assert!(!filled(&b));
    }

    #[test]
    fn the_progress_page_is_shared() {
        let page = Progress::create().unwrap();
        let copy = Progress::map(rustix::io::dup(page.fd()).unwrap()).unwrap();
        assert_eq!((page.calls(), page.puzzle()), (0, 0));
        copy.enter(3, 7);
        assert_eq!((page.calls(), page.puzzle()), (3, 7));
        copy.leave();
        assert_eq!((page.calls(), page.puzzle()), (3, 0));
    }
}
