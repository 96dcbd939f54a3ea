//! The independent checker of certificates. It imports nothing from the rest of the crate
//! (only `std`): it reads the puzzle from its 81-character text, builds its own CNF, reads
//! the claimed solutions and the proof from their text, and decides.
//!
//! **The formula** (Lynce & Ouaknine's extended encoding, built here from the puzzle text):
//! variable `81·(r−1) + 9·(c−1) + d` means "cell r,c holds digit d" (r, c, d in 1..9); each
//! cell holds at least one digit and at most one; each row, column and box holds each digit at
//! least once and at most once; each clue is a unit clause (for a 729-character pencilmark
//! line, each candidate ruled out is a negative unit clause). It is satisfied exactly by the
//! puzzle's solutions.
//!
//! **A claim** is checked like this:
//! - `0` (no solution): the proof must refute the formula;
//! - `1` with solution S: S must be a complete grid whose rows, columns and boxes each hold
//!   1..9 and that keeps every clue, and the proof must refute the formula plus the clause
//!   blocking S (the disjunction of "cell holds something else than S's digit" over the cells
//!   the puzzle does not fix to one digit): so S is the only solution;
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
//! Propagation uses two watched literals for the long clauses and implication lists for the
//! binary ones; the state reached by propagating the formula and the unit lemmas (the root)
//! is kept between lemmas. What the checker does not prove: that this encoding means Sudoku
//! (it is the textbook one, 40 lines below, easy to audit), nor anything about the program
//! that produced the proof.

use std::fmt;
use std::time::Instant;

/// Variables: 729 candidates.
const VARS: usize = 729;
/// Literals: two per variable (`2·(v−1)` positive, `2·(v−1) + 1` negative).
const LITS: usize = 2 * VARS;

/// Why a certificate is not accepted: every variant but [`Rejection::OutOfTime`] rejects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The puzzle text is not 81 characters of `1`-`9`, `.` or `0`.
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

/// What is claimed about a puzzle, with solutions as 81-character texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim<'a> {
    /// No solution; the proof refutes the formula.
    None,
    /// Exactly this solution; the proof refutes the formula with it blocked.
    Unique(&'a str),
    /// At least these two different solutions (no proof needed).
    Two(&'a str, &'a str),
}

/// The variable of cell `cell` (0..81) holding digit `d` (1..9), 1-based.
fn var(cell: usize, d: usize) -> u32 {
    (9 * cell + d) as u32
}

/// Literal index of a DIMACS literal (nonzero, |lit| ≤ 729).
fn lit_index(dimacs: i32) -> usize {
    let v = dimacs.unsigned_abs() as usize - 1;
    2 * v + usize::from(dimacs < 0)
}

/// The cells of the 27 units (rows, columns, boxes), computed here.
fn units() -> Vec<[usize; 9]> {
    let mut units = Vec::with_capacity(27);
    for r in 0..9 {
        units.push(std::array::from_fn(|c| 9 * r + c));
    }
    for c in 0..9 {
        units.push(std::array::from_fn(|r| 9 * r + c));
    }
    for b in 0..9 {
        let (r0, c0) = (3 * (b / 3), 3 * (b % 3));
        units.push(std::array::from_fn(|k| 9 * (r0 + k / 3) + c0 + k % 3));
    }
    units
}

/// Reads a solution text: 81 digits.
fn read_solution(text: &str) -> Result<[u8; 81], String> {
    let bytes = text.trim().as_bytes();
    if bytes.len() != 81 {
        return Err(format!("{} characters, expected 81", bytes.len()));
    }
    let mut cells = [0u8; 81];
    for (i, &b) in bytes.iter().enumerate() {
        cells[i] = match b {
            b'1'..=b'9' => b - b'0',
            _ => return Err(format!("character {} is {:?}", i + 1, b as char)),
        };
    }
    Ok(cells)
}

/// A puzzle as read from its text: per cell, the digits allowed (bit d−1 for digit d), and
/// the unit clauses that say so.
struct Givens {
    allowed: [u16; 81],
    /// Clues (81-character text): positive units; pencilmarks (729 characters): a negative
    /// unit per candidate ruled out.
    units: Vec<i32>,
}

/// Reads a puzzle: 81 characters (`1`-`9` a clue, `.` or `0` empty) or 729 (pencilmarks:
/// character `81·r + 9·c + d − 1` is `d` if d is possible in cell r,c, `.` or `0` if not).
fn read_puzzle(text: &str) -> Result<Givens, String> {
    let bytes = text.trim().as_bytes();
    let mut givens = Givens {
        allowed: [0x1ff; 81],
        units: Vec::new(),
    };
    match bytes.len() {
        81 => {
            for (cell, &b) in bytes.iter().enumerate() {
                match b {
                    b'1'..=b'9' => {
                        let d = usize::from(b - b'0');
                        givens.allowed[cell] = 1 << (d - 1);
                        givens.units.push(var(cell, d) as i32);
                    }
                    b'.' | b'0' => {}
                    _ => return Err(format!("character {} is {:?}", cell + 1, b as char)),
                }
            }
        }
        729 => {
            for (i, &b) in bytes.iter().enumerate() {
                let (cell, d) = (i / 9, i % 9 + 1);
                if b == b'0' + d as u8 {
                    continue;
                }
                if b != b'.' && b != b'0' {
                    return Err(format!("character {} is {:?}", i + 1, b as char));
                }
                givens.allowed[cell] &= !(1 << (d - 1));
                givens.units.push(-(var(cell, d) as i32));
            }
        }
        n => {
            return Err(format!(
                "{n} characters, expected 81 (or 729 for pencilmarks)"
            ))
        }
    }
    Ok(givens)
}

/// Checks that `text` is a complete valid grid that the puzzle allows.
fn check_solution(givens: &Givens, text: &str) -> Result<[u8; 81], Rejection> {
    let cells = read_solution(text).map_err(Rejection::Solution)?;
    for (i, (&allowed, &s)) in givens.allowed.iter().zip(&cells).enumerate() {
        if allowed & (1 << (s - 1)) == 0 {
            return Err(Rejection::Solution(format!(
                "cell {} is {s}, which the puzzle rules out",
                i + 1
            )));
        }
    }
    for (u, unit) in units().iter().enumerate() {
        let mut seen = 0u16;
        for &cell in unit {
            seen |= 1 << cells[cell];
        }
        if seen != 0x3fe {
            return Err(Rejection::Solution(format!(
                "unit {} does not hold every digit once",
                u + 1
            )));
        }
    }
    Ok(cells)
}

/// A reusable checker (one per thread): the clauses that do not depend on the puzzle are built
/// once.
pub struct Checker {
    /// For each literal l: the literals made true when l becomes false (binary clauses).
    implied: Vec<Vec<u32>>,
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
    /// Builds the puzzle-independent clauses.
    pub fn new() -> Checker {
        let mut checker = Checker {
            implied: vec![Vec::new(); LITS],
            lits: Vec::new(),
            clauses: Vec::new(),
            fixed: 0,
            watches: vec![Vec::new(); LITS],
            value: vec![0; VARS],
            trail: Vec::with_capacity(VARS),
            root: 0,
            refuted: false,
            deadline: None,
        };
        let exactly_one = |group: [i32; 9], checker: &mut Checker| {
            checker.push_long(&group);
            for i in 0..9 {
                for j in i + 1..9 {
                    let (a, b) = (lit_index(-group[i]), lit_index(-group[j]));
                    // (¬a ∨ ¬b): when ¬a is false (a true), ¬b is true.
                    checker.implied[a].push(b as u32);
                    checker.implied[b].push(a as u32);
                }
            }
        };
        for cell in 0..81 {
            exactly_one(
                std::array::from_fn(|k| var(cell, k + 1) as i32),
                &mut checker,
            );
        }
        for unit in units() {
            for d in 1..=9 {
                exactly_one(
                    std::array::from_fn(|k| var(unit[k], d) as i32),
                    &mut checker,
                );
            }
        }
        checker.fixed = checker.clauses.len();
        checker
    }

    fn push_long(&mut self, clause: &[i32]) {
        let start = self.lits.len() as u32;
        self.lits
            .extend(clause.iter().map(|&l| lit_index(l) as u32));
        self.clauses.push((start, clause.len() as u32));
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
        while from < self.trail.len() {
            let falsified = self.trail[from] ^ 1;
            from += 1;
            for k in 0..self.implied[falsified as usize].len() {
                let other = self.implied[falsified as usize][k];
                match self.truth(other) {
                    1 => {}
                    0 => self.assign(other),
                    _ => return false,
                }
            }
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

    /// Forgets everything about the previous puzzle.
    fn reset(&mut self) {
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

    /// Checks a certificate: `claim` about the puzzle `puzzle` (81 characters, or 729 for
    /// pencilmarks), with `proof`
    /// the DRUP text (ignored for [`Claim::Two`]).
    pub fn check(&mut self, puzzle: &str, claim: Claim<'_>, proof: &[u8]) -> Result<(), Rejection> {
        let givens = read_puzzle(puzzle).map_err(Rejection::Puzzle)?;
        let blocking: Option<Vec<u32>> = match claim {
            Claim::None => None,
            Claim::Unique(s) => {
                let s = check_solution(&givens, s)?;
                Some(
                    (0..81)
                        .filter(|&cell| givens.allowed[cell].count_ones() != 1)
                        .map(|cell| lit_index(-(var(cell, s[cell] as usize) as i32)) as u32)
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
        self.reset();
        for &unit in &givens.units {
            self.add(&[lit_index(unit) as u32]);
        }
        if let Some(b) = blocking {
            self.add(&b);
        }
        self.run_proof(proof)
    }

    /// Reads and checks the lemmas of `proof`.
    fn run_proof(&mut self, proof: &[u8]) -> Result<(), Rejection> {
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
                let n = parse_lit(token).ok_or_else(|| Rejection::Syntax {
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

/// A DIMACS literal in −729..=729.
fn parse_lit(token: &[u8]) -> Option<i32> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0i32, |n, &b| 10 * n + i32::from(b - b'0'));
    if n as usize > VARS || (negative && n == 0) {
        return None;
    }
    Some(if negative { -n } else { n })
}
