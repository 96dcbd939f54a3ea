//! The CNF of a Sudoku grid of any order n (4×4 … 64×64), reduced by its clues: the encoding
//! the SAT backends solve other orders with. It is the 9×9 `reduced` encoding's idea
//! ([`super::Encoding::Reduced`]) written for any size:
//!
//! - one variable per open candidate: a value `v` of an empty cell that no clue in the cell's
//!   row, column or box already holds;
//! - per empty cell: at least one of its candidates, and at most one;
//! - per house and value the house's clues do not hold: at least one of the cells that can
//!   take it, and at most one.
//!
//! "At most one" is pairwise up to [`PAIRWISE_MAX`] literals and Sinz's sequential counter
//! beyond (n − 1 auxiliary variables, 3n − 4 clauses), so the empty 64×64 grid has about 3.1
//! million clauses instead of 33 million pairwise ones. A clue that clashes with another, or an empty cell
//! or an open house value with no candidate, gives the empty clause: no solution.

use super::clauses::Clauses;
use crate::order::OrderGrid;
use crate::xc::sat::at_most_one_clauses;
use varisat::Lit;

/// Groups up to this size get pairwise at-most-one clauses.
pub const PAIRWISE_MAX: usize = 6;

/// One grid's formula: clauses, and which cell and value each of the first variables means.
#[derive(Debug, Default)]
pub struct OrderCnf {
    /// The clauses.
    list: Clauses,
    /// (cell, value) of each candidate variable; auxiliary variables come after them.
    meaning: Vec<(u32, u8)>,
    /// Every variable, the auxiliary ones included.
    vars: usize,
}

impl OrderCnf {
    /// The formula of `grid`.
    pub fn new(grid: &OrderGrid) -> OrderCnf {
        let mut cnf = OrderCnf::default();
        cnf.build(grid);
        cnf
    }

    fn build(&mut self, grid: &OrderGrid) {
        let order = grid.order();
        let geometry = order.geometry();
        let side = order.side();
        let cells = grid.cells();
        // Values the clues leave to each empty cell, as bit masks (bit v - 1 for value v).
        let full = order.all_values();
        let mut open = vec![0u64; cells.len()];
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                let bit = 1u64 << (v - 1);
                if geometry.peers(c).iter().any(|&p| cells[p as usize] == v) {
                    return self.unsatisfiable();
                }
                open[c] = bit;
                continue;
            }
            let mut taken = 0u64;
            for &p in geometry.peers(c) {
                let w = cells[p as usize];
                if w != 0 {
                    taken |= 1u64 << (w - 1);
                }
            }
            open[c] = full & !taken;
        }
        // Candidate variables.
        let mut var_of = vec![u32::MAX; cells.len() * side];
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                continue;
            }
            let mut m = open[c];
            while m != 0 {
                let value = m.trailing_zeros() as usize;
                m &= m - 1;
                var_of[c * side + value] = self.meaning.len() as u32;
                self.meaning.push((c as u32, value as u8 + 1));
            }
        }
        self.vars = self.meaning.len();
        let lit = |var: u32| Lit::from_index(var as usize, true);
        let mut group = Vec::with_capacity(side);
        // Per empty cell: exactly one candidate.
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                continue;
            }
            group.clear();
            group.extend(
                (0..side)
                    .map(|value| var_of[c * side + value])
                    .filter(|&x| x != u32::MAX)
                    .map(lit),
            );
            if !self.exactly_one(&group) {
                return self.unsatisfiable();
            }
        }
        // Per house and value no clue of the house holds: exactly one place.
        for h in 0..order.houses() {
            let house = geometry.house(h);
            let placed = house
                .iter()
                .filter(|&&c| cells[c as usize] != 0)
                .fold(0u64, |m, &c| m | 1u64 << (cells[c as usize] - 1));
            for value in (0..side).filter(|&value| placed >> value & 1 == 0) {
                group.clear();
                group.extend(
                    house
                        .iter()
                        .map(|&c| var_of[c as usize * side + value])
                        .filter(|&x| x != u32::MAX)
                        .map(lit),
                );
                if !self.exactly_one(&group) {
                    return self.unsatisfiable();
                }
            }
        }
    }

    /// The formula with only the empty clause.
    fn unsatisfiable(&mut self) {
        self.list.clear();
        self.meaning.clear();
        self.vars = 0;
        self.list.push(&[]);
    }

    /// "Exactly one of `lits`"; false when `lits` is empty (the formula has no solution).
    fn exactly_one(&mut self, lits: &[Lit]) -> bool {
        if lits.is_empty() {
            return false;
        }
        self.list.push(lits);
        let (vars, list) = (&mut self.vars, &mut self.list);
        at_most_one_clauses(
            lits,
            PAIRWISE_MAX,
            || {
                *vars += 1;
                Lit::from_index(*vars - 1, true)
            },
            |clause| list.push(clause),
        );
        true
    }

    /// The cell and value candidate variable `var` (0-based) means; `None` for an auxiliary
    /// variable.
    pub fn meaning(&self, var: usize) -> Option<(usize, u8)> {
        self.meaning.get(var).map(|&(c, v)| (c as usize, v))
    }

    /// Candidate variables (the first ones; auxiliary variables follow).
    pub fn num_candidates(&self) -> usize {
        self.meaning.len()
    }

    /// Variables, the auxiliary ones included.
    pub fn num_vars(&self) -> usize {
        self.vars
    }

    /// Clauses.
    pub fn num_clauses(&self) -> usize {
        self.list.len()
    }

    /// Every clause, in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        self.list.iter()
    }

    /// The grid a model means (`truth`: the value of every variable), and in `blocking` the
    /// clause that excludes it; `None` if the model sets no value or two in some cell.
    pub fn decode(
        &self,
        puzzle: &OrderGrid,
        truth: &[bool],
        blocking: &mut Vec<Lit>,
    ) -> Option<OrderGrid> {
        blocking.clear();
        let mut grid = puzzle.clone();
        for (var, &(cell, value)) in self.meaning.iter().enumerate() {
            if truth.get(var).copied().unwrap_or(false) {
                if grid.get(cell as usize) != 0 {
                    return None;
                }
                grid.set(cell as usize, value);
                blocking.push(Lit::from_index(var, false));
            }
        }
        grid.is_full().then_some(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::Order;

    #[test]
    fn a_clash_or_a_value_with_no_place_is_the_empty_clause() {
        let order = Order::new(2).unwrap();
        let mut clash = OrderGrid::empty(order);
        clash.set(0, 1);
        clash.set(1, 1);
        let cnf = OrderCnf::new(&clash);
        assert_eq!((cnf.num_vars(), cnf.num_clauses()), (0, 1));
        assert_eq!(cnf.clauses().next(), Some(&[][..]));
    }

    #[test]
    fn sizes_of_the_empty_grids() {
        // 4x4: 64 candidates; 16 cells and 48 house values, each one at-least-one clause and
        // six pairwise clauses over four literals.
        let cnf = OrderCnf::new(&OrderGrid::empty(Order::new(2).unwrap()));
        assert_eq!((cnf.num_vars(), cnf.num_clauses()), (64, 64 * 7));
        // 64x64: sequential counters keep it near three million clauses.
        let cnf = OrderCnf::new(&OrderGrid::empty(Order::new(8).unwrap()));
        assert_eq!(cnf.num_vars(), 4096 * 64 + 4 * 4096 * 63);
        assert!(cnf.num_clauses() < 3_300_000, "{}", cnf.num_clauses());
    }
}
