//! The decisive-score conversion agrees with `gametree_game::Score`, alone and through
//! a table.

use gametree_game::Score;
use gametree_ttable::{Bound, Config, Entry, ScoreConfig, SharedTable, Table, TranspositionTable};
use proptest::prelude::*;

#[test]
fn conversion_agrees_with_game_score_exhaustively() {
    let s = ScoreConfig::default();
    assert_eq!(s.win(), Score::WIN.get());
    assert_eq!(s.max_ply(), Score::MAX_PLY);
    let inf = Score::INFINITY.get();
    for v in -inf..=inf {
        let score = Score::new(v);
        assert_eq!(s.is_decisive(v), score.is_decisive(), "{v}");
        for ply in [0, 1, 2, 3, 7, 64, 500, 999, 1000] {
            assert_eq!(
                s.to_node_relative(v, ply),
                score.to_node_relative(ply).get(),
                "{v} {ply}"
            );
            assert_eq!(
                s.to_root_relative(v, ply),
                score.to_root_relative(ply).get(),
                "{v} {ply}"
            );
        }
    }
}

proptest! {
    #[test]
    fn conversion_agrees_with_game_score(v in -32_001..=32_001i32, ply in 0..=1000u32) {
        let s = ScoreConfig::default();
        let score = Score::new(v);
        prop_assert_eq!(s.to_node_relative(v, ply), score.to_node_relative(ply).get());
        prop_assert_eq!(s.to_root_relative(v, ply), score.to_root_relative(ply).get());
    }

    /// Stored at ply `a`, probed at ply `b`: the value `gametree_game::Score` gives for
    /// "to node-relative at a, back to root-relative at b".
    #[test]
    fn tables_convert_like_game_score(
        d in 0..=500u32,
        a in 0..=500u32,
        b in 0..=500u32,
        win in any::<bool>(),
        heuristic in -Score::MAX_HEURISTIC..=Score::MAX_HEURISTIC,
        decisive in any::<bool>(),
    ) {
        let v = match (decisive, win) {
            (false, _) => Score::new(heuristic),
            (true, true) => Score::win_in(a + d),
            (true, false) => Score::loss_in(a + d),
        };
        let expect = v.to_node_relative(a).to_root_relative(b).get();
        let entry = Entry { best_move: None, value: v.get(), depth: 1, bound: Bound::Exact };
        let mut tt = TranspositionTable::new(1024).unwrap();
        tt.store(77, a, entry);
        prop_assert_eq!(tt.probe(77, 1, b).unwrap().entry.value, expect);
        let mut wide = TranspositionTable::with_config(1024, Config::verification()).unwrap();
        wide.store(77, a, entry);
        prop_assert_eq!(wide.probe(77, 1, b).unwrap().entry.value, expect);
        let shared = SharedTable::new(1024).unwrap();
        shared.store(77, a, entry);
        prop_assert_eq!(shared.probe(77, 1, b).unwrap().entry.value, expect);
    }
}

#[test]
fn custom_convention() {
    let s = ScoreConfig::new(10_000, 100);
    assert!(s.is_decisive(9_950) && !s.is_decisive(9_899) && !s.is_decisive(10_001));
    assert_eq!(s.to_node_relative(-9_950, 10), -9_960);
    assert_eq!(s.to_root_relative(9_999, 5), 9_994);
    let mut tt = TranspositionTable::with_config(64, Config::new().score(s)).unwrap();
    tt.store(
        5,
        30,
        Entry {
            best_move: None,
            value: 9_950,
            depth: 0,
            bound: Bound::Exact,
        },
    );
    assert_eq!(tt.probe(5, 0, 0).unwrap().entry.value, 9_980);
}
