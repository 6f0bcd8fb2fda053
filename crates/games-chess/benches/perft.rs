//! Perft speed, single thread: this crate's bulk-counting perft against
//! the `cozy-chess` crate's (copy-make, bulk counting) in the same run.
//!
//! `cargo bench -p gametree-games-chess --bench perft`; criterion reports
//! the throughput in nodes (elements) per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree_games_chess::Position;

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// The positions timed: an id of the published perft table (the corpus
/// of `gametree-data`) and a depth.
const CASES: &[(&str, u32)] = &[("initial", 6), ("kiwipete", 5)];

fn bench(c: &mut Criterion) {
    let table = gametree_data::chess_perft().unwrap();
    for &(id, depth) in CASES {
        let row = table.iter().find(|r| r.id == id).unwrap();
        let (fen, nodes) = (row.fen.as_str(), row.nodes(depth).unwrap());
        let name = if id == "initial" { "startpos" } else { id };
        let mut group = c.benchmark_group(format!("perft/{name}-{depth}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(10));
        group.throughput(Throughput::Elements(nodes));
        let mut pos: Position = fen.parse().unwrap();
        assert_eq!(pos.perft(depth), nodes);
        group.bench_function("games-chess", |b| {
            b.iter(|| black_box(pos.perft(black_box(depth))))
        });
        let board = cozy_chess::Board::from_fen(fen, false).unwrap();
        assert_eq!(cozy_perft(&board, depth), nodes);
        group.bench_function("cozy-chess", |b| {
            b.iter(|| black_box(cozy_perft(black_box(&board), depth)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
