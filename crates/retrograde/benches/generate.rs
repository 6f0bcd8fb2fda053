//! Generation time: tic-tac-toe (symmetric index), by both methods (the
//! chess endings' bench is `gametree-chess-tables`'s `generate`).
//!
//! ```text
//! cargo bench -p gametree-retrograde --bench generate
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
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

criterion_group!(benches, tictactoe);
criterion_main!(benches);
