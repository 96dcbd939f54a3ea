//! Puzzles with known answers, for the crate's unit tests and its integration tests (hidden
//! from the documentation: not part of the API).

/// A puzzle solved by singles alone, and its solution.
pub const EASY: &str =
    "000000907000420180000705026100904000050000040000507009920108000034059000507000000";
pub const EASY_SOLUTION: &str =
    "462831957795426183381795426173984265659312748248567319926178534834259671517643892";
/// A puzzle that needs guessing, and its solution.
pub const HARD: &str =
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
pub const HARD_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
/// Two 1s in the first row: no solution.
pub const CLASH: &str =
    "11...............................................................................";
/// A puzzle with exactly two solutions (1 and 2 swap in r1c1, r1c2, r4c1, r4c2), and both.
pub const OPEN: &str =
    "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642";
pub const OPEN_A: &str =
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
pub const OPEN_B: &str =
    "213456789456789123789123456124365897365897214897214365531642978642978531978531642";

/// A small deterministic generator (xorshift64), so that random test cases are the same on
/// every run.
pub struct Xorshift(pub u64);

impl Xorshift {
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
