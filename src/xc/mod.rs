//! Exact cover at large: instances in Knuth's format, the classic families, and several
//! solvers for exact cover with colours (XCC), each checked by an independent verifier.
//!
//! - [`knuth`]: the reader for Knuth's DLX format (plain or gzip) and the [`Instance`] type;
//! - [`check`]: the independent verifier of a solution (a list of option indices);
//! - [`dlx`]: Algorithm C with Dancing Links (Knuth's DLX2: commit and purify on colour);
//! - [`basic`]: a plain Algorithm X over sets without links, the oracle the others answer to;
//! - [`sat`]: exact cover as CNF, solved and enumerated with blocking clauses by varisat
//!   (`sat`), batsat (`sat-batsat`) or CaDiCaL (`sat-cadical`);
//! - [`families`]: generators of the classic instance families with their known counts.
//!
//! Every solver takes a [`Limit`] (up to N solutions, or all) and a node budget, and returns a
//! [`Found`]: the count, whether the search finished, its work counters and the first
//! solutions.

pub mod array;
pub mod basic;
pub mod check;
pub mod dlx;
pub mod families;
pub mod knuth;
pub mod order;
pub mod sat;
mod search;

pub use knuth::{Instance, KnuthError};
pub use search::{Found, Limit, Tally};

/// The exact-cover backends, by name.
pub const BACKENDS: &[(&str, &str)] = &[
    (
        "dlx",
        "Dancing Links with colours (Knuth's Algorithm C / DLX2), MRV",
    ),
    (
        "dlx1",
        "the Sudoku suite's tuned Dancing Links engine (Algorithm X, DLX1 layout); no colours",
    ),
    (
        "dlx-array",
        "Algorithm X without links: available options as a bit set, per-item counts; colours",
    ),
    (
        "basic",
        "plain Algorithm X over sets, no links, MRV (the oracle)",
    ),
    (
        "sat",
        "varisat on a CNF (pairwise at-most-one), blocking clauses, cube by cube",
    ),
    ("sat-batsat", "batsat on the same CNF, blocking clauses"),
    #[cfg(feature = "cadical")]
    ("sat-cadical", "CaDiCaL on the same CNF, blocking clauses"),
];

/// Why a backend cannot run an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// `dlx1`, the Sudoku suite's engine, has no colours.
    Colours,
    /// `dlx-array`'s conflict lists would pass [`array::MAX_CONFLICTS`] entries.
    ConflictLists,
    /// The SAT backends' CNF would pass [`sat::MAX_LITERALS`] literals.
    Cnf,
}

impl Unsupported {
    /// A few words for a table cell (`bench`'s check column).
    pub fn label(self) -> &'static str {
        match self {
            Unsupported::Colours => "no colours",
            Unsupported::ConflictLists => "conflict lists too large",
            Unsupported::Cnf => "CNF too large",
        }
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unsupported::Colours => "backend dlx1 takes no colours (use dlx)",
            Unsupported::ConflictLists => {
                "backend dlx-array: the conflict lists would be too large (use dlx)"
            }
            Unsupported::Cnf => "the SAT backends: the CNF would be too large (use dlx)",
        })
    }
}

/// Why backend `name` cannot run `instance`, if it cannot: `dlx1` has no colours, and
/// `dlx-array` and the SAT backends bound the size of what they build.
pub fn unsupported(name: &str, instance: &Instance) -> Option<Unsupported> {
    let coloured = || instance.options.iter().flatten().any(|&(_, c)| c > 0);
    match name {
        "dlx1" if coloured() => Some(Unsupported::Colours),
        "dlx-array" if array::too_large(instance) => Some(Unsupported::ConflictLists),
        "sat" | "sat-batsat" | "sat-cadical" if sat::too_large(instance) => Some(Unsupported::Cnf),
        _ => None,
    }
}

/// Runs `instance` on the Sudoku suite's engine, [`crate::exact_cover::ExactCover`]
/// (colours ignored: call only when [`unsupported`] allows).
fn dlx1(instance: &Instance, t: Tally) -> Found {
    let built = (|| {
        let mut ec = crate::exact_cover::ExactCover::new(
            instance.primary,
            instance.items() - instance.primary,
        )?;
        let mut items = Vec::new();
        for option in &instance.options {
            items.clear();
            items.extend(option.iter().map(|&(i, _)| i));
            ec.add_option(&items)?;
        }
        Ok::<_, crate::exact_cover::ExactCoverError>(ec)
    })();
    let Ok(mut ec) = built else {
        // Too large for 32-bit links (the reader caps sizes below that).
        return Found::default();
    };
    let n = match t.limit {
        Limit::All => u64::MAX,
        Limit::AtMost(n) => n,
    };
    let r = ec.search_each(n, t.max_nodes, |s| (t.visit)(s));
    Found {
        count: r.count,
        complete: r.complete,
        nodes: r.stats.nodes,
        updates: r.stats.updates,
        solutions: Vec::new(),
    }
}

/// Runs backend `name` on `instance`: up to `limit` solutions, at most `max_nodes` nodes,
/// calling `visit` with every solution found (option indices in increasing order) and keeping
/// the first `keep` of them in the result. `None` for an unknown backend name, or one that
/// cannot run this instance (see [`unsupported`]).
pub fn run(
    name: &str,
    instance: &Instance,
    limit: Limit,
    max_nodes: Option<u64>,
    keep: usize,
    visit: &mut dyn FnMut(&[usize]),
) -> Option<Found> {
    if unsupported(name, instance).is_some() {
        return None;
    }
    let mut kept = Vec::new();
    let mut each = |s: &[usize]| {
        let mut s = s.to_vec();
        s.sort_unstable();
        visit(&s);
        if kept.len() < keep {
            kept.push(s);
        }
    };
    let t = Tally::new(limit, max_nodes, &mut each);
    let mut found = match name {
        "dlx" => dlx::Dlx::new(instance).search_with(t),
        "dlx1" => dlx1(instance, t),
        "dlx-array" => array::search(instance, t),
        "basic" => basic::search(instance, t),
        "sat" => sat::search(&mut crate::sat_engine::Varisat, instance, t),
        "sat-batsat" => sat::search(&mut crate::sat_engine::batsat::Batsat, instance, t),
        #[cfg(feature = "cadical")]
        "sat-cadical" => sat::search(&mut crate::sat_engine::cadical::Cadical, instance, t),
        _ => return None,
    };
    found.solutions = kept;
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every exact-cover backend, from the registry itself.
    fn all_names() -> Vec<&'static str> {
        BACKENDS.iter().map(|(n, _)| *n).collect()
    }

    /// The backends that take `inst` (all but `dlx1` when it has colours).
    fn names(inst: &Instance) -> Vec<&'static str> {
        all_names()
            .into_iter()
            .filter(|n| unsupported(n, inst).is_none())
            .collect()
    }

    #[test]
    fn dlx1_refuses_colours_only() {
        let coloured = parse("a | x\na x:A\n");
        assert!(unsupported("dlx1", &coloured).is_some());
        assert!(run("dlx1", &coloured, Limit::All, None, 0, &mut |_| {}).is_none());
        let plain = parse("a | x\na x\n");
        assert_eq!(names(&plain), all_names());
        let mut want = all_names();
        want.retain(|n| *n != "dlx1");
        assert_eq!(names(&coloured), want);
    }

    fn parse(text: &str) -> Instance {
        Instance::parse("t.dlx", text.as_bytes()).unwrap()
    }

    /// Every backend's solutions, each checked by the verifier, sorted.
    fn all(name: &str, inst: &Instance) -> Vec<Vec<usize>> {
        let mut seen = Vec::new();
        let f = run(name, inst, Limit::All, None, 0, &mut |s| {
            check::check(inst, s).unwrap_or_else(|e| panic!("{name}: {e}"));
            seen.push(s.to_vec());
        })
        .unwrap();
        assert!(f.complete);
        assert_eq!(f.count, seen.len() as u64);
        seen.sort();
        seen
    }

    /// Every subset of the options that the verifier accepts.
    fn brute(inst: &Instance) -> Vec<Vec<usize>> {
        let n = inst.options.len();
        assert!(n <= 16);
        let mut out = Vec::new();
        for mask in 0u32..1 << n {
            let s: Vec<usize> = (0..n).filter(|&o| mask >> o & 1 == 1).collect();
            if check::check(inst, &s).is_ok() {
                out.push(s);
            }
        }
        out.sort();
        out
    }

    #[test]
    fn knuths_xcc_example() {
        let inst = parse("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n");
        for name in names(&inst) {
            assert_eq!(all(name, &inst), vec![vec![1, 3]], "{name}");
        }
    }

    use crate::test_puzzles::Xorshift;

    #[test]
    fn random_instances_agree_with_brute_force() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut nonzero = 0;
        for round in 0..300 {
            let primary = 1 + rng.below(5) as usize;
            let secondary = rng.below(4) as usize;
            let items = primary + secondary;
            let mut text = (0..primary)
                .map(|i| format!("p{i}"))
                .collect::<Vec<_>>()
                .join(" ");
            if secondary > 0 {
                text.push_str(" | ");
                text.push_str(
                    &(0..secondary)
                        .map(|i| format!("s{i}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
            text.push('\n');
            let options = 1 + rng.below(14);
            for _ in 0..options {
                let mut words = vec![format!("p{}", rng.below(primary as u64))];
                for i in 0..items {
                    if rng.below(3) == 0 {
                        let w = if i < primary {
                            format!("p{i}")
                        } else if rng.below(2) == 0 {
                            format!("s{}", i - primary)
                        } else {
                            format!("s{}:{}", i - primary, rng.below(2))
                        };
                        let name = w.split(':').next().unwrap_or("").to_string();
                        if !words.iter().any(|x| x.split(':').next() == Some(&name)) {
                            words.push(w);
                        }
                    }
                }
                text.push_str(&words.join(" "));
                text.push('\n');
            }
            let Ok(inst) = Instance::parse("r.dlx", text.as_bytes()) else {
                continue; // a primary item in no option
            };
            let want = brute(&inst);
            nonzero += usize::from(!want.is_empty());
            for name in names(&inst) {
                assert_eq!(all(name, &inst), want, "round {round}, {name}:\n{text}");
            }
        }
        assert!(nonzero > 50, "only {nonzero} instances had solutions");
    }

    #[test]
    fn families_reproduce_their_counts() {
        let mut texts = Vec::new();
        for n in 1..=8 {
            texts.push(families::queens(n));
        }
        for n in 2..=8 {
            texts.push(families::langford(n));
        }
        for (m, n) in [(1, 1), (2, 2), (3, 3), (2, 5), (4, 3)] {
            texts.push(families::hard_squares(m, n));
        }
        for text in texts {
            let inst = parse(&text);
            let want = inst.expected.expect("a count comment");
            for name in names(&inst) {
                if name.starts_with("sat") && want > 500 {
                    continue;
                }
                let f = run(name, &inst, Limit::All, None, 0, &mut |s| {
                    check::check(&inst, s).unwrap()
                })
                .unwrap();
                assert_eq!(f.count, want, "{name} on {}", text.lines().next().unwrap());
            }
        }
    }

    /// `dlx-array` keeps one set of counts, restored on the way back, when an instance has
    /// more than 256 primary items (fewer: a copy per level); colours on both paths.
    #[test]
    fn dlx_array_counts_alike_with_many_primary_items() {
        let small = families::hard_squares(3, 4);
        let mut lines = small.lines().filter(|l| !l.starts_with('|'));
        let header = lines.next().unwrap();
        let (primary, secondary) = header.split_once(" | ").unwrap();
        // 300 more primary items, each with one option of its own that colours the first
        // cell 1: the solutions are the grid's with that cell 1.
        let extra: Vec<String> = (0..300).map(|k| format!("e{k}")).collect();
        let mut text = format!("{primary} {} | {secondary}\n", extra.join(" "));
        let cell = secondary.split(' ').next().unwrap();
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        for e in &extra {
            text.push_str(&format!("{e} {cell}:1\n"));
        }
        let plain = parse(&small);
        let many = parse(&text);
        assert!(many.primary > 256);
        let want = plain.expected.unwrap();
        for inst in [&plain, &many] {
            let f = run("dlx-array", inst, Limit::All, None, 0, &mut |s| {
                check::check(inst, s).unwrap()
            })
            .unwrap();
            let d = run("dlx", inst, Limit::All, None, 0, &mut |_| {}).unwrap();
            assert_eq!((f.count, f.nodes), (d.count, d.nodes), "{}", inst.primary);
            if inst.primary > 256 {
                assert!(0 < d.count && d.count < want, "{}", d.count);
            } else {
                assert_eq!(d.count, want);
            }
        }
    }

    #[test]
    fn hard_squares_counts_match_a006506_and_brute_force() {
        let a006506 = [2u128, 7, 63, 1234, 55447, 5598861];
        for (k, &want) in a006506.iter().enumerate() {
            assert_eq!(families::hard_squares_count(k + 1, k + 1), Some(want));
        }
        // Brute force over all 0/1 matrices of a few shapes.
        for (m, n) in [(2, 3), (3, 4), (4, 4), (1, 7)] {
            let mut count = 0;
            for bits in 0u32..1 << (m * n) {
                let at = |r: usize, c: usize| bits >> (r * n + c) & 1 == 1;
                let ok = (0..m).all(|r| {
                    (0..n).all(|c| {
                        !(at(r, c) && ((c + 1 < n && at(r, c + 1)) || (r + 1 < m && at(r + 1, c))))
                    })
                });
                count += u128::from(ok);
            }
            assert_eq!(families::hard_squares_count(m, n), Some(count), "{m}x{n}");
        }
    }

    #[test]
    fn pentominoes_have_63_orientations() {
        let counts: Vec<usize> = families::PENTOMINOES
            .iter()
            .map(|(_, s)| families::orientations(s).len())
            .collect();
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    }

    #[test]
    fn sudoku_as_exact_cover() {
        let inst = parse(&families::sudoku(crate::test_puzzles::HARD).unwrap());
        assert_eq!(inst.expected, Some(1));
        assert_eq!(inst.primary, 324);
        for name in names(&inst) {
            let f = run(name, &inst, Limit::All, None, 1, &mut |s| {
                check::check(&inst, s).unwrap()
            })
            .unwrap();
            assert_eq!(f.count, 1, "{name}");
            // The solution is the known one.
            let mut grid = [b'0'; 81];
            for &o in &f.solutions[0] {
                let words: Vec<char> = inst.option_text(o).chars().collect();
                let r = words[1].to_digit(10).unwrap() as usize;
                let c = words[2].to_digit(10).unwrap() as usize;
                grid[r * 9 + c] = words[6] as u8;
            }
            assert_eq!(
                std::str::from_utf8(&grid).unwrap(),
                crate::test_puzzles::HARD_SOLUTION
            );
        }
        assert!(families::sudoku("123").is_err());
    }

    #[test]
    fn limits_and_budgets() {
        let inst = parse(&families::queens(8));
        for name in names(&inst) {
            let f = run(name, &inst, Limit::AtMost(3), None, 5, &mut |_| {}).unwrap();
            assert_eq!(
                (f.count, f.complete, f.solutions.len()),
                (3, true, 3),
                "{name}"
            );
            assert!(f.limited(Limit::AtMost(3)));
            let f = run(name, &inst, Limit::All, Some(5), 0, &mut |_| {}).unwrap();
            assert!(!f.complete, "{name}");
            assert!(f.count < 92);
            assert!(f.nodes <= 6, "{name}: {}", f.nodes);
        }
        // The DLX structure is restored after a search: a second search finds the same.
        let mut d = dlx::Dlx::new(&inst);
        let a = d.search(Limit::All, None, &mut |_| {});
        let b = d.search(Limit::All, None, &mut |_| {});
        assert_eq!(a, b);
        assert_eq!(a.count, 92);
        assert!(a.updates > 0);
    }

    /// Mangled instances (bytes flipped, dropped, duplicated, lines cut) never panic the
    /// reader; those it accepts are searched by every backend within a small budget, and every
    /// solution found passes the verifier.
    #[test]
    fn mangled_input_never_panics() {
        let seeds = [
            families::queens(5),
            families::langford(4),
            families::hard_squares(2, 3),
            "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n".to_string(),
        ];
        let alphabet = b" \n\r\t|:#abcpqrxy01AB\xff\xc3";
        let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
        let (mut accepted, mut rejected) = (0, 0);
        for round in 0..2000 {
            let mut bytes = seeds[round % seeds.len()].clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.below(bytes.len() as u64) as usize;
                match rng.below(4) {
                    0 => bytes[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                    1 => {
                        bytes.remove(at);
                    }
                    2 => bytes.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
                    _ => bytes.truncate(at),
                }
            }
            match Instance::parse("m.dlx", &bytes) {
                Err(e) => {
                    rejected += 1;
                    assert!(e.to_string().starts_with("m.dlx:"), "{e}");
                }
                Ok(inst) => {
                    accepted += 1;
                    for name in names(&inst) {
                        run(name, &inst, Limit::AtMost(5), Some(200), 0, &mut |s| {
                            check::check(&inst, s).unwrap_or_else(|e| panic!("{name}: {e}"))
                        })
                        .unwrap();
                    }
                }
            }
        }
        assert!(
            accepted > 100 && rejected > 100,
            "{accepted} accepted, {rejected} rejected"
        );
    }

    #[test]
    fn unknown_backend_is_none() {
        let inst = parse("a\na\n");
        assert!(run("nope", &inst, Limit::All, None, 0, &mut |_| {}).is_none());
    }
}
