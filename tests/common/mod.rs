//! Running the `sudobench` binary from integration tests.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// Runs the binary with `args` in `dir`, feeding `stdin` from another thread (so a full stdout
/// pipe cannot deadlock the test, and a program that exits before reading is no error).
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn_in(dir, args);
    let mut pipe = child.stdin.take().expect("stdin pipe");
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // A usage error exits before reading its input: a broken pipe is expected then.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("binary finishes");
    feeder.join().expect("stdin feeder");
    out
}

/// Starts the binary with `args` in `dir`, with its standard streams piped.
pub fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sudobench"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// Runs the binary with `args` in the package root.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, stdin)
}
