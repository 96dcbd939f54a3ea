//! `sudobench count --backend sat --proof DIR`: the flags' checks, and the proof of each
//! record, written on the pipeline's worker threads (see [`Prover::prove`]). File naming and
//! the directory's rules are [`ProofDir`]'s.

use super::args::BackendArgs;
use anyhow::{bail, Result};
use std::path::Path;
use sudobench::certify::files::ProofDir;
use sudobench::format::{Item, ParseError, Reader, Record};
use sudobench::puzzle::Solution;
use sudobench::runner::pipeline::{run_ordered, Sink, Stage};
use sudobench::runner::{Mismatch, Observer, Runner};
use sudobench::solver::sat::proof::{prove, Proven};
use sudobench::solver::sat::Encoding;
use sudobench::solver::{Count, Outcome};

/// Writes DRAT proofs of uniqueness (or of unsolvability) into one directory.
pub struct Prover {
    dir: ProofDir,
    encoding: Encoding,
}

/// A prover for `count --proof DIR`: needs `--backend sat` and a limit of at least 2.
pub fn prover(dir: &Path, backend: &BackendArgs, limit: u32, files: &[String]) -> Result<Prover> {
    if !sudobench::backends::certifies(backend.name()) {
        bail!("--proof needs --backend sat (got {})", backend.name());
    }
    if limit < 2 {
        bail!("--proof needs --limit 2 or more (uniqueness is only decided then)");
    }
    let encoding = backend.settings.encoding.unwrap_or(Encoding::DEFAULT);
    Ok(Prover {
        dir: ProofDir::new(dir, files)?,
        encoding,
    })
}

impl Prover {
    /// Proves that `record` has no solution other than `solution` (with `None`: no solution
    /// at all) and writes `NAME-LINE.cnf` and `NAME-LINE.drat`: the proof is made in memory,
    /// and the files are written only when it proves what the backend answered.
    pub fn prove(&self, record: &Record, solution: Option<&Solution>) -> Result<(), String> {
        let (mut cnf, mut drat) = (Vec::new(), Vec::with_capacity(64 * 1024));
        let result = prove(&record.puzzle, self.encoding, &mut cnf, &mut drat);
        let problem = match (result, solution) {
            (Ok(Proven::Unique(s)), Some(solution)) if &s == solution => None,
            (Ok(Proven::NoSolution), None) => None,
            (Ok(Proven::Unique(s)), Some(solution)) => Some(format!(
                "proof run found solution {s}, the backend {solution}"
            )),
            (Ok(Proven::Unique(s)), None) => Some(format!("proof run found solution {s}")),
            (Ok(Proven::NoSolution), Some(_)) => Some("proof run found no solution".to_string()),
            (Ok(Proven::Multiple), _) => Some("proof run found a second solution".to_string()),
            (Err(e), _) => Some(format!("proof: {e}")),
        };
        if let Some(problem) = problem {
            return Err(problem);
        }
        let stem = self.dir.stem(record);
        self.dir.write(&format!("{stem}.cnf"), &cnf)?;
        self.dir.write(&format!("{stem}.drat"), &drat)?;
        Ok(())
    }
}

/// What a worker hands back for each record of a batch, replayed in order on the printing
/// thread.
enum Event {
    /// A backend failed for good.
    Fault(String, String),
    /// A record's answers, the judge's problems, and the proof's result (`None`: nothing to
    /// prove).
    Puzzle(
        Box<(Record, Vec<Option<Outcome>>, Option<Mismatch>)>,
        Option<Result<(), String>>,
    ),
    /// A malformed record.
    Parse(ParseError),
    /// The runner could not run the batch.
    Failed(String),
}

/// Collects a batch's events on the worker, proving each answer as it is judged.
struct Collect<'a> {
    prover: &'a Prover,
    events: Vec<Event>,
}

impl Observer for Collect<'_> {
    fn puzzle(
        &mut self,
        record: &Record,
        answers: &[Option<Outcome>],
        mismatch: Option<&Mismatch>,
    ) {
        let proof = match (mismatch, answers.first()) {
            (None, Some(Some(o))) => match o.count() {
                Count::Exactly(1) => Some(self.prover.prove(record, o.first_solution())),
                Count::Exactly(0) => Some(self.prover.prove(record, None)),
                _ => None,
            },
            _ => None,
        };
        self.events.push(Event::Puzzle(
            Box::new((record.clone(), answers.to_vec(), mismatch.cloned())),
            proof,
        ));
    }

    fn parse_error(&mut self, error: &ParseError) {
        self.events.push(Event::Parse(error.clone()));
    }

    fn fault(&mut self, backend: &str, why: &str) {
        self.events
            .push(Event::Fault(backend.to_string(), why.to_string()));
    }
}

/// A worker stage: judges a batch with the runner (on this thread) and proves its answers.
struct ProveStage<'a> {
    runner: &'a Runner,
    prover: &'a Prover,
}

impl Stage for ProveStage<'_> {
    type Output = Vec<Event>;
    fn process(&mut self, items: &[Item]) -> Vec<Event> {
        let mut collect = Collect {
            prover: self.prover,
            events: Vec::with_capacity(items.len()),
        };
        let source = match items.first() {
            Some(Ok(r)) => r.source.to_string(),
            _ => String::new(),
        };
        if let Err(e) = self
            .runner
            .run_items(&source, items.iter().cloned(), None, &mut collect)
        {
            collect.events.push(Event::Failed(e.to_string()));
        }
        collect.events
    }
}

/// An observer that is told each proof's result just before the record it belongs to.
pub trait ProofObserver: Observer {
    /// The result of the proof of the record [`Observer::puzzle`] is told next (`None`:
    /// nothing to prove).
    fn proved(&mut self, result: Option<Result<(), String>>);
    /// The run could not go on (an input could not be opened, a backend not built).
    fn error(&mut self, message: &str);
}

/// Replays a batch's events to the observer, in input order.
struct Replay<'a>(&'a mut dyn ProofObserver);

impl Sink<Item, Vec<Event>> for Replay<'_> {
    fn deliver(&mut self, _: Vec<Item>, events: Vec<Event>) -> bool {
        for event in events {
            match event {
                Event::Fault(backend, why) => self.0.fault(&backend, &why),
                Event::Puzzle(answer, proof) => {
                    let (record, answers, mismatch) = *answer;
                    self.0.proved(proof);
                    self.0.puzzle(&record, &answers, mismatch.as_ref());
                }
                Event::Parse(e) => self.0.parse_error(&e),
                Event::Failed(e) => self.0.error(&e),
            }
        }
        !self.0.done()
    }

    fn idle(&mut self) {
        self.0.idle();
    }
}

/// Runs `runner` (whose config must say one thread) over every file on `threads` worker
/// stages, each judging its batch and writing the proofs of its answers, and tells
/// `observer` everything in input order.
pub fn run(
    runner: &Runner,
    prover: &Prover,
    files: &[String],
    threads: usize,
    batch: usize,
    observer: &mut dyn ProofObserver,
) {
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    for file in files {
        let mut reader = match Reader::open(file) {
            Ok(r) => r,
            Err(e) => {
                observer.error(&e.to_string());
                continue;
            }
        };
        let mut stages: Vec<ProveStage> = (0..threads.max(1))
            .map(|_| ProveStage { runner, prover })
            .collect();
        run_ordered(&mut reader, &mut stages, batch, &mut Replay(observer));
        if observer.done() {
            break;
        }
    }
}
