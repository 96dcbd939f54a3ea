//! The examples of README.md and of every Markdown file under docs/ are tests: every `$ ` line
//! of a ```console block is run by `sh -c` in a scratch copy of the package root (one per
//! Markdown file, its commands in order, so one example can build what the next uses; every
//! entry of the package is linked there but `target`, so nothing depends on where cargo
//! builds), with `sudobench` on `PATH` meaning the binary under test, and what it
//! prints must be exactly the lines shown below it (up to the next `$ ` line or the end of the
//! block). Shown output is standard output, or standard output followed by standard error
//! (the terminal transcript of a program that writes its stderr last, such as a usage error).
//! A command shown without output must print nothing on stdout and exit 0. A command line
//! ending in `\` continues on the next line. Other blocks (```sh, ```text) are not run.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// How long one example may run.
const TIMEOUT: Duration = Duration::from_secs(120);

/// One `$ ` command of a console block and the output shown for it.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    /// 1-based line of the `$ ` line in the Markdown file.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// Every example of every ```console block, or a message for a block that is not a list of
/// `$ ` commands with their output.
fn examples(markdown: &str) -> Result<Vec<Example>, String> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console: Option<usize> = None;
    let mut in_other = false;
    let mut continued = false;
    for (i, line) in markdown.lines().enumerate() {
        let number = i + 1;
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            match (in_console, in_other) {
                (Some(start), _) => {
                    if out.last().is_none_or(|e| e.line <= start) {
                        return Err(format!("line {start}: console block without a `$ ` line"));
                    }
                    if continued {
                        return Err(format!("line {number}: block ends inside a `\\` command"));
                    }
                    in_console = None;
                }
                (None, true) => in_other = false,
                (None, false) if fence.trim() == "console" => in_console = Some(number),
                (None, false) => in_other = true,
            }
            continue;
        }
        let Some(start) = in_console else { continue };
        if continued {
            let example = out.last_mut().expect("a command is being continued");
            let text = line.trim_start();
            continued = text.ends_with('\\');
            example.command.push('\n');
            example.command.push_str(text);
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            continued = command.ends_with('\\');
            out.push(Example {
                line: number,
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else {
            match out.last_mut() {
                Some(example) if example.line > start => example.expected.push(line.to_string()),
                _ => {
                    return Err(format!(
                        "line {number}: console block output before any `$ ` command (use ```sh \
                         for commands that are not examples)"
                    ))
                }
            }
        }
    }
    if let Some(start) = in_console {
        return Err(format!("line {start}: console block never closed"));
    }
    Ok(out)
}

/// What a command printed.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// A scratch directory standing for the package root: a link to each of its entries except
/// the build directory.
fn scratch_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("scratch directory");
    for entry in std::fs::read_dir(ROOT).expect("package root") {
        let entry = entry.expect("package entry");
        let name = entry.file_name();
        if name != "target" && name != ".git" {
            std::os::unix::fs::symlink(entry.path(), dir.path().join(&name)).expect("link");
        }
    }
    dir
}

/// Runs a command by `sh -c` in the package root, `sudobench` being the binary under test.
/// A command still running after [`TIMEOUT`] is killed with its process group.
fn run(command: &str) -> Run {
    run_in(Path::new(ROOT), command)
}

/// Runs a command by `sh -c` in `dir` (see [`run`]).
fn run_in(dir: &Path, command: &str) -> Run {
    use std::os::unix::process::CommandExt;
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sudobench"));
    let bin_dir = bin.parent().expect("the binary has a directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(bin_dir.to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .expect("PATH");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("sh runs");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("stdout")));
    let stderr = read(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        code: status.and_then(|s| s.code()),
    }
}

/// Lines as the README shows them: one per line, the last newline implied.
fn shown(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Whether a run printed what the example shows; else a description of the difference,
/// located in `file`.
fn check_in(file: &str, example: &Example, run: &Run) -> Result<(), String> {
    let expected = shown(&example.expected);
    let timed_out = run.code.is_none();
    if !timed_out {
        if example.expected.is_empty() {
            if run.stdout.is_empty() && run.code == Some(0) {
                return Ok(());
            }
        } else if run.stdout == expected || format!("{}{}", run.stdout, run.stderr) == expected {
            return Ok(());
        }
    }
    Err(format!(
        "{file}:{}: $ {}\n--- shown:\n{expected}--- stdout:\n{}--- stderr:\n{}--- exit: {}\n",
        example.line,
        example.command,
        run.stdout,
        run.stderr,
        match run.code {
            Some(c) => c.to_string(),
            None if timed_out => format!("killed after {} s", TIMEOUT.as_secs()),
            None => "killed by a signal".to_string(),
        }
    ))
}

fn check(example: &Example, run: &Run) -> Result<(), String> {
    check_in("README.md", example, run)
}

/// README.md and every Markdown file under docs/, as paths relative to the package root.
fn documents() -> Vec<String> {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("docs directory")
            .map(|e| e.expect("docs entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(ROOT).expect("under the root");
                found.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    let mut found = vec!["README.md".to_string()];
    walk(&Path::new(ROOT).join("docs"), &mut found);
    found
}

/// Runs every example of one Markdown file in its own scratch root; the failures.
fn failures_of(file: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).expect(file);
    let examples = examples(&text).unwrap_or_else(|e| panic!("{file}:{e}"));
    let root = scratch_root();
    let failures = examples
        .iter()
        .filter_map(|e| check_in(file, e, &run_in(root.path(), &e.command)).err())
        .collect();
    (examples.len(), failures)
}

#[test]
fn readme_and_docs_examples_print_what_they_show() {
    let files = documents();
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| s.spawn(move || failures_of(f)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("doc runner"))
            .collect()
    });
    let total: usize = results.iter().map(|(n, _)| n).sum();
    // So that the test cannot pass by finding nothing to run.
    assert!(total >= 8, "only {total} examples");
    let failures: Vec<&String> = results.iter().flat_map(|(_, f)| f).collect();
    assert!(
        failures.is_empty(),
        "{} of {total} examples differ:\n\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `docs/certify.md`'s examples, the same way.
#[test]
fn certify_doc_examples_print_what_they_show() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/certify.md")).expect("doc");
    let examples = examples(&text).unwrap_or_else(|e| panic!("docs/certify.md:{e}"));
    assert!(examples.len() >= 4, "only {} examples", examples.len());
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|e| check(e, &run(&e.command)).err())
        .collect();
    assert!(
        failures.is_empty(),
        "docs/certify.md:\n{}",
        failures.join("\n")
    );
}

#[test]
fn examples_are_extracted_from_console_blocks_only() {
    let md = "intro\n```sh\n$ not run\n```\n```console\n$ echo a \\\n  b\na b\n$ true\n\
              $ printf 'x\\n\\ny\\n'\nx\n\ny\n```\n```text\n$ no\n```\n";
    let got = examples(md).unwrap();
    let want = [
        (6, "echo a \\\nb", vec!["a b"]),
        (9, "true", vec![]),
        (10, "printf 'x\\n\\ny\\n'", vec!["x", "", "y"]),
    ];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (e, (line, command, expected)) in got.iter().zip(want) {
        assert_eq!((e.line, e.command.as_str()), (line, command));
        assert_eq!(e.expected, expected);
    }
    for bad in [
        "```console\noutput without a command\n```\n",
        "```console\n```\n",
        "```console\n$ echo open\n",
        "```console\n$ echo \\\n```\n",
    ] {
        assert!(examples(bad).is_err(), "{bad:?}");
    }
}

/// The checker itself: what is shown must be printed exactly, and a failing command with
/// nothing shown is no pass.
#[test]
fn drifted_output_is_caught() {
    let example = |command: &str, expected: &[&str]| Example {
        line: 1,
        command: command.to_string(),
        expected: expected.iter().map(|s| s.to_string()).collect(),
    };
    let ok = |command: &str, expected: &[&str]| check(&example(command, expected), &run(command));
    assert!(ok("echo a; echo b", &["a", "b"]).is_ok());
    assert!(ok("echo a; echo b >&2", &["a", "b"]).is_ok());
    assert!(ok("echo a; echo b >&2", &["a"]).is_ok());
    assert!(ok("true", &[]).is_ok());
    assert!(ok("echo a; echo b", &["a", "c"]).is_err());
    assert!(ok("echo a; echo b", &["a"]).is_err());
    assert!(ok("echo a", &["a", ""]).is_err());
    assert!(ok("printf a", &["a"]).is_err());
    assert!(ok("false", &[]).is_err());
    assert!(ok("no-such-command-here", &[]).is_err());
    // `sudobench` is the binary under test.
    let version = run("sudobench --version");
    assert!(
        version.stdout.starts_with("sudobench "),
        "{}",
        version.stdout
    );
}
