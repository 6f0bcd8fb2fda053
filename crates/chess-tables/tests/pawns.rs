//! Endings with pawns: the statistics of KPvK, KPPvK and KRPvK equal
//! the Syzygy generator's published ones (`syzygy-3-4-men-pawns.toml` in
//! the corpus of `gametree-verify`); forward sweeps and Thompson's
//! backward method agree on KPvK (on KPvKP too in `cargo xtask verify`,
//! which takes minutes); un-moves invert moves; the index round-trips;
//! best moves play the longest wins out to mate.

use gametree_chess_tables::{
    BuildOptions, PawnEndgame, Signature, SignatureError, Tablebase, Wdl, flip_position,
    pawn_statistics, successor_endings,
};
use gametree_game::{Game, IndexSpace};
use gametree_games_chess::Position;
use gametree_retrograde::{Generator, Value, compare, verify};

fn wdl(w: gametree_verify::data::WinDrawLoss) -> Wdl {
    Wdl {
        wins: w.wins,
        draws: w.draws,
        losses: w.losses,
    }
}

/// KPvK and the endings with two White pieces whose promotions lead only
/// to pawnless endings (KPPvK, KRPvK), built with their sub-endings by
/// `Tablebase::build`, have the published statistics. (All 11 endings of 3
/// and 4 pieces are checked through the CLI, `gametree-cli`'s
/// `tests/tb_stats.rs`, and by `cargo xtask verify`: each takes about half
/// a minute to build, so this test builds the cheaper ones.)
#[test]
fn statistics_equal_the_published_ones_for_endings_with_pawns() {
    let rows: Vec<_> = gametree_verify::data::syzygy_3_4_men_pawns()
        .unwrap()
        .iter()
        .filter(|r| ["KPvK", "KPPvK", "KRPvK"].contains(&r.ending.as_str()))
        .collect();
    assert_eq!(rows.len(), 3);
    let endings: Vec<Signature> = rows.iter().map(|r| r.ending.parse().unwrap()).collect();
    let mut tables = Tablebase::new();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    for (row, ending) in rows.iter().zip(&endings) {
        let stats = tables.statistics(ending).unwrap();
        let (space, table) = tables.get_pawns(ending).unwrap();
        assert_eq!(pawn_statistics(space, table).unwrap(), stats);
        assert_eq!(
            (stats.white, stats.black),
            (wdl(row.wtm), wdl(row.btm)),
            "{ending}"
        );
        // Like pawns (KPPvK): each index stands for two labelled positions.
        if row.ending == "KPPvK" {
            assert_eq!(stats.white.wins, 2 * stats.raw_white.wins);
        } else {
            assert_eq!(stats.raw_white, stats.white, "{ending}");
        }
    }
    forward_and_backward_agree(&tables);
    // The tables answer positions of either colour: a KvKP position is
    // probed in KPvK with the colours exchanged.
    let p: Position = "8/8/8/8/8/k7/p1K5/8 w - - 0 1".parse().unwrap();
    assert!(tables.probe(&p).unwrap().is_some());
    assert_eq!(
        tables.probe(&p).unwrap(),
        tables.probe(&flip_position(&p).unwrap()).unwrap()
    );
    // The longest wins are played out to mate, through the promotions
    // into the pawnless tables.
    for ending in ["KPvK", "KPPvK", "KRPvK"] {
        let sig: Signature = ending.parse().unwrap();
        let (space, _) = tables.get_pawns(&sig).unwrap();
        let (plies, index) = tables.statistics(&sig).unwrap().longest_white_win.unwrap();
        let p = space.position(index).unwrap();
        assert_eq!(tables.probe(&p).unwrap(), Some(Value::Win(plies)));
        follow_mate(&tables, &p.to_string());
    }
}

/// Plays the tables' best moves from a won or lost position: the game ends
/// in mate exactly when the value said, each probe one ply closer.
fn follow_mate(tables: &Tablebase, fen: &str) {
    let mut p: Position = fen.parse().unwrap();
    let mut value = tables.probe(&p).unwrap().unwrap();
    assert_ne!(value, Value::Draw, "{fen}");
    loop {
        let Some((m, v)) = tables.best_move(&p).unwrap() else {
            assert_eq!(value, Value::Loss(0), "{fen}: mated at the end");
            return;
        };
        assert_eq!(v, value);
        p.make(m);
        let next = tables.probe(&p).unwrap().unwrap();
        assert_eq!(next.parent(), value, "{fen}: {m}");
        value = next;
    }
}

/// The index: round trips, en passant, reflection, colours exchanged.
#[test]
fn the_index_round_trips_and_tells_en_passant_apart() {
    // Sides to move × kings × the leading pawn × the other pawn, then the
    // en-passant regions (one pawn on its file).
    assert_eq!(PawnEndgame::new("KPvK").unwrap().size(), 2 * 4096 * 24);
    let space = PawnEndgame::new("KPvKP").unwrap();
    assert_eq!(space.size(), 2 * 4096 * 24 * 48 + 4096 * (24 * 8 + 4 * 48));
    let mut valid = 0;
    for i in (0..space.size()).step_by(101) {
        if let Some(p) = space.position(i) {
            valid += 1;
            assert_eq!(space.index_of(&p), Some(i));
            // The reflection has the same index.
            assert_eq!(space.index_of(&mirror(&p)), Some(i), "{p}");
        }
    }
    assert!(valid > 50_000, "{valid}");
    // After e2-e4 with a black pawn on d4, Black may capture en passant:
    // another index than the same pieces without that right.
    let mut p: Position = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1".parse().unwrap();
    let m = p.parse_uci("e2e4").unwrap();
    p.make(m);
    let with = space.index_of(&p).unwrap();
    let without: Position = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1".parse().unwrap();
    assert_ne!(space.index_of(&without), Some(with));
    assert!(with >= 2 * space.positions_per_side());
    // The reflection is the same position.
    let mirrored: Position = "3k4/8/8/8/3Pp3/8/8/3K4 b - d3 0 1".parse().unwrap();
    assert_eq!(space.index_of(&mirrored), Some(with));
    // An en-passant square whose capture is illegal (the pawn pinned) is
    // the position without it.
    let pinned: Position = "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1".parse().unwrap();
    let unpinned: Position = "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1".parse().unwrap();
    let krpkp = PawnEndgame::new("KRPvKP").unwrap();
    assert_eq!(krpkp.index_of(&pinned), krpkp.index_of(&unpinned));
    // Other material, no index.
    assert_eq!(
        space.index_of(&"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap()),
        None
    );
    assert_eq!(
        PawnEndgame::new("KQvK").unwrap_err(),
        SignatureError::NoPawn
    );
}

#[test]
fn promotions_lead_to_every_piece_and_captures_to_smaller_endings() {
    let names = |s: &str| -> Vec<String> {
        successor_endings(&s.parse().unwrap())
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(names("KPvK"), ["KQvK", "KRvK", "KBvK", "KNvK"]);
    let kpkp = names("KPvKP");
    for s in ["KvKP", "KPvK", "KQvKP", "KNvKP", "KPvKQ", "KPvKN"] {
        assert!(kpkp.contains(&s.to_string()), "{s} in {kpkp:?}");
    }
    // A pawn takes a knight as it promotes.
    assert!(names("KPvKN").contains(&"KRvK".to_string()));
    let mut tables = Tablebase::new();
    let plan = tables.plan(&["KPvKP".parse().unwrap()]);
    let plan: Vec<String> = plan.iter().map(ToString::to_string).collect();
    assert_eq!(plan.last().map(String::as_str), Some("KPvKP"));
    // Each ending once, in either colour.
    for s in ["KQvK", "KPvK", "KQvKP", "KQvKQ", "KRvKB"] {
        let flip = s.parse::<Signature>().unwrap().flipped().to_string();
        let n = plan.iter().filter(|p| **p == s || **p == flip).count();
        assert_eq!(n, 1, "{s} in {plan:?}");
    }
    tables
        .build(&["KPvK".parse().unwrap()], &BuildOptions::default())
        .unwrap();
    assert_eq!(tables.len(), 5);
}

/// The position reflected in the line between the d- and e-files.
fn mirror(p: &Position) -> Position {
    use gametree_games_chess::Square;
    let pieces = (0..64u8).filter_map(|sq| {
        let piece = p.piece_at(Square::new(sq))?;
        Some((Square::new(sq ^ 7), piece))
    });
    let q = Position::from_pieces(p.turn(), pieces).unwrap();
    match p.en_passant() {
        None => q,
        Some(ep) => q
            .with_en_passant(Square::new(ep.index() as u8 ^ 7))
            .unwrap(),
    }
}

/// Forward sweeps build the same KPvK table as `Tablebase::build` (Thompson's
/// backward method), index by index; the predecessor generator is the
/// exact inverse of move generation on every KPvK index and on samples of
/// KPvKP (en-passant regions included).
fn forward_and_backward_agree(tables: &Tablebase) {
    let space = PawnEndgame::new("KPvK").unwrap();
    let sig: Signature = "KPvK".parse().unwrap();
    let built = tables.table(&sig).unwrap();
    let forward = Generator::new(&space)
        .resolver(tables)
        .label(gametree_chess_tables::label(&sig))
        .forward()
        .unwrap();
    assert_eq!(compare(built, &forward), Ok(space.size()));
    assert_eq!(
        verify::check_predecessors(&space, 0..space.size()),
        Ok(space.size() - built.counts().invalid)
    );
    let space = PawnEndgame::new("KPvKP").unwrap();
    let regions = 2 * space.positions_per_side()..space.size();
    let with_ep = regions
        .clone()
        .filter(|&i| space.position(i).is_some())
        .count();
    assert!(with_ep > 1000, "{with_ep}");
    for start in [regions.start, regions.start + 300_000, 3_000_000] {
        assert!(verify::check_predecessors(&space, start..start + 30_000).is_ok());
    }
}
