//! Reading speed of the streaming reader (gunzip + parse), to compare with `gzip -dc FILE >
//! /dev/null` on the same file.
//!
//! ```sh
//! cargo run --release --example read_speed -- FILE [ROUNDS]
//! /usr/bin/time -f '%U s user' gzip -dc FILE > /dev/null
//! ```
//!
//! Prints records per second of wall-clock time and of this thread's CPU time (so that other
//! processes on a shared machine do not skew it).

use std::time::Instant;
use sudobench::format::Reader;

/// Nanoseconds this thread has run on a CPU.
fn thread_cpu_ns() -> Option<u64> {
    Some(sudobench::util::thread_cpu_time().as_nanos() as u64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: read_speed FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    for round in 1..=rounds {
        let cpu0 = thread_cpu_ns();
        let t0 = Instant::now();
        let reader = match Reader::open(path) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        let (mut ok, mut bad) = (0u64, 0u64);
        for item in reader {
            match item {
                Ok(_) => ok += 1,
                Err(_) => bad += 1,
            }
        }
        let wall = t0.elapsed().as_secs_f64();
        let cpu = match (cpu0, thread_cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 / 1e9,
            _ => wall,
        };
        let n = (ok + bad) as f64;
        println!(
            "round {round}: {ok} records, {bad} errors; wall {wall:.3} s = {:.0} records/s; cpu {cpu:.3} s = {:.0} records/s",
            n / wall,
            n / cpu
        );
    }
}
