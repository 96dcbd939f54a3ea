//! `certify`: the producer's certificates are accepted by the independent checker and by the
//! outside DRAT checker `rate`; corrupted ones (a deleted step, a flipped literal, a lemma
//! that does not follow, another puzzle's proof, a truncated file, a false claim) are rejected,
//! and both checkers agree on them; the command's rows, exit status, `--keep` and `--resume`;
//! and the same for grids of the other orders (4×4 to 64×64).

use super::common::{run, run_in, sample, CLASH, EASY, EASY_SOLUTION, HARD, HARD_SOLUTION, OPEN};
use super::sat::{rate, rate_verifies};
use std::path::Path;
use sudobench::certify::check::{Checker, Claim, Rejection};
use sudobench::certify::search::{Found, Producer};
use sudobench::certify::{write_cnf, Certifier, Count};
use sudobench::grid::Grid;
use sudobench::order::{Order, OrderGrid};
use sudobench::puzzle::{Puzzle, Solution};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn grid(text: &str) -> Puzzle {
    Puzzle::Grid(text.parse::<Grid>().unwrap())
}

/// Produces a certificate: what was found and the proof.
fn produce(puzzle: &Puzzle) -> (Found, Vec<u8>) {
    let mut proof = Vec::new();
    let (found, _) = Producer::new(10_000_000)
        .produce(puzzle, &mut proof)
        .expect("within budget");
    (found, proof)
}

/// The checker's verdict on `proof` for the claim `found` about `puzzle`.
fn verdict(puzzle: &Puzzle, found: &Found, proof: &[u8]) -> Result<(), Rejection> {
    let text = puzzle.to_line();
    let mut checker = Checker::new();
    match found {
        Found::None => checker.check(&text, Claim::None, proof),
        Found::Unique(s) => checker.check(&text, Claim::Unique(&s.to_line()), proof),
        Found::Two(s, t) => checker.check(&text, Claim::Two(&s.to_line(), &t.to_line()), proof),
    }
}

/// rate's verdict on `proof` for the formula of `puzzle` (with `solution` blocked).
fn rate_accepts(dir: &Path, puzzle: &Puzzle, solution: Option<&Grid>, proof: &[u8]) -> bool {
    let (cnf, drat) = (dir.join("p.cnf"), dir.join("p.drat"));
    let mut text = Vec::new();
    let solution = solution.map(|g| Solution::Grid(*g));
    write_cnf(&mut text, puzzle, solution.as_ref()).unwrap();
    std::fs::write(&cnf, text).unwrap();
    std::fs::write(&drat, proof).unwrap();
    rate_verifies(&rate(), &cnf, &drat)
}

fn solution(found: &Found) -> Option<&Grid> {
    match found {
        Found::Unique(s) => Some(s),
        _ => None,
    }
}

/// Lines of a proof, each with its newline.
fn steps(proof: &[u8]) -> Vec<Vec<u8>> {
    proof
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

#[test]
fn certificates_of_every_kind_are_accepted() {
    let mut puzzles = vec![grid(EASY), grid(HARD), grid(CLASH), grid(OPEN)];
    for (file, n) in [
        ("puzzles2_17_clue.gz", 60),
        ("puzzles5_forum_hardest_1905_11+.gz", 15),
        ("puzzles9_generated_no_solution.gz", 30),
        ("puzzles3_magictour_top1465.gz", 15),
        ("puzzles0_kaggle.csv.gz", 10),
    ] {
        puzzles.extend(sample(file, n));
    }
    let mut certifier = Certifier::new(10_000_000);
    let mut basic = sudobench::solver::basic::Basic::new(&Default::default());
    for p in &puzzles {
        let c = certifier.certify(p);
        assert!(c.ok(), "{p}: {:?}", c.verdict);
        // The count agrees with the oracle.
        let want = sudobench::Solver::solve(&mut basic, p, sudobench::Limit::TWO).count();
        let want = match want {
            sudobench::Count::Exactly(0) => Count::Zero,
            sudobench::Count::Exactly(1) => Count::One,
            _ => Count::TwoPlus,
        };
        assert_eq!(c.count, Some(want), "{p}");
    }
    // Pencilmark input: the candidates of HARD, and a position with no solution.
    let pm = Puzzle::Candidates(grid(HARD).candidates().unwrap());
    assert!(certifier.certify(&pm).ok());
    assert_eq!(certifier.certify(&pm).count, Some(Count::One));
}

#[test]
fn a_truncated_proof_is_rejected_at_any_length() {
    let p = grid(HARD);
    let (found, proof) = produce(&p);
    assert!(verdict(&p, &found, &proof).is_ok());
    assert!(proof.len() > 200, "{}", proof.len());
    // Every length near either end, every 7th in between.
    let lengths = (0..proof.len()).filter(|&n| n < 300 || n + 300 > proof.len() || n % 7 == 0);
    for len in lengths {
        assert!(
            verdict(&p, &found, &proof[..len]).is_err(),
            "accepted cut at {len} of {}",
            proof.len()
        );
    }
}

#[test]
fn another_puzzles_proof_or_a_false_claim_is_rejected() {
    let hard = grid(HARD);
    let (found, proof) = produce(&hard);
    // The proof of HARD for another puzzle (HARD with one clue moved), with HARD's solution.
    let other =
        grid("080000000003600000070090200050007000000045700000100030001000068008500010090000400");
    assert!(verdict(&other, &found, &proof).is_err());
    // Claiming no solution for a puzzle that has one, with its uniqueness proof.
    assert!(verdict(&hard, &Found::None, &proof).is_err());
    // Claiming another solution: a valid grid that is not HARD's.
    let easy_solution: Grid = EASY_SOLUTION.parse().unwrap();
    let claim = Found::Unique(easy_solution);
    assert!(matches!(
        verdict(&hard, &claim, &proof),
        Err(Rejection::Solution(_))
    ));
    // Two "different" solutions that are the same, or one that breaks a rule.
    let s: Grid = HARD_SOLUTION.parse().unwrap();
    assert!(verdict(&hard, &Found::Two(s, s), b"").is_err());
    let mut broken = *s.cells();
    broken.swap(0, 1);
    let broken = Grid::from_cells(broken).unwrap();
    assert!(verdict(&grid(OPEN), &Found::Two(s, broken), b"").is_err());
    // A proof of no solution for a puzzle that has one.
    let (none, clash_proof) = produce(&grid(CLASH));
    assert_eq!(none, Found::None);
    assert!(verdict(&grid(EASY), &Found::None, &clash_proof).is_err());
    // Garbage.
    for bad in [
        &b"x 0\n"[..],
        b"730 0\n0\n",
        b"1 0 2\n0\n",
        b"-0 0\n0\n",
        b"0",
    ] {
        assert!(verdict(&hard, &found, bad).is_err(), "{bad:?}");
    }
}

/// Corruptions of one step, judged by both checkers: whatever ours accepts, rate accepts
/// (ours is never the more lenient), and most are rejected. They can differ the other way:
/// ours checks every lemma in order, rate (checking backwards) only those the refutation uses,
/// so a lemma that does not follow but is never used fails ours only.
#[test]
fn deleted_steps_flipped_literals_and_bogus_lemmas_agree_with_rate() {
    let dir = tempfile::tempdir().unwrap();
    // A puzzle with a proof of some thirty steps, and one with no solution.
    let mut cases = Vec::new();
    for p in crate::common::samples(&[
        ("puzzles5_forum_hardest_1905_11+.gz", 40),
        ("puzzles9_generated_no_solution.gz", 40),
    ]) {
        let (found, proof) = produce(&p);
        let n = steps(&proof).len();
        if (3..250).contains(&n)
            && !cases.iter().any(|(_, f, _): &(Puzzle, Found, Vec<u8>)| {
                std::mem::discriminant(f) == std::mem::discriminant(&found)
            })
        {
            cases.push((p, found, proof));
        }
    }
    assert_eq!(cases.len(), 2, "no suitable sample puzzles");
    // Per kind of corruption: judged, rejected by ours, rejected by rate.
    let mut tally: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for (p, found, proof) in &cases {
        let lines = steps(proof);
        let mut variants: Vec<(String, Vec<u8>)> = Vec::new();
        // At most 30 steps, spread over the proof (rate takes some 40 ms a call).
        let stride = lines.len().div_ceil(30);
        for k in (0..lines.len()).filter(|k| k % stride == 0 || k + 1 == lines.len()) {
            // A deleted step.
            let mut v = lines.clone();
            v.remove(k);
            variants.push((format!("step {k} deleted"), v.concat()));
            // A flipped literal (the last of the step: its deepest decision), when it has
            // one.
            let text = String::from_utf8(lines[k].clone()).unwrap();
            let mut tokens: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            if tokens.len() >= 2 {
                let last = tokens.len() - 2;
                tokens[last] = match tokens[last].strip_prefix('-') {
                    Some(pos) => pos.to_string(),
                    None => format!("-{}", tokens[last]),
                };
                let mut v = lines.clone();
                v[k] = format!("{}\n", tokens.join(" ")).into_bytes();
                variants.push((format!("step {k} flipped"), v.concat()));
            }
        }
        // Every step but the empty clause deleted.
        variants.push((
            "all steps but the last deleted".to_string(),
            b"0\n".to_vec(),
        ));
        // A bogus lemma first: one digit ruled out of the first empty cell.
        let cell = p.to_line().find(['.', '0']).unwrap();
        let mut v = lines.clone();
        v.insert(0, format!("-{} 0\n", 9 * cell + 1).into_bytes());
        variants.push(("bogus unit lemma".to_string(), v.concat()));
        for (what, bytes) in variants {
            let ours = verdict(p, found, &bytes).is_ok();
            let theirs = rate_accepts(dir.path(), p, solution(found), &bytes);
            assert!(!ours || theirs, "{p}: {what}: ours accepts, rate rejects");
            let kind = what.rsplit(' ').next().unwrap_or_default();
            let kind = ["deleted", "flipped", "lemma"]
                .into_iter()
                .find(|k| *k == kind)
                .expect("a kind");
            let t = tally.entry(kind).or_default();
            t[0] += 1;
            t[1] += usize::from(!ours);
            t[2] += usize::from(!theirs);
        }
    }
    // Many corruptions still leave a valid proof (a deleted lemma that propagation recovers),
    // but every kind must be caught where it breaks the proof.
    assert_eq!(tally.len(), 3, "{tally:?}");
    for (kind, [judged, ours, theirs]) in &tally {
        assert!(
            *ours > 0 && *theirs > 0,
            "{kind}: {ours} and {theirs} of {judged} rejected"
        );
    }
}

#[test]
fn rate_verifies_every_kept_certificate_and_certify_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("sample.txt");
    let mut text = String::new();
    for (file, n) in [
        ("puzzles2_17_clue.gz", 10),
        ("puzzles5_forum_hardest_1905_11+.gz", 6),
        ("puzzles9_generated_no_solution.gz", 12),
    ] {
        for p in sample(file, n) {
            text.push_str(&format!("{p}\n"));
        }
    }
    text.push_str(&format!("{OPEN}\n"));
    // Full grids, 9x9 and 4x4: their blocking clauses span every cell (over the open cells
    // they would be empty, and rate 0.3 panics on an empty clause).
    text.push_str(
        "462831957795426183381795426173984265659312748248567319926178534834259671517643892\n\
         1234341221434321\n",
    );
    std::fs::write(&data, &text).unwrap();
    let keep = dir.path().join("kept");
    let out = run_in(
        dir.path(),
        &[
            "certify",
            "--threads",
            "2",
            "--format",
            "csv",
            "--keep",
            "kept",
            "sample.txt",
        ],
        b"",
    );
    crate::common::assert_success(&out);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), text.lines().count());
    assert!(
        rows.iter().all(|r| r.split(',').nth(3) == Some("yes")),
        "{stdout}"
    );
    let mut files: Vec<_> = std::fs::read_dir(&keep)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    // No temporary file is left, every proof has its formula, the 2+ has its solutions.
    assert!(files.iter().all(|f| !f.starts_with('.')), "{files:?}");
    assert!(
        files.contains(&format!("sample.txt-{}.sols", rows.len() - 2)),
        "{files:?}"
    );
    let rate = rate();
    let drats: Vec<&String> = files.iter().filter(|f| f.ends_with(".drat")).collect();
    assert_eq!(drats.len(), rows.len() - 1);
    for drat in drats {
        let cnf = keep.join(drat.replace(".drat", ".cnf"));
        assert!(rate_verifies(&rate, &cnf, &keep.join(drat)), "{drat}");
    }
    // The directory now holds certificates: a second run is refused.
    let again = run_in(
        dir.path(),
        &["certify", "--keep", "kept", "sample.txt"],
        b"",
    );
    assert_eq!(again.status.code(), Some(2));
}

#[test]
fn an_uncertified_puzzle_fails_the_run_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.txt"), format!("{EASY}\n{HARD}\n")).unwrap();
    let out = run_in(
        dir.path(),
        &["certify", "--max-nodes", "3", "--format", "csv", "p.txt"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[1].starts_with("p.txt,1,1,yes,"), "{stdout}");
    assert!(
        rows[2].starts_with("p.txt,2,unknown,no,")
            && rows[2].ends_with("search budget of 3 nodes spent"),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("2 puzzles, 1 certified"), "{stderr}");
    // A time limit per puzzle, with no time left: the search stops at its first node.
    let out = run_in(
        dir.path(),
        &[
            "certify",
            "--max-seconds",
            "1e-9",
            "--format",
            "csv",
            "p.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    for row in stdout.lines().skip(1) {
        assert!(
            row.starts_with("p.txt,") && row.contains(",unknown,no,"),
            "{stdout}"
        );
        assert!(
            row.ends_with("search time limit reached after 1 node"),
            "{stdout}"
        );
    }
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
}

/// Rows without the two time columns.
fn untimed(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [&f[..6], &f[8..]].concat().join(",")
        })
        .collect()
}

#[test]
fn a_run_cut_short_resumes_where_it_stopped_in_csv_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let set = format!("{ROOT}/data/puzzles3_magictour_top1465.gz");
    let whole = run(&["certify", "--format", "csv", "--threads", "2", &set], b"");
    assert_eq!(whole.status.code(), Some(0));
    let whole_rows = untimed(&whole.stdout);
    assert_eq!(whole_rows.len(), 1466);
    // The same rows on one thread.
    let one = run(&["certify", "--format", "csv", &set], b"");
    assert_eq!(untimed(&one.stdout), whole_rows);

    // An output cut in the middle of row 700.
    let text = String::from_utf8(whole.stdout).unwrap();
    let cut = text.lines().take(700).collect::<Vec<_>>().join("\n") + "\n";
    let cut = &text[..cut.len() + 20];
    let previous = dir.path().join("previous.csv");
    std::fs::write(&previous, cut).unwrap();
    let rest = run(
        &[
            "certify",
            "--format",
            "csv",
            "--resume",
            previous.to_str().unwrap(),
            &set,
        ],
        b"",
    );
    assert_eq!(rest.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&rest.stderr);
    assert!(stderr.contains("699 skipped"), "{stderr}");
    let rest_rows = untimed(&rest.stdout);
    // Header, then rows 700.. of the whole run.
    assert_eq!(rest_rows[0], whole_rows[0]);
    assert_eq!(&rest_rows[1..], &whole_rows[700..]);

    // JSON: the same with the JSON output.
    let json = run(&["certify", "--format", "json", &set], b"");
    let text = String::from_utf8(json.stdout).unwrap();
    let cut: String = text.lines().take(1000).map(|l| format!("{l}\n")).collect();
    std::fs::write(&previous, &cut[..cut.len() - 5]).unwrap();
    let rest = run(
        &[
            "certify",
            "--format",
            "json",
            "--resume",
            previous.to_str().unwrap(),
            &set,
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&rest.stderr);
    assert!(stderr.contains("999 skipped"), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&rest.stdout).lines().count(),
        1465 - 999
    );
    // A table is no output to resume from.
    std::fs::write(&previous, "puzzle count\n").unwrap();
    let bad = run(
        &["certify", "--resume", previous.to_str().unwrap(), &set],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
}

/// A file name with a comma and a quote is quoted whole in CSV rows, and `--resume` reads it
/// back (the closing quote was missing, so such a run could not be resumed).
#[test]
fn a_quoted_file_name_resumes_in_csv() {
    let dir = tempfile::tempdir().unwrap();
    let name = "a,\"b.txt";
    let puzzles: String = [HARD, EASY, CLASH]
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    std::fs::write(dir.path().join(name), puzzles).unwrap();
    let whole = run_in(dir.path(), &["certify", "--format", "csv", name], b"");
    let text = String::from_utf8(whole.stdout).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("\"a,\"\"b.txt\",1,1,yes,"),
        "{text}"
    );
    let previous = dir.path().join("previous.csv");
    std::fs::write(
        &previous,
        text.lines()
            .take(3)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let rest = run_in(
        dir.path(),
        &[
            "certify",
            "--format",
            "csv",
            "--resume",
            previous.to_str().unwrap(),
            name,
        ],
        b"",
    );
    assert!(
        String::from_utf8_lossy(&rest.stderr).contains("2 skipped"),
        "{}",
        String::from_utf8_lossy(&rest.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&rest.stdout).lines().count(), 2);
}

/// `count --proof` writes its proofs on the worker stages: two threads write the same files,
/// byte for byte, and print the same lines as one.
#[test]
fn count_proofs_are_the_same_on_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = crate::common::one_per_line(&crate::common::samples(&[
        ("puzzles3_magictour_top1465.gz", 30),
        ("puzzles9_generated_no_solution.gz", 10),
    ]));
    text.push_str(&format!("{OPEN}\n"));
    std::fs::write(dir.path().join("p.txt"), &text).unwrap();
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let proofs = format!("proofs{threads}");
        let out = run_in(
            dir.path(),
            &[
                "count",
                "--backend",
                "sat",
                "--threads",
                threads,
                "--proof",
                &proofs,
                "p.txt",
            ],
            b"",
        );
        crate::common::assert_success(&out);
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path().join(&proofs))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().into_string().unwrap(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        runs.push((out.stdout, files));
    }
    assert_eq!(runs[0].1.len(), 80);
    assert_eq!(runs[0], runs[1]);
}

/// The checker honours a deadline: past it, a check stops without a verdict (at the first
/// proof line, where it first reads the clock), and the same proof is accepted without one.
/// The certifier reports such a check as undecided, not as a rejection.
#[test]
fn a_check_stops_at_the_deadline_without_a_verdict() {
    let hard = grid(HARD);
    let (found, proof) = produce(&hard);
    let Found::Unique(s) = &found else {
        panic!("HARD has one solution")
    };
    let text = hard.to_line();
    let mut checker = Checker::new();
    checker.set_deadline(Some(std::time::Instant::now()));
    assert_eq!(
        checker.check(&text, Claim::Unique(&s.to_line()), &proof),
        Err(Rejection::OutOfTime { line: 1 })
    );
    checker.set_deadline(None);
    assert_eq!(
        checker.check(&text, Claim::Unique(&s.to_line()), &proof),
        Ok(())
    );
    // Clues that clash need no search node, so only the check meets the deadline.
    let mut certifier = Certifier::new(10_000_000);
    let c = sudobench::deadline::with_deadline(Some(std::time::Instant::now()), || {
        certifier.certify(&grid(CLASH))
    });
    assert_eq!(c.count, None, "{c:?}");
    assert!(!c.ok());
    assert_eq!(
        c.verdict,
        Err("check time limit reached at proof line 1".to_string())
    );
    assert_eq!(certifier.certify(&grid(CLASH)).count, Some(Count::Zero));
}

/// A full grid of order `n` (the pattern value(r, c) = (n·(r mod n) + r div n + c) mod n² + 1).
fn full_order_grid(n: usize) -> OrderGrid {
    let s = n * n;
    let values = (0..s * s)
        .map(|i| {
            let (r, c) = (i / s, i % s);
            ((n * (r % n) + r / n + c) % s + 1) as u8
        })
        .collect();
    OrderGrid::from_values(Order::new(n).unwrap(), values).unwrap()
}

/// Every bundled set of another order that the simple producer settles quickly, each puzzle
/// certified with the count a complete backend gives (4×4 and 16×16: several solutions, none,
/// and Gecode's unique puzzles), plus a full grid minus one cell of every order from 4×4 to
/// 64×64 (count 1, the numbers form from 36×36 on) and the empty 4×4 grid (2+).
#[test]
fn puzzles_of_every_order_are_certified() {
    let mut certifier = Certifier::new(1_000_000);
    let mut wide = sudobench::backends::build("wide", &Default::default()).unwrap();
    let mut puzzles = Vec::new();
    for (file, n) in [
        ("orders_4x4_several.gz", 50),
        ("orders_4x4_no_solution.gz", 50),
        ("orders_16x16_gecode.gz", 55),
        ("orders_16x16_no_solution.gz", 10),
        ("orders_16x16_several.gz", 20),
        ("orders_16x16_minimal.gz", 3),
    ] {
        puzzles.extend(sample(file, n));
    }
    for n in 2..=8 {
        let mut g = full_order_grid(n);
        g.set(n * n + 1, 0);
        puzzles.push(Puzzle::Order(g.into()));
    }
    puzzles.push(Puzzle::Order(
        OrderGrid::empty(Order::new(2).unwrap()).into(),
    ));
    let mut counts = [0; 3];
    for p in &puzzles {
        let c = certifier.certify(p);
        assert!(c.ok(), "{p}: {c:?}");
        let want = wide.solve(p, sudobench::solver::Limit::TWO).count();
        let got = c.count.unwrap();
        assert_eq!(
            want,
            match got {
                Count::Zero => sudobench::solver::Count::Exactly(0),
                Count::One => sudobench::solver::Count::Exactly(1),
                Count::TwoPlus => sudobench::solver::Count::AtLeast(2),
            },
            "{p}"
        );
        counts[got as usize] += 1;
    }
    assert!(counts.iter().all(|&k| k > 0), "{counts:?}");
}

/// An order-4 certificate, corrupted: a deleted step, a flipped literal, another puzzle's
/// proof, a truncated proof and false claims are rejected by the checker, and rate agrees on
/// the sound and the flipped ones against the CNF `write_cnf` writes.
#[test]
fn corrupted_certificates_of_another_order_are_rejected_and_rate_agrees() {
    let dir = tempfile::tempdir().unwrap();
    // The no-solution puzzle with the longest proof, and another one.
    let mut proved: Vec<(Puzzle, Vec<u8>)> = sample("orders_16x16_no_solution.gz", 10)
        .into_iter()
        .map(|p| {
            let Puzzle::Order(g) = &p else {
                panic!("a 16x16 puzzle")
            };
            let mut proof = Vec::new();
            let (found, _) = sudobench::certify::search_order::produce(g, 1_000_000, &mut proof)
                .expect("within budget");
            assert_eq!(found, Found::None);
            (p, proof)
        })
        .collect();
    proved.sort_by_key(|(_, proof)| std::cmp::Reverse(proof.len()));
    let (p, proof) = &proved[0];
    let other_proof = &proved[1].1;
    let proof = proof.clone();
    let text = p.to_line();
    let check = |proof: &[u8]| Checker::new().check(&text, Claim::None, proof);
    assert_eq!(check(&proof), Ok(()));
    let rate_on = |proof: &[u8]| {
        let (cnf, drat) = (dir.path().join("o.cnf"), dir.path().join("o.drat"));
        let mut out = Vec::new();
        write_cnf(&mut out, p, None).unwrap();
        std::fs::write(&cnf, out).unwrap();
        std::fs::write(&drat, proof).unwrap();
        rate_verifies(&rate(), &cnf, &drat)
    };
    assert!(rate_on(&proof));
    let lines = steps(&proof);
    assert!(lines.len() > 3, "{} lines", lines.len());
    // The first lemma deleted: the next ones no longer follow (or the proof still stands, as
    // a DRUP checker would also find; then rate must agree).
    let deleted: Vec<u8> = lines[1..].concat();
    assert_eq!(check(&deleted).is_ok(), rate_on(&deleted));
    // A literal of the first lemma with a decision flipped.
    let first = String::from_utf8(lines[0].clone()).unwrap();
    let flipped_first = first.replacen('-', "", 1);
    if flipped_first != first {
        let flipped = [flipped_first.into_bytes(), lines[1..].concat()].concat();
        assert_eq!(check(&flipped).is_ok(), rate_on(&flipped));
    }
    // Truncated: the last line without its newline, or without the empty clause.
    assert!(check(&proof[..proof.len() - 1]).is_err());
    assert_eq!(
        check(&lines[..lines.len() - 1].concat()),
        Err(Rejection::NoEmptyClause)
    );
    // Another puzzle's proof.
    assert!(check(other_proof).is_err());
    // False claims: a solution that breaks a house, of another order, or two the same.
    let full = full_order_grid(4);
    let mut broken = full.clone();
    broken.set(0, full.get(1));
    let mut one = full.clone();
    one.set(5, 0);
    let puzzle = one.to_line();
    let mut checker = Checker::new();
    assert!(matches!(
        checker.check(&puzzle, Claim::Two(&full.to_line(), &full.to_line()), b""),
        Err(Rejection::Solution(_))
    ));
    assert!(matches!(
        checker.check(&puzzle, Claim::Two(&full.to_line(), &broken.to_line()), b""),
        Err(Rejection::Solution(_))
    ));
    let nine = full_order_grid(3);
    assert!(matches!(
        checker.check(&puzzle, Claim::Unique(&nine.to_line()), b"0\n"),
        Err(Rejection::Solution(_))
    ));
    // A puzzle text of no order.
    assert!(matches!(
        checker.check(&"1".repeat(100), Claim::None, b"0\n"),
        Err(Rejection::Puzzle(_))
    ));
}

/// A 9×9 grid built as a grid of order 3 (not how the reader gives it) is certified through
/// the order producer, and its CNF written, with the solution as a 9×9 grid.
#[test]
fn a_nine_by_nine_grid_of_order_3_is_certified_and_written() {
    let mut g = full_order_grid(3);
    g.set(40, 0);
    let p = Puzzle::Order(g.into());
    let c = Certifier::new(1_000).certify(&p);
    assert!(c.ok(), "{c:?}");
    assert_eq!(c.count, Some(Count::One));
    let mut out = Vec::new();
    write_cnf(&mut out, &p, c.solutions.first()).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("p cnf 729 "), "{}", &text[..200]);
    assert!(text.ends_with(" 0\n"));
}

/// `certify --keep` on grids of another order: every certificate kept is verified by rate.
#[test]
fn kept_certificates_of_another_order_are_verified_by_rate() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("kept");
    let set = dir.path().join("set.txt");
    let mut lines: Vec<String> = ["orders_16x16_gecode.gz", "orders_16x16_no_solution.gz"]
        .iter()
        .flat_map(|f| sample(f, 3))
        .map(|p| p.to_line())
        .collect();
    // (Not a full grid: its blocking clause is empty, and rate 0.3 panics on an empty clause
    // in the formula.)
    let mut four = full_order_grid(2);
    four.set(3, 0);
    lines.push(four.to_line());
    std::fs::write(&set, lines.join("\n") + "\n").unwrap();
    let out = run(
        &[
            "certify",
            "--keep",
            keep.to_str().unwrap(),
            set.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut checked = 0;
    for entry in std::fs::read_dir(&keep).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cnf") {
            let drat = path.with_extension("drat");
            assert!(rate_verifies(&rate(), &path, &drat), "{}", path.display());
            checked += 1;
        }
    }
    assert_eq!(checked, 7);
}
