//! An ordered parallel map: items go to worker threads in chunks, results come back in input
//! order, and memory stays bounded (a few chunks per thread in flight).
//!
//! `generate` and `grade` use it: every item's result depends on the item alone (a puzzle
//! index and seed, or a puzzle), so the output is the same for any number of threads.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::Mutex;

/// Maps `items` through `work` on `threads` threads (each with its own worker state from
/// `make`) and hands the results to `emit` in input order. `emit` returning `false` stops the
/// run early (the consumer went away); items already in flight are dropped.
///
/// With one thread everything runs on the calling thread. A panic in a worker is re-raised
/// on the calling thread once the others have stopped.
pub fn ordered_map<I, O, W>(
    items: impl Iterator<Item = I>,
    threads: usize,
    chunk: usize,
    make: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, I) -> O + Sync,
    mut emit: impl FnMut(O) -> bool,
) where
    I: Send,
    O: Send,
{
    let chunk = chunk.max(1);
    if threads <= 1 {
        let mut worker = make();
        for item in items {
            if !emit(work(&mut worker, item)) {
                return;
            }
        }
        return;
    }
    let in_flight = 2 * threads;
    let (to_workers, from_main) = mpsc::sync_channel::<(u64, Vec<I>)>(in_flight);
    let from_main = Mutex::new(from_main);
    let (to_main, results) = mpsc::channel::<(u64, std::thread::Result<Vec<O>>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let to_main = to_main.clone();
            let (from_main, make, work) = (&from_main, &make, &work);
            scope.spawn(move || {
                let mut worker = make();
                loop {
                    // The lock is held only while taking the next chunk.
                    let next = match from_main.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, batch)) = next else {
                        return;
                    };
                    let out = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        batch
                            .into_iter()
                            .map(|i| work(&mut worker, i))
                            .collect::<Vec<O>>()
                    }));
                    let failed = out.is_err();
                    if to_main.send((seq, out)).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(to_main);
        let mut pending: BTreeMap<u64, Vec<O>> = BTreeMap::new();
        // The payload of a worker's panic, re-raised once the workers have stopped.
        let mut panicked = None;
        let (mut sent, mut next_out) = (0u64, 0u64);
        let mut stopped = false;
        // Hands every result that is next in order to `emit`.
        let mut drain = |pending: &mut BTreeMap<u64, Vec<O>>, next_out: &mut u64| -> bool {
            while let Some(batch) = pending.remove(next_out) {
                *next_out += 1;
                for o in batch {
                    if !emit(o) {
                        return false;
                    }
                }
            }
            true
        };
        let mut items = items.peekable();
        let sender = Some(to_workers);
        while items.peek().is_some() && !stopped {
            // Keep at most `in_flight` chunks out; wait for one to come back first.
            while sent - next_out >= in_flight as u64 {
                match results.recv() {
                    Ok((seq, Ok(out))) => {
                        pending.insert(seq, out);
                        if !drain(&mut pending, &mut next_out) {
                            stopped = true;
                            break;
                        }
                    }
                    Ok((_, Err(payload))) => {
                        panicked = Some(payload);
                        stopped = true;
                        break;
                    }
                    Err(_) => {
                        stopped = true;
                        break;
                    }
                }
            }
            if stopped {
                break;
            }
            let batch: Vec<I> = items.by_ref().take(chunk).collect();
            match &sender {
                Some(tx) if tx.send((sent, batch)).is_ok() => sent += 1,
                _ => stopped = true,
            }
        }
        // No more chunks: the workers end once the queue is empty.
        drop(sender);
        if !stopped {
            while next_out < sent {
                match results.recv() {
                    Ok((seq, Ok(out))) => {
                        pending.insert(seq, out);
                        if !drain(&mut pending, &mut next_out) {
                            break;
                        }
                    }
                    Ok((_, Err(payload))) => {
                        panicked = Some(payload);
                        break;
                    }
                    Err(_) => break,
                }
            }
        }
        // Dropping `results` makes any worker still sending stop.
        drop(results);
        if let Some(payload) = panicked {
            std::panic::resume_unwind(payload);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_for_any_thread_count() {
        for threads in [1, 2, 3, 8] {
            for chunk in [1, 7, 100] {
                let mut out = Vec::new();
                ordered_map(
                    0..1000u64,
                    threads,
                    chunk,
                    || 0u64,
                    |calls, i| {
                        *calls += 1;
                        // Uneven work, so chunks finish out of order.
                        let mut x = 0u64;
                        for k in 0..(i % 13) * 100 {
                            x = x.wrapping_add(std::hint::black_box(k));
                        }
                        std::hint::black_box(x);
                        i
                    },
                    |o| {
                        out.push(o);
                        true
                    },
                );
                assert_eq!(
                    out,
                    (0..1000).collect::<Vec<_>>(),
                    "{threads} threads, chunk {chunk}"
                );
            }
        }
    }

    #[test]
    fn a_worker_panic_reaches_the_caller_without_a_hang() {
        let caught = std::panic::catch_unwind(|| {
            ordered_map(
                0..10_000u32,
                2,
                5,
                || (),
                |_, i| {
                    assert!(i != 777, "item 777");
                    i
                },
                |_| true,
            )
        });
        assert!(caught.is_err());
    }

    #[test]
    fn emit_returning_false_stops_early() {
        for threads in [1, 4] {
            let mut seen = 0;
            ordered_map(
                0..100_000u32,
                threads,
                10,
                || (),
                |_, i| i,
                |_| {
                    seen += 1;
                    seen < 25
                },
            );
            assert_eq!(seen, 25, "{threads} threads");
        }
    }
}
