//! The machinery of a run: chunking, sampling, worker threads, timing, budgets, and putting
//! results back in input order.

use super::observer::Observer;
use super::pipeline::{run_ordered, Ready, Sink, Source, Stage};
use super::report::{BackendReport, Mismatch, SetReport, MAX_KEPT_MISMATCHES};
use super::setup::{Backend, RunError, Runner};
use crate::backends::ProblemKind;
use crate::format::{Item, Record};
use crate::judge::{self, Party, Verdict};
use crate::puzzle::Puzzle;
use crate::solver::{deadline, Clock, Outcome, Solver, Stopwatch};
use crate::symmetry::Symmetry;
use crate::util::{mix_seed, panic_message, thread_cpu_time, SplitMix64};
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
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

/// What a worker makes of a batch of records: every backend's answers, their tallies, and
/// the mismatches found.
pub(super) struct Chunk {
    /// `items × backends` answers, row by row (`None` for errors and skipped backends).
    answers: Vec<Option<Outcome>>,
    /// Per item: the index of its mismatch in `mismatches`, if it has one.
    mismatch_of: Vec<Option<usize>>,
    mismatches: Vec<Mismatch>,
    tallies: Vec<BackendReport>,
    /// Puzzles with a data error, settled by the referee, and left unsettled.
    data_errors: u64,
    refereed: u64,
    unsettled: u64,
    /// Outside claims the referee checked and confirmed or refuted (rule 5 of the judge).
    checked: u64,
    busy: Duration,
    busy_cpu: Duration,
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
    /// The referee's instance, built when the first dispute needs it.
    referee: Option<Box<dyn Solver>>,
    /// The instance of the referee for grids of other orders.
    order_referee: Option<Box<dyn Solver>>,
    /// Recent nanoseconds per puzzle of each backend, to size its batches.
    mean_ns: Vec<u64>,
    /// Per backend: the panic that put this instance out of use, if one did.
    panicked: Vec<Option<String>>,
    /// Per backend: why this instance failed for good, as its last batch said.
    faults: Vec<Option<String>>,
}

/// Target duration of one timed batch.
const BATCH_NS: u64 = 1_000_000;
/// Most puzzles in one batch.
const MAX_BATCH: usize = 64;

impl<'a> Worker<'a> {
    fn new(runner: &'a Runner, shared: &'a Shared) -> Result<Worker<'a>, RunError> {
        let solvers = runner
            .backends()
            .iter()
            .map(|b| b.instance())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Worker {
            runner,
            shared,
            referee: None,
            order_referee: None,
            mean_ns: vec![0; solvers.len()],
            panicked: vec![None; solvers.len()],
            faults: vec![None; solvers.len()],
            solvers,
            puzzles: Vec::new(),
            positions: Vec::new(),
            inverses: Vec::new(),
        })
    }

    /// Solves every record of the batch with every backend still within its budget, maps the
    /// answers back, and judges them.
    fn solve_chunk(&mut self, items: &[Item]) -> Chunk {
        let mut chunk = Chunk {
            answers: Vec::new(),
            mismatch_of: vec![None; items.len()],
            mismatches: Vec::new(),
            tallies: Vec::new(),
            data_errors: 0,
            refereed: 0,
            unsettled: 0,
            checked: 0,
            busy: Duration::ZERO,
            busy_cpu: Duration::ZERO,
        };
        let start = Instant::now();
        let start_cpu = thread_cpu_time();
        let config = &self.runner.config();
        let backends = self.runner.backends();
        let nb = backends.len();
        let limit = config.limit;

        chunk.answers.resize(items.len() * nb, None);
        chunk
            .tallies
            .extend(backends.iter().map(BackendReport::empty));

        // The puzzles as the backends see them.
        self.puzzles.clear();
        self.inverses.clear();
        for record in items.iter().filter_map(|i| i.as_ref().ok()) {
            match config.transform {
                Some(seed) => {
                    let s = Symmetry::from_seed(mix_seed(seed, record.line));
                    self.puzzles.push(s.apply_puzzle(&record.puzzle));
                    self.inverses.push(s.inverse());
                }
                None => self.puzzles.push(record.puzzle.clone()),
            }
        }

        // Backend by backend over the whole chunk, in batches (`Solver::solve_batch`, which
        // lets an out-of-process backend pipeline). Each batch comes back with its solving
        // time by the run's clock and any fault; nothing else is timed. A batch is sized to
        // take about a millisecond, so the budget is checked often for slow backends and the
        // clock read rarely for fast ones.
        self.positions.clear();
        self.positions.extend(
            items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.is_ok())
                .map(|(i, _)| i),
        );
        let clock = config.clock;
        let (mut own_puzzles, mut own_positions) = (Vec::new(), Vec::new());
        for (b, solver) in self.solvers.iter_mut().enumerate() {
            // A backend is asked only the puzzles it solves (a registry fact); the others are
            // `n/a` for it: no answer, counted apart.
            let backend = &self.runner.backends()[b];
            let (puzzles, positions) = if self.puzzles.iter().all(|p| backend.supports(p)) {
                (&self.puzzles[..], &self.positions[..])
            } else {
                own_puzzles.clear();
                own_positions.clear();
                for (p, &at) in self.puzzles.iter().zip(&self.positions) {
                    if backend.supports(p) {
                        own_puzzles.push(p.clone());
                        own_positions.push(at);
                    }
                }
                chunk.tallies[b].not_applicable += (self.puzzles.len() - own_puzzles.len()) as u64;
                (&own_puzzles[..], &own_positions[..])
            };
            if self.shared.stopped[b].load(Ordering::Relaxed) {
                chunk.tallies[b].budget_spent = true;
                continue;
            }
            let tally = &mut chunk.tallies[b];
            let mut local_ns = 0u64;
            let mut k = 0;
            while k < puzzles.len() {
                // Stopped by the deadline in the previous batch, here or on another thread.
                if k > 0 && self.shared.stopped[b].load(Ordering::Relaxed) {
                    tally.budget_spent = true;
                    break;
                }
                if let Some(budget) = self.shared.budget_ns {
                    if self.shared.spent_ns[b].load(Ordering::Relaxed) + local_ns >= budget {
                        self.shared.stopped[b].store(true, Ordering::Relaxed);
                        tally.budget_spent = true;
                        break;
                    }
                }
                let size = match self.mean_ns[b] {
                    0 => 1,
                    mean => (BATCH_NS / mean).clamp(1, MAX_BATCH as u64) as usize,
                };
                let end = (k + size).min(puzzles.len());
                let mut outcomes = Vec::new();
                if self.panicked[b].is_none() && self.faults[b].is_none() {
                    let batch = &puzzles[k..end];
                    // A backend that panics (a user's Solver, say) must not take the run down:
                    // this instance is not called again and answers `unknown` from here on,
                    // and the report says why. Its time is then the runner's own measure.
                    // With a time budget, what is left of it is a deadline for the searches
                    // of this batch, so a budget also stops a puzzle in progress.
                    let left = self.shared.budget_ns.map(|budget| {
                        let spent = self.shared.spent_ns[b].load(Ordering::Relaxed) + local_ns;
                        Duration::from_nanos(budget.saturating_sub(spent))
                    });
                    // The deadline runs on the clock the batch is billed by: under the CPU
                    // clock an in-process backend is billed its thread's CPU time, so its
                    // deadline is that thread's CPU time (on a busy machine a wall-clock one
                    // would stop it short of its budget). An outside backend is billed in
                    // another process and does not read this thread's deadline.
                    let cpu_deadline = clock == Clock::Cpu && !backend.is_outside();
                    let watch = Stopwatch::start(clock);
                    let solved = panic::catch_unwind(AssertUnwindSafe(|| {
                        let batch = || solver.solve_batch(batch, limit, clock);
                        if cpu_deadline {
                            deadline::within_cpu(left, batch)
                        } else {
                            deadline::within(left, batch)
                        }
                    }));
                    let (spent, healthy) = match solved {
                        Ok(answer) => {
                            tally.startup += answer.startup;
                            let healthy = answer.fault.is_none();
                            if let Some(fault) = answer.fault {
                                self.faults[b] = Some(fault);
                            }
                            outcomes = answer.outcomes;
                            (answer.time, healthy)
                        }
                        Err(payload) => {
                            self.panicked[b] = Some(panic_message(payload.as_ref()));
                            (watch.elapsed(), false)
                        }
                    };
                    let ns = spent.as_nanos().min(u128::from(u64::MAX)) as u64;
                    local_ns = local_ns.saturating_add(ns);
                    // The batch used up what was left of the budget, by the clock it is
                    // billed by (a search stopped by the deadline has: the deadline runs on
                    // that clock).
                    if left.is_some_and(|left| spent >= left) {
                        self.shared.stopped[b].store(true, Ordering::Relaxed);
                        tally.budget_spent = true;
                    }
                    self.mean_ns[b] = (ns / (end - k) as u64).max(1);
                    // A batch in which the backend failed is not timed: its answers past the
                    // failure cost nothing and would flatter its rate.
                    if healthy {
                        tally.timed += (end - k) as u64;
                        tally.time += spent;
                    }
                }
                // Every puzzle gets an answer: a batch answered short, or not at all after a
                // panic or a failure, is `unknown` for the rest.
                outcomes.truncate(end - k);
                outcomes.resize(end - k, Outcome::unknown(crate::solver::Stats::default()));
                for (j, outcome) in outcomes.into_iter().enumerate() {
                    chunk.answers[positions[k + j] * nb + b] = Some(outcome);
                }
                k = end;
            }
            tally.fault = match &self.panicked[b] {
                Some(message) => Some(format!("panicked: {message}")),
                None => self.faults[b].clone(),
            };
            self.shared.spent_ns[b].fetch_add(local_ns, Ordering::Relaxed);
        }

        // Map back and tally.
        let mut k = 0;
        for (i, item) in items.iter().enumerate() {
            if item.is_err() {
                continue;
            }
            let row = &mut chunk.answers[i * nb..(i + 1) * nb];
            if config.transform.is_some() {
                let inverse = &self.inverses[k];
                for o in row.iter_mut().flatten() {
                    o.map_solutions(|s| inverse.apply(s));
                }
            }
            k += 1;
            for (tally, o) in chunk.tallies.iter_mut().zip(row.iter()) {
                if let Some(o) = o {
                    tally.tally(o);
                }
            }
        }

        // Judge.
        let mut parties: Vec<Party> = Vec::with_capacity(nb);
        for (i, item) in items.iter().enumerate() {
            let Ok(record) = item else { continue };
            let row = &chunk.answers[i * nb..(i + 1) * nb];
            parties.clear();
            parties.extend(backends.iter().zip(row.iter()).map(|(b, o)| Party {
                name: b.name(),
                answer: o.as_ref(),
                outside: b.is_outside() && !config.trust_outside,
            }));
            let nine = matches!(ProblemKind::of(&record.puzzle), ProblemKind::Sudoku9);
            let referee = self.runner.referee_for(&record.puzzle);
            let referee_solver = match nine {
                true => &mut self.referee,
                false => &mut self.order_referee,
            };
            let referee_time = config.referee_time;
            let verdict = judge::judge(
                &record.puzzle,
                record.expected.as_ref(),
                limit,
                &parties,
                &mut || {
                    let referee = referee?;
                    if referee_solver.is_none() {
                        *referee_solver = referee.instance().ok();
                    }
                    let solver = referee_solver.as_mut()?;
                    let puzzle = &record.puzzle;
                    // The referee works under its budget: what it cannot finish is unknown,
                    // and the dispute unsettled.
                    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                        deadline::within(referee_time, || solver.solve(puzzle, limit))
                    }))
                    .ok()?;
                    Some((referee.name().to_string(), outcome))
                },
            );
            if verdict.is_clean() && verdict.ruling.is_none() {
                continue;
            }
            for (b, tally) in chunk.tallies.iter_mut().enumerate() {
                if verdict.blames(b) {
                    tally.mismatches += 1;
                }
            }
            // `solved` counts verified solutions only: one the verifier rejected is taken
            // back.
            for fault in &verdict.faults {
                if matches!(fault.problem, judge::Problem::InvalidSolution { .. }) {
                    let tally = &mut chunk.tallies[fault.party];
                    tally.solved = tally.solved.saturating_sub(1);
                }
            }
            chunk.data_errors += u64::from(!verdict.data_errors.is_empty());
            match &verdict.ruling {
                Some(r) if r.settled && !r.disputed => chunk.checked += 1,
                Some(r) if r.settled => chunk.refereed += 1,
                Some(_) => chunk.unsettled += 1,
                None => {}
            }
            if !verdict.is_clean() {
                chunk.mismatch_of[i] = Some(chunk.mismatches.len());
                chunk
                    .mismatches
                    .push(mismatch(record, row, backends, &parties, verdict));
            }
        }
        chunk.busy = start.elapsed();
        chunk.busy_cpu = thread_cpu_time().saturating_sub(start_cpu);
        chunk
    }
}

impl Stage for Worker<'_> {
    type Output = Chunk;
    fn process(&mut self, items: &[Item]) -> Chunk {
        self.solve_chunk(items)
    }
}

/// The mismatch record of a puzzle whose verdict found problems.
fn mismatch(
    record: &Record,
    row: &[Option<Outcome>],
    backends: &[Backend],
    parties: &[Party],
    verdict: Verdict,
) -> Mismatch {
    Mismatch {
        source: record.source.clone(),
        line: record.line,
        puzzle: record.puzzle.clone(),
        expected: record.expected.clone(),
        problems: verdict.problems(),
        answers: parties
            .iter()
            .zip(row)
            .zip(backends)
            .map(|((p, o), b)| {
                let text = match o {
                    Some(o) => o.text(),
                    None if !b.supports(&record.puzzle) => "n/a".to_string(),
                    None => "skipped (time budget spent)".to_string(),
                };
                (p.name.to_string(), text)
            })
            .collect(),
        blamed: verdict.faults.iter().map(|f| f.name.clone()).collect(),
        data_error: !verdict.data_errors.is_empty(),
        ruling: verdict.ruling,
    }
}

/// Keeps `size` records drawn uniformly (reservoir sampling), returned in input order.
fn reservoir(
    items: &mut dyn Source,
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

/// Hands processed chunks to the report and the observer, in input order.
struct Deliver<'a> {
    counting: bool,
    report: &'a mut SetReport,
    observer: &'a mut dyn Observer,
    bytes: Option<&'a AtomicU64>,
    /// Per backend: whether its fault was already told to the observer.
    told: Vec<bool>,
}

impl Sink<Item, Chunk> for Deliver<'_> {
    fn deliver(&mut self, items: Vec<Item>, mut chunk: Chunk) -> bool {
        let nb = self.report.backends.len();
        for (b, tally) in chunk.tallies.iter().enumerate() {
            if let (Some(fault), false) = (&tally.fault, self.told[b]) {
                self.told[b] = true;
                self.observer.fault(&tally.name, fault);
            }
        }
        for (i, item) in items.iter().enumerate() {
            match item {
                Ok(record) => {
                    self.report.selected += 1;
                    self.report.count_shape(record.puzzle.shape());
                    if self.counting {
                        self.report.records += 1;
                    }
                    let mismatch = chunk.mismatch_of[i].map(|m| &chunk.mismatches[m]);
                    self.observer
                        .puzzle(record, &chunk.answers[i * nb..(i + 1) * nb], mismatch);
                }
                Err(e) => {
                    self.report.parse_errors += 1;
                    self.observer.parse_error(e);
                }
            }
        }
        let report = &mut *self.report;
        report.data_errors += chunk.data_errors;
        report.refereed += chunk.refereed;
        report.unsettled += chunk.unsettled;
        report.checked += chunk.checked;
        for m in chunk.mismatches.drain(..) {
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
        self.observer.progress(
            report.selected + report.parse_errors,
            self.bytes.map(|b| b.load(Ordering::Relaxed)),
        );
        !self.observer.done()
    }

    fn idle(&mut self) {
        self.observer.idle();
    }
}

pub(super) fn run(
    runner: &Runner,
    source: &str,
    items: &mut dyn Source,
    bytes_read: Option<Arc<AtomicU64>>,
    observer: &mut dyn Observer,
) -> Result<SetReport, RunError> {
    let config = &runner.config();
    let nb = runner.backends().len();
    let threads = config.threads.max(1);
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
    let mut report = SetReport::begun(source, runner);

    // With sampling, the whole source is read first (timed) and the sample is run.
    let counting = config.sample.is_none();
    let mut sampled;
    let source_iter: &mut dyn Source = match config.sample {
        Some(sample) => {
            let t = Instant::now();
            let cpu = thread_cpu_time();
            let kept = reservoir(items, sample.size, sample.seed, &mut report, observer);
            report.read_time += t.elapsed();
            report.read_cpu += thread_cpu_time().saturating_sub(cpu);
            sampled = Ready(kept.into_iter().map(Ok));
            &mut sampled
        }
        None => items,
    };
    let mut sink = Deliver {
        counting,
        report: &mut report,
        observer: &mut *observer,
        bytes: bytes_read.as_deref(),
        told: vec![false; nb],
    };
    let read = run_ordered(source_iter, &mut workers, config.chunk_size, &mut sink);
    if counting {
        report.read_time += read.wall;
        report.read_cpu += read.cpu;
    }
    report.wall_time = wall.elapsed();
    observer.finish(&report);
    Ok(report)
}
