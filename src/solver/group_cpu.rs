//! The CPU time of a process group (an `exec:` program: the shell and everything it started),
//! read from `/proc`: per live member the run time of each of its threads
//! (`/proc/PID/task/TID/schedstat`, nanoseconds; `utime + stime` from `/proc/PID/stat` where
//! schedstat is missing), plus the CPU time of the children it has reaped (`cutime + cstime`,
//! in clock ticks). The members are found by scanning `/proc` for the group, at the first read
//! and at most once a second after, since a program rarely starts processes while it serves;
//! a process started and reaped between two scans is billed through its parent's `cutime`.

use std::fs;
use std::time::{Duration, Instant};

/// How often the members are looked for again.
const RESCAN: Duration = Duration::from_secs(1);

/// A reader of one process group's CPU time that never goes back.
pub(crate) struct GroupCpu {
    group: i32,
    members: Vec<i32>,
    scanned: Option<Instant>,
    /// The highest total read so far: a member that ends moves its time into its parent's
    /// reaped-children counter (rounded to clock ticks), which must not count twice nor
    /// make the total shrink.
    high: Duration,
}

impl GroupCpu {
    /// A reader for the group whose id is `group` (the pid of its leader).
    pub(crate) fn new(group: i32) -> GroupCpu {
        GroupCpu {
            group,
            members: Vec::new(),
            scanned: None,
            high: Duration::ZERO,
        }
    }

    /// The group's CPU time so far (never less than at the last read).
    pub(crate) fn read(&mut self) -> Duration {
        if self.scanned.is_none_or(|t| t.elapsed() >= RESCAN) {
            self.scan();
        }
        let total = self.members.iter().map(|&pid| process_cpu(pid)).sum();
        self.high = self.high.max(total);
        self.high
    }

    fn scan(&mut self) {
        self.scanned = Some(Instant::now());
        self.members.clear();
        self.members.push(self.group);
        let Ok(dir) = fs::read_dir("/proc") else {
            return;
        };
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            if pid != self.group
                && stat_fields(pid).is_some_and(|f| field(&f, 5) == Some(i64::from(self.group)))
            {
                self.members.push(pid);
            }
        }
    }
}

/// The fields of `/proc/PID/stat` after the command name (field 3, the state, first).
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// Field `n` (1-based, as in proc(5)) of a stat line split by [`stat_fields`].
fn field(fields: &[String], n: usize) -> Option<i64> {
    fields.get(n.checked_sub(3)?)?.parse().ok()
}

fn ticks(n: i64) -> Duration {
    let hz = rustix::param::clock_ticks_per_second().max(1);
    Duration::from_nanos((n.max(0) as u64).saturating_mul(1_000_000_000 / hz))
}

/// One process's CPU time: its threads' run time and its reaped children's CPU time (zero if
/// it is gone).
fn process_cpu(pid: i32) -> Duration {
    let Some(fields) = stat_fields(pid) else {
        return Duration::ZERO;
    };
    let reaped = ticks(field(&fields, 16).unwrap_or(0) + field(&fields, 17).unwrap_or(0));
    let own = threads_run_time(pid).unwrap_or_else(|| {
        ticks(field(&fields, 14).unwrap_or(0) + field(&fields, 15).unwrap_or(0))
    });
    own + reaped
}

/// The sum of the run times of a process's threads, in nanoseconds, from schedstat.
fn threads_run_time(pid: i32) -> Option<Duration> {
    let mut total = 0u64;
    for task in fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let text = fs::read_to_string(task.path().join("schedstat")).ok()?;
        let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
        total = total.saturating_add(ns);
    }
    Some(Duration::from_nanos(total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    #[test]
    fn a_busy_group_uses_cpu_and_a_sleeping_one_does_not() {
        let spawn = |script: &str| {
            Command::new("sh")
                .args(["-c", script])
                .stdout(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("sh starts")
        };
        // A shell that starts a busy child: the child's time is the group's.
        // (Long enough to outlast the test: it is killed at the end.)
        let mut busy = spawn("i=0; while [ $i -lt 20000000 ]; do i=$((i+1)); done & wait");
        let mut sleepy = spawn("sleep 3 & wait");
        // Members are found by a scan at the first read: let both children start first.
        std::thread::sleep(Duration::from_millis(100));
        let (mut b, mut s) = (
            GroupCpu::new(busy.id() as i32),
            GroupCpu::new(sleepy.id() as i32),
        );
        let (b0, s0) = (b.read(), s.read());
        std::thread::sleep(Duration::from_millis(200));
        let (b1, s1) = (b.read(), s.read());
        // The whole groups, children included.
        for child in [&busy, &sleepy] {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
        }
        let _ = (busy.wait(), sleepy.wait());
        assert!(b1 > b0, "{b0:?} {b1:?}");
        assert!(s1 - s0 < b1 - b0, "{s0:?} {s1:?} against {b0:?} {b1:?}");
    }
}
