//! Arbitrary bytes, plain and gzipped, through the streaming reader: it must never panic,
//! must end, and must yield at most one item per line (plus one stream error). Input that
//! itself starts with the gzip magic is decompressed by the reader, so only the wrapped copy
//! is held to the line bound. From inputs of 729 bytes or more, a 729-character pencilmark
//! line made of them (a byte divisible by 3 eliminates its digit, others keep it or are taken
//! as they are) is read too.
#![no_main]

use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Write};
use sudobench::format::Reader;

fn check(bytes: Vec<u8>, lines: Option<usize>) {
    let items = Reader::new("fuzz", Cursor::new(bytes)).count();
    if let Some(lines) = lines {
        assert!(items <= lines + 1, "{items} items from {lines} lines");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() >= 729 {
        let line: Vec<u8> = data[..729]
            .iter()
            .enumerate()
            .map(|(i, &b)| match b % 3 {
                0 => b'.',
                1 => b'1' + (i % 9) as u8,
                _ => b,
            })
            .chain(*b"\n")
            .collect();
        check(line, Some(1));
    }
    let lines = data.split(|&b| b == b'\n').count();
    let gzipped = data.starts_with(&[0x1f, 0x8b]);
    check(data.to_vec(), (!gzipped).then_some(lines));
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    if gz.write_all(data).is_ok() {
        if let Ok(packed) = gz.finish() {
            check(packed, Some(lines));
        }
    }
});
