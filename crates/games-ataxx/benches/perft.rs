//! Ataxx perft(6) from the start position (141,865,520 leaves), single
//! thread, bulk counting at the last ply: leaf nodes per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree_games_ataxx::{Position, perft};
use std::hint::black_box;

fn perft6(c: &mut Criterion) {
    let pos = Position::startpos();
    // The published count (libataxx; the corpus of `gametree-data`).
    let table = gametree_data::ataxx_perft().unwrap();
    let start = table.iter().find(|r| r.id == "startpos").unwrap();
    let nodes = start.nodes(6).unwrap();
    let mut group = c.benchmark_group("ataxx");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("perft6_startpos", |b| {
        b.iter(|| {
            let n = perft(black_box(&pos), 6);
            assert_eq!(n, nodes);
            n
        });
    });
    group.finish();
}

criterion_group!(benches, perft6);
criterion_main!(benches);
