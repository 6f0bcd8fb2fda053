//! Perft against the Chess Programming Wiki's published table (the corpus
//! of `gametree-data`): every row of at most 5 M nodes, counted by the
//! bulk counter and by the generic `gametree_game::perft`; `divide` against
//! the generic one. The deep rows run in `gametree verify --game chess
//! --full`.

use gametree_games_chess::{Position, STARTPOS};

/// The node budget of the rows `cargo test` counts.
const TEST_BUDGET: u64 = 5_000_000;

#[test]
fn cheap_rows_of_the_published_table() {
    let table = gametree_data::chess_perft().unwrap();
    assert_eq!(table.len(), 7);
    let mut rows = 0;
    for entry in table {
        let mut p: Position = entry.fen.parse().unwrap();
        for &(depth, expected) in entry.counts.iter().filter(|r| r.1 <= TEST_BUDGET) {
            assert_eq!(p.perft(depth), expected, "{} depth {depth}", entry.id);
            assert_eq!(
                gametree_game::perft(&mut p, depth),
                expected,
                "{} depth {depth} (generic)",
                entry.id
            );
            rows += 1;
        }
    }
    assert!(rows >= 30, "only {rows} rows ran");
}

#[test]
fn divide_agrees_with_generic_divide() {
    for fen in [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let mut p: Position = fen.parse().unwrap();
        let ours = p.perft_divide(3);
        assert_eq!(ours, gametree_game::perft_divide(&mut p, 3));
        assert_eq!(ours.iter().map(|r| r.1).sum::<u64>(), p.perft(3));
        assert!(p.perft_divide(0).is_empty());
    }
}
