//! `statistics` against the Syzygy generator's published statistics (the
//! corpus of `gametree-verify`, `syzygy-3-4-men.toml`) on all 24 pawnless
//! endings of 3 and 4 pieces, the like-piece weighting against a brute force over the 8
//! symmetries, and a table of the wrong size refused.

use gametree_chess_tables::{
    BuildOptions, Error, FastEndgame, Signature, Tablebase, Wdl, pawnless_endings, statistics,
};
use gametree_game::IndexSpace;
use gametree_retrograde::{Generator, Value};

/// The published figures: each ending with White's and Black's counts.
fn published() -> Vec<(Signature, Wdl, Wdl)> {
    let wdl = |w: gametree_verify::data::WinDrawLoss| Wdl {
        wins: w.wins,
        draws: w.draws,
        losses: w.losses,
    };
    gametree_verify::data::syzygy_3_4_men()
        .unwrap()
        .iter()
        .map(|e| (e.ending.parse().unwrap(), wdl(e.wtm), wdl(e.btm)))
        .collect()
}

/// Every 3- and 4-man ending's statistics equal the published ones; for
/// the endings with like pieces (KQQvK, KRRvK, KBBvK, KNNvK: none of 3 or
/// 4 pieces has like pieces on both sides) they differ from the index
/// counts and from twice the index counts (each index counted twice: a
/// plausible wrong weighting).
#[test]
fn statistics_equal_the_published_ones_for_every_3_and_4_man_ending() {
    let rows = published();
    let endings: Vec<Signature> = [pawnless_endings(3), pawnless_endings(4)].concat();
    let listed: Vec<&Signature> = rows.iter().map(|(s, _, _)| s).collect();
    assert_eq!(listed, endings.iter().collect::<Vec<_>>());
    let mut tables = Tablebase::new();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    let mut like = Vec::new();
    for (ending, white, black) in &rows {
        let stats = tables.statistics(ending).unwrap();
        assert_eq!((stats.white, stats.black), (*white, *black), "{ending}");
        let twice = |w: Wdl| Wdl {
            wins: 2 * w.wins,
            draws: 2 * w.draws,
            losses: 2 * w.losses,
        };
        let pieces: Vec<_> = ending.pieces().collect();
        if pieces.windows(2).any(|w| w[0] == w[1]) {
            like.push(ending.to_string());
            assert_ne!(stats.white, stats.raw_white, "{ending}");
            assert!(
                stats.white != twice(stats.raw_white) || stats.black != twice(stats.raw_black),
                "{ending}"
            );
        } else {
            assert_eq!(
                (stats.raw_white, stats.raw_black),
                (*white, *black),
                "{ending}"
            );
        }
        // The longest wins are the table's.
        let (space, table) = tables.get(ending).unwrap();
        let half = space.size() / 2;
        assert_eq!(
            stats.longest_white_win,
            table.counts_where(|i| i < half).longest_win
        );
    }
    assert_eq!(like, ["KQQvK", "KRRvK", "KBBvK", "KNNvK"]);
}

/// Square `sq` under board symmetry `g` (bit 2: transpose, bit 0: mirror
/// files, bit 1: mirror ranks).
fn transform(g: usize, sq: usize) -> usize {
    let (mut file, mut rank) = (sq % 8, sq / 8);
    if g & 4 != 0 {
        core::mem::swap(&mut file, &mut rank);
    }
    if g & 1 != 0 {
        file = 7 - file;
    }
    if g & 2 != 0 {
        rank = 7 - rank;
    }
    rank * 8 + file
}

/// The Syzygy counts by brute force: each index weighs the number of
/// labellings of its like pieces (`k!` per group of `k`) over the number
/// of distinct exchanges of like pieces made by the symmetries that map
/// the position onto itself, all 8 tried on every index.
fn brute_force(space: &FastEndgame, table: &gametree_retrograde::Table) -> (Wdl, Wdl) {
    let half = space.size() / 2;
    let (mut white, mut black) = (Wdl::default(), Wdl::default());
    for i in 0..space.size() {
        let Some(value) = table.get(i) else { continue };
        let p = space.position(i).unwrap();
        let pieces: Vec<(usize, usize)> = p.pieces().collect();
        let mut labellings = 1u64;
        for (k, &(piece, _)) in pieces.iter().enumerate() {
            // k! for a group of k: multiply by the rank within the group.
            labellings *= pieces[..=k].iter().filter(|q| q.0 == piece).count() as u64;
        }
        // The permutations of the pieces that symmetries fixing the
        // position make, each once.
        let mut exchanges: Vec<Vec<usize>> = Vec::new();
        for g in 0..8 {
            let image: Option<Vec<usize>> = pieces
                .iter()
                .map(|&(piece, sq)| pieces.iter().position(|&q| q == (piece, transform(g, sq))))
                .collect();
            if let Some(image) = image
                && !exchanges.contains(&image)
            {
                exchanges.push(image);
            }
        }
        let weight = labellings / exchanges.len() as u64;
        let side = if i < half { &mut white } else { &mut black };
        match value {
            Value::Win(_) => side.wins += weight,
            Value::Draw => side.draws += weight,
            Value::Loss(_) => side.losses += weight,
        }
    }
    (white, black)
}

/// The weighting of `statistics` (only the reflection in a1–h8 with both
/// kings on it can exchange like pieces) equals the brute force over the 8
/// symmetries on every index of the 4-man endings with like pieces, and
/// on one without.
#[test]
fn like_piece_weights_equal_a_brute_force_over_the_symmetries() {
    let mut tables = Tablebase::new();
    let endings: Vec<Signature> = ["KQQvK", "KRRvK", "KBBvK", "KNNvK", "KQRvK"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    for ending in &endings {
        let (space, table) = tables.get(ending).unwrap();
        let stats = statistics(space, table).unwrap();
        assert_eq!(
            (stats.white, stats.black),
            brute_force(space, table),
            "{ending}"
        );
    }
}

/// A table of another ending's size is refused with a typed error.
#[test]
fn a_table_of_the_wrong_size_is_refused() {
    let kqk = FastEndgame::new("KQvK").unwrap();
    let kqqk = FastEndgame::new("KQQvK").unwrap();
    let table = Generator::new(&kqk).backward_indexed().unwrap();
    assert!(matches!(statistics(&kqqk, &table), Err(Error::Size { .. })));
    assert!(statistics(&kqk, &table).is_ok());
}
