//! Every call into the sudobench library, in one file, so that a change of the library's API
//! (the `Solver` entry point, `Outcome`'s shape) is a change here only. The rest of the
//! extension sees plain cell arrays, [`Puzzle`] values it only passes back, and [`Answer`]s.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use sudobench::format::{OpenError, Reader};
use sudobench::judge;
use sudobench::order::{format as order_format, Order, OrderGrid};
use sudobench::puzzle::Solution;
use sudobench::solver::{Clock, Count, Limit, Options, Solver};
use sudobench::{backends, verify, Candidates, Grid};

/// A parsed puzzle (clue grid or pencilmarks), opaque to the rest of the extension.
pub type Puzzle = sudobench::Puzzle;

/// Names of the built-in backends, in the library's order.
pub fn backend_names() -> Vec<&'static str> {
    backends::builtin_names().collect()
}

/// Why a line of the wrong length is no grid: the lengths grids of each order have.
pub fn length_error(n: usize, pencilmarks: bool) -> String {
    let marks = if pencilmarks {
        ", or 729 for pencilmarks"
    } else {
        ""
    };
    format!(
        "has {n} characters, expected 81 for 9x9 (16, 256 or 625 for 4x4, 16x16 or 25x25{marks}; \
         whitespace-separated numbers for any order)"
    )
}

/// The grid of a line of any order: n⁴ characters (orders 2 to 5) or n⁴ whitespace-separated
/// numbers (any order).
fn order_line(text: &[u8], pencilmarks: bool) -> Result<OrderGrid, String> {
    let text = std::str::from_utf8(text).map_err(|_| "is not valid UTF-8".to_string())?;
    if !order_format::is_numbers_line(text) && Order::from_cells(text.chars().count()).is_none() {
        return Err(length_error(text.chars().count(), pencilmarks));
    }
    order_format::parse_line(text).map_err(|e| e.to_string())
}

/// Parses a puzzle line: 81 characters (`1`-`9`, `.` or `0`), a 729-character pencilmark
/// line, or a clue grid of another order (n⁴ characters up to 25x25, or numbers).
pub fn parse_puzzle(text: &[u8]) -> Result<Puzzle, String> {
    match text.len() {
        81 => Grid::from_bytes(text)
            .map(Puzzle::Grid)
            .map_err(|e| e.to_string()),
        729 => Candidates::from_bytes(text)
            .map(Puzzle::Candidates)
            .map_err(|e| e.to_string()),
        _ => order_line(text, true).map(Puzzle::from_order_grid),
    }
}

/// A clue grid of `order` from cell values already checked to be 0..=n².
pub fn puzzle_from_cells(order: Order, cells: Vec<u8>) -> Result<Puzzle, String> {
    if order.n() == 3 {
        let cells: [u8; 81] = cells
            .try_into()
            .map_err(|_| "a 9x9 grid has 81 cells".to_string())?;
        return Grid::from_cells(cells)
            .map(Puzzle::Grid)
            .map_err(|e| e.to_string());
    }
    OrderGrid::from_values(order, cells)
        .map(Puzzle::from_order_grid)
        .map_err(|e| e.to_string())
}

/// Cell values (0 for an empty cell) of a grid line of any order.
pub fn parse_grid(text: &[u8]) -> Result<Vec<u8>, String> {
    if text.len() == 81 {
        return Grid::from_bytes(text)
            .map(|g| g.cells().to_vec())
            .map_err(|e| e.to_string());
    }
    order_line(text, false).map(|g| g.cells().to_vec())
}

/// Whether `cells` is a complete valid grid of the puzzle's order that keeps its clues (or,
/// for pencilmarks, uses only candidates), by the library's independent verifier.
pub fn is_solution(puzzle: &Puzzle, cells: &[u8]) -> bool {
    match puzzle {
        Puzzle::Order(p) => {
            cells.len() == p.order().cells()
                && OrderGrid::from_values(p.order(), cells.to_vec()).is_ok_and(|g| {
                    verify::check_solution(puzzle, &Solution::Order(Arc::new(g))).is_ok()
                })
        }
        _ => <[u8; 81]>::try_from(cells)
            .ok()
            .and_then(|c| Grid::from_cells(c).ok())
            .is_some_and(|grid| verify::check_puzzle(puzzle, &grid).is_ok()),
    }
}

/// The cell values of a solution of any order.
pub fn solution_cells(solution: &Solution) -> &[u8] {
    match solution {
        Solution::Grid(g) => g.cells(),
        Solution::Order(g) => g.cells(),
    }
}

/// What one puzzle's search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Solutions found, at most the limit (the limit itself meaning "that many or more");
    /// `None` when the backend could not decide.
    pub count: Option<u32>,
    /// The first solution found, verified.
    pub solution: Option<Solution>,
}

/// What each puzzle's search may spend: nodes and wall-clock time (`None`: no limit).
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub max_nodes: Option<u64>,
    pub max_time: Option<std::time::Duration>,
}

/// One backend instance; it is reused for every puzzle of a thread's share of a batch.
pub struct Backend {
    name: String,
    solver: Box<dyn Solver>,
    problems: &'static [backends::ProblemKind],
}

/// Puzzles handed to a backend at once (an `exec:` program pipelines them).
pub const CHUNK: usize = 256;

impl Backend {
    /// Builds a backend by name (a built-in one or `exec:CMD`); `budget` bounds every search.
    pub fn build(name: &str, budget: Budget) -> Result<Backend, String> {
        let mut options = Options {
            max_nodes: budget.max_nodes,
            max_time: budget.max_time,
            ..Options::default()
        };
        if name.starts_with("lib:") {
            // The interpreter is no sudobench binary: the worker is this extension, entered
            // through the interpreter in isolated mode (see `LibWorker`).
            let worker = LIB_WORKER
                .get()
                .ok_or("the lib: worker was not set up (call through the sudobench module)")?;
            options.lib_worker = Some(worker.interpreter.clone());
            options.lib_worker_args = worker.args();
        }
        let solver = backends::build(name, &options).map_err(|e| e.to_string())?;
        let problems = backends::facts(name).map_err(|e| e.to_string())?.problems;
        Ok(Backend {
            name: name.to_string(),
            solver,
            problems,
        })
    }

    /// The first puzzle the backend does not solve (another order than it supports), with
    /// why: such a batch is refused before anything runs.
    pub fn first_unsupported(&self, puzzles: &[Puzzle]) -> Option<(usize, String)> {
        let (i, puzzle) = puzzles
            .iter()
            .enumerate()
            .find(|(_, p)| !self.problems.contains(&backends::ProblemKind::of(p)))?;
        let why = format!(
            "backend {} solves 9x9 puzzles only, this one is {} (backends of every order: {})",
            self.name,
            puzzle.shape().label(),
            backends::BACKENDS
                .iter()
                .filter(|b| b.problems.contains(&backends::ProblemKind::SudokuOrders))
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
        Some((i, why))
    }

    /// Looks for up to `limit` solutions of each puzzle, writing one answer per puzzle into
    /// `answers` (of the same length). Every solution and second solution a backend returns is
    /// checked by the verifier; a wrong one, or a backend that has failed for good, is an error
    /// naming the puzzle's position in `puzzles`.
    pub fn count_into(
        &mut self,
        puzzles: &[Puzzle],
        limit: u32,
        answers: &mut [Answer],
    ) -> Result<(), (usize, String)> {
        let Some(limit) = Limit::new(limit) else {
            return Err((0, "the limit must be at least 1".to_string()));
        };
        for (start, chunk) in (0..).step_by(CHUNK).zip(puzzles.chunks(CHUNK)) {
            let batch = self.solver.solve_batch(chunk, limit, Clock::Cpu);
            let name = &self.name;
            if batch.outcomes.len() != chunk.len() {
                let msg = format!("backend {name} returned too few outcomes");
                return Err((start + batch.outcomes.len(), msg));
            }
            let slots = &mut answers[start..start + chunk.len()];
            for (i, ((puzzle, outcome), slot)) in
                chunk.iter().zip(&batch.outcomes).zip(slots).enumerate()
            {
                // The same typed check every sudobench command applies to an answer.
                if let Some(problem) = judge::check_answer(puzzle, outcome) {
                    return Err((start + i, format!("backend {name} {problem}")));
                }
                let count = match outcome.count() {
                    Count::Exactly(n) | Count::AtLeast(n) => Some(n.min(limit.get())),
                    Count::Unknown => {
                        if let Some(fault) = &batch.fault {
                            return Err((start + i, format!("backend {name} failed: {fault}")));
                        }
                        None
                    }
                };
                *slot = Answer {
                    count,
                    solution: outcome.first_solution().cloned(),
                };
            }
        }
        Ok(())
    }
}

/// Why [`read`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened; the message names it.
    Open(std::io::ErrorKind, String),
    /// The path is a directory.
    Directory(String),
    /// A malformed record or a broken stream, as `FILE:LINE: message`.
    Malformed(String),
}

/// Every record of a puzzle file (any format the library reads, plain or gzipped): the
/// puzzle's line form (81 characters with `.` for empty cells, or 729 for pencilmarks) and the
/// file's expected solution, if it has one. Stops at the first malformed record.
pub fn read(path: &str) -> Result<Vec<(String, Option<String>)>, ReadError> {
    let reader = Reader::open(path).map_err(|e| match e {
        OpenError::Io { ref source, .. } => ReadError::Open(source.kind(), e.to_string()),
        OpenError::Directory { .. } => ReadError::Directory(e.to_string()),
    })?;
    let mut records = Vec::new();
    for item in reader {
        let record = item.map_err(|e| ReadError::Malformed(e.to_string()))?;
        records.push((
            record.puzzle.to_line(),
            record.expected.map(|g| g.to_line()),
        ));
    }
    Ok(records)
}

/// How a `lib:` backend runs its worker from Python: the interpreter running this module, in
/// isolated mode (`-I`: no current directory or script directory on the module path, no
/// `PYTHON*` variables, no user site; `-S`: no `site` module), loading this very extension
/// from its file and calling its `_lib_worker`. Nothing is looked up in the current directory:
/// the interpreter and the extension are named by absolute paths.
pub struct LibWorker {
    /// The Python interpreter (`sys.executable`).
    pub interpreter: PathBuf,
    /// This extension module's file (`sudobench._native.__file__`).
    pub extension: PathBuf,
}

/// The program the worker interpreter runs: load the extension from the path given as its
/// first argument, serve with the rest, and exit without running any Python shutdown code.
const WORKER_CODE: &str = "import sys\n\
from importlib.machinery import ExtensionFileLoader\n\
from importlib.util import module_from_spec, spec_from_loader\n\
loader = ExtensionFileLoader('sudobench._native', sys.argv[1])\n\
module = module_from_spec(spec_from_loader('sudobench._native', loader))\n\
loader.exec_module(module)\n\
import os\n\
os._exit(0 if module._lib_worker(sys.argv[2:]) else 1)\n";

impl LibWorker {
    /// The arguments before the worker's own.
    pub fn args(&self) -> Vec<OsString> {
        vec![
            "-I".into(),
            "-S".into(),
            "-c".into(),
            WORKER_CODE.into(),
            self.extension.clone().into_os_string(),
        ]
    }
}

/// Set once, with the GIL held, before the first `lib:` backend is built.
pub static LIB_WORKER: OnceLock<LibWorker> = OnceLock::new();

/// Runs a worker from its command line (what `_lib_worker` receives).
pub fn serve_worker(args: &[String]) -> Result<bool, String> {
    sudobench::solver::plugin::serve_args(args)
}
