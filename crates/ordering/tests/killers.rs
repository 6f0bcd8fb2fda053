//! Killers and counter-moves against plain models (a most-recent-first list
//! per ply, a map).

mod common;

use common::{Mv, Toy};
use gametree_game::Player;
use gametree_ordering::{CounterMoves, Killers};
use proptest::prelude::*;
use std::collections::HashMap;

const MAX_PLY: usize = 6;

#[derive(Clone, Debug)]
enum Op {
    Store(usize, u8),
    Clear(usize),
    ClearAll,
}

fn op() -> impl Strategy<Value = Op> {
    // Plies beyond the table and a few moves, so duplicates are frequent.
    prop_oneof![
        10 => (0..MAX_PLY + 2, 0..6u8).prop_map(|(p, m)| Op::Store(p, m)),
        2 => (0..MAX_PLY + 2).prop_map(Op::Clear),
        1 => Just(Op::ClearAll),
    ]
}

fn check<const K: usize>(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut killers: Killers<u8, K> = Killers::new(MAX_PLY);
    let mut model: Vec<Vec<u8>> = vec![Vec::new(); MAX_PLY];
    for op in ops {
        match *op {
            Op::Store(ply, m) => {
                let before = killers.get(ply).to_vec();
                killers.store(ply, m);
                if ply < MAX_PLY {
                    let list = &mut model[ply];
                    list.retain(|&x| x != m);
                    list.insert(0, m);
                    list.truncate(K);
                    // A new killer replaces the oldest.
                    if K > 0 && !before.contains(&m) && before.len() == K {
                        prop_assert_eq!(&killers.get(ply)[1..], &before[..K - 1]);
                    }
                }
            }
            Op::Clear(ply) => {
                killers.clear(ply);
                if ply < MAX_PLY {
                    model[ply].clear();
                }
            }
            Op::ClearAll => {
                killers.clear_all();
                model.iter_mut().for_each(Vec::clear);
            }
        }
        for ply in 0..MAX_PLY + 2 {
            let got = killers.get(ply);
            let want: &[u8] = model.get(ply).map_or(&[], |v| v.as_slice());
            prop_assert_eq!(got, want, "ply {}", ply);
            prop_assert!(got.len() <= K);
            let mut dedup = got.to_vec();
            dedup.sort_unstable();
            dedup.dedup();
            prop_assert_eq!(dedup.len(), got.len(), "duplicate killer");
            for &m in got {
                prop_assert!(killers.contains(ply, m));
            }
        }
        if let Op::Store(ply, m) = *op
            && ply < MAX_PLY
            && K > 0
        {
            prop_assert_eq!(killers.get(ply)[0], m, "the new killer comes first");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn killers_match_the_model(ops in proptest::collection::vec(op(), 0..100)) {
        check::<2>(&ops)?;
        check::<1>(&ops)?;
        check::<3>(&ops)?;
        check::<0>(&ops)?;
    }

    #[test]
    fn counter_moves_match_a_map(
        ops in proptest::collection::vec((any::<bool>(), 0..20u16, 0..20u16, 0..10u8), 0..100),
    ) {
        let mut counters = CounterMoves::<Toy>::new();
        let mut model = HashMap::new();
        for (first, previous, reply, action) in ops {
            let side = if first { Player::First } else { Player::Second };
            if action == 0 {
                counters.clear();
                model.clear();
            } else {
                counters.store(side, Mv(previous), Mv(reply));
                model.insert((side, previous), Mv(reply));
            }
            for p in [Player::First, Player::Second] {
                for prev in 0..20u16 {
                    prop_assert_eq!(counters.get(p, Mv(prev)), model.get(&(p, prev)).copied());
                }
            }
        }
    }
}

#[test]
fn beyond_max_ply_is_ignored() {
    let mut killers: Killers<u8> = Killers::new(2);
    killers.store(2, 7);
    killers.store(usize::MAX, 7);
    killers.clear(usize::MAX);
    assert!(killers.get(2).is_empty());
    assert!(killers.get(usize::MAX).is_empty());
    assert_eq!(killers.max_ply(), 2);
}
