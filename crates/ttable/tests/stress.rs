//! Readers and writers hammering overlapping keys of a small shared table:
//! every hit must be an entry some writer stored for that key.

use std::sync::atomic::{AtomicU64, Ordering};

use gametree_ttable::{Bound, Entry, SharedTable};

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The entry a writer stores for `key` with move `mv`: every field is a
/// function of (key, move), so a mix of two stores cannot pass as one.
fn entry_for(key: u64, mv: u16) -> Entry {
    let h = mix(key ^ u64::from(mv) << 7);
    let bound = [Bound::Upper, Bound::Lower, Bound::Exact][(h % 3) as usize];
    Entry {
        best_move: Some(mv),
        value: (h >> 8) as i16 as i32 / 2,
        depth: (h >> 40) as u8,
        bound,
    }
}

#[test]
fn every_hit_is_an_entry_stored_for_its_key() {
    const KEYS: u64 = 512;
    const OPS: u64 = 300_000;
    // 32 buckets, 128 slots for 512 keys: constant replacement.
    let tt = SharedTable::new(32 * 64).unwrap();
    let key = |i: u64| mix(i + 1);
    let hits = AtomicU64::new(0);
    std::thread::scope(|s| {
        // Writer 0 stores; writer 1 probes each key first and stores
        // through the slot found (probe_slot + store_slot).
        for w in 0..2u64 {
            let (tt, hits) = (&tt, &hits);
            s.spawn(move || {
                let mut x = w;
                let mut n = 0;
                for _ in 0..OPS {
                    x = mix(x + 0x9E37_79B9);
                    let k = key(x % KEYS);
                    let mv = (x >> 20) as u16 % 60_000;
                    if w == 0 {
                        tt.store(k, 0, entry_for(k, mv));
                    } else {
                        let (hit, slot) = tt.probe_slot(k, 0, 0);
                        if let Some(hit) = hit {
                            let old = hit.entry.best_move.expect("writers always store a move");
                            assert_eq!(hit.entry, entry_for(k, old), "torn or foreign entry");
                            n += 1;
                        }
                        tt.store_slot(slot, 0, entry_for(k, mv));
                    }
                    if x % 97 == 0 {
                        tt.new_generation();
                    }
                }
                hits.fetch_add(n, Ordering::Relaxed);
            });
        }
        for r in 0..2u64 {
            let (tt, hits) = (&tt, &hits);
            s.spawn(move || {
                let mut x = 1000 + r;
                let mut n = 0;
                for _ in 0..OPS {
                    x = mix(x + 0x9E37_79B9);
                    let k = key(x % KEYS);
                    if let Some(hit) = tt.probe(k, 0, 0) {
                        let mv = hit.entry.best_move.expect("writers always store a move");
                        assert_eq!(
                            hit.entry,
                            entry_for(k, mv),
                            "torn or foreign entry for {k:#x}"
                        );
                        n += 1;
                    }
                    // A key never stored is never found.
                    assert!(tt.probe(key(KEYS + x % 1000), 0, 0).is_none());
                }
                hits.fetch_add(n, Ordering::Relaxed);
            });
        }
    });
    let hits = hits.into_inner();
    assert!(hits > 1000, "the test must exercise hits, got {hits}");
    let stats = tt.stats();
    assert_eq!(stats.stores, 2 * OPS);
    assert_eq!(stats.probes, 2 * 2 * OPS + OPS);
    assert_eq!(stats.hits, hits);
}
