//! Probe+store throughput, contenders interleaved: the measurement of
//! `benches/throughput.rs` (same keys, entries and baseline map), but each
//! contender runs `ops` operations in turn, round after round, so that all
//! of them meet the same load on a shared machine. Prints, per contender,
//! the median and minimum CPU time per operation over the rounds, the
//! median of the per-round ratios "map time / this time" (two threads:
//! "`Mutex<HashMap>` time / this time"), and the same in wall time (for two
//! threads CPU time leaves out the time a thread sleeps on the mutex; wall
//! time counts it, but also other jobs' time slices).
//!
//! Run: `cargo run --release -p gametree-ttable --example interleaved -- [MiB] [rounds] [ops] [contenders...]`
//! (defaults: 16 MiB, 15 rounds, 1000000 operations; all contenders).
//!
//! Contenders (one thread unless named `...2...`):
//! * `floor-read`, `floor-rmw`: the memory floor, one random 8-byte read
//!   (read-modify-write) per operation in a huge-page mapping of the size;
//! * `tt`: `TranspositionTable` (default storage), `probe` + `store`;
//!   `tt-slot`: `probe_slot` + `store_slot`; `tt-heap`: `Memory::Heap`;
//! * `map`: `HashMap<u64, Entry>` + ahash, `get` + `insert` (the baseline);
//! * `tt-d`, `map-d`: the same, but the caller reads the found entry's
//!   fields (folded into one word) instead of `black_box`ing the result,
//!   which for the map is only a pointer to the entry, not its contents;
//! * `shared`, `shared-slot`: `SharedTable`; `shared2`, `shared2-slot`: two
//!   threads on it; `mutex2`: two threads on a `Mutex<HashMap>` (their
//!   baseline).
//!
//! Each measured loop is its own non-inlined function (`run_*`), so
//! `valgrind --tool=callgrind --toggle-collect='*run_*'` counts one
//! contender's instructions alone (run one contender, one round).

use std::hint::black_box;
use std::sync::Mutex;
use std::time::Instant;

use ahash::RandomState;
use gametree_ttable::{Config, Entry, Memory, SharedTable, Table, TranspositionTable};
use zerocopy::FromBytes;

#[path = "../benches/support/workload.rs"]
mod workload;
use workload::{Keys, Map, entry, key, map_capacity, thread_cpu_ns};

/// CPU nanoseconds `f` takes on this thread (wall time if unavailable).
fn measure(f: impl FnOnce()) -> u64 {
    let (cpu, wall) = (thread_cpu_ns(), Instant::now());
    f();
    match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_nanos() as u64,
    }
}

#[inline(never)]
fn run_tt(tt: &mut TranspositionTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(tt.probe(k, 4, 0));
        tt.store(k, 0, entry(k));
    }
}

#[inline(never)]
fn run_tt_slot(tt: &mut TranspositionTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        let (hit, slot) = tt.probe_slot(k, 4, 0);
        black_box(hit);
        tt.store_slot(slot, 0, entry(k));
    }
}

#[inline(never)]
fn run_tt_probe(tt: &mut TranspositionTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(tt.probe(k, 4, 0));
    }
}

/// What a searcher reads from a found entry, folded into one word.
#[inline]
fn digest(e: &Entry, usable: bool) -> u64 {
    (e.value as u32 as u64)
        ^ u64::from(e.depth) << 32
        ^ (e.bound as u64) << 40
        ^ u64::from(e.best_move.unwrap_or(u16::MAX)) << 44
        ^ u64::from(usable) << 63
}

#[inline(never)]
fn run_tt_digest(tt: &mut TranspositionTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        let (hit, slot) = tt.probe_slot(k, 4, 0);
        black_box(hit.map_or(0, |h| digest(&h.entry, h.usable)));
        tt.store_slot(slot, 0, entry(k));
    }
}

#[inline(never)]
fn run_map_digest(map: &mut Map, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(map.get(&k).map_or(0, |e| digest(e, e.depth >= 4)));
        map.insert(k, entry(k));
    }
}

#[inline(never)]
fn run_tt_store(tt: &mut TranspositionTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        tt.store(k, 0, entry(k));
    }
}

#[inline(never)]
fn run_map_get(map: &mut Map, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(map.get(&k));
    }
}

#[inline(never)]
fn run_map_insert(map: &mut Map, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        map.insert(k, entry(k));
    }
}

#[inline(never)]
fn run_shared(tt: &SharedTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(tt.probe(k, 4, 0));
        tt.store(k, 0, entry(k));
    }
}

#[inline(never)]
fn run_shared_slot(tt: &SharedTable, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        let (hit, slot) = tt.probe_slot(k, 4, 0);
        black_box(hit);
        tt.store_slot(slot, 0, entry(k));
    }
}

/// The memory floor: one random 8-byte read (or read-modify-write) per
/// operation in a huge-page mapping of the table's size, nothing else.
#[inline(never)]
fn run_floor(words: &mut [u64], keys: &mut Keys, ops: u64, write: bool) {
    let mask = words.len() as u64 / 8 - 1;
    for _ in 0..ops {
        let k = keys.next();
        let i = (k & mask) as usize * 8;
        if write {
            words[i] = words[i].wrapping_add(k);
        } else {
            black_box(words[i]);
        }
    }
}

#[inline(never)]
fn run_map(map: &mut Map, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        black_box(map.get(&k));
        map.insert(k, entry(k));
    }
}

#[inline(never)]
fn run_mutex(map: &Mutex<Map>, keys: &mut Keys, ops: u64) {
    for _ in 0..ops {
        let k = keys.next();
        let mut m = map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        black_box(m.get(&k));
        m.insert(k, entry(k));
    }
}

/// Two threads, each with its own key stream; the larger CPU time.
fn two<S: Sync>(s: &S, keys: &mut [Keys; 2], ops: u64, run: fn(&S, &mut Keys, u64)) -> u64 {
    std::thread::scope(|sc| {
        let hs: Vec<_> = keys
            .iter_mut()
            .map(|k| sc.spawn(move || measure(|| run(s, k, ops))))
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or(0))
            .max()
            .unwrap_or(0)
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mib: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(16);
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let ops: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let all = [
        "floor-read",
        "floor-rmw",
        "tt",
        "tt-slot",
        "tt-heap",
        "map",
        "tt-d",
        "map-d",
        "shared",
        "shared-slot",
        "shared2",
        "shared2-slot",
        "mutex2",
    ];
    let chosen: Vec<&str> = if args.len() > 3 {
        args[3..].iter().map(String::as_str).collect()
    } else {
        all.to_vec()
    };
    let bytes = mib << 20;
    let cap = map_capacity(bytes);
    let n = cap as u64 - 1;
    let want = |c: &str| chosen.contains(&c);

    let fill_tt = |memory| {
        let mut tt =
            TranspositionTable::with_config(bytes, Config::new().memory(memory)).expect("table");
        for i in 0..n {
            tt.store(key(i), 0, entry(key(i)));
        }
        tt
    };
    let mut tt = (want("tt") || want("tt-d") || want("tt-probe") || want("tt-store"))
        .then(|| fill_tt(Memory::Auto));
    let mut tt_heap = want("tt-heap").then(|| fill_tt(Memory::Heap));
    let mut tt_slot = want("tt-slot").then(|| fill_tt(Memory::Auto));
    let mut floor = (want("floor-read") || want("floor-rmw")).then(|| {
        let mut m = memmap2::MmapOptions::new()
            .len(bytes)
            .map_anon()
            .expect("mapping");
        let _ = m.advise(memmap2::Advice::HugePage);
        m.fill(1);
        m
    });
    let shared = (want("shared") || want("shared2") || want("shared-slot") || want("shared2-slot"))
        .then(|| {
            let t = SharedTable::new(bytes).expect("table");
            for i in 0..n {
                t.store(key(i), 0, entry(key(i)));
            }
            t
        });
    let mut map =
        (want("map") || want("mutex2") || want("map-get") || want("map-insert") || want("map-d"))
            .then(|| {
                let mut m = Map::with_capacity_and_hasher(cap, RandomState::with_seeds(1, 2, 3, 4));
                for i in 0..n {
                    m.insert(key(i), entry(key(i)));
                }
                m
            });
    let locked = want("mutex2").then(|| Mutex::new(map.clone().unwrap_or_default()));
    if !want("map") && !want("map-d") && !want("map-get") && !want("map-insert") {
        map = None;
    }
    if let Some(t) = &tt {
        println!("tt storage: {:?}", t.storage());
    }
    // How much of the process's memory the kernel actually backs with huge
    // pages (the advice can be taken and still not granted).
    if let Ok(s) = std::fs::read_to_string("/proc/self/smaps_rollup") {
        for l in s
            .lines()
            .filter(|l| l.starts_with("Rss") || l.starts_with("AnonHuge"))
        {
            println!("{}", l.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    println!("{mib} MiB, {n} distinct keys, {rounds} rounds x {ops} ops; contenders: {chosen:?}");

    // Every contender gets the same key sequence (same seed), continued
    // from round to round.
    let mut keys: Vec<Keys> = chosen.iter().map(|_| Keys::new(1, n)).collect();
    let mut keys2: Vec<[Keys; 2]> = chosen
        .iter()
        .map(|_| [Keys::new(0x1234, n), Keys::new(0x1235, n)])
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); chosen.len()];
    let mut walls: Vec<Vec<f64>> = vec![Vec::new(); chosen.len()];
    for _ in 0..rounds {
        for (c, name) in chosen.iter().enumerate() {
            let k = &mut keys[c];
            let wall = Instant::now();
            let ns = match *name {
                "tt" => tt.as_mut().map(|t| measure(|| run_tt(t, k, ops))),
                "tt-heap" => tt_heap.as_mut().map(|t| measure(|| run_tt(t, k, ops))),
                "tt-slot" => tt_slot.as_mut().map(|t| measure(|| run_tt_slot(t, k, ops))),
                "map" => map.as_mut().map(|m| measure(|| run_map(m, k, ops))),
                "tt-d" => tt.as_mut().map(|t| measure(|| run_tt_digest(t, k, ops))),
                "map-d" => map.as_mut().map(|m| measure(|| run_map_digest(m, k, ops))),
                "tt-probe" => tt.as_mut().map(|t| measure(|| run_tt_probe(t, k, ops))),
                "tt-store" => tt.as_mut().map(|t| measure(|| run_tt_store(t, k, ops))),
                "map-get" => map.as_mut().map(|m| measure(|| run_map_get(m, k, ops))),
                "map-insert" => map.as_mut().map(|m| measure(|| run_map_insert(m, k, ops))),
                "shared" => shared.as_ref().map(|t| measure(|| run_shared(t, k, ops))),
                "shared-slot" => shared
                    .as_ref()
                    .map(|t| measure(|| run_shared_slot(t, k, ops))),
                "shared2-slot" => shared
                    .as_ref()
                    .map(|t| two(t, &mut keys2[c], ops, run_shared_slot)),
                "floor-read" | "floor-rmw" => floor.as_mut().map(|m| {
                    let words = <[u64]>::mut_from_bytes(m).unwrap_or(&mut []);
                    measure(|| run_floor(words, k, ops, *name == "floor-rmw"))
                }),
                "shared2" => shared
                    .as_ref()
                    .map(|t| two(t, &mut keys2[c], ops, run_shared)),
                "mutex2" => locked
                    .as_ref()
                    .map(|m| two(m, &mut keys2[c], ops, run_mutex)),
                other => panic!("unknown contender {other}"),
            };
            times[c].push(ns.unwrap_or(0) as f64 / ops as f64);
            walls[c].push(wall.elapsed().as_nanos() as f64 / ops as f64);
        }
    }
    let base = |two: bool| {
        let name = if two { "mutex2" } else { "map" };
        chosen.iter().position(|c| *c == name)
    };
    println!(
        "{:<13} {:>9} {:>7} {:>9} {:>9} {:>9}",
        "contender", "median ns", "min ns", "base/this", "wall ns", "base/this"
    );
    let ratio = |t: &[Vec<f64>], b: Option<usize>, c: usize| {
        b.map_or_else(
            || "-".to_string(),
            |b| {
                let mut r: Vec<f64> = (0..rounds).map(|i| t[b][i] / t[c][i]).collect();
                format!("{:.2}x", median(&mut r))
            },
        )
    };
    for (c, name) in chosen.iter().enumerate() {
        let b = base(name.contains('2'));
        let min = times[c].iter().copied().fold(f64::INFINITY, f64::min);
        let med = median(&mut times[c].clone());
        let wall = median(&mut walls[c].clone());
        println!(
            "{name:<13} {med:>9.1} {min:>7.1} {:>9} {wall:>9.1} {:>9}",
            ratio(&times, b, c),
            ratio(&walls, b, c)
        );
    }
}
