//! End-to-end tests of `sudobench generate`, `sudobench grade` and `sudobench verify --minimal`.
//!
//! Uniqueness and minimality of generated puzzles are checked with the `sudoku` crate (a
//! dev-dependency that shares no code with sudobench), never with the generator's own code.

use crate::common::lines;
use std::process::Output;
use sudoku::Sudoku;

/// The first puzzle of data/puzzles0_kaggle.csv.gz (very easy).
const KAGGLE: &str =
    "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
/// The first puzzle of data/puzzles6_forum_hardest_1106.gz.
const HARDEST: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

fn run(args: &[&str]) -> Output {
    crate::common::run(args, b"")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Unique, and every clue needed: checked by the `sudoku` crate alone.
fn assert_unique_and_minimal(line: &str) {
    let s = Sudoku::from_str_line(line).expect("a puzzle line");
    assert_eq!(s.solutions_count_up_to(2), 1, "not unique: {line}");
    let bytes = s.to_bytes();
    for cell in (0..81).filter(|&c| bytes[c] != 0) {
        let mut smaller = bytes;
        smaller[cell] = 0;
        let n = Sudoku::from_bytes(smaller)
            .unwrap()
            .solutions_count_up_to(2);
        assert_eq!(
            n,
            2,
            "clue r{}c{} of {line} is redundant",
            cell / 9 + 1,
            cell % 9 + 1
        );
    }
}

fn clue_count(line: &str) -> usize {
    line.bytes()
        .filter(|b| b.is_ascii_digit() && *b != b'0')
        .count()
}

/// `generate` with `args`, split at spaces.
fn generate(args: &str) -> Output {
    let mut all = vec!["generate"];
    all.extend(args.split_whitespace());
    run(&all)
}

/// The standard error of a `generate` run with `args` that must fail (exit 1) having written no
/// puzzle.
fn failed(args: &str) -> String {
    let o = generate(args);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    text(&o.stderr)
}

/// The puzzles of a `generate` run with `args` that must succeed.
fn generated(args: &str) -> Vec<String> {
    let o = generate(args);
    crate::common::assert_success(&o);
    lines(&o)
}
#[test]
fn output_is_puzzle_lines_the_same_for_a_seed_at_any_thread_count() {
    let one = generate("-n 30 --seed 5");
    assert!(one.status.success(), "{}", text(&one.stderr));
    let puzzles = lines(&one);
    assert_eq!(puzzles.len(), 30);
    for p in &puzzles {
        assert_eq!(p.len(), 81, "{p}");
        assert!(
            p.bytes().all(|b| b == b'.' || (b'1'..=b'9').contains(&b)),
            "{p}"
        );
    }
    let three = generate("-n 30 --seed 5 --threads 3");
    assert_eq!(lines(&three), puzzles);
    // The first puzzles do not depend on how many follow.
    let fewer = generate("-n 7 --seed 5 --threads 2");
    assert_eq!(lines(&fewer), puzzles[..7]);
    let other = generate("-n 30 --seed 6");
    let other = lines(&other);
    assert_eq!(other.len(), 30);
    assert!(other.iter().all(|p| !puzzles.contains(p)));
    // Thirty different puzzles.
    let mut distinct = puzzles.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 30);
    assert!(
        text(&one.stderr).contains("30 puzzles"),
        "{}",
        text(&one.stderr)
    );
    // The summary counts in words that agree with the number.
    let single = text(&generate("-n 1 --seed 5").stderr);
    assert!(
        single.contains("1 puzzle (") && single.contains("1 thread)"),
        "{single}"
    );
    assert!(text(&three.stderr).contains("3 threads)"));
}

#[test]
fn puzzles_are_unique_and_minimal_for_an_independent_solver() {
    for p in generated("-n 25 --seed 11 --threads 2") {
        assert_unique_and_minimal(&p);
    }
}

#[test]
fn symmetric_patterns_and_clue_ranges() {
    for p in generated("-n 8 --symmetry central --seed 2") {
        let b = p.as_bytes();
        for i in 0..81 {
            assert_eq!(
                b[i] == b'.',
                b[80 - i] == b'.',
                "{p}: cells {i} and {}",
                80 - i
            );
        }
        let s = Sudoku::from_str_line(&p).unwrap();
        assert_eq!(s.solutions_count_up_to(2), 1, "{p}");
    }
    let o = generate("-n 8 --symmetry diagonal --seed 2");
    for p in lines(&o) {
        let b = p.as_bytes();
        for (r, c) in (0..9).flat_map(|r| (0..9).map(move |c| (r, c))) {
            assert_eq!(b[9 * r + c] == b'.', b[9 * c + r] == b'.', "{p}");
        }
    }
    let puzzles = generated("-n 10 --clues 26..27 --seed 4");
    assert_eq!(puzzles.len(), 10);
    for p in &puzzles {
        assert!((26..=27).contains(&clue_count(p)), "{p}");
        assert_unique_and_minimal(p);
    }
}

#[test]
fn clue_sets_without_a_solution() {
    let sets = generated("-n 20 --no-solution --seed 8 --threads 2");
    assert_eq!(sets.len(), 20);
    for p in &sets {
        // The sudoku crate, independent of sudobench, finds no solution.
        let s = Sudoku::from_str_line(p).expect("a puzzle line");
        assert_eq!(s.solutions_count_up_to(1), 0, "{p}");
    }
    let again = generate("-n 20 --no-solution --seed 8");
    assert_eq!(lines(&again), sets);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["generate", "--clues", "10..16"][..],
        &["generate", "--clues", "30..20"],
        &["generate", "--clues", "x"],
        &["generate", "--symmetry", "spiral"],
        &["generate", "--confirm", "bitmask"],
        &["generate", "--confirm", "no-such-backend"],
        &["generate", "--min-guesses", "-3"],
        &["generate", "--hard", "--min-guesses", "3"],
        &["generate", "--no-solution", "--hard"],
        &["grade"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_time_limit_stops_an_unreachable_hardness_goal_with_exit_1() {
    // Before --time-limit, this goal ran silently forever.
    let err = failed("-n 3 --min-guesses 100000 --time-limit 0.5");
    assert!(
        err.contains("0 puzzles")
            && err.contains("stopped at the time limit (0.5 s): 3 of 3 not made"),
        "{err}"
    );
    // A limit the run stays within changes nothing.
    let quick = generate("-n 3 --time-limit 600");
    let plain = generate("-n 3");
    assert_eq!(quick.status.code(), Some(0));
    assert_eq!(quick.stdout, plain.stdout);
    for bad in ["0", "-1", "soon", "1e9"] {
        let o = run(&["generate", &format!("--time-limit={bad}")]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("is not a positive number of seconds below"),
            "{err}"
        );
    }
}

#[test]
fn progress_shows_on_a_terminal_while_a_goal_is_out_of_reach() {
    // `script` runs the command on a pseudo-terminal, where the progress line is drawn.
    let command = format!(
        "{} generate -n 2 --min-guesses 100000 --time-limit 1.5",
        env!("CARGO_BIN_EXE_sudobench")
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script(1) runs");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("generate: 0/2 puzzles"), "{shown}");
    // Off a terminal there is no progress line.
    let o = generate("-n 2 --min-guesses 100000 --time-limit 1.5");
    assert!(!text(&o.stderr).contains("generate: 0/2"));
}

#[test]
fn an_unreachable_clue_range_fails_with_exit_1_naming_the_puzzle() {
    let err = failed("-n 2 --clues 38..40 --attempts 3");
    assert!(
        err.contains("error: puzzle 0:") && err.contains("error: puzzle 1:"),
        "{err}"
    );
}

#[test]
fn hard_mode_puzzles_are_unique_minimal_and_guess_more() {
    let o = generate("-n 3 --min-guesses 8 --seed 3");
    crate::common::assert_success(&o);
    let hard = lines(&o);
    assert_eq!(hard.len(), 3);
    for p in &hard {
        assert_unique_and_minimal(p);
    }
    assert!(text(&o.stderr).contains("guesses over 16 symmetries"));
    // Graded with other symmetries than the climb's, they still guess more than plain ones.
    let dir = tempfile::tempdir().unwrap();
    let plain = generate("-n 40 --seed 3");
    std::fs::write(dir.path().join("hard.txt"), text(&o.stdout)).unwrap();
    std::fs::write(dir.path().join("plain.txt"), text(&plain.stdout)).unwrap();
    let g = crate::common::run_in(
        dir.path(),
        &[
            "grade",
            "--summary",
            "--format",
            "csv",
            "plain.txt",
            "hard.txt",
        ],
        b"",
    );
    assert!(g.status.success(), "{}", text(&g.stderr));
    let rows: Vec<Vec<String>> = lines(&g)
        .iter()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let mean = |row: &Vec<String>| row[3].parse::<f64>().unwrap();
    assert!(mean(&rows[1]) > 2.0 * mean(&rows[0]), "{rows:?}");
}

#[test]
fn verify_minimal_names_the_redundant_clue() {
    let o = generate("-n 2 --seed 9");
    let puzzles = lines(&o);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("min.txt"), puzzles.join("\n")).unwrap();
    let ok = crate::common::run_in(dir.path(), &["verify", "--minimal", "min.txt"], b"");
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(text(&ok.stderr).contains("0 not minimal"));
    // Add one clue of the solution to the second puzzle: that clue is redundant.
    let solution = Sudoku::from_str_line(&puzzles[1])
        .unwrap()
        .solution()
        .unwrap()
        .to_bytes();
    let mut extra = puzzles[1].clone().into_bytes();
    let cell = extra.iter().position(|&b| b == b'.').unwrap();
    extra[cell] = b'0' + solution[cell];
    let extra = String::from_utf8(extra).unwrap();
    std::fs::write(
        dir.path().join("extra.txt"),
        format!("{}\n{extra}\n", puzzles[0]),
    )
    .unwrap();
    let name = format!("r{}c{}={}", cell / 9 + 1, cell % 9 + 1, solution[cell]);
    crate::common::assert_only_line_2_not_minimal(dir.path(), "extra.txt", &name);
    // Without --minimal the same file passes.
    let plain = crate::common::run_in(dir.path(), &["verify", "extra.txt"], b"");
    assert!(plain.status.success());
}

#[test]
fn grade_puts_kaggle_below_search_and_the_hardest_at_search() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.txt"), format!("{KAGGLE}\n{HARDEST}\n")).unwrap();
    let o = crate::common::run_in(dir.path(), &["grade", "--format", "csv", "two.txt"], b"");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = lines(&o);
    assert_eq!(
        rows[0],
        "source,line,puzzle,clues,technique,guesses,solutions,undecided"
    );
    let fields: Vec<Vec<&str>> = rows[1..].iter().map(|r| r.split(',').collect()).collect();
    assert_eq!(fields.len(), 2);
    let (easy, hard) = (&fields[0], &fields[1]);
    assert_eq!(easy[2], KAGGLE.replace('0', "."));
    assert_ne!(easy[4], "search");
    assert!(
        [
            "naked-single",
            "hidden-single",
            "locked-candidates",
            "pair",
            "triple",
            "quad"
        ]
        .contains(&easy[4]),
        "{easy:?}"
    );
    assert_eq!(hard[4], "search");
    assert_eq!(easy[3], clue_count(KAGGLE).to_string());
    assert_eq!(hard[3], "22");
    let (ge, gh): (f64, f64) = (easy[5].parse().unwrap(), hard[5].parse().unwrap());
    assert!(gh > ge, "{ge} {gh}");
    assert_eq!((easy[6], hard[6]), ("1", "1"));
    assert_eq!((easy[7], hard[7]), ("0", "0"));
    // The summary goes to stderr with CSV, with its histogram.
    let err = text(&o.stderr);
    assert!(err.contains("two.txt: 2 puzzles"), "{err}");
    assert!(err.contains("search") && err.contains("50.0%"), "{err}");

    // JSON per puzzle, and the summary record, parse.
    let j = crate::common::run_in(dir.path(), &["grade", "--format", "json", "two.txt"], b"");
    for l in lines(&j) {
        let v: serde_json::Value = serde_json::from_str(&l).unwrap();
        assert!(
            v["technique"].is_string() && v["guesses"].is_number(),
            "{l}"
        );
    }
    let s = crate::common::run_in(
        dir.path(),
        &[
            "grade",
            "--summary",
            "--format",
            "json",
            "--threads",
            "2",
            "two.txt",
        ],
        b"",
    );
    let v: serde_json::Value = serde_json::from_str(lines(&s)[0].as_str()).unwrap();
    assert_eq!(v["puzzles"], 2);
    assert_eq!(v["techniques"]["search"], 1);
    // The table has the puzzle rows and the summary on stdout.
    let t = crate::common::run_in(dir.path(), &["grade", "two.txt"], b"");
    let table = text(&t.stdout);
    assert!(
        table.contains("two.txt:1") && table.contains("two.txt:2"),
        "{table}"
    );
    assert!(table.contains("two.txt: 2 puzzles"), "{table}");
}

#[test]
fn grade_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    // A malformed line and a puzzle with many solutions: both make the exit code 1.
    std::fs::write(
        dir.path().join("bad.txt"),
        format!("123\n{}\n", ".".repeat(81)),
    )
    .unwrap();
    let o = crate::common::run_in(dir.path(), &["grade", "--format", "csv", "bad.txt"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("bad.txt:1:"), "{err}");
    let rows = lines(&o);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[1].contains(",search,"), "{rows:?}");
    assert!(rows[1].ends_with(",2+,0"), "{rows:?}");
    let missing = crate::common::run_in(dir.path(), &["grade", "missing.txt"], b"");
    assert_eq!(missing.status.code(), Some(1));
}

/// The bundled generated sets are what their recorded commands make (their first puzzles;
/// should the generator change, regenerate a file with the command in its header), and the
/// `sudoku` crate agrees with what they claim: unique and minimal, or no solution.
#[test]
fn bundled_generated_sets_match_their_commands() {
    for (file, total, unique) in [
        ("puzzles8_generated_minimal.gz", 10_000, true),
        ("puzzles9_generated_no_solution.gz", 1_000, false),
    ] {
        let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let mut content = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).unwrap()),
            &mut content,
        )
        .unwrap();
        let command = content
            .lines()
            .take_while(|l| l.starts_with('#'))
            .find_map(|l| l.split_once("sudobench generate "))
            .map(|(_, rest)| rest)
            .expect("the header names the command");
        let mut args = vec!["generate"];
        args.extend(command.split_whitespace());
        let puzzles: Vec<&str> = content.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(puzzles.len(), total, "{file}");
        // The same command with a smaller count makes the same first puzzles.
        let count = args.iter().position(|&a| a == "--count").unwrap() + 1;
        args[count] = "40";
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(
            lines(&o),
            puzzles[..40],
            "{file}: regenerate it with its command"
        );
        for p in puzzles.iter().step_by(50) {
            if unique {
                assert_unique_and_minimal(p);
            } else {
                let s = Sudoku::from_str_line(p).unwrap();
                assert_eq!(s.solutions_count_up_to(1), 0, "{p}");
            }
        }
    }
}

/// Whole bundled sets: every Kaggle puzzle grades below `search`, every forum-hardest-1106
/// puzzle at `search`, and the hard set's mean guesses are far above Kaggle's.
#[test]
fn grade_whole_sets_kaggle_below_search_1106_at_search() {
    let o = run(&[
        "grade",
        "--summary",
        "--format",
        "json",
        "--symmetries",
        "2",
        "--threads",
        "2",
        &format!("{}/data/puzzles0_kaggle.csv.gz", env!("CARGO_MANIFEST_DIR")),
        &format!(
            "{}/data/puzzles6_forum_hardest_1106.gz",
            env!("CARGO_MANIFEST_DIR")
        ),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows: Vec<serde_json::Value> = lines(&o)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (kaggle, hardest) = (&rows[0], &rows[1]);
    assert_eq!(kaggle["puzzles"], 25_386);
    assert_eq!(kaggle["techniques"]["search"], 0);
    assert_eq!(kaggle["techniques"]["contradiction"], 0);
    assert_eq!(hardest["puzzles"], 375);
    assert_eq!(hardest["techniques"]["search"], 375);
    let guesses = |v: &serde_json::Value| v["mean_guesses"].as_f64().unwrap();
    assert!(
        guesses(hardest) > 10.0 * (guesses(kaggle) + 1.0),
        "{rows:?}"
    );
}
