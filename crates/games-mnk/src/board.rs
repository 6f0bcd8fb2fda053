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
