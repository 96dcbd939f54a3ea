//! Hostile and malformed input through the command line: every record shows up as exactly
//! one output line (an answer or an error naming file and line), nothing panics, and the exit
//! code says whether everything was fine.

use crate::common::{EASY, EASY_SOLUTION, HARD};

use crate::common::lines;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

fn sudobench(args: &[&str], stdin: Option<&[u8]>) -> Output {
    crate::common::run(args, stdin.unwrap_or_default())
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Dir {
        Dir(tempfile::tempdir().expect("temp dir"))
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.path().join(name);
        std::fs::write(&p, bytes).expect("write temp file");
        p
    }

    /// Writes `bytes` to the file `name` and solves it: the file's path, the run and its
    /// output lines.
    fn solve(&self, name: &str, bytes: &[u8]) -> (String, Output, Vec<String>) {
        let path = s(&self.file(name, bytes)).to_string();
        let out = sudobench(&["solve", &path], None);
        let got = lines(&out);
        (path, out, got)
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).expect("gzip");
    e.finish().expect("gzip")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn solves_from_stdin() {
    let out = sudobench(&["solve"], Some(format!("{EASY}\n").as_bytes()));
    assert_eq!(lines(&out), vec![EASY_SOLUTION]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn empty_and_comment_only_files() {
    let d = Dir::new();
    let empty = d.file("empty.txt", b"");
    let comments = d.file("comments.txt", b"# nothing\n#\n\n   \n# here\n");
    for f in [&empty, &comments] {
        let out = sudobench(&["solve", s(f)], None);
        assert!(lines(&out).is_empty());
        crate::common::assert_exit(&out, 0, "0 records");
    }
}

#[test]
fn every_bad_line_is_reported_with_file_and_line() {
    let d = Dir::new();
    let mut text = Vec::new();
    text.extend(format!("# header\n{EASY}\n").as_bytes()); // line 2 fine
    text.extend(format!("{}\n", &EASY[..80]).as_bytes()); // 3: 80 chars
    text.extend(format!("{EASY}1\n").as_bytes()); // 4: 82 chars
    text.extend(format!("{}x{}\n", &EASY[..10], &EASY[11..]).as_bytes()); // 5: letter
    text.extend(format!("{}\x07{}\n", &EASY[..10], &EASY[11..]).as_bytes()); // 6: control
    text.extend(format!("{}\0{}\n", &EASY[..10], &EASY[11..]).as_bytes()); // 7: NUL
    let mut bad_utf8 = EASY.as_bytes().to_vec();
    bad_utf8[20] = 0xc3;
    text.extend(&bad_utf8); // 8: invalid UTF-8
    text.push(b'\n');
    text.extend(format!("{EASY}\r\n").as_bytes()); // 9: CRLF, accepted
    let (name, out, got) = d.solve("mixed.txt", &text);
    assert_eq!(got.len(), 8, "{got:#?}");
    assert_eq!([&got[0], &got[7]], [EASY_SOLUTION; 2]);
    // Each bad line's error names the file and the line: the whole line, or its start where
    // the message goes on.
    let length = |n, near| {
        format!(
            "puzzle has {n} characters, no order has that many cells (n⁴): nearest are {near}; \
             a 9x9 pencilmark line has 729"
        )
    };
    let errors = [
        (3, length(80, "16 (4x4) and 81 (9x9)"), true),
        (4, length(82, "81 (9x9) and 256 (16x16)"), true),
        (5, "puzzle illegal character 'x'".to_string(), false),
        (6, "puzzle illegal character '\\u{7}'".to_string(), false),
        (7, "puzzle illegal character '\\0'".to_string(), false),
        (8, "invalid UTF-8 at byte 20 of the line".to_string(), true),
    ];
    for (got, (line, message, whole)) in got[1..7].iter().zip(errors) {
        let want = format!("error: {name}:{line}: {message}");
        if whole {
            assert_eq!(*got, want);
        } else {
            assert!(got.starts_with(&want), "{got}");
        }
    }
    crate::common::assert_exit(&out, 1, "8 records: 2 solved, 6 not solved");
}

#[test]
fn gzip_members_truncation_and_trailing_garbage() {
    let d = Dir::new();
    let body = format!("{EASY}\n{HARD}\n").repeat(200);
    let mut two = gzip(body.as_bytes());
    two.extend(gzip(format!("{EASY}\n").as_bytes()));
    let members = d.file("members.gz", &two);
    let out = sudobench(&["count", s(&members)], None);
    assert_eq!(lines(&out).len(), 401);
    assert!(lines(&out).iter().all(|l| l == "1"));
    assert_eq!(out.status.code(), Some(0));

    let whole = gzip(body.as_bytes());
    let truncated = d.file("truncated.gz", &whole[..whole.len() / 2]);
    let out = sudobench(&["count", s(&truncated)], None);
    let got = lines(&out);
    let last = got.last().expect("some output");
    assert!(
        last.starts_with(&format!("error: {}:", s(&truncated))) && last.contains("read failed"),
        "{last}"
    );
    assert!(got[..got.len() - 1].iter().all(|l| l == "1"));
    assert_eq!(out.status.code(), Some(1));

    let mut garbage = gzip(format!("{EASY}\n").as_bytes());
    garbage.extend(b"this is not gzip");
    let garbage = d.file("garbage.gz", &garbage);
    let out = sudobench(&["count", s(&garbage)], None);
    let got = lines(&out);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0], "1");
    assert!(got[1].starts_with(&format!("error: {}:2: read failed", s(&garbage))));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn kaggle_csv_missing_column_and_wrong_solution() {
    let d = Dir::new();
    let mut wrong = EASY_SOLUTION.as_bytes().to_vec();
    wrong.swap(0, 1);
    let wrong = String::from_utf8(wrong).unwrap();
    let csv = format!(
        "quizzes,solutions\n{EASY},{EASY_SOLUTION}\n{EASY}\n{EASY},{wrong}\n{EASY},{EASY_SOLUTION}\n"
    );
    let (name, out, got) = d.solve("k.csv", csv.as_bytes());
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0], EASY_SOLUTION);
    assert_eq!(
        got[1],
        format!("error: {name}:3: CSV row has 1 fields, the header has 2")
    );
    // The swapped digits make the file's solution invalid: a data error of the file.
    assert!(
        got[2].starts_with(&format!(
            "error: {name}:4: the file's expected solution {wrong}"
        )) && got[2].contains("is invalid"),
        "{}",
        got[2]
    );
    assert_eq!(got[3], EASY_SOLUTION);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn directories_and_missing_files_are_errors_and_the_run_goes_on() {
    let d = Dir::new();
    let good = d.file("good.txt", format!("{EASY}\n").as_bytes());
    let dir = d.0.path().to_path_buf();
    let missing = d.0.path().join("no-such-file.gz");
    let out = sudobench(&["solve", s(&dir), s(&missing), s(&good)], None);
    let got = lines(&out);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(
        got[0],
        format!("error: {}: is a directory, not a puzzle file", s(&dir))
    );
    assert!(got[1].starts_with(&format!("error: {}: cannot open:", s(&missing))));
    assert_eq!(got[2], EASY_SOLUTION);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn unsolvable_multiple_and_contradictory() {
    let mut contradiction = String::from("5...5....");
    contradiction.push_str(&".".repeat(72));
    let input = format!("{}\n{contradiction}\n", ".".repeat(81));
    let out = sudobench(&["solve"], Some(input.as_bytes()));
    assert_eq!(lines(&out), vec!["multiple solutions", "no solution"]);
    assert_eq!(out.status.code(), Some(1));
    let out = sudobench(&["count", "--limit", "3"], Some(input.as_bytes()));
    assert_eq!(lines(&out), vec!["3+", "0"]);
    assert_eq!(out.status.code(), Some(0));
    let out = sudobench(&["solve", "--first"], Some(input.as_bytes()));
    let got = lines(&out);
    assert_eq!(got[1], "no solution");
    assert_eq!(got[0].len(), 81);
}

#[test]
fn node_budget_answers_unknown_instead_of_hanging() {
    // Counting a million solutions of the empty grid would take hours; every searching
    // backend must stop at its budget (for `sat`, SAT calls) and say `unknown`.
    let input = format!("{}\n", ".".repeat(81));
    for backend in complete_backends() {
        let budget = "200";
        let out = sudobench(
            &[
                "count",
                "--backend",
                backend,
                "--limit",
                "1000000",
                "--max-nodes",
                budget,
            ],
            Some(input.as_bytes()),
        );
        assert_eq!(lines(&out), vec!["unknown"], "{backend}");
        assert_eq!(out.status.code(), Some(1), "{backend}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let out = sudobench(&["solve", "--backend", "no-such-backend"], Some(b""));
    crate::common::assert_exit(&out, 2, "unknown backend");
    let out = sudobench(&["count", "--limit", "0"], Some(b""));
    assert_eq!(out.status.code(), Some(2));
    let out = sudobench(&["frobnicate"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pencilmark_lines_are_accepted() {
    let grid: sudobench::Grid = EASY.parse().unwrap();
    let line = sudobench::Candidates::from_grid(&grid).to_line();
    let out = sudobench(&["solve"], Some(format!("{line}\n").as_bytes()));
    assert_eq!(lines(&out), vec![EASY_SOLUTION]);
}

/// Puzzles arriving one at a time on standard input (from a person, or a program that waits
/// for each answer) are answered as they come, not once 256 have arrived or input has ended:
/// for solve, count, solve --threads 2 and solve --no-guess.
#[test]
fn stdin_records_are_answered_as_they_arrive() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    const SIMPLE: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    for args in [
        &["solve"][..],
        &["count"],
        &["solve", "--threads", "2"],
        &["solve", "--backend", "logic", "--no-guess"],
    ] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut child = crate::common::spawn_in(root, args);
        let mut stdin = child.stdin.take().expect("stdin pipe");
        let stdout = child.stdout.take().expect("stdout pipe");
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.expect("utf-8 output")).is_err() {
                    return;
                }
            }
        });
        let wait = Duration::from_secs(20);
        for puzzle in [SIMPLE, EASY] {
            writeln!(stdin, "{puzzle}").expect("write a puzzle");
            stdin.flush().expect("flush");
            let answer = rx
                .recv_timeout(wait)
                .unwrap_or_else(|_| panic!("{args:?}: no answer to {puzzle} while input is open"));
            assert!(!answer.starts_with("error"), "{args:?}: {answer}");
        }
        drop(stdin);
        assert!(child.wait().expect("exits").success(), "{args:?}");
        reader.join().expect("reader");
        assert!(rx.try_recv().is_err(), "{args:?}: one line per record");
    }
}

/// `verify`, `grade` and `cnf` answer a puzzle typed on standard input while the input is
/// still open (they waited for its end before).
#[test]
fn verify_grade_and_cnf_answer_a_typed_puzzle_at_once() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    const PUZZLE: &str =
        "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
    type IsAnswer = fn(&str) -> bool;
    let answered: [(&[&str], IsAnswer); 3] = [
        (&["verify", "-"], |l| {
            l.ends_with(",1,462831957795426183381795426173984265659312748248567319926178534834259671517643892")
        }),
        (&["grade", "-"], |l| l.starts_with("-:1 ")),
        (&["cnf"], |l| l.starts_with("p cnf ")),
    ];
    for (args, is_answer) in answered {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut child = crate::common::spawn_in(root, args);
        let mut stdin = child.stdin.take().expect("stdin pipe");
        let stdout = child.stdout.take().expect("stdout pipe");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.expect("utf-8 output")).is_err() {
                    return;
                }
            }
        });
        writeln!(stdin, "{PUZZLE}").expect("write a puzzle");
        stdin.flush().expect("flush");
        let found = std::iter::from_fn(|| rx.recv_timeout(Duration::from_secs(20)).ok())
            .any(|line| is_answer(&line));
        assert!(found, "{args:?}: no answer while the input is open");
        drop(stdin);
        child.wait().expect("exits");
    }
}

/// `count --witness` prints the solutions behind a count: one for `1`, two different ones
/// for `2+` (both valid), none for `0`; the same from every complete backend.
#[test]
fn count_witness_prints_the_solutions_behind_the_count() {
    use sudobench::grid::Grid;
    use sudobench::puzzle::Puzzle;
    const UNIQUE: &str = EASY;
    const MULTI: &str =
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let none = format!("11{}", ".".repeat(79));
    let input = format!("{UNIQUE}\n{MULTI}\n{none}\n");
    for backend in complete_backends() {
        let out = sudobench(
            &["count", "--witness", "--backend", backend],
            Some(input.as_bytes()),
        );
        let lines = lines(&out);
        assert_eq!(lines.len(), 3, "{backend}: {lines:?}");
        let fields: Vec<Vec<&str>> = lines.iter().map(|l| l.split(' ').collect()).collect();
        let check = |puzzle: &str, s: &str| {
            let p = Puzzle::Grid(puzzle.parse::<Grid>().unwrap());
            sudobench::verify::check_puzzle(&p, &s.parse().unwrap()).is_ok()
        };
        assert_eq!(fields[0][0], "1", "{backend}");
        assert!(
            fields[0].len() == 2 && check(UNIQUE, fields[0][1]),
            "{backend}"
        );
        assert_eq!(fields[1][0], "2+", "{backend}");
        assert_eq!(fields[1].len(), 3, "{backend}: {}", lines[1]);
        assert_ne!(fields[1][1], fields[1][2], "{backend}");
        assert!(
            check(MULTI, fields[1][1]) && check(MULTI, fields[1][2]),
            "{backend}"
        );
        assert_eq!(lines[2], "0", "{backend}");
        assert_eq!(out.status.code(), Some(0), "{backend}");
    }
}

/// Every complete backend of the registry (the lists above come from here, so a new backend is
/// tested with no edit).
fn complete_backends() -> Vec<&'static str> {
    sudobench::backends::BACKENDS
        .iter()
        .filter(|b| b.complete)
        .map(|b| b.name)
        .collect()
}

/// A UTF-8 byte-order mark at the start of a file (plain or gzip, before a puzzle, a comment
/// or a CSV header) is skipped; anywhere else it is an illegal character.
#[test]
fn byte_order_mark_at_the_start_is_skipped() {
    let d = Dir::new();
    let bom = "\u{feff}";
    for (name, text) in [
        ("puzzle.txt", format!("{bom}{EASY}\n{EASY}\n")),
        ("comment.txt", format!("{bom}# made on Windows\n{EASY}\n")),
        (
            "kaggle.csv",
            format!("{bom}quizzes,solutions\n{EASY},{EASY_SOLUTION}\n"),
        ),
    ] {
        for (file, bytes) in [
            (name.to_string(), text.clone().into_bytes()),
            (format!("{name}.gz"), gzip(text.as_bytes())),
        ] {
            let f = d.file(&file, &bytes);
            let out = sudobench(&["solve", s(&f)], None);
            let got = lines(&out);
            assert!(
                !got.is_empty() && got.iter().all(|l| l == EASY_SOLUTION),
                "{file}: {got:?}"
            );
            assert_eq!(out.status.code(), Some(0), "{file}");
        }
    }
    let out = sudobench(&["solve"], Some(format!("{bom}{EASY}\n").as_bytes()));
    assert_eq!(lines(&out), vec![EASY_SOLUTION]);
    let out = sudobench(
        &["solve"],
        Some(format!("{EASY}\n{bom}{}\n", &EASY[1..]).as_bytes()),
    );
    assert_eq!(
        lines(&out),
        vec![
            EASY_SOLUTION.to_string(),
            "error: -:2: puzzle illegal character '\\u{feff}' at column 1 (expected 1-9, '.' or '0')"
                .to_string()
        ]
    );
}

/// Lengths and columns count characters: a non-ASCII character in an 81-character line is
/// named with its column instead of making the line "82 characters" long.
#[test]
fn non_ascii_characters_are_named_with_their_column() {
    let mut text = String::new();
    for (column, ch) in [(5, 'é'), (81, '１'), (1, '９')] {
        let mut chars: Vec<char> = EASY.chars().collect();
        chars[column - 1] = ch;
        text.extend(chars);
        text.push('\n');
    }
    text.push_str(&format!("é{EASY}\n"));
    let out = sudobench(&["count"], Some(text.as_bytes()));
    assert_eq!(
        lines(&out),
        vec![
            "error: -:1: puzzle illegal character 'é' at column 5 (expected 1-9, '.' or '0')",
            "error: -:2: puzzle illegal character '１' at column 81 (expected 1-9, '.' or '0')",
            "error: -:3: puzzle illegal character '９' at column 1 (expected 1-9, '.' or '0')",
            "error: -:4: puzzle has 82 characters, no order has that many cells (n⁴): nearest \
             are 81 (9x9) and 256 (16x16); a 9x9 pencilmark line has 729",
        ]
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A pencilmark line's slot `9·cell + d−1` holds `d`, `.` or `0`: a digit in the wrong slot is
/// reported with the one digit that slot may hold; `0` is accepted as an elimination.
#[test]
fn pencilmark_errors_name_what_the_slot_may_hold() {
    let grid: sudobench::Grid = EASY.parse().unwrap();
    let line = sudobench::Candidates::from_grid(&grid).to_line();
    let mut wrong = line.clone().into_bytes();
    let slot = 9 * 2 + 5; // cell 2 (empty), digit 6
    assert_eq!(wrong[slot], b'6');
    wrong[slot] = b'7';
    let wrong = String::from_utf8(wrong).unwrap();
    let zeros = line.replace('.', "0");
    let out = sudobench(&["solve"], Some(format!("{wrong}\n{zeros}\n").as_bytes()));
    assert_eq!(
        lines(&out),
        vec![
            format!(
                "error: -:1: puzzle illegal character '7' at column {} (expected '6', '.' or '0' \
                 in that slot)",
                slot + 1
            ),
            EASY_SOLUTION.to_string(),
        ]
    );
}

/// A bundled data set with one byte flipped where it still decompresses, so that gzip's check
/// at the end of the member (CRC-32) is what fails. Returns the corrupted bytes.
fn bundled_with_a_flipped_byte() -> Vec<u8> {
    use std::io::Read;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/puzzles6_forum_hardest_1106.gz");
    let good = std::fs::read(path).expect("bundled data set");
    for offset in good.len() / 3..good.len() - 8 {
        let mut bad = good.clone();
        bad[offset] ^= 0x04;
        let mut out = Vec::new();
        let result = flate2::read::MultiGzDecoder::new(&bad[..]).read_to_end(&mut out);
        if let Err(e) = result {
            if e.to_string().contains("checksum") {
                return bad;
            }
        }
    }
    panic!("no byte flip gives a checksum error");
}

/// gzip checks a member only at its end, so a flipped byte can decompress into puzzles that
/// are read and answered before the check fails: the error, and the summaries of solve, count
/// and verify, say how many answered puzzles came from the failed member (not those of an
/// earlier good member) and on which lines.
#[test]
fn a_corrupt_gzip_member_names_the_puzzles_read_from_it() {
    let d = Dir::new();
    let mut bytes = gzip(format!("{EASY}\n").repeat(50).as_bytes());
    bytes.extend(bundled_with_a_flipped_byte());
    let f = d.file("flipped.gz", &bytes);
    let name = s(&f);
    for command in ["count", "solve"] {
        let out = sudobench(&[command, name], None);
        let got = lines(&out);
        let last = got.last().expect("output");
        // Lines 1-50: the good member. Then the failed member's lines: its 6 comment lines
        // are skipped; each line after them is an answer or (a damaged line) an error.
        let from_failed: Vec<u64> = (57..)
            .zip(&got[50..got.len() - 1])
            .filter(|(_, l)| !l.starts_with("error:"))
            .map(|(line, _)| line)
            .collect();
        let n = from_failed.len();
        assert!(n > 100, "{n}");
        assert!(
            last.starts_with(&format!("error: {name}:{}: read failed:", got.len() + 6))
                && last.ends_with(&format!(
                    "(the {n} puzzles on lines {}-{} came from this gzip member, which failed: \
                     do not trust their answers)",
                    from_failed[0],
                    from_failed[n - 1]
                )),
            "{last}"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "; {n} of them from a gzip member that failed its check: do not trust those"
            )),
            "{stderr}"
        );
        assert_eq!(out.status.code(), Some(1));
    }
    let out = sudobench(&["verify", name], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("puzzles from a gzip member that failed its check: do not trust those")
            && stderr.contains("(the ")
            && stderr.contains("came from this gzip member, which failed"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
    // A file without corruption says nothing of the kind.
    let good = d.file("good.gz", &gzip(format!("{EASY}\n").repeat(5).as_bytes()));
    let out = sudobench(&["count", s(&good)], None);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("gzip member"));
    assert_eq!(out.status.code(), Some(0));
}
