//! Small helpers shared across the crate: the thread CPU clock, a seedable random number
//! generator, CPU feature detection, the message of a contained panic, and reading a line of
//! bounded length.

use std::io::{self, BufRead};
use std::time::Duration;

/// The UTF-8 encoding of U+FEFF, skipped at the start of an input by both puzzle readers.
pub const BOM: &[u8] = b"\xef\xbb\xbf";

/// Appends the next line of `input` to `buf` without its newline, keeping at most `max`
/// bytes of it and consuming the rest, a buffer at a time, so that a line of any length costs
/// bounded memory. `None` at the end of the input; else the bytes consumed (the newline
/// included) and whether the line was longer than `max`.
pub fn read_line_bounded(
    input: &mut (impl BufRead + ?Sized),
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<(u64, bool)>> {
    let start = buf.len();
    let (mut used_all, mut truncated, mut any) = (0u64, false, false);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some((used_all, truncated)));
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = max.saturating_sub(buf.len() - start);
        if take > room {
            truncated = true;
        }
        buf.extend_from_slice(&chunk[..take.min(room)]);
        let used = if done { take + 1 } else { take };
        input.consume(used);
        used_all += used as u64;
        if done {
            return Ok(Some((used_all, truncated)));
        }
    }
}

/// CPU time used so far by the calling thread. Work is measured in CPU time rather than
/// wall-clock time wherever a shared machine would inflate the latter (the runner's speed-up
/// estimate, the measuring examples).
pub fn thread_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// CPU time used so far by the whole calling process, all its threads (the `lib:` worker
/// bills its library's calls by it, so that work moved to a helper thread is still counted).
pub fn process_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Proof that the CPU has the POPCNT instruction, which the x86-64 baseline lacks: the only
/// way to make one is [`Popcnt::detect`], which asks the CPU, so code compiled with POPCNT can
/// take one as its safety argument (`Board::choose` in `bitmask`, the branching of `logic` and
/// `generate`) and a caller cannot claim the instruction without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Popcnt(());

impl Popcnt {
    /// The token, if the CPU has POPCNT (detected at run time).
    pub fn detect() -> Option<Popcnt> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            return Some(Popcnt(()));
        }
        None
    }
}

/// Whether the CPU has AVX2, BMI1, BMI2, POPCNT and LZCNT (Intel Haswell, AMD Excavator
/// and later), which the `bitmask` backend's fast build of its search needs.
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether BMI2's PEXT and PDEP run in a cycle or so: on Intel (since Haswell, the first
/// with BMI2) and on AMD since Zen 3 (family 0x19). AMD's earlier cores (Excavator, Zen 1,
/// Zen 2, and Hygon's Zen 1) microcode them, at tens to hundreds of cycles; other vendors are
/// not assumed fast.
pub fn has_fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        // Leaf 0: the vendor; leaf 1: the family (both exist on every x86-64 CPU).
        let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
        let mut name = [0u8; 12];
        name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
        name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
        name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
        // Family: the base family, plus the extended family when the base is 0xf.
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf {
            base + ((signature >> 20) & 0xff)
        } else {
            base
        };
        match &name {
            b"GenuineIntel" => true,
            b"AuthenticAMD" => family >= 0x19,
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The message a panic was raised with (`panic!` with a string or a format), for reports
/// of a contained panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// SplitMix64: a tiny deterministic 64-bit generator (Steele, Lea and Flood, 2014), stable
/// across platforms and releases, so every seeded run (`--transform`, `--sample`, projection
/// starts) is reproducible.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..n` (`n` > 0; 0 gives 0). Uses Lemire's multiply-shift, whose
    /// bias is below 2⁻³² for the small `n` used here.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A uniform value in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Mixes two seeds into one (a run's seed and a line number, say), so that neighbouring
/// inputs get unrelated streams.
pub fn mix_seed(a: u64, b: u64) -> u64 {
    SplitMix64::new(a ^ b.wrapping_mul(0xd6e8_feb8_6659_fd93)).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_reproducible_and_in_range() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(10) < 10);
            let u = a.unit();
            assert!((0.0..1.0).contains(&u));
            b.below(10);
            b.unit();
        }
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
        assert_ne!(mix_seed(1, 2), mix_seed(1, 3));
    }

    #[test]
    fn the_cpu_clock_moves() {
        let t = thread_cpu_time();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_add(i * i);
        }
        assert!(std::hint::black_box(x) > 0);
        assert!(thread_cpu_time() > t);
    }
}
