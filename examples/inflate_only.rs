//! Scratch: pure flate2 decompression speed.
use std::io::Read;
fn cpu() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    for _ in 0..2 {
        let c0 = cpu();
        let f = std::fs::File::open(&path).unwrap();
        let mut d =
            flate2::bufread::MultiGzDecoder::new(std::io::BufReader::with_capacity(256 << 10, f));
        let mut buf = vec![0u8; 256 << 10];
        let mut total = 0usize;
        let mut nl = 0usize;
        loop {
            let n = d.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            total += n;
            nl += memchr_count(&buf[..n]);
        }
        println!(
            "{total} bytes {nl} lines cpu {:.3}",
            (cpu() - c0) as f64 / 1e9
        );
    }
}
fn memchr_count(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}
