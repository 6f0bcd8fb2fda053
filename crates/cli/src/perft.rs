//! `gametree perft`: leaves of the legal-move tree.

use std::time::Instant;

use gametree_game::{Game, MoveBuffer};

use crate::error::Result;
use crate::games::{CliGame, Spec};
use crate::input::for_each_position;
use crate::progress;

/// An estimated count above this many leaves is said on standard error
/// before counting: at the hundreds of millions of leaves a second of the
/// bulk counters, minutes or more.
const LARGE_COUNT: f64 = 1e11;

/// Runs `perft` over the positions of `arg`; the count is the last line
/// for each position.
pub(crate) fn run<S: Spec>(spec: &S, arg: &str, depth: u32, divide: bool) -> Result<()> {
    for_each_position(spec, arg, |mut g, _, _| {
        if let Some(leaves) = estimate(&mut g, depth)
            && leaves > LARGE_COUNT
        {
            let about = if leaves.is_finite() {
                format!("about 10^{}", leaves.log10().floor())
            } else {
                "more than 10^300".to_owned()
            };
            eprintln!(
                "note: perft {depth} of this position may count {about} leaves (the growth of \
                 its first two plies, extrapolated): it may not finish in any reasonable time \
                 (Ctrl-C stops it)"
            );
        }
        let start = Instant::now();
        let total = if depth == 0 {
            1
        } else if divide || (depth >= 2 && progress::enabled()) {
            // Move by move from the root: the same sum, with a line per
            // move (--divide) or a bar on the terminal.
            let mut moves = <S::G as Game>::Moves::default();
            g.generate(&mut moves);
            let pb = progress::bar_later(moves.len() as u64, format!("perft {depth}"));
            let mut sum = 0;
            for &m in moves.as_slice() {
                let undo = g.make(m);
                let n = g.fast_perft(depth - 1);
                g.unmake(m, undo);
                if divide {
                    pb.suspend(|| println!("{m}: {n}"));
                }
                pb.inc(1);
                sum += n;
            }
            pb.finish_and_clear();
            sum
        } else {
            g.fast_perft(depth)
        };
        if progress::enabled() {
            eprintln!("perft {depth}: {} ms", start.elapsed().as_millis());
        }
        println!("{total}");
        Ok(())
    })
}

/// A rough count of the leaves at `depth`: the leaves at depth 2, times
/// the branching of the second ply for each ply beyond, the depth capped
/// by the game's length bound (where it has one). `None` for depths the
/// first plies count exactly (up to 4).
fn estimate<G: CliGame>(g: &mut G, depth: u32) -> Option<f64> {
    if depth <= 4 {
        return None;
    }
    let depth = g.remaining_plies().map_or(depth, |n| depth.min(n));
    let first = g.fast_perft(1);
    let second = g.fast_perft(2);
    if first == 0 || second == 0 || depth <= 2 {
        return None;
    }
    #[allow(clippy::cast_precision_loss)] // an estimate
    let (first, second) = (first as f64, second as f64);
    let branching = second / first;
    Some(second * branching.powf(f64::from(depth - 2)))
}
