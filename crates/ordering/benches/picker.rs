//! The staged picker against scoring every move and sorting the whole list,
//! on a chess-sized list (40 moves, 6 of them tactical), when the first move
//! causes the cutoff (the common case in a well-ordered search) and when
//! every move is searched.

use arrayvec::ArrayVec;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gametree_game::{Game, Player};
use gametree_ordering::{History, MovePicker, Policy};
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;
use common::{Moves, Mv, Toy};

/// A small deterministic generator (xorshift), so the bench needs no deps.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

struct Setup {
    game: Toy,
    history: History<Toy>,
    tt: Option<Mv>,
    killers: [Mv; 2],
    counter: Option<Mv>,
}

fn setup(moves: usize, tactical: usize) -> Setup {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut legal: Vec<Mv> = Vec::new();
    while legal.len() < moves {
        let m = Mv((rng.next() % Mv::COUNT as u64) as u16);
        if !legal.contains(&m) {
            legal.push(m);
        }
    }
    let mut scores = vec![None; Mv::COUNT];
    for &m in &legal[..tactical] {
        scores[m.index()] = Some((rng.next() % 100) as i32);
    }
    let mut history = History::new(Policy::Gravity);
    for _ in 0..2000 {
        let m = legal[(rng.next() % moves as u64) as usize];
        history.reward(Player::First, m, (rng.next() % 10) as u32);
    }
    // Suggestions: a quiet TT move, two quiet killers, a quiet counter-move.
    let quiet = &legal[tactical..];
    Setup {
        tt: Some(quiet[7]),
        killers: [quiet[3], quiet[11]],
        counter: Some(quiet[20]),
        game: Toy::new(legal, scores, Player::First),
        history,
    }
}

/// Picks `take` moves with the staged picker.
fn picker(s: &Setup, moves: &mut Moves, take: usize) -> u32 {
    s.game.generate(moves);
    let mut picker = MovePicker::<Toy>::new_tactical(s.tt)
        .with_killers(&s.killers)
        .with_counter(s.counter);
    let mut sum = 0u32;
    for _ in 0..take {
        match picker.next(&s.game, moves, &s.history) {
            Some(m) => sum = sum.wrapping_add(u32::from(m.0)),
            None => break,
        }
    }
    sum
}

/// The same order by scoring every move into one key and sorting the list.
fn full_sort(s: &Setup, moves: &mut Moves, take: usize) -> u32 {
    s.game.generate(moves);
    let mut keyed: ArrayVec<(i64, Mv), 512> = moves
        .iter()
        .map(|&m| {
            let key = if Some(m) == s.tt {
                5 << 40
            } else if let Some(t) = s.game.move_hint(m).tactical() {
                (4 << 40) + i64::from(t)
            } else if let Some(i) = s.killers.iter().position(|&k| k == m) {
                (3 << 40) - i as i64
            } else if Some(m) == s.counter {
                2 << 40
            } else {
                i64::from(s.history.score(Player::First, m))
            };
            (key, m)
        })
        .collect();
    keyed.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
    keyed
        .iter()
        .take(take)
        .fold(0u32, |sum, &(_, m)| sum.wrapping_add(u32::from(m.0)))
}

fn bench(c: &mut Criterion) {
    let s = setup(40, 6);
    // Both orders agree (up to ties, which the setup avoids on the first moves).
    let mut a = Moves::default();
    let mut b = Moves::default();
    assert_eq!(picker(&s, &mut a, 9), full_sort(&s, &mut b, 9));

    let mut group = c.benchmark_group("order 40 moves");
    for take in [1usize, 8, 40] {
        group.bench_with_input(BenchmarkId::new("picker", take), &take, |bench, &take| {
            let mut moves = Moves::default();
            bench.iter(|| picker(black_box(&s), &mut moves, take));
        });
        group.bench_with_input(
            BenchmarkId::new("full sort", take),
            &take,
            |bench, &take| {
                let mut moves = Moves::default();
                bench.iter(|| full_sort(black_box(&s), &mut moves, take));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
