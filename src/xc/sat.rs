//! Exact cover with colours as CNF, solved with varisat; solutions are enumerated by adding,
//! after each, a clause that blocks it.
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
//! node budget limits those calls. varisat offers no budget inside one call.

use super::{Found, Instance, Tally};
use varisat::{ExtendFormula, Lit, Solver};

/// Groups up to this size get pairwise at-most-one clauses.
pub const PAIRWISE_MAX: usize = 5;

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

/// Adds "at most one of `lits`" to `solver`.
fn at_most_one(solver: &mut Solver, lits: &[Lit]) {
    // Both callbacks reach the solver; neither runs while the other does.
    let solver = std::cell::RefCell::new(solver);
    at_most_one_clauses(
        lits,
        PAIRWISE_MAX,
        || solver.borrow_mut().new_lit(),
        |clause| solver.borrow_mut().add_clause(clause),
    );
}

/// Builds the CNF of `instance` in a new solver; returns it with the option variables.
fn encode(instance: &Instance) -> (Solver<'static>, Vec<Lit>) {
    let mut solver = Solver::new();
    let x: Vec<Lit> = (0..instance.options.len())
        .map(|_| solver.new_lit())
        .collect();
    // Per item: its uncoloured options, and its options per colour.
    let mut plain: Vec<Vec<Lit>> = vec![Vec::new(); instance.items()];
    let mut coloured: Vec<Vec<(u32, Lit)>> = vec![Vec::new(); instance.items()];
    for (o, option) in instance.options.iter().enumerate() {
        for &(i, c) in option {
            if c == 0 {
                plain[i].push(x[o]);
            } else {
                coloured[i].push((c, x[o]));
            }
        }
    }
    for i in 0..instance.items() {
        let mut group = std::mem::take(&mut plain[i]);
        if i < instance.primary {
            solver.add_clause(&group);
        } else {
            let mut uses = std::mem::take(&mut coloured[i]);
            uses.sort_by_key(|&(c, _)| c);
            let mut k = 0;
            while k < uses.len() {
                let c = uses[k].0;
                let y = solver.new_lit();
                while k < uses.len() && uses[k].0 == c {
                    solver.add_clause(&[!uses[k].1, y]);
                    k += 1;
                }
                group.push(y);
            }
        }
        at_most_one(&mut solver, &group);
    }
    (solver, x)
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

/// Searches `instance` as the tally asks (its nodes are solver calls), showing it each solution
/// (option indices in increasing order). The solutions are enumerated cube by cube, with
/// blocking clauses, under assumptions.
pub fn search(instance: &Instance, mut t: Tally) -> Found {
    let (mut solver, x) = encode(instance);
    let mut truth = vec![false; x.len()];
    let mut chosen = Vec::new();
    'cubes: for cube in cubes(instance) {
        let assumed: Vec<Lit> = cube.iter().map(|&o| x[o]).collect();
        loop {
            if !t.count_node() {
                break 'cubes;
            }
            solver.assume(&assumed);
            match solver.solve() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => {
                    t.found.complete = false;
                    break 'cubes;
                }
            }
            let Some(model) = solver.model() else {
                t.found.complete = false;
                break 'cubes;
            };
            truth.iter_mut().for_each(|t| *t = false);
            for lit in model {
                if let Some(t) = truth.get_mut(lit.index()) {
                    *t = lit.is_positive();
                }
            }
            chosen.clear();
            chosen.extend((0..x.len()).filter(|&o| truth[o]));
            if t.count_solution(&chosen) {
                break 'cubes;
            }
            let block: Vec<Lit> = chosen.iter().map(|&o| !x[o]).collect();
            solver.add_clause(&block);
        }
    }
    t.found
}
