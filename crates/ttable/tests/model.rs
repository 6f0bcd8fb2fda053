//! Model-based tests: the tables against a `HashMap` of what was stored
//! (with prefetches before the probes, which must change nothing).

use std::collections::{HashMap, HashSet};

use gametree_game::Score;
use gametree_ttable::{
    Config, Entry, Hit, Memory, ProbePolicy, Replacement, SharedTable, Storage, Table,
    TranspositionTable,
};
use proptest::prelude::*;

mod common;
use common::{Op, bound, value};

fn op(keys: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..keys, 0..100u32, 0..8u8, bound(), prop::option::of(0..1000u16))
            .prop_flat_map(|(key, ply, depth, bound, best_move)| value(ply).prop_map(move |value| Op::Store {
                key,
                ply,
                entry: Entry { best_move, value, depth, bound },
            })),
        6 => (0..keys, 0..8u8, 0..100u32).prop_map(|(key, depth, ply)| Op::Probe { key, depth, ply }),
        1 => Just(Op::NewGeneration),
    ]
}

/// Keys with pairwise distinct top 16 bits (so that even 16 verification
/// bits tell them apart; the first key's are 0, the check value of an empty
/// compact slot) and arbitrary index and slot bits.
fn keys(n: usize) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(any::<u64>(), n).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, k)| (k & 0x0000_FFFF_FFFF_FFFF) | ((i as u64 * 0x9E37) & 0xFFFF) << 48)
            .collect()
    })
}

fn replacement() -> impl Strategy<Value = Replacement> {
    prop_oneof![
        Just(Replacement::Always),
        Just(Replacement::DepthPreferred),
        Just(Replacement::TwoTier),
        Just(Replacement::DepthMinusAge),
    ]
}

/// What the model expects for a key: the last entry stored (value kept
/// node-relative, converted with `gametree_game::Score`), and every move ever stored.
#[derive(Default)]
struct Expected {
    last: Option<(Entry, i32)>,
    moves: HashSet<u16>,
}

fn node_relative(value: i32, ply: u32) -> i32 {
    Score::new(value).to_node_relative(ply).get()
}

fn check_hit(hit: &Hit, exp: &Expected, depth: u8, ply: u32, probe: ProbePolicy) {
    let (last, node_value) = exp.last.expect("a hit for a key never stored");
    assert_eq!(
        hit.entry.value,
        Score::new(node_value).to_root_relative(ply).get()
    );
    assert_eq!(hit.entry.depth, last.depth);
    assert_eq!(hit.entry.bound, last.bound);
    match last.best_move {
        Some(m) => assert_eq!(hit.entry.best_move, Some(m)),
        None => assert!(hit.entry.best_move.is_none_or(|m| exp.moves.contains(&m))),
    }
    let usable = match probe {
        ProbePolicy::Normal => last.depth >= depth,
        ProbePolicy::ExactDepth => last.depth == depth,
    };
    assert_eq!(hit.usable, usable);
}

/// Runs `ops` on `table` and on the model; every hit must be exactly the
/// last entry stored for the key, and the counters must add up.
fn run<T: Table>(table: &mut T, config: Config, keys: &[u64], ops: &[Op]) {
    let mut model: HashMap<u64, Expected> = HashMap::new();
    let (mut probes, mut hits, mut stores, mut rejected) = (0, 0, 0, 0);
    for op in ops {
        match *op {
            Op::Store { key, ply, entry } => {
                let key = keys[key];
                let before = table.stats().rejected;
                table.store(key, ply, entry);
                stores += 1;
                let e = model.entry(key).or_default();
                if let Some(m) = entry.best_move {
                    e.moves.insert(m);
                }
                let was_rejected = table.stats().rejected > before;
                if was_rejected {
                    rejected += 1;
                    // Only depth-preferred replacement ever refuses a store,
                    // and then the key is not in the table.
                    assert_eq!(config.get_replacement(), Replacement::DepthPreferred);
                    assert!(table.probe(key, 0, 0).is_none());
                    probes += 1;
                    e.last = None;
                } else {
                    e.last = Some((entry, node_relative(entry.value, ply)));
                    // Just stored: found at once, with the same entry.
                    let hit = table.probe(key, entry.depth, ply).expect("just stored");
                    probes += 1;
                    hits += 1;
                    check_hit(&hit, e, entry.depth, ply, config.get_probe_policy());
                    if entry.best_move.is_none() {
                        // Remember what the table kept, for later probes.
                        if let Some(m) = hit.entry.best_move {
                            e.last = Some((
                                Entry {
                                    best_move: Some(m),
                                    ..entry
                                },
                                node_relative(entry.value, ply),
                            ));
                        }
                    }
                }
            }
            Op::Probe { key, depth, ply } => {
                let key = keys[key];
                // A prefetch (of this key and of one never stored) is a hint
                // only: the probe and the counters below are unchanged.
                table.prefetch(key);
                table.prefetch(!key);
                probes += 1;
                if let Some(hit) = table.probe(key, depth, ply) {
                    hits += 1;
                    let exp = model.get(&key).expect("a hit for a key never stored");
                    check_hit(&hit, exp, depth, ply, config.get_probe_policy());
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
    assert!(s.replacements <= s.stores);
    assert!(table.hashfull() <= 1000);
    table.clear();
    for &k in keys {
        assert!(table.probe(k, 0, 0).is_none());
    }
}

fn config() -> impl Strategy<Value = Config> {
    (
        replacement(),
        any::<bool>(),
        prop_oneof![Just(16u32), Just(40), Just(64)],
    )
        .prop_map(|(r, exact, bits)| {
            let c = Config::new().replacement(r);
            if exact {
                Config::verification().replacement(r)
            } else {
                c.check_bits(bits)
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On the heap and in a memory mapping (the storage large tables get by
    /// default): the same behaviour.
    #[test]
    fn single_table_matches_model(
        config in config(),
        mapped in any::<bool>(),
        buckets in 1usize..5,
        keys in keys(40),
        ops in prop::collection::vec(op(40), 1..300),
    ) {
        let config = config.memory(if mapped { Memory::Mapped } else { Memory::Heap });
        let mut tt = TranspositionTable::with_config(buckets * 64 + 17, config).unwrap();
        prop_assert_eq!(tt.storage() != Storage::Heap, mapped && cfg!(unix));
        run(&mut tt, config, &keys, &ops);
    }

    #[test]
    fn shared_table_matches_model(
        config in config(),
        buckets in 1usize..5,
        keys in keys(40),
        ops in prop::collection::vec(op(40), 1..300),
    ) {
        let tt = SharedTable::with_config(buckets * 64, config).unwrap();
        run(&mut &tt, config, &keys, &ops);
    }

    /// Direct-mapped policies are simulated exactly: a key is found if and
    /// only if it is the last key the policy let into its slot.
    #[test]
    fn direct_mapped_policies_are_exact(
        depth_preferred in any::<bool>(),
        wide in any::<bool>(),
        mapped in any::<bool>(),
        keys in keys(40),
        ops in prop::collection::vec(op(40), 1..300),
    ) {
        let policy = if depth_preferred { Replacement::DepthPreferred } else { Replacement::Always };
        let memory = if mapped { Memory::Mapped } else { Memory::Heap };
        let config = Config::new().replacement(policy).check_bits(if wide { 64 } else { 16 }).memory(memory);
        let slots = if wide { 4 } else { 8 };
        let buckets = 4u64; // a power of two: the index is the low 2 bits
        let mut tt = TranspositionTable::with_config(buckets as usize * 64, config).unwrap();
        // slot -> (key, depth, generation)
        let mut sim: HashMap<(u64, u64), (u64, u8, u8)> = HashMap::new();
        let mut generation = 0u8;
        for op in &ops {
            match *op {
                Op::Store { key, ply, entry } => {
                    let key = keys[key];
                    let slot = (key % buckets, (key >> 32 & 0xF) % slots);
                    let replace = match sim.get(&slot) {
                        None => true,
                        Some(&(k, d, g)) => !depth_preferred || k == key || g != generation || entry.depth >= d,
                    };
                    if replace {
                        sim.insert(slot, (key, entry.depth, generation));
                    }
                    tt.store(key, ply, entry);
                }
                Op::Probe { key, depth, ply } => {
                    let key = keys[key];
                    let slot = (key % buckets, (key >> 32 & 0xF) % slots);
                    let expect = sim.get(&slot).filter(|s| s.0 == key).map(|s| s.1);
                    prop_assert_eq!(tt.probe(key, depth, ply).map(|h| h.entry.depth), expect);
                }
                Op::NewGeneration => {
                    generation = (generation + 1) % 64;
                    tt.new_generation();
                }
            }
        }
    }
}

/// `probe_slot` + `store_slot` against `probe` + `store`: two tables get
/// the same operations, one through the slot API with slots that may be
/// stale (saved at the key's last probe, many operations ago) or foreign
/// (probed in a table of another size); every probe must answer alike and
/// the counters must agree.
fn run_slots<T: Table>(
    plain: &mut T,
    slotted: &mut T,
    foreign: &mut T,
    keys: &[u64],
    ops: &[(Op, u8)],
) {
    let mut saved: HashMap<u64, gametree_ttable::Slot> = HashMap::new();
    for (op, how) in ops {
        match *op {
            Op::Store { key, ply, entry } => {
                let key = keys[key];
                let slot = match how % 3 {
                    0 => saved
                        .get(&key)
                        .copied()
                        .unwrap_or(gametree_ttable::Slot::new(key)),
                    1 => foreign.probe_slot(key, 0, 0).1,
                    _ => {
                        // probed just before the store, as a searcher's leaf
                        let (hit, slot) = slotted.probe_slot(key, 0, 0);
                        assert_eq!(hit, plain.probe(key, 0, 0));
                        slot
                    }
                };
                assert_eq!(slot.key(), key);
                plain.store(key, ply, entry);
                slotted.store_slot(slot, ply, entry);
            }
            Op::Probe { key, depth, ply } => {
                let key = keys[key];
                let (hit, slot) = slotted.probe_slot(key, depth, ply);
                assert_eq!(slot.key(), key);
                assert_eq!(hit, plain.probe(key, depth, ply));
                saved.insert(key, slot);
            }
            Op::NewGeneration => {
                plain.new_generation();
                slotted.new_generation();
            }
        }
        assert_eq!(plain.stats(), slotted.stats());
    }
    for &k in keys {
        assert_eq!(plain.probe(k, 0, 0), slotted.probe(k, 0, 0));
    }
    assert_eq!(plain.hashfull(), slotted.hashfull());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn slot_api_equals_probe_and_store(
        config in config(),
        mapped in any::<bool>(),
        buckets in 1usize..5,
        keys in keys(40),
        ops in prop::collection::vec((op(40), any::<u8>()), 1..300),
    ) {
        let config = config.memory(if mapped { Memory::Mapped } else { Memory::Heap });
        let bytes = buckets * 64;
        let mut plain = TranspositionTable::with_config(bytes, config).unwrap();
        let mut slotted = TranspositionTable::with_config(bytes, config).unwrap();
        let mut foreign = TranspositionTable::with_config(bytes + 192, config).unwrap();
        run_slots(&mut plain, &mut slotted, &mut foreign, &keys, &ops);
    }

    #[test]
    fn shared_slot_api_equals_probe_and_store(
        config in config(),
        buckets in 1usize..5,
        keys in keys(40),
        ops in prop::collection::vec((op(40), any::<u8>()), 1..300),
    ) {
        let bytes = buckets * 64;
        let plain = SharedTable::with_config(bytes, config).unwrap();
        let slotted = SharedTable::with_config(bytes, config).unwrap();
        let foreign = SharedTable::with_config(bytes + 192, config).unwrap();
        run_slots(&mut &plain, &mut &slotted, &mut &foreign, &keys, &ops);
    }
}
