//! Compile-time lookup tables for the band representation.
//!
//! A *band* is three consecutive rows (27 cells). Within a band, cell `(r, c)` (with `r` the
//! row inside the band, 0..3) is bit `9·r + c` of a `u32`. A *minirow* is the three cells of
//! one row inside one box; the nine minirows of a band are numbered `3·r + box`, where `box` is
//! the box inside the band (0..3). Tables indexed by a 9-bit value have 512 entries.

/// All 27 cells of a band.
pub const BAND: u32 = (1 << 27) - 1;

/// For each band-local cell, the other cells of the band sharing its row, column or box:
/// the first band's part of [`PEERS81`] (every band has the same).
pub const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = PEERS81[i].0 as u32 & BAND;
        i += 1;
    }
    t
};

/// Spreads a 9-bit column set over the three rows of a band.
#[inline(always)]
pub const fn spread_cols(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For each cell of the grid as one 81-bit word (bit `27·band + position`), its 20 peers in
/// that layout, as bits 0..54 and bits 54..81: a cell's unsolved peers are then two masks
/// and two counts.
pub const PEERS81: [(u64, u32); 81] = {
    let mut t = [(0u64, 0u32); 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let mut j = 0;
        while j < 81 {
            let (r2, c2) = (j / 9, j % 9);
            if j != i && (r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3)) {
                if j < 54 {
                    t[i].0 |= 1 << j;
                } else {
                    t[i].1 |= 1 << (j - 54);
                }
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Folds a band onto its nine columns: bit `c` is set if any row of the band has bit `c`.
#[inline(always)]
pub const fn fold_cols(band: u32) -> u32 {
    (band | band >> 9 | band >> 18) & 0x1ff
}

/// A table of 512 entries, entry `x` (a `usize`) being `$entry`: const code has loops but no
/// closures or iterators.
macro_rules! table512 {
    (|$x:ident| $entry:expr) => {{
        let mut t = [0; 512];
        let mut $x = 0;
        while $x < 512 {
            t[$x] = $entry;
            $x += 1;
        }
        t
    }};
}

/// Each bit `i` of `m` (9 bits) widened to the three bits `3·i..3·i + 3`: a minirow set to its
/// band cells, or a set of boxes (0..3) to their columns.
const fn widen(m: u32) -> u32 {
    let mut t = 0;
    let mut i = 0;
    while i < 9 {
        if m >> i & 1 != 0 {
            t |= 7 << (3 * i);
        }
        i += 1;
    }
    t
}

/// Bit `j` (0..3) set if any of the bits `3·j..3·j + 3` of the 9-bit `x` is: a row's boxes
/// with a non-empty minirow, or the boxes a column set touches.
const fn narrow(x: u32) -> u32 {
    let mut t = 0;
    let mut j = 0;
    while j < 3 {
        if (x >> (3 * j)) & 7 != 0 {
            t |= 1 << j;
        }
        j += 1;
    }
    t
}

/// For a 9-bit column set of one band: bit `j` (0..3) set if box `j`'s part of the set is a
/// single column.
const fn single_col_boxes(x: u32) -> u32 {
    let mut t = 0;
    let mut j = 0;
    while j < 3 {
        let g = (x >> (3 * j)) & 7;
        if g != 0 && g & (g - 1) == 0 {
            t |= 1 << j;
        }
        j += 1;
    }
    t
}

/// For 9 bits of one row: bit `j` (0..3) set if the row's minirow in box `j` is not empty.
pub const SHRINK: [u8; 512] = table512!(|x| narrow(x as u32) as u8);

/// Applies locked candidates inside a band to a set of non-empty minirows until nothing
/// changes, or returns 0 if some row or box of the band is left without a minirow.
///
/// A digit appears exactly once in each of the three rows and each of the three boxes of a
/// band. If a box holds the digit only in one row (pointing), the other boxes cannot hold it
/// in that row; if a row holds it only in one box (claiming), the other rows of that box
/// cannot.
const fn lock_fixpoint(mut m: u32) -> u32 {
    loop {
        let before = m;
        let mut k = 0;
        while k < 3 {
            // Box k: rows holding a minirow.
            let rows = (m >> k) & 1 | ((m >> (3 + k)) & 1) << 1 | ((m >> (6 + k)) & 1) << 2;
            if rows == 0 {
                return 0;
            }
            if rows.count_ones() == 1 {
                let r = rows.trailing_zeros();
                // Keep only box k in row r.
                m &= !(7 << (3 * r)) | 1 << (3 * r + k);
            }
            // Row k: boxes holding a minirow.
            let boxes = (m >> (3 * k)) & 7;
            if boxes == 0 {
                return 0;
            }
            if boxes.count_ones() == 1 {
                let b = boxes.trailing_zeros();
                // Keep only row k in box b.
                m &= !(0b001_001_001 << b) | 1 << (3 * k + b);
            }
            k += 1;
        }
        if m == before {
            return m;
        }
    }
}

/// The minirows left by `lock_fixpoint(m)` that are the only one of their row and of their box.
const fn locked(m: u32) -> u16 {
    let keep = lock_fixpoint(m);
    let mut t = 0;
    let mut i = 0;
    while i < 9 {
        let (r, b) = (i / 3, i % 3);
        let row = (keep >> (3 * r)) & 7;
        let bx = keep >> b & 0b001_001_001;
        if keep >> i & 1 != 0 && row.count_ones() == 1 && bx.count_ones() == 1 {
            t |= 1 << i;
        }
        i += 1;
    }
    t
}

/// For a set of non-empty minirows, the band cells left after locked candidates inside the
/// band (see `lock_fixpoint`), or 0 if the band cannot hold the digit once per row and box.
pub const LOCK: [u32; 512] = table512!(|m| widen(lock_fixpoint(m as u32)));

/// For a set of non-empty minirows: after `lock_fixpoint`, the minirows that are the only one
/// of their row and of their box (0 on contradiction).
pub const LOCKED: [u16; 512] = table512!(|m| locked(m as u32));

/// For a 9-bit column set of one band: the minirows (all three rows) of every box whose
/// part of the set is a single column.
pub const SINGLE_COL_BOXES: [u16; 512] =
    table512!(|x| (single_col_boxes(x as u32) * 0b001_001_001) as u16);

/// The band cells of a set of minirows (bit `3·r + k` → the three cells of row `r`, box `k`).
pub const EXPAND: [u32; 512] = table512!(|m| widen(m as u32));

/// For a 9-bit column set of one band: the columns that are the only column of their box in
/// the set (a box whose digit lies in one column points along that column).
pub const POINT_COLS: [u16; 512] =
    table512!(|x| (x as u32 & widen(single_col_boxes(x as u32))) as u16);

/// `LOCK` and `LOCKED` in one entry (cells in the low 32 bits, the cells of the locked
/// minirows above), so that the update needs one load for both. The minirows are stored as
/// their cells, so that the update finds its placed cells by ANDs alone, without a further
/// lookup at the end of its chain of dependent loads.
pub const LOCK_BOTH: [u64; 512] =
    table512!(|m| LOCK[m] as u64 | (EXPAND[LOCKED[m] as usize] as u64) << 32);

/// `POINT_KEEP` and `SINGLE_COL_BOXES` in one entry (kept cells in the low 32 bits, the cells
/// of the single-column boxes' minirows above), one load for both.
pub const COLS_BOTH: [u64; 512] =
    table512!(|x| POINT_KEEP[x] as u64 | (EXPAND[SINGLE_COL_BOXES[x] as usize] as u64) << 32);

/// For a 9-bit column set of one band: the cells the other two bands of the stack may keep
/// (all but the columns of `POINT_COLS`).
pub const POINT_KEEP: [u32; 512] = table512!(|x| BAND & !spread_cols(POINT_COLS[x] as u32));

/// For the columns whose digit lies only in this band: the band cells that may keep the digit
/// (a box containing such a column keeps only the claimed columns; a box with none keeps all
/// its columns).
pub const CLAIM_KEEP: [u32; 512] =
    table512!(|x| spread_cols(x as u32 | (0x1ff & !widen(narrow(x as u32)))));

/// Minirow mask of a band: bit `3·r + k` set if row `r`, box `k` holds a cell of `band`.
#[inline(always)]
pub fn minirows(band: u32) -> usize {
    let m = SHRINK[(band & 0x1ff) as usize] as usize
        | (SHRINK[((band >> 9) & 0x1ff) as usize] as usize) << 3
        | (SHRINK[(band >> 18) as usize & 0x1ff] as usize) << 6;
    // The entries are below 8, so `m` is below 512: the mask only tells the compiler, which
    // then drops the bounds check of the lookup that follows.
    m & 0x1ff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_peers() {
        for (i, &(low, high)) in PEERS81.iter().enumerate() {
            let p = low as u128 | (high as u128) << 54;
            assert_eq!(p.count_ones(), 20);
            // Within its band the same peers as the band table; elsewhere only its column.
            let (b, pos) = (i / 27, i % 27);
            assert_eq!((p >> (27 * b)) as u32 & BAND, BAND_PEERS[pos]);
            for other in (0..3).filter(|&o| o != b) {
                let col = spread_cols(1 << (pos % 9));
                assert_eq!((p >> (27 * other)) as u32 & BAND, col);
            }
        }
    }

    #[test]
    fn band_peers_count() {
        for p in BAND_PEERS {
            // 8 in the row, 2 more in the box's other rows... 6 in the box minus 0 overlap,
            // plus none extra for the column (inside the box): 8 + 6 = 14.
            assert_eq!(p.count_ones(), 14);
        }
        // The first cell: the rest of its row, and the two minirows below it in its box.
        assert_eq!(BAND_PEERS[0], 0x1fe | 0b111 << 9 | 0b111 << 18);
        // The middle of the band (row 1, column 4): its row, and its box's other minirows.
        assert_eq!(
            BAND_PEERS[13],
            (0x1ff << 9 & !(1 << 13)) | 0b111 << 3 | 0b111 << 21
        );
    }

    #[test]
    fn lock_examples() {
        // Everything possible: nothing to remove.
        assert_eq!(LOCK[0x1ff], BAND);
        // An empty row is a contradiction.
        assert_eq!(LOCK[0x1ff & !0b111], 0);
        // Box 0 only in row 0 → row 0 keeps only box 0.
        let m = 0x1ff & !(1 << 3) & !(1 << 6);
        assert_eq!(LOCK[m] & 0x1ff, 0b111);
        // A single cell per row in distinct boxes: every minirow is locked.
        assert_eq!(LOCKED[0b100_010_001], 0b100_010_001);
        assert_eq!(LOCKED[0x1ff], 0);
        assert_eq!(EXPAND[0b000_000_010], 0b111_000);
    }

    #[test]
    fn column_tables() {
        assert_eq!(POINT_COLS[0b010_011_100], 0b010_000_100);
        assert_eq!(CLAIM_KEEP[0b000_000_010], spread_cols(0b111_111_010));
        assert_eq!(fold_cols(spread_cols(0b1_0000_0001)), 0b1_0000_0001);
    }
}
