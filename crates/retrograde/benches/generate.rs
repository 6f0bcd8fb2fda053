//! Generation time: tic-tac-toe (symmetric index) and the chess endings
//! KQvK and KRvK, by both methods, on one thread and on two (and by the
//! backward method over `FastEndgame`).
//!
//! ```text
//! cargo bench -p gametree-retrograde --bench generate
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use gametree_games_chess::{Endgame, FastEndgame};
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::{Generator, Method};

fn methods() -> [(Method, &'static str); 2] {
    [
        (Method::Backward, "backward"),
        (Method::ForwardSweeps, "forward"),
    ]
}

fn tictactoe(c: &mut Criterion) {
    let space = BoardIndex::symmetric();
    let mut group = c.benchmark_group("tictactoe");
    for (method, name) in methods() {
        group.bench_function(name, |b| {
            b.iter(|| Generator::new(&space).threads(1).build(method).unwrap());
        });
    }
    group.finish();
}

fn chess(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess");
    group.sample_size(10);
    for material in ["KQvK", "KRvK"] {
        // The same tables over piece lists (`FastEndgame`).
        let fast = FastEndgame::new(material).unwrap();
        for threads in [1, 2] {
            group.bench_function(format!("{material}/fast-backward/{threads}t"), |b| {
                b.iter(|| {
                    Generator::new(&fast)
                        .threads(threads)
                        .build(Method::Backward)
                        .unwrap()
                });
            });
        }
        let space = Endgame::new(material).unwrap();
        for (method, name) in methods() {
            for threads in [1, 2] {
                group.bench_function(format!("{material}/{name}/{threads}t"), |b| {
                    b.iter(|| {
                        Generator::new(&space)
                            .threads(threads)
                            .build(method)
                            .unwrap()
                    });
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, tictactoe, chess);
criterion_main!(benches);
