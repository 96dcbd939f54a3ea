//! The conformance suite: the same tests run against every backend.
//!
//! A backend joins by adding one line to the `conformance!` invocation at the bottom. Complete
//! backends must answer every case exactly; incomplete ones (projection) may answer `unknown`
//! but must never give a wrong count or an invalid grid.

use sudobench::format::Reader;
use sudobench::grid::{Candidates, Grid, Puzzle};
use sudobench::solver::{self, Count, Options, Outcome, Solver};
use sudobench::verify;

const EASY: &str =
    "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
const EASY_SOLUTION: &str =
    "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
const HARD: &str =
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
const HARD_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

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

fn backend(name: &str) -> Box<dyn Solver> {
    solver::build(name, &Options::default()).expect("backend builds")
}

/// Checks an outcome against the true count (at this limit) and, if unique, the solution.
/// Every returned grid must pass `verify`.
fn expect(
    solver: &dyn Solver,
    puzzle: &Puzzle,
    limit: u32,
    got: &Outcome,
    want: u32,
    want_solution: Option<&Grid>,
) {
    let what = format!("backend {} on {puzzle} (limit {limit})", solver.name());
    if let Some(s) = &got.solution {
        verify::check_puzzle(puzzle, s).unwrap_or_else(|e| panic!("{what}: invalid {s}: {e}"));
        assert!(
            want > 0,
            "{what}: returned {s} for a puzzle with no solution"
        );
    }
    match got.count {
        Count::Exactly(n) => {
            assert_eq!(n, want, "{what}: wrong count");
            if n > 0 {
                assert!(got.solution.is_some(), "{what}: count {n} but no solution");
            }
            if let (1, Some(w)) = (n, want_solution) {
                assert_eq!(got.solution.as_ref(), Some(w), "{what}: wrong solution");
            }
        }
        Count::Unknown => assert!(
            !solver.is_complete(),
            "{what}: complete backend answered unknown"
        ),
    }
    if let (Count::Exactly(1), Some(s), Some(w)) = (got.count, &got.solution, want_solution) {
        assert_eq!(s, w, "{what}: wrong solution");
    }
    // Two or more solutions come with a witness: a second, different, valid solution.
    match (&got.solution, &got.second) {
        (Some(first), Some(second)) => {
            verify::check_second(puzzle, first, second)
                .unwrap_or_else(|e| panic!("{what}: bad second solution {second}: {e}"));
            assert!(
                !matches!(got.count, Count::Exactly(n) if n < 2),
                "{what}: a second solution with {:?}",
                got.count
            );
        }
        (None, Some(_)) => panic!("{what}: a second solution but no first"),
        _ => assert!(
            !matches!(got.count, Count::Exactly(n) if n >= 2) || !solver.is_complete(),
            "{what}: counted {:?} without a second solution as witness",
            got.count
        ),
    }
}

fn case(solver: &mut dyn Solver, text: &str, limit: u32, want: u32, solution: Option<&str>) {
    let p = grid(text);
    let got = solver.solve(&p, limit);
    let sol = solution.map(grid);
    expect(solver, &Puzzle::Grid(p), limit, &got, want, sol.as_ref());
}

/// Two puzzles with known unique solutions.
pub fn known_puzzles(name: &str) {
    let mut s = backend(name);
    case(s.as_mut(), EASY, 2, 1, Some(EASY_SOLUTION));
    case(s.as_mut(), EASY, 1, 1, Some(EASY_SOLUTION));
    case(s.as_mut(), HARD, 2, 1, Some(HARD_SOLUTION));
    case(s.as_mut(), HARD, 1, 1, Some(HARD_SOLUTION));
}

/// Puzzles whose clues are consistent but which have no solution.
pub fn no_solution(name: &str) {
    let mut s = backend(name);
    // Row 1 needs a 9 in r1c9, but r2c9 already holds one.
    let mut a = String::from("12345678.");
    a.push_str("........9");
    a.push_str(&".".repeat(63));
    case(s.as_mut(), &a, 2, 0, None);
    // Row 1 needs an 8 in c8 or c9, but both columns have an 8 further down.
    let mut b = String::from("1234567..");
    b.push_str(&".".repeat(18));
    b.push_str(".......8.");
    b.push_str(&".".repeat(18));
    b.push_str("........8");
    b.push_str(&".".repeat(18));
    case(s.as_mut(), &b, 2, 0, None);
    // The easy puzzle with one clue changed so that it has no solution.
    let mut c = EASY.as_bytes().to_vec();
    c[0] = b'1';
    let c = String::from_utf8(c).unwrap();
    let truth = backend("basic").solve(&grid(&c), 2).count;
    assert_eq!(
        truth,
        Count::Exactly(0),
        "test data: changed puzzle unsolvable"
    );
    case(s.as_mut(), &c, 2, 0, None);
}

/// Puzzles with several solutions, and the empty grid.
pub fn multiple_solutions(name: &str) {
    let mut s = backend(name);
    case(s.as_mut(), &".".repeat(81), 2, 2, None);
    case(s.as_mut(), &".".repeat(81), 1, 1, None);
    // From the serg benchmark: several solutions; the oracle says how many up to 50.
    let serg = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let Count::Exactly(n) = backend("basic").solve(&grid(serg), 50).count else {
        panic!("oracle answered unknown");
    };
    assert!(n >= 2, "test data: serg puzzle has several solutions");
    case(s.as_mut(), serg, 2, 2, None);
    case(s.as_mut(), serg, 50, n, None);
}

/// A full valid grid is its own unique solution.
pub fn complete_grid(name: &str) {
    let mut s = backend(name);
    case(s.as_mut(), EASY_SOLUTION, 2, 1, Some(EASY_SOLUTION));
}

/// Clues that repeat a digit in a row, a column or a box: no solution, no panic.
pub fn contradictory_clues(name: &str) {
    let mut s = backend(name);
    let mut row = String::from("5...5....");
    row.push_str(&".".repeat(72));
    case(s.as_mut(), &row, 2, 0, None);
    let mut col = ".".repeat(81);
    col.replace_range(2..3, "7");
    col.replace_range(74..75, "7");
    case(s.as_mut(), &col, 2, 0, None);
    let mut bx = ".".repeat(81);
    bx.replace_range(0..1, "3");
    bx.replace_range(20..21, "3");
    case(s.as_mut(), &bx, 2, 0, None);
    // A full grid with one repeated digit.
    let mut full = EASY_SOLUTION.as_bytes().to_vec();
    full[0] = full[1];
    case(s.as_mut(), &String::from_utf8(full).unwrap(), 2, 0, None);
}

/// Pencilmark input: the easy puzzle's candidates, and a position with an empty cell.
pub fn pencilmarks(name: &str) {
    let mut s = backend(name);
    let p = grid(EASY);
    let c = Candidates::from_grid(&p);
    let got = s.solve_candidates(&c, 2);
    let sol = grid(EASY_SOLUTION);
    expect(s.as_ref(), &Puzzle::Candidates(c), 2, &got, 1, Some(&sol));
    // Remove every candidate of one cell.
    let mut masks = *c.masks();
    masks[1] = 0;
    let dead = Candidates::from_masks(masks).unwrap();
    let got = s.solve_candidates(&dead, 2);
    expect(s.as_ref(), &Puzzle::Candidates(dead), 2, &got, 0, None);
    // Restrict a cell to a wrong digit only: no solution.
    let mut masks = *c.masks();
    masks[1] = 1 << 0; // r1c2 is 6 in the solution; allow only 1
    let wrong = Candidates::from_masks(masks).unwrap();
    let truth = backend("basic").solve_candidates(&wrong, 2).count;
    assert_eq!(truth, Count::Exactly(0));
    let got = s.solve_candidates(&wrong, 2);
    expect(s.as_ref(), &Puzzle::Candidates(wrong), 2, &got, 0, None);
}

/// One instance answers a mixed sequence the same as fresh instances do.
pub fn reuse(name: &str) {
    let mut s = backend(name);
    let seq = [HARD, EASY_SOLUTION, EASY, HARD];
    let mut bad = String::from("5...5....");
    bad.push_str(&".".repeat(72));
    for (i, text) in seq.iter().chain([bad.as_str()].iter()).enumerate() {
        let p = grid(text);
        let reused = s.solve(&p, 2);
        let fresh = backend(name).solve(&p, 2);
        if s.is_complete() {
            assert_eq!(
                (reused.count, reused.solution),
                (fresh.count, fresh.solution),
                "{name}: case {i}"
            );
        }
    }
}

/// The first puzzles of every bundled data set: right count, verified solutions, and the
/// file's expected solution where it has one.
pub fn data_samples(name: &str) {
    let mut s = backend(name);
    let root = env!("CARGO_MANIFEST_DIR");
    for &(file, want) in DATA {
        let path = format!("{root}/{file}");
        let reader = Reader::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut n = 0;
        for item in reader.take(SAMPLE) {
            let record = item.unwrap_or_else(|e| panic!("{e}"));
            let got = s.solve_puzzle(&record.puzzle, 2);
            expect(
                s.as_ref(),
                &record.puzzle,
                2,
                &got,
                want,
                record.expected.as_ref(),
            );
            n += 1;
        }
        assert_eq!(n, SAMPLE, "{file}: sample size");
    }
}

macro_rules! conformance {
    ($($module:ident => $name:expr),* $(,)?) => {
        $(
            mod $module {
                #[test] fn registered() {
                    assert!(sudobench::solver::builtin_names().any(|n| n == $name));
                    assert_eq!(super::backend($name).name(), $name);
                }
                #[test] fn known_puzzles() { super::known_puzzles($name) }
                #[test] fn no_solution() { super::no_solution($name) }
                #[test] fn multiple_solutions() { super::multiple_solutions($name) }
                #[test] fn complete_grid() { super::complete_grid($name) }
                #[test] fn contradictory_clues() { super::contradictory_clues($name) }
                #[test] fn pencilmarks() { super::pencilmarks($name) }
                #[test] fn reuse() { super::reuse($name) }
                #[test] fn data_samples() { super::data_samples($name) }
            }
        )*
        /// Every registered backend is in this suite.
        #[test]
        fn every_backend_is_covered() {
            let covered = [$($name),*];
            for name in sudobench::solver::builtin_names() {
                assert!(covered.contains(&name), "backend {name} is not in the conformance suite");
            }
        }
    };
}

conformance! {
    basic => "basic",
    bitmask => "bitmask",
    logic => "logic",
    logic_lc => "logic-lc",
    sat => "sat",
    projection => "projection",
    projection_tm => "projection-tm",
    dlx => "dlx",
    dlx_array => "dlx-array",
}
