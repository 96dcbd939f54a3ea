//! The `sat` backend beyond the conformance suite: every encoding against the oracle, DIMACS
//! export read back by an independent parser, and uniqueness proofs checked by the independent
//! DRAT checker `rate` (which must be installed: `cargo install --locked rate`).

use crate::common::sample;
use std::path::{Path, PathBuf};
use std::process::Command;
use sudobench::grid::{Candidates, Grid};
use sudobench::puzzle::Puzzle;
use sudobench::solver::basic::Basic;
use sudobench::solver::sat::dimacs;
use sudobench::solver::sat::proof::{prove, Proven};
use sudobench::solver::sat::{Encoding, Sat};
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options, Solver};
use sudobench::verify;

const BIN: &str = env!("CARGO_BIN_EXE_sudobench");

fn samples() -> Vec<Puzzle> {
    crate::common::samples(&[
        ("puzzles2_17_clue.gz", 40),
        ("puzzles3_magictour_top1465.gz", 20),
        ("puzzles6_forum_hardest_1106.gz", 10),
        ("puzzles7_serg_benchmark.gz", 20),
        ("puzzles0_kaggle.csv.gz", 10),
    ])
}

/// `count --backend sat --encoding ENCODING --proof PROOFS INPUT`.
fn count_with_proofs(encoding: &str, proofs: &Path, input: &Path) -> std::process::Output {
    Command::new(BIN)
        .args([
            "count",
            "--backend",
            "sat",
            "--encoding",
            encoding,
            "--proof",
        ])
        .arg(proofs)
        .arg(input)
        .output()
        .unwrap()
}

/// The `rate` DRAT checker: on PATH or in cargo's bin directory; a clear failure if missing.
pub(crate) fn rate() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("rate"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let in_cargo = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .map(|c| c.join("bin").join("rate"));
    on_path
        .into_iter()
        .chain(in_cargo)
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "the DRAT checker `rate` is not installed (looked on PATH and in ~/.cargo/bin); \
                 install it with: cargo install --locked rate"
            )
        })
}

/// Runs `rate CNF DRAT`; true if it printed `s VERIFIED` and exited 0.
pub(crate) fn rate_verifies(rate: &Path, cnf: &Path, drat: &Path) -> bool {
    let out = Command::new(rate)
        .arg(cnf)
        .arg(drat)
        .output()
        .expect("rate runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    out.status.success() && stdout.lines().any(|l| l.trim() == "s VERIFIED")
}

#[test]
fn every_encoding_agrees_with_basic_on_samples() {
    let puzzles = samples();
    let mut basic = Basic::new(&Options::default());
    let truth: Vec<_> = puzzles.iter().map(|p| basic.solve(p, Limit::TWO)).collect();
    for e in Encoding::ALL {
        let mut s = Sat::with_encoding(e);
        for (p, want) in puzzles.iter().zip(&truth) {
            for limit in [1, 2] {
                let got = s.solve(p, Limit::new(limit).unwrap());
                let want_count = match want.count() {
                    Count::Exactly(n) | Count::AtLeast(n) => {
                        Count::of(n, Limit::new(limit).unwrap())
                    }
                    Count::Unknown => panic!("oracle undecided"),
                };
                assert_eq!(got.count(), want_count, "{e} limit {limit} on {p}");
                let sol = got
                    .solution()
                    .unwrap_or_else(|| panic!("{e}: no solution for {p}"));
                verify::check_puzzle(p, sol).unwrap_or_else(|err| panic!("{e} {p}: {err}"));
                if want.count() == Count::Exactly(1) {
                    assert_eq!(Some(sol), want.solution(), "{e} {p}");
                }
            }
        }
    }
}

#[test]
fn every_encoding_solves_pencilmarks_with_eliminations() {
    // The hard puzzle's candidates after removing, in every empty cell, the digits its clue
    // peers hold, plus one more elimination that keeps the solution.
    let g: Grid = crate::common::HARD.parse().unwrap();
    let sol: Grid = crate::common::HARD_SOLUTION.parse().unwrap();
    let mut masks = *Candidates::from_grid(&g).masks();
    for (cell, mask) in masks.iter_mut().enumerate() {
        if g.get(cell) == 0 {
            for &p in &sudobench::grid::PEERS[cell] {
                let v = g.get(p as usize);
                if v != 0 {
                    *mask &= !(1 << (v - 1));
                }
            }
        }
    }
    let keep = 1u16 << (sol.get(1) - 1);
    let other = masks[1] & !keep;
    masks[1] &= !(other & other.wrapping_neg()); // drop the lowest wrong candidate of r1c2
    let c = Candidates::from_masks(masks).unwrap();
    for e in Encoding::ALL {
        let got = Sat::with_encoding(e).solve(&c.into(), Limit::TWO);
        assert_eq!(got.count(), Count::Exactly(1), "{e}");
        assert_eq!(got.solution(), Some(&sol), "{e}");
    }
    // Eliminating the solution's digit from one cell leaves no solution.
    masks[1] &= !keep;
    let c = Candidates::from_masks(masks).unwrap();
    for e in Encoding::ALL {
        let got = Sat::with_encoding(e).solve(&c.into(), Limit::TWO);
        assert_eq!(got.count(), Count::Exactly(0), "{e}");
    }
}

#[test]
fn cli_cnf_round_trips_through_an_independent_parser() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample("puzzles3_magictour_top1465.gz", 3);
    let file = dir.path().join("p.txt");
    let text: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&file, text).unwrap();
    for e in Encoding::ALL {
        // One puzzle on the command line, to stdout.
        let first = puzzles[0].to_line();
        let out = Command::new(BIN)
            .args(["cnf", "--encoding", e.name(), &first])
            .output()
            .unwrap();
        crate::common::assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        let ours = dimacs::parse(&text).unwrap_or_else(|err| panic!("{e}: {err}"));
        // varisat's own DIMACS parser reads the same header and clauses.
        let theirs = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        assert_eq!(theirs.var_count(), ours.num_vars, "{e}");
        assert_eq!(theirs.len(), ours.clauses.len(), "{e}");
        let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
        assert_eq!(
            header,
            format!("p cnf {} {}", ours.num_vars, ours.clauses.len())
        );
        // The formula read back decides the puzzle: satisfiable, and its model, read through
        // the variable meanings in the comments, is the oracle's solution.
        let mut solver = varisat::Solver::new();
        solver.add_formula(&theirs);
        assert_eq!(solver.solve().ok(), Some(true), "{e}");
        let model = solver.model().unwrap();
        let sol = decode_with_comments(&text, &model);
        let want = Basic::new(&Options::default())
            .solve(&puzzles[0], Limit::TWO)
            .solution()
            .copied()
            .unwrap();
        assert_eq!(sol, want, "{e}");

        // A file of several puzzles into a directory.
        let out_dir = dir.path().join(e.name());
        let out = Command::new(BIN)
            .args(["cnf", "--encoding", e.name(), "--out"])
            .arg(&out_dir)
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success());
        for i in 1..=puzzles.len() {
            let text = std::fs::read_to_string(out_dir.join(format!("{i:06}.cnf"))).unwrap();
            dimacs::parse(&text).unwrap();
        }
    }
    // Several puzzles without --out, and a bad encoding name, are usage errors.
    let out = Command::new(BIN).args(["cnf"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(BIN)
        .args(["cnf", "--encoding", "bogus", &puzzles[0].to_line()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Reads a grid from a model using the file's comments: the fixed numbering of `minimal` and
/// `extended`, or the `c v N rRcC=D` lines of the simplified encodings plus the puzzle's clues.
fn decode_with_comments(text: &str, model: &[varisat::Lit]) -> Grid {
    let puzzle_line = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(3))
        .unwrap();
    let mut cells: Vec<u8> = puzzle_line
        .bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    let positive: std::collections::HashSet<isize> = model
        .iter()
        .filter(|l| l.is_positive())
        .map(|l| l.to_dimacs())
        .collect();
    let explicit = text.lines().any(|l| l.starts_with("c v "));
    if explicit {
        for l in text.lines().filter(|l| l.starts_with("c v ")) {
            let mut parts = l.split_whitespace().skip(2);
            let var: isize = parts.next().unwrap().parse().unwrap();
            let meaning = parts.next().unwrap();
            if !positive.contains(&var) || meaning.contains('~') {
                continue;
            }
            // rRcC=D
            let b = meaning.as_bytes();
            let (r, c, d) = (b[1] - b'1', b[3] - b'1', b[5] - b'0');
            cells[r as usize * 9 + c as usize] = d;
        }
    } else {
        for &v in &positive {
            let i = (v - 1) as usize;
            cells[i / 9] = (i % 9) as u8 + 1;
        }
    }
    Grid::from_cells(cells.try_into().unwrap()).unwrap()
}

#[test]
fn uniqueness_proofs_are_checked_by_rate() {
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    // A full grid (every cell a clue) first: its blocking clause is over the clues.
    let full: Grid = crate::common::EASY_SOLUTION.parse().unwrap();
    let mut puzzles = vec![Puzzle::Grid(full)];
    puzzles.extend(crate::common::samples(&[
        ("puzzles2_17_clue.gz", 3),
        ("puzzles3_magictour_top1465.gz", 2),
        ("puzzles6_forum_hardest_1106.gz", 2),
    ]));
    for e in Encoding::ALL {
        for (i, p) in puzzles.iter().enumerate() {
            let cnf = dir.path().join(format!("{e}-{i}.cnf"));
            let drat = dir.path().join(format!("{e}-{i}.drat"));
            let mut cf = std::fs::File::create(&cnf).unwrap();
            let mut df = std::fs::File::create(&drat).unwrap();
            let got = prove(p, e, &mut cf, &mut df).unwrap();
            drop((cf, df));
            let Proven::Unique(sol) = got else {
                panic!("{e}: {p} not proven unique: {got:?}");
            };
            verify::check_puzzle(p, sol.grid().expect("a 9x9 solution")).unwrap();
            assert!(
                rate_verifies(&rate, &cnf, &drat),
                "{e}: rate rejects the proof for {p}"
            );
            // The checker is not a rubber stamp: without the blocking clause (the last line)
            // the formula is satisfiable and the same proof must be rejected.
            let weakened = dir.path().join(format!("{e}-{i}-weak.cnf"));
            without_last_clause(&cnf, &weakened);
            assert!(
                !rate_verifies(&rate, &weakened, &drat),
                "{e}: rate accepted a proof for a satisfiable formula"
            );
        }
    }
    // A puzzle with several solutions gets no uniqueness proof.
    let multi = sample("puzzles7_serg_benchmark.gz", 1).remove(0);
    let (mut c, mut d) = (Vec::new(), Vec::new());
    assert_eq!(
        prove(&multi, Encoding::DEFAULT, &mut c, &mut d).unwrap(),
        Proven::Multiple
    );
}

/// A unique puzzle with one more clue that contradicts its solution but clashes with no clue:
/// it has no solution, and only search shows it. Returns (that puzzle, the original).
fn deep_contradiction() -> (Grid, Grid) {
    let puzzle: Grid =
        "000000907000420180000705026100904000050000040000507009920108000034059000507000000"
            .parse()
            .unwrap();
    let mut basic = Basic::new(&Options::default());
    let solution = basic
        .solve(&puzzle.into(), Limit::TWO)
        .solution()
        .copied()
        .unwrap();
    for cell in (0..81).filter(|&c| puzzle.get(c) == 0) {
        for digit in (1..=9).filter(|&d| d != solution.get(cell)) {
            let (r, c) = (cell / 9, cell % 9);
            let clashes = (0..81).any(|o| {
                let (or, oc) = (o / 9, o % 9);
                let peer = or == r || oc == c || (or / 3 == r / 3 && oc / 3 == c / 3);
                o != cell && peer && puzzle.get(o) == digit
            });
            if !clashes {
                let mut harder = puzzle;
                harder.set(cell, digit);
                assert_eq!(
                    basic.solve(&harder.into(), Limit::TWO).count(),
                    Count::Exactly(0)
                );
                return (harder, puzzle);
            }
        }
    }
    unreachable!("some digit fits the clues somewhere")
}

#[test]
fn no_solution_proofs_are_checked_by_rate() {
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    let (deep, solvable) = deep_contradiction();
    let clash: Grid = format!("11{}", ".".repeat(79)).parse().unwrap();
    for e in Encoding::ALL {
        for (i, p) in [deep, clash].into_iter().enumerate() {
            let cnf = dir.path().join(format!("{e}-{i}.cnf"));
            let drat = dir.path().join(format!("{e}-{i}.drat"));
            let mut cf = std::fs::File::create(&cnf).unwrap();
            let mut df = std::fs::File::create(&drat).unwrap();
            let got = prove(&Puzzle::Grid(p), e, &mut cf, &mut df).unwrap();
            drop((cf, df));
            assert_eq!(got, Proven::NoSolution, "{e}: {p}");
            assert!(
                rate_verifies(&rate, &cnf, &drat),
                "{e}: rate rejects the proof for {p}"
            );
        }
    }
    // Not a rubber stamp: the textbook encoding of the solvable puzzle is the same formula
    // less the extra clue's unit clause, and the refutation must not verify against it.
    let cnf = dir.path().join("extended-0.cnf");
    let drat = dir.path().join("extended-0.drat");
    let text = std::fs::read_to_string(&cnf).unwrap();
    let out = Command::new(BIN)
        .args(["cnf", "--encoding", "extended", &solvable.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let solvable_cnf = dir.path().join("solvable.cnf");
    std::fs::write(&solvable_cnf, &out.stdout).unwrap();
    let clauses = |t: &str| t.lines().filter(|l| !l.starts_with(['c', 'p'])).count();
    assert_eq!(
        clauses(&text),
        clauses(&String::from_utf8_lossy(&out.stdout)) + 1
    );
    assert!(!rate_verifies(&rate, &solvable_cnf, &drat));
}

#[test]
fn cli_count_writes_proofs_for_unique_and_unsolvable_puzzles_only() {
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    let unique = sample("puzzles3_magictour_top1465.gz", 2);
    let multi = sample("puzzles7_serg_benchmark.gz", 1);
    let (deep, _) = deep_contradiction();
    let text = format!("{}\n{}\n{}\n{deep}\n", unique[0], multi[0], unique[1]);
    std::fs::write(&input, text).unwrap();
    let proofs = dir.path().join("proofs");
    let out = count_with_proofs("extended", &proofs, &input);
    crate::common::assert_success(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n2+\n1\n0\n");
    let mut names: Vec<String> = std::fs::read_dir(&proofs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "mixed.txt-1.cnf",
            "mixed.txt-1.drat",
            "mixed.txt-3.cnf",
            "mixed.txt-3.drat",
            "mixed.txt-4.cnf",
            "mixed.txt-4.drat"
        ]
    );
    for stem in ["mixed.txt-1", "mixed.txt-3", "mixed.txt-4"] {
        assert!(rate_verifies(
            &rate,
            &proofs.join(format!("{stem}.cnf")),
            &proofs.join(format!("{stem}.drat"))
        ));
    }
    // --proof is for the sat backend only.
    let out = Command::new(BIN)
        .args(["count", "--backend", "basic", "--proof"])
        .arg(&proofs)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Grids of other orders get proofs too, in the reduced encoding (the one `cnf` writes for
/// them): a unique 16x16 and a 4x4 with no solution, each checked by `rate`; the 16x16 proof
/// fails once its blocking clause is taken away. Another encoding is refused per record.
#[test]
fn proofs_of_other_orders_are_checked_by_rate() {
    use std::io::Read;
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(
        std::fs::File::open(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("data/orders_16x16_gecode.gz"),
        )
        .unwrap(),
    )
    .read_to_string(&mut text)
    .unwrap();
    let gecode = text.lines().find(|l| !l.starts_with('#')).unwrap();
    // 4x4: the bottom-left box has no place for a 2; the empty 4x4 has 288 solutions.
    let input = dir.path().join("orders.txt");
    std::fs::write(
        &input,
        format!("{gecode}\n1...2....1.....2\n................\n"),
    )
    .unwrap();
    let proofs = dir.path().join("proofs");
    let out = count_with_proofs("reduced", &proofs, &input);
    crate::common::assert_success(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n0\n2+\n");
    assert_eq!(
        listing(&proofs),
        [
            "orders.txt-1.cnf",
            "orders.txt-1.drat",
            "orders.txt-2.cnf",
            "orders.txt-2.drat"
        ]
    );
    for stem in ["orders.txt-1", "orders.txt-2"] {
        let (cnf, drat) = (
            proofs.join(format!("{stem}.cnf")),
            proofs.join(format!("{stem}.drat")),
        );
        assert!(rate_verifies(&rate, &cnf, &drat), "rate rejects {stem}");
    }
    // Without its last clause (the one blocking the solution) the 16x16 formula is
    // satisfiable, and rate must reject the same proof.
    let open = dir.path().join("open.cnf");
    let blocking = without_last_clause(&proofs.join("orders.txt-1.cnf"), &open);
    assert!(blocking.split(' ').count() > 2, "{blocking}");
    assert!(!rate_verifies(
        &rate,
        &open,
        &proofs.join("orders.txt-1.drat")
    ));
    // Another encoding does not exist for other orders: the record is refused, saying so.
    let out = count_with_proofs("extended", &dir.path().join("other"), &input);
    assert_eq!(out.status.code(), Some(1));
    let f = input.display();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "error: {f}:1: proof: a 16x16 grid is proven in the reduced encoding only \
             (not extended)\nerror: {f}:2: proof: a 4x4 grid is proven in the reduced \
             encoding only (not extended)\n2+\n"
        )
    );
}

/// Writes to `out` the DIMACS file `cnf` without its last clause (a proof's blocking clause),
/// the header's clause count lowered to match; returns the clause taken away.
fn without_last_clause(cnf: &Path, out: &Path) -> String {
    let text = std::fs::read_to_string(cnf).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap().to_string();
    let header = lines.iter().position(|l| l.starts_with("p cnf")).unwrap();
    let parts: Vec<usize> = lines[header][6..]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let fixed_header = format!("p cnf {} {}", parts[0], parts[1] - 1);
    lines[header] = &fixed_header;
    std::fs::write(out, lines.join("\n") + "\n").unwrap();
    last
}

/// The files in a directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Two inputs with the same file name get proofs under distinct names (each proving its own
/// puzzle), and a directory holding proofs already is refused: nothing is overwritten.
#[test]
fn cli_proof_names_are_distinct_per_input_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample("puzzles3_magictour_top1465.gz", 3);
    for (sub, p) in [
        ("d1", &puzzles[0]),
        ("d2", &puzzles[1]),
        ("d3", &puzzles[2]),
    ] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("x.txt"), format!("{p}\n")).unwrap();
    }
    std::fs::write(dir.path().join("y.txt"), format!("{}\n", puzzles[2])).unwrap();
    let count = |proofs: &str, files: &[&str]| {
        Command::new(BIN)
            .args(["count", "--backend", "sat", "--proof", proofs])
            .args(files)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = count("proofs", &["d1/x.txt", "./d2/x.txt", "y.txt"]);
    crate::common::assert_success(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n1\n1\n");
    let proofs = dir.path().join("proofs");
    assert_eq!(
        listing(&proofs),
        [
            "d1_x.txt-1.cnf",
            "d1_x.txt-1.drat",
            "d2_x.txt-1.cnf",
            "d2_x.txt-1.drat",
            "y.txt-1.cnf",
            "y.txt-1.drat"
        ]
    );
    for (stem, p) in [("d1_x.txt-1", &puzzles[0]), ("d2_x.txt-1", &puzzles[1])] {
        let cnf = std::fs::read_to_string(proofs.join(format!("{stem}.cnf"))).unwrap();
        assert!(
            cnf.starts_with(&format!("c sudobench proof input: puzzle {p}\n")),
            "{stem}: {}",
            cnf.lines().next().unwrap_or_default()
        );
    }
    let before: Vec<Vec<u8>> = listing(&proofs)
        .iter()
        .map(|n| std::fs::read(proofs.join(n)).unwrap())
        .collect();

    // Again into the same directory (a different input with an old name): refused, exit 2,
    // the old proofs untouched.
    let out = count("proofs", &["d3/x.txt", "d1/x.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("already holds proof files"), "{stderr}");
    let after: Vec<Vec<u8>> = listing(&proofs)
        .iter()
        .map(|n| std::fs::read(proofs.join(n)).unwrap())
        .collect();
    assert_eq!(before, after);

    // The same input twice: its proofs are written once, and the repeat is an error, not a
    // silent overwrite.
    let out = count("twice", &["y.txt", "y.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "1");
    assert!(
        lines[1].starts_with("error: y.txt:1: creating proof file"),
        "{stdout}"
    );
    assert_eq!(
        listing(&dir.path().join("twice")),
        ["y.txt-1.cnf", "y.txt-1.drat"]
    );
}

/// `cnf --out DIR` refuses a directory with `.cnf` files from an earlier run (a shorter run
/// would leave stale ones among its own); `--force` deletes them first and nothing else.
#[test]
fn cli_cnf_out_refuses_stale_formulas_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample("puzzles3_magictour_top1465.gz", 3);
    let three = dir.path().join("three.txt");
    let one = dir.path().join("one.txt");
    std::fs::write(
        &three,
        puzzles.iter().map(|p| format!("{p}\n")).collect::<String>(),
    )
    .unwrap();
    std::fs::write(&one, format!("{}\n", puzzles[2])).unwrap();
    let out_dir = dir.path().join("cnf");
    let cnf = |file: &Path, force: bool| {
        let mut c = Command::new(BIN);
        c.args(["cnf", "--out"]).arg(&out_dir).arg(file);
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    assert!(cnf(&three, false).status.success());
    assert_eq!(
        listing(&out_dir),
        ["000001.cnf", "000002.cnf", "000003.cnf"]
    );
    std::fs::write(out_dir.join("notes.txt"), "mine").unwrap();

    let out = cnf(&one, false);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("already holds .cnf files") && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(
        listing(&out_dir),
        ["000001.cnf", "000002.cnf", "000003.cnf", "notes.txt"]
    );

    let out = cnf(&one, true);
    assert!(out.status.success());
    assert_eq!(listing(&out_dir), ["000001.cnf", "notes.txt"]);
    let text = std::fs::read_to_string(out_dir.join("000001.cnf")).unwrap();
    assert!(text.contains(&puzzles[2].to_string()));

    // --force needs --out.
    let out = Command::new(BIN)
        .args(["cnf", "--force", &puzzles[0].to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Pencilmarks of an empty grid with `remove(cell, digit)` candidates taken away.
fn pencilmarks(remove: impl Fn(usize, u8) -> bool) -> Candidates {
    let mut masks = [0x1ffu16; 81];
    for (cell, m) in masks.iter_mut().enumerate() {
        for d in 1..=9u8 {
            if remove(cell, d) {
                *m &= !(1 << (d - 1));
            }
        }
    }
    Candidates::from_masks(masks).unwrap()
}

/// Puzzles without a solution that simplification by the clues, or unit propagation alone,
/// already refutes: the formulas where an empty clause, or an empty proof, used to end up.
fn shallow_contradictions() -> Vec<(&'static str, Puzzle)> {
    let grid = |s: &str| Puzzle::Grid(s.replace(' ', "").parse().unwrap());
    let full = "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
    // The full grid with its first two cells swapped: clashes in columns and the box.
    let swapped = format!("{}{}{}", &full[1..2], &full[0..1], &full[2..]);
    vec![
        ("row clash", grid(&format!("11{}", ".".repeat(79)))),
        (
            "box clash only",
            grid(&format!("1{}1{}", ".".repeat(9), ".".repeat(70))),
        ),
        (
            // r1c1 sees 2..8 in its row, 9 in its box and 1 in its column: no digit left.
            "empty cell",
            grid(&format!(
                ".2345678.{}{}{}1{}",
                ".9.......",
                ".".repeat(18),
                "",
                ".".repeat(44)
            )),
        ),
        ("full grid with a clash", grid(&swapped)),
        (
            "digit 1 has no place in row 1",
            Puzzle::Candidates(pencilmarks(|cell, d| cell < 9 && d == 1)),
        ),
        (
            "a cell without candidates",
            Puzzle::Candidates(pencilmarks(|cell, _| cell == 40)),
        ),
        (
            "pencilmark clash in a box",
            Puzzle::Candidates(pencilmarks(|cell, d| (cell == 0 || cell == 10) && d != 5)),
        ),
    ]
}

/// Runs `count --backend sat --encoding E --proof DIR` on `puzzles` and checks that it answers
/// `want` per puzzle, writes a proof pair exactly for every `1` and `0`, and that `rate`
/// verifies each of them. Returns how many proofs were checked.
fn cli_proofs_all_verify(
    rate: &Path,
    dir: &Path,
    tag: &str,
    e: Encoding,
    puzzles: &[Puzzle],
    want: &[&str],
) -> usize {
    let input = dir.join(format!("{tag}-{e}.txt"));
    let text: String = puzzles
        .iter()
        .map(|p| format!("{}\n", p.to_line()))
        .collect();
    std::fs::write(&input, text).unwrap();
    let proofs = dir.join(format!("{tag}-{e}-proofs"));
    let out = count_with_proofs(e.name(), &proofs, &input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        got,
        want,
        "{tag} {e}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let name = format!("{tag}-{e}.txt");
    let mut expected = Vec::new();
    for (i, answer) in want.iter().enumerate() {
        if matches!(*answer, "0" | "1") {
            expected.push(format!("{name}-{}.cnf", i + 1));
            expected.push(format!("{name}-{}.drat", i + 1));
        }
    }
    expected.sort();
    let files = if proofs.exists() {
        listing(&proofs)
    } else {
        Vec::new()
    };
    assert_eq!(files, expected, "{tag} {e}");
    for cnf in files.iter().filter(|f| f.ends_with(".cnf")) {
        let cnf = proofs.join(cnf);
        let drat = cnf.with_extension("drat");
        let text = std::fs::read_to_string(&cnf).unwrap();
        // No empty clause in the formula: every clause line has a literal before its 0.
        assert!(
            !text.lines().any(|l| l.trim() == "0"),
            "{tag} {e}: {} holds an empty clause",
            cnf.display()
        );
        assert!(
            rate_verifies(rate, &cnf, &drat),
            "{tag} {e}: rate rejects {}",
            cnf.display()
        );
    }
    files.len() / 2
}

#[test]
fn cli_proofs_of_shallow_contradictions_are_checked_by_rate() {
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    let (names, puzzles): (Vec<_>, Vec<_>) = shallow_contradictions().into_iter().unzip();
    let mut basic = Basic::new(&Options::default());
    for (name, p) in names.iter().zip(&puzzles) {
        assert_eq!(
            basic.solve(p, Limit::TWO).count(),
            Count::Exactly(0),
            "{name}"
        );
    }
    // A full valid grid (no variable left open by the simplified encodings) next to them.
    let full: Grid =
        "462831957795426183381795426173984265659312748248567319926178534834259671517643892"
            .parse()
            .unwrap();
    let mut all = puzzles.clone();
    all.push(Puzzle::Grid(full));
    let mut want = vec!["0"; puzzles.len()];
    want.push("1");
    for e in Encoding::ALL {
        let proven = cli_proofs_all_verify(&rate, dir.path(), "shallow", e, &all, &want);
        assert_eq!(proven, all.len(), "{e}");
    }
}

#[test]
fn cli_proofs_of_every_bundled_set_are_checked_by_rate() {
    let rate = rate();
    let dir = tempfile::tempdir().unwrap();
    let mut basic = Basic::new(&Options::default());
    // Every bundled set, as the registry of data sets knows them (a new set is covered with
    // no edit here).
    let sets: Vec<String> = sudobench::format::bundled_sets()
        .expect("bundled data sets")
        .iter()
        .map(|p| p.rsplit('/').next().unwrap().to_string())
        .collect();
    assert!(sets.len() >= 6, "{sets:?}");
    let mut proven = 0;
    for (k, set) in sets.iter().enumerate() {
        let puzzles = sample(set, 3);
        let answers: Vec<&str> = puzzles
            .iter()
            .map(|p| match basic.solve(p, Limit::TWO).count() {
                Count::Exactly(0) => "0",
                Count::Exactly(1) => "1",
                _ => "2+",
            })
            .collect();
        for e in Encoding::ALL {
            let tag = format!("set{k}");
            proven += cli_proofs_all_verify(&rate, dir.path(), &tag, e, &puzzles, &answers);
        }
    }
    // At least five sets of unique puzzles: 5 × 3 × 4 proofs, and more for the sets without
    // solutions.
    assert!(proven >= 60, "{proven}");
}

/// `cnf` on grids of other orders: the written DIMACS, read by varisat's own parser and
/// decoded through the `c v N rRcC=V` comments alone, has exactly the puzzle's solutions (one
/// for a bundled 16x16, 288 for the empty 4x4), each checked by the order verifier.
#[test]
fn cnf_writes_other_orders_whose_models_are_exactly_the_solutions() {
    use sudobench::order::check::check;
    use sudobench::order::{Order, OrderGrid};
    let sixteen = sudobench::format::Reader::open(&crate::common::data("orders_16x16_gecode.gz"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .puzzle;
    let Puzzle::Order(sixteen) = sixteen else {
        panic!("a 16x16 record")
    };
    let sixteen = (*sixteen).clone();
    let empty = OrderGrid::empty(Order::new(2).unwrap());
    for (puzzle, want) in [(sixteen, 1), (empty, 288)] {
        let out = Command::new(BIN)
            .args(["cnf", &puzzle.to_line()])
            .output()
            .unwrap();
        crate::common::assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        dimacs::parse(&text).unwrap();
        let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        let meaning: Vec<(usize, u8, isize)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("c v "))
            .map(|l| {
                let (var, cell) = l.split_once(" r").unwrap();
                let (r, rest) = cell.split_once('c').unwrap();
                let (c, v) = rest.split_once('=').unwrap();
                let side = puzzle.order().side();
                let cell =
                    (r.parse::<usize>().unwrap() - 1) * side + c.parse::<usize>().unwrap() - 1;
                (cell, v.parse().unwrap(), var.parse().unwrap())
            })
            .collect();
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula);
        let mut found = 0;
        while solver.solve().unwrap() {
            let model: std::collections::HashSet<isize> = solver
                .model()
                .unwrap()
                .iter()
                .map(|l| l.to_dimacs())
                .collect();
            let mut grid = puzzle.clone();
            let mut blocking = Vec::new();
            for &(cell, value, var) in &meaning {
                if model.contains(&var) {
                    grid.set(cell, value);
                    blocking.push(varisat::Lit::from_dimacs(-var));
                }
            }
            check(&puzzle, &grid).unwrap_or_else(|e| panic!("{e}"));
            found += 1;
            varisat::ExtendFormula::add_clause(&mut solver, &blocking);
        }
        assert_eq!(found, want, "{}", puzzle.order());
    }
    // Another encoding than reduced is refused for other orders, naming the puzzle.
    let out = Command::new(BIN)
        .args(["cnf", "--encoding", "minimal", &".".repeat(16)])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(crate::common::stderr(&out)
        .contains("other orders than 9x9 have the reduced encoding only"));
}
