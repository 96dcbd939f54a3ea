//! `dlx` (and every exact-cover backend) agrees with the `basic` oracle on every puzzle of
//! magictour_top1465: same count at limit 2, same solution, and the solution verifies.
//!
//! The full set takes a few seconds in release mode (`basic` dominates). An unoptimised
//! build (`cargo test` without `--release`) is far slower, so there it checks every 16th
//! puzzle; CI and the project's standard run use `--release` and check all 1465.

use crate::common::Named;
use sudobench::backends;
use sudobench::format::Reader;
use sudobench::solver::Limit;
use sudobench::solver::{Count, Options, Solver};
use sudobench::verify;

const FILE: &str = "data/puzzles3_magictour_top1465.gz";
const BACKENDS: &[&str] = &["dlx", "dlx-array"];

#[test]
fn agrees_with_basic_on_magictour_top1465() {
    let step = if cfg!(debug_assertions) { 16 } else { 1 };
    let path = format!("{}/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let mut oracle = backends::build("basic", &Options::default()).unwrap();
    let mut backends: Vec<Named> = BACKENDS
        .iter()
        .map(|b| Named::build(b, &Options::default()))
        .collect();
    let mut checked = 0;
    for (i, record) in Reader::open(&path).unwrap().enumerate() {
        let record = record.unwrap();
        if i % step != 0 {
            continue;
        }
        let want = oracle.solve(&record.puzzle, Limit::TWO);
        assert_eq!(
            want.count(),
            Count::Exactly(1),
            "line {}: oracle",
            record.line
        );
        for b in &mut backends {
            let got = b.solve(&record.puzzle, Limit::TWO);
            assert_eq!(
                (got.count(), &got.solution()),
                (want.count(), &want.solution()),
                "line {}: {} disagrees with basic",
                record.line,
                b.name()
            );
            let s = got.solution().copied().unwrap();
            verify::check_puzzle(&record.puzzle, &s).unwrap();
        }
        checked += 1;
    }
    assert_eq!(checked, 1465usize.div_ceil(step));
}
