//! Shared drivers and model oracles for the gametree fuzz targets.
//!
//! The game invariants live in `gametree_game::check` (library code of the `game`
//! crate); this crate only turns fuzzer input into calls of those oracles
//! ([`games`]) and holds the model-based oracles of the crates that do not
//! export one: the transposition table against a `HashMap` ([`tt`]), the
//! move picker against the generated list ([`picker`]), database loading
//! against the documented file layout ([`retro`]), and index spaces against
//! their own inverse ([`index`]). Every oracle panics with a message on a
//! broken invariant (that is what libFuzzer records as a crash), and the unit
//! tests at the bottom of each module run it from fixed seeds, so
//! `cargo test` in `fuzz/` exercises the same code on stable Rust.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod compressed;
pub mod games;
pub mod index;
pub mod picker;
pub mod retro;
pub mod tt;

/// A tiny deterministic generator (SplitMix64) for the seeded unit tests.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Runs `f` on an `arbitrary` value built from `bytes` (skipping inputs too
/// short to build one), as libFuzzer's `fuzz_target!` does.
pub fn with_arbitrary<'a, T: arbitrary::Arbitrary<'a>>(bytes: &'a [u8], f: impl FnOnce(T)) {
    if let Ok(value) = T::arbitrary_take_rest(arbitrary::Unstructured::new(bytes)) {
        f(value);
    }
}

/// `base` with `raw` appended, each `(offset, xor)` edit applied (offsets
/// modulo the length), cut to `cut` bytes (if shorter), then, if `repair`
/// is given, passed through it (to recompute lengths and checksums).
pub fn edited(
    mut base: Vec<u8>,
    raw: &[u8],
    edits: &[(u16, u8)],
    cut: Option<u16>,
    repair: Option<fn(&mut [u8])>,
) -> Vec<u8> {
    base.extend_from_slice(raw);
    let len = base.len();
    if len > 0 {
        for &(at, x) in edits {
            base[usize::from(at) % len] ^= x;
        }
    }
    if let Some(cut) = cut {
        base.truncate(usize::from(cut));
    }
    if let Some(repair) = repair {
        repair(&mut base);
    }
    base
}
