//! The cross-check of one puzzle's answers: every solution verified, counts compared, unique
//! solutions compared with each other and with the file's expected solution.

use super::{Backend, Mismatch};
use crate::format::Record;
use crate::grid::Grid;
use crate::solver::{Count, Outcome};
use crate::verify;

/// Checks one puzzle's answers (`None`: backend not run). Sets `blamed[b]` for each backend
/// found at fault and returns what is wrong (empty when all is well; no allocation then).
pub(super) fn check(
    record: &Record,
    answers: &[Option<Outcome>],
    backends: &[Backend],
    limit: u32,
    blamed: &mut [bool],
) -> Vec<String> {
    let limit = limit.max(1);
    let mut problems = Vec::new();
    blamed.fill(false);

    // 1. Each answer on its own: solutions valid, counts within the limit and consistent with
    //    the solution returned.
    for (b, answer) in answers.iter().enumerate() {
        let Some(o) = answer else { continue };
        let name = backends[b].name();
        if let Some(sol) = &o.solution {
            if let Err(e) = verify::check_puzzle(&record.puzzle, sol) {
                problems.push(format!("{name} returned an invalid solution: {e}"));
                blamed[b] = true;
                continue;
            }
        }
        let bad = o
            .second_problem(&record.puzzle)
            .map(|p| format!("{name} {p}"));
        let bad = bad.or(match o.count {
            Count::Exactly(n) if n > limit => Some(format!("{name} counted {n}, above the limit")),
            Count::Exactly(n) if n > 0 && o.solution.is_none() => {
                Some(format!("{name} counted {n} but returned no solution"))
            }
            Count::Exactly(0) if o.solution.is_some() => {
                Some(format!("{name} counted 0 but returned a solution"))
            }
            _ => None,
        });
        if let Some(p) = bad {
            problems.push(p);
            blamed[b] = true;
        }
    }

    // 2. Counts: every decided answer must agree. The consensus is the most common count; a
    //    tie goes to the count of the earliest backend in run order (complete ones first).
    let mut consensus: Option<(u32, usize, bool)> = None; // (count, votes, from a complete one)
    for (b, backend) in backends.iter().enumerate().take(answers.len()) {
        let Some(n) = count_of(answers, blamed, b) else {
            continue;
        };
        let votes = (0..answers.len())
            .filter(|&o| count_of(answers, blamed, o) == Some(n))
            .count();
        let complete = backend.is_complete();
        let better = match consensus {
            None => true,
            Some((_, v, c)) => votes > v || (votes == v && complete && !c),
        };
        if better {
            consensus = Some((n, votes, complete));
        }
    }
    let consensus = consensus.map(|(n, _, _)| n);
    if let Some(n) = consensus {
        let mut disagree = false;
        for b in 0..answers.len() {
            if matches!(count_of(answers, blamed, b), Some(m) if m != n) {
                blamed[b] = true;
                disagree = true;
            }
        }
        if disagree {
            problems.push(format!(
                "backends disagree on the count (consensus {})",
                Count::Exactly(n).display(limit)
            ));
        }
    }

    // 3. The file's expected solution, when it has one, must itself be valid.
    let expected = match &record.expected {
        Some(e) => match verify::check_puzzle(&record.puzzle, e) {
            Ok(()) => Some(*e),
            Err(err) => {
                problems.push(format!("the file's expected solution is invalid: {err}"));
                None
            }
        },
        None => None,
    };
    if expected.is_some() {
        for (b, answer) in answers.iter().enumerate() {
            if let Some(o) = answer {
                if o.count == Count::Exactly(0) && !blamed[b] {
                    problems.push(format!(
                        "{} found no solution but the file's solution is valid",
                        backends[b].name()
                    ));
                    blamed[b] = true;
                }
            }
        }
    }

    // 4. A unique solution (decided with limit >= 2) must be the same for every backend that
    //    returned one, and equal the file's.
    if limit >= 2 && consensus == Some(1) {
        let reference: Option<Grid> = expected.or_else(|| {
            answers.iter().enumerate().find_map(|(b, a)| match a {
                Some(o) if !blamed[b] && o.count == Count::Exactly(1) => o.solution,
                _ => None,
            })
        });
        if let Some(reference) = reference {
            for (b, answer) in answers.iter().enumerate() {
                let Some(o) = answer else { continue };
                if blamed[b] {
                    continue;
                }
                if let Some(sol) = &o.solution {
                    if *sol != reference {
                        let whose = if expected.is_some() {
                            "the file's expected solution"
                        } else {
                            "the other backends' unique solution"
                        };
                        problems.push(format!(
                            "{}'s solution differs from {whose}",
                            backends[b].name()
                        ));
                        blamed[b] = true;
                    }
                }
            }
        }
    }
    problems
}

/// Builds the mismatch record for a puzzle whose check found problems.
pub(super) fn mismatch(
    record: &Record,
    answers: &[Option<Outcome>],
    backends: &[Backend],
    limit: u32,
    problems: Vec<String>,
    blamed: &[bool],
) -> Mismatch {
    let limit = limit.max(1);
    Mismatch {
        source: record.source.clone(),
        line: record.line,
        puzzle: record.puzzle,
        expected: record.expected,
        problems,
        answers: backends
            .iter()
            .zip(answers)
            .map(|(b, a)| (b.name(), answer_text(a.as_ref(), limit)))
            .collect(),
        blamed: backends
            .iter()
            .zip(blamed)
            .filter(|(_, &x)| x)
            .map(|(b, _)| b.name())
            .collect(),
    }
}

/// An answer as text: the count, then the solution or `-`; `skipped` when not run.
pub(crate) fn answer_text(answer: Option<&Outcome>, limit: u32) -> String {
    match answer {
        None => "skipped (time budget spent)".to_string(),
        Some(o) => match &o.solution {
            Some(s) => format!("{} {s}", o.count.display(limit)),
            None => format!("{} -", o.count.display(limit)),
        },
    }
}

/// The decided count of answer `b`, unless it was not run, is undecided, or already blamed.
fn count_of(answers: &[Option<Outcome>], blamed: &[bool], b: usize) -> Option<u32> {
    match &answers[b] {
        Some(Outcome {
            count: Count::Exactly(n),
            ..
        }) if !blamed[b] => Some(*n),
        _ => None,
    }
}
