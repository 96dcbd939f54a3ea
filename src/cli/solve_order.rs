//! `solve` and `count` on files holding grids of other orders than 9×9: every record of such a
//! run is answered by the `wide` backend (the one backend of every order for now) and each
//! solution is checked with the rules-only checker (`order::check`) before it is printed.
//! Files of 9×9 records only keep the 9×9 pipeline and its backends.

use super::output::Output;
use anyhow::{bail, Result};
use std::time::Instant;
use sudobench::order::check::check;
use sudobench::order::reader::{Entry, OrderReader};
use sudobench::solver::wide::Wide;

/// Whether any of `files` holds a record of another order than 9×9 (standard input is read
/// by the 9×9 pipeline).
pub fn wanted(files: &[String]) -> bool {
    files.iter().filter(|f| f.as_str() != "-").any(|f| {
        OrderReader::open(f).is_ok_and(|r| {
            r.flatten()
                .any(|rec| matches!(&rec.puzzle, Entry::Grid(g) if g.order().n() != 3))
        })
    })
}

/// Solves (`count: None`) or counts to `limit` every record of `files` with `wide`.
pub fn run(backend: &str, files: &[String], count: Option<u32>, witness: bool) -> Result<bool> {
    if backend != "wide" && backend != "bitmask" {
        bail!("backend {backend} solves 9x9 only; files with other orders run on --backend wide");
    }
    let start = Instant::now();
    let mut out = Output::stdout();
    let limit = count.unwrap_or(2);
    let (mut records, mut ok) = (0u64, 0u64);
    let mut wide = Wide::default();
    for file in files {
        let reader =
            OrderReader::open(file).map_err(|e| anyhow::anyhow!("{file}: cannot open: {e}"))?;
        for item in reader {
            records += 1;
            let line = match item {
                Err(e) => format!("error: {e}"),
                Ok(rec) => match &rec.puzzle {
                    Entry::Pencilmarks(_) => {
                        format!(
                            "error: {}:{}: pencilmarks: use a 9x9 file",
                            rec.source, rec.line
                        )
                    }
                    Entry::Grid(p) => {
                        let f = wide.solve(p, limit);
                        let checked = f
                            .first
                            .iter()
                            .chain(&f.second)
                            .try_for_each(|s| check(p, s));
                        if let Err(e) = checked {
                            format!("error: {}:{}: wrong solution: {e}", rec.source, rec.line)
                        } else if let Some(exp) = rec
                            .expected
                            .as_ref()
                            .filter(|e| f.count == 1 && f.first.as_ref() != Some(e))
                        {
                            format!(
                                "error: {}:{}: the file's solution {exp} is not the solution",
                                rec.source, rec.line
                            )
                        } else {
                            ok += u64::from(if count.is_some() { true } else { f.count == 1 });
                            match count {
                                None => match (f.count, &f.first) {
                                    (1, Some(s)) => s.to_line(),
                                    (0, _) => "no solution".into(),
                                    _ => "multiple solutions".into(),
                                },
                                Some(l) => {
                                    let mut t = if f.count >= l {
                                        format!("{l}+")
                                    } else {
                                        f.count.to_string()
                                    };
                                    if witness {
                                        for s in f.first.iter().chain(&f.second) {
                                            t.push(' ');
                                            t.push_str(&s.to_line());
                                        }
                                    }
                                    t
                                }
                            }
                        }
                    }
                },
            };
            out.line(&line);
        }
    }
    out.finish()?;
    eprintln!(
        "sudobench: {records} records: {ok} {}, {} not ({:.3} s, backend wide)",
        if count.is_some() { "counted" } else { "solved" },
        records - ok,
        start.elapsed().as_secs_f64()
    );
    Ok(ok == records)
}
