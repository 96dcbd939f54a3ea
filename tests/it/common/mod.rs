//! What the integration tests share: puzzles with known answers, and running the
//! `sudobench` binary. Each test crate uses part of it.
#![allow(dead_code)]

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

/// A puzzle solved by singles alone, and its solution.
pub const EASY: &str =
    "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
pub const EASY_SOLUTION: &str =
    "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
/// A puzzle that needs guessing, and its solution.
pub const HARD: &str =
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
pub const HARD_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
/// Two 1s in the first row: no solution.
pub const CLASH: &str =
    "11...............................................................................";
/// A puzzle with exactly two solutions (1 and 2 swap in r1c1, r1c2, r4c1, r4c2), and both.
pub const OPEN: &str =
    "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642";
pub const OPEN_A: &str =
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
pub const OPEN_B: &str =
    "213456789456789123789123456124365897365897214897214365531642978642978531978531642";

/// A built-in backend with the facts the registry holds for it (a [`sudobench::Solver`] has
/// no name of its own), for tests that name it in a message or ask whether it is complete.
pub struct Named {
    pub info: &'static sudobench::backends::BackendInfo,
    pub solver: Box<dyn sudobench::Solver>,
}

impl Named {
    /// The registry's backend `name`, built with `options`.
    pub fn build(name: &str, options: &sudobench::solver::Options) -> Named {
        let info = sudobench::backends::info(name).expect("a built-in backend");
        Named {
            info,
            solver: (info.build)(options).expect("backend builds"),
        }
    }

    pub fn name(&self) -> &'static str {
        self.info.name
    }

    pub fn is_complete(&self) -> bool {
        self.info.complete
    }
}

impl sudobench::Solver for Named {
    fn solve(&mut self, puzzle: &sudobench::Puzzle, limit: sudobench::Limit) -> sudobench::Outcome {
        self.solver.solve(puzzle, limit)
    }
}
