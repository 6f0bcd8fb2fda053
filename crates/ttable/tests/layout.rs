//! Errors, sizes, verification bits, aging and occupancy.

use std::error::Error;

use gametree_ttable::{
    Bound, Config, Entry, ErrorKind, HUGE_PAGE_BYTES, MAX_BUCKETS, Memory, ProbePolicy,
    Replacement, SharedTable, Storage, Table, TranspositionTable,
};

fn entry(depth: u8, value: i32) -> Entry {
    Entry {
        best_move: Some(depth.into()),
        value,
        depth,
        bound: Bound::Exact,
    }
}

#[test]
fn bad_sizes_and_configs_are_typed_errors() {
    for bytes in [0, 1, 63] {
        let e = TranspositionTable::new(bytes).unwrap_err();
        assert_eq!(
            (e.kind(), e.requested_bytes()),
            (ErrorKind::TooSmall, bytes)
        );
        assert_eq!(
            SharedTable::new(bytes).unwrap_err().kind(),
            ErrorKind::TooSmall
        );
    }
    let too_large = (MAX_BUCKETS as usize + 1) * 64;
    for bytes in [too_large, usize::MAX] {
        assert_eq!(
            TranspositionTable::new(bytes).unwrap_err().kind(),
            ErrorKind::TooLarge
        );
        assert_eq!(
            SharedTable::new(bytes).unwrap_err().kind(),
            ErrorKind::TooLarge
        );
    }
    for bits in [0, 65, 1000] {
        let e = TranspositionTable::with_config(1024, Config::new().check_bits(bits)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidCheckBits);
    }
    let exact16 = Config::new()
        .check_bits(16)
        .probe_policy(ProbePolicy::ExactDepth);
    let e = TranspositionTable::with_config(1024, exact16).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ExactDepthNeedsFullKey);
    // Every error explains itself and is a std error.
    let boxed: Box<dyn Error> = Box::new(e);
    assert!(boxed.to_string().contains("exact-depth"));
    assert!(
        TranspositionTable::new(10)
            .unwrap_err()
            .to_string()
            .contains("10 bytes")
    );
}

/// Reads a `/proc/meminfo` field in bytes.
fn meminfo(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn failed_allocation_is_a_typed_error() {
    // The largest legal table, 256 GiB. Under Linux's default heuristic
    // overcommit (mode 0) or strict accounting (mode 2) an allocation larger
    // than RAM + swap is refused, so `try_reserve` fails. Elsewhere (mode 1
    // "always", or a machine that has the memory) the allocation would
    // succeed and be zero-filled, so the check is not run there.
    let bytes = MAX_BUCKETS as usize * 64;
    let mode = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let memory = meminfo("MemTotal:")
        .zip(meminfo("SwapTotal:"))
        .map(|(a, b)| a + b);
    let refused = matches!(mode.trim(), "0" | "2") && memory.is_some_and(|m| m < bytes as u64 / 2);
    if !refused {
        eprintln!("skipped: this system may grant a {bytes}-byte allocation (overcommit {mode:?})");
        return;
    }
    let e = TranspositionTable::new(bytes).unwrap_err();
    assert_eq!(
        (e.kind(), e.requested_bytes()),
        (ErrorKind::AllocationFailed, bytes)
    );
    assert_eq!(
        SharedTable::new(bytes).unwrap_err().kind(),
        ErrorKind::AllocationFailed
    );
}

#[test]
fn any_size_is_rounded_down_to_buckets() {
    let compact = Config::new().check_bits(16);
    let tt = TranspositionTable::with_config(3 * 64 + 63, compact).unwrap();
    assert_eq!((tt.size_bytes(), tt.capacity()), (192, 24));
    // The default verifies the whole key: the wide layout.
    let wide = TranspositionTable::new(1000).unwrap();
    assert_eq!((wide.size_bytes(), wide.capacity()), (960, 60));
    let shared = SharedTable::new(1000).unwrap();
    assert_eq!(shared.capacity(), 60);
}

#[test]
fn verification_bits_decide_false_hits() {
    // Same bucket (low 32 bits), same slot bits, same top 16 bits: only the
    // bits in between differ.
    let a = 0xABCD_0000_0000_1234u64;
    let b = 0xABCD_00F0_0000_1234u64;
    let c = 0xABCE_0000_0000_1234u64; // differs in the top 16 bits
    for policy in [Replacement::Always, Replacement::DepthMinusAge] {
        let mut compact =
            TranspositionTable::with_config(64, Config::new().check_bits(16).replacement(policy))
                .unwrap();
        compact.store(a, 0, entry(3, 7));
        assert_eq!(
            compact.probe(b, 0, 0).map(|h| h.entry.value),
            Some(7),
            "16 bits cannot tell"
        );
        assert!(compact.probe(c, 0, 0).is_none());
        let full = Config::verification().replacement(policy);
        let mut wide = TranspositionTable::with_config(64, full).unwrap();
        wide.store(a, 0, entry(3, 7));
        assert!(wide.probe(b, 0, 0).is_none());
        assert!(wide.probe(c, 0, 0).is_none());
        let shared = SharedTable::with_config(64, Config::new().replacement(policy)).unwrap();
        shared.store(a, 0, entry(3, 7));
        assert!(shared.probe(b, 0, 0).is_none());
        assert_eq!(shared.probe(a, 0, 0).map(|h| h.entry.value), Some(7));
    }
    // With 8 check bits, a difference in bits 48..56 is invisible.
    let mut k8 = TranspositionTable::with_config(64, Config::new().check_bits(8)).unwrap();
    k8.store(a, 0, entry(3, 7));
    assert!(k8.probe(0xABFF_0000_0000_1234, 0, 0).is_some());
    assert!(k8.probe(0xAACD_0000_0000_1234, 0, 0).is_none());
}

#[test]
fn exact_depth_policy() {
    let mut tt = TranspositionTable::with_config(1024, Config::verification()).unwrap();
    tt.store(9, 0, entry(4, 1));
    assert!(tt.probe(9, 4, 0).unwrap().usable);
    assert!(!tt.probe(9, 3, 0).unwrap().usable);
    assert!(!tt.probe(9, 5, 0).unwrap().usable);
    let mut normal = TranspositionTable::new(1024).unwrap();
    normal.store(9, 0, entry(4, 1));
    assert!(normal.probe(9, 3, 0).unwrap().usable);
    assert!(!normal.probe(9, 5, 0).unwrap().usable);
}

/// Keys that all land in bucket 0, slot group 0 of a one-bucket table.
fn colliding(i: u64) -> u64 {
    (i + 1) << 48
}

#[test]
fn depth_preferred_keeps_deep_entries_until_they_age() {
    let config = Config::new().replacement(Replacement::DepthPreferred);
    let mut tt = TranspositionTable::with_config(64, config).unwrap();
    tt.store(colliding(0), 0, entry(9, 1));
    tt.store(colliding(1), 0, entry(2, 2));
    assert_eq!(tt.stats().rejected, 1);
    assert!(tt.probe(colliding(1), 0, 0).is_none());
    assert!(tt.probe(colliding(0), 0, 0).is_some());
    tt.new_generation();
    tt.store(colliding(1), 0, entry(2, 2));
    assert!(tt.probe(colliding(0), 0, 0).is_none());
    assert_eq!(tt.probe(colliding(1), 0, 0).unwrap().entry.value, 2);
    assert_eq!(tt.stats().replacements, 1);
}

#[test]
fn two_tier_puts_shallow_entries_in_the_second_tier() {
    let config = Config::new().replacement(Replacement::TwoTier);
    let mut tt = TranspositionTable::with_config(64, config).unwrap();
    tt.store(colliding(0), 0, entry(9, 1));
    tt.store(colliding(1), 0, entry(2, 2));
    tt.store(colliding(2), 0, entry(3, 3)); // evicts colliding(1) from tier 2
    assert!(tt.probe(colliding(0), 0, 0).is_some());
    assert!(tt.probe(colliding(1), 0, 0).is_none());
    assert!(tt.probe(colliding(2), 0, 0).is_some());
    tt.store(colliding(3), 0, entry(10, 4)); // deeper: takes tier 1
    assert!(tt.probe(colliding(0), 0, 0).is_none());
    assert!(tt.probe(colliding(2), 0, 0).is_some());
}

#[test]
fn depth_minus_age_evicts_the_least_valuable() {
    for wide in [false, true] {
        let config = Config::new().check_bits(if wide { 64 } else { 16 });
        let mut tt = TranspositionTable::with_config(64, config).unwrap();
        let slots = tt.capacity() as u64;
        for i in 0..slots {
            tt.store(colliding(i), 0, entry(20 + i as u8, 0));
        }
        assert_eq!(tt.hashfull(), 1000);
        // The shallowest entry (depth 20) goes first.
        tt.store(colliding(100), 0, entry(1, 0));
        assert!(tt.probe(colliding(0), 0, 0).is_none());
        assert!(tt.probe(colliding(1), 0, 0).is_some());
        // After 3 generations a depth-21 entry scores 21 - 8 * 3 < 0: a
        // fresh depth-0 entry is worth more than the aged deep ones.
        for _ in 0..3 {
            tt.new_generation();
        }
        assert_eq!(tt.hashfull(), 0);
        tt.store(colliding(101), 0, entry(0, 0)); // evicts colliding(100): 1 - 24
        assert!(tt.probe(colliding(100), 0, 0).is_none());
        tt.store(colliding(102), 0, entry(0, 0)); // evicts colliding(1): 21 - 24
        assert!(tt.probe(colliding(1), 0, 0).is_none());
        assert!(tt.probe(colliding(101), 0, 0).is_some());
        assert!(tt.probe(colliding(2), 0, 0).is_some());
        assert!(tt.hashfull() > 0);
    }
}

#[test]
fn same_key_keeps_the_old_move_when_the_new_has_none() {
    let mut tt = TranspositionTable::new(64).unwrap();
    tt.store(1, 0, entry(3, 5));
    tt.store(
        1,
        0,
        Entry {
            best_move: None,
            value: -4,
            depth: 4,
            bound: Bound::Upper,
        },
    );
    let hit = tt.probe(1, 0, 0).unwrap().entry;
    assert_eq!(
        (hit.best_move, hit.value, hit.depth, hit.bound),
        (Some(3), -4, 4, Bound::Upper)
    );
}

#[test]
fn hashfull_and_clear() {
    let mut tt = TranspositionTable::new(64 * 1000).unwrap();
    let shared = SharedTable::new(64 * 1000).unwrap();
    let mut key = 1u64;
    for _ in 0..100_000 {
        key = key
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        tt.store(key, 0, entry(1, 0));
        shared.store(key, 0, entry(1, 0));
    }
    assert_eq!(tt.hashfull(), 1000);
    assert_eq!(shared.hashfull(), 1000);
    assert!(tt.probe(key, 0, 0).is_some());
    tt.clear();
    shared.clear();
    assert_eq!((tt.hashfull(), shared.hashfull()), (0, 0));
    assert!(tt.probe(key, 0, 0).is_none());
    assert!(shared.probe(key, 0, 0).is_none());
    tt.reset_stats();
    assert_eq!(tt.stats(), gametree_ttable::Stats::default());
}

#[test]
fn storage_follows_the_memory_setting() {
    let small = TranspositionTable::new(HUGE_PAGE_BYTES - 64).unwrap();
    assert_eq!(small.storage(), Storage::Heap);
    let heap = Config::new().memory(Memory::Heap);
    let large = TranspositionTable::with_config(HUGE_PAGE_BYTES, heap).unwrap();
    assert_eq!(large.storage(), Storage::Heap);
    let large = TranspositionTable::new(HUGE_PAGE_BYTES).unwrap();
    let forced = TranspositionTable::with_config(64, Config::new().memory(Memory::Mapped)).unwrap();
    if cfg!(target_os = "linux") {
        // The advice fails only on kernels without transparent huge pages.
        let thp = std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists();
        assert_eq!(large.storage(), Storage::Mapped { huge_pages: thp });
        assert_eq!(forced.storage(), Storage::Mapped { huge_pages: thp });
        assert!(format!("{large:?}").contains("storage: Mapped"));
    }
    assert_eq!(large.size_bytes(), HUGE_PAGE_BYTES);
    assert_eq!(forced.capacity(), 4);
}

#[test]
fn mapped_and_heap_tables_agree() {
    // The same stores into a mapped and a heap table of 4 MiB (enough to
    // replace): every probe gives the same answer, and so do the counters.
    let mix = |mut x: u64| {
        x ^= x >> 31;
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    };
    for config in [
        Config::new(),
        Config::verification(),
        Config::new().replacement(Replacement::TwoTier),
    ] {
        let mut mapped =
            TranspositionTable::with_config(4 << 20, config.memory(Memory::Mapped)).unwrap();
        let mut heap =
            TranspositionTable::with_config(4 << 20, config.memory(Memory::Heap)).unwrap();
        for i in 0..400_000u64 {
            let key = mix(i % 300_000);
            let e = entry((i % 13) as u8, (i % 2001) as i32 - 1000);
            mapped.store(key, (i % 5) as u32, e);
            heap.store(key, (i % 5) as u32, e);
            let probe = mix(i.wrapping_mul(7) % 300_000);
            assert_eq!(mapped.probe(probe, 6, 1), heap.probe(probe, 6, 1));
            if i % 100_000 == 0 {
                mapped.new_generation();
                heap.new_generation();
            }
        }
        assert_eq!(mapped.stats(), heap.stats());
        assert_eq!(mapped.hashfull(), heap.hashfull());
        assert!(mapped.stats().replacements > 0);
    }
}
