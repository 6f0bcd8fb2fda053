//! Deterministic Zobrist hashing tables.
//!
//! Zobrist hashing gives every (square, piece) pair of a board game a fixed
//! random number; the hash of a position is the XOR of the numbers of the
//! pieces on the board, XOR a number for the side to move and numbers for
//! the game-specific state that the board does not show (castling rights,
//! the en-passant file, ...). Because XOR is its own inverse, making or
//! unmaking a move updates the hash in a few XORs: take the piece out of its
//! old square, put it on the new one.
//!
//! This crate only builds the tables; it knows nothing of any game. Keys are
//! drawn from a PCG generator ([`rand_pcg::Pcg64`]) with a fixed, documented
//! seed ([`DEFAULT_SEED`]), so every run, machine and version produces the
//! same keys. **The keys are part of the public contract**: hashes stored on
//! disk or in test data depend on them; tests pin the first keys, and
//! changing them is a breaking change.
//!
//! # Example: tic-tac-toe
//!
//! ```
//! use gametree_zobrist::ZobristTable;
//!
//! // 9 squares × 2 colours = 18 keys; no key for an empty square.
//! let keys: ZobristTable = ZobristTable::new(9, 2);
//! let x_in_centre = keys.piece(4, 0);
//! let o_in_corner = keys.piece(0, 1);
//! let mut h = 0u64;
//! h ^= x_in_centre; // X plays the centre
//! h ^= o_in_corner; // O answers in a corner
//! h ^= o_in_corner; // ... and takes it back
//! assert_eq!(h, x_in_centre);
//! ```
//!
//! # Key width and collisions
//!
//! The key type is a parameter: [`u64`] by default, [`u32`] and [`u128`]
//! through [`ZobristTable<K>`]. With `b`-bit keys, two different positions
//! share a key with probability `2^-b`; among `n` distinct positions the
//! probability that *some* two collide is about `1 - exp(-n²/2^(b+1))`
//! ([`collision_probability`]). For a search that visits 10⁸ positions, 32
//! bits collide almost surely, 64 bits with probability about 3·10⁻⁴.
//! A transposition table indexed by the low bits of the key and verified
//! with other bits has its own false-hit rate; see the `ttable` crate.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

use alloc::vec::Vec;
use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitXor, BitXorAssign};

use rand_core::Rng;
use rand_pcg::Pcg64;

/// The seed of every default table: the PCG state and stream used by
/// [`ZobristTable::new`]. Part of the public contract.
pub const DEFAULT_SEED: (u128, u128) = (0x6761_6d65_7472_6565_5a6f_6272_6973_7421, 0x5eed);

/// A Zobrist key: an unsigned integer that can be drawn from the generator
/// and combined by XOR. Implemented for `u32`, `u64` and `u128`.
pub trait Key:
    Copy + Default + Eq + Hash + Debug + BitXor<Output = Self> + BitXorAssign + 'static
{
    /// The key's width in bits.
    const BITS: u32;
    /// Draws a key. `u32` takes the low half of one 64-bit output, `u64` one
    /// output, `u128` two (low half first).
    fn draw(rng: &mut Pcg64) -> Self;
}

impl Key for u32 {
    const BITS: u32 = 32;
    fn draw(rng: &mut Pcg64) -> Self {
        rng.next_u64() as u32
    }
}

impl Key for u64 {
    const BITS: u32 = 64;
    fn draw(rng: &mut Pcg64) -> Self {
        rng.next_u64()
    }
}

impl Key for u128 {
    const BITS: u32 = 128;
    fn draw(rng: &mut Pcg64) -> Self {
        let lo = u128::from(rng.next_u64());
        let hi = u128::from(rng.next_u64());
        hi << 64 | lo
    }
}

/// A named group of extra keys (castling rights, en-passant files, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extra {
    /// A name for documentation and debugging.
    pub name: &'static str,
    /// How many keys the group holds.
    pub count: usize,
}

/// A table of Zobrist keys: `squares × pieces` piece keys, one side-to-move
/// key, and groups of extra keys.
///
/// Keys are drawn in this order, which is part of the contract: piece keys
/// square by square (`piece(0, 0)`, `piece(0, 1)`, ..., `piece(1, 0)`, ...),
/// then the side-to-move key, then each extra group in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristTable<K: Key = u64> {
    squares: usize,
    pieces: usize,
    piece_keys: Vec<K>,
    side: K,
    extras: Vec<(Extra, Vec<K>)>,
}

impl<K: Key> ZobristTable<K> {
    /// A table with `squares × pieces` piece keys and a side key, from
    /// [`DEFAULT_SEED`].
    ///
    /// # Panics
    ///
    /// If `squares * pieces` overflows `usize`.
    #[must_use]
    pub fn new(squares: usize, pieces: usize) -> Self {
        Self::with_extras(squares, pieces, &[])
    }

    /// A table with extra key groups, from [`DEFAULT_SEED`].
    ///
    /// ```
    /// use gametree_zobrist::{Extra, ZobristTable};
    /// let chess: ZobristTable = ZobristTable::with_extras(
    ///     64,
    ///     12,
    ///     &[Extra { name: "castling", count: 16 }, Extra { name: "en passant file", count: 8 }],
    /// );
    /// assert_eq!(chess.extra(1).len(), 8);
    /// assert_eq!(chess.len(), 64 * 12 + 1 + 16 + 8);
    /// ```
    ///
    /// # Panics
    ///
    /// If the number of keys overflows `usize`.
    #[must_use]
    pub fn with_extras(squares: usize, pieces: usize, extras: &[Extra]) -> Self {
        Self::with_seed(squares, pieces, extras, DEFAULT_SEED)
    }

    /// A table from another `(state, stream)` seed, e.g. to study collisions
    /// with independent tables.
    ///
    /// # Panics
    ///
    /// If the number of keys overflows `usize`.
    #[must_use]
    pub fn with_seed(squares: usize, pieces: usize, extras: &[Extra], seed: (u128, u128)) -> Self {
        let mut rng = Pcg64::new(seed.0, seed.1);
        let n = squares
            .checked_mul(pieces)
            .expect("zobrist table size overflows usize");
        let piece_keys = (0..n).map(|_| K::draw(&mut rng)).collect();
        let side = K::draw(&mut rng);
        let extras = extras
            .iter()
            .map(|&e| (e, (0..e.count).map(|_| K::draw(&mut rng)).collect()))
            .collect();
        ZobristTable {
            squares,
            pieces,
            piece_keys,
            side,
            extras,
        }
    }

    /// The key of `piece` on `square`.
    ///
    /// # Panics
    ///
    /// If `square >= squares()` or `piece >= pieces()` (in debug builds for
    /// `piece`; in release an out-of-range piece may read another square's key
    /// or panic).
    #[inline]
    #[must_use]
    pub fn piece(&self, square: usize, piece: usize) -> K {
        debug_assert!(piece < self.pieces, "piece {piece} out of range");
        self.piece_keys[square * self.pieces + piece]
    }

    /// The key XORed in when the second player is to move.
    #[inline]
    #[must_use]
    pub fn side(&self) -> K {
        self.side
    }

    /// The keys of extra group `group` (in the order given at construction).
    ///
    /// # Panics
    ///
    /// If `group` is out of range.
    #[inline]
    #[must_use]
    pub fn extra(&self, group: usize) -> &[K] {
        &self.extras[group].1
    }

    /// The extra group named `name`, if any.
    #[must_use]
    pub fn extra_named(&self, name: &str) -> Option<&[K]> {
        self.extras
            .iter()
            .find(|(e, _)| e.name == name)
            .map(|(_, k)| k.as_slice())
    }

    /// Number of squares.
    #[must_use]
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// Number of piece kinds.
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// Total number of keys: piece keys, the side key and every extra key.
    #[must_use]
    pub fn len(&self) -> usize {
        self.piece_keys.len() + 1 + self.extras.iter().map(|(_, k)| k.len()).sum::<usize>()
    }

    /// Always `false`: a table holds at least the side key.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The hash of a set of `(square, piece)` placements (from scratch).
    #[must_use]
    pub fn hash_pieces(&self, placements: impl IntoIterator<Item = (usize, usize)>) -> K {
        placements
            .into_iter()
            .fold(K::default(), |h, (s, p)| h ^ self.piece(s, p))
    }
}

/// Probability that at least two of `positions` distinct positions share a
/// `bits`-bit key (birthday bound, `1 - exp(-n(n-1)/2^(bits+1))`).
///
/// ```
/// use gametree_zobrist::collision_probability;
/// assert!(collision_probability(32, 1e8) > 0.999);
/// let p64 = collision_probability(64, 1e8);
/// assert!(p64 > 2e-4 && p64 < 3e-4);
/// ```
#[cfg(feature = "std")]
#[must_use]
pub fn collision_probability(bits: u32, positions: f64) -> f64 {
    let pairs = positions * (positions - 1.0).max(0.0) / 2.0;
    -(-pairs * 2f64.powi(-(bits as i32))).exp_m1()
}

/// Probability that one lookup of a position absent from a table with
/// `entries` comparable candidates is taken for a stored position when
/// `check_bits` bits of the key are compared: `entries · 2^-check_bits`
/// (for small values).
///
/// ```
/// use gametree_zobrist::false_match_probability;
/// // 16 check bits, 4 entries per bucket: about one probe in 16384.
/// assert!((false_match_probability(16, 4) - 4.0 / 65536.0).abs() < 1e-8);
/// ```
#[cfg(feature = "std")]
#[must_use]
pub fn false_match_probability(check_bits: u32, entries: u32) -> f64 {
    -(f64::from(entries) * (-(2f64.powi(-(check_bits as i32)))).ln_1p()).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys are a public contract: these values must never change.
    #[test]
    fn pinned_keys() {
        let t: ZobristTable = ZobristTable::new(9, 2);
        let first: Vec<u64> = (0..3).map(|i| t.piece(i / 2, i % 2)).collect();
        assert_eq!(first, PINNED_U64);
        let t32: ZobristTable<u32> = ZobristTable::new(9, 2);
        assert_eq!(t32.piece(0, 0), PINNED_U64[0] as u32);
        let t128: ZobristTable<u128> = ZobristTable::new(9, 2);
        assert_eq!(t128.piece(0, 0) as u64, PINNED_U64[0]);
        assert_eq!((t128.piece(0, 0) >> 64) as u64, PINNED_U64[1]);
    }

    const PINNED_U64: [u64; 3] = [
        0x1f1e_dbe7_c0e0_f5bb,
        0xfea5_ec88_994c_142b,
        0x3837_e3fa_059d_6cc6,
    ];

    #[test]
    fn keys_are_distinct_and_deterministic() {
        let a: ZobristTable = ZobristTable::with_extras(
            64,
            12,
            &[Extra {
                name: "castling",
                count: 16,
            }],
        );
        let b: ZobristTable = ZobristTable::with_extras(
            64,
            12,
            &[Extra {
                name: "castling",
                count: 16,
            }],
        );
        assert_eq!(a, b);
        let mut all: Vec<u64> = a.piece_keys.clone();
        all.push(a.side());
        all.extend_from_slice(a.extra(0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "duplicate keys");
        assert!(all.iter().all(|&k| k != 0));
        assert_eq!(a.extra_named("castling"), Some(a.extra(0)));
        assert_eq!(a.extra_named("nope"), None);
    }

    #[test]
    fn prefix_stability() {
        // A larger table starts with the same keys: the order is square-major.
        let small: ZobristTable = ZobristTable::new(9, 2);
        let big: ZobristTable = ZobristTable::new(64, 2);
        for s in 0..9 {
            for p in 0..2 {
                assert_eq!(small.piece(s, p), big.piece(s, p));
            }
        }
    }

    #[test]
    fn incremental_equals_scratch() {
        let t: ZobristTable = ZobristTable::new(9, 2);
        let placed = [(4, 0), (0, 1), (8, 0)];
        let mut h = 0;
        for &(s, p) in &placed {
            h ^= t.piece(s, p);
        }
        assert_eq!(h, t.hash_pieces(placed));
        h ^= t.piece(0, 1);
        assert_eq!(h, t.hash_pieces([(4, 0), (8, 0)]));
    }

    #[test]
    fn probabilities() {
        assert!(collision_probability(64, 1.0) == 0.0);
        let p = collision_probability(32, 65536.0);
        // n²/2^33 = 0.5 → 1 - e^-0.5 ≈ 0.3935
        assert!((p - 0.3935).abs() < 1e-3, "{p}");
        assert!(false_match_probability(64, 1) > 0.0);
    }
}

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
