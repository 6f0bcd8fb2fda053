//! Profiling aid (not part of the crate's API): runs one kind of index-level
//! work of `FastEndgame` over every index of an ending, to be measured by
//! callgrind. Modes: `count` (successor_count, exits ignored), `exits`
//! (successor_count, each exit's outcome computed), `preds`
//! (predecessor_indices of every valid index), `blocks` (predecessor_block
//! of every block of 64 indices, its valid indices as members; the same
//! sum as `preds`), `decode` (position()), `runs` (successor_counts over
//! all indices, exits ignored), `runs-exits` (the same, each exit's
//! outcome computed). With `HALF=0` (`HALF=1`) the `runs` modes cover only
//! the indices with White (Black) to move.

use gametree_chess_tables::FastEndgame;
use gametree_game::{Counted, Game, IndexMoves, IndexSpace};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let material = args.first().map_or("KQvKR", String::as_str);
    let mode = args.get(1).map_or("count", String::as_str);
    let space = FastEndgame::new(material)?;
    let mut sum = 0u64;
    if mode == "runs" || mode == "runs-exits" {
        let exits = mode == "runs-exits";
        let range = match std::env::var("HALF").ok().as_deref() {
            Some("0") => 0..space.size() / 2,
            Some("1") => space.size() / 2..space.size(),
            _ => 0..space.size(),
        };
        space.successor_counts(range, |_, r| match r {
            Counted::Done(Some((_, c))) => sum += c as u64,
            Counted::Exit(child) if exits => sum += u64::from(child.outcome().is_some()),
            _ => {}
        });
        println!("{material} {mode}: {sum}");
        return Ok(());
    }
    if mode == "blocks" {
        for first in (0..space.size()).step_by(64) {
            let members = (0..64u64.min(space.size() - first))
                .filter(|&k| space.position(first + k).is_some())
                .fold(0u64, |m, k| m | 1 << k);
            space.predecessor_block(first, members, |_, p| sum = sum.wrapping_add(p));
        }
        println!("{material} {mode}: {sum}");
        return Ok(());
    }
    for i in 0..space.size() {
        match mode {
            "count" => {
                if let Some((_, c)) = space.successor_count(i, |_| {}) {
                    sum += c as u64;
                }
            }
            "exits" => {
                if let Some((_, c)) = space.successor_count(i, |child| {
                    sum += u64::from(child.outcome().is_some());
                }) {
                    sum += c as u64;
                }
            }
            "preds" => {
                if space.position(i).is_some() {
                    space.predecessor_indices(i, |p| sum = sum.wrapping_add(p));
                }
            }
            _ => sum += u64::from(space.position(i).is_some()),
        }
    }
    println!("{material} {mode}: {sum}");
    Ok(())
}
