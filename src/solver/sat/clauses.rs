//! A list of clauses stored back to back: the storage every formula the SAT backends build
//! ([`super::Formula`] for 9×9, [`super::order_cnf::OrderCnf`] for the other orders) keeps its
//! clauses in, so that building one costs two growing vectors and no allocation per clause.

use varisat::Lit;

/// Clauses, literal after literal, with the end of each.
#[derive(Debug, Default, Clone)]
pub struct Clauses {
    /// Literals of every clause, back to back (a clause being written is at the end).
    pub(super) lits: Vec<Lit>,
    /// End offset in `lits` of each finished clause.
    pub(super) ends: Vec<usize>,
}

impl Clauses {
    /// An empty list with room for `lits` literals in `clauses` clauses.
    pub fn with_capacity(lits: usize, clauses: usize) -> Clauses {
        Clauses {
            lits: Vec::with_capacity(lits),
            ends: Vec::with_capacity(clauses),
        }
    }

    /// Forgets every clause, keeping the room.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
    }

    /// Ends the clause whose literals were pushed onto `lits` since the last one ended.
    #[inline]
    pub fn end(&mut self) {
        self.ends.push(self.lits.len());
    }

    /// Adds a whole clause.
    #[inline]
    pub fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.end();
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every clause, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let clause = &self.lits[start..end];
            start = end;
            clause
        })
    }
}
