//! The `logic` closure against an independent reference: on a sample of every bundled data
//! set, what the closure leaves is within what naked + hidden singles leave (subsets are
//! stronger than singles), every solution survives it, and it is a fixpoint.

use sudobench::backends;
use sudobench::format::Reader;
use sudobench::grid::Candidates;
use sudobench::solver::logic::{closure, LogicConfig};
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options};

const DATA: &[&str] = &[
    "data/puzzles0_kaggle.csv.gz",
    "data/puzzles2_17_clue.gz",
    "data/puzzles3_magictour_top1465.gz",
    "data/puzzles5_forum_hardest_1905_11+.gz",
    "data/puzzles6_forum_hardest_1106.gz",
    "data/puzzles7_serg_benchmark.gz",
];

/// Puzzles per set, taken every `STRIDE`th record.
const SAMPLE: usize = 40;
const STRIDE: usize = 7;

/// Cells sharing a row, column or box with `a` (other than `a`), by plain arithmetic.
fn sees(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

/// The 27 units as cell lists, by plain arithmetic.
fn units() -> Vec<Vec<usize>> {
    let mut u = Vec::new();
    for i in 0..9 {
        u.push((0..9).map(|j| 9 * i + j).collect());
        u.push((0..9).map(|j| 9 * j + i).collect());
        u.push(
            (0..9)
                .map(|j| 9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3)
                .collect(),
        );
    }
    u
}

/// Reference: naked and hidden singles to a fixpoint. `None` on a contradiction.
fn singles(start: &Candidates) -> Option<[u16; 81]> {
    let mut m = *start.masks();
    let units = units();
    loop {
        let mut changed = false;
        for a in 0..81 {
            if m[a].count_ones() != 1 {
                continue;
            }
            for b in 0..81 {
                if sees(a, b) && m[b] & m[a] != 0 {
                    m[b] &= !m[a];
                    changed = true;
                }
            }
        }
        for unit in &units {
            for d in 0..9 {
                let bit = 1u16 << d;
                let places: Vec<usize> =
                    unit.iter().copied().filter(|&c| m[c] & bit != 0).collect();
                match places.as_slice() {
                    [] => return None,
                    [only] if m[*only] != bit => {
                        m[*only] = bit;
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        if m.contains(&0) {
            return None;
        }
        if !changed {
            return Some(m);
        }
    }
}

#[test]
fn closure_is_within_singles_keeps_solutions_and_is_a_fixpoint() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut oracle = backends::build("basic", &Options::default()).unwrap();
    for file in DATA {
        let reader = Reader::open(&format!("{root}/{file}")).unwrap();
        let mut n = 0;
        let mut stronger = 0;
        for item in reader.step_by(STRIDE).take(SAMPLE) {
            let record = item.unwrap();
            let start = record.puzzle.candidates().unwrap();
            let reference = singles(&start).expect("bundled puzzles are consistent");
            let solution = oracle
                .solve(&record.puzzle, Limit::ONE)
                .solution()
                .copied()
                .unwrap();
            for config in [LogicConfig::PLAIN, LogicConfig::LOCKED] {
                let what = format!("{file}:{} {config:?}", record.line);
                let c = closure(&start, config);
                assert!(!c.contradiction, "{what}: contradiction");
                let got = c.candidates.masks();
                for cell in 0..81 {
                    assert_eq!(
                        got[cell] & !reference[cell],
                        0,
                        "{what}: cell {cell} keeps candidates singles removed"
                    );
                    assert!(
                        c.candidates.allows(cell, solution.get(cell)),
                        "{what}: cell {cell} lost its solution digit"
                    );
                }
                if got != &reference {
                    stronger += 1;
                    assert!(c.max_subset >= 2 || config.locked_candidates, "{what}");
                }
                let again = closure(&c.candidates, config);
                assert_eq!(again.candidates, c.candidates, "{what}: not a fixpoint");
            }
            n += 1;
        }
        assert_eq!(n, SAMPLE, "{file}: sample size");
        // On these sets subsets (or locked candidates) visibly matter; the hardest sets'
        // puzzles mostly stall before any subset appears.
        if file.contains("17_clue") || file.contains("magictour") {
            assert!(stronger > 0, "{file}: closure never beat singles");
        }
    }
}

#[test]
fn no_guess_share_matches_closure() {
    // A puzzle counts as solved without guessing exactly when its closure is complete.
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/data/puzzles3_magictour_top1465.gz");
    for config in [LogicConfig::PLAIN, LogicConfig::LOCKED] {
        let name = if config.locked_candidates {
            "logic-lc"
        } else {
            "logic"
        };
        let mut s = backends::build(name, &Options::default()).unwrap();
        for item in Reader::open(&path).unwrap().take(60) {
            let record = item.unwrap();
            let out = s.solve(&record.puzzle, Limit::TWO);
            assert_eq!(out.count(), Count::Exactly(1));
            let c = closure(&record.puzzle.candidates().unwrap(), config);
            assert_eq!(
                out.stats().guesses == Some(0),
                c.is_solved(),
                "{}",
                record.line
            );
            if out.stats().guesses == Some(0) {
                assert_eq!(out.stats().max_subset, u64::from(c.max_subset));
            }
        }
    }
}

/// Runs the binary with `args`, feeding `input` on stdin; returns (exit code, stdout).
fn sudobench(args: &[&str], input: &str) -> (i32, String) {
    let out = crate::common::run(args, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn cli_no_guess() {
    let medium =
        "000000907000420180000705026100904000050000040000507009920108000034059000507000000\n";
    let (code, out) = sudobench(&["solve", "--backend", "logic", "--no-guess"], medium);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "462831957795426183381795426173984265659312748248567319926178534834259671517643892"
    );
    // A puzzle deduction does not finish: partial grid and pencilmarks agree with the library.
    let hard = ".8.....63....4.2............1.8.35..7.....9.....6.....2.9.7...........354........";
    let c = closure(
        &Candidates::from_grid(&hard.parse().unwrap()),
        LogicConfig::PLAIN,
    );
    assert!(!c.is_solved() && !c.contradiction);
    let (code, out) = sudobench(&["solve", "-b", "logic", "--no-guess"], hard);
    assert_eq!((code, out.trim()), (0, c.grid().to_line().as_str()));
    let (code, out) = sudobench(
        &["solve", "-b", "logic", "--no-guess", "--pencilmarks"],
        hard,
    );
    assert_eq!(out.trim().len(), 729);
    assert_eq!((code, out.trim()), (0, c.candidates.to_line().as_str()));
    // The pencilmark line is itself accepted as input, and its closure is itself.
    let (code, again) = sudobench(
        &["solve", "-b", "logic", "--no-guess", "--pencilmarks"],
        &out,
    );
    assert_eq!((code, again.trim()), (0, out.trim()));
    // Contradiction: no solution, exit 1.
    let (code, out) = sudobench(
        &["solve", "-b", "logic-lc", "--no-guess"],
        &format!("55{}", &".".repeat(79)),
    );
    assert_eq!((code, out.trim()), (1, "no solution"));
    // Other backends have no closure: usage error.
    let (code, _) = sudobench(&["solve", "-b", "basic", "--no-guess"], medium);
    assert_eq!(code, 2);
    // Flags the closure has no use for are refused, not ignored.
    for flag in [&["--first"][..], &["--limit", "2"]] {
        let args = [&["solve", "-b", "logic", "--no-guess"][..], flag].concat();
        let (code, out) = sudobench(&args, medium);
        assert_eq!((code, out.as_str()), (2, ""), "{flag:?}");
    }
}
