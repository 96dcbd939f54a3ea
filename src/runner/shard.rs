//! Deterministic parts of a run, for job arrays (`--shard K/N`): the items of a run (every
//! record of every input, malformed ones included, or the indices of `generate`) are numbered
//! in input order from 0 and cut into `N` contiguous ranges of nearly equal size; part `K`
//! (1-based, as Slurm's `SLURM_ARRAY_TASK_ID` with `--array=1-N`) runs the `K`-th. The parts'
//! outputs, concatenated in order `1..=N`, are the per-record output of one whole run, which
//! is what `sudobench merge` relies on.

use super::pipeline::Source;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Part `k` of `n` (1 ≤ k ≤ n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    k: u64,
    n: u64,
}

/// Why a `K/N` text is not a shard.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not a shard: expected K/N with 1 <= K <= N (for example 3/8)")]
pub struct ShardError(String);

impl Shard {
    /// Part `k` of `n`, if 1 ≤ k ≤ n.
    pub fn new(k: u64, n: u64) -> Option<Shard> {
        (k >= 1 && k <= n).then_some(Shard { k, n })
    }

    /// The whole run as one part.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Which part (1-based).
    pub fn k(&self) -> u64 {
        self.k
    }

    /// How many parts.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The indices of this part among `total` items: `[(k-1)·total/n, k·total/n)`. The parts
    /// of one `n` are disjoint, in order, and cover `0..total`; their sizes differ by at most
    /// one.
    pub fn range(&self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.n)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s.split_once('/').ok_or_else(|| ShardError(s.to_string()))?;
        let number = |t: &str| t.trim().parse::<u64>().ok();
        number(k)
            .zip(number(n))
            .and_then(|(k, n)| Shard::new(k, n))
            .ok_or_else(|| ShardError(s.to_string()))
    }
}

/// Which items of a run a part keeps, followed across the run's inputs: every item read
/// (record or malformed record) takes the next index, whether it is kept or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    next: u64,
    keep: Range<u64>,
}

impl Window {
    /// The window of `shard` over a run of `total` items.
    pub fn new(shard: Shard, total: u64) -> Window {
        Window {
            next: 0,
            keep: shard.range(total),
        }
    }

    /// The indices kept.
    pub fn range(&self) -> Range<u64> {
        self.keep.clone()
    }

    /// Gives the next item its index; whether it is kept.
    pub fn take(&mut self) -> bool {
        let i = self.next;
        self.next += 1;
        self.keep.contains(&i)
    }

    /// Whether every kept item has been seen (the rest of the run can be skipped).
    pub fn done(&self) -> bool {
        self.next >= self.keep.end
    }

    /// The items of `source` this window keeps (reading stops once it is done).
    pub fn part<S>(&mut self, source: S) -> Part<'_, S> {
        Part {
            source,
            window: self,
        }
    }
}

/// A source cut down to a [`Window`].
pub struct Part<'a, S> {
    source: S,
    window: &'a mut Window,
}

impl<S: Iterator> Iterator for Part<'_, S> {
    type Item = S::Item;
    fn next(&mut self) -> Option<S::Item> {
        loop {
            if self.window.done() {
                return None;
            }
            let item = self.source.next()?;
            if self.window.take() {
                return Some(item);
            }
        }
    }
}

impl<T, S: Source<T>> Source<T> for Part<'_, S> {
    fn ready(&self) -> bool {
        self.window.done() || self.source.ready()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_run_in_order() {
        for n in 1..=9u64 {
            for total in [0u64, 1, 2, 7, 100, 101] {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard::new(k, n).unwrap().range(total);
                    assert_eq!(r.start, next, "{k}/{n} of {total}");
                    assert!(r.end - r.start <= total / n + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn parsing() {
        assert_eq!("3/8".parse(), Ok(Shard::new(3, 8).unwrap()));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard::new(2, 5).unwrap().to_string(), "2/5");
    }

    #[test]
    fn a_window_follows_several_inputs() {
        let shard = Shard::new(2, 3).unwrap();
        let mut w = Window::new(shard, 9);
        let first: Vec<u32> = w.part(0..5u32).collect();
        let second: Vec<u32> = w.part(10..14u32).collect();
        assert_eq!(first, vec![3, 4]);
        assert_eq!(second, vec![10]);
        assert!(w.done());
    }
}
