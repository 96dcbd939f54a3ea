//! Exact cover at large: the bundled instances through every complete backend, malformed
//! instances, `solve`, `bench` and the generator, all through the built binary.

use crate::common::run;
use std::path::Path;
use std::process::Output;
use varisat::ExtendFormula;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn stdout(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The bundled instances, by path relative to the package root.
fn bundled() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("data/xc"))
        .expect("data/xc")
        .map(|e| format!("data/xc/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.contains(".dlx"))
        .collect();
    files.sort();
    files
}

/// The count a file states in its `| count: N (source)` comment, read here on its own.
fn stated_count(file: &str) -> u64 {
    let bytes = std::fs::read(Path::new(ROOT).join(file)).unwrap();
    let text = if file.ends_with(".gz") {
        use std::io::Read;
        let mut s = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    };
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("| count: "))
        .unwrap_or_else(|| panic!("{file} has a count comment"));
    line.split_whitespace().next().unwrap().parse().unwrap()
}

/// The largest instances take some backends longer than a test should, so those runs are
/// capped here (their solutions still verified) and run in full by `bench` (see
/// docs/exact-cover.md):
/// - the SAT backends on the three large packings (half a minute for the 4×15 packing on
///   `sat-cadical`, several minutes for the others), at 1 solution;
/// - `basic`, the oracle, on the two largest (16 and 25 s of a test run's CPU), at 100
///   solutions: it still counts the 4×15 packing (1,472 solutions) in full, and a capped run
///   must branch exactly as `dlx` does up to the cap (same node count).
///
/// Every other backend counts every bundled instance in full.
fn cap(backend: &str, file: &str) -> Option<u64> {
    let big = ["pentominoes-4-15", "pentominoes-5-12", "pentominoes-6-10"];
    if backend.starts_with("sat") && big.iter().any(|b| file.contains(b)) {
        Some(1)
    } else if backend == "basic" && big[1..].iter().any(|b| file.contains(b)) {
        Some(100)
    } else {
        None
    }
}

/// `FILE: COUNT (nodes N, updates U)` → COUNT as printed.
fn printed_count(line: &str, file: &str) -> String {
    let rest = line
        .strip_prefix(&format!("{file}: "))
        .unwrap_or_else(|| panic!("{line}"));
    rest.split(' ').next().unwrap().to_string()
}

/// Every bundled instance through one backend: its stated count, in full or up to the cap.
/// One test per backend, so that the two test threads share the largest counts.
fn reproduces_every_count(backend: &str) {
    let files = bundled();
    assert!(files.len() >= 14, "{files:?}");
    reproduces_counts(backend, &files);
}

/// `files` through `backend`: each its stated count, in full or up to the cap.
fn reproduces_counts(backend: &str, files: &[String]) {
    for file in files {
        if backend == "dlx1" && file.contains("hard-squares") {
            // Colours: dlx1 refuses them, saying so.
            let out = run(&["count", "--backend", backend, file], b"");
            assert_eq!(
                stdout(&out),
                vec![format!(
                    "error: {file}: backend dlx1 takes no colours (use dlx)"
                )]
            );
            assert_eq!(out.status.code(), Some(1));
            continue;
        }
        let want = stated_count(file);
        let cap = cap(backend, file);
        let limit = cap.unwrap_or(0).to_string();
        let out = run(
            &["count", "--backend", backend, "--limit", &limit, file],
            b"",
        );
        let lines = stdout(&out);
        assert_eq!(lines.len(), 1, "{backend} {file}: {lines:?}");
        let got = printed_count(&lines[0], file);
        let shown = match cap {
            Some(cap) if want >= cap => format!("{cap}+"),
            _ => want.to_string(),
        };
        assert_eq!(got, shown, "{backend} {file}");
        assert_eq!(out.status.code(), Some(0), "{backend} {file}");
    }
}

#[test]
fn every_bundled_count_on_dlx() {
    reproduces_every_count("dlx");
}

#[test]
fn every_bundled_count_on_dlx1() {
    reproduces_every_count("dlx1");
}

#[test]
fn every_bundled_count_on_dlx_array() {
    reproduces_every_count("dlx-array");
}

#[test]
fn every_bundled_count_on_basic() {
    reproduces_every_count("basic");
}

/// `FILE: COUNT (nodes N, updates U)` → N.
fn printed_nodes(line: &str) -> u64 {
    let rest = &line[line.find("(nodes ").expect(line) + "(nodes ".len()..];
    rest.split(',').next().unwrap().parse().expect(line)
}

#[test]
fn basic_branches_as_dlx_where_its_count_is_capped() {
    for file in bundled() {
        let Some(limit) = cap("basic", &file) else {
            continue;
        };
        let limit = limit.to_string();
        let nodes: Vec<u64> = ["basic", "dlx"]
            .iter()
            .map(|backend| {
                let out = run(
                    &["count", "--backend", backend, "--limit", &limit, &file],
                    b"",
                );
                assert_eq!(out.status.code(), Some(0), "{backend} {file}");
                let lines = stdout(&out);
                assert_eq!(printed_count(&lines[0], &file), format!("{limit}+"));
                printed_nodes(&lines[0])
            })
            .collect();
        assert_eq!(nodes[0], nodes[1], "{file}: basic and dlx nodes");
    }
}

#[test]
fn every_bundled_count_on_sat() {
    reproduces_every_count("sat");
}

#[test]
fn every_bundled_count_on_sat_batsat() {
    reproduces_every_count("sat-batsat");
}

#[cfg(feature = "cadical")]
#[test]
fn every_bundled_count_on_sat_cadical() {
    reproduces_every_count("sat-cadical");
}

#[test]
fn bench_cross_checks_backends_and_the_files_counts() {
    let small: Vec<String> = bundled()
        .into_iter()
        .filter(|f| !f.contains("pentominoes") && !f.contains("hard-squares-5"))
        .collect();
    let mut args = vec!["bench", "--backends", "dlx,basic,sat", "--format", "csv"];
    args.extend(small.iter().map(String::as_str));
    let out = run(&args, b"");
    crate::common::assert_success(&out);
    let lines = stdout(&out);
    assert_eq!(
        lines[0],
        "instance,backend,solutions,complete,nodes,updates,seconds,solutions_per_sec,check,clock"
    );
    // No disagreement, so no referee rows.
    assert_eq!(lines.len(), 1 + 3 * small.len());
    for line in &lines[1..] {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[2], stated_count(f[0]).to_string(), "{line}");
        assert_eq!((f[3], f[8], f[9]), ("true", "ok", "cpu"), "{line}");
    }
    // The same rows as JSON lines.
    let mut args = vec!["bench", "--backends", "dlx,basic,sat", "--format", "json"];
    args.extend(small.iter().map(String::as_str));
    let out = run(&args, b"");
    let json = stdout(&out);
    assert_eq!(json.len(), 3 * small.len());
    for (line, csv_line) in json.iter().zip(&lines[1..]) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let f: Vec<&str> = csv_line.split(',').collect();
        assert_eq!(v["instance"], f[0]);
        assert_eq!(v["backend"], f[1]);
        assert_eq!(v["solutions"].as_u64().unwrap().to_string(), f[2]);
        assert_eq!(v["nodes"].as_u64().unwrap().to_string(), f[4]);
        assert_eq!(v["check"], "ok");
        assert_eq!(v["clock"], "cpu");
    }
    // DLX and the oracle branch alike (MRV, first item on ties): the same node counts.
    for pair in lines[1..].chunks(3) {
        let nodes: Vec<&str> = pair.iter().map(|l| l.split(',').nth(4).unwrap()).collect();
        assert_eq!(nodes[0], nodes[1], "{pair:?}");
    }
}

#[test]
fn a_wrong_count_comment_fails_the_bench_and_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(Path::new(ROOT).join("data/xc/queens-8.dlx")).unwrap();
    let wrong = text.replace("| count: 92", "| count: 91");
    std::fs::write(dir.path().join("q.dlx"), wrong).unwrap();
    let out = crate::common::run_in(dir.path(), &["bench", "--backends", "dlx", "q.dlx"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "q.dlx: backend dlx: disputed: 92 solutions found, but the file's count is 91"
        ),
        "{err}"
    );
    // The dispute brought in a referee, the first complete backend not in the run; its 92
    // verified solutions side with the backend against the file.
    let rows = stdout(&out);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[2].starts_with("q.dlx     dlx-array"), "{rows:?}");
    assert!(
        rows[2].ends_with(
            "referee: disputed: 92 solutions found, but the file's count is 91 (OEIS A000170)"
        ),
        "{rows:?}"
    );
    let out = crate::common::run_in(
        dir.path(),
        &[
            "bench",
            "--backends",
            "dlx-array,basic",
            "--format",
            "csv",
            "q.dlx",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let rows = stdout(&out);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows[3].starts_with("q.dlx,dlx,92,true,1373,"), "{rows:?}");
    // With every referee in the run, none is left to ask.
    let out = crate::common::run_in(
        dir.path(),
        &[
            "bench",
            "--backends",
            "dlx,dlx-array,basic",
            "--format",
            "csv",
            "q.dlx",
        ],
        b"",
    );
    assert_eq!(stdout(&out).len(), 4);
    let out = crate::common::run_in(dir.path(), &["count", "--limit", "all", "q.dlx"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out)[0].starts_with("error: q.dlx: backend dlx: 92 solutions found"));
}

#[test]
fn malformed_instances_name_file_line_and_item_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(33);
    let cases: Vec<(&str, String, String)> = vec![
        ("unknown.dlx", "a b\na b\nb zz\n".into(), "error: unknown.dlx:3: unknown item zz".into()),
        ("twice.dlx", "a b\na b a\n".into(), "error: twice.dlx:2: item a appears twice in the option".into()),
        (
            "uncovered.dlx",
            "| c\na b | x\na x\n".into(),
            "error: uncovered.dlx:2: primary item b is in no option: the instance has no solution".into(),
        ),
        (
            "colour.dlx",
            "a | x\na:red x\n".into(),
            "error: colour.dlx:2: primary item a has colour red: only secondary items take colours".into(),
        ),
        (
            "colon.dlx",
            "a b:c\na\n".into(),
            "error: colon.dlx:1: bad name \"b:c\": names may not contain `:` (it separates an item from its colour)".into(),
        ),
        (
            "bar.dlx",
            "a | x\na x|y\n".into(),
            "error: bar.dlx:2: bad name \"x|y\": names may not contain `|`".into(),
        ),
        (
            "long.dlx",
            format!("a {long}\na {long}\n"),
            format!("error: long.dlx:1: bad name \"{long}\": 33 bytes, names are at most 32"),
        ),
        (
            "empty.dlx",
            "| nothing but a comment\n".into(),
            "error: empty.dlx:1: no item line: the first line that is not a comment must name the items".into(),
        ),
        (
            "secondary.dlx",
            "a | x\nx\na\n".into(),
            "error: secondary.dlx:2: the option has no primary item (no solution could contain it)".into(),
        ),
    ];
    let mut args = vec!["count".to_string()];
    let mut want = Vec::new();
    for (name, text, line) in &cases {
        std::fs::write(dir.path().join(name), text).unwrap();
        args.push(name.to_string());
        want.push(line.clone());
        // A good file after each bad one: the run goes on.
        std::fs::write(dir.path().join("good.dlx"), "a b | x\na x\nb x\nb\n").unwrap();
        args.push("good.dlx".into());
        want.push("good.dlx: 1 (nodes 3, updates 5)".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = crate::common::run_in(dir.path(), &args, b"");
    assert_eq!(stdout(&out), want);
    assert_eq!(out.status.code(), Some(1));
    // A file that cannot be opened.
    let out = run(&["count", "no/such/file.dlx"], b"");
    let lines = stdout(&out);
    assert!(
        lines[0].starts_with("error: no/such/file.dlx: cannot read"),
        "{lines:?}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn solve_prints_solutions_as_option_lists() {
    let dir = tempfile::tempdir().unwrap();
    let knuth = "| TAOCP 7.2.2.1 (49)\np q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n";
    std::fs::write(dir.path().join("k.xc"), knuth).unwrap();
    for backend in ["dlx", "basic", "sat", "sat-batsat"] {
        let out = crate::common::run_in(dir.path(), &["solve", "--backend", backend, "k.xc"], b"");
        assert_eq!(stdout(&out), vec!["p r x:A y | q x:A"], "{backend}");
        assert_eq!(out.status.code(), Some(0));
    }
    // Every solution with --limit 0: the four solutions of 6 queens, each verified.
    let out = run(&["solve", "--limit", "0", "data/xc/langford-7.dlx"], b"");
    let lines = stdout(&out);
    assert_eq!(lines.len(), 52);
    let mut sorted = lines.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 52, "distinct");
    assert_eq!(lines[0].split(" | ").count(), 7);
    // No solution.
    let out = run(&["solve", "data/xc/langford-5.dlx"], b"");
    assert_eq!(stdout(&out), vec!["no solution"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn budgets_and_limits() {
    for backend in ["dlx", "basic", "sat", "sat-batsat"] {
        let out = run(
            &[
                "count",
                "--backend",
                backend,
                "--limit",
                "all",
                "--max-nodes",
                "5",
                "data/xc/queens-10.dlx",
            ],
            b"",
        );
        let lines = stdout(&out);
        assert!(
            lines[0].starts_with("data/xc/queens-10.dlx: unknown (at least "),
            "{backend}: {lines:?}"
        );
        assert_eq!(out.status.code(), Some(1));
        let out = run(
            &[
                "count",
                "--backend",
                backend,
                "--limit",
                "3",
                "data/xc/queens-10.dlx",
            ],
            b"",
        );
        assert!(
            stdout(&out)[0].starts_with("data/xc/queens-10.dlx: 3+ "),
            "{backend}"
        );
        assert_eq!(out.status.code(), Some(0));
    }
    // A time limit per instance: none left, and every backend answers unknown (exit 1),
    // having found nothing yet; `solve` says so too.
    for backend in ["dlx", "dlx-array", "basic", "sat", "sat-batsat"] {
        let limited = ["--backend", backend, "--max-seconds", "1e-9"];
        let file = "data/xc/queens-8.dlx";
        let out = run(&[&["count"][..], &limited, &[file]].concat(), b"");
        assert!(
            stdout(&out)[0].starts_with("data/xc/queens-8.dlx: unknown (at least 0)"),
            "{backend}: {:?}",
            stdout(&out)
        );
        assert_eq!(out.status.code(), Some(1));
        let out = run(&[&["solve"][..], &limited, &[file]].concat(), b"");
        assert_eq!(stdout(&out), ["unknown"], "{backend}");
        assert_eq!(out.status.code(), Some(1));
    }
    // A backend that does not solve exact cover, and --limit 0 on a Sudoku file: usage errors.
    let out = run(&["count", "--backend", "wide", "data/xc/queens-8.dlx"], b"");
    crate::common::assert_exit(&out, 2, "does not solve exact cover");
    let out = run(&["count", "--limit", "0", "data/puzzles2_17_clue.gz"], b"");
    assert_eq!(out.status.code(), Some(2));
    // Sudoku-only flags on exact-cover files.
    for args in [
        &["count", "--witness", "data/xc/queens-8.dlx"][..],
        &["count", "--threads", "2", "data/xc/queens-8.dlx"],
        &[
            "count",
            "--backend",
            "sat",
            "--proof",
            "p",
            "data/xc/queens-8.dlx",
        ],
        &["solve", "--no-guess", "data/xc/queens-8.dlx"],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("for Sudoku"),
            "{args:?}"
        );
    }
}

#[test]
fn the_generator_writes_the_bundled_instances() {
    for file in bundled() {
        if file.contains("sudoku") {
            continue;
        }
        let name = file.trim_start_matches("data/xc/").trim_end_matches(".dlx");
        let mut args = vec!["xc"];
        args.extend(name.split('-').filter(|s| !s.is_empty()));
        // hard-squares is one family name.
        let args: Vec<String> = if name.starts_with("hard-squares") {
            let mut a = vec!["xc".to_string(), "hard-squares".to_string()];
            a.extend(name["hard-squares-".len()..].split('-').map(str::to_string));
            a
        } else {
            args.iter().map(|s| s.to_string()).collect()
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let bundled = std::fs::read(Path::new(ROOT).join(&file)).unwrap();
        assert!(
            out.stdout == bundled,
            "{file} differs from `sudobench {}`",
            args.join(" ")
        );
    }
    let out = run(&["xc", "pentominoes", "7", "9"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["xc", "rubik"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown family"));
}

#[test]
fn content_is_recognised_without_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(ROOT).join("data/xc/queens-8.dlx"),
        dir.path().join("queens.txt"),
    )
    .unwrap();
    let out = crate::common::run_in(dir.path(), &["count", "--limit", "0", "queens.txt"], b"");
    assert_eq!(
        stdout(&out)[0].split(' ').nth(1),
        Some("92"),
        "{:?}",
        stdout(&out)
    );
}

/// An instance on standard input (`-`), plain or gzip, is recognised by its content and
/// counted like a file; its errors name `-` and the line.
#[test]
fn instances_on_standard_input_are_recognised_and_counted() {
    let plain = std::fs::read(Path::new(ROOT).join("data/xc/queens-8.dlx")).unwrap();
    let out = run(&["count", "--limit", "0", "-"], &plain);
    crate::common::assert_success(&out);
    assert_eq!(stdout(&out), vec!["-: 92 (nodes 1373, updates 22879)"]);

    let gzip = std::fs::read(Path::new(ROOT).join("data/xc/sudoku-16x16.dlx.gz")).unwrap();
    let out = run(&["count", "--backend", "dlx-array", "-"], &gzip);
    crate::common::assert_success(&out);
    assert_eq!(printed_count(&stdout(&out)[0], "-"), "1");

    let out = run(&["solve", "--first", "-"], b"| c\na b\na\nb\n");
    crate::common::assert_success(&out);
    assert_eq!(stdout(&out), vec!["a | b"]);

    let out = run(&["count", "-"], b"| c\na b\na\nzz\n");
    assert_eq!(stdout(&out), vec!["error: -:4: unknown item zz"]);
    assert_eq!(out.status.code(), Some(1));
}

/// No file named is standard input for `count`, `solve` and `cnf`, exactly as `-` is, so
/// `sudobench xc queens 6 | sudobench count` counts the instance (it read the piped
/// instance as malformed puzzles, one error per line).
#[test]
fn no_file_named_is_standard_input_for_exact_cover_too() {
    let queens = run(&["xc", "queens", "6"], b"");
    crate::common::assert_success(&queens);
    let out = run(&["count", "--limit", "0"], &queens.stdout);
    crate::common::assert_success(&out);
    assert_eq!(printed_count(&stdout(&out)[0], "-"), "4");
    let out = run(&["solve"], &queens.stdout);
    crate::common::assert_success(&out);
    assert_eq!(stdout(&out).len(), 1, "{:?}", stdout(&out));
    let piped = run(&["cnf"], &queens.stdout);
    let named = run(&["cnf", "-"], &queens.stdout);
    crate::common::assert_success(&piped);
    assert!(piped.stdout.starts_with(b"c "), "{:?}", stdout(&piped));
    assert_eq!(piped.stdout, named.stdout);
}

/// With no backend named, exact cover goes to `dlx`; a Sudoku backend named on the command
/// line is refused by name rather than replaced by another.
#[test]
fn a_sudoku_backend_named_on_exact_cover_is_refused_not_replaced() {
    let queens = Path::new(ROOT).join("data/xc/queens-8.dlx");
    let queens = queens.to_str().unwrap();
    let out = run(&["count", queens], b"");
    crate::common::assert_success(&out);
    assert!(
        crate::common::stderr(&out).contains("backend dlx"),
        "{}",
        crate::common::stderr(&out)
    );
    for command in ["count", "solve"] {
        let out = run(&[command, "--backend", "bitmask", queens], b"");
        assert_eq!(out.status.code(), Some(2), "{command}");
        let text = crate::common::stderr(&out);
        assert!(
            text.contains("backend bitmask does not solve exact cover; exact-cover backends: dlx"),
            "{command}: {text}"
        );
    }
}

/// An instance whose CNF would pass the SAT backends' size bound is refused by them with a
/// message naming the file and the way out, before any memory goes to it; `dlx` counts it.
#[test]
fn the_sat_backends_refuse_an_instance_too_large_for_a_cnf() {
    // 512 options of the same 130 items: each option is a cover, and each item's at-most-one
    // takes 512 · 511 literals (34 million in all).
    let items: Vec<String> = (0..130).map(|i| format!("i{i}")).collect();
    let line = items.join(" ");
    let text = format!("{line}\n{}", format!("{line}\n").repeat(512));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.dlx");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    for backend in ["sat", "sat-batsat", "sat-cadical"] {
        let out = run(&["count", "--backend", backend, path], b"");
        assert_eq!(out.status.code(), Some(1), "{backend}");
        assert_eq!(
            stdout(&out),
            [format!(
                "error: {path}: the SAT backends: the CNF would be too large (use dlx)"
            )],
            "{backend}"
        );
    }
    let out = run(&["count", path], b"");
    crate::common::assert_success(&out);
    assert_eq!(printed_count(&stdout(&out)[0], path), "2+");
}

/// `cnf` on an exact-cover file writes the formula the SAT backends solve, readable by any
/// SAT solver: read back with varisat's DIMACS parser, its models, projected on the option
/// variables the comments name, are exactly the instance's solutions (all 92 of 8 queens,
/// none of Langford 5, all 1,234 coloured hard squares of order 4), each checked by the
/// exact-cover verifier. Several files need `--out`.
#[test]
fn cnf_writes_the_exact_cover_formula_for_any_sat_solver() {
    for (name, want) in [
        ("queens-8.dlx", 92),
        ("langford-5.dlx", 0),
        ("hard-squares-4.dlx", 1234),
    ] {
        let file = Path::new(ROOT).join("data/xc").join(name);
        let file = file.to_str().unwrap();
        let out = run(&["cnf", file], b"");
        crate::common::assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        let ours = sudobench::solver::sat::dimacs::parse(&text).unwrap();
        let inst = sudobench::xc::Instance::read_path(file).unwrap();
        let options = inst.options.len();
        // Every option variable is named by its option's text.
        for o in [0, options - 1] {
            let line = format!("c v {} {}", o + 1, inst.option_text(o));
            assert!(text.lines().any(|l| l == line), "{name}: {line}");
        }
        let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        assert_eq!(formula.var_count(), ours.num_vars, "{name}");
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula);
        let mut found = 0;
        while solver.solve().unwrap() {
            let model = solver.model().unwrap();
            let chosen: Vec<usize> = (0..options).filter(|&o| model[o].is_positive()).collect();
            sudobench::xc::check::check(&inst, &chosen)
                .unwrap_or_else(|e| panic!("{name}: model {chosen:?}: {e}"));
            found += 1;
            let block: Vec<varisat::Lit> = (0..options)
                .map(|o| varisat::Lit::from_index(o, !model[o].is_positive()))
                .collect();
            solver.add_clause(&block);
        }
        assert_eq!(found, want, "{name}");
    }
    let (q, l) = (
        Path::new(ROOT).join("data/xc/queens-8.dlx"),
        Path::new(ROOT).join("data/xc/langford-5.dlx"),
    );
    let (q, l) = (q.to_str().unwrap(), l.to_str().unwrap());
    let out = run(&["cnf", q, l], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(crate::common::stderr(&out).contains("give --out DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("f");
    let out = run(&["cnf", "--out", out_dir.to_str().unwrap(), q, l], b"");
    crate::common::assert_success(&out);
    assert_eq!(stdout(&out).len(), 2);
    for i in 1..=2 {
        let text = std::fs::read_to_string(out_dir.join(format!("{i:06}.cnf"))).unwrap();
        sudobench::solver::sat::dimacs::parse(&text).unwrap();
    }
}

/// The commands that take Sudoku puzzles only refuse an exact-cover file by name (exit 2),
/// from a path or on standard input, instead of one malformed-puzzle error per line.
#[test]
fn sudoku_only_commands_refuse_an_exact_cover_file_by_name() {
    let file = Path::new(ROOT).join("data/xc/queens-8.dlx");
    let file = file.to_str().unwrap();
    let text = std::fs::read(file).unwrap();
    for command in ["verify", "certify", "grade"] {
        for (arg, input) in [(file, &[][..]), ("-", &text[..])] {
            let out = run(&[command, arg], input);
            assert_eq!(out.status.code(), Some(2), "{command} {arg}");
            assert!(stdout(&out).is_empty(), "{command} {arg}");
            assert_eq!(
                crate::common::stderr(&out).trim_end(),
                format!(
                    "sudobench: error: {command} takes Sudoku puzzles; {arg} is an exact-cover \
                     instance (count, solve, bench and cnf take those)"
                ),
            );
        }
    }
}

/// `bench` gives each backend `--time-budget` seconds per instance, the SAT backends
/// included (their nodes are whole solver calls, seconds each on the large packings): on the
/// 6×10 packing, which none counts in full within 0.2 s, every row is `incomplete`, with a
/// lower bound below the 9,356 solutions, and the run is no failure.
#[test]
fn bench_stops_every_backend_at_its_time_budget() {
    let file = Path::new(ROOT).join("data/xc/pentominoes-6-10.dlx");
    let out = run(
        &[
            "bench",
            "--backends",
            "dlx,basic,sat-batsat",
            "--time-budget",
            "0.2",
            "--format",
            "csv",
            file.to_str().unwrap(),
        ],
        b"",
    );
    crate::common::assert_success(&out);
    let lines = stdout(&out);
    assert_eq!(lines.len(), 4, "{lines:?}");
    for line in &lines[1..] {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!((f[3], f[8]), ("false", "incomplete"), "{line}");
        assert!(f[2].parse::<u64>().unwrap() < 9356, "{line}");
    }
    // The flags of Sudoku sets are refused, not ignored (by count and solve too); `--clock`
    // names the clock.
    let file = file.to_str().unwrap();
    for command in ["count", "solve"] {
        for flag in [["--encoding", "minimal"], ["--iterations", "5"]] {
            let out = run(&[command, flag[0], flag[1], file], b"");
            assert_eq!(out.status.code(), Some(2), "{command} {flag:?}");
        }
    }
    let out = run(&["solve", "--threads", "2", file], b"");
    assert_eq!(out.status.code(), Some(2));
    for flag in [
        &["--limit", "1"][..],
        &["--threads", "2"],
        &["--sample", "3"],
        &["--transform", "7"],
        &["--shard", "1/2"],
        &["--encoding", "minimal"],
    ] {
        let mut args = vec!["bench", "--backends", "dlx"];
        args.extend(flag);
        args.push(file);
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        assert!(
            crate::common::stderr(&out).contains("is for Sudoku puzzles, not exact-cover files"),
            "{flag:?}: {}",
            crate::common::stderr(&out)
        );
    }
    let queens = Path::new(ROOT).join("data/xc/queens-8.dlx");
    let out = run(
        &[
            "bench",
            "--backends",
            "dlx",
            "--clock",
            "wall",
            queens.to_str().unwrap(),
        ],
        b"",
    );
    crate::common::assert_success(&out);
    assert!(
        stdout(&out)[0].contains("wall seconds"),
        "{:?}",
        stdout(&out)
    );
}
