//! `sudobench merge`: the outputs of a run's parts (`--shard K/N`, or the chunks of a
//! distributed run) joined into the output of the whole run.
//!
//! The parts cut the run's records into contiguous ranges in input order, so their
//! per-record lines, concatenated in part order, are the whole run's lines. Records that sum
//! up a set (`bench --format json`, `grade --summary --format json`) appear in several parts
//! for the same set: they are added up (counts added, rates and means computed again from
//! the summed times and puzzles, problems kept with file and line) and written where the
//! set first appears. A CSV header repeated at the top of every part is written once.

use super::rows::{AddError, BenchRow, Fixed};
use crate::grade::{Summary, Technique};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt;

/// `grade --summary --format json`'s record, one per file: the documented fields, then the
/// sums they are computed from (`clues`, `guesses`) so that parts add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GradeSummaryRow {
    pub source: String,
    pub puzzles: u64,
    pub mean_clues: Fixed<3>,
    pub mean_guesses: Fixed<3>,
    pub symmetries: u32,
    pub not_unique: u64,
    pub techniques: Techniques,
    /// Puzzles with a search out of its node budget or time limit (absent from parts of
    /// older versions, which had no budget: 0).
    #[serde(default)]
    pub undecided: u64,
    /// Sum of the clue counts.
    pub clues: Option<u64>,
    /// Sum of the mean guesses.
    pub guesses: Option<f64>,
}

/// Puzzles per technique, written as an object in the ladder's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Techniques(pub [u64; 9]);

impl Serialize for Techniques {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(9))?;
        for (t, n) in Technique::ALL.iter().zip(self.0) {
            map.serialize_entry(t.name(), &n)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Techniques {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Techniques;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("puzzles per technique")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Techniques, A::Error> {
                let mut counts = [0u64; 9];
                while let Some((name, n)) = map.next_entry::<String, u64>()? {
                    let k = Technique::ALL
                        .iter()
                        .position(|t| t.name() == name)
                        .ok_or_else(|| de::Error::custom(format!("unknown technique {name:?}")))?;
                    counts[k] = n;
                }
                Ok(Techniques(counts))
            }
        }
        d.deserialize_map(V)
    }
}

impl GradeSummaryRow {
    /// The record of one file's summary.
    pub fn new(source: &str, s: &Summary, symmetries: u32) -> GradeSummaryRow {
        GradeSummaryRow {
            source: source.to_string(),
            puzzles: s.puzzles,
            mean_clues: Fixed(s.mean_clues()),
            mean_guesses: Fixed(s.mean_guesses()),
            symmetries,
            not_unique: s.not_unique,
            techniques: Techniques(s.techniques),
            undecided: s.undecided,
            clues: Some(s.clues),
            guesses: Some(s.guesses),
        }
    }

    /// The summary it was made from (`None` without the sums).
    pub fn summary(&self) -> Option<Summary> {
        Some(Summary {
            puzzles: self.puzzles,
            techniques: self.techniques.0,
            guesses: self.guesses?,
            clues: self.clues?,
            not_unique: self.not_unique,
            undecided: self.undecided,
        })
    }

    /// The record as one JSON line (no line break).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn add(&mut self, other: &GradeSummaryRow) -> Result<(), MergeError> {
        let (Some(mut mine), Some(theirs)) = (self.summary(), other.summary()) else {
            return Err(MergeError::NotExact(self.source.clone()));
        };
        if self.symmetries != other.symmetries {
            return Err(MergeError::Add(AddError::Differ {
                set: self.source.clone(),
                backend: "bitmask".to_string(),
                what: "symmetries",
            }));
        }
        mine.puzzles += theirs.puzzles;
        mine.guesses += theirs.guesses;
        mine.clues += theirs.clues;
        mine.not_unique += theirs.not_unique;
        mine.undecided += theirs.undecided;
        for (a, b) in mine.techniques.iter_mut().zip(theirs.techniques) {
            *a += b;
        }
        *self = GradeSummaryRow::new(&self.source, &mine, self.symmetries);
        Ok(())
    }
}

/// Why parts could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Two records of a set could not be added.
    #[error(transparent)]
    Add(#[from] AddError),
    /// A grade summary without its sums.
    #[error("the grade summary of {0} has no \"clues\"/\"guesses\" sums: write the parts with this version's `grade --summary --format json`")]
    NotExact(String),
    /// A bench CSV record: its rates cannot be added up.
    #[error("{part}: bench CSV cannot be added up exactly: write the parts with `--format json`")]
    BenchCsv {
        /// The part.
        part: String,
    },
    /// Per-record lines of one file out of order: the parts are not given in order.
    #[error(
        "{part}: line {line} of {file} comes after line {after}: give the parts in order 1..N"
    )]
    OutOfOrder {
        /// The part.
        part: String,
        /// The source.
        file: String,
        /// The record's line.
        line: u64,
        /// The line before it.
        after: u64,
    },
}

/// Header lines the commands write at the top of their output, written once by the merge.
const HEADERS: [&str; 1] = ["puzzle,count,solution"];

/// What the merge writes, in order.
enum Entry {
    Line(String),
    Bench(Box<BenchRow>),
    Grade(Box<GradeSummaryRow>),
}

/// Source and line of a per-record JSON line, to check the parts' order.
#[derive(Deserialize)]
struct Place {
    source: String,
    line: u64,
}

/// Joins parts, given in order; feed them with [`Merger::part`], then take the text with
/// [`Merger::finish`].
#[derive(Default)]
pub struct Merger {
    entries: Vec<Entry>,
    /// Where each summed record is: (kind, source, backend, occurrence in its part).
    keys: HashMap<(u8, String, String, usize), usize>,
    /// The first line of the first part, when it is a header.
    header: Option<String>,
    /// The last per-record place written.
    last: Option<(String, u64)>,
    parts: usize,
    /// Per-record lines written.
    pub lines: u64,
    /// Summed records written.
    pub sums: u64,
}

impl Merger {
    /// A merger with no part yet.
    pub fn new() -> Merger {
        Merger::default()
    }

    /// Adds the next part's output; `name` names it in errors.
    pub fn part(&mut self, name: &str, text: &str) -> Result<(), MergeError> {
        let mut seen: HashMap<(u8, String, String), usize> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if i == 0 {
                if line.starts_with("set,source,backend,") {
                    return Err(MergeError::BenchCsv {
                        part: name.to_string(),
                    });
                }
                let is_header = HEADERS.contains(&line)
                    || line.starts_with("source,line,puzzle,")
                    || line.starts_with("source,puzzles,mean_clues,");
                if is_header {
                    if self.parts == 0 {
                        self.header = Some(line.to_string());
                        self.entries.push(Entry::Line(line.to_string()));
                    }
                    if self.header.as_deref() == Some(line) {
                        continue;
                    }
                }
            }
            let summed = if line.starts_with('{') {
                if let Ok(row) = serde_json::from_str::<BenchRow>(line) {
                    Some((
                        0,
                        row.source.clone(),
                        row.backend.clone(),
                        Entry::Bench(Box::new(row)),
                    ))
                } else if let Ok(row) = serde_json::from_str::<GradeSummaryRow>(line) {
                    Some((
                        1,
                        row.source.clone(),
                        String::new(),
                        Entry::Grade(Box::new(row)),
                    ))
                } else {
                    None
                }
            } else {
                None
            };
            let Some((kind, source, backend, entry)) = summed else {
                self.check_order(name, line)?;
                self.entries.push(Entry::Line(line.to_string()));
                self.lines += 1;
                continue;
            };
            let n = seen
                .entry((kind, source.clone(), backend.clone()))
                .or_default();
            let key = (kind, source, backend, *n);
            *n += 1;
            match self.keys.get(&key) {
                None => {
                    self.keys.insert(key, self.entries.len());
                    self.entries.push(entry);
                    self.sums += 1;
                }
                Some(&at) => match (&mut self.entries[at], &entry) {
                    (Entry::Bench(a), Entry::Bench(b)) => a.add(b)?,
                    (Entry::Grade(a), Entry::Grade(b)) => a.add(b)?,
                    _ => {}
                },
            }
        }
        self.parts += 1;
        Ok(())
    }

    /// Per-record JSON lines of one source must come in line order across parts.
    fn check_order(&mut self, name: &str, line: &str) -> Result<(), MergeError> {
        if !line.starts_with('{') {
            return Ok(());
        }
        let Ok(place) = serde_json::from_str::<Place>(line) else {
            return Ok(());
        };
        if let Some((source, after)) = &self.last {
            if *source == place.source && place.line <= *after {
                return Err(MergeError::OutOfOrder {
                    part: name.to_string(),
                    file: place.source,
                    line: place.line,
                    after: *after,
                });
            }
        }
        self.last = Some((place.source, place.line));
        Ok(())
    }

    /// The merged output.
    pub fn finish(self) -> String {
        let mut out = String::new();
        for entry in self.entries {
            match entry {
                Entry::Line(l) => out.push_str(&l),
                Entry::Bench(row) => out.push_str(&row.to_json()),
                Entry::Grade(row) => out.push_str(&row.to_json()),
            }
            out.push('\n');
        }
        out
    }
}

/// Merges parts given in order as (name, text).
pub fn merge<'a>(
    parts: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<String, MergeError> {
    let mut merger = Merger::new();
    for (name, text) in parts {
        merger.part(name, text)?;
    }
    Ok(merger.finish())
}
