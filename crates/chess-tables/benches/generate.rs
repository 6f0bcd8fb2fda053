//! Generation time of the chess endings KQvK and KRvK: over `Endgame`
//! (full positions) by both methods, and over `FastEndgame` (piece lists)
//! by the backward method, on one thread and on two.
//!
//! ```text
//! cargo bench -p gametree-chess-tables --bench generate
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use gametree_chess_tables::{Endgame, FastEndgame};
use gametree_retrograde::{Generator, Method};

fn methods() -> [(Method, &'static str); 2] {
    [
        (Method::Backward, "backward"),
        (Method::ForwardSweeps, "forward"),
    ]
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

criterion_group!(benches, chess);
criterion_main!(benches);
