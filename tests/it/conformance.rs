//! The conformance suite: the same tests run against every backend.
//!
//! Every test runs on every backend of the registry (`sudobench::backends`), so a new backend
//! is covered with no edit here. Complete backends must answer every case exactly; incomplete
//! ones (projection) may answer `unknown` on hard cases but must never give a wrong count or
//! an invalid grid, must decide the trivial cases (a full grid, clashing clues), and must find
//! a solution for at least half of the sampled data-set puzzles, so that one that gives up on
//! everything fails.

use crate::common::{Named, EASY, EASY_SOLUTION, HARD, HARD_SOLUTION};

use sudobench::format::Reader;
use sudobench::grid::{Candidates, Grid};
use sudobench::judge;
use sudobench::puzzle::Puzzle;
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options, Outcome, Solver};
use sudobench::verify;

/// Bundled data sets and the count (limit 2) every puzzle of them has.
const DATA: &[(&str, u32)] = &[
    ("data/puzzles0_kaggle.csv.gz", 1),
    ("data/puzzles2_17_clue.gz", 1),
    ("data/puzzles3_magictour_top1465.gz", 1),
    ("data/puzzles5_forum_hardest_1905_11+.gz", 1),
    ("data/puzzles6_forum_hardest_1106.gz", 1),
    ("data/puzzles7_serg_benchmark.gz", 2),
    ("data/puzzles8_generated_minimal.gz", 1),
    ("data/puzzles9_generated_no_solution.gz", 0),
];

/// Puzzles taken from the start of each bundled set.
const SAMPLE: usize = 25;

fn grid(text: &str) -> Grid {
    text.parse().expect("test grid parses")
}

fn backend(name: &str) -> Named {
    Named::build(name, &Options::default())
}

/// Checks an outcome against the true count (at this limit) and, if unique, the solution.
/// Every returned grid must pass `verify`.
fn expect(
    solver: &Named,
    puzzle: &Puzzle,
    limit: u32,
    got: &Outcome,
    want: u32,
    want_solution: Option<&Grid>,
) {
    let what = format!("backend {} on {puzzle} (limit {limit})", solver.name());
    // The same typed check every command applies to every answer.
    let judged = judge::check_answer(puzzle, got);
    assert_eq!(judged, None, "{what}: the judge rejects the answer");
    if let Some(s) = &got.solution() {
        verify::check_puzzle(puzzle, s).unwrap_or_else(|e| panic!("{what}: invalid {s}: {e}"));
        assert!(
            want > 0,
            "{what}: returned {s} for a puzzle with no solution"
        );
    }
    match got.count() {
        Count::Unknown => assert!(
            !solver.is_complete(),
            "{what}: complete backend answered unknown"
        ),
        count => {
            // Exactly below the limit, "at least" at it.
            let at_limit = Count::of(want, Limit::new(limit).expect("nonzero"));
            assert_eq!(count, at_limit, "{what}: wrong count");
            let n = count.found().expect("a decided count");
            if n > 0 {
                assert!(
                    got.solution().is_some(),
                    "{what}: count {n} but no solution"
                );
            }
            if let (Count::Exactly(1), Some(w)) = (count, want_solution) {
                assert_eq!(got.solution(), Some(w), "{what}: wrong solution");
            }
        }
    }
    if let (Count::Exactly(1), Some(s), Some(w)) = (got.count(), &got.solution(), want_solution) {
        assert_eq!(*s, w, "{what}: wrong solution");
    }
    // Two or more solutions come with a witness: a second, different, valid solution.
    match (&got.solution(), &got.second()) {
        (Some(first), Some(second)) => {
            verify::check_second(puzzle, first, second)
                .unwrap_or_else(|e| panic!("{what}: bad second solution {second}: {e}"));
            assert!(
                !matches!(got.count().found(), Some(n) if n < 2),
                "{what}: a second solution with {:?}",
                got.count()
            );
        }
        (None, Some(_)) => panic!("{what}: a second solution but no first"),
        _ => assert!(
            !matches!(got.count().found(), Some(n) if n >= 2) || !solver.is_complete(),
            "{what}: counted {:?} without a second solution as witness",
            got.count()
        ),
    }
}

fn case(solver: &mut Named, text: &str, limit: u32, want: u32, solution: Option<&str>) {
    let p = grid(text);
    let got = solver.solve(&p.into(), Limit::new(limit).expect("nonzero"));
    let sol = solution.map(grid);
    expect(solver, &Puzzle::Grid(p), limit, &got, want, sol.as_ref());
}

/// Two puzzles with known unique solutions.
pub fn known_puzzles(name: &str) {
    let mut s = backend(name);
    case(&mut s, EASY, 2, 1, Some(EASY_SOLUTION));
    case(&mut s, EASY, 1, 1, Some(EASY_SOLUTION));
    case(&mut s, HARD, 2, 1, Some(HARD_SOLUTION));
    case(&mut s, HARD, 1, 1, Some(HARD_SOLUTION));
}

/// Puzzles whose clues are consistent but which have no solution.
pub fn no_solution(name: &str) {
    let mut s = backend(name);
    // Row 1 needs a 9 in r1c9, but r2c9 already holds one.
    let mut a = String::from("12345678.");
    a.push_str("........9");
    a.push_str(&".".repeat(63));
    case(&mut s, &a, 2, 0, None);
    // Row 1 needs an 8 in c8 or c9, but both columns have an 8 further down.
    let mut b = String::from("1234567..");
    b.push_str(&".".repeat(18));
    b.push_str(".......8.");
    b.push_str(&".".repeat(18));
    b.push_str("........8");
    b.push_str(&".".repeat(18));
    case(&mut s, &b, 2, 0, None);
    // The easy puzzle with one clue changed so that it has no solution.
    let mut c = EASY.as_bytes().to_vec();
    c[0] = b'1';
    let c = String::from_utf8(c).unwrap();
    let truth = backend("basic")
        .solve(&(grid(&c)).into(), Limit::TWO)
        .count();
    assert_eq!(
        truth,
        Count::Exactly(0),
        "test data: changed puzzle unsolvable"
    );
    case(&mut s, &c, 2, 0, None);
}

/// Puzzles with several solutions, and the empty grid.
pub fn multiple_solutions(name: &str) {
    let mut s = backend(name);
    case(&mut s, &".".repeat(81), 2, 2, None);
    case(&mut s, &".".repeat(81), 1, 1, None);
    // From the serg benchmark: several solutions; the oracle says how many up to 50.
    let serg = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let Some(n) = backend("basic")
        .solve(&grid(serg).into(), Limit::new(50).expect("nonzero"))
        .count()
        .found()
    else {
        panic!("oracle answered unknown");
    };
    assert!(n >= 2, "test data: serg puzzle has several solutions");
    case(&mut s, serg, 2, 2, None);
    case(&mut s, serg, 50, n, None);
}

/// A full valid grid is its own unique solution; every backend, complete or not, decides it.
pub fn complete_grid(name: &str) {
    let mut s = backend(name);
    case(&mut s, EASY_SOLUTION, 2, 1, Some(EASY_SOLUTION));
    decides(&mut s, EASY_SOLUTION, 1, "a full grid");
}

/// Asserts that backend `s`, complete or not, decides the puzzle `text`: exactly `count`
/// solutions at limit 2.
fn decides(s: &mut Named, text: &str, count: u32, what: &str) {
    let got = s.solve(&grid(text).into(), Limit::TWO);
    assert_eq!(
        got.count(),
        Count::Exactly(count),
        "{}: {what} {text}",
        s.name()
    );
}

/// Clues that repeat a digit in a row, a column or a box: no solution, no panic.
pub fn contradictory_clues(name: &str) {
    let mut s = backend(name);
    let mut row = String::from("5...5....");
    row.push_str(&".".repeat(72));
    case(&mut s, &row, 2, 0, None);
    let mut col = ".".repeat(81);
    col.replace_range(2..3, "7");
    col.replace_range(74..75, "7");
    case(&mut s, &col, 2, 0, None);
    let mut bx = ".".repeat(81);
    bx.replace_range(0..1, "3");
    bx.replace_range(20..21, "3");
    case(&mut s, &bx, 2, 0, None);
    // A full grid with one repeated digit.
    let mut full = EASY_SOLUTION.as_bytes().to_vec();
    full[0] = full[1];
    let full = String::from_utf8(full).unwrap();
    case(&mut s, &full, 2, 0, None);
    // Every backend, complete or not, decides clashing clues.
    for text in [&row, &col, &bx, &full] {
        decides(&mut s, text, 0, "clashing clues");
    }
}

/// Pencilmark input: the easy puzzle's candidates, and a position with an empty cell.
pub fn pencilmarks(name: &str) {
    let mut s = backend(name);
    let p = grid(EASY);
    let c = Candidates::from_grid(&p);
    let got = s.solve(&c.into(), Limit::TWO);
    let sol = grid(EASY_SOLUTION);
    expect(&s, &Puzzle::Candidates(c), 2, &got, 1, Some(&sol));
    // Remove every candidate of one cell.
    let mut masks = *c.masks();
    masks[1] = 0;
    let dead = Candidates::from_masks(masks).unwrap();
    let got = s.solve(&dead.into(), Limit::TWO);
    expect(&s, &Puzzle::Candidates(dead), 2, &got, 0, None);
    // Restrict a cell to a wrong digit only: no solution.
    let mut masks = *c.masks();
    masks[1] = 1 << 0; // r1c2 is 6 in the solution; allow only 1
    let wrong = Candidates::from_masks(masks).unwrap();
    let truth = backend("basic").solve(&wrong.into(), Limit::TWO).count();
    assert_eq!(truth, Count::Exactly(0));
    let got = s.solve(&wrong.into(), Limit::TWO);
    expect(&s, &Puzzle::Candidates(wrong), 2, &got, 0, None);
}

/// One instance answers a mixed sequence the same as fresh instances do.
pub fn reuse(name: &str) {
    let mut s = backend(name);
    let seq = [HARD, EASY_SOLUTION, EASY, HARD];
    let mut bad = String::from("5...5....");
    bad.push_str(&".".repeat(72));
    for (i, text) in seq.iter().chain([bad.as_str()].iter()).enumerate() {
        let p = grid(text);
        let reused = s.solve(&p.into(), Limit::TWO);
        let fresh = backend(name).solve(&p.into(), Limit::TWO);
        assert_eq!(
            (reused.count(), reused.solution()),
            (fresh.count(), fresh.solution()),
            "{name}: case {i}"
        );
    }
}

/// The first puzzles of every bundled data set: right count, verified solutions, and the
/// file's expected solution where it has one.
pub fn data_samples(name: &str) {
    let mut s = backend(name);
    let root = env!("CARGO_MANIFEST_DIR");
    let (mut solvable, mut solved) = (0, 0);
    for &(file, want) in DATA {
        let path = format!("{root}/{file}");
        let reader = Reader::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut n = 0;
        for item in reader.take(SAMPLE) {
            let record = item.unwrap_or_else(|e| panic!("{e}"));
            let got = s.solve(&record.puzzle, Limit::TWO);
            expect(
                &s,
                &record.puzzle,
                2,
                &got,
                want,
                record.expected.as_ref().and_then(|e| e.grid()),
            );
            solvable += usize::from(want > 0);
            solved += usize::from(want > 0 && got.solution().is_some());
            n += 1;
        }
        assert_eq!(n, SAMPLE, "{file}: sample size");
    }
    // Complete backends solve all of them (checked above); an incomplete one at least half.
    assert!(
        2 * solved >= solvable,
        "{name}: found a solution for only {solved} of {solvable} sampled puzzles"
    );
}

/// A time limit per puzzle (`Options::max_time`, `--max-seconds`) stops every backend: with
/// none left, a puzzle that takes search answers `unknown` on 9×9 and, for the backends of
/// other orders, on 16×16; with time to spare, the same backend still decides it.
fn time_limit(name: &str) {
    let hard = Puzzle::from(grid(HARD));
    let wide = crate::common::sample("orders_16x16_minimal.gz", 1).remove(0);
    let info = sudobench::backends::info(name).expect("registered");
    let mut puzzles = vec![(hard, 1)];
    if info
        .problems
        .contains(&sudobench::backends::ProblemKind::SudokuOrders)
    {
        puzzles.push((wide, 1));
    }
    for (limit, decides) in [
        (std::time::Duration::ZERO, false),
        (std::time::Duration::from_secs(600), true),
    ] {
        let options = Options {
            max_time: Some(limit),
            ..Options::default()
        };
        let mut solver = sudobench::backends::build(name, &options).expect("builds");
        for (puzzle, want) in &puzzles {
            let got = solver.solve(puzzle, Limit::TWO);
            assert_eq!(judge::check_answer(puzzle, &got), None, "{name}: {puzzle}");
            if decides {
                if info.complete {
                    assert_eq!(got.count(), Count::Exactly(*want), "{name}: {puzzle}");
                }
            } else {
                assert_eq!(got.count(), Count::Unknown, "{name} without time: {puzzle}");
            }
        }
    }
}

/// Runs one part of the suite on every registered backend, so that a new backend is covered
/// as soon as it is in the registry.
fn every_backend(part: fn(&str)) {
    for name in sudobench::backends::builtin_names() {
        part(name);
    }
}

#[test]
fn known_puzzles_all() {
    every_backend(known_puzzles)
}
#[test]
fn no_solution_all() {
    every_backend(no_solution)
}
#[test]
fn multiple_solutions_all() {
    every_backend(multiple_solutions)
}
#[test]
fn complete_grid_all() {
    every_backend(complete_grid)
}
#[test]
fn contradictory_clues_all() {
    every_backend(contradictory_clues)
}
#[test]
fn pencilmarks_all() {
    every_backend(pencilmarks)
}
#[test]
fn reuse_all() {
    every_backend(reuse)
}
#[test]
fn data_samples_all() {
    every_backend(data_samples)
}
#[test]
fn time_limit_all() {
    every_backend(time_limit)
}
