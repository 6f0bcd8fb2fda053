//! Speed of move generation (perft, generic against bitboard) and of the
//! knowledge functions a solver calls at every node.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gametree_game::{Game, perft};
use gametree_games_connect4::{Board, Moves, perft_bitboard};

/// 1000 positions from deterministic pseudo-random playouts (8..30 plies).
fn positions() -> Vec<Board> {
    let mut state = 0x1234_5678_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    let mut moves = Moves::new();
    while out.len() < 1000 {
        let mut b = Board::standard();
        let plies = 8 + next() % 23;
        for _ in 0..plies {
            b.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            b.make(moves[(next() % moves.len() as u64) as usize]);
        }
        if !b.is_over() && !b.can_win_now() {
            out.push(b);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft 7x6 depth 6");
    g.bench_function("generic gametree_game::perft", |b| {
        let mut board = Board::standard();
        b.iter(|| perft(black_box(&mut board), 6));
    });
    g.bench_function("perft_bitboard", |b| {
        let board = Board::standard();
        b.iter(|| perft_bitboard(black_box(&board), 6));
    });
    g.finish();

    let set = positions();
    let mut g = c.benchmark_group("knowledge, 1000 positions");
    g.bench_function("non_losing_moves", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| black_box(p).non_losing_moves())
                .fold(0, |a, m| a ^ m)
        });
    });
    g.bench_function("threats_after every non-losing move", |b| {
        b.iter(|| {
            let mut total = 0;
            for p in &set {
                let mut m = black_box(p).non_losing_moves();
                while m != 0 {
                    let cell = m & m.wrapping_neg();
                    m ^= cell;
                    total += p.threats_after(cell);
                }
            }
            total
        });
    });
    g.bench_function("symmetric_key", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| black_box(p).symmetric_key())
                .fold(0, |a, k| a ^ k)
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
