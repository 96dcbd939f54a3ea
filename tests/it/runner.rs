//! The library runner and report, driven with test-only solvers: a deliberately wrong backend
//! must be caught, an incomplete one tolerated when it abstains, budgets and samples must
//! behave, and threads must not change any answer.
//!
//! A wrong backend is tested here, at the library level, rather than through a hidden backend
//! in the registry: the registry stays the list users see, and the test can aim the fault at
//! chosen puzzles. The CLI's exit code on a mismatch is tested in `tests/cli.rs` with a file
//! whose expected solution is wrong, which goes through the same cross-check.

use crate::common::{EASY as PUZZLE, EASY_SOLUTION as SOLVED};
use std::io::Cursor;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use sudobench::format::{Reader, Record};
use sudobench::report;
use sudobench::runner::{
    Backend, Config, Mismatch, NoObserver, Observer, Runner, Sample, SetReport,
};
use sudobench::solver::basic::Basic;
use sudobench::solver::{Batch, Clock, Count, Limit, Options, Outcome, Solver, Stats};
use sudobench::{Grid, Puzzle};

fn data_lines(file: &str, n: usize) -> Vec<String> {
    crate::common::sample(file, n)
        .iter()
        .map(Puzzle::to_string)
        .collect()
}

/// Some hard puzzles, some multi-solution ones, one without a solution.
fn mixed_text() -> String {
    let mut lines = data_lines("puzzles3_magictour_top1465.gz", 40);
    lines.extend(data_lines("puzzles7_serg_benchmark.gz", 10));
    lines.push(format!("11{}", &".".repeat(79)));
    lines.join("\n") + "\n"
}

/// Runs `runner` over [`mixed_text`], as `mixed.txt`.
fn run_mixed(runner: &Runner, observer: &mut dyn Observer) -> SetReport {
    runner
        .run_items("mixed.txt", reader(&mixed_text()), None, observer)
        .unwrap()
}

fn reader(text: &str) -> Reader {
    Reader::new("mixed.txt", Cursor::new(text.as_bytes().to_vec()))
}

fn basic() -> Backend {
    Backend::new("basic", true, || Basic::new(&Options::default()))
}

/// Basic, except that on every `every`-th puzzle it swaps two digits of the solution, or, with
/// `count_bug`, claims a second solution.
struct Wrong {
    inner: Basic,
    calls: u64,
    every: u64,
    count_bug: bool,
}

/// [`Wrong`] as the backend `wrong`.
fn wrong(every: u64, count_bug: bool) -> Backend {
    Backend::new("wrong", true, move || Wrong {
        inner: Basic::new(&Options::default()),
        calls: 0,
        every,
        count_bug,
    })
}

impl Solver for Wrong {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let mut o = self.inner.solve(puzzle, limit);
        self.calls += 1;
        if self.calls.is_multiple_of(self.every) {
            if self.count_bug {
                // A second solution it cannot show (a lie a limit of 1 cannot express).
                let first = o.solution().copied();
                if let (Some(_), false, true) = (first, o.is_unknown(), limit.get() >= 2) {
                    o = Outcome::claimed(2, limit, first, None, *o.stats()).expect("a claim of 2");
                }
            } else {
                o.map_solutions(|s| {
                    let mut s = *s;
                    let (a, b) = (s.get(0), s.get(1));
                    s.set(0, b);
                    s.set(1, a);
                    s
                });
            }
        }
        o
    }
}

/// An incomplete backend: abstains on every other puzzle, answers like basic otherwise.
struct Abstains {
    inner: Basic,
    calls: u64,
}

impl Solver for Abstains {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        self.calls += 1;
        if self.calls.is_multiple_of(2) {
            Outcome::unknown(Stats::default())
        } else {
            self.inner.solve(puzzle, limit)
        }
    }
}

/// Collects what the observer sees.
#[derive(Default)]
struct Seen {
    lines: Vec<u64>,
    counts: Vec<Vec<Option<Count>>>,
    mismatches: Vec<Mismatch>,
}

impl Observer for Seen {
    fn puzzle(&mut self, record: &Record, answers: &[Option<Outcome>], m: Option<&Mismatch>) {
        if let Some(m) = m {
            self.mismatches.push(m.clone());
        }
        self.lines.push(record.line);
        self.counts.push(
            answers
                .iter()
                .map(|a| a.as_ref().map(|o| o.count()))
                .collect(),
        );
    }
}

#[test]
fn a_wrong_solution_is_caught_with_its_line_and_reported() {
    let wrong = wrong(7, false);
    let runner = Runner::new(Config::default(), vec![basic(), wrong]);
    let mut seen = Seen::default();
    let set = run_mixed(&runner, &mut seen);
    // Every 7th of the 51 puzzles has its solution corrupted: calls 7, 14, ..., 49 (the 49th
    // is a multi-solution one, with solutions to corrupt too; the 51st, without a solution,
    // is not a 7th call).
    let corrupted = (1..=51u64).filter(|i| i % 7 == 0).count() as u64;
    assert_eq!(corrupted, 7);
    assert_eq!(set.mismatch_total, corrupted);
    assert_eq!(set.backends[0].mismatches, 0, "basic is not to blame");
    assert_eq!(set.backends[1].mismatches, corrupted);
    assert_eq!(seen.mismatches.len() as u64, corrupted);
    // `solved` counts verified solutions only: the corrupted ones are not.
    assert_eq!(set.backends[1].solved, set.backends[0].solved - corrupted);
    let m = &seen.mismatches[0];
    assert_eq!((&*m.source, m.line), ("mixed.txt", 7));
    assert_eq!(m.blamed, vec!["wrong"]);
    assert!(
        m.problems[0].contains("invalid solution"),
        "{:?}",
        m.problems
    );
    assert_eq!(m.answers.len(), 2);
    let shown = m.to_string();
    assert!(shown.starts_with("mixed.txt:7: mismatch"), "{shown}");
    assert!(
        shown.contains("basic") && shown.contains("wrong"),
        "{shown}"
    );

    // The report says so in every format.
    let config = runner.config().clone();
    let table = report::table(
        std::slice::from_ref(&set),
        &config,
        &report::Machine::detect(),
    );
    assert!(table.contains("MISMATCHES"), "{table}");
    let json = report::json_lines(std::slice::from_ref(&set), &config);
    let rows: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["backend"], "wrong");
    assert_eq!(rows[1]["mismatches"], corrupted);
    assert_eq!(rows[0]["mismatches"], 0);
}

#[test]
fn a_claim_evidence_cannot_decide_is_settled_by_a_referee_outside_the_run() {
    let wrong = wrong(5, true);
    let runner = Runner::new(Config::default(), vec![basic(), wrong]);
    let set = run_mixed(&runner, &mut NoObserver);
    // Puzzles 5..40 step 5 are unique top1465 puzzles; 45 and 50 already have 2+. A `2`
    // without a second solution against basic's `1`: evidence cannot decide, so `bitmask`
    // (the first referee not in the run) settles it.
    assert_eq!(runner.referee().map(|r| r.name()), Some("bitmask"));
    assert_eq!(set.referee.as_deref(), Some("bitmask"));
    assert_eq!(set.mismatch_total, 8);
    assert_eq!((set.refereed, set.unsettled), (8, 0));
    assert_eq!(set.backends[1].mismatches, 8);
    assert_eq!(set.backends[0].mismatches, 0);
    let problem = &set.mismatches[0].problems[0];
    assert!(
        problem.contains("wrong counted 2+, but the referee bitmask counted 1"),
        "{problem}"
    );
}

#[test]
fn an_incomplete_backend_may_abstain_and_must_agree_when_it_answers() {
    let abstains = Backend::new("abstains", false, || Abstains {
        inner: Basic::new(&Options::default()),
        calls: 0,
    });
    assert!(!abstains.is_complete());
    let runner = Runner::new(Config::default(), vec![basic(), abstains]);
    let set = run_mixed(&runner, &mut NoObserver);
    assert_eq!(set.mismatch_total, 0);
    assert_eq!(set.backends[1].unknown, 25);
    assert_eq!(set.backends[1].covered, 51);
    // It answered the 26 odd calls; the last (51st) puzzle has no solution to return.
    assert_eq!(set.backends[1].solved, 25);
    assert_eq!(set.backends[0].solved, 50);
    assert_eq!(set.backends[0].unique, 40);
    assert_eq!(set.backends[0].multiple, 10);
    assert_eq!(set.backends[0].none, 1);
}

/// Basic, except that it panics on its `at`-th call.
struct Panics {
    inner: Basic,
    calls: u64,
    at: u64,
}

impl Solver for Panics {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        self.calls += 1;
        if self.calls == self.at {
            panic!("test backend gave up on call {}", self.at);
        }
        self.inner.solve(puzzle, limit)
    }
}

#[test]
fn a_panicking_backend_is_contained_and_reported() {
    for threads in [1, 2] {
        let panics = Backend::new("panics", true, || Panics {
            inner: Basic::new(&Options::default()),
            calls: 0,
            at: 5,
        });
        let config = Config {
            threads,
            chunk_size: 8,
            ..Config::default()
        };
        let runner = Runner::new(config, vec![basic(), panics]);
        let set = run_mixed(&runner, &mut NoObserver);
        // Every puzzle is still counted for both; the panicking one abstains from the fifth
        // call of each instance on, with no mismatch, and the report says why.
        let (ok, bad) = (&set.backends[0], &set.backends[1]);
        assert_eq!((ok.covered, bad.covered), (51, 51), "threads {threads}");
        assert_eq!(ok.fault, None);
        let fault = bad.fault.as_deref().expect("fault reported");
        assert!(
            fault.contains("panicked: test backend gave up on call 5"),
            "{fault}"
        );
        assert_eq!(set.mismatch_total, 0);
        assert!(bad.unknown >= 51 - 4 * threads as u64, "{}", bad.unknown);
        let table = report::table_set(&set);
        assert!(
            table.contains("! panics failed: panicked: test backend gave up"),
            "{table}"
        );
        let json = report::json_lines(std::slice::from_ref(&set), &Config::default());
        assert!(
            json.contains("\"fault\":null") && json.contains("\"fault\":\"panicked: "),
            "{json}"
        );
    }
}

/// Basic, except that its witness of a second solution is broken (two cells swapped).
struct BrokenSecond {
    inner: Basic,
}

impl Solver for BrokenSecond {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let o = self.inner.solve(puzzle, limit);
        let Some(mut second) = o.second().copied() else {
            return o;
        };
        let (a, b) = (second.get(0), second.get(1));
        second.set(0, b);
        second.set(1, a);
        let count = o.count().found().expect("a count beside a second solution");
        Outcome::claimed(
            count,
            limit,
            o.solution().copied(),
            Some(second),
            *o.stats(),
        )
        .expect("a different second solution")
    }
}

#[test]
fn a_second_solution_must_be_valid() {
    // (One equal to the first cannot even be built: `Outcome::claimed` refuses it.)
    let same = Backend::new("broken-second", true, || BrokenSecond {
        inner: Basic::new(&Options::default()),
    });
    let runner = Runner::new(Config::default(), vec![basic(), same]);
    let set = run_mixed(&runner, &mut NoObserver);
    // The 10 multi-solution puzzles: basic's witness is fine, the other's is not.
    assert_eq!(set.backends[0].mismatches, 0);
    assert_eq!(set.backends[1].mismatches, 10);
    assert!(
        set.mismatches[0].problems[0].contains("invalid second solution"),
        "{:?}",
        set.mismatches[0].problems
    );
}

#[test]
fn expected_solutions_from_the_file_are_checked() {
    let mut wrong = SOLVED.as_bytes().to_vec();
    wrong.swap(0, 1);
    let wrong = String::from_utf8(wrong).unwrap();
    let text = format!("quizzes,solutions\n{PUZZLE},{SOLVED}\n{PUZZLE},{wrong}\n");
    let runner = Runner::new(Config::default(), vec![basic()]);
    let set = runner
        .run_items("k.csv", reader(&text), None, &mut NoObserver)
        .unwrap();
    assert_eq!(set.records, 2);
    assert_eq!(set.mismatch_total, 1);
    assert_eq!(set.data_errors, 1);
    assert_eq!(set.mismatches[0].line, 3);
    assert!(set.mismatches[0].data_error);
    assert!(set.mismatches[0].blamed.is_empty(), "the file is at fault");
    assert_eq!(set.backends[0].mismatches, 0);
    // Machine output carries the file's errors too.
    let json = report::json_lines(std::slice::from_ref(&set), runner.config());
    let row: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(row["data_errors"], 1);
    assert_eq!(row["set_mismatches"], 1);
    assert_eq!(row["mismatches"], 0);
}

#[test]
fn threads_and_chunks_change_nothing_but_speed() {
    let run = |threads: usize, chunk_size: usize| {
        let config = Config {
            threads,
            chunk_size,
            ..Config::default()
        };
        let runner = Runner::new(config, vec![basic(), basic()]);
        let mut seen = Seen::default();
        let set = run_mixed(&runner, &mut seen);
        (set, seen)
    };
    let (one, seen_one) = run(1, 1024);
    for (threads, chunk) in [(2, 3), (3, 1), (2, 1024)] {
        let (many, seen_many) = run(threads, chunk);
        assert_eq!(many.threads, threads);
        assert_eq!(seen_many.lines, seen_one.lines, "input order kept");
        assert_eq!(seen_many.counts, seen_one.counts);
        for (a, b) in one.backends.iter().zip(&many.backends) {
            assert_eq!(
                (a.covered, a.unique, a.multiple, a.none, a.stats),
                (b.covered, b.unique, b.multiple, b.none, b.stats)
            );
        }
    }
    let mut sorted = seen_one.lines.clone();
    sorted.sort();
    assert_eq!(sorted, seen_one.lines);
}

#[test]
fn random_symmetries_keep_every_count_and_answers_map_back() {
    let text = mixed_text();
    let plain = Runner::new(Config::default(), vec![basic()])
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap();
    let config = Config {
        transform: Some(42),
        ..Config::default()
    };
    let transformed = Runner::new(config, vec![basic(), basic()])
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap();
    assert_eq!(transformed.mismatch_total, 0);
    let (a, b) = (&plain.backends[0], &transformed.backends[0]);
    assert_eq!(
        (a.unique, a.multiple, a.none),
        (b.unique, b.multiple, b.none)
    );
    // Different orientations make the search take different paths.
    assert_ne!(a.stats.nodes, b.stats.nodes);
}

#[test]
fn samples_are_deterministic_sized_and_in_input_order() {
    let text = mixed_text();
    let lines = |seed: u64| {
        let config = Config {
            sample: Some(Sample { size: 10, seed }),
            ..Config::default()
        };
        let mut seen = Seen::default();
        let set = Runner::new(config, vec![basic()])
            .run_items("m", reader(&text), None, &mut seen)
            .unwrap();
        assert_eq!((set.records, set.selected), (51, 10));
        assert_eq!(set.backends[0].covered, 10);
        seen.lines
    };
    let a = lines(5);
    assert_eq!(a, lines(5));
    assert_ne!(a, lines(6));
    assert!(a.windows(2).all(|w| w[0] < w[1]));
}

/// Sleeps this long per puzzle (as a backend on a busy machine waits for a core), then
/// solves with `basic` (a few ms of CPU time on these puzzles); past the deadline it answers
/// `unknown` at once, as a search does.
struct Sleeping(Duration);

impl Solver for Sleeping {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        if sudobench::deadline::passed() {
            return Outcome::unknown(Stats::default());
        }
        std::thread::sleep(self.0);
        Basic::new(&Options::default()).solve(puzzle, limit)
    }
}

#[test]
fn a_spent_budget_stops_only_that_backend_and_says_how_far_it_got() {
    let text = mixed_text();
    // Sleeping is solving time by the wall clock only.
    let config = Config {
        time_budget: Some(Duration::from_millis(30)),
        chunk_size: 4,
        clock: Clock::Wall,
        ..Config::default()
    };
    let runner = Runner::new(
        config,
        vec![
            basic(),
            Backend::new("slow", true, || Sleeping(Duration::from_millis(1))),
        ],
    );
    let set = runner
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap();
    let slow = &set.backends[1];
    assert!(slow.budget_spent);
    // At least one puzzle is always run; 51 puzzles of at least 1 ms cannot fit in 30 ms.
    assert!(slow.covered >= 1 && slow.covered < 51, "{}", slow.covered);
    // The budget is found spent by the clock the backend is billed by, so the time billed
    // is the whole budget.
    assert!(slow.time >= Duration::from_millis(30), "{:?}", slow.time);
    assert_eq!(set.selected, 51);
    assert_eq!(set.mismatch_total, 0);
    let table = report::table(
        std::slice::from_ref(&set),
        runner.config(),
        &report::Machine::detect(),
    );
    assert!(table.contains(&format!("{}/51*", slow.covered)), "{table}");
}

/// Under the CPU clock a budget is CPU time, its deadline included: waiting does not spend
/// it. (The deadline was the wall clock's: a backend that waits several times as long as it
/// computes stopped after a fraction of its budget, the puzzle in progress unknown.)
#[test]
fn a_cpu_time_budget_is_not_spent_by_waiting() {
    let text = mixed_text();
    let config = Config {
        time_budget: Some(Duration::from_millis(40)),
        chunk_size: 4,
        clock: Clock::Cpu,
        ..Config::default()
    };
    let runner = Runner::new(
        config,
        vec![Backend::new("waiting", true, || {
            Sleeping(Duration::from_millis(10))
        })],
    );
    let set = runner
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap();
    let waiting = &set.backends[0];
    // The whole budget is billed (the wall clock's deadline billed 30 ms of it), and it
    // covers what 40 ms of CPU time solve: a dozen puzzles or more, in some 200 ms of
    // wall-clock time. (A machine that solves all 51 in 40 ms spends no budget.)
    if waiting.budget_spent {
        assert!(
            waiting.time >= Duration::from_millis(40),
            "{:?}",
            waiting.time
        );
    } else {
        assert_eq!(waiting.covered, 51);
    }
    assert!(waiting.covered >= 8, "{}", waiting.covered);
    // Only the puzzle the budget ran out on can be cut short.
    assert!(waiting.unknown <= 1, "{}", waiting.unknown);
}

/// Basic, claiming that every batch took it one second of solving (as an out-of-process
/// backend reports the time it measured itself).
struct SelfTimed;

impl Solver for SelfTimed {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        Basic::new(&Options::default()).solve(puzzle, limit)
    }
    fn solve_batch(&mut self, puzzles: &[Puzzle], limit: Limit, _: Clock) -> Batch {
        Batch {
            outcomes: puzzles.iter().map(|p| self.solve(p, limit)).collect(),
            time: Duration::from_secs(1),
            ..Batch::default()
        }
    }
}

#[test]
fn a_backend_that_times_itself_is_taken_at_its_word() {
    let text = mixed_text();
    let run = |time_budget| {
        let config = Config {
            time_budget,
            ..Config::default()
        };
        Runner::new(
            config,
            vec![basic(), Backend::new("self-timed", true, || SelfTimed)],
        )
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap()
    };
    // A second per batch means batches of one puzzle: 51 seconds for 51 puzzles, whatever
    // the wall clock said.
    let all = run(None);
    assert_eq!(all.backends[1].covered, 51);
    assert_eq!(all.backends[1].time, Duration::from_secs(51));
    assert_eq!(all.mismatch_total, 0);
    // The budget counts the same seconds: 2.5 s are spent after the third puzzle.
    let budget = run(Some(Duration::from_millis(2500)));
    assert_eq!(budget.backends[1].covered, 3);
    assert_eq!(budget.backends[1].time, Duration::from_secs(3));
    assert!(budget.backends[1].budget_spent);
    assert!(!budget.backends[0].budget_spent);
}

#[test]
fn parse_errors_are_counted_and_reading_goes_on() {
    let text = format!("# c\n{PUZZLE}\n12345\n{}x\n{PUZZLE}\n", &PUZZLE[..80]);
    let errors = Arc::new(Mutex::new(Vec::new()));
    struct E(Arc<Mutex<Vec<u64>>>);
    impl Observer for E {
        fn parse_error(&mut self, e: &sudobench::format::ParseError) {
            self.0.lock().unwrap().push(e.line);
        }
    }
    let set = Runner::new(Config::default(), vec![basic()])
        .run_items("e", reader(&text), None, &mut E(errors.clone()))
        .unwrap();
    assert_eq!((set.records, set.parse_errors), (2, 2));
    assert_eq!(*errors.lock().unwrap(), vec![3, 4]);
    assert_eq!(set.backends[0].unique, 2);
    let expected: Grid = SOLVED.parse().unwrap();
    let one = Runner::new(Config::default(), vec![basic()]);
    struct S(Option<Grid>);
    impl Observer for S {
        fn puzzle(&mut self, _: &Record, answers: &[Option<Outcome>], _: Option<&Mismatch>) {
            self.0 = answers[0].as_ref().and_then(|o| o.solution()).copied();
        }
    }
    let mut s = S(None);
    one.run_items("e", reader(&text), None, &mut s).unwrap();
    assert_eq!(s.0, Some(expected));
}

/// Claims "no solution" for every puzzle.
struct ClaimsNone;

impl Solver for ClaimsNone {
    fn solve(&mut self, _: &Puzzle, _: Limit) -> Outcome {
        Outcome::none(Stats::default())
    }
}

/// Answers like basic, but claims a second solution (without showing one) when there is one.
struct ClaimsTwo;

impl Solver for ClaimsTwo {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let o = Basic::new(&Options::default()).solve(puzzle, limit);
        match (o.solution().copied(), o.is_unknown()) {
            (Some(first), false) => {
                Outcome::claimed(2, limit, Some(first), None, *o.stats()).unwrap_or(o)
            }
            _ => o,
        }
    }
}

/// Liars beside a correct backend, in every order: the correct one is never blamed, each liar
/// is blamed on exactly the puzzles it lied on, whatever the majority.
#[test]
fn liars_in_any_number_and_order_never_outvote_the_evidence() {
    // Of the 51 puzzles: 40 unique, 10 with 2+, 1 without a solution.
    let lies_of = |name: &str| match name {
        "claims-none" => 50,
        "claims-two" => 40,
        _ => 0,
    };
    let make = |name: &str| match name {
        "claims-none" => Backend::new("claims-none", true, || ClaimsNone),
        "claims-two" => Backend::new("claims-two", true, || ClaimsTwo),
        _ => Backend::builtin("bitmask", &Options::default()).unwrap(),
    };
    let lineups: [&[&str]; 4] = [
        &["claims-none", "bitmask"],
        &["claims-two", "bitmask"],
        &["claims-none", "claims-none", "bitmask"],
        &["claims-none", "claims-two", "bitmask"],
    ];
    for lineup in lineups {
        for rotation in 0..lineup.len() {
            let mut names = lineup.to_vec();
            names.rotate_left(rotation);
            let backends = names.iter().map(|n| make(n)).collect();
            let runner = Runner::new(Config::default(), backends);
            let set = run_mixed(&runner, &mut NoObserver);
            for (b, name) in set.backends.iter().zip(&names) {
                assert_eq!(b.mismatches, lies_of(name), "{name} in {names:?}");
            }
            assert_eq!(set.unsettled, 0, "{names:?}");
            for m in &set.mismatches {
                assert!(!m.blamed.iter().any(|b| b == "bitmask"), "{m}");
            }
        }
    }
}

/// A backend that reports no guesses gets no guess figures, not a made-up 100 % and 0.
#[test]
fn backends_without_guess_counts_get_no_guess_figures() {
    let text = mixed_text();
    let runner = Runner::new(
        Config::default(),
        vec![Backend::new("claims-two", true, || ClaimsTwo), basic()],
    );
    let set = run_mixed(&runner, &mut NoObserver);
    // ClaimsTwo passes basic's counters on for the puzzles it solves, and none for the rest.
    let none = Backend::new("claims-none", true, || ClaimsNone);
    let set_none = Runner::new(Config::default(), vec![none])
        .run_items("mixed.txt", reader(&text), None, &mut NoObserver)
        .unwrap();
    assert_eq!(set_none.backends[0].guesses_per_puzzle(), None);
    assert_eq!(set_none.backends[0].no_guess_percent(), None);
    let json = report::json_lines(std::slice::from_ref(&set_none), &Config::default());
    assert!(json.contains("\"guesses_per_puzzle\":null"), "{json}");
    assert!(set.backends[1].guesses_per_puzzle().is_some());
}

/// Basic, but claiming 2^62 guesses for every puzzle.
struct Guessy;

impl Solver for Guessy {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let o = Basic::new(&Options::default()).solve(puzzle, limit);
        let stats = Stats {
            guesses: Some(1 << 62),
            ..Stats::default()
        };
        match (o.count(), o.solution()) {
            (Count::Exactly(1), Some(s)) => Outcome::one(*s, limit, stats),
            _ => o,
        }
    }
}

#[test]
fn huge_counters_do_not_wrap() {
    let text = data_lines("puzzles3_magictour_top1465.gz", 40).join("\n") + "\n";
    let runner = Runner::new(
        Config::default(),
        vec![Backend::new("guessy", true, || Guessy)],
    );
    let set = runner
        .run_items("m", reader(&text), None, &mut NoObserver)
        .unwrap();
    let b = &set.backends[0];
    // 40 unique puzzles, each of 2^62 guesses: the sum is far beyond u64, the mean is exact.
    assert_eq!(b.guess_reports, 40);
    assert_eq!(b.guesses_per_puzzle(), Some((1u64 << 62) as f64));
    assert_eq!(
        b.stats.guesses,
        Some(u64::MAX),
        "the summed counter saturates"
    );
}
