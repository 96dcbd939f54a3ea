//! A deadline for the searches running on the current thread: past it, `basic`, `bitmask`,
//! `wide`, `logic`, `dlx`, `dlx-array`, the projection backends and the exact-cover engines
//! stop and answer `unknown`, as they do when their node budget is spent; the SAT backends
//! read it while loading a formula and between solver calls (one call cannot be cut short).
//!
//! The runner sets one around every batch of a backend with a time budget (what is left of
//! the budget, by the run's clock: in this thread's CPU time under the CPU clock, see
//! [`within_cpu`]) and around every call of the referee (its time per dispute), and
//! [`TimeLimited`](crate::solver::TimeLimited) one around every puzzle of a backend with a
//! time limit per puzzle, so that a budget stops a puzzle in progress, not only the next one
//! (the certificate search of `certify` reads it too). It is a thread-local setting rather
//! than an argument of [`Solver::solve`](crate::solver::Solver::solve) so that every backend
//! keeps the one signature; a search reads the clock at its first nodes and then once every
//! [`CHECK_EVERY`] nodes.

use crate::util::thread_cpu_time;
use std::cell::Cell;
use std::thread::LocalKey;
use std::time::{Duration, Instant};

/// Time limits are below this many seconds (about 31 years): the bound every command and the
/// Python bindings take, far beyond any meant limit and far from `Duration`'s own, which a
/// deadline added to the clock would overflow.
pub const MAX_SECONDS: f64 = 1e9;

/// A search looks at the clock at its first node and then once every this many nodes.
pub const CHECK_EVERY: u64 = 1024;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static CPU_DEADLINE: Cell<Option<CpuDeadline>> = const { Cell::new(None) };
}

/// A deadline in this thread's CPU time ([`within_cpu`]): it passes when the thread has used
/// `end` of CPU time. Reading a thread's CPU time is a system call (hundreds of nanoseconds,
/// several times a 9×9 search's node), so it is read only once the wall clock reaches `check`:
/// the thread cannot have used more CPU time than the wall-clock time that went by, so the
/// deadline cannot pass before then. Each reading short of `end` moves `check` on by what is
/// left.
#[derive(Clone, Copy, Debug)]
struct CpuDeadline {
    check: Instant,
    end: Duration,
}

/// Runs `f` with the thread-local `cell` set to `value(what it holds)`, and restores what it
/// held afterwards, also when `f` panics.
fn with_cell<T: Copy + 'static, R>(
    cell: &'static LocalKey<Cell<T>>,
    value: impl FnOnce(T) -> T,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore<T: Copy + 'static>(&'static LocalKey<Cell<T>>, T);
    impl<T: Copy + 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            self.0.with(|c| c.set(self.1));
        }
    }
    let previous = cell.with(Cell::get);
    cell.with(|c| c.set(value(previous)));
    let _restore = Restore(cell, previous);
    f()
}

/// The earlier of two optional deadlines (`earlier` of two present ones), or the one present.
fn first<T>(a: Option<T>, b: Option<T>, earlier: impl FnOnce(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(earlier(a, b)),
        (a, b) => a.or(b),
    }
}

/// Runs `f` with a deadline for the searches on this thread (`None`: none beyond an
/// enclosing one). Deadlines nest: the earlier one holds. The previous deadline is restored
/// afterwards, also when `f` panics.
pub fn with_deadline<R>(deadline: Option<Instant>, f: impl FnOnce() -> R) -> R {
    with_cell(
        &DEADLINE,
        |previous| first(previous, deadline, Instant::min),
        f,
    )
}

/// This thread's deadline, for work that is not a search but must honour it too (the
/// checker of `certify`, which takes it as an [`Instant`]). A deadline in CPU time counts as
/// the earliest instant it could pass.
pub fn current() -> Option<Instant> {
    let wall = DEADLINE.with(Cell::get);
    let cpu = CPU_DEADLINE.with(Cell::get).map(|d| d.check);
    first(wall, cpu, Instant::min)
}

/// Runs `f` with a deadline `time` of this thread's CPU time from now (`None`: no new
/// deadline): a time budget billed in CPU time, which on a busy machine passes later than the
/// same time of the wall clock. Nests with the wall-clock deadlines ([`within`]: whichever
/// passes first holds) and with other CPU-time ones (the earlier holds). Restored afterwards,
/// also when `f` panics.
pub fn within_cpu<R>(time: Option<Duration>, f: impl FnOnce() -> R) -> R {
    let new = time.and_then(|t| {
        Some(CpuDeadline {
            check: Instant::now().checked_add(t)?,
            end: thread_cpu_time().checked_add(t)?,
        })
    });
    let earlier = |a: CpuDeadline, b: CpuDeadline| CpuDeadline {
        check: a.check.min(b.check),
        end: a.end.min(b.end),
    };
    with_cell(&CPU_DEADLINE, |previous| first(previous, new, earlier), f)
}

/// Runs `f` with a deadline `time` from now (`None`: no new deadline).
pub fn within<R>(time: Option<Duration>, f: impl FnOnce() -> R) -> R {
    with_deadline(time.and_then(|t| Instant::now().checked_add(t)), f)
}

/// Whether this thread's deadline has passed (the wall-clock one or the CPU-time one).
pub fn passed() -> bool {
    let wall = DEADLINE.with(Cell::get);
    let cpu = CPU_DEADLINE.with(Cell::get);
    if wall.is_none() && cpu.is_none() {
        return false;
    }
    let now = Instant::now();
    if wall.is_some_and(|t| now >= t) {
        return true;
    }
    match cpu {
        Some(d) if now >= d.check => {
            let used = thread_cpu_time();
            if used >= d.end {
                return true;
            }
            let check = now.checked_add(d.end - used).unwrap_or(now);
            CPU_DEADLINE.with(|c| c.set(Some(CpuDeadline { check, ..d })));
            false
        }
        _ => false,
    }
}

/// Whether a search at node `nodes` (counted from 1) should stop for the deadline: the
/// clock is read at nodes 1, 2, 4, 8, … up to [`CHECK_EVERY`], then every [`CHECK_EVERY`]
/// nodes. A search whose nodes are slow (25×25 and larger grids, `logic`, `basic`: tenths of
/// a millisecond each) so stops within about twice its time rather than a thousand nodes
/// late, and one whose nodes are quick reads the clock a dozen times more per search.
#[inline(always)]
pub(crate) fn due(nodes: u64) -> bool {
    (nodes.is_power_of_two() || nodes.is_multiple_of(CHECK_EVERY)) && passed()
}

/// Clauses a SAT backend loads between two readings of the clock ([`due_loading`]).
const LOAD_CHECK_EVERY: usize = 4096;

/// Whether a SAT backend loading its formula should stop before clause `clauses` (counted
/// from 0) for the deadline: loading a large grid's formula takes milliseconds, which a short
/// time limit should not wait for. A formula cut short must never be solved: the backends
/// read the deadline again before their first solver call, and it stays passed.
#[inline]
pub(crate) fn due_loading(clauses: usize) -> bool {
    clauses % LOAD_CHECK_EVERY == LOAD_CHECK_EVERY - 1 && passed()
}

/// [`due`] for a search whose nodes take well under a microsecond (`bitmask`), where the
/// extra reads of [`due`] would be a few percent of an easy puzzle's time: the clock is read
/// at the first node and every [`CHECK_EVERY`] nodes after it.
#[inline(always)]
pub(crate) fn due_coarse(nodes: u64) -> bool {
    nodes % CHECK_EVERY == 1 && passed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_nest_and_are_restored() {
        assert!(!passed());
        let past = Instant::now();
        with_deadline(Some(past), || {
            assert!(passed());
            // A later inner deadline does not extend the outer one.
            within(Some(Duration::from_secs(3600)), || assert!(passed()));
            assert!(passed());
        });
        assert!(!passed());
        let result = std::panic::catch_unwind(|| with_deadline(Some(past), || panic!("inside")));
        assert!(result.is_err());
        assert!(!passed(), "restored after a panic");
    }

    /// Burns this thread's CPU time until it has used `time` more.
    fn spin(time: Duration) {
        let start = thread_cpu_time();
        while thread_cpu_time() - start < time {
            std::hint::black_box(0u64);
        }
    }

    #[test]
    fn a_cpu_deadline_passes_by_cpu_time_not_by_sleeping() {
        within_cpu(Some(Duration::from_millis(20)), || {
            assert!(!passed());
            // Sleeping uses no CPU time: the wall clock passes the mark, the deadline does
            // not, and its next look at the CPU clock is moved on.
            std::thread::sleep(Duration::from_millis(40));
            assert!(!passed());
            assert!(current().is_some_and(|t| t > Instant::now()));
            spin(Duration::from_millis(25));
            assert!(passed());
        });
        assert!(!passed() && current().is_none(), "restored");
        // A wall-clock deadline inside still holds, and the earlier CPU deadline outside.
        within_cpu(Some(Duration::from_secs(3600)), || {
            with_deadline(Some(Instant::now()), || assert!(passed()));
            assert!(!passed());
            within_cpu(Some(Duration::ZERO), || assert!(passed()));
        });
        let result = std::panic::catch_unwind(|| within_cpu(Some(Duration::ZERO), || panic!()));
        assert!(result.is_err());
        assert!(!passed(), "restored after a panic");
    }

    #[test]
    fn the_clock_is_read_often_at_first_then_every_check_every_nodes() {
        let read_at = |due: fn(u64) -> bool| -> Vec<u64> {
            with_deadline(Some(Instant::now()), || {
                (1..=3000).filter(|&n| due(n)).collect()
            })
        };
        let doubling: Vec<u64> = (0..=10).map(|k| 1 << k).chain([2048]).collect();
        assert_eq!(read_at(due), doubling);
        assert_eq!(read_at(due_coarse), vec![1, 1025, 2049]);
        let loading: Vec<usize> = with_deadline(Some(Instant::now()), || {
            (0..10_000).filter(|&i| due_loading(i)).collect()
        });
        assert_eq!(loading, vec![4095, 8191]);
        // Without a deadline nothing is due.
        assert!((1..=3000).all(|n| !due(n) && !due_coarse(n) && !due_loading(n as usize)));
    }
}
