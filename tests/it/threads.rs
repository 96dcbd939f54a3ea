//! Output integrity with threads: `solve` and `count` on several threads write exactly the
//! same bytes as on one thread, in input order, for a 10,000-record input.

use std::process::Output;

fn run(args: &[&str], input: &[u8]) -> Output {
    crate::common::run(args, input)
}

/// 10,000 records: Kaggle puzzles (easy, so any backend is quick) with a malformed line, a multi-solution puzzle and a
/// contradiction mixed in at regular places.
fn input() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles0_kaggle.csv.gz");
    let reader = sudobench::format::Reader::open(path).expect("data opens");
    let mut text = String::new();
    for (i, r) in reader.take(10_000).enumerate() {
        match i % 997 {
            13 => text.push_str("12345\n"),
            14 => text.push_str(&format!("{}\n", ".".repeat(81))),
            15 => text.push_str(&format!("11{}\n", ".".repeat(79))),
            _ => text.push_str(&format!("{}\n", r.expect("record").puzzle)),
        }
    }
    text.into_bytes()
}

#[test]
fn threaded_output_is_identical_to_single_threaded() {
    let input = input();
    for cmd in ["solve", "count"] {
        let one = run(&[cmd, "--threads", "1"], &input);
        let three = run(&[cmd, "--threads", "3"], &input);
        assert_eq!(one.stdout.iter().filter(|&&b| b == b'\n').count(), 10_000);
        assert!(one.stdout == three.stdout, "{cmd}: outputs differ");
        assert_eq!(
            one.status.code(),
            Some(1),
            "{cmd}: malformed lines mean exit 1"
        );
        assert_eq!(three.status.code(), Some(1));
    }
}
