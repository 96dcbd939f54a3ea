//! `sudobench cnf`: writes puzzles as DIMACS CNF in one of the `sat` backend's encodings, so
//! that any SAT solver can be run on exactly the formula the backend solves.
//!
//! Grids of other orders than 9×9 are written in the reduced encoding written for any order
//! (the one the SAT backends solve them with, [`OrderCnf`]).
//!
//! Each argument is a puzzle (81 or 729 characters) or a puzzle file (plain or gzip, `-` for
//! standard input). One puzzle is written to stdout; several need `--out DIR`, which gets one
//! `NNNNNN.cnf` per record (numbered from 1 in input order) and a line per record on stdout.
//! Exact-cover files (Knuth's format) get the exact-cover SAT backends' formula, one per file.
//! A `DIR` that already holds `.cnf` files (an earlier run's, which a shorter run would leave
//! behind among its own) is refused unless `--force`, which deletes them first.

use super::input::{inputs, Input};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use sudobench::format::Record;
use sudobench::grid::{Candidates, Grid};
use sudobench::puzzle::Puzzle;
use sudobench::solver::sat::order_cnf::OrderCnf;
use sudobench::solver::sat::{dimacs, Encoding, Formula, Givens};
use sudobench::xc::sat as xc_sat;
use sudobench::xc::Instance;

/// Arguments of `sudobench cnf`.
#[derive(Args, Debug)]
pub struct CnfArgs {
    /// Encoding: minimal, extended, reduced or augmented (default: the `sat` backend's).
    #[arg(long)]
    encoding: Option<Encoding>,
    /// Write one file per puzzle into this directory instead of one formula to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// With --out: delete the `.cnf` files already in the directory first (without it, such a
    /// directory is refused).
    #[arg(long, requires = "out")]
    force: bool,
    /// Puzzles (81 or 729 characters, or a grid of another order) or puzzle files (`-` or
    /// nothing for standard input); or exact-cover files (Knuth's format).
    puzzles: Vec<String>,
}

/// Reads an argument as a puzzle if it is one and no file has that name.
fn literal_puzzle(arg: &str) -> Option<Puzzle> {
    if Path::new(arg).exists() {
        return None;
    }
    match arg.len() {
        81 => Grid::from_bytes(arg.as_bytes()).ok().map(Puzzle::Grid),
        729 => Candidates::from_bytes(arg.as_bytes())
            .ok()
            .map(Puzzle::Candidates),
        _ => sudobench::order::format::parse_line(arg)
            .ok()
            .map(Puzzle::from_order_grid),
    }
}

/// Every record named by the arguments, puzzles given inline first-class.
fn records(args: &[String]) -> Box<dyn Iterator<Item = Input>> {
    if args.is_empty() {
        return Box::new(inputs(&[]));
    }
    let args = args.to_vec();
    Box::new(
        args.into_iter()
            .flat_map(|arg| -> Box<dyn Iterator<Item = Input>> {
                match literal_puzzle(&arg) {
                    Some(puzzle) => Box::new(std::iter::once(Ok(Record {
                        source: Arc::from("argument"),
                        line: 1,
                        puzzle,
                        expected: None,
                        meta: String::new(),
                    }))),
                    None => Box::new(inputs(&[arg])),
                }
            }),
    )
}

/// Writes the record's formula; returns its variables and clauses.
fn write_formula(
    out: &mut dyn Write,
    formula: &mut Formula,
    asked: Option<Encoding>,
    r: &Record,
) -> io::Result<(usize, usize)> {
    let title = format!("sudobench puzzle {} ({}:{})", r.puzzle, r.source, r.line);
    let givens = match &r.puzzle {
        Puzzle::Grid(g) => Givens::Grid(g),
        Puzzle::Candidates(c) => Givens::Candidates(c),
        Puzzle::Order(g) => {
            if asked.is_some_and(|e| e != Encoding::Reduced) {
                return Err(io::Error::other(format!(
                    "{}:{}: this puzzle is {}: other orders than 9x9 have the reduced encoding \
                     only (--encoding applies to 9x9)",
                    r.source,
                    r.line,
                    g.order()
                )));
            }
            let cnf = OrderCnf::new(g);
            dimacs::write_order(out, &cnf, g.order().side(), &[], &[&title])?;
            return Ok((cnf.num_vars(), cnf.num_clauses()));
        }
    };
    formula.build(asked.unwrap_or(Encoding::DEFAULT), givens);
    dimacs::write(out, formula, &[], &[&title])?;
    Ok((formula.num_vars(), formula.num_clauses()))
}

/// `cnf` on exact-cover files: the formula the SAT backends solve for each instance. One
/// instance goes to stdout; several need `--out DIR` (one `NNNNNN.cnf` per file, in order).
fn exact_cover(args: &CnfArgs, files: &[String]) -> Result<bool> {
    if args.encoding.is_some() {
        bail!("--encoding is for Sudoku puzzles; an exact-cover instance has one encoding");
    }
    let Some(dir) = &args.out else {
        if files.len() > 1 {
            bail!("several instances: give --out DIR to write one file each");
        }
        let cnf = match xc_formula(&files[0]) {
            Ok(cnf) => cnf,
            Err(line) => {
                eprintln!("{line}");
                return Ok(false);
            }
        };
        to_stdout(|out| write_xc(out, &cnf).map(|_| ()))?;
        return Ok(true);
    };
    let formulas = files.iter().map(|file| xc_formula(file));
    into_directory(dir, args.force, formulas, |out, cnf| write_xc(out, &cnf))
}

/// Writes an exact-cover formula and its comments; its variables and clauses.
fn write_xc(out: &mut dyn Write, (comments, cnf): &XcFormula) -> io::Result<(usize, usize)> {
    dimacs::write_clauses(out, cnf.vars, cnf.num_clauses(), cnf.clauses(), comments)?;
    Ok((cnf.vars, cnf.num_clauses()))
}

/// Writes one formula to stdout; a reader that stops early (`| head`) is no error.
fn to_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Writes each formula of `items` into `dir` as `NNNNNN.cnf` (numbered from 1 in order),
/// with a line per item on stdout (its file, variables and clauses, or its error line), each
/// shown as soon as it is written; a closed output (`| head -1`) stops the run. True if
/// every item was a formula.
fn into_directory<T>(
    dir: &Path,
    force: bool,
    items: impl Iterator<Item = std::result::Result<T, String>>,
    mut write: impl FnMut(&mut dyn Write, T) -> io::Result<(usize, usize)>,
) -> Result<bool> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    clear_old_formulas(dir, force)?;
    let mut ok = true;
    let mut listing = super::output::Output::stdout();
    for (i, item) in items.enumerate() {
        match item {
            Err(line) => {
                ok = false;
                listing.line(&line);
            }
            Ok(formula) => {
                let path = dir.join(format!("{:06}.cnf", i + 1));
                let file =
                    File::create(&path).with_context(|| format!("creating {}", path.display()))?;
                let mut w = BufWriter::new(file);
                let (vars, clauses) = write(&mut w, formula)
                    .and_then(|size| w.flush().map(|()| size))
                    .with_context(|| format!("writing {}", path.display()))?;
                listing.line(&format!(
                    "{} {vars} variables {clauses} clauses",
                    path.display()
                ));
            }
        }
        listing.flush();
        if !listing.is_open() {
            break;
        }
    }
    listing.finish()?;
    Ok(ok)
}

/// An exact-cover formula's comment lines and its CNF.
type XcFormula = (Vec<String>, xc_sat::Cnf);

/// The CNF of the exact-cover instance in `file` and its comment lines (what each option and
/// colour variable means), or the error line for the file.
fn xc_formula(file: &str) -> std::result::Result<XcFormula, String> {
    let inst = Instance::read_path(file).map_err(|e| format!("error: {e}"))?;
    let cnf = xc_sat::cnf(&inst).ok_or_else(|| {
        format!(
            "error: {file}: the CNF would be too large (more than 2^{} literals)",
            xc_sat::MAX_LITERALS.trailing_zeros()
        )
    })?;
    let options = inst.options.len();
    let mut comments = vec![
        format!(
            "sudobench exact cover {file}: {options} options, {} items",
            inst.items()
        ),
        format!(
            "encoding: variable k (1 to {options}) = option k is chosen; exactly one option per \
             primary item; at most one use per secondary item, one variable per colour it takes; \
             at most one pairwise up to {} literals, a sequential counter beyond",
            xc_sat::PAIRWISE_MAX
        ),
    ];
    comments.extend((0..options).map(|o| format!("v {} {}", o + 1, inst.option_text(o))));
    comments.extend(cnf.colour_vars.iter().map(|&(var, item, colour)| {
        let colour = &inst.colours[colour as usize - 1];
        format!("v {} {}:{colour}", var + 1, inst.names[item])
    }));
    if cnf.vars > options + cnf.colour_vars.len() {
        comments.push(format!(
            "every other variable above {options}: an auxiliary of a sequential counter"
        ));
    }
    Ok((comments, cnf))
}

/// Refuses a directory holding `.cnf` files, or with `force` deletes them.
fn clear_old_formulas(dir: &Path, force: bool) -> Result<()> {
    let reading = || format!("reading {}", dir.display());
    for entry in std::fs::read_dir(dir).with_context(reading)? {
        let path = entry.with_context(reading)?.path();
        if path.extension().is_none_or(|e| e != "cnf") || !path.is_file() {
            continue;
        }
        if !force {
            bail!(
                "{} already holds .cnf files ({}): give --force to delete them first, or \
                 another directory",
                dir.display(),
                path.display()
            );
        }
        std::fs::remove_file(&path).with_context(|| format!("deleting {}", path.display()))?;
    }
    Ok(())
}

/// `sudobench cnf`.
pub fn cnf(args: &CnfArgs) -> Result<bool> {
    let files = super::input::or_stdin(&args.puzzles);
    if super::xc::wanted(&files) {
        return exact_cover(args, &files);
    }
    let encoding = args.encoding;
    let mut formula = Formula::new();
    let mut items = records(&args.puzzles);
    let Some(dir) = &args.out else {
        // The formula is written as soon as its puzzle is read (a puzzle typed on standard
        // input is answered at once); only then is the input read on, to refuse a second one.
        let ok = match items.next() {
            None => bail!("no puzzle given"),
            Some(Err(e)) => {
                eprintln!("error: {e}");
                false
            }
            Some(Ok(record)) => {
                to_stdout(|out| write_formula(out, &mut formula, encoding, &record).map(|_| ()))?;
                true
            }
        };
        if items.next().is_some() {
            bail!("several puzzles: give --out DIR to write one file each (the first one's formula was written)");
        }
        return Ok(ok);
    };
    let records = items.map(|item| item.map_err(|e| format!("error: {e}")));
    into_directory(dir, args.force, records, |out, record| {
        write_formula(out, &mut formula, encoding, &record)
    })
}
