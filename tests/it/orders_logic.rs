//! Deduction on grids of every order: `solve --no-guess` and `grade` through the built binary,
//! each answer held against `wide`'s solution and the rules-only checker.

use crate::common::{lines, run, stderr};
use std::io::Write;
use sudobench::order::check::check;
use sudobench::order::reader::{Entry, OrderReader};
use sudobench::order::{Order, OrderGrid};
use sudobench::solver::wide::Wide;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

fn grids(file: &str) -> Vec<OrderGrid> {
    OrderReader::open(file)
        .unwrap()
        .map(|r| match r.unwrap().puzzle {
            Entry::Grid(g) => g,
            Entry::Pencilmarks(_) => panic!("{file}: pencilmarks"),
        })
        .collect()
}

/// Every closure line of the 16×16 Gecode set is the unique solution where a cell is decided
/// and `.` elsewhere; `logic-lc` decides at least as many cells as `logic`, puzzle by puzzle.
#[test]
fn no_guess_on_16x16_decides_only_cells_of_the_solution() {
    let file = format!("{DATA}/orders_16x16_gecode.gz");
    let puzzles = grids(&file);
    let mut wide = Wide::default();
    let mut decided = Vec::new();
    for backend in ["logic", "logic-lc"] {
        let out = run(&["solve", "--no-guess", "--backend", backend, &file], b"");
        assert!(out.status.success(), "{}", stderr(&out));
        let shown = lines(&out);
        assert_eq!(shown.len(), puzzles.len());
        let mut counts = Vec::new();
        for (p, line) in puzzles.iter().zip(&shown) {
            let solution = wide.solve(p, 2).first.unwrap();
            assert_eq!(line.len(), 256, "{line}");
            let mut known = 0;
            for (k, ch) in line.chars().enumerate() {
                if ch != '.' {
                    let v = ch.to_digit(36).unwrap() as u8;
                    assert_eq!(v, solution.get(k), "{backend} cell {k}: {line}");
                    known += 1;
                }
            }
            assert!(known >= p.clue_count(), "{backend}: {line}");
            if known == 256 {
                check(p, &solution).unwrap();
            }
            counts.push(known);
        }
        let solved = counts.iter().filter(|&&k| k == 256).count();
        assert!(stderr(&out).contains(&format!("{solved} solved by deduction")));
        decided.push(counts);
    }
    assert!(decided[0].iter().zip(&decided[1]).all(|(a, b)| a <= b));
    assert!(decided[1].iter().filter(|&&k| k == 256).count() > 40);
}

#[test]
fn no_guess_on_other_orders_finds_contradictions_and_refuses_pencilmarks() {
    let out = run(
        &[
            "solve",
            "--no-guess",
            "--backend",
            "logic",
            &format!("{DATA}/orders_16x16_no_solution.gz"),
        ],
        b"",
    );
    // Each record: no solution found by deduction, or a partial grid (the contradiction lies
    // deeper); never a full grid.
    for line in lines(&out) {
        assert!(line == "no solution" || line.contains('.'), "{line}");
    }
    let out = run(
        &[
            "solve",
            "--no-guess",
            "--pencilmarks",
            "--backend",
            "logic",
            &format!("{DATA}/orders_4x4_several.gz"),
        ],
        b"",
    );
    assert!(!out.status.success());
    let shown = lines(&out);
    assert_eq!(shown.len(), 50);
    assert!(
        shown[0].starts_with("error: ")
            && shown[0].ends_with(
                "orders_4x4_several.gz:3: --pencilmarks takes 9x9 puzzles (the 729-character line)"
            ),
        "{}",
        shown[0]
    );
}

/// `grade`'s searches have a budget: Frisch's minimal 25×25, which plain backtracking takes
/// hours over, is graded at once with its guesses as a lower bound and its count unknown.
#[test]
fn grade_stops_each_search_at_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frisch.txt");
    let gecode = sudobench::format::Reader::open(&format!("{DATA}/orders_25x25_gecode.gz"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    std::fs::write(&path, format!("{}\n", gecode.puzzle)).unwrap();
    let file = path.to_str().unwrap();
    let budget = ["--symmetries", "2", "--max-nodes", "300"];
    let out = run(
        &[&["grade", "--format", "csv"][..], &budget, &[file]].concat(),
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = lines(&out);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let fields: Vec<&str> = rows[1].split(',').collect();
    assert_eq!(fields[5..], ["300.000", "unknown", "2"], "{}", rows[1]);
    let out = run(&[&["grade"][..], &budget, &[file]].concat(), b"");
    let text = crate::common::stdout(&out);
    assert!(text.contains(" 300.00+ unknown "), "{text}");
    assert!(
        text.contains("1 without exactly one solution; 1 undecided"),
        "{text}"
    );
    // The summaries count it too, and parts of it add up.
    let out = run(
        &[
            &["grade", "--summary", "--format", "csv"][..],
            &budget,
            &[file],
        ]
        .concat(),
        b"",
    );
    let rows = lines(&out);
    assert!(rows[0].ends_with(",undecided"), "{}", rows[0]);
    assert!(rows[1].ends_with(",1"), "{}", rows[1]);
    let json = |extra: &[&str]| {
        let out = run(
            &[
                &["grade", "--summary", "--format", "json"][..],
                extra,
                &budget,
                &[file],
            ]
            .concat(),
            b"",
        );
        crate::common::stdout(&out)
    };
    let whole: serde_json::Value = serde_json::from_str(json(&[]).trim()).unwrap();
    assert_eq!(whole["undecided"], 1, "{whole}");
    let parts = [json(&["--shard", "1/2"]), json(&["--shard", "2/2"])];
    let dir_parts: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(k, text)| {
            let p = dir.path().join(format!("part{k}.json"));
            std::fs::write(&p, text).unwrap();
            p.to_str().unwrap().to_string()
        })
        .collect();
    let merged = run(&["merge", &dir_parts[0], &dir_parts[1]], b"");
    let merged: serde_json::Value =
        serde_json::from_str(crate::common::stdout(&merged).trim()).unwrap();
    assert_eq!(merged["undecided"], 1, "{merged}");
    assert_eq!(merged["puzzles"], 1, "{merged}");
    for bad in ["0", "x"] {
        let out = run(&["grade", "--max-nodes", bad, file], b"");
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    // A time limit per search too: `wide` reads the clock at its first node, so under a
    // nanosecond every search stops there, undecided, whatever the node budget.
    let out = run(
        &[
            "grade",
            "--format",
            "csv",
            "--symmetries",
            "3",
            "--max-seconds",
            "1e-9",
            file,
        ],
        b"",
    );
    let rows = lines(&out);
    assert_eq!(rows[1].rsplit(',').next(), Some("3"), "{}", rows[1]);
    for bad in ["0", "1e9", "x"] {
        let out = run(&["grade", "--max-seconds", bad, file], b"");
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

/// `grade` on other orders: a full grid needs nothing, a full grid less one cell a naked
/// single; a set without solutions never grades as solved by deduction, and the unique Gecode
/// set grades every puzzle with one solution.
#[test]
fn grade_takes_every_order() {
    let order = Order::new(4).unwrap();
    let full = Wide::default()
        .solve(&OrderGrid::empty(order), 1)
        .first
        .unwrap();
    let mut less = full.clone();
    less.set(37, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "{}\n{}", full.to_line(), less.to_line()).unwrap();
    drop(f);
    let out = run(&["grade", "--format", "csv", path.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = lines(&out);
    assert!(rows[1].contains(",256,none,"), "{}", rows[1]);
    assert!(rows[2].contains(",255,naked-single,"), "{}", rows[2]);

    let out = run(
        &[
            "grade",
            "--summary",
            &format!("{DATA}/orders_16x16_no_solution.gz"),
        ],
        b"",
    );
    let text = crate::common::stdout(&out);
    assert!(text.contains("10 puzzles"), "{text}");
    assert!(text.contains("10 without exactly one solution"), "{text}");
    for line in text.lines().skip(1) {
        let t = line.split_whitespace().next().unwrap();
        assert!(t == "search" || t == "contradiction", "{text}");
    }

    let out = run(
        &[
            "grade",
            "--symmetries",
            "2",
            "--summary",
            &format!("{DATA}/orders_16x16_gecode.gz"),
        ],
        b"",
    );
    let text = crate::common::stdout(&out);
    assert!(text.contains("55 puzzles"), "{text}");
    assert!(text.contains("0 without exactly one solution"), "{text}");
    let graded: u64 = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(graded, 55);
}
