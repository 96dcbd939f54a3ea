//! The judge: decides which answers to a puzzle are wrong, by evidence, never by majority.
//!
//! Every command that runs backends (`solve`, `count`, `verify`, `bench`) and the tests judge
//! answers here, so a given answer is judged the same everywhere. The rules:
//!
//! 1. **Each answer alone.** Every solution it carries passes the independent verifier
//!    ([`crate::verify`]); a second solution differs from the first; the count is within the
//!    limit. An answer that fails is the backend's fault, and nothing it says is evidence.
//! 2. **Evidence.** A verified solution proves at least one solution; two different verified
//!    solutions (from any answers, or one answer and the file's expected solution) prove at
//!    least two. A claim of no solution against a verified solution, or of exactly one against
//!    two, is refuted: the claimer is at fault, whatever the others say.
//! 3. **The file.** An expected solution that fails the verifier is a data error of the file,
//!    not a backend's fault; a valid one is evidence like any other.
//! 4. **What evidence cannot decide** (`1` against a `2+` that shows no second solution, say),
//!    a complete backend that is not a party settles: its answer is judged by the same rules
//!    and every claim that contradicts it is at fault. The verdict names it.
//! 5. **An outside claim nothing in the run can check** (a party marked
//!    [`outside`](Party::outside): an `exec:` program or a `lib:` library) — a count that
//!    evidence does not prove (`0`, or `1` when uniqueness is asked, or a `2+` without a
//!    second solution) and that no party of the run's own answers confirms — is checked by the
//!    referee as in rule 4: a contradicted claim is at fault, and one the referee cannot
//!    decide is left open (unsettled), never believed.
//!
//! Nothing depends on how many backends say what, nor on their order: the same answers give
//! the same faults in any order.

use crate::puzzle::{Puzzle, Solution};
use crate::solver::{Count, Limit, Outcome};
use crate::verify::{self, VerifyError};
use std::fmt;

/// Where a piece of evidence came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A backend's answer.
    Backend(String),
    /// The file's expected solution.
    File,
    /// The referee's answer.
    Referee(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Backend(name) => write!(f, "from {name}"),
            Source::File => write!(f, "the file's expected solution"),
            Source::Referee(name) => write!(f, "from the referee {name}"),
        }
    }
}

/// A verified solution and who showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The solution (checked by the verifier).
    pub grid: Solution,
    /// Who showed it.
    pub source: Source,
}

impl fmt::Display for Witness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.grid, self.source)
    }
}

/// What is wrong with one backend's answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Its solution fails the verifier.
    #[error("returned an invalid solution {solution}: {error}")]
    InvalidSolution {
        /// The solution returned.
        solution: Solution,
        /// Why the verifier rejects it.
        error: VerifyError,
    },
    /// Its second solution fails the verifier or repeats the first.
    #[error("returned an invalid second solution {solution}: {error}")]
    InvalidSecond {
        /// The second solution returned.
        solution: Solution,
        /// Why it is rejected.
        error: VerifyError,
    },
    /// It claimed no solution, but a verified solution exists.
    #[error("claimed no solution, but {evidence} is a verified solution")]
    NoneRefuted {
        /// The solution that refutes the claim.
        evidence: Witness,
    },
    /// It claimed exactly one solution, but two different verified solutions exist.
    #[error("claimed exactly one solution, but {first} and {second} are two different verified solutions")]
    UniqueRefuted {
        /// One solution.
        first: Witness,
        /// Another.
        second: Witness,
    },
    /// Evidence could not decide, and the referee's answer contradicts this one.
    #[error("counted {claim}, but the referee {referee} counted {ruling}")]
    Overruled {
        /// The count claimed, as text (`1`, `2+`, ...).
        claim: String,
        /// The referee's name.
        referee: String,
        /// The referee's count, as text.
        ruling: String,
    },
}

/// A backend found at fault on a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Index of the backend among the parties.
    pub party: usize,
    /// Its name.
    pub name: String,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.problem)
    }
}

/// Something wrong with the file rather than with a backend.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The file's expected solution fails the verifier.
    #[error("the file's expected solution {expected} is invalid: {error}")]
    InvalidExpected {
        /// The expected solution.
        expected: Solution,
        /// Why the verifier rejects it.
        error: VerifyError,
    },
}

/// How a dispute that evidence could not decide went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The referee's name.
    pub referee: String,
    /// Its answer as text (count, then the solution or `-`).
    pub answer: String,
    /// Whether its answer settled the dispute (false: it could not decide, or was itself
    /// refuted, and nobody was blamed for the dispute).
    pub settled: bool,
    /// Whether parties disagreed (false: they agreed, and the referee was asked only to check
    /// an outside claim nothing in the run could check, rule 5).
    pub disputed: bool,
}

/// The judgement of one puzzle's answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Backends at fault, at most one entry per backend.
    pub faults: Vec<Fault>,
    /// Problems of the file.
    pub data_errors: Vec<DataError>,
    /// The referee's part, when evidence could not decide.
    pub ruling: Option<Ruling>,
}

impl Verdict {
    /// Whether nothing is wrong (no fault, no data error, no dispute left open).
    pub fn is_clean(&self) -> bool {
        self.faults.is_empty()
            && self.data_errors.is_empty()
            && self.ruling.as_ref().is_none_or(|r| r.settled)
    }

    /// Whether backend `party` is at fault.
    pub fn blames(&self, party: usize) -> bool {
        self.faults.iter().any(|f| f.party == party)
    }

    /// Every problem as one line each: faults, data errors, an open dispute.
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self.faults.iter().map(|f| f.to_string()).collect();
        out.extend(self.data_errors.iter().map(|e| e.to_string()));
        if let Some(r) = &self.ruling {
            if !r.settled {
                let what = match r.disputed {
                    true => "backends disagree and",
                    false => "an outside backend's count nothing in the run confirms is unchecked:",
                };
                out.push(format!(
                    "{what} the referee {} could not settle it (it answered {})",
                    r.referee, r.answer
                ));
            }
        }
        out
    }
}

/// One backend's answer to the puzzle being judged.
#[derive(Clone, Copy, Debug)]
pub struct Party<'a> {
    /// The backend's name.
    pub name: &'a str,
    /// Its answer (`None`: it was not run on this puzzle, e.g. its time budget was spent).
    pub answer: Option<&'a Outcome>,
    /// Whether it is an outside backend (`exec:`, `lib:`) whose counts must be checked when
    /// nothing in the run confirms them (rule 5); `false` for the built-in backends and
    /// for outside ones the user chose to trust.
    pub outside: bool,
}

/// Judges one answer on its own (rule 1): what is wrong with it, if anything.
pub fn check_answer(puzzle: &Puzzle, answer: &Outcome) -> Option<Problem> {
    if let Some(solution) = answer.first_solution() {
        if let Err(error) = verify::check_solution(puzzle, solution) {
            return Some(Problem::InvalidSolution {
                solution: solution.clone(),
                error,
            });
        }
        if let Some(second) = answer.second_solution() {
            if let Err(error) = verify::check_second_solution(puzzle, solution, second) {
                return Some(Problem::InvalidSecond {
                    solution: second.clone(),
                    error,
                });
            }
        }
    }
    // A count above the limit, or a second solution beside a count of one, cannot be built
    // (`Outcome`'s constructors refuse them).
    None
}

/// Up to two different verified solutions.
#[derive(Default)]
struct Evidence {
    first: Option<(Solution, usize)>,
    second: Option<(Solution, usize)>,
}

/// Evidence sources by index: parties first, then the file, then the referee.
const FILE: usize = usize::MAX - 1;
const REFEREE: usize = usize::MAX;

impl Evidence {
    fn add(&mut self, grid: &Solution, from: usize) {
        match &self.first {
            None => self.first = Some((grid.clone(), from)),
            Some((g, _)) if g != grid && self.second.is_none() => {
                self.second = Some((grid.clone(), from))
            }
            _ => {}
        }
    }

    /// How many solutions are proven (0, 1 or 2 meaning "at least two").
    fn proven(&self) -> u32 {
        u32::from(self.first.is_some()) + u32::from(self.second.is_some())
    }
}

/// What a decided answer claims, for comparing claims: exactly `n` below the limit, or at
/// least the limit.
fn claim(count: Count, limit: Limit) -> Option<u32> {
    match count {
        Count::Exactly(n) | Count::AtLeast(n) => Some(n.min(limit.get())),
        Count::Unknown => None,
    }
}

/// Judges every party's answer to one puzzle. `referee` is called only when evidence cannot
/// decide a dispute; it returns the referee's name and its answer (`None`: no referee).
pub fn judge(
    puzzle: &Puzzle,
    expected: Option<&Solution>,
    limit: Limit,
    parties: &[Party<'_>],
    referee: &mut dyn FnMut() -> Option<(String, Outcome)>,
) -> Verdict {
    let mut verdict = Verdict::default();
    let mut evidence = Evidence::default();
    let mut referee_name = String::new();
    let name_of = |from: usize, referee_name: &str| match from {
        FILE => Source::File,
        REFEREE => Source::Referee(referee_name.to_string()),
        b => Source::Backend(parties[b].name.to_string()),
    };

    // Rule 1, and the evidence the surviving answers carry.
    for (b, party) in parties.iter().enumerate() {
        let Some(answer) = party.answer else { continue };
        if let Some(problem) = check_answer(puzzle, answer) {
            verdict.faults.push(Fault {
                party: b,
                name: party.name.to_string(),
                problem,
            });
            continue;
        }
        for grid in answer
            .first_solution()
            .into_iter()
            .chain(answer.second_solution())
        {
            evidence.add(grid, b);
        }
    }

    // Rule 3: the file's expected solution.
    if let Some(expected) = expected {
        match verify::check_solution(puzzle, expected) {
            Ok(()) => evidence.add(expected, FILE),
            Err(error) => verdict.data_errors.push(DataError::InvalidExpected {
                expected: expected.clone(),
                error,
            }),
        }
    }

    // Rule 2: refutation by evidence.
    refute(parties, limit, &evidence, &mut verdict, &|from| {
        name_of(from, "")
    });

    // Rule 4: a dispute that evidence left open.
    let open_claims = || {
        parties.iter().enumerate().filter_map(|(b, p)| {
            let answer = p.answer?;
            if verdict.blames(b) {
                return None;
            }
            claim(answer.count(), limit).map(|c| (b, c))
        })
    };
    let mut claims = open_claims();
    let Some((_, first_claim)) = claims.next() else {
        return verdict;
    };
    let disputed = !claims.all(|(_, c)| c == first_claim);
    // Rule 5: every claim agrees, but one of an outside backend may be unchecked: evidence
    // does not prove it and no answer of the run's own backends confirms it.
    let unchecked = || {
        let proven = evidence.proven();
        let confirmed = parties.iter().enumerate().any(|(b, p)| {
            !p.outside
                && !verdict.blames(b)
                && p.answer
                    .is_some_and(|a| claim(a.count(), limit) == Some(first_claim))
        });
        let outside = parties.iter().enumerate().any(|(b, p)| {
            p.outside
                && !verdict.blames(b)
                && p.answer.is_some_and(|a| claim(a.count(), limit).is_some())
        });
        let proved = first_claim >= limit.get() && proven >= first_claim;
        outside && !proved && !confirmed
    };
    if !disputed && !unchecked() {
        return verdict;
    }
    let Some((name, ruling)) = referee() else {
        verdict.ruling = Some(Ruling {
            referee: "none".to_string(),
            answer: "no referee available".to_string(),
            settled: false,
            disputed,
        });
        return verdict;
    };
    referee_name.clone_from(&name);
    let mut settled = check_answer(puzzle, &ruling).is_none();
    if settled {
        for grid in ruling
            .first_solution()
            .into_iter()
            .chain(ruling.second_solution())
        {
            evidence.add(grid, REFEREE);
        }
        // The referee's solutions may refute more claims by evidence alone.
        refute(parties, limit, &evidence, &mut verdict, &|from| {
            name_of(from, &referee_name)
        });
    }
    let ruled = claim(ruling.count(), limit);
    // The referee's own claim must stand against the evidence.
    settled &= match ruled {
        None => false,
        Some(0) => evidence.proven() == 0,
        Some(n) => n >= limit.get() || evidence.proven() <= n,
    };
    if settled {
        let ruled = ruled.unwrap_or(0);
        let disputed: Vec<(usize, u32)> = open_claims_after(parties, limit, &verdict);
        for (b, c) in disputed {
            if c != ruled {
                verdict.faults.push(Fault {
                    party: b,
                    name: parties[b].name.to_string(),
                    problem: Problem::Overruled {
                        claim: Count::of(c, limit).display(),
                        referee: name.clone(),
                        ruling: Count::of(ruled, limit).display(),
                    },
                });
            }
        }
    }
    verdict.ruling = Some(Ruling {
        referee: name,
        answer: ruling.text(),
        settled,
        disputed,
    });
    verdict
}

/// Decided claims of the backends not yet at fault.
fn open_claims_after(parties: &[Party<'_>], limit: Limit, verdict: &Verdict) -> Vec<(usize, u32)> {
    parties
        .iter()
        .enumerate()
        .filter(|(b, _)| !verdict.blames(*b))
        .filter_map(|(b, p)| claim(p.answer?.count(), limit).map(|c| (b, c)))
        .collect()
}

/// Rule 2: blames every claim the evidence refutes.
fn refute(
    parties: &[Party<'_>],
    limit: Limit,
    evidence: &Evidence,
    verdict: &mut Verdict,
    source: &dyn Fn(usize) -> Source,
) {
    let witness = |(grid, from): (Solution, usize)| Witness {
        grid,
        source: source(from),
    };
    for (b, party) in parties.iter().enumerate() {
        let Some(answer) = party.answer else { continue };
        if verdict.blames(b) {
            continue;
        }
        let problem = match (
            claim(answer.count(), limit),
            evidence.first.clone(),
            evidence.second.clone(),
        ) {
            (Some(0), Some(first), _) => Problem::NoneRefuted {
                evidence: witness(first),
            },
            (Some(1), Some(first), Some(second)) if limit.get() > 1 => Problem::UniqueRefuted {
                first: witness(first),
                second: witness(second),
            },
            _ => continue,
        };
        verdict.faults.push(Fault {
            party: b,
            name: party.name.to_string(),
            problem,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::solver::Stats;
    use crate::test_puzzles::{EASY as PUZZLE, EASY_SOLUTION as SOLUTION, OPEN, OPEN_A, OPEN_B};

    fn g(s: &str) -> Grid {
        s.parse().expect("test grid")
    }

    fn p(s: &str) -> Puzzle {
        Puzzle::Grid(g(s))
    }

    fn found(n: u32, first: &str, second: Option<&str>) -> Outcome {
        Outcome::claimed(
            n,
            Limit::TWO,
            Some(g(first)),
            second.map(g),
            Stats::default(),
        )
        .expect("a possible answer")
    }

    fn none() -> Outcome {
        Outcome::none(Stats::default())
    }

    fn judge_all(
        puzzle: &Puzzle,
        answers: &[(&str, Outcome)],
        referee: Option<Outcome>,
    ) -> Verdict {
        let parties: Vec<Party> = answers
            .iter()
            .map(|(name, o)| Party {
                name,
                answer: Some(o),
                outside: false,
            })
            .collect();
        let mut asked = false;
        let v = judge(puzzle, None, Limit::TWO, &parties, &mut || {
            asked = true;
            referee.clone().map(|o| ("oracle".to_string(), o))
        });
        assert_eq!(asked, v.ruling.is_some());
        v
    }

    fn blamed(v: &Verdict) -> Vec<usize> {
        let mut b: Vec<usize> = v.faults.iter().map(|f| f.party).collect();
        b.sort_unstable();
        b
    }

    #[test]
    fn each_answer_alone() {
        let puzzle = p(PUZZLE);
        assert_eq!(check_answer(&puzzle, &found(1, SOLUTION, None)), None);
        let mut wrong = g(SOLUTION);
        wrong.set(0, 1);
        let bad = Outcome::one(wrong, Limit::TWO, Stats::default());
        assert!(matches!(
            check_answer(&puzzle, &bad),
            Some(Problem::InvalidSolution { .. })
        ));
        // A second solution that is not one of the puzzle's is caught.
        assert!(matches!(
            check_answer(&p(OPEN), &found(2, OPEN_A, Some(SOLUTION))),
            Some(Problem::InvalidSecond { .. })
        ));
    }

    #[test]
    fn a_verified_solution_refutes_no_solution_in_any_order() {
        let puzzle = p(PUZZLE);
        for liars in 1..=3 {
            let mut answers: Vec<(&str, Outcome)> = (0..liars).map(|_| ("liar", none())).collect();
            answers.push(("honest", found(1, SOLUTION, None)));
            for rotation in 0..answers.len() {
                let mut a = answers.clone();
                a.rotate_left(rotation);
                let v = judge_all(&puzzle, &a, None);
                let honest = a.iter().position(|(n, _)| *n == "honest").unwrap();
                assert!(!v.blames(honest), "{v:?}");
                assert_eq!(v.faults.len(), liars, "{v:?}");
                assert!(v
                    .faults
                    .iter()
                    .all(|f| matches!(f.problem, Problem::NoneRefuted { .. })));
                assert_eq!(v.ruling, None, "evidence decided it");
            }
        }
    }

    #[test]
    fn two_solutions_refute_a_unique_claim() {
        let puzzle = p(OPEN);
        let v = judge_all(
            &puzzle,
            &[
                ("a", found(1, OPEN_A, None)),
                ("b", found(1, OPEN_B, None)),
                ("c", found(2, OPEN_A, Some(OPEN_B))),
            ],
            None,
        );
        assert_eq!(blamed(&v), vec![0, 1]);
        assert!(matches!(v.faults[0].problem, Problem::UniqueRefuted { .. }));
    }

    #[test]
    fn a_witnessless_two_is_settled_by_the_referee() {
        let puzzle = p(PUZZLE);
        // A liar claims a second solution it cannot show.
        for order in [0, 1] {
            let mut a = vec![
                ("liar", found(2, SOLUTION, None)),
                ("honest", found(1, SOLUTION, None)),
            ];
            a.rotate_left(order);
            let v = judge_all(&puzzle, &a, Some(found(1, SOLUTION, None)));
            let liar = a.iter().position(|(n, _)| *n == "liar").unwrap();
            assert_eq!(blamed(&v), vec![liar], "{v:?}");
            assert!(matches!(v.faults[0].problem, Problem::Overruled { .. }));
            assert!(v.ruling.as_ref().unwrap().settled);
        }
        // Without a referee nobody is blamed, and the dispute is reported as open.
        let v = judge_all(
            &puzzle,
            &[
                ("liar", found(2, SOLUTION, None)),
                ("honest", found(1, SOLUTION, None)),
            ],
            None,
        );
        assert!(v.faults.is_empty());
        assert!(!v.is_clean());
    }

    #[test]
    fn a_referee_that_shows_two_solutions_decides_by_evidence() {
        let puzzle = p(OPEN);
        let v = judge_all(
            &puzzle,
            &[
                ("wrong", found(1, OPEN_A, None)),
                ("right", found(2, OPEN_A, None)),
            ],
            Some(found(2, OPEN_B, Some(OPEN_A))),
        );
        assert_eq!(blamed(&v), vec![0]);
        assert!(matches!(v.faults[0].problem, Problem::UniqueRefuted { .. }));
    }

    #[test]
    fn a_referee_refuted_by_evidence_settles_nothing() {
        let puzzle = p(PUZZLE);
        let v = judge_all(
            &puzzle,
            &[
                ("a", found(2, SOLUTION, None)),
                ("b", found(1, SOLUTION, None)),
            ],
            Some(none()),
        );
        assert!(v.faults.is_empty(), "{v:?}");
        assert!(!v.ruling.unwrap().settled);
    }

    #[test]
    fn the_file_is_evidence_and_can_be_wrong() {
        let puzzle = p(PUZZLE);
        let answer = none();
        let party = [Party {
            name: "liar",
            answer: Some(&answer),
            outside: false,
        }];
        let v = judge(
            &puzzle,
            Some(&Solution::Grid(g(SOLUTION))),
            Limit::TWO,
            &party,
            &mut || None,
        );
        assert_eq!(blamed(&v), vec![0]);
        let text = v.faults[0].to_string();
        assert!(text.contains("the file's expected solution"), "{text}");

        // A wrong expected solution is the file's error, not the backend's.
        let answer = found(1, SOLUTION, None);
        let party = [Party {
            name: "honest",
            answer: Some(&answer),
            outside: false,
        }];
        let mut wrong = g(SOLUTION);
        wrong.set(80, 1);
        let v = judge(
            &puzzle,
            Some(&Solution::Grid(wrong)),
            Limit::TWO,
            &party,
            &mut || None,
        );
        assert!(v.faults.is_empty());
        assert_eq!(v.data_errors.len(), 1);

        // A valid expected solution other than the backend's proves two solutions.
        let answer = found(1, OPEN_A, None);
        let party = [Party {
            name: "unique?",
            answer: Some(&answer),
            outside: false,
        }];
        let v = judge(
            &p(OPEN),
            Some(&Solution::Grid(g(OPEN_B))),
            Limit::TWO,
            &party,
            &mut || None,
        );
        assert_eq!(blamed(&v), vec![0]);
        // At limit 1 the same answer only claims "at least one": nothing is wrong.
        let open_b = Solution::Grid(g(OPEN_B));
        let v = judge(&p(OPEN), Some(&open_b), Limit::ONE, &party, &mut || None);
        assert!(v.is_clean(), "{v:?}");
    }

    #[test]
    fn unknowns_and_skipped_answers_claim_nothing() {
        let puzzle = p(PUZZLE);
        let unknown = Outcome::unknown(Stats::default());
        let answer = found(1, SOLUTION, None);
        let parties = [
            Party {
                name: "skipped",
                answer: None,
                outside: false,
            },
            Party {
                name: "unknown",
                answer: Some(&unknown),
                outside: false,
            },
            Party {
                name: "honest",
                answer: Some(&answer),
                outside: false,
            },
        ];
        let v = judge(&puzzle, None, Limit::TWO, &parties, &mut || None);
        assert!(v.is_clean(), "{v:?}");
    }
}
