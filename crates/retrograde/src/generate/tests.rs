//! Unit tests of the generators' private machinery.

use std::sync::atomic::{AtomicU8, Ordering};

use rand_core::Rng;
use rand_pcg::Pcg64;

use super::levels::{BLOCK, block_members};

/// `block_members` against a byte-by-byte comparison, for every code,
/// every block length and neighbours of the code that differ in one
/// bit (the top one included, where a word-wide test could carry).
#[test]
fn block_members_agrees_with_comparing_each_byte() {
    let mut rng = Pcg64::new(7, 11);
    for wanted in 0..=255u8 {
        for len in 1..=BLOCK as usize {
            let near = [
                wanted,
                wanted ^ 0x80,
                wanted ^ 0x01,
                wanted ^ 0x7f,
                wanted.wrapping_add(1),
                wanted.wrapping_sub(1),
                0,
                255,
            ];
            let codes: Vec<AtomicU8> = (0..len)
                .map(|_| {
                    let r = rng.next_u64();
                    AtomicU8::new(if r & 1 == 0 {
                        near[(r >> 1) as usize % near.len()]
                    } else {
                        (r >> 8) as u8
                    })
                })
                .collect();
            let expected = codes.iter().enumerate().fold(0u64, |m, (k, c)| {
                m | u64::from(c.load(Ordering::Relaxed) == wanted) << k
            });
            assert_eq!(block_members(&codes, wanted), expected, "{wanted} {len}");
        }
    }
    assert_eq!(block_members(&[], 0), 0);
}
