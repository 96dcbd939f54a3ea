//! The `sudobench._native` Python module: argument checking, conversion between Python values
//! and cell arrays, and batches split over threads with the GIL released. Every call into the
//! sudobench library goes through `bridge`.

mod bridge;
mod dist;

use bridge::{Answer, Backend, Puzzle};
use numpy::prelude::*;
use numpy::{Element, PyArray1, PyArrayDescr, PyArrayDyn, PyUntypedArray};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError,
    PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use sudobench::deadline::MAX_SECONDS;
use sudobench::order::Order;

/// Names of the built-in backends, for the ``backend`` argument of :func:`count` and
/// :func:`solve`. ``"exec:CMD"`` (an external program speaking sudobench's line protocol) and
/// ``"lib:PATH:SYMBOL"`` (a C function with tdoku's signature, run in a worker process) are
/// accepted there too.
#[pyfunction]
fn backends() -> Vec<&'static str> {
    bridge::backend_names()
}

/// Counts the solutions of every puzzle, up to ``limit``.
///
/// ``puzzles`` is a sequence of strings (81 characters: ``1``-``9`` for clues, ``.`` or ``0``
/// for empty cells; or 729-character pencilmark lines) or a numpy integer array of shape
/// ``(N, 81)`` or ``(N, 9, 9)`` with 0 for empty cells. Grids of another order n (4x4,
/// 16x16 ... 64x64) are strings of n⁴ characters up to 25x25 (``1``-``9`` then ``A``-``Z``)
/// or of n⁴ whitespace-separated numbers for any order, or arrays of shape ``(N, n⁴)`` or
/// ``(N, n², n²)``; only backends of every order (``wide``, ``basic``, ``dlx``,
/// ``dlx-array`` and the ``sat`` backends) take them. Without a ``backend``, ``bitmask``
/// answers a batch of 9x9 puzzles and ``wide`` any other batch (as the command line's default
/// does; ``wide`` answers the 9x9 puzzles of a mixed batch too).
///
/// Returns one entry per puzzle, in order: the number of solutions found, where ``limit``
/// means "``limit`` or more" (so with the default ``limit=2``: 0 none, 1 unique, 2 several),
/// or ``None`` when the backend could not decide (an incomplete backend such as
/// ``projection``, or ``max_nodes`` or ``max_seconds`` spent). Every solution a backend returns is checked by the
/// library's independent verifier first.
///
/// The batch runs in Rust without the GIL; ``threads > 1`` splits it over that many threads,
/// each with its own backend instance, with the same results as one thread. Ctrl-C
/// (``KeyboardInterrupt``) stops it within a few hundred puzzles. ``max_nodes`` makes each
/// search give up (answer ``None``) after that many nodes, ``max_seconds`` after that many
/// seconds of wall-clock time (built-in backends only: an ``exec:`` or ``lib:`` backend
/// refuses it).
///
/// Raises ``ValueError`` for an unknown backend, ``limit`` or ``threads`` below 1, or a
/// malformed puzzle (naming its index and what is wrong), and ``RuntimeError`` if a backend
/// fails or returns an answer the verifier rejects.
#[pyfunction]
#[pyo3(signature = (puzzles, backend = None, limit = 2, threads = 1, *, max_nodes = None, max_seconds = None))]
fn count(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    backend: Option<&str>,
    limit: i128,
    threads: i128,
    max_nodes: Option<i128>,
    max_seconds: Option<f64>,
) -> PyResult<Vec<Option<u32>>> {
    let limit = u32::try_from(limit)
        .ok()
        .filter(|&l| l >= 1)
        .ok_or_else(|| {
            PyValueError::new_err(format!("limit must be from 1 to {}, got {limit}", u32::MAX))
        })?;
    let threads = threads_arg(threads)?;
    let budget = budget_arg(max_nodes, max_seconds)?;
    let input = puzzles_arg(puzzles)?;
    let backend = backend.unwrap_or_else(|| default_backend(&input.puzzles));
    let first = build(py, backend, budget)?;
    let answers = run(py, first, backend, budget, &input.puzzles, limit, threads)?;
    Ok(answers.iter().map(|a| a.count).collect())
}

/// The unique solution of every puzzle.
///
/// ``puzzles`` as for :func:`count`. Each puzzle is searched for up to two solutions; the
/// answer is its solution when it has exactly one, and the "unsolved" marker otherwise (no
/// solution, two or more, or undecided: an incomplete backend that gave up, or ``max_nodes``
/// or ``max_seconds`` spent). Use :func:`count` to tell these apart.
///
/// For a sequence of strings: a list of 81-digit strings (for another order, the order's line
/// form: characters up to 25x25, numbers above), ``None`` for unsolved. For a numpy array: an
/// array of the same shape and dtype, each row (or block) the solution's values, and all
/// zeros for unsolved. Every returned solution has passed the library's
/// independent verifier.
///
/// ``backend``, ``threads``, ``max_nodes`` and ``max_seconds`` and the errors raised are as
/// for :func:`count`.
#[pyfunction]
#[pyo3(signature = (puzzles, backend = None, threads = 1, *, max_nodes = None, max_seconds = None))]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    backend: Option<&str>,
    threads: i128,
    max_nodes: Option<i128>,
    max_seconds: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = threads_arg(threads)?;
    let budget = budget_arg(max_nodes, max_seconds)?;
    let input = puzzles_arg(puzzles)?;
    let backend = backend.unwrap_or_else(|| default_backend(&input.puzzles));
    let first = build(py, backend, budget)?;
    let answers = run(py, first, backend, budget, &input.puzzles, 2, threads)?;
    let unique = answers.iter().map(|a| match a {
        Answer {
            count: Some(1),
            solution: Some(cells),
        } => Some(cells),
        _ => None,
    });
    match input.array {
        Some(layout) => {
            let cells = layout.order.cells();
            let mut flat = Vec::with_capacity(answers.len() * cells);
            for solution in unique {
                match solution {
                    Some(s) => flat.extend_from_slice(bridge::solution_cells(s)),
                    None => flat.resize(flat.len() + cells, 0),
                }
            }
            let out = PyArray1::from_vec(py, flat).reshape(layout.shape)?;
            out.call_method1("astype", (layout.dtype,))
        }
        None => {
            let lines: Vec<Option<Bound<'py, PyString>>> = unique
                // A full grid's line: 81 digits for 9x9, the order's line form otherwise.
                .map(|s| s.map(|s| PyString::new(py, &s.to_line())))
                .collect();
            Ok(lines.into_pyobject(py)?.into_any())
        }
    }
}

/// Whether each grid is a solution of its puzzle: complete, every row, column and box holding
/// each symbol once (1-9 for 9x9, 1-n² for order n), and keeping every clue of the puzzle
/// (for a pencilmark puzzle: using only its candidates). Checked by the library's independent
/// verifier.
///
/// ``puzzles`` as for :func:`count`; ``grids`` the same number of grids, as a sequence of
/// strings (81 characters, or another order's line form; ``None`` entries allowed, e.g. from
/// :func:`solve`) or a numpy integer array of shape ``(N, 81)`` or ``(N, 9, 9)`` (or of
/// another order, as for :func:`count`). A grid of another order than its puzzle's, an
/// incomplete grid (``.``/``0`` cells), a
/// ``None`` and an all-zero row are simply not solutions (``False``).
///
/// Raises ``ValueError`` when the lengths differ or an entry is malformed (naming its index).
#[pyfunction]
fn check(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    grids: &Bound<'_, PyAny>,
) -> PyResult<Vec<bool>> {
    let input = puzzles_arg(puzzles)?;
    let grids = grids_arg(grids)?;
    if input.puzzles.len() != grids.len() {
        return Err(PyValueError::new_err(format!(
            "got {} puzzles but {} grids",
            input.puzzles.len(),
            grids.len()
        )));
    }
    Ok(py.detach(|| {
        input
            .puzzles
            .iter()
            .zip(&grids)
            .map(|(p, g)| g.as_ref().is_some_and(|g| bridge::is_solution(p, g)))
            .collect()
    }))
}

/// Reads a puzzle file in any format sudobench reads, plain or gzipped (detected by the gzip
/// magic bytes): one puzzle per line (81 characters, optional metadata after whitespace),
/// ``#`` comment lines, CSV with a puzzle and a solution column (Kaggle's ``quizzes,solutions``)
/// and 729-character pencilmark lines; and grids of the other orders in their formats
/// (n⁴ characters, numbers lines, blocks of n² lines). ``"-"`` reads standard input.
///
/// Returns ``(puzzles, solutions)``: the puzzles as 81-character strings with ``.`` for empty
/// cells (729 characters for pencilmarks; another order's line form for its grids), and for
/// each the file's expected solution as a string, or ``None`` where the file gives none.
///
/// Raises ``OSError`` (``FileNotFoundError``, ``IsADirectoryError``, ...) if the file cannot be
/// opened and ``ValueError`` naming file and line at the first malformed record or corrupt
/// gzip data.
#[pyfunction]
fn read(py: Python<'_>, path: PathBuf) -> PyResult<(Vec<String>, Vec<Option<String>>)> {
    let path = path
        .to_str()
        .ok_or_else(|| PyValueError::new_err(format!("path {path:?} is not valid UTF-8")))?;
    let records = py.detach(|| bridge::read(path)).map_err(|e| match e {
        bridge::ReadError::Open(kind, msg) => match kind {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            _ => PyOSError::new_err(msg),
        },
        bridge::ReadError::Directory(msg) => PyIsADirectoryError::new_err(msg),
        bridge::ReadError::Malformed(msg) => PyValueError::new_err(msg),
    })?;
    Ok(records.into_iter().unzip())
}

/// sudobench from Python: count, solve, check and read Sudoku puzzles with the Rust library's
/// backends, batches solved without the GIL.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(_lib_worker, m)?)?;
    m.add_function(wrap_pyfunction!(dist::records, m)?)?;
    m.add_function(wrap_pyfunction!(dist::bench_defaults, m)?)?;
    m.add("ORDER_LOOKS_AT", sudobench::runner::ORDER_LOOKS_AT)?;
    m.add("MAX_SECONDS", MAX_SECONDS)?;
    m.add_function(wrap_pyfunction!(dist::run_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(dist::generate_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(dist::merge, m)?)?;
    Ok(())
}

fn max_nodes_arg(max_nodes: Option<i128>) -> PyResult<Option<u64>> {
    max_nodes
        .map(|n| {
            u64::try_from(n).map_err(|_| {
                PyValueError::new_err(format!("max_nodes must be from 0 to {}, got {n}", u64::MAX))
            })
        })
        .transpose()
}

/// The time limit per puzzle of `max_seconds`: a positive number of seconds below
/// [`MAX_SECONDS`], the bound of the CLI's `--max-seconds`.
pub(crate) fn max_time_arg(max_seconds: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    max_seconds
        .map(|s| {
            std::time::Duration::try_from_secs_f64(s)
                .ok()
                .filter(|t| !t.is_zero() && s < MAX_SECONDS)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "max_seconds must be a positive number of seconds below {MAX_SECONDS}, got {s}"
                    ))
                })
        })
        .transpose()
}

/// The budget of `max_nodes` and `max_seconds`.
fn budget_arg(max_nodes: Option<i128>, max_seconds: Option<f64>) -> PyResult<bridge::Budget> {
    Ok(bridge::Budget {
        max_nodes: max_nodes_arg(max_nodes)?,
        max_time: max_time_arg(max_seconds)?,
    })
}

fn threads_arg(threads: i128) -> PyResult<usize> {
    usize::try_from(threads)
        .ok()
        .filter(|&t| t >= 1)
        .ok_or_else(|| PyValueError::new_err(format!("threads must be at least 1, got {threads}")))
}

/// The backend of a batch when none is named: the CLI's default for 9×9 (`bitmask`) if every
/// puzzle is 9×9, else its backend of the other orders (`wide`), which solves every order.
fn default_backend(puzzles: &[Puzzle]) -> &'static str {
    use sudobench::runner::{DEFAULT_BACKEND, OTHER_ORDERS_BACKEND};
    if puzzles
        .iter()
        .all(|p| p.shape() == sudobench::puzzle::Shape::Nine)
    {
        DEFAULT_BACKEND
    } else {
        OTHER_ORDERS_BACKEND
    }
}

fn build(py: Python<'_>, backend: &str, budget: bridge::Budget) -> PyResult<Backend> {
    if backend.starts_with("lib:") && bridge::LIB_WORKER.get().is_none() {
        let worker = lib_worker(py)?;
        let _ = bridge::LIB_WORKER.set(worker);
    }
    Backend::build(backend, budget).map_err(PyValueError::new_err)
}

/// The interpreter and the extension's file, both absolute paths, for `lib:` workers.
fn lib_worker(py: Python<'_>) -> PyResult<bridge::LibWorker> {
    let interpreter: String = py.import("sys")?.getattr("executable")?.extract()?;
    let extension: String = py
        .import("sudobench._native")?
        .getattr("__file__")?
        .extract()?;
    let (interpreter, extension) = (PathBuf::from(interpreter), PathBuf::from(extension));
    if !interpreter.is_absolute() || !interpreter.is_file() {
        return Err(PyRuntimeError::new_err(format!(
            "a lib: backend needs the Python interpreter to run its worker, and sys.executable \
             ({}) is not a file",
            interpreter.display()
        )));
    }
    if !extension.is_absolute() {
        return Err(PyRuntimeError::new_err(format!(
            "a lib: backend needs this module's file to run its worker, and {} is not an \
             absolute path",
            extension.display()
        )));
    }
    Ok(bridge::LibWorker {
        interpreter,
        extension,
    })
}

/// The worker of a ``lib:`` backend (run by the backend in a Python interpreter of its own,
/// never by hand): serves puzzles over its standard input and output until they end.
#[pyfunction]
fn _lib_worker(py: Python<'_>, args: Vec<String>) -> PyResult<bool> {
    py.detach(|| bridge::serve_worker(&args))
        .map_err(PyValueError::new_err)
}

/// The shape, dtype and puzzle order of a numpy argument, to answer in kind.
struct Layout<'py> {
    shape: Vec<usize>,
    dtype: Bound<'py, PyArrayDescr>,
    order: Order,
}

/// Puzzles parsed from a Python argument, and the array layout when it was a numpy array.
struct Input<'py> {
    puzzles: Vec<Puzzle>,
    array: Option<Layout<'py>>,
}

fn puzzles_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Input<'py>> {
    if let Some((array, order)) = numpy_array(obj, "puzzles")? {
        let cells = array_cells(array, order, "puzzle")?;
        let puzzles = cells
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                bridge::puzzle_from_cells(order, c).map_err(|e| item_error("puzzle", i, e))
            })
            .collect::<PyResult<_>>()?;
        let layout = Layout {
            shape: array.shape().to_vec(),
            dtype: array.dtype(),
            order,
        };
        return Ok(Input {
            puzzles,
            array: Some(layout),
        });
    }
    let puzzles = text_items(obj, "puzzles", "puzzle", |i, item| {
        let text = item_text(item, "puzzle", i, "str of 81 (or 729) characters", true)?;
        bridge::parse_puzzle(text.as_bytes()).map_err(|e| item_error("puzzle", i, e))
    })?;
    Ok(Input {
        puzzles,
        array: None,
    })
}

fn grids_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Vec<u8>>>> {
    if let Some((array, order)) = numpy_array(obj, "grids")? {
        return Ok(array_cells(array, order, "grid")?
            .into_iter()
            .map(Some)
            .collect());
    }
    text_items(obj, "grids", "grid", |i, item| {
        if item.is_none() {
            return Ok(None);
        }
        let text = item_text(item, "grid", i, "str of 81 characters or None", false)?;
        bridge::parse_grid(text.as_bytes())
            .map(Some)
            .map_err(|e| item_error("grid", i, e))
    })
}

fn item_error(what: &str, index: usize, reason: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{what} {index}: {reason}"))
}

/// Parses every item of a sequence (any iterable but a single string) with `parse`.
fn text_items<T>(
    obj: &Bound<'_, PyAny>,
    arg: &str,
    what: &str,
    mut parse: impl FnMut(usize, &Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let kind = "a sequence of strings or a numpy integer array";
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{arg} must be {kind}, not a single {}; wrap one {what} in a list",
            type_name(obj)
        )));
    }
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("{arg} must be {kind}, not {}", type_name(obj)))
    })?;
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    for (i, item) in items.enumerate() {
        out.push(parse(i, &item?)?);
    }
    Ok(out)
}

/// The ASCII text of one string item, or a `ValueError` naming the item.
fn item_text<'a>(
    item: &'a Bound<'_, PyAny>,
    what: &str,
    index: usize,
    expected: &str,
    pencilmarks: bool,
) -> PyResult<&'a str> {
    let s = item.cast::<PyString>().map_err(|_| {
        item_error(
            what,
            index,
            format!("expected a {expected}, got {}", type_name(item)),
        )
    })?;
    let text = s
        .to_str()
        .map_err(|_| item_error(what, index, "is not valid Unicode text"))?;
    if let Some((column, ch)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        let n = text.chars().count();
        let reason = if Order::from_cells(n).is_some() || (pencilmarks && n == 729) {
            format!("illegal character {ch:?} at column {}", column + 1)
        } else {
            bridge::length_error(n, pencilmarks)
        };
        return Err(item_error(what, index, reason));
    }
    Ok(text)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

/// The argument as a numpy array, with the order of its grids, if it is one. Numpy is not
/// imported for this: an object can only be an array if numpy is already loaded. A
/// one-dimensional array of strings is left to the sequence path.
fn numpy_array<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
    arg: &str,
) -> PyResult<Option<(&'a Bound<'py, PyUntypedArray>, Order)>> {
    let py = obj.py();
    let loaded = py.import("sys")?.getattr("modules")?.contains("numpy")?;
    if !loaded {
        return Ok(None);
    }
    let Ok(array) = obj.cast::<PyUntypedArray>() else {
        return Ok(None);
    };
    let kind = array.dtype().kind();
    if array.ndim() == 1 && matches!(kind, b'U' | b'O') {
        return Ok(None);
    }
    let shape = array.shape();
    let order = match *shape {
        [_, cells] => Order::from_cells(cells),
        [_, rows, columns] if rows == columns => Order::from_side(rows),
        _ => None,
    };
    let Some(order) = order else {
        return Err(PyValueError::new_err(format!(
            "{arg}: expected an array of shape (N, 81) or (N, 9, 9) (for another order n: \
             (N, n⁴) or (N, n², n²)), got shape {}",
            python_tuple(shape)
        )));
    };
    if !matches!(kind, b'i' | b'u') {
        return Err(PyValueError::new_err(format!(
            "{arg}: expected an integer array (0 for empty cells), got dtype {}",
            array.dtype()
        )));
    }
    Ok(Some((array, order)))
}

/// A shape as Python writes it: `(3, 80)`, `(81,)`.
fn python_tuple(shape: &[usize]) -> String {
    let items: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

/// The cells of every row of an integer array of shape (N, n⁴) or (N, n², n²).
fn array_cells(
    array: &Bound<'_, PyUntypedArray>,
    order: Order,
    what: &str,
) -> PyResult<Vec<Vec<u8>>> {
    macro_rules! by_dtype {
        ($($t:ty),*) => {
            $(if let Ok(a) = array.cast::<PyArrayDyn<$t>>() {
                return typed_cells(a, order, what);
            })*
        };
    }
    by_dtype!(u8, i8, u16, i16, u32, i32, u64, i64);
    Err(PyValueError::new_err(format!(
        "{what}s: unsupported dtype {} (use a native-endian integer type)",
        array.dtype()
    )))
}

fn typed_cells<T: Element + Copy + Into<i128>>(
    array: &Bound<'_, PyArrayDyn<T>>,
    order: Order,
    what: &str,
) -> PyResult<Vec<Vec<u8>>> {
    let readonly = array.try_readonly()?;
    let view = readonly.as_array();
    let side = order.side();
    let mut out = Vec::with_capacity(view.shape()[0]);
    for (i, row) in view.outer_iter().enumerate() {
        let mut cells = vec![0u8; order.cells()];
        for (cell, (slot, &value)) in cells.iter_mut().zip(row.iter()).enumerate() {
            let value: i128 = value.into();
            *slot = u8::try_from(value)
                .ok()
                .filter(|&v| usize::from(v) <= side)
                .ok_or_else(|| {
                    let (r, c) = (cell / side + 1, cell % side + 1);
                    item_error(
                        what,
                        i,
                        format!(
                            "cell {cell} (row {r}, column {c}) holds {value}, expected 0-{side}"
                        ),
                    )
                })?;
        }
        out.push(cells);
    }
    Ok(out)
}

/// Why a batch stopped.
enum BatchError {
    /// A Python signal handler raised (Ctrl-C: `KeyboardInterrupt`).
    Interrupted(PyErr),
    /// A backend failed or gave an answer the verifier rejected, at this puzzle.
    Puzzle(usize, String),
    /// A worker thread's backend could not be built.
    Build(String),
    /// A backend panicked.
    Panic(String),
}

/// Answers every puzzle with `first` and, for `threads > 1`, more instances of the same
/// backend, on the library's ordered pipeline (the one every sudobench command runs on), with
/// the GIL released: batches go to worker threads and come back in input order, so the result
/// does not depend on the number of threads, and the first failing puzzle is the earliest. As
/// each batch comes back the calling thread takes the GIL for a moment to run Python's signal
/// handlers, so Ctrl-C stops a long batch.
fn run(
    py: Python<'_>,
    first: Backend,
    name: &str,
    budget: bridge::Budget,
    puzzles: &[Puzzle],
    limit: u32,
    threads: usize,
) -> PyResult<Vec<Answer>> {
    use sudobench::runner::pipeline::{run_ordered, Ready, Sink, Stage};

    /// A backend instance answering batches of (position, puzzle).
    struct Answering(Backend, u32);
    impl Stage<(usize, Puzzle)> for Answering {
        type Output = Result<Vec<Answer>, (usize, String)>;
        fn process(&mut self, items: &[(usize, Puzzle)]) -> Self::Output {
            let batch: Vec<Puzzle> = items.iter().map(|(_, p)| p.clone()).collect();
            let mut answers = vec![Answer::default(); batch.len()];
            let start = items.first().map_or(0, |(i, _)| *i);
            self.0
                .count_into(&batch, self.1, &mut answers)
                .map_err(|(i, msg)| (start + i, msg))?;
            Ok(answers)
        }
    }
    /// Collects answers in order; stops at the first error or a raised signal handler.
    struct Collect {
        answers: Vec<Answer>,
        error: Option<BatchError>,
    }
    impl Sink<(usize, Puzzle), Result<Vec<Answer>, (usize, String)>> for Collect {
        fn deliver(
            &mut self,
            _: Vec<(usize, Puzzle)>,
            output: Result<Vec<Answer>, (usize, String)>,
        ) -> bool {
            match output {
                Ok(answers) => self.answers.extend(answers),
                Err((i, msg)) => {
                    self.error = Some(BatchError::Puzzle(i, msg));
                    return false;
                }
            }
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                self.error = Some(BatchError::Interrupted(e));
                return false;
            }
            true
        }
    }

    if let Some((i, why)) = first.first_unsupported(puzzles) {
        return Err(item_error("puzzle", i, why));
    }
    let result = py.detach(|| {
        let n = puzzles.len();
        let piece = n.div_ceil(threads * 16).clamp(1, bridge::CHUNK);
        let threads = threads.min(n.div_ceil(piece)).max(1);
        let mut stages = vec![Answering(first, limit)];
        for _ in 1..threads {
            let backend = Backend::build(name, budget).map_err(BatchError::Build)?;
            stages.push(Answering(backend, limit));
        }
        let mut sink = Collect {
            answers: Vec::with_capacity(n),
            error: None,
        };
        let mut source = Ready(puzzles.iter().cloned().enumerate());
        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run_ordered(&mut source, &mut stages, piece, &mut sink)
        }));
        if let Err(payload) = ran {
            return Err(BatchError::Panic(sudobench::util::panic_message(
                payload.as_ref(),
            )));
        }
        match sink.error {
            Some(e) => Err(e),
            None => Ok(sink.answers),
        }
    });
    result.map_err(|e| match e {
        BatchError::Interrupted(e) => e,
        BatchError::Puzzle(i, msg) => PyRuntimeError::new_err(format!("puzzle {i}: {msg}")),
        BatchError::Build(msg) => PyRuntimeError::new_err(msg),
        BatchError::Panic(msg) => {
            PyRuntimeError::new_err(format!("backend {name} panicked: {msg}"))
        }
    })
}
