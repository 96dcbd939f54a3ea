//! The search for naked and hidden subsets inside one unit: the smallest reducing subset, and
//! a quick test that rules most units out first.

use super::board::{Contradiction, Step};
use crate::grid::ALL_DIGITS;

/// Set bits of every 9-bit mask. The baseline x86-64 target has no `popcnt` instruction and
/// `count_ones` expands to a dozen instructions; this table is one load from L1.
const POP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

#[inline(always)]
pub(super) fn pop(m: u16) -> u32 {
    u32::from(POP[usize::from(m & ALL_DIGITS)])
}

/// Quick necessary conditions for a subset of size 2..=`kmax` among the `open` fields of a
/// unit, as (naked, hidden): `k` fields with at most `k` digits each, or `k` digits with at
/// most `k` places each, for some `k`. Most searches find nothing, and this rules out many of
/// them before any combination is tried or the digit → field transpose is built.
#[inline(always)]
pub(super) fn may_hold_subset(
    fields: &[u16; 9],
    open: u16,
    digits: u16,
    kmax: u32,
) -> (bool, bool) {
    // few[k]: open fields with at most k digits. at_least[j]: digits with more than j places
    // (bit-sliced counters over the digits, saturating at 5).
    let mut few = [0u32; 5];
    let mut at_least = [0u16; 5];
    let mut o = open;
    while o != 0 {
        let m = fields[o.trailing_zeros() as usize];
        o &= o - 1;
        let p = pop(m) as usize;
        for (k, f) in few.iter_mut().enumerate() {
            *f += u32::from(p <= k);
        }
        for j in (1..5).rev() {
            at_least[j] |= at_least[j - 1] & m;
        }
        at_least[0] |= m;
    }
    let sizes = 2..=kmax.min(4) as usize;
    (
        sizes.clone().any(|k| few[k] >= k as u32),
        sizes
            .into_iter()
            .any(|k| pop(digits & !at_least[k]) >= k as u32),
    )
}

/// The smallest reducing subset, of size 2..=`limit`, among the items in `present`: item `i`
/// has mask `masks[i]`.
///
/// For fields (`masks` = digits of each position) this finds naked subsets; for digits
/// (`masks` = positions of each digit) hidden ones. A subset is reducing if its union has as
/// many bits as it has items and some other item meets that union (so applying it eliminates
/// something). Returns `(size, items, union)`; a union with fewer bits than items is a
/// contradiction.
pub(super) fn smallest_subset(
    masks: &[u16; 9],
    present: u16,
    limit: u32,
) -> Step<Option<(u32, u16, u16)>> {
    if limit < 2 {
        return Ok(None);
    }
    // Only items with at most `limit` bits can be in a subset of at most `limit` items.
    let mut items = [(0u16, 0u16); 9];
    let mut n = 0;
    let mut p = present;
    while p != 0 {
        let i = p.trailing_zeros() as usize;
        p &= p - 1;
        if pop(masks[i]) <= limit {
            items[n] = (1 << i, masks[i]);
            n += 1;
        }
    }
    if n < 2 {
        return Ok(None);
    }
    let items = &items[..n];
    // Whether applying a subset with these items and union eliminates anything: some item
    // outside it meets the union.
    let reducing = |chosen: u16, union: u16| {
        let mut outside = present & !chosen;
        while outside != 0 {
            let i = outside.trailing_zeros() as usize;
            outside &= outside - 1;
            if masks[i] & union != 0 {
                return true;
            }
        }
        false
    };
    // Nested loops over sizes 2, 3, 4 (n ≤ 9 open items, so `limit` ≤ 4). A union only grows,
    // so a partial union above `limit` is pruned. When a subset is found, `limit` drops below
    // its size.
    let mut limit = limit.min(4);
    let mut best = None;
    for (a, &(ba, ma)) in items.iter().enumerate() {
        for (b, &item) in items.iter().enumerate().skip(a + 1) {
            let (cb, ub) = match grow((ba, ma), item, 2, limit, &reducing)? {
                Grown::Skip => continue,
                Grown::Subset(cb, ub) => return Ok(Some((2, cb, ub))),
                Grown::Larger(cb, ub) => (cb, ub),
            };
            if limit < 3 {
                continue;
            }
            for (c, &item) in items.iter().enumerate().skip(b + 1) {
                let (cc, uc) = match grow((cb, ub), item, 3, limit, &reducing)? {
                    Grown::Skip => continue,
                    Grown::Subset(cc, uc) => {
                        best = Some((3, cc, uc));
                        limit = 2;
                        break;
                    }
                    Grown::Larger(cc, uc) => (cc, uc),
                };
                if limit < 4 {
                    continue;
                }
                for &item in items.iter().skip(c + 1) {
                    // `limit` is 4 here: no union of four items is larger.
                    if let Grown::Subset(cd, ud) = grow((cc, uc), item, 4, limit, &reducing)? {
                        best = Some((4, cd, ud));
                        limit = 3;
                        break;
                    }
                }
            }
        }
    }
    Ok(best)
}

/// A subset grown by one item.
enum Grown {
    /// Its union is larger than the limit, or it is a subset that reduces nothing (and so is
    /// not extended either: nothing outside meets its union, so a reducing superset would
    /// contain a smaller reducing subset).
    Skip,
    /// A reducing subset: its items and union.
    Subset(u16, u16),
    /// Its union has more bits than it has items, but not more than the limit: it may grow.
    Larger(u16, u16),
}

/// Adds `(item, mask)` to the subset `(chosen, union)`, making it `size` items; a union of
/// fewer bits than `size` is a contradiction.
#[inline(always)]
fn grow(
    (chosen, union): (u16, u16),
    (item, mask): (u16, u16),
    size: u32,
    limit: u32,
    reducing: &impl Fn(u16, u16) -> bool,
) -> Step<Grown> {
    let (c, u) = (chosen | item, union | mask);
    let p = pop(u);
    Ok(if p > limit {
        Grown::Skip
    } else if p > size {
        Grown::Larger(c, u)
    } else if p < size {
        return Err(Contradiction);
    } else if reducing(c, u) {
        Grown::Subset(c, u)
    } else {
        Grown::Skip
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick tests may only rule out what is not there: on random units (open fields with
    /// 2-6 digits), whenever the full search finds a naked (hidden) subset of size 2..=n/2,
    /// the naked (hidden) test lets the unit through; and they do rule out some units.
    #[test]
    fn quick_subset_test_never_rules_out_a_subset() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut with_subset, mut ruled_out) = (0, 0);
        for _ in 0..20_000 {
            let mut fields = [0u16; 9];
            for f in &mut fields {
                while pop(*f) < 2 || pop(*f) > 6 {
                    *f = (next() & u64::from(ALL_DIGITS)) as u16;
                }
            }
            let open = ALL_DIGITS;
            let digits = fields.iter().fold(0, |a, &f| a | f);
            if pop(digits) < 9 {
                continue;
            }
            let mut places = [0u16; 9];
            for (i, &m) in fields.iter().enumerate() {
                for (d, p) in places.iter_mut().enumerate() {
                    *p |= (m >> d & 1) << i;
                }
            }
            let kmax = 4;
            let naked = !matches!(smallest_subset(&fields, open, kmax), Ok(None));
            let hidden = !matches!(smallest_subset(&places, digits, kmax), Ok(None));
            let (naked_ok, hidden_ok) = may_hold_subset(&fields, open, digits, kmax);
            assert!(naked_ok || !naked, "naked: fields {fields:03x?}");
            assert!(hidden_ok || !hidden, "hidden: fields {fields:03x?}");
            with_subset += u32::from(naked || hidden);
            ruled_out += u32::from(!naked_ok && !hidden_ok);
        }
        assert!(
            with_subset > 100 && ruled_out > 100,
            "{with_subset} {ruled_out}"
        );
    }
}
