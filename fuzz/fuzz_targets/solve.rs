//! Arbitrary 81-byte grids (each byte taken mod 10) and, from inputs of 729 bytes or more,
//! 729-character pencilmark lines (a byte divisible by 3 eliminates its digit) through every
//! built-in backend with a node budget: nothing may panic, every answer must pass the judge's typed check (solutions
//! and witnesses verify), complete backends that decide must agree with the `basic` oracle, and
//! judged together no backend may be at fault.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use sudobench::backends::{self, BackendInfo};
use sudobench::judge;
use sudobench::solver::{Count, Limit, Options, Solver};
use sudobench::grid::Candidates;
use sudobench::{Grid, Puzzle};

thread_local! {
    static BACKENDS: RefCell<Vec<(&'static BackendInfo, Box<dyn Solver>)>> = RefCell::new({
        let options = Options { max_nodes: Some(20_000), ..Options::default() };
        backends::BACKENDS
            .iter()
            .map(|b| (b, (b.build)(&options).expect("built-in backend builds")))
            .collect()
    });
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 81 {
        return;
    }
    let mut cells = [0u8; 81];
    for (c, b) in cells.iter_mut().zip(data) {
        *c = b % 10;
    }
    if let Ok(grid) = Grid::from_cells(cells) {
        check(&Puzzle::Grid(grid));
    }
    if data.len() >= 729 {
        // A pencilmark line as a file would hold it, parsed by the same code.
        let line: Vec<u8> = data[..729]
            .iter()
            .enumerate()
            .map(|(i, b)| if b % 3 == 0 { b'.' } else { b'1' + (i % 9) as u8 })
            .collect();
        let candidates = Candidates::from_bytes(&line).expect("a well-formed pencilmark line");
        check(&Puzzle::Candidates(candidates));
    }
});

/// Every backend on one puzzle: no panic, answers that pass the typed check, complete
/// backends that decide agree with `basic`, and nobody at fault when judged together.
fn check(puzzle: &Puzzle) {
    BACKENDS.with(|backends| {
        let mut oracle = None;
        let mut answers = Vec::new();
        for (info, backend) in backends.borrow_mut().iter_mut() {
            let out = backend.solve(puzzle, Limit::TWO);
            // The typed check every command uses: solutions and witnesses verify, counts fit.
            if let Some(problem) = judge::check_answer(puzzle, Limit::TWO, &out) {
                panic!("{} on {puzzle}: {problem}", info.name);
            }
            if info.name == "basic" {
                oracle = Some(out.count());
            } else if let (Some(Count::Exactly(want)), Count::Exactly(got)) = (oracle, out.count()) {
                if info.complete {
                    assert_eq!(
                        got,
                        want,
                        "{} disagrees with basic on {puzzle}",
                        info.name
                    );
                }
            }
            answers.push((info.name.to_string(), out));
        }
        let parties: Vec<judge::Party> = answers
            .iter()
            .map(|(name, out)| judge::Party { name, answer: Some(out), outside: false })
            .collect();
        let verdict = judge::judge(puzzle, None, Limit::TWO, &parties, &mut || None);
        assert!(verdict.faults.is_empty(), "{puzzle}: {:?}", verdict.faults);
    });
}
