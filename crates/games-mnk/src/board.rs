//! A 384-bit set of squares, index `row * 19 + column` (row 0 at the bottom).

/// The board width every index is laid out on, whatever the game's size.
pub(crate) const STRIDE: usize = 19;
/// The number of square indices (19 × 19).
pub(crate) const SQUARES: usize = STRIDE * STRIDE;

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bits(pub(crate) [u64; 6]);

impl Bits {
    /// The squares `column < m`, `row < n`.
    pub(crate) fn rectangle(m: usize, n: usize) -> Bits {
        let mut b = Bits::default();
        for r in 0..n {
            for c in 0..m {
                b.set(r * STRIDE + c);
            }
        }
        b
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub(crate) fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1 << (i & 63);
    }

    #[inline]
    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The set whose square `e` holds when square `e + s` holds here
    /// (squares moved down by `s`, or up for a negative `s`; what falls
    /// off either end is dropped). Rows do not wrap on their own: callers
    /// mask the columns.
    #[inline]
    pub(crate) fn offset(&self, s: isize) -> Bits {
        let mut out = Bits::default();
        let n = self.0.len() as isize;
        let (q, r) = (s.div_euclid(64), s.rem_euclid(64) as u32);
        // out bit 64i + b = self bit 64(i + q) + b + r.
        for (i, o) in out.0.iter_mut().enumerate() {
            let i = i as isize;
            let word = |j: isize| {
                if (0..n).contains(&j) {
                    self.0[j as usize]
                } else {
                    0
                }
            };
            let lo = word(i + q);
            let hi = word(i + q + 1);
            *o = if r == 0 {
                lo
            } else {
                (lo >> r) | (hi << (64 - r))
            };
        }
        out
    }

    /// Squares 0..128 as one `u128`.
    #[inline]
    pub(crate) fn low128(&self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }

    /// The squares of `low` (0..128), none above.
    #[inline]
    pub(crate) fn from_low128(low: u128) -> Bits {
        let mut b = Bits::default();
        b.0[0] = low as u64;
        b.0[1] = (low >> 64) as u64;
        b
    }

    #[inline]
    pub(crate) fn and(self, other: Bits) -> Bits {
        let mut out = self;
        for (o, w) in out.0.iter_mut().zip(other.0) {
            *o &= w;
        }
        out
    }

    #[inline]
    pub(crate) fn or(self, other: Bits) -> Bits {
        let mut out = self;
        for (o, w) in out.0.iter_mut().zip(other.0) {
            *o |= w;
        }
        out
    }

    /// The indices of the set squares, ascending.
    #[inline]
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(wi, mut w)| {
            core::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(wi * 64 + b)
                }
            })
        })
    }
}

/// A set of squares that the line scans work on: [`Bits`] for any board,
/// `u128` for a board whose squares are all below 128 (the same scans,
/// with one shift per step instead of six).
pub(crate) trait Plane: Copy {
    /// Every square.
    const ONES: Self;
    /// No square.
    const ZERO: Self;
    /// The squares of `b` this plane can hold.
    fn from_bits(b: &Bits) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self` without the squares of `o`.
    fn and_not(self, o: Self) -> Self;
    /// Square `i` of the result is square `i + s` of `self` (none past
    /// either end).
    fn offset(self, s: isize) -> Self;
}

impl Plane for Bits {
    const ONES: Bits = Bits([u64::MAX; 6]);
    const ZERO: Bits = Bits([0; 6]);

    #[inline]
    fn from_bits(b: &Bits) -> Bits {
        *b
    }
    #[inline]
    fn and(self, o: Bits) -> Bits {
        Bits::and(self, o)
    }
    #[inline]
    fn or(self, o: Bits) -> Bits {
        Bits::or(self, o)
    }
    #[inline]
    fn and_not(self, o: Bits) -> Bits {
        let mut out = self;
        for (w, x) in out.0.iter_mut().zip(o.0) {
            *w &= !x;
        }
        out
    }
    #[inline]
    fn offset(self, s: isize) -> Bits {
        Bits::offset(&self, s)
    }
}

impl Plane for u128 {
    const ONES: u128 = u128::MAX;
    const ZERO: u128 = 0;

    #[inline]
    fn from_bits(b: &Bits) -> u128 {
        b.low128()
    }
    #[inline]
    fn and(self, o: u128) -> u128 {
        self & o
    }
    #[inline]
    fn or(self, o: u128) -> u128 {
        self | o
    }
    #[inline]
    fn and_not(self, o: u128) -> u128 {
        self & !o
    }
    #[inline]
    fn offset(self, s: isize) -> u128 {
        if s >= 0 {
            self.checked_shr(s as u32).unwrap_or(0)
        } else {
            self.checked_shl(s.unsigned_abs() as u32).unwrap_or(0)
        }
    }
}
