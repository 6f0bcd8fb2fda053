//! Probe + store throughput on random keys: the tables against a
//! `HashMap<u64, Entry>` (ahash) of about the same memory, at 16 MiB and
//! 1 GiB, one thread and two threads.
//!
//! One operation = `probe(key)` then `store(key, entry)` (for the map: `get`
//! then `insert`). All contenders see the same key stream: keys drawn
//! uniformly from a set as large as the map's capacity, so the map never
//! grows (it is filled before measuring) and the tables hold it all too.
//! The two-thread baseline is the map behind a `Mutex`.
//!
//! `TranspositionTable` runs with its default storage (an anonymous
//! mapping advised to use transparent huge pages, `Memory::Auto`) and on the
//! heap (`Memory::Heap`, 4 KiB pages like the map), so the run shows what the
//! huge pages give. The tables, like the map, are filled with every key
//! before measuring. The tables also run through the slot API
//! (`probe_slot` + `store_slot`: the store reuses the slot its probe found).
//!
//! Time is the CPU time of the measuring thread(s) (Linux
//! `/proc/thread-self/schedstat`; wall time elsewhere), so that a machine
//! shared with other jobs does not charge their time slices to us; for two
//! threads it is the larger of the two threads' CPU times, i.e. the wall time
//! they would take on two dedicated cores.
//!
//! Run: `cargo bench -p gametree-ttable --bench throughput -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ahash::RandomState;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gametree_ttable::{Config, Memory, SharedTable, Storage, Table, TranspositionTable};

#[path = "support/workload.rs"]
mod workload;
use workload::{Keys, Map, entry, key, map_capacity, thread_cpu_ns};

#[inline]
fn table_op<T: Table>(tt: &mut T, k: u64) {
    black_box(tt.probe(k, 4, 0));
    tt.store(k, 0, entry(k));
}

/// The same through the slot API: the store reuses the slot the probe found.
#[inline]
fn table_slot_op<T: Table>(tt: &mut T, k: u64) {
    let (hit, slot) = tt.probe_slot(k, 4, 0);
    black_box(hit);
    tt.store_slot(slot, 0, entry(k));
}

#[inline]
fn map_op(map: &mut Map, k: u64) {
    black_box(map.get(&k));
    map.insert(k, entry(k));
}

/// The CPU time `f` takes on this thread (wall time if unavailable).
fn measure(f: impl FnOnce()) -> Duration {
    let (cpu, wall) = (thread_cpu_ns(), Instant::now());
    f();
    match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b - a),
        _ => wall.elapsed(),
    }
}

fn run_one<S>(state: &mut S, iters: u64, keys: &mut Keys, op: impl Fn(&mut S, u64)) -> Duration {
    measure(|| {
        for _ in 0..iters {
            op(state, keys.next());
        }
    })
}

fn run_two<S: Sync>(shared: &S, iters: u64, n: u64, op: impl Fn(&S, u64) + Sync) -> Duration {
    std::thread::scope(|s| {
        let threads: Vec<_> = (0..2u64)
            .map(|t| {
                let op = &op;
                s.spawn(move || {
                    let mut keys = Keys::new(0x1234 + t, n);
                    measure(|| {
                        for _ in 0..iters {
                            op(shared, keys.next());
                        }
                    })
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .max()
            .unwrap()
    })
}

fn bench(c: &mut Criterion) {
    for (label, bytes) in [("16MiB", 16usize << 20), ("1GiB", 1 << 30)] {
        let cap = map_capacity(bytes);
        // hashbrown reserves room for one more entry before every insert,
        // even of a present key: one free slot keeps the map from growing.
        let n = cap as u64 - 1;
        let mut group = c.benchmark_group(format!("probe+store/{label}"));
        group.sample_size(10);

        group.throughput(Throughput::Elements(1));
        for memory in [Memory::Auto, Memory::Heap] {
            let config = Config::new().memory(memory);
            let mut tt = TranspositionTable::with_config(bytes, config).unwrap();
            for i in 0..n {
                tt.store(key(i), 0, entry(key(i)));
            }
            let name = match tt.storage() {
                Storage::Heap => "TranspositionTable (heap)",
                Storage::Mapped { huge_pages: true } => "TranspositionTable (huge pages)",
                Storage::Mapped { huge_pages: false } => "TranspositionTable (mapped)",
            };
            let mut keys = Keys::new(1, n);
            group.bench_function(BenchmarkId::new(name, "1 thread"), |b| {
                b.iter_custom(|iters| run_one(&mut tt, iters, &mut keys, table_op));
            });
            if memory == Memory::Auto {
                let mut keys = Keys::new(1, n);
                let id = BenchmarkId::new(format!("{name}, slot API"), "1 thread");
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| run_one(&mut tt, iters, &mut keys, table_slot_op));
                });
            }
        }
        let shared = SharedTable::new(bytes).unwrap();
        {
            for i in 0..n {
                shared.store(key(i), 0, entry(key(i)));
            }
            let mut keys = Keys::new(1, n);
            group.bench_function(BenchmarkId::new("SharedTable", "1 thread"), |b| {
                b.iter_custom(|iters| run_one(&mut &shared, iters, &mut keys, table_op));
            });
            let mut keys = Keys::new(1, n);
            group.bench_function(BenchmarkId::new("SharedTable, slot API", "1 thread"), |b| {
                b.iter_custom(|iters| run_one(&mut &shared, iters, &mut keys, table_slot_op));
            });
        }
        let mut map = Map::with_capacity_and_hasher(cap, RandomState::with_seeds(1, 2, 3, 4));
        for i in 0..n {
            map.insert(key(i), entry(key(i)));
        }
        assert_eq!(map.capacity(), cap, "the map must not grow");
        {
            let mut keys = Keys::new(1, n);
            group.bench_function(BenchmarkId::new("HashMap+ahash", "1 thread"), |b| {
                b.iter_custom(|iters| run_one(&mut map, iters, &mut keys, map_op));
            });
            assert_eq!(map.capacity(), cap, "the map must not grow");
        }

        group.throughput(Throughput::Elements(2));
        group.bench_function(BenchmarkId::new("SharedTable", "2 threads"), |b| {
            b.iter_custom(|iters| run_two(&shared, iters, n, |t, k| table_op(&mut &*t, k)));
        });
        group.bench_function(
            BenchmarkId::new("SharedTable, slot API", "2 threads"),
            |b| {
                b.iter_custom(|iters| {
                    run_two(&shared, iters, n, |t, k| table_slot_op(&mut &*t, k))
                });
            },
        );
        drop(shared);
        let locked = Mutex::new(map);
        group.bench_function(BenchmarkId::new("Mutex<HashMap+ahash>", "2 threads"), |b| {
            b.iter_custom(|iters| {
                run_two(&locked, iters, n, |m, k| map_op(&mut m.lock().unwrap(), k))
            });
        });
        assert_eq!(
            locked.lock().unwrap().capacity(),
            cap,
            "the map must not grow"
        );
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
