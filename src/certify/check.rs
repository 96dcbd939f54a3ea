//! The independent checker of certificates. It imports nothing from the rest of the crate
//! (only `std`): it reads the puzzle from its text, builds its own CNF, reads the claimed
//! solutions and the proof from their text, and decides.
//!
//! **The puzzle text** is a grid of order n (side s = n², n from 2 to 8) on one line, as
//! sudobench writes it: up to 25×25 one character per cell (`1`-`9`, then `A`-`Z`, for the
//! values 1…s; `.` or `0` for an empty cell), from 36×36 on s⁴ whitespace-separated numbers
//! (`0` empty); or a 9×9 pencilmark line of 729 characters (character `81·r + 9·c + d − 1` is
//! `d` if d is possible in cell r,c, `.` or `0` if not). A solution is written the same way,
//! without empty cells.
//!
//! **The formula** (Lynce & Ouaknine's extended encoding, built here from the puzzle text):
//! variable `s·cell + v` (cells 0…s²−1 in row-major order, values v in 1…s) means "the cell
//! holds v"; each cell holds at least one value and at most one; each row, column and box
//! holds each value at least once and at most once; each clue is a unit clause (each
//! pencilmark ruled out a negative one). It is satisfied exactly by the puzzle's solutions.
//! On 9×9 the variable of cell r,c (1-based) and digit d is `81·(r−1) + 9·(c−1) + d`.
//!
//! **A claim** is checked like this:
//! - `0` (no solution): the proof must refute the formula;
//! - `1` with solution S: S must be a complete grid whose rows, columns and boxes each hold
//!   every value once and that keeps every clue, and the proof must refute the formula plus
//!   the clause blocking S (the disjunction of "cell holds something else than S's value" over
//!   the cells the puzzle does not fix to one value, or over every cell if it fixes all): so S
//!   is the only solution;
//! - `2+` with S and T: both complete, valid, keeping the clues, and different.
//!
//! **The proof** is DRUP text (what DRAT checkers read, without deletions): one lemma per line,
//! literals as signed variable numbers, each line ending in `0`, and the last lemma the empty
//! clause (the line `0`). Every lemma must be implied by *reverse unit propagation* (RUP): the
//! negation of its literals, added to the formula and the lemmas before it, lets unit
//! propagation reach a conflict. Lines starting with `d` (deletions) and `c` (comments) are
//! read and ignored: keeping a clause that a proof deletes only makes propagation stronger,
//! and every kept clause is still implied by the formula, so ignoring deletions is sound.
//!
//! Propagation uses two watched literals for the long clauses ("at least one" and the proof's
//! lemmas). The "at most one" clauses of a group (a cell, or a house and a value) are the
//! pairs ¬a ∨ ¬b of its variables; rather than listing the s(s−1)/2 pairs of every group (33
//! million for 64×64), a variable that becomes true makes every other variable of its four
//! groups false, and a second true one is a conflict: exactly what unit propagation on the
//! pairs derives. The state reached by propagating the formula and the unit lemmas (the root)
//! is kept between lemmas. What the checker does not prove: that this encoding means Sudoku
//! (it is the textbook one, 50 lines below, easy to audit), nor anything about the program
//! that produced the proof.

use std::fmt;
use std::time::Instant;

/// The largest order read (64×64), and the largest variable number it has.
const MAX_N: usize = 8;
const MAX_VARS: usize = MAX_N * MAX_N * MAX_N * MAX_N * MAX_N * MAX_N;

/// Why a certificate is not accepted: every variant but [`Rejection::OutOfTime`] rejects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The puzzle text is not a grid of an order from 2 to 8 (nor a 9×9 pencilmark line).
    Puzzle(String),
    /// A claimed solution is not a valid solution of the puzzle.
    Solution(String),
    /// The proof is not well-formed text (1-based line).
    Syntax {
        /// The line of the proof.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// A lemma is not implied by unit propagation (1-based line of the proof).
    NotImplied {
        /// The line of the proof.
        line: usize,
    },
    /// The proof ends without deriving the empty clause.
    NoEmptyClause,
    /// The deadline (see [`Checker::set_deadline`]) passed before the proof was checked:
    /// no verdict, the certificate is neither accepted nor rejected (1-based line of the
    /// proof reached).
    OutOfTime {
        /// The line of the proof reached.
        line: usize,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Puzzle(why) => write!(f, "puzzle: {why}"),
            Rejection::Solution(why) => write!(f, "claimed solution: {why}"),
            Rejection::Syntax { line, what } => write!(f, "proof line {line}: {what}"),
            Rejection::NotImplied { line } => {
                write!(
                    f,
                    "proof line {line}: lemma not implied by unit propagation"
                )
            }
            Rejection::NoEmptyClause => f.write_str("proof ends without the empty clause"),
            Rejection::OutOfTime { line } => {
                write!(f, "check time limit reached at proof line {line}")
            }
        }
    }
}

impl std::error::Error for Rejection {}

/// What is claimed about a puzzle, with solutions as texts of the puzzle's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim<'a> {
    /// No solution; the proof refutes the formula.
    None,
    /// Exactly this solution; the proof refutes the formula with it blocked.
    Unique(&'a str),
    /// At least these two different solutions (no proof needed).
    Two(&'a str, &'a str),
}

/// Literal index of a DIMACS literal (nonzero): `2·(v−1)` positive, `2·(v−1) + 1` negative.
fn lit_index(dimacs: i32) -> usize {
    let v = dimacs.unsigned_abs() as usize - 1;
    2 * v + usize::from(dimacs < 0)
}

/// A grid read from its text: the order n and every cell's value (0 for empty).
struct Read {
    n: usize,
    values: Vec<u32>,
}

/// Reads a grid: characters (`1`-`9`, `A`-`Z`, `.`/`0` empty) of an order up to 5, or
/// whitespace-separated numbers of any order from 2 to 8. The cell count decides the order.
fn read_grid(text: &str) -> Result<Read, String> {
    let text = text.trim();
    let values: Vec<u32> = if text.contains(char::is_whitespace) {
        text.split_whitespace()
            .enumerate()
            .map(|(i, t)| {
                if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("number {} is {t:?}", i + 1));
                }
                Ok(t.bytes().fold(0, |n, b| 10 * n + u32::from(b - b'0')))
            })
            .collect::<Result<_, _>>()?
    } else {
        text.bytes()
            .enumerate()
            .map(|(i, b)| match b {
                b'.' | b'0' => Ok(0),
                b'1'..=b'9' => Ok(u32::from(b - b'0')),
                b'A'..=b'Z' => Ok(u32::from(b - b'A') + 10),
                _ => Err(format!("character {} is {:?}", i + 1, b as char)),
            })
            .collect::<Result<_, _>>()?
    };
    let n = (2..=MAX_N)
        .find(|&n| n * n * n * n == values.len())
        .ok_or_else(|| {
            format!(
                "{} cells, which is no order's n⁴ (16, 81, 256, 625, 1296, 2401, 4096)",
                values.len()
            )
        })?;
    let side = n * n;
    if let Some(i) = values.iter().position(|&v| v as usize > side) {
        return Err(format!("cell {} holds {}, above {side}", i + 1, values[i]));
    }
    Ok(Read { n, values })
}

/// The cells of the 3s houses of order `n` (rows, columns, boxes), computed here.
fn houses(n: usize) -> Vec<Vec<usize>> {
    let s = n * n;
    let mut houses = Vec::with_capacity(3 * s);
    for r in 0..s {
        houses.push((0..s).map(|c| s * r + c).collect());
    }
    for c in 0..s {
        houses.push((0..s).map(|r| s * r + c).collect());
    }
    for b in 0..s {
        let (r0, c0) = (n * (b / n), n * (b % n));
        houses.push((0..s).map(|k| s * (r0 + k / n) + c0 + k % n).collect());
    }
    houses
}

/// A puzzle as read from its text: its order, per cell the values allowed (`allowed[s·cell +
/// v − 1]`), and the unit clauses that say so.
struct Givens {
    n: usize,
    allowed: Vec<bool>,
    /// Clues: positive units; pencilmarks (729 characters): a negative unit per candidate
    /// ruled out.
    units: Vec<i32>,
}

impl Givens {
    fn side(&self) -> usize {
        self.n * self.n
    }

    /// The variable of `cell` holding `v` (1-based, DIMACS).
    fn var(&self, cell: usize, v: usize) -> i32 {
        (self.side() * cell + v) as i32
    }

    /// How many values the puzzle allows in `cell`.
    fn allowed_in(&self, cell: usize) -> usize {
        let s = self.side();
        self.allowed[s * cell..s * (cell + 1)]
            .iter()
            .filter(|&&a| a)
            .count()
    }
}

/// Reads a puzzle: a grid of any order (see [`read_grid`]), or a 9×9 pencilmark line of 729
/// characters.
fn read_puzzle(text: &str) -> Result<Givens, String> {
    let bytes = text.trim().as_bytes();
    if bytes.len() == 729 {
        let mut givens = Givens {
            n: 3,
            allowed: vec![true; 729],
            units: Vec::new(),
        };
        for (i, &b) in bytes.iter().enumerate() {
            let (cell, d) = (i / 9, i % 9 + 1);
            if b == b'0' + d as u8 {
                continue;
            }
            if b != b'.' && b != b'0' {
                return Err(format!("character {} is {:?}", i + 1, b as char));
            }
            givens.allowed[i] = false;
            givens.units.push(-givens.var(cell, d));
        }
        return Ok(givens);
    }
    let read = read_grid(text)?;
    let s = read.n * read.n;
    let mut givens = Givens {
        n: read.n,
        allowed: vec![true; s * s * s],
        units: Vec::new(),
    };
    for (cell, &v) in read.values.iter().enumerate() {
        if v != 0 {
            let v = v as usize;
            for w in 1..=s {
                givens.allowed[s * cell + w - 1] = w == v;
            }
            givens.units.push(givens.var(cell, v));
        }
    }
    Ok(givens)
}

/// Checks that `text` is a complete valid grid of the puzzle's order that the puzzle allows.
fn check_solution(givens: &Givens, text: &str) -> Result<Vec<u32>, Rejection> {
    let read = read_grid(text).map_err(Rejection::Solution)?;
    if read.n != givens.n {
        return Err(Rejection::Solution(format!(
            "a grid of side {}, the puzzle's side is {}",
            read.n * read.n,
            givens.side()
        )));
    }
    let s = givens.side();
    for (i, &v) in read.values.iter().enumerate() {
        if v == 0 {
            return Err(Rejection::Solution(format!("cell {} is empty", i + 1)));
        }
        if !givens.allowed[s * i + v as usize - 1] {
            return Err(Rejection::Solution(format!(
                "cell {} is {v}, which the puzzle rules out",
                i + 1
            )));
        }
    }
    for (h, house) in houses(givens.n).iter().enumerate() {
        let mut seen = vec![false; s + 1];
        for &cell in house {
            seen[read.values[cell] as usize] = true;
        }
        if !seen[1..].iter().all(|&x| x) {
            return Err(Rejection::Solution(format!(
                "house {} does not hold every value once",
                h + 1
            )));
        }
    }
    Ok(read.values)
}

/// A reusable checker (one per thread): the clauses that do not depend on the puzzle are built
/// once per order.
pub struct Checker {
    /// The order the fixed clauses are built for (0: none yet).
    n: usize,
    /// The variables of each "exactly one" group, one group after another (`side` each).
    members: Vec<u32>,
    /// For each variable (0-based): its four groups (its cell, and its value in its row,
    /// column and box).
    groups: Vec<[u32; 4]>,
    /// Literals of the long clauses, one after another.
    lits: Vec<u32>,
    /// Start and length of each long clause.
    clauses: Vec<(u32, u32)>,
    /// Long clauses that do not depend on the puzzle (the first ones).
    fixed: usize,
    /// For each literal: the long clauses watching it.
    watches: Vec<Vec<u32>>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// Assigned literals in order (true literals).
    trail: Vec<u32>,
    /// Trail length of the root (formula and unit lemmas).
    root: usize,
    /// Whether the root itself is in conflict (everything follows).
    refuted: bool,
    /// When to stop checking a proof without a verdict (`None`: never).
    deadline: Option<Instant>,
}

impl Default for Checker {
    fn default() -> Self {
        Checker::new()
    }
}

impl Checker {
    /// A checker; the clauses of an order are built when its first puzzle comes.
    pub fn new() -> Checker {
        Checker {
            n: 0,
            members: Vec::new(),
            groups: Vec::new(),
            lits: Vec::new(),
            clauses: Vec::new(),
            fixed: 0,
            watches: Vec::new(),
            value: Vec::new(),
            trail: Vec::new(),
            root: 0,
            refuted: false,
            deadline: None,
        }
    }

    /// Builds the puzzle-independent clauses of order `n`: per group, "at least one" as a long
    /// clause and "at most one" as the group's members.
    fn build(&mut self, n: usize) {
        let s = n * n;
        let vars = s * s * s;
        self.n = n;
        self.members.clear();
        self.groups = vec![[0; 4]; vars];
        self.lits.clear();
        self.clauses.clear();
        self.watches = vec![Vec::new(); 2 * vars];
        self.value = vec![0; vars];
        self.trail = Vec::with_capacity(vars);
        let var0 = |cell: usize, v: usize| s * cell + v - 1;
        let mut group = Vec::with_capacity(s);
        let add_group = |checker: &mut Checker, group: &[usize], slot: usize| {
            let id = (checker.members.len() / s) as u32;
            let start = checker.lits.len() as u32;
            for &x in group {
                checker.members.push(x as u32);
                checker.groups[x][slot] = id;
                checker.lits.push(2 * x as u32);
            }
            checker.clauses.push((start, s as u32));
        };
        for cell in 0..s * s {
            group.clear();
            group.extend((1..=s).map(|v| var0(cell, v)));
            add_group(self, &group, 0);
        }
        for (h, house) in houses(n).iter().enumerate() {
            for v in 1..=s {
                group.clear();
                group.extend(house.iter().map(|&cell| var0(cell, v)));
                add_group(self, &group, 1 + h / s);
            }
        }
        self.fixed = self.clauses.len();
    }

    /// Truth of a literal: 1 true, -1 false, 0 unassigned.
    fn truth(&self, lit: u32) -> i8 {
        let v = self.value[(lit >> 1) as usize];
        if lit & 1 == 0 {
            v
        } else {
            -v
        }
    }

    fn assign(&mut self, lit: u32) {
        self.value[(lit >> 1) as usize] = if lit & 1 == 0 { 1 } else { -1 };
        self.trail.push(lit);
    }

    /// Undoes every assignment above the root.
    fn backtrack(&mut self) {
        for &lit in &self.trail[self.root..] {
            self.value[(lit >> 1) as usize] = 0;
        }
        self.trail.truncate(self.root);
    }

    /// Propagates the trail from position `from`; false on a conflict.
    fn propagate(&mut self, mut from: usize) -> bool {
        let side = self.n * self.n;
        while from < self.trail.len() {
            let lit = self.trail[from];
            from += 1;
            if lit & 1 == 0 {
                // A variable made true: the other members of its groups false (at most one).
                let x = lit >> 1;
                for slot in 0..4 {
                    let g = self.groups[x as usize][slot] as usize;
                    for k in g * side..(g + 1) * side {
                        let y = self.members[k];
                        if y == x {
                            continue;
                        }
                        match self.value[y as usize] {
                            0 => self.assign(2 * y + 1),
                            1 => return false,
                            _ => {}
                        }
                    }
                }
            }
            let falsified = lit ^ 1;
            let mut watchers = std::mem::take(&mut self.watches[falsified as usize]);
            let mut keep = 0;
            let mut conflict = false;
            let mut i = 0;
            while i < watchers.len() {
                let c = watchers[i];
                i += 1;
                let (start, len) = self.clauses[c as usize];
                let (start, len) = (start as usize, len as usize);
                if self.lits[start] == falsified {
                    self.lits.swap(start, start + 1);
                }
                let first = self.lits[start];
                if self.truth(first) == 1 {
                    watchers[keep] = c;
                    keep += 1;
                    continue;
                }
                let mut moved = false;
                for j in start + 2..start + len {
                    if self.truth(self.lits[j]) != -1 {
                        self.lits.swap(start + 1, j);
                        self.watches[self.lits[start + 1] as usize].push(c);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watchers[keep] = c;
                keep += 1;
                match self.truth(first) {
                    0 => self.assign(first),
                    _ => {
                        conflict = true;
                        break;
                    }
                }
            }
            if conflict {
                while i < watchers.len() {
                    watchers[keep] = watchers[i];
                    keep += 1;
                    i += 1;
                }
            }
            watchers.truncate(keep);
            self.watches[falsified as usize] = watchers;
            if conflict {
                return false;
            }
        }
        true
    }

    /// Adds a clause (at the root): a unit is assigned and propagated, a longer clause
    /// watched on two literals that are not false.
    fn add(&mut self, clause: &[u32]) {
        if self.refuted {
            return;
        }
        let mut open: [u32; 2] = [0; 2];
        let mut n = 0;
        for &l in clause {
            match self.truth(l) {
                1 => return,
                0 => {
                    if n < 2 {
                        open[n] = l;
                    }
                    n += 1;
                }
                _ => {}
            }
        }
        match n {
            0 => self.refuted = true,
            1 => {
                let from = self.trail.len();
                self.assign(open[0]);
                if !self.propagate(from) {
                    self.refuted = true;
                }
                self.root = self.trail.len();
            }
            _ => {
                let start = self.lits.len();
                self.lits.extend_from_slice(&open);
                // `clause` has no repeated literal (lemmas are read without repeats).
                self.lits
                    .extend(clause.iter().filter(|l| !open.contains(l)).copied());
                let id = self.clauses.len() as u32;
                let len = self.lits.len() - start;
                self.clauses.push((start as u32, len as u32));
                self.watches[open[0] as usize].push(id);
                self.watches[open[1] as usize].push(id);
            }
        }
    }

    /// Forgets everything about the previous puzzle, and builds the clauses of order `n` if
    /// the previous puzzle had another.
    fn reset(&mut self, n: usize) {
        if self.n != n {
            self.build(n);
        }
        self.value.iter_mut().for_each(|v| *v = 0);
        self.trail.clear();
        self.root = 0;
        self.refuted = false;
        let end = self.clauses[self.fixed - 1];
        self.lits.truncate((end.0 + end.1) as usize);
        self.clauses.truncate(self.fixed);
        self.watches.iter_mut().for_each(Vec::clear);
        for (id, &(start, _)) in self.clauses.iter().enumerate() {
            self.watches[self.lits[start as usize] as usize].push(id as u32);
            self.watches[self.lits[start as usize + 1] as usize].push(id as u32);
        }
    }

    /// Whether unit propagation refutes the negation of `lemma` (reverse unit propagation).
    fn implied(&mut self, lemma: &[u32]) -> bool {
        if self.refuted {
            return true;
        }
        let from = self.trail.len();
        let mut conflict = false;
        for &l in lemma {
            match self.truth(l) {
                1 => {
                    conflict = true;
                    break;
                }
                0 => self.assign(l ^ 1),
                _ => {}
            }
        }
        let implied = conflict || !self.propagate(from);
        self.backtrack();
        implied
    }

    /// Makes the checks that follow stop at `deadline` (`None`: never) with
    /// [`Rejection::OutOfTime`]. The clock is read at proof lines 1, 2, 4, … up to 1,024 and
    /// then every 1,024 lines, so a check stops within about twice its time past it: checking
    /// is linear in the proof, but a proof can be long (the largest of forum_hardest_1905_11+
    /// takes 200 kB), and a time limit per puzzle is meant for all of its work.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Checks a certificate: `claim` about the puzzle `puzzle` (a grid of order 2 to 8, or a
    /// 9×9 pencilmark line: see the module documentation), with `proof` the DRUP text
    /// (ignored for [`Claim::Two`]).
    pub fn check(&mut self, puzzle: &str, claim: Claim<'_>, proof: &[u8]) -> Result<(), Rejection> {
        let givens = read_puzzle(puzzle).map_err(Rejection::Puzzle)?;
        let cells = givens.side() * givens.side();
        let blocking: Option<Vec<u32>> = match claim {
            Claim::None => None,
            Claim::Unique(s) => {
                let s = check_solution(&givens, s)?;
                // Over the open cells, or every cell if the puzzle fixes all (the kept CNF's
                // rule: never the empty clause).
                let open: Vec<usize> = (0..cells)
                    .filter(|&cell| givens.allowed_in(cell) != 1)
                    .collect();
                let over = if open.is_empty() {
                    (0..cells).collect()
                } else {
                    open
                };
                Some(
                    over.into_iter()
                        .map(|cell| lit_index(-givens.var(cell, s[cell] as usize)) as u32)
                        .collect(),
                )
            }
            Claim::Two(s, t) => {
                let (s, t) = (check_solution(&givens, s)?, check_solution(&givens, t)?);
                return if s == t {
                    Err(Rejection::Solution("the two solutions are the same".into()))
                } else {
                    Ok(())
                };
            }
        };
        self.reset(givens.n);
        for &unit in &givens.units {
            self.add(&[lit_index(unit) as u32]);
        }
        if let Some(b) = blocking {
            self.add(&b);
        }
        let vars = cells * givens.side();
        self.run_proof(proof, vars)
    }

    /// Reads and checks the lemmas of `proof`, whose variables are 1..=`vars`.
    fn run_proof(&mut self, proof: &[u8], vars: usize) -> Result<(), Rejection> {
        let mut lemma: Vec<u32> = Vec::with_capacity(64);
        let mut rest = proof;
        let mut line = 0;
        while !rest.is_empty() {
            line += 1;
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| Rejection::Syntax {
                    line,
                    what: "truncated: the line does not end".into(),
                })?;
            let text = &rest[..end];
            rest = &rest[end + 1..];
            if text.first().is_some_and(|&b| b == b'c' || b == b'd') {
                continue;
            }
            if let Some(deadline) = self.deadline {
                if (line.is_power_of_two() || line % 1024 == 0) && Instant::now() >= deadline {
                    return Err(Rejection::OutOfTime { line });
                }
            }
            lemma.clear();
            let mut closed = false;
            for token in text.split(|&b| b == b' ').filter(|t| !t.is_empty()) {
                if closed {
                    return Err(Rejection::Syntax {
                        line,
                        what: "text after the closing 0".into(),
                    });
                }
                let n = parse_lit(token, vars).ok_or_else(|| Rejection::Syntax {
                    line,
                    what: format!("{:?} is not a literal", String::from_utf8_lossy(token)),
                })?;
                if n == 0 {
                    closed = true;
                } else if !lemma.contains(&(lit_index(n) as u32)) {
                    lemma.push(lit_index(n) as u32);
                }
            }
            if !closed {
                return Err(Rejection::Syntax {
                    line,
                    what: "the lemma does not end with 0".into(),
                });
            }
            if !self.implied(&lemma) {
                return Err(Rejection::NotImplied { line });
            }
            if lemma.is_empty() {
                return Ok(());
            }
            self.add(&lemma);
        }
        Err(Rejection::NoEmptyClause)
    }
}

/// A DIMACS literal in −`vars`..=`vars`.
fn parse_lit(token: &[u8], vars: usize) -> Option<i32> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 6 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0i32, |n, &b| 10 * n + i32::from(b - b'0'));
    if n as usize > vars.min(MAX_VARS) || (negative && n == 0) {
        return None;
    }
    Some(if negative { -n } else { n })
}
