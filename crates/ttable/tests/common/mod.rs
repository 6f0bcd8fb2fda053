//! Strategies shared by the model tests.

use gametree_game::Score;
use gametree_ttable::{Bound, Entry};
use proptest::prelude::*;

/// One operation on a table: keys are indices into the test's key list.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    Store { key: usize, ply: u32, entry: Entry },
    Probe { key: usize, depth: u8, ply: u32 },
    NewGeneration,
}

pub(crate) fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![Just(Bound::Upper), Just(Bound::Lower), Just(Bound::Exact)]
}

/// A root-relative value that a search at `ply` can produce: heuristic, or
/// decisive at a distance of at least `ply`.
pub(crate) fn value(ply: u32) -> impl Strategy<Value = i32> {
    prop_oneof![
        (-Score::MAX_HEURISTIC..=Score::MAX_HEURISTIC),
        (0..100u32).prop_map(move |d| Score::win_in(ply + d).get()),
        (0..100u32).prop_map(move |d| Score::loss_in(ply + d).get()),
    ]
}
