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
