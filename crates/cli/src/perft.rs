//! `gametree perft`: leaves of the legal-move tree.

use std::time::Instant;

use gametree_game::{Game, MoveBuffer};

use crate::error::Result;
use crate::games::{CliGame, Spec};
use crate::input::for_each_position;

/// Runs `perft` over the positions of `arg`; the count is the last line
/// for each position.
pub(crate) fn run<S: Spec>(spec: &S, arg: &str, depth: u32, divide: bool) -> Result<()> {
    for_each_position(spec, arg, |mut g, _, _| {
        let start = Instant::now();
        let total = if divide {
            if depth == 0 {
                1
            } else {
                let mut moves = <S::G as Game>::Moves::default();
                g.generate(&mut moves);
                let mut sum = 0;
                for &m in moves.as_slice() {
                    let undo = g.make(m);
                    let n = g.fast_perft(depth - 1);
                    g.unmake(m, undo);
                    println!("{m}: {n}");
                    sum += n;
                }
                sum
            }
        } else {
            g.fast_perft(depth)
        };
        if crate::progress::enabled() {
            eprintln!("perft {depth}: {} ms", start.elapsed().as_millis());
        }
        println!("{total}");
        Ok(())
    })
}
