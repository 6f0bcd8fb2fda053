//! Connect Four 4×4 through a [`Reachable`] space: every value equals a
//! memoised negamax's, the two methods agree, the plain and mirror-reduced
//! spaces agree, and the empty board is a draw (Tromp).

use std::collections::HashMap;

use gametree_game::{Game, IndexSpace, Outcome};
use gametree_games_connect4::{Board, Size};
use gametree_retrograde::{NoExits, Reachable, TableProbe, Value, verify};

/// Negamax to the end with a memo keyed by `Board::key` (exact: the value
/// of a position does not depend on how it was reached).
fn solve(b: &mut Board, memo: &mut HashMap<u64, Value>) -> Value {
    if let Some(&v) = memo.get(&b.key()) {
        return v;
    }
    let v = match b.outcome() {
        Some(Outcome::Loss) => Value::Loss(0),
        Some(Outcome::Draw) => Value::Draw,
        Some(Outcome::Win) => unreachable!(),
        None => {
            let mut moves = <Board as Game>::Moves::default();
            b.generate(&mut moves);
            let mut best: Option<Value> = None;
            for &m in moves.as_slice() {
                b.make(m);
                let v = solve(b, memo).parent();
                b.unmake(m, ());
                best = Some(match best {
                    Some(x) if rank(x) >= rank(v) => x,
                    _ => v,
                });
            }
            best.unwrap()
        }
    };
    memo.insert(b.key(), v);
    v
}

fn rank(v: Value) -> i32 {
    match v {
        Value::Win(d) => 1000 - i32::from(d),
        Value::Draw => 0,
        Value::Loss(d) => -1000 + i32::from(d),
    }
}

#[test]
fn four_by_four() {
    let size = Size::new(4, 4).unwrap();
    let plain = Reachable::new(Board::new(size), Board::key).unwrap();
    let mirror = Reachable::new(Board::new(size), Board::symmetric_key).unwrap();
    assert!(mirror.positions() < plain.positions());
    let (table, n) = verify::methods_agree(&plain, &NoExits).unwrap();
    assert_eq!(n, plain.positions());
    let (mirror_table, _) = verify::methods_agree(&mirror, &NoExits).unwrap();
    assert_eq!(
        verify::check_predecessors(&mirror, 0..mirror.size()),
        Ok(mirror.positions())
    );
    // Every position against memoised negamax, through both spaces.
    let mut memo = HashMap::new();
    let probe = TableProbe::new(&mirror, &mirror_table).unwrap();
    let checked = verify::agrees_with_search(&plain, &table, 0..plain.size(), |b| {
        let v = solve(b, &mut memo);
        assert_eq!(probe.probe(b), Some(v));
        v
    })
    .unwrap();
    assert_eq!(checked, plain.positions());
    // Tromp: 4×4 is a draw (the corpus of `gametree-data`).
    let published = gametree_data::connect4()
        .unwrap()
        .board(4, 4)
        .unwrap()
        .value;
    assert_eq!(table.get(0).map(Value::outcome), Some(published));
    assert_eq!(plain.index_of(&Board::new(size)), Some(0));
}
