//! The one streaming pipeline every command runs on: records read in batches, each batch
//! processed on a worker thread (or the calling one), results delivered in input order on the
//! calling thread, and records answered as they arrive.
//!
//! What a batch is turned into is up to the [`Stage`]: the benchmark runner's stage solves it
//! with every backend and judges the answers; `solve --no-guess` computes logical closures;
//! `generate` and `grade` go through [`map_ordered`]. Reading, threads, order, bounded memory,
//! interactive input and a worker's panic are handled here once.

use crate::format::{Item, Reader};
use crate::util::thread_cpu_time;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// A stream of items (records, by default) that can say whether the next one is already at
/// hand.
pub trait Source<T = Item>: Iterator<Item = T> {
    /// Whether [`next`](Iterator::next) will answer without waiting for more input. The
    /// pipeline answers what it has before it waits, so that a program or a person feeding
    /// standard input one puzzle at a time gets each answer at once. The default, `true`,
    /// suits sources that never wait (memory, files).
    fn ready(&self) -> bool {
        true
    }
}

impl Source for Reader {
    fn ready(&self) -> bool {
        self.line_ready()
    }
}

/// Any iterator as a [`Source`] that never waits.
pub struct Ready<I>(pub I);

impl<I: Iterator> Iterator for Ready<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
}

impl<I: Iterator> Source<I::Item> for Ready<I> {}

/// Work done on one batch, on a worker thread. Each thread owns one stage.
pub trait Stage<T = Item>: Send {
    /// What a batch turns into.
    type Output: Send;
    /// Processes one batch. A panic here stops the run and is raised again on the calling
    /// thread; a stage that wants to go on after one contains it itself (the runner's stage
    /// puts a panicking backend out of use and answers `unknown`).
    fn process(&mut self, items: &[T]) -> Self::Output;
}

/// Time spent reading (gunzip and parsing included): wall clock and CPU time of the reading
/// thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadTime {
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time of the reading thread.
    pub cpu: Duration,
}

/// What the calling thread is told, in input order.
pub trait Sink<T, O> {
    /// A processed batch; return `false` to stop early (standard output closed, say).
    fn deliver(&mut self, items: Vec<T>, output: O) -> bool;
    /// The pipeline is about to wait for input: show what has been answered so far.
    fn idle(&mut self) {}
}

/// Reads the next batch: waits for the first item, then takes only what is at hand, up to
/// `size`. Empty at the end of the source.
fn next_batch<T>(source: &mut dyn Source<T>, size: usize, time: &mut ReadTime) -> Vec<T> {
    let (t, cpu) = (Instant::now(), thread_cpu_time());
    let mut items = Vec::with_capacity(size.min(4096));
    if let Some(first) = source.next() {
        items.push(first);
        while items.len() < size && source.ready() {
            match source.next() {
                Some(item) => items.push(item),
                None => break,
            }
        }
    }
    time.wall += t.elapsed();
    time.cpu += thread_cpu_time().saturating_sub(cpu);
    items
}

/// Runs `source` through `stages` (one per worker; with one stage everything happens on the
/// calling thread) in batches of at most `batch_size` items, and hands every batch to `sink`
/// in input order. Returns the time spent reading. At most four full batches' worth of items
/// per worker are in flight, so memory stays bounded whatever the source's size. A worker's
/// panic stops the run and is raised again here once the workers have stopped.
///
/// With several workers a batch is sized to take about [`BATCH_WALL`] by the time the items
/// so far took per item: one item at first, up to `batch_size` where items are quick.
/// A fixed size left all but one worker idle on small sets of slow puzzles (ten 25×25
/// puzzles of a few seconds each were one batch of 64, so one thread), and tiny batches of
/// quick items cost more in hand-overs than they balance (certifying the 17-clue set in
/// batches of 4 took 5.5 s of wall time against 2.9 s in batches of 64).
pub fn run_ordered<T: Send, S: Stage<T>>(
    source: &mut dyn Source<T>,
    stages: &mut [S],
    batch_size: usize,
    sink: &mut dyn Sink<T, S::Output>,
) -> ReadTime {
    let mut time = ReadTime::default();
    let batch_size = batch_size.max(1);
    if stages.len() <= 1 {
        let Some(stage) = stages.first_mut() else {
            return time;
        };
        loop {
            if !source.ready() {
                sink.idle();
            }
            let items = next_batch(source, batch_size, &mut time);
            if items.is_empty() {
                return time;
            }
            let output = stage.process(&items);
            if !sink.deliver(items, output) {
                return time;
            }
        }
    }

    let threads = stages.len();
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Vec<T>)>(threads * 2);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Vec<T>, Done<S::Output>, Duration)>();
    let mut sizer = BatchSizer::new(batch_size);
    let mut panicked = None;
    std::thread::scope(|scope| {
        for stage in stages.iter_mut() {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || loop {
                let next = match work_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((seq, items)) = next else { return };
                let started = Instant::now();
                let output = panic::catch_unwind(AssertUnwindSafe(|| stage.process(&items)));
                let failed = output.is_err();
                let took = started.elapsed();
                if done_tx.send((seq, items, output, took)).is_err() || failed {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut pending = BTreeMap::new();
        // Batches and items handed out and delivered. At most four full batches' worth of
        // items per worker are in flight, counted in items rather than batches: a batch of one
        // slow item then holds up the delivery of the others without idling the workers
        // until it is done (the 16×16 certify set has one puzzle of 12.8 s in 38.6 s of
        // work: 26.5 s of wall time on two threads when counted in batches of one).
        let (mut sent, mut delivered) = ((0u64, 0u64), (0u64, 0u64));
        let max_in_flight = 4 * threads as u64 * sizer.most as u64;
        let mut open = true;
        // Delivers what is done, in order; `open` turns false once the sink wants no more.
        fn drain<T, O>(
            sink: &mut dyn Sink<T, O>,
            pending: &mut BTreeMap<u64, (Vec<T>, O)>,
            delivered: &mut (u64, u64),
            open: &mut bool,
        ) {
            while let Some((items, output)) = pending.remove(&delivered.0) {
                *delivered = (delivered.0 + 1, delivered.1 + items.len() as u64);
                if *open && !sink.deliver(items, output) {
                    *open = false;
                }
            }
        }
        // Files a finished batch, or notes a worker's panic (which stops the run).
        let mut receive = |(seq, items, output, took): (u64, Vec<T>, Done<S::Output>, Duration),
                           pending: &mut BTreeMap<u64, (Vec<T>, S::Output)>,
                           open: &mut bool,
                           sizer: &mut BatchSizer| match output {
            Ok(output) => {
                sizer.took(items.len(), took);
                pending.insert(seq, (items, output));
            }
            Err(payload) => {
                panicked.get_or_insert(payload);
                *open = false;
            }
        };
        let mut reading = true;
        while reading && open {
            while let Ok(done) = done_rx.try_recv() {
                receive(done, &mut pending, &mut open, &mut sizer);
            }
            drain(sink, &mut pending, &mut delivered, &mut open);
            // A worker's panic (or the sink) ended the run: stop here, before waiting for
            // answers, since a panicked batch's answer never comes.
            if !open {
                break;
            }
            // Answers outstanding and no input at hand, or too much in flight: wait for
            // answers rather than for input.
            if sent.0 > delivered.0 && (!source.ready() || sent.1 - delivered.1 >= max_in_flight) {
                match done_rx.recv() {
                    Ok(done) => {
                        receive(done, &mut pending, &mut open, &mut sizer);
                        continue;
                    }
                    Err(_) => break,
                }
            }
            if !source.ready() {
                sink.idle();
            }
            let items = next_batch(source, sizer.next(), &mut time);
            let n = items.len() as u64;
            if items.is_empty() {
                reading = false;
            } else if work_tx.send((sent.0, items)).is_ok() {
                sent = (sent.0 + 1, sent.1 + n);
            } else {
                break;
            }
        }
        drop(work_tx);
        for done in done_rx {
            receive(done, &mut pending, &mut open, &mut sizer);
            drain(sink, &mut pending, &mut delivered, &mut open);
        }
    });
    if let Some(payload) = panicked {
        panic::resume_unwind(payload);
    }
    time
}

/// About how long one batch of a threaded run should take: long enough that handing it over
/// costs little beside it, short enough that the workers finish close together.
pub const BATCH_WALL: Duration = Duration::from_millis(10);

/// The size of the next batch of a threaded run, from the wall time the batches so far took
/// per item: about [`BATCH_WALL`] of work, at least 1 and at most the caller's size (1 until a
/// batch has come back).
#[derive(Debug)]
struct BatchSizer {
    most: usize,
    items: u64,
    took: Duration,
}

impl BatchSizer {
    fn new(most: usize) -> BatchSizer {
        BatchSizer {
            most: most.max(1),
            items: 0,
            took: Duration::ZERO,
        }
    }

    /// A batch of `items` items came back after `took`.
    fn took(&mut self, items: usize, took: Duration) {
        self.items += items as u64;
        self.took += took;
    }

    fn next(&self) -> usize {
        if self.items == 0 {
            return 1;
        }
        let per_item = self.took.as_nanos() / self.items as u128;
        let fits = BATCH_WALL.as_nanos() / per_item.max(1);
        fits.clamp(1, self.most as u128) as usize
    }
}

/// A batch's output, or the panic that ended it.
type Done<O> = std::thread::Result<O>;

/// Maps `items` through `work` on `threads` threads, each with its own worker state from
/// `make`, and hands every item with its result to `emit` in input order; `emit` returning
/// `false` stops the run. The output is the same for any number of threads when each result
/// depends on its item alone. A panic in `work` is raised again on the calling thread.
pub fn map_ordered<I, O, W>(
    items: impl Iterator<Item = I>,
    threads: usize,
    batch_size: usize,
    make: impl Fn() -> W,
    work: impl Fn(&mut W, &I) -> O + Sync,
    emit: impl FnMut(I, O) -> bool,
) where
    I: Send,
    O: Send,
    W: Send,
{
    map_source(
        &mut Ready(items),
        threads,
        batch_size,
        make,
        work,
        emit,
        || {},
    )
}

/// [`map_ordered`] over a [`Source`] that may wait for input (standard input typed or piped
/// a line at a time): what is at hand is processed and emitted before the pipeline waits,
/// and `idle` is called then (to flush the output, say).
pub fn map_source<I, O, W>(
    items: &mut dyn Source<I>,
    threads: usize,
    batch_size: usize,
    make: impl Fn() -> W,
    work: impl Fn(&mut W, &I) -> O + Sync,
    emit: impl FnMut(I, O) -> bool,
    idle: impl FnMut(),
) where
    I: Send,
    O: Send,
    W: Send,
{
    struct Map<'a, W, F> {
        worker: W,
        work: &'a F,
    }
    impl<I, O: Send, W: Send, F: Fn(&mut W, &I) -> O + Sync> Stage<I> for Map<'_, W, F> {
        type Output = Vec<O>;
        fn process(&mut self, items: &[I]) -> Vec<O> {
            items
                .iter()
                .map(|i| (self.work)(&mut self.worker, i))
                .collect()
        }
    }
    struct Emit<F, G>(F, G);
    impl<I, O, F: FnMut(I, O) -> bool, G: FnMut()> Sink<I, Vec<O>> for Emit<F, G> {
        fn deliver(&mut self, items: Vec<I>, outputs: Vec<O>) -> bool {
            items.into_iter().zip(outputs).all(|(i, o)| (self.0)(i, o))
        }
        fn idle(&mut self) {
            (self.1)()
        }
    }
    let mut stages: Vec<Map<W, _>> = (0..threads.max(1))
        .map(|_| Map {
            worker: make(),
            work: &work,
        })
        .collect();
    run_ordered(items, &mut stages, batch_size, &mut Emit(emit, idle));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Reader;
    use std::io::Cursor;

    /// Counts the records of each batch and remembers which thread saw it.
    struct Lines;

    impl Stage for Lines {
        type Output = Vec<u64>;
        fn process(&mut self, items: &[Item]) -> Vec<u64> {
            items
                .iter()
                .map(|i| i.as_ref().map(|r| r.line).unwrap_or(0))
                .collect()
        }
    }

    struct Collect(Vec<u64>, usize);

    impl Sink<Item, Vec<u64>> for Collect {
        fn deliver(&mut self, items: Vec<Item>, output: Vec<u64>) -> bool {
            assert_eq!(items.len(), output.len());
            self.0.extend(output);
            self.1 += 1;
            true
        }
    }

    fn reader(n: usize) -> Reader {
        let line = format!("{}\n", ".".repeat(81));
        Reader::new("t", Cursor::new(line.repeat(n).into_bytes()))
    }

    #[test]
    fn order_is_kept_whatever_the_threads() {
        for threads in [1, 2, 3] {
            for batch in [1, 7, 1000] {
                let mut stages: Vec<Lines> = (0..threads).map(|_| Lines).collect();
                let mut sink = Collect(Vec::new(), 0);
                run_ordered(&mut reader(100), &mut stages, batch, &mut sink);
                assert_eq!(sink.0, (1..=100).collect::<Vec<u64>>(), "{threads} {batch}");
            }
        }
    }

    #[test]
    fn a_sink_can_stop_the_run() {
        struct Stop(usize);
        impl Sink<Item, Vec<u64>> for Stop {
            fn deliver(&mut self, _: Vec<Item>, _: Vec<u64>) -> bool {
                self.0 += 1;
                self.0 < 3
            }
        }
        for threads in [1, 2] {
            let mut stages: Vec<Lines> = (0..threads).map(|_| Lines).collect();
            let mut sink = Stop(0);
            run_ordered(&mut reader(1000), &mut stages, 10, &mut sink);
            assert!(sink.0 >= 3, "{}", sink.0);
            if threads == 1 {
                assert_eq!(sink.0, 3);
            }
        }
    }

    #[test]
    fn map_ordered_keeps_order_and_raises_a_workers_panic() {
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            map_ordered(
                0..1000u64,
                threads,
                7,
                || 0u64,
                |_, &i| i * i,
                |i, o| {
                    seen.push((i, o));
                    true
                },
            );
            assert_eq!(seen, (0..1000).map(|i| (i, i * i)).collect::<Vec<_>>());
        }
        for threads in [1, 2] {
            let run = std::panic::catch_unwind(|| {
                map_ordered(
                    0..1000u64,
                    threads,
                    7,
                    || (),
                    |_, &i| {
                        assert!(i != 500, "item 500");
                        i
                    },
                    |_, _| true,
                )
            });
            assert!(run.is_err(), "{threads} threads");
        }
    }

    /// Items `0..n` through two workers in batches of at most 64, item `i` sleeping
    /// `ms(i)` milliseconds: each item with the worker (0 or 1) that took it, in order.
    fn by_worker(n: u64, ms: impl Fn(u64) -> u64 + Sync) -> Vec<(u64, usize)> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next_worker = AtomicUsize::new(0);
        let mut by = Vec::new();
        map_ordered(
            0..n,
            2,
            64,
            || next_worker.fetch_add(1, Ordering::Relaxed),
            |&mut worker, &i| {
                std::thread::sleep(Duration::from_millis(ms(i)));
                worker
            },
            |i, worker| {
                by.push((i, worker));
                true
            },
        );
        by
    }

    /// A small set of slow items is shared by the workers, where a fixed batch of 64 gave
    /// all four to one of them.
    #[test]
    fn slow_items_are_shared_by_the_workers() {
        let by = by_worker(4, |_| 50);
        assert_eq!(by.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert!(
            by.iter().any(|d| d.1 == 0) && by.iter().any(|d| d.1 == 1),
            "{by:?}"
        );
    }

    #[test]
    fn batches_take_about_the_target_time() {
        let mut sizer = BatchSizer::new(64);
        assert_eq!(sizer.next(), 1, "one item until a batch came back");
        // 100 µs per item: 100 would fit, 64 is the most.
        sizer.took(10, Duration::from_millis(1));
        assert_eq!(sizer.next(), 64);
        // Now 4 ms per item on average: two fit.
        sizer.took(4, Duration::from_millis(55));
        assert_eq!(sizer.next(), 2);
        sizer.took(1, Duration::from_secs(3));
        assert_eq!(sizer.next(), 1);
        assert_eq!(BatchSizer::new(0).next(), 1);
    }

    /// A worker's panic ends the run whenever it is seen, also when the batches after it
    /// have filled the window of work in flight. (The panic, seen while the coordinator
    /// polled for answers, used to let it go on to wait for the panicked batch's answer,
    /// which never comes: the run hung once in a full test run.) Many small runs, each
    /// watched: a hang fails the test instead of stopping the suite.
    #[test]
    fn a_panic_ends_the_run_even_with_the_window_full() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for round in 0..300u64 {
                let run = std::panic::catch_unwind(|| {
                    map_ordered(
                        0..200u64,
                        2,
                        1,
                        || (),
                        |_, &i| {
                            assert!(i != round % 7, "item {i}");
                            i
                        },
                        |_, _| true,
                    )
                });
                assert!(run.is_err());
            }
            tx.send(()).unwrap();
        });
        assert!(
            rx.recv_timeout(Duration::from_secs(60)).is_ok(),
            "a run with a panicked worker hung"
        );
    }

    /// While one slow item holds up delivery, the other worker goes on with the items after
    /// it (in flight is counted in items, not in batches of one).
    #[test]
    fn a_slow_item_does_not_idle_the_other_worker() {
        let by = by_worker(40, |i| if i == 0 { 1000 } else { 2 });
        assert_eq!(by.len(), 40);
        let slow = by[0].1;
        let others: Vec<u64> = by.iter().filter(|d| d.1 == slow).map(|d| d.0).collect();
        assert_eq!(others, [0], "the slow item's worker took only it: {by:?}");
    }
}
