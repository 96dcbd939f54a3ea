//! The machinery of a run: chunking, sampling, worker threads, timing, budgets, and putting
//! results back in input order.

use super::check;
use super::{BackendReport, Observer, RunError, Runner, SetReport, MAX_KEPT_MISMATCHES};
use crate::format::{Item, Record};
use crate::grid::Puzzle;
use crate::solver::{Outcome, Solver};
use crate::symmetry::{mix_seed, SplitMix64, Symmetry};
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A reader that counts the bytes it hands out (compressed bytes, for progress and ETA).
pub(super) struct Counting<R> {
    pub inner: R,
    pub count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// CPU time used so far by the calling thread. The speed-up estimate counts work in CPU time,
/// not wall-clock time, which a shared machine inflates; the measuring examples use it for
/// the same reason.
pub fn thread_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// A batch of records and, once processed, their answers.
struct Chunk {
    seq: u64,
    items: Vec<Item>,
    /// `items.len() × backends` answers, row by row (`None` for errors and skipped backends).
    answers: Vec<Option<Outcome>>,
    mismatches: Vec<super::Mismatch>,
    tallies: Vec<BackendReport>,
    busy: Duration,
    busy_cpu: Duration,
}

impl Chunk {
    fn new(capacity: usize) -> Chunk {
        Chunk {
            seq: 0,
            items: Vec::with_capacity(capacity),
            answers: Vec::new(),
            mismatches: Vec::new(),
            tallies: Vec::new(),
            busy: Duration::ZERO,
            busy_cpu: Duration::ZERO,
        }
    }
}

/// Budget state shared by the workers: solving time spent per backend, and whether it is over.
struct Shared {
    budget_ns: Option<u64>,
    spent_ns: Vec<AtomicU64>,
    stopped: Vec<AtomicBool>,
}

/// One thread's backend instances and scratch space.
struct Worker<'a> {
    runner: &'a Runner,
    shared: &'a Shared,
    solvers: Vec<Box<dyn Solver>>,
    puzzles: Vec<Puzzle>,
    /// Index in the chunk of each puzzle in `puzzles`.
    positions: Vec<usize>,
    inverses: Vec<Symmetry>,
    blamed: Vec<bool>,
    outcomes: Vec<Outcome>,
    /// Recent nanoseconds per puzzle of each backend, to size its batches.
    mean_ns: Vec<u64>,
    /// Per backend: the panic that put this instance out of use, if one did.
    panicked: Vec<Option<String>>,
}

/// Target duration of one timed batch.
const BATCH_NS: u64 = 1_000_000;
/// Most puzzles in one batch.
const MAX_BATCH: usize = 64;

impl<'a> Worker<'a> {
    fn new(runner: &'a Runner, shared: &'a Shared) -> Result<Worker<'a>, RunError> {
        let solvers = runner
            .backends
            .iter()
            .map(|b| b.instance())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Worker {
            runner,
            shared,
            blamed: vec![false; solvers.len()],
            mean_ns: vec![0; solvers.len()],
            panicked: vec![None; solvers.len()],
            solvers,
            puzzles: Vec::new(),
            positions: Vec::new(),
            inverses: Vec::new(),
            outcomes: Vec::with_capacity(MAX_BATCH),
        })
    }

    /// Solves every record of the chunk with every backend still within its budget, maps the
    /// answers back, and checks them.
    fn process(&mut self, chunk: &mut Chunk) {
        let start = Instant::now();
        let start_cpu = thread_cpu_time();
        let config = &self.runner.config;
        let backends = &self.runner.backends;
        let nb = backends.len();
        let limit = config.limit.max(1);

        chunk.answers.clear();
        chunk.answers.resize(chunk.items.len() * nb, None);
        chunk.mismatches.clear();
        chunk.tallies.clear();
        chunk.tallies.extend(backends.iter().map(|b| BackendReport {
            name: b.name(),
            complete: b.is_complete(),
            ..BackendReport::default()
        }));

        // The puzzles as the backends see them.
        self.puzzles.clear();
        self.inverses.clear();
        for record in chunk.items.iter().filter_map(|i| i.as_ref().ok()) {
            match config.transform {
                Some(seed) => {
                    let s = Symmetry::from_seed(mix_seed(seed, record.line));
                    self.puzzles.push(s.apply_puzzle(&record.puzzle));
                    self.inverses.push(s.inverse());
                }
                None => self.puzzles.push(record.puzzle),
            }
        }

        // Backend by backend over the whole chunk, in batches (`Solver::solve_batch`, which
        // lets an external program pipeline); only the solve calls are timed. A batch is sized
        // to take about a millisecond, so the budget is checked often for slow backends and
        // the clock read rarely for fast ones.
        self.positions.clear();
        self.positions.extend(
            chunk
                .items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.is_ok())
                .map(|(i, _)| i),
        );
        for (b, solver) in self.solvers.iter_mut().enumerate() {
            if self.shared.stopped[b].load(Ordering::Relaxed) {
                chunk.tallies[b].budget_spent = true;
                continue;
            }
            let mut local_ns = 0u64;
            let mut k = 0;
            while k < self.puzzles.len() {
                if let Some(budget) = self.shared.budget_ns {
                    if self.shared.spent_ns[b].load(Ordering::Relaxed) + local_ns >= budget {
                        self.shared.stopped[b].store(true, Ordering::Relaxed);
                        chunk.tallies[b].budget_spent = true;
                        break;
                    }
                }
                let size = match self.mean_ns[b] {
                    0 => 1,
                    mean => (BATCH_NS / mean).clamp(1, MAX_BATCH as u64) as usize,
                };
                let end = (k + size).min(self.puzzles.len());
                self.outcomes.clear();
                if self.panicked[b].is_none() {
                    let start = Instant::now();
                    let batch = &self.puzzles[k..end];
                    let outcomes = &mut self.outcomes;
                    // A backend that panics (a user's Solver, say) must not take the run down:
                    // this instance is not called again and answers `unknown` from here on,
                    // and the report says why.
                    let solved = panic::catch_unwind(AssertUnwindSafe(|| {
                        solver.solve_batch(batch, limit, outcomes)
                    }));
                    let spent = start.elapsed().as_nanos() as u64;
                    local_ns += spent;
                    self.mean_ns[b] = (spent / (end - k) as u64).max(1);
                    if let Err(payload) = solved {
                        self.panicked[b] = Some(panic_message(payload.as_ref()));
                        self.outcomes.clear();
                    }
                }
                // Every puzzle gets an answer: a batch answered short, or not at all after a
                // panic, is `unknown` for the rest.
                self.outcomes
                    .resize(end - k, Outcome::unknown(crate::solver::Stats::default()));
                for (j, outcome) in self.outcomes.drain(..).enumerate().take(end - k) {
                    chunk.answers[self.positions[k + j] * nb + b] = Some(outcome);
                }
                k = end;
            }
            let fault = match &self.panicked[b] {
                Some(message) => Some(format!("panicked: {message}")),
                None => solver.fault().map(str::to_string),
            };
            chunk.tallies[b].fault = fault;
            self.shared.spent_ns[b].fetch_add(local_ns, Ordering::Relaxed);
            chunk.tallies[b].time += Duration::from_nanos(local_ns);
        }

        // Map back, tally and cross-check.
        let mut k = 0;
        for (i, item) in chunk.items.iter().enumerate() {
            let Ok(record) = item else { continue };
            let row = &mut chunk.answers[i * nb..(i + 1) * nb];
            if config.transform.is_some() {
                let inverse = &self.inverses[k];
                for o in row.iter_mut().flatten() {
                    for s in [&mut o.solution, &mut o.second].into_iter().flatten() {
                        *s = inverse.apply(s);
                    }
                }
            }
            k += 1;
            for (tally, o) in chunk.tallies.iter_mut().zip(row.iter()) {
                if let Some(o) = o {
                    tally.tally(o);
                }
            }
            let problems = check::check(record, row, backends, limit, &mut self.blamed);
            if !problems.is_empty() {
                for (tally, &blamed) in chunk.tallies.iter_mut().zip(&self.blamed) {
                    if blamed {
                        tally.mismatches += 1;
                    }
                }
                chunk.mismatches.push(check::mismatch(
                    record,
                    row,
                    backends,
                    limit,
                    problems,
                    &self.blamed,
                ));
            }
        }
        chunk.busy = start.elapsed();
        chunk.busy_cpu = thread_cpu_time().saturating_sub(start_cpu);
    }
}

/// The message a panic was raised with (`panic!` with a string or a format).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// Fills a chunk with up to `size` items; returns whether it got any.
fn fill(source: &mut dyn Iterator<Item = Item>, chunk: &mut Chunk, size: usize) -> bool {
    chunk.items.clear();
    chunk.items.extend(source.take(size));
    !chunk.items.is_empty()
}

/// Keeps `size` records drawn uniformly (reservoir sampling), returned in input order.
fn reservoir(
    items: &mut dyn Iterator<Item = Item>,
    size: usize,
    seed: u64,
    report: &mut SetReport,
    observer: &mut dyn Observer,
) -> Vec<Record> {
    let mut rng = SplitMix64::new(seed);
    let mut kept: Vec<Record> = Vec::with_capacity(size.min(1 << 20));
    let mut seen = 0u64;
    for item in items {
        match item {
            Ok(record) => {
                if kept.len() < size {
                    kept.push(record);
                } else {
                    let j = rng.below(seen + 1);
                    if (j as usize) < size {
                        kept[j as usize] = record;
                    }
                }
                seen += 1;
            }
            Err(e) => {
                report.parse_errors += 1;
                observer.parse_error(&e);
            }
        }
    }
    report.records = seen;
    kept.sort_by_key(|r| r.line);
    kept
}

/// Hands a processed chunk to the report and the observer, in input order.
fn deliver(
    chunk: &mut Chunk,
    nb: usize,
    counting: bool,
    report: &mut SetReport,
    observer: &mut dyn Observer,
    bytes: Option<&AtomicU64>,
) {
    for (i, item) in chunk.items.iter().enumerate() {
        match item {
            Ok(record) => {
                report.selected += 1;
                if counting {
                    report.records += 1;
                }
                observer.puzzle(record, &chunk.answers[i * nb..(i + 1) * nb]);
            }
            Err(e) => {
                report.parse_errors += 1;
                observer.parse_error(e);
            }
        }
    }
    for m in chunk.mismatches.drain(..) {
        observer.mismatch(&m);
        report.mismatch_total += 1;
        if report.mismatches.len() < MAX_KEPT_MISMATCHES {
            report.mismatches.push(m);
        }
    }
    for (total, part) in report.backends.iter_mut().zip(&chunk.tallies) {
        total.add(part);
    }
    report.busy_time += chunk.busy;
    report.busy_cpu += chunk.busy_cpu;
    observer.progress(
        report.selected + report.parse_errors,
        bytes.map(|b| b.load(Ordering::Relaxed)),
    );
}

pub(super) fn run(
    runner: &Runner,
    source: &str,
    items: impl Iterator<Item = Item>,
    bytes_read: Option<Arc<AtomicU64>>,
    observer: &mut dyn Observer,
) -> Result<SetReport, RunError> {
    let config = &runner.config;
    let nb = runner.backends.len();
    let threads = config.threads.max(1);
    let chunk_size = config.chunk_size.max(1);
    let shared = Shared {
        budget_ns: config
            .time_budget
            .map(|d| d.as_nanos().min(u64::MAX as u128) as u64),
        spent_ns: (0..nb).map(|_| AtomicU64::new(0)).collect(),
        stopped: (0..nb).map(|_| AtomicBool::new(false)).collect(),
    };
    let mut workers = (0..threads)
        .map(|_| Worker::new(runner, &shared))
        .collect::<Result<Vec<_>, _>>()?;

    let wall = Instant::now();
    let mut report = SetReport {
        source: source.to_string(),
        threads,
        backends: runner
            .backends
            .iter()
            .map(|b| BackendReport {
                name: b.name(),
                complete: b.is_complete(),
                ..BackendReport::default()
            })
            .collect(),
        ..SetReport::default()
    };
    let bytes = bytes_read.as_deref();

    // With sampling, the whole source is read first (timed) and the sample is run.
    let mut items = items;
    let mut sampled;
    let mut read_time = Duration::ZERO;
    let counting = config.sample.is_none();
    let source_iter: &mut dyn Iterator<Item = Item> = match config.sample {
        Some(sample) => {
            let t = Instant::now();
            let cpu = thread_cpu_time();
            let kept = reservoir(&mut items, sample.size, sample.seed, &mut report, observer);
            read_time += t.elapsed();
            report.read_cpu += thread_cpu_time().saturating_sub(cpu);
            sampled = kept.into_iter().map(Ok);
            &mut sampled
        }
        None => &mut items,
    };

    let mut free: Vec<Chunk> = Vec::new();
    let mut seq = 0u64;
    let mut read_cpu = Duration::ZERO;
    let mut next_chunk = |free: &mut Vec<Chunk>, read_time: &mut Duration| -> Option<Chunk> {
        let mut chunk = free.pop().unwrap_or_else(|| Chunk::new(chunk_size));
        let (t, cpu) = (Instant::now(), thread_cpu_time());
        let got = fill(source_iter, &mut chunk, chunk_size);
        if counting {
            *read_time += t.elapsed();
            read_cpu += thread_cpu_time().saturating_sub(cpu);
        }
        chunk.seq = seq;
        seq += 1;
        got.then_some(chunk)
    };

    if threads == 1 {
        let worker = &mut workers[0];
        while let Some(mut chunk) = next_chunk(&mut free, &mut read_time) {
            worker.process(&mut chunk);
            deliver(&mut chunk, nb, counting, &mut report, observer, bytes);
            free.push(chunk);
        }
    } else {
        let (work_tx, work_rx) = mpsc::sync_channel::<Chunk>(threads * 2);
        let work_rx = Mutex::new(work_rx);
        let (done_tx, done_rx) = mpsc::channel::<Chunk>();
        std::thread::scope(|scope| {
            for worker in workers.iter_mut() {
                let work_rx = &work_rx;
                let done_tx = done_tx.clone();
                scope.spawn(move || loop {
                    let next = match work_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok(mut chunk) = next else { break };
                    worker.process(&mut chunk);
                    if done_tx.send(chunk).is_err() {
                        break;
                    }
                });
            }
            drop(done_tx);
            let mut pending: BTreeMap<u64, Chunk> = BTreeMap::new();
            let mut next = 0u64;
            let mut drain = |pending: &mut BTreeMap<u64, Chunk>,
                             free: &mut Vec<Chunk>,
                             report: &mut SetReport,
                             observer: &mut dyn Observer| {
                while let Some(mut chunk) = pending.remove(&next) {
                    deliver(&mut chunk, nb, counting, report, observer, bytes);
                    free.push(chunk);
                    next += 1;
                }
            };
            while let Some(chunk) = next_chunk(&mut free, &mut read_time) {
                if work_tx.send(chunk).is_err() {
                    break;
                }
                while let Ok(done) = done_rx.try_recv() {
                    pending.insert(done.seq, done);
                }
                drain(&mut pending, &mut free, &mut report, observer);
            }
            drop(work_tx);
            for done in done_rx {
                pending.insert(done.seq, done);
                drain(&mut pending, &mut free, &mut report, observer);
            }
        });
    }

    report.read_time = read_time;
    report.read_cpu += read_cpu;
    report.wall_time = wall.elapsed();
    observer.finish(&report);
    Ok(report)
}
