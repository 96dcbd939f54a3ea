//! Short proptest versions of the two fuzz targets in `fuzz/`, so every CI run exercises them:
//! arbitrary bytes (plain and gzipped) through the reader, and arbitrary grids and 729-character
//! pencilmark lines through every backend. Nothing may panic; answers must verify and agree
//! with the oracle.

use flate2::write::GzEncoder;
use proptest::prelude::*;
use std::io::{Cursor, Write};
use sudobench::backends;
use sudobench::format::Reader;
use sudobench::judge;
use sudobench::solver::{Count, Limit, Options};
use sudobench::Grid;

fn item_count(bytes: Vec<u8>) -> usize {
    Reader::new("smoke", Cursor::new(bytes)).count()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).expect("gzip");
    gz.finish().expect("gzip")
}

/// Bytes that look somewhat like puzzle files, so the parser's deeper paths are reached.
fn puzzle_like() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        Just(b".".to_vec()),
        Just(b"0".to_vec()),
        Just(b"5".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b",".to_vec()),
        Just(b"#".to_vec()),
        Just(b" ".to_vec()),
        Just(b"quizzes,solutions\n".to_vec()),
        Just(".".repeat(80).into_bytes()),
        Just("123456789".repeat(81).into_bytes()),
        Just(".23456789".repeat(81).into_bytes()),
        any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(atom, 0..60).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn reader_survives_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..2000)) {
        let lines = data.split(|&b| b == b'\n').count();
        // Bytes that start with the gzip magic are decompressed: no bound from their lines.
        let plain_items = item_count(data.clone());
        prop_assert!(data.starts_with(&[0x1f, 0x8b]) || plain_items <= lines + 1);
        prop_assert!(item_count(gzip(&data)) <= lines + 1);
        // A damaged gzip stream: cut and flip a byte; still no panic, still bounded.
        let mut packed = gzip(&data);
        let cut = packed.len() / 2;
        packed.truncate(cut.max(3));
        if let Some(b) = packed.get_mut(2) {
            *b ^= 0x5a;
        }
        prop_assert!(item_count(packed) <= lines + 1);
    }

    #[test]
    fn reader_survives_puzzle_like_bytes(data in puzzle_like()) {
        let lines = data.split(|&b| b == b'\n').count();
        let plain_items = item_count(data.clone());
        prop_assert!(data.starts_with(&[0x1f, 0x8b]) || plain_items <= lines + 1);
        prop_assert!(item_count(gzip(&data)) <= lines + 1);
    }
}

/// Every built-in backend on one puzzle, with a node budget: no panic, answers that pass the
/// typed check, complete backends that decide agree with `basic`, nobody at fault together.
fn every_backend_on(puzzle: &sudobench::puzzle::Puzzle) -> Result<(), TestCaseError> {
    let grid = puzzle;
    let options = Options {
        max_nodes: Some(20_000),
        ..Options::default()
    };
    let mut oracle = None;
    let mut answers = Vec::new();
    for name in backends::builtin_names() {
        let mut backend = backends::build(name, &options).expect("builds");
        let out = backend.solve(puzzle, Limit::TWO);
        // The typed check every command uses.
        let problem = judge::check_answer(puzzle, &out);
        prop_assert!(problem.is_none(), "{name}: {problem:?}");
        if name == "basic" {
            oracle = Some(out.count());
        } else if let (Some(Count::Exactly(want)), Count::Exactly(got), true) = (
            oracle,
            out.count(),
            backends::info(name).is_some_and(|b| b.complete),
        ) {
            prop_assert_eq!(got, want, "{} disagrees with basic on {}", name, grid);
        }
        answers.push((name, out));
    }
    // Judged together, nobody is at fault.
    let parties: Vec<judge::Party> = answers
        .iter()
        .map(|(name, out)| judge::Party {
            name,
            answer: Some(out),
            outside: false,
        })
        .collect();
    let verdict = judge::judge(puzzle, None, Limit::TWO, &parties, &mut || None);
    prop_assert!(verdict.faults.is_empty(), "{:?}", verdict.faults);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Arbitrary grids, mostly empty cells so that many are solvable.
    #[test]
    fn backends_survive_arbitrary_grids(
        cells in prop::collection::vec(prop_oneof![6 => Just(0u8), 1 => 1u8..=9], 81)
    ) {
        let mut array = [0u8; 81];
        array.copy_from_slice(&cells);
        let grid = Grid::from_cells(array).expect("values 0..=9");
        every_backend_on(&sudobench::puzzle::Puzzle::Grid(grid))?;
    }

    /// Arbitrary 729-character pencilmark lines, as a file holds them: mostly full cells (so
    /// that many positions are solvable, some with many solutions), some cut down, some empty.
    #[test]
    fn backends_survive_arbitrary_pencilmark_lines(
        masks in prop::collection::vec(prop_oneof![5 => Just(0x1ffu16), 3 => 1u16..0x200, 1 => Just(0u16)], 81)
    ) {
        let line: String = masks
            .iter()
            .flat_map(|m| (0..9).map(move |d| if m >> d & 1 == 1 { char::from(b'1' + d) } else { '.' }))
            .collect();
        let record = Reader::new("smoke", Cursor::new(format!("{line}\n").into_bytes()))
            .next()
            .expect("one record")
            .expect("a well-formed pencilmark line");
        prop_assert!(matches!(record.puzzle, sudobench::puzzle::Puzzle::Candidates(_)));
        every_backend_on(&record.puzzle)?;
    }
}
