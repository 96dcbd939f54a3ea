//! The clock solving is timed by, chosen once per run (`--clock cpu|wall`) and the same for
//! every backend: by default the CPU time of everything that solves (the calling thread for an
//! in-process backend, the whole worker process for `lib:`, the program's processes for
//! `exec:`), or wall-clock time. See `docs/clocks.md`.

use crate::util::thread_cpu_time;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Which clock solving time is measured by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Clock {
    /// CPU time of everything that solves: not inflated by other work on a shared machine,
    /// and blind to sleeping.
    #[default]
    Cpu,
    /// Wall-clock time: what a caller waits, sleeping and waiting for a core included.
    Wall,
}

impl Clock {
    /// The name used on the command line and in machine output (`cpu`, `wall`).
    pub fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "cpu",
            Clock::Wall => "wall",
        }
    }

    /// How a report names it (`CPU time`, `wall-clock time`).
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU time",
            Clock::Wall => "wall-clock time",
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A clock name that is neither `cpu` nor `wall`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown clock {0:?} (known: cpu, wall)")]
pub struct UnknownClock(pub String);

impl FromStr for Clock {
    type Err = UnknownClock;
    fn from_str(s: &str) -> Result<Clock, UnknownClock> {
        match s {
            "cpu" => Ok(Clock::Cpu),
            "wall" => Ok(Clock::Wall),
            _ => Err(UnknownClock(s.to_string())),
        }
    }
}

/// A measurement of the calling thread by one clock, started by [`Stopwatch::start`].
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    clock: Clock,
    wall: Instant,
    cpu: Duration,
}

impl Stopwatch {
    /// Starts measuring the calling thread by `clock`.
    pub fn start(clock: Clock) -> Stopwatch {
        Stopwatch {
            clock,
            wall: Instant::now(),
            cpu: match clock {
                Clock::Cpu => thread_cpu_time(),
                Clock::Wall => Duration::ZERO,
            },
        }
    }

    /// Time since the start by the clock (for CPU time, the same thread must ask).
    pub fn elapsed(&self) -> Duration {
        match self.clock {
            Clock::Cpu => thread_cpu_time().saturating_sub(self.cpu),
            Clock::Wall => self.wall.elapsed(),
        }
    }
}

/// Time measured by both clocks, for the backends that measure another process and hand the
/// caller the one it asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// CPU time.
    pub cpu: Duration,
    /// Wall-clock time.
    pub wall: Duration,
}

impl Spent {
    /// The time by `clock`.
    pub fn by(self, clock: Clock) -> Duration {
        match clock {
            Clock::Cpu => self.cpu,
            Clock::Wall => self.wall,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sleeping_is_wall_time_only() {
        for c in [Clock::Cpu, Clock::Wall] {
            assert_eq!(c.name().parse::<Clock>(), Ok(c));
        }
        assert!("gpu".parse::<Clock>().is_err());
        let (cpu, wall) = (Stopwatch::start(Clock::Cpu), Stopwatch::start(Clock::Wall));
        std::thread::sleep(Duration::from_millis(30));
        assert!(wall.elapsed() >= Duration::from_millis(30));
        assert!(cpu.elapsed() < Duration::from_millis(30));
    }
}
