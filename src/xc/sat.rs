//! Exact cover with colours as CNF, solved by any of the suite's SAT engines (varisat for
//! `sat`, batsat for `sat-batsat`, CaDiCaL for `sat-cadical`: the [`Engine`]s of the Sudoku
//! backends); solutions are enumerated by adding, after each, a clause that blocks it.
//!
//! - One variable per option (true: chosen).
//! - Per primary item: one clause "at least one of its options", and at most one of them.
//! - Per secondary item: one variable per colour it takes in some option, implied by each
//!   option that gives it that colour; at most one of {its uncoloured options, its colour
//!   variables}. So options agreeing on a colour may share the item, an uncoloured use
//!   excludes every other, and two colours exclude each other.
//! - At most one: pairwise clauses for up to [`PAIRWISE_MAX`] literals, Sinz's sequential
//!   counter (n − 1 auxiliary variables, 3n − 4 clauses) beyond.
//! - Blocking clause after a solution: "not all of these options" (no proper superset of a
//!   cover is a cover, since every option has a primary item, so each cover is found once).
//!
//! - Cubes: the enumeration runs under assumptions, one cube of options at a time (the
//!   nodes of the first levels of an exact-cover search, about a thousand of them), so each
//!   call and each refutation that closes a cube stays local.
//!
//! `nodes` counts solver calls (one per solution, and one per cube that finds no more); the
//! node budget limits those calls. The engines get no budget inside one call.

use super::knuth::Instance;
use super::search::{Found, Tally};
use crate::sat_engine::{Engine, Session};
use varisat::Lit;

/// Groups up to this size get pairwise at-most-one clauses (at most 130,816 per group).
/// Pairwise beats the sequential counter on every bundled family, whose largest group is a
/// pentomino's 305 placements: 3×20 packing, Langford 8, 10 queens, hard squares 5 and Sudoku
/// 16×16 counted in 2.98 s (`sat`), 1.56 s (`sat-batsat`), 1.73 s (`sat-cadical`) against
/// 5.14, 3.03 and 2.86 s with the counter beyond 5 literals.
pub const PAIRWISE_MAX: usize = 512;

/// Writes "at most one of `lits`": pairwise clauses for up to `pairwise_max` literals, Sinz's
/// sequential counter beyond (`fresh` gives each of its n − 1 auxiliary literals). Shared by
/// every CNF the suite builds (exact cover here, Sudoku of every order in
/// `solver::sat::order_cnf`).
pub fn at_most_one_clauses(
    lits: &[Lit],
    pairwise_max: usize,
    mut fresh: impl FnMut() -> Lit,
    mut clause: impl FnMut(&[Lit]),
) {
    if lits.len() <= pairwise_max {
        for (k, &a) in lits.iter().enumerate() {
            for &b in &lits[k + 1..] {
                clause(&[!a, !b]);
            }
        }
        return;
    }
    // s[k]: some of lits[..=k] is true.
    let n = lits.len();
    let s: Vec<Lit> = (0..n - 1).map(|_| fresh()).collect();
    clause(&[!lits[0], s[0]]);
    for k in 1..n - 1 {
        clause(&[!lits[k], s[k]]);
        clause(&[!s[k - 1], s[k]]);
        clause(&[!lits[k], !s[k - 1]]);
    }
    clause(&[!lits[n - 1], !s[n - 2]]);
}

/// The literals [`at_most_one_clauses`] writes for a group of `n`: pairwise, n(n − 1); the
/// sequential counter, 2 + 6(n − 2) + 2.
fn at_most_one_literals(n: u64, pairwise_max: usize) -> u64 {
    if n <= pairwise_max as u64 {
        n * n.saturating_sub(1)
    } else {
        6 * n - 8
    }
}

/// The most literals a CNF of this backend may hold. Near it (28.6 million literals, 14.3
/// million binary clauses) a run took 0.3 GB (`sat`), 0.6 GB (`sat-batsat`) and 1.4 GB
/// (`sat-cadical`) at its peak. The bundled instances need at most 2.6 million (the 6×10
/// pentomino packing); a dense instance of 3,000 options of 3,000 items each would need 63
/// million, and took 4–6 GB before the first solver call when nothing refused it.
pub const MAX_LITERALS: u64 = 1 << 25;

/// Whether the CNF of `instance` (see the module docs) would hold more than
/// [`MAX_LITERALS`] literals (the SAT backends refuse such an instance).
pub fn too_large(instance: &Instance) -> bool {
    literals(instance) > MAX_LITERALS
}

/// The literals of the CNF of `instance`, counted without building it.
fn literals(instance: &Instance) -> u64 {
    // Per item: its uncoloured uses, and the colours it takes.
    let mut plain = vec![0u64; instance.items()];
    let mut colours: Vec<Vec<u32>> = vec![Vec::new(); instance.items()];
    let mut literals = 0u64;
    for option in &instance.options {
        for &(i, c) in option {
            if c == 0 {
                plain[i] += 1;
            } else {
                colours[i].push(c);
                // "this option gives item i colour c" implies the colour's variable.
                literals += 2;
            }
        }
    }
    for (i, mut seen) in colours.into_iter().enumerate() {
        seen.sort_unstable();
        seen.dedup();
        let group = plain[i] + seen.len() as u64;
        if i < instance.primary {
            literals += group;
        }
        literals += at_most_one_literals(group, PAIRWISE_MAX);
    }
    literals
}

/// An exact-cover instance as CNF (see the module docs): what the SAT backends solve, and what
/// `sudobench cnf` writes for an exact-cover file.
#[derive(Clone, Debug)]
pub struct Cnf {
    /// The variables used: the option variables first, in option order, then the others.
    pub vars: usize,
    /// The clauses' literals one after another (in one buffer: a `Vec` per clause took
    /// about 56 bytes per binary clause, most of the memory near [`MAX_LITERALS`]).
    lits: Vec<Lit>,
    /// Where each clause ends in `lits`.
    ends: Vec<u32>,
    /// The variables past the options that say "this secondary item has this colour", as
    /// (variable, item, colour), the colour an index into [`Instance::colours`] from 1; every
    /// other variable past the options belongs to a sequential counter.
    pub colour_vars: Vec<(usize, usize, u32)>,
}

impl Cnf {
    /// The clauses, in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(from, &to)| &self.lits[from as usize..to as usize])
    }

    /// How many clauses there are.
    pub fn num_clauses(&self) -> usize {
        self.ends.len()
    }

    fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len() as u32);
    }
}

/// The CNF of `instance`, or `None` when it would be [`too_large`].
pub fn cnf(instance: &Instance) -> Option<Cnf> {
    (!too_large(instance)).then(|| encode(instance))
}

/// A new variable after the `vars` in use.
fn fresh(vars: &mut usize) -> Lit {
    *vars += 1;
    Lit::from_index(*vars - 1, true)
}

/// The variable of option `o`, true when it is chosen.
fn option_lit(o: usize) -> Lit {
    Lit::from_index(o, true)
}

/// Encodes `instance` (see the module docs).
fn encode(instance: &Instance) -> Cnf {
    let mut vars = instance.options.len();
    let mut cnf = Cnf {
        vars: 0,
        lits: Vec::new(),
        ends: Vec::new(),
        colour_vars: Vec::new(),
    };
    let x = option_lit;
    // Per item: its uncoloured options, and its options per colour.
    let mut plain: Vec<Vec<Lit>> = vec![Vec::new(); instance.items()];
    let mut coloured: Vec<Vec<(u32, Lit)>> = vec![Vec::new(); instance.items()];
    for (o, option) in instance.options.iter().enumerate() {
        for &(i, c) in option {
            if c == 0 {
                plain[i].push(x(o));
            } else {
                coloured[i].push((c, x(o)));
            }
        }
    }
    for i in 0..instance.items() {
        let mut group = std::mem::take(&mut plain[i]);
        if i < instance.primary {
            cnf.push(&group);
        } else {
            let mut uses = std::mem::take(&mut coloured[i]);
            uses.sort_by_key(|&(c, _)| c);
            let mut k = 0;
            while k < uses.len() {
                let c = uses[k].0;
                let y = fresh(&mut vars);
                cnf.colour_vars.push((y.index(), i, c));
                while k < uses.len() && uses[k].0 == c {
                    cnf.push(&[!uses[k].1, y]);
                    k += 1;
                }
                group.push(y);
            }
        }
        at_most_one_clauses(
            &group,
            PAIRWISE_MAX,
            || fresh(&mut vars),
            |clause| cnf.push(clause),
        );
    }
    cnf.vars = vars;
    cnf
}

/// Cubes are split further while there are fewer than this many …
const CUBES: usize = 1000;

/// … and for at most this many levels.
const CUBE_LEVELS: usize = 4;

/// The options still open beside a partial cover (`chosen`), grouped by primary item: an
/// option is open when its primary items are uncovered and each of its secondary items is
/// unused, or used only with the colour it gives (both coloured). Also which primary items
/// `chosen` covers.
fn open_options(instance: &Instance, chosen: &[usize]) -> (Vec<Vec<usize>>, Vec<bool>) {
    // Per item: unused (None), used without a colour (Some(0)), or used with colour c.
    let mut used: Vec<Option<u32>> = vec![None; instance.items()];
    for &o in chosen {
        for &(i, c) in &instance.options[o] {
            used[i] = Some(c);
        }
    }
    let mut open: Vec<Vec<usize>> = vec![Vec::new(); instance.primary];
    for (o, option) in instance.options.iter().enumerate() {
        let fits = option.iter().all(|&(i, c)| match used[i] {
            None => true,
            Some(u) => i >= instance.primary && c != 0 && u == c,
        });
        if fits {
            for &(i, _) in option.iter().filter(|&&(i, _)| i < instance.primary) {
                open[i].push(o);
            }
        }
    }
    let covered = (0..instance.primary).map(|i| used[i].is_some()).collect();
    (open, covered)
}

/// The cubes the enumeration runs in, each a list of options assumed chosen. They are the
/// nodes of an exact-cover search (Algorithm X: branch on the uncovered primary item with
/// fewest open options, the first on ties), expanded a level at a time until there are at
/// least [`CUBES`] of them, or [`CUBE_LEVELS`] levels, or none can be split. A node that covers every primary item, or
/// has one with no open option, is a cube as it is: the solver confirms or refutes it (the
/// splitting decides nothing). At every node the branching item's options split the
/// solutions below it, so the cubes partition the solutions: each is found in exactly one
/// cube. Small cubes keep each solver call, and the refutation that closes each cube, local —
/// what makes counting thousands of solutions feasible where one global enumeration is not.
fn cubes(instance: &Instance) -> Vec<Vec<usize>> {
    // Each cube, and whether it can still be split.
    let mut cubes: Vec<(Vec<usize>, bool)> = vec![(Vec::new(), true)];
    for _ in 0..CUBE_LEVELS {
        if cubes.len() >= CUBES || !cubes.iter().any(|c| c.1) {
            break;
        }
        let mut next = Vec::with_capacity(cubes.len());
        for (cube, open) in cubes {
            if !open {
                next.push((cube, false));
                continue;
            }
            let (options, covered) = open_options(instance, &cube);
            let item = (0..instance.primary)
                .filter(|&i| !covered[i])
                .min_by_key(|&i| (options[i].len(), i));
            match item {
                Some(item) if !options[item].is_empty() => {
                    for &o in &options[item] {
                        let mut c = cube.clone();
                        c.push(o);
                        next.push((c, true));
                    }
                }
                _ => next.push((cube, false)),
            }
        }
        cubes = next;
    }
    cubes.into_iter().map(|c| c.0).collect()
}

/// Searches `instance` with `engine` as the tally asks (its nodes are solver calls), showing
/// it each solution (option indices in increasing order). The solutions are enumerated cube
/// by cube, with blocking clauses, under assumptions.
pub fn search<E: Engine>(engine: &mut E, instance: &Instance, mut t: Tally) -> Found {
    let cnf = encode(instance);
    let flip = engine.decides_false_first();
    let lit = |l: Lit| if flip { !l } else { l };
    let mut session = engine.session(cnf.vars);
    let mut scratch: Vec<Lit> = Vec::new();
    for (i, clause) in cnf.clauses().enumerate() {
        // Past the deadline the rest is not loaded: `count_call` reads it before any call,
        // so a formula cut short is never solved.
        if crate::deadline::due_loading(i) {
            break;
        }
        scratch.clear();
        scratch.extend(clause.iter().map(|&l| lit(l)));
        session.add_clause(&scratch);
    }
    let options = instance.options.len();
    let mut chosen = Vec::new();
    'cubes: for cube in cubes(instance) {
        let assumed: Vec<Lit> = cube.iter().map(|&o| lit(option_lit(o))).collect();
        loop {
            if !t.count_call() {
                break 'cubes;
            }
            match session.solve_under(&assumed) {
                Some(true) => {}
                Some(false) => break,
                None => {
                    t.found.complete = false;
                    break 'cubes;
                }
            }
            chosen.clear();
            chosen.extend((0..options).filter(|&o| session.value(o).is_some_and(|v| v != flip)));
            if t.count_solution(&chosen) {
                break 'cubes;
            }
            scratch.clear();
            scratch.extend(chosen.iter().map(|&o| !lit(option_lit(o))));
            session.add_clause(&scratch);
        }
    }
    t.found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The literal count that decides [`too_large`] is the size of the CNF [`encode`]
    /// writes: on every bundled instance (colours included) and on groups past
    /// [`PAIRWISE_MAX`], where the sequential counter takes over.
    #[test]
    fn the_literals_counted_are_those_encoded() {
        let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xc"))
            .expect("data/xc")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        let mut instances: Vec<Instance> = files
            .iter()
            .map(|f| Instance::read_path(f.to_str().unwrap()).expect("bundled instance"))
            .collect();
        // One primary item in 600 options, a secondary item in 600 options of 3 colours.
        let mut text = String::from("a b0 | s\n");
        for k in 0..600 {
            text += &format!("a s:c{}\n", k % 3);
        }
        text += "b0 s\n";
        instances.push(Instance::parse("wide.dlx", text.as_bytes()).expect("test instance"));
        assert!(instances.len() >= 10);
        for inst in &instances {
            let encoded: usize = encode(inst).clauses().map(<[Lit]>::len).sum();
            assert_eq!(literals(inst), encoded as u64, "{}", inst.source);
            assert!(!too_large(inst), "{}", inst.source);
        }
    }
}
