//! Arbitrary 81-byte grids (each byte taken mod 10) through every built-in backend with a
//! node budget: nothing may panic, every solution (and witness of a second one) must verify,
//! and complete backends that decide must agree with the `basic` oracle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use sudobench::solver::{self, Count, Options, Solver};
use sudobench::{verify, Grid};

thread_local! {
    static BACKENDS: RefCell<Vec<Box<dyn Solver>>> = RefCell::new({
        let options = Options { max_nodes: Some(20_000), ..Options::default() };
        solver::builtin_names()
            .map(|n| solver::build(n, &options).expect("built-in backend builds"))
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
    let Ok(grid) = Grid::from_cells(cells) else {
        return;
    };
    BACKENDS.with(|backends| {
        let mut oracle = None;
        for backend in backends.borrow_mut().iter_mut() {
            let out = backend.solve(&grid, 2);
            if let Some(s) = &out.solution {
                verify::check(&grid, s).expect("solutions verify");
            }
            if let (Some(first), Some(second)) = (&out.solution, &out.second) {
                let puzzle = sudobench::grid::Puzzle::Grid(grid);
                verify::check_second(&puzzle, first, second).expect("second solutions verify");
            }
            if backend.name() == "basic" {
                oracle = Some(out.count);
            } else if let (Some(Count::Exactly(want)), Count::Exactly(got)) = (oracle, out.count) {
                if backend.is_complete() {
                    assert_eq!(
                        got,
                        want,
                        "{} disagrees with basic on {grid}",
                        backend.name()
                    );
                }
            }
        }
    });
});
