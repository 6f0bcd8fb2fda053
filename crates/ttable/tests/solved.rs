//! The solved layout (`Config::solved`) against a `HashMap` model: every
//! hit is the last entry stored for its key (never another key's, although
//! the keys are chosen to crowd a few buckets and to differ only in the
//! bits the index compresses), stores not searched to the end are dropped,
//! and the counters add up.

use std::collections::HashMap;

use gametree_game::Score;
use gametree_ttable::{
    Bound, Config, Entry, ErrorKind, ProbePolicy, SOLVED_DEPTH, SharedTable, Table,
    TranspositionTable,
};
use proptest::prelude::*;

mod common;
use common::{Op, bound, value};

const MIB: usize = 1 << 20;

fn op(keys: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..keys, 0..100u32, prop_oneof![4 => Just(SOLVED_DEPTH), 1 => 0..8u8], bound(), prop::option::of(0..8u16))
            .prop_flat_map(|(key, ply, depth, bound, best_move)| value(ply).prop_map(move |value| Op::Store {
                key,
                ply,
                entry: Entry { best_move, value, depth, bound },
            })),
        6 => (0..keys, any::<u8>(), 0..100u32).prop_map(|(key, depth, ply)| Op::Probe { key, depth, ply }),
        1 => Just(Op::NewGeneration),
    ]
}

/// Distinct keys crowding few buckets: a few low halves (each shared by
/// many keys), or low halves a multiple of `2^12` apart (neighbours for the
/// multiply-shift index, equal in their low 12 bits), with random high
/// halves.
fn keys(n: usize) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec((0..4u64, 0..64u64, 0..8u32, any::<u32>()), n).prop_map(|v| {
        let mut seen = std::collections::HashSet::new();
        v.into_iter()
            .map(|(kind, j, high_pick, high)| {
                let low = if kind == 0 {
                    j << 12
                } else {
                    0x1234_5678 + (j % 3)
                };
                // Few distinct high halves too, so that keys share them.
                let high = if high_pick < 4 {
                    u64::from(high_pick)
                } else {
                    u64::from(high)
                };
                high << 32 | low
            })
            .filter(|k| seen.insert(*k))
            .collect()
    })
}

/// Runs `ops` on a solved [`TranspositionTable`] of `bytes` whose move
/// field keeps codes below `fits`.
/// (The whole table from the start: a growing table starts at 16 MiB,
/// where no move fits.)
fn run(bytes: usize, fits: u16, keys: &[u64], ops: &[Op]) {
    let config = Config::new().solved(true).grow(false);
    let table = TranspositionTable::with_config(bytes, config).unwrap();
    run_on(table, fits, keys, ops);
}

/// [`run`] on a [`SharedTable`] in the solved layout.
fn run_shared(bytes: usize, fits: u16, keys: &[u64], ops: &[Op]) {
    let table = SharedTable::with_config(bytes, Config::new().solved(true)).unwrap();
    run_on(table, fits, keys, ops);
}

/// Runs `ops` on `table` (solved layout) beside a `HashMap` model.
fn run_on(mut table: impl Table, fits: u16, keys: &[u64], ops: &[Op]) {
    let mut model: HashMap<u64, (Bound, i32)> = HashMap::new();
    // The last move stored if it fits, and every move stored, per key.
    let mut moves: HashMap<u64, (Option<u16>, Vec<u16>)> = HashMap::new();
    let check_move = |moves: &HashMap<u64, (Option<u16>, Vec<u16>)>, key: u64, got: Option<u16>| {
        // The last move if it fits, else none or an older one of the same
        // key (kept by a store without a move).
        let (last, all) = &moves[&key];
        match last {
            Some(m) => assert_eq!(got, Some(*m)),
            None => assert!(got.is_none_or(|m| all.contains(&m)), "{got:?} {all:?}"),
        }
    };
    let (mut probes, mut hits, mut stores, mut rejected) = (0u64, 0u64, 0u64, 0u64);
    for op in ops {
        match *op {
            Op::Store { key, ply, entry } => {
                let key = keys[key % keys.len()];
                table.store(key, ply, entry);
                stores += 1;
                if entry.depth == SOLVED_DEPTH {
                    model.insert(
                        key,
                        (
                            entry.bound,
                            Score::new(entry.value).to_node_relative(ply).get(),
                        ),
                    );
                    let m = moves.entry(key).or_default();
                    m.0 = entry.best_move.filter(|&c| c < fits);
                    m.1.extend(m.0);
                    let hit = table.probe(key, 0, ply).expect("just stored");
                    probes += 1;
                    hits += 1;
                    assert_eq!(hit.entry.value, entry.value);
                    assert_eq!(hit.entry.bound, entry.bound);
                    check_move(&moves, key, hit.entry.best_move);
                } else {
                    rejected += 1;
                }
            }
            Op::Probe { key, depth, ply } => {
                let key = keys[key % keys.len()];
                table.prefetch(key);
                probes += 1;
                if let Some(hit) = table.probe(key, depth, ply) {
                    hits += 1;
                    let &(bound, node_value) =
                        model.get(&key).expect("a hit for a key never stored");
                    assert_eq!(
                        hit.entry.value,
                        Score::new(node_value).to_root_relative(ply).get()
                    );
                    assert_eq!(hit.entry.bound, bound);
                    assert_eq!(hit.entry.depth, SOLVED_DEPTH);
                    check_move(&moves, key, hit.entry.best_move);
                    assert!(hit.usable);
                }
            }
            Op::NewGeneration => table.new_generation(),
        }
    }
    let s = table.stats();
    assert_eq!(
        (s.probes, s.hits, s.stores, s.rejected),
        (probes, hits, stores, rejected)
    );
    table.clear();
    for &k in keys {
        assert!(table.probe(k, 0, 0).is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// 16 MiB: `2^18` buckets, the index is the low 18 bits.
    #[test]
    fn power_of_two_table_matches_model(keys in keys(40), ops in prop::collection::vec(op(40), 1..300)) {
        prop_assume!(!keys.is_empty());
        run(16 * MIB, 0, &keys, &ops);
    }

    /// Not a power of two: the multiply-shift index of the low 32 bits.
    #[test]
    fn any_size_table_matches_model(keys in keys(40), ops in prop::collection::vec(op(40), 1..300), extra in 1..5000usize) {
        prop_assume!(!keys.is_empty());
        run(16 * MIB + 64 * extra, 0, &keys, &ops);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The shared table, 16 MiB: the same slots, one atomic word each.
    #[test]
    fn shared_table_matches_model(keys in keys(40), ops in prop::collection::vec(op(40), 1..300)) {
        prop_assume!(!keys.is_empty());
        run_shared(16 * MIB, 0, &keys, &ops);
    }

    /// The shared table with the multiply-shift index.
    #[test]
    fn shared_any_size_table_matches_model(keys in keys(40), ops in prop::collection::vec(op(40), 1..300), extra in 1..5000usize) {
        prop_assume!(!keys.is_empty());
        run_shared(16 * MIB + 64 * extra, 0, &keys, &ops);
    }

    /// 128 MiB: `2^21` buckets, 3 bits left for the move (codes 0..=6).
    #[test]
    fn moves_are_kept_when_they_fit(keys in keys(40), ops in prop::collection::vec(op(40), 1..300)) {
        prop_assume!(!keys.is_empty());
        run(128 * MIB, 7, &keys, &ops);
    }

    /// 192 MiB: multiply-shift index over `3 · 2^20` buckets, 11 low key
    /// bits in the check, 3 bits for the move.
    #[test]
    fn moves_are_kept_with_any_size_index(keys in keys(40), ops in prop::collection::vec(op(40), 1..300)) {
        prop_assume!(!keys.is_empty());
        run(192 * MIB, 7, &keys, &ops);
    }

    /// The shared table at 128 MiB keeps moves as the single one does.
    #[test]
    fn shared_table_keeps_moves(keys in keys(40), ops in prop::collection::vec(op(40), 1..300)) {
        prop_assume!(!keys.is_empty());
        run_shared(128 * MIB, 7, &keys, &ops);
    }
}

/// The keys of the growth tests: a fixed pseudo-random sequence
/// (splitmix64), skipping the low 18 bits `0` (bucket 0 at every size is
/// kept for crowded keys).
fn spread_keys(n: usize) -> Vec<u64> {
    let mut x = 0x5EED_u64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if z & ((1 << 18) - 1) != 0 {
            out.push(z);
        }
    }
    out
}

/// A growing table (`Config::grow`, solved layout) starts at 16 MiB,
/// doubles when three quarters full, and loses no entry on the way: eight
/// keys crowding bucket 0 (a full bucket, split by the growth) all survive
/// two growths, every hit is the last value stored for its key, and the
/// keys missing (lost to full buckets before a growth) are under 12.5 % of
/// 4 M (7.5 % at 64 MiB, which ends 46 % full, and 9.5 % at 48 MiB,
/// which ends 60 % full). A 16 MiB table that never grew would have lost over half
/// (4 M keys, 2 M slots). Into a count that is not a power of two the last
/// growth gathers the entries and places them again.
#[test]
fn growing_table_keeps_its_entries() {
    let keys = spread_keys(4 << 20);
    for (bytes, grown) in [
        (64 * MIB, 64 * MIB),
        (48 * MIB + 64 * 77, 48 * MIB + 64 * 77),
    ] {
        let config = Config::new().solved(true).grow(true);
        let mut tt = TranspositionTable::with_config(bytes, config).unwrap();
        assert_eq!(tt.active_bytes(), 16 * MIB);
        assert_eq!(tt.size_bytes(), bytes);
        let e = |k: u64, m: Option<u16>| Entry {
            best_move: m,
            value: (k >> 40) as i32 % 1000,
            depth: SOLVED_DEPTH,
            bound: [Bound::Lower, Bound::Upper, Bound::Exact][(k % 3) as usize],
        };
        // Bucket 0 at 16 MiB, homes 0..8, bit 18 alternating: split into
        // buckets 0 and 2^18 by the first growth.
        let crowded: Vec<u64> = (0..8u64)
            .map(|i| i << 32 | (i & 1) << 18 | 5 << 45)
            .collect();
        for &k in &crowded {
            tt.store(k, 0, e(k, Some(1)));
        }
        let mut sizes = vec![tt.active_bytes()];
        for &k in &keys {
            tt.store(k, 0, e(k, Some((k % 7) as u16)));
            if tt.active_bytes() != *sizes.last().unwrap() {
                sizes.push(tt.active_bytes());
            }
        }
        assert_eq!(sizes, [16 * MIB, 32 * MIB, grown], "{bytes}");
        for &k in &crowded {
            let hit = tt.probe(k, 0, 0).expect("a crowded key survives growing");
            assert_eq!(hit.entry, e(k, None), "moves do not fit at 16 MiB");
        }
        let mut missing = 0;
        for &k in &keys {
            match tt.probe(k, 0, 0) {
                Some(hit) => {
                    let want = e(k, Some((k % 7) as u16));
                    assert_eq!((hit.entry.value, hit.entry.bound), (want.value, want.bound));
                    assert!(
                        hit.entry
                            .best_move
                            .is_none_or(|m| Some(m) == want.best_move)
                    );
                }
                None => missing += 1,
            }
        }
        assert!(missing * 8 < keys.len(), "{missing} of {} lost", keys.len());
        // Clearing empties it and starts again from 16 MiB.
        tt.clear();
        assert_eq!(tt.active_bytes(), 16 * MIB);
        assert!(
            crowded
                .iter()
                .chain(&keys[..1000])
                .all(|&k| tt.probe(k, 0, 0).is_none())
        );
    }
    // Not growing (the default): the whole table from the start.
    let tt = TranspositionTable::with_config(64 * MIB, Config::new().solved(true)).unwrap();
    assert_eq!(tt.active_bytes(), 64 * MIB);
}

#[test]
fn twice_the_entries_of_the_default_layout() {
    let wide = TranspositionTable::new(16 * MIB).unwrap();
    let solved = TranspositionTable::with_config(16 * MIB, Config::new().solved(true)).unwrap();
    assert_eq!(solved.capacity(), 2 * wide.capacity());
}

#[test]
fn too_small_or_exact_depth_is_refused() {
    let err =
        TranspositionTable::with_config(16 * MIB - 64, Config::new().solved(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SolvedTooSmall);
    assert!(err.to_string().contains("16777216"), "{err}");
    let c = Config::new()
        .solved(true)
        .probe_policy(ProbePolicy::ExactDepth);
    let err = TranspositionTable::with_config(16 * MIB, c).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SolvedWithExactDepth);
}

#[test]
fn reconfigure_switches_layout_and_clears() {
    let e = Entry {
        best_move: Some(2),
        value: 5,
        depth: SOLVED_DEPTH,
        bound: Bound::Exact,
    };
    let mut tt = TranspositionTable::new(16 * MIB).unwrap();
    tt.store(42, 0, e);
    tt.reconfigure(Config::new().solved(true)).unwrap();
    assert!(tt.probe(42, 0, 0).is_none());
    tt.store(42, 0, e);
    assert_eq!(
        tt.probe(42, 0, 0).unwrap().entry,
        Entry {
            best_move: None,
            ..e
        }
    );
    // Refused: the table keeps its layout and entries.
    let err = tt.reconfigure(
        Config::new()
            .solved(true)
            .probe_policy(ProbePolicy::ExactDepth),
    );
    assert_eq!(err.unwrap_err().kind(), ErrorKind::SolvedWithExactDepth);
    assert!(tt.probe(42, 0, 0).is_some());
    tt.reconfigure(Config::new()).unwrap();
    assert!(tt.probe(42, 0, 0).is_none());
    tt.store(42, 0, e);
    assert_eq!(tt.probe(42, 0, 0).unwrap().entry, e);
    let mut small = TranspositionTable::new(MIB).unwrap();
    let err = small.reconfigure(Config::new().solved(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SolvedTooSmall);
}

/// A full bucket: a new key replaces its home slot, and the hashfull
/// sample counts occupied slots.
#[test]
fn full_bucket_replaces_the_home_slot() {
    let mut tt = TranspositionTable::with_config(16 * MIB, Config::new().solved(true)).unwrap();
    let e = |v| Entry {
        best_move: None,
        value: v,
        depth: SOLVED_DEPTH,
        bound: Bound::Exact,
    };
    // Nine keys of bucket 0 (low 18 bits zero), homes 0..8 (bits 32..36).
    let key = |i: u64| i << 32 | 7 << 50;
    for i in 0..8 {
        tt.store(key(i), 0, e(i as i32));
    }
    for i in 0..8 {
        assert_eq!(tt.probe(key(i), 0, 0).unwrap().entry.value, i as i32);
    }
    assert_eq!(tt.stats().replacements, 0);
    tt.store(key(8 + 3), 0, e(99)); // home slot 3
    assert_eq!(tt.stats().replacements, 1);
    assert!(tt.probe(key(3), 0, 0).is_none());
    assert_eq!(tt.probe(key(11), 0, 0).unwrap().entry.value, 99);
    for i in (0..8).filter(|&i| i != 3) {
        assert_eq!(tt.probe(key(i), 0, 0).unwrap().entry.value, i as i32);
    }
    assert_eq!(tt.hashfull(), 8);
}

/// A full bucket keeps its exact values (the principal variation's
/// positions): a new key whose home slot holds one takes the next slot that
/// holds a bound instead, in both tables; with only exact values, the home
/// slot goes (above).
#[test]
fn full_bucket_keeps_exact_values() {
    fn check(mut tt: impl Table) {
        let e = |v, bound| Entry {
            best_move: None,
            value: v,
            depth: SOLVED_DEPTH,
            bound,
        };
        // Keys of bucket 0, homes 0..8 as above; 3 and 4 exact, the others
        // lower bounds.
        let key = |i: u64| i << 32 | 7 << 50;
        let exact = |i| i == 3 || i == 4;
        for i in 0..8 {
            let bound = if exact(i) { Bound::Exact } else { Bound::Lower };
            tt.store(key(i), 0, e(i as i32, bound));
        }
        // Home slot 3: slots 3 and 4 are exact, slot 5 goes.
        tt.store(key(8 + 3), 0, e(99, Bound::Lower));
        assert_eq!(tt.probe(key(11), 0, 0).unwrap().entry.value, 99);
        assert!(tt.probe(key(5), 0, 0).is_none());
        for i in (0..8).filter(|&i| i != 5) {
            assert_eq!(tt.probe(key(i), 0, 0).unwrap().entry.value, i as i32);
        }
        // Home slot 0 holds a bound: it goes.
        tt.store(key(8), 0, e(98, Bound::Exact));
        assert!(tt.probe(key(0), 0, 0).is_none());
        // Slot 7 becomes exact; then home slot 7: 7 and 0 are exact, the
        // search wraps round to slot 1.
        tt.store(key(8 + 7), 0, e(97, Bound::Exact));
        assert!(tt.probe(key(7), 0, 0).is_none());
        tt.store(key(16 + 7), 0, e(96, Bound::Upper));
        assert!(tt.probe(key(1), 0, 0).is_none());
        for k in [2, 3, 4, 6, 8, 11, 15, 23] {
            assert!(tt.probe(key(k), 0, 0).is_some(), "key {k}");
        }
    }
    check(TranspositionTable::with_config(16 * MIB, Config::new().solved(true)).unwrap());
    check(SharedTable::with_config(16 * MIB, Config::new().solved(true)).unwrap());
}

/// Growing into a bucket count that is not a power of two can crowd more
/// old entries into one new bucket than it holds: the moved entries then
/// follow the store rule, and an exact value in the home slot stays.
#[test]
fn growth_into_a_crowded_bucket_keeps_exact_values() {
    const FINAL: u64 = 3 << 18; // 48 MiB: 16, then 32, then 48 MiB
    let mut tt =
        TranspositionTable::with_config(48 * MIB, Config::new().solved(true).grow(true)).unwrap();
    let e = |v, bound| Entry {
        best_move: None,
        value: v,
        depth: SOLVED_DEPTH,
        bound,
    };
    // Ten keys whose low 32 bits all index bucket `b` of the final table
    // (multiply-shift), consecutive buckets of the power-of-two ones, all
    // with home slot 5: the exact one is moved first, into slot 5, and the
    // other nine overflow the bucket.
    let b = 1000u64;
    let lo = (b << 32).div_ceil(FINAL);
    let key = |i: u64| (lo + i) | 5 << 32 | 0x1234 << 40;
    assert!((0..10).all(|i| ((key(i) & 0xFFFF_FFFF) * FINAL) >> 32 == b));
    tt.store(key(0), 0, e(77, Bound::Exact));
    for i in 1..10 {
        tt.store(key(i), 0, e(i as i32, Bound::Lower));
    }
    // Fill the table until it grows to its full size, with keys that stay
    // out of the buckets above, old and new.
    let old = |k: u64| k & ((1 << 19) - 1);
    let mut k = 0u64;
    while tt.active_bytes() < 48 * MIB {
        k += 1;
        let f = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if ((f & 0xFFFF_FFFF) * FINAL) >> 32 == b || old(f).wrapping_sub(old(lo)) < 16 {
            continue;
        }
        tt.store(f, 0, e(1, Bound::Upper));
    }
    assert_eq!(tt.probe(key(0), 0, 0).unwrap().entry.value, 77);
    let kept = (1..10)
        .filter(|&i| tt.probe(key(i), 0, 0).is_some())
        .count();
    assert_eq!(kept, 7, "the bucket is full: the exact entry and 7 others");
}

/// Two threads store and probe keys crowded into a few buckets, each key
/// always with the same entry (its value a function of the key): every hit
/// either thread sees is that key's entry, however the stores interleave.
#[test]
fn shared_table_races_never_mix_entries() {
    let tt = SharedTable::with_config(16 * MIB, Config::new().solved(true)).unwrap();
    // 64 keys over 4 buckets (the index is the low 18 bits): full buckets,
    // so threads keep replacing each other's entries.
    let key = |i: u64| (i % 4) | (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 18);
    let value = |k: u64| (k >> 40) as i32 % 1000;
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let tt = &tt;
            s.spawn(move || {
                let mut hits = 0u32;
                for round in 0..200_000u64 {
                    let k = key((round * 7 + t * 13) % 64);
                    if round % 3 == 0 {
                        let e = Entry {
                            best_move: None,
                            value: value(k),
                            depth: SOLVED_DEPTH,
                            bound: Bound::Exact,
                        };
                        tt.store(k, 0, e);
                    } else if let Some(h) = tt.probe(k, 0, 0) {
                        assert_eq!(h.entry.value, value(k), "key {k:#x}");
                        assert_eq!(h.entry.bound, Bound::Exact);
                        hits += 1;
                    }
                }
                assert!(hits > 0);
            });
        }
    });
    assert!(tt.stats().replacements > 0);
}

#[test]
fn shared_table_reconfigures() {
    let mut tt = SharedTable::new(16 * MIB).unwrap();
    let e = Entry {
        best_move: None,
        value: 3,
        depth: SOLVED_DEPTH,
        bound: Bound::Lower,
    };
    tt.store(9, 0, e);
    tt.reconfigure(Config::new().solved(true)).unwrap();
    assert_eq!(tt.capacity(), 2 * (16 * MIB / 64) * 4);
    assert!(
        tt.probe(9, 0, 0).is_none(),
        "switching layouts empties the table"
    );
    tt.store(9, 0, e);
    assert_eq!(tt.probe(9, 0, 0).map(|h| h.entry.value), Some(3));
    // A store that is not to the end is dropped.
    tt.store(10, 0, Entry { depth: 5, ..e });
    assert!(tt.probe(10, 0, 0).is_none());
    assert_eq!(tt.stats().rejected, 1);
    // Refused: too small, or exact-depth probing; the table is unchanged.
    let mut small = SharedTable::new(MIB).unwrap();
    let err = small.reconfigure(Config::new().solved(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SolvedTooSmall);
    let err = tt
        .reconfigure(
            Config::new()
                .solved(true)
                .probe_policy(ProbePolicy::ExactDepth),
        )
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SolvedWithExactDepth);
    assert_eq!(tt.probe(9, 0, 0).map(|h| h.entry.value), Some(3));
    tt.reconfigure(Config::new()).unwrap();
    assert_eq!(tt.capacity(), 16 * MIB / 64 * 4);
    assert!(tt.probe(9, 0, 0).is_none());
}
