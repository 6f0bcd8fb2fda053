//! [`PawnEndgame`]'s index-level moves against its position-level
//! moves, and the tables built over each against each other.

use gametree_game::{Game, IndexMoves, IndexSpace, Predecessors};
use gametree_games_chess::Position;
use gametree_retrograde::{Generator, Method};

use super::*;
use crate::{BuildOptions, Tablebase};

/// [`IndexMoves`] at `index` reports exactly what the position-level
/// methods imply: validity, outcome, the distinct successor indices
/// (each once), the successors outside the space (one per move, as
/// positions) and the distinct predecessor indices (each once). Returns
/// validity.
fn index_moves_agree_at(space: &PawnEndgame, index: u64) -> bool {
    let (mut inside, mut exits) = (Vec::new(), Vec::new());
    let outcome = space.successor_indices(index, |j| inside.push(j), |c| exits.push(c.to_string()));
    let Some(p) = space.position(index) else {
        assert_eq!(outcome, None, "{index}");
        assert_eq!(space.successor_count(index, |_| {}), None, "{index}");
        assert!(inside.is_empty() && exits.is_empty());
        return false;
    };
    assert_eq!(outcome, Some(p.outcome()), "{p}");
    let mut counted_exits = 0;
    assert_eq!(
        space.successor_count(index, |_| counted_exits += 1),
        Some((p.outcome(), inside.len())),
        "{p}"
    );
    assert_eq!(counted_exits, exits.len(), "{p}");
    let (mut want_inside, mut want_exits) = (Vec::new(), Vec::new());
    if p.outcome().is_none() {
        let mut moves = <Position as Game>::Moves::default();
        p.generate(&mut moves);
        let mut r = p.clone();
        for &m in moves.as_slice() {
            let undo = r.make(m);
            match space.index_of(&r) {
                Some(j) => want_inside.push(j),
                None => {
                    // Compared as positions without counters.
                    let (turn, pieces) = (r.turn(), placed(&r));
                    let q = Position::from_pieces(turn, pieces).unwrap();
                    want_exits.push(q.to_string());
                }
            }
            r.unmake(m, undo);
        }
    }
    want_inside.sort_unstable();
    want_inside.dedup();
    let count = inside.len();
    inside.sort_unstable();
    inside.dedup();
    assert_eq!(count, inside.len(), "{p}: a successor twice");
    assert_eq!(inside, want_inside, "{p}");
    exits.sort();
    want_exits.sort();
    assert_eq!(exits, want_exits, "{p}");
    let mut preds = Vec::new();
    space.predecessor_indices(index, |j| preds.push(j));
    let count = preds.len();
    preds.sort_unstable();
    preds.dedup();
    assert_eq!(count, preds.len(), "{p}: a predecessor twice");
    let mut want_preds = Vec::new();
    space.predecessors(&p, &mut |j| want_preds.push(j));
    want_preds.sort_unstable();
    want_preds.dedup();
    assert_eq!(preds, want_preds, "{p}");
    true
}

/// The pieces of a position, for `Position::from_pieces`.
fn placed(p: &Position) -> Vec<(gametree_games_chess::Square, gametree_games_chess::Piece)> {
    (0..12)
        .flat_map(|n| {
            let mut bb = p.piece_squares(piece(n));
            core::iter::from_fn(move || {
                (bb != 0).then(|| {
                    let sq = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    (square(sq), piece(n))
                })
            })
        })
        .collect()
}

#[test]
fn index_moves_agree_with_the_position_moves_on_every_kpvk_index() {
    for sig in ["KPvK", "KvKP"] {
        let space = PawnEndgame::new(sig).unwrap();
        let valid = (0..space.size())
            .filter(|&i| index_moves_agree_at(&space, i))
            .count();
        assert!(valid > 100_000, "{sig}: {valid}");
    }
}

/// A small deterministic generator (xorshift).
fn sample(space: &PawnEndgame, seed: u64, from: u64, to: u64, count: usize) -> Vec<u64> {
    let mut x = seed | 1;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            from + x % (to - from).min(space.size() - from)
        })
        .collect()
}

#[test]
fn index_moves_agree_with_the_position_moves_on_sampled_indices() {
    for sig in [
        "KPvKP", "KPPvK", "KPvKPP", "KQvKP", "KRPvKR", "KPPvKP", "KBPvKN", "KPPPvK", "KNPvKP",
    ] {
        let space = PawnEndgame::new(sig).unwrap();
        let plain = 2 * space.positions_per_side();
        let mut valid = 0;
        for i in sample(&space, 0x9E37_79B9 ^ plain, 0, plain, 4_000) {
            valid += usize::from(index_moves_agree_at(&space, i));
        }
        assert!(valid > 300, "{sig}: {valid}");
        // The en-passant regions, where few indices are valid.
        if space.size() > plain {
            let mut ep = 0;
            for i in sample(&space, 0x51ED_27A3 ^ plain, plain, space.size(), 20_000) {
                ep += usize::from(index_moves_agree_at(&space, i));
            }
            assert!(ep > 50, "{sig}: {ep} valid en-passant indices");
        }
    }
}

/// Builds `ending` (its sub-endings taken from `tables`) by the indexed
/// backward method and by the backward method over positions: the same
/// table, index by index.
fn builds_agree(tables: &Tablebase, ending: &str) {
    let space = PawnEndgame::new(ending).unwrap();
    let fast = Generator::new(&space)
        .resolver(tables)
        .backward_indexed()
        .unwrap();
    let slow = Generator::new(&space)
        .resolver(tables)
        .build(Method::Backward)
        .unwrap();
    assert_eq!(fast.len(), slow.len());
    let differ = (0..space.size())
        .filter(|&i| fast.get(i) != slow.get(i))
        .count();
    assert_eq!(differ, 0, "{ending}: {differ} indices differ");
}

#[test]
fn the_indexed_build_equals_the_position_build_on_kpvk_and_kppvk() {
    let mut tables = Tablebase::new();
    let endings: Vec<Signature> = [
        "KQvK", "KRvK", "KBvK", "KNvK", "KQQvK", "KQRvK", "KQBvK", "KQNvK",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    builds_agree(&tables, "KPvK");
    tables
        .build(&["KPvK".parse().unwrap()], &BuildOptions::default())
        .unwrap();
    builds_agree(&tables, "KQPvK");
}
