//! Candidate masks of fixed width: `u16` for orders 2 to 4 (up to 16 symbols), `u32` for order
//! 5 (25), `u64` for orders 6 to 8 (up to 64). The narrowest type that fits keeps the state a
//! search copies at each branch small (2 KiB for a 16×16, 2.5 KiB for a 25×25).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of symbols as a bit mask (bit `v - 1` for symbol `v`).
pub trait Mask:
    Copy
    + Eq
    + Send
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The first `side` symbols.
    fn full(side: usize) -> Self;
    /// The symbol of bit `i` alone.
    fn bit(i: u32) -> Self;
    /// The number of symbols.
    fn count(self) -> u32;
    /// The lowest symbol's bit index.
    fn low(self) -> u32;
    /// The set without its lowest symbol.
    fn clear_low(self) -> Self;
    /// Whether exactly one symbol is in the set.
    #[inline(always)]
    fn is_single(self) -> bool {
        self != Self::ZERO && self.clear_low() == Self::ZERO
    }
    /// The set as a `u64` (bit `i` for bit `i`).
    fn to_u64(self) -> u64;
    /// The set of the low bits of `bits` that fit.
    fn from_u64(bits: u64) -> Self;
    /// Whether exactly two symbols are in the set (without a population count, which the
    /// baseline x86-64 target has no instruction for).
    #[inline(always)]
    fn is_pair(self) -> bool {
        self.clear_low().is_single()
    }
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn full(side: usize) -> $t {
                if side as u32 >= <$t>::BITS {
                    <$t>::MAX
                } else {
                    (1 << side) - 1
                }
            }
            #[inline(always)]
            fn bit(i: u32) -> $t {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_u64(bits: u64) -> $t {
                bits as $t
            }
            #[inline(always)]
            fn clear_low(self) -> $t {
                self & self.wrapping_sub(1)
            }
        }
    };
}

mask!(u16);
mask!(u32);
mask!(u64);
