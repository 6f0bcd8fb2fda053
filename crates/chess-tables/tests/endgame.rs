//! Pawnless endgame indexing: king placements, round trips, published
//! position counts and un-move generation against forward moves.

use std::collections::{BTreeSet, HashMap, HashSet};

use gametree_chess_tables::{
    Endgame, KING_PLACEMENTS, MAX_PIECES, Signature, SignatureError, king_pair, king_pair_index,
    pawnless_endings,
};
use gametree_game::{Game, IndexSpace, Predecessors};
use gametree_games_chess::Position;
use rand_core::Rng;
use rand_pcg::Pcg64;

fn transform(t: usize, sq: usize) -> usize {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    r * 8 + f
}

fn adjacent_or_equal(a: usize, b: usize) -> bool {
    (a % 8).abs_diff(b % 8) <= 1 && (a / 8).abs_diff(b / 8) <= 1
}

#[test]
fn king_placements_up_to_symmetry() {
    // Brute force: classes of legal king pairs under the 8 symmetries.
    let mut classes = HashSet::new();
    for w in 0..64 {
        for b in 0..64 {
            if !adjacent_or_equal(w, b) {
                let key = (0..8)
                    .map(|t| (transform(t, w), transform(t, b)))
                    .min()
                    .unwrap();
                classes.insert(key);
            }
        }
    }
    assert_eq!(classes.len(), 462);
    assert_eq!(KING_PLACEMENTS, 462);
    // The table holds one representative per class.
    let mut seen = HashSet::new();
    for i in 0..KING_PLACEMENTS {
        let (w, b) = king_pair(i).unwrap();
        assert!(!adjacent_or_equal(w, b));
        let key = (0..8)
            .map(|t| (transform(t, w), transform(t, b)))
            .min()
            .unwrap();
        assert!(seen.insert(key), "two representatives of one class");
    }
    assert_eq!(king_pair(462), None);
    // The number of each canonical pair, and none for the others (also
    // squares off the board).
    for i in 0..KING_PLACEMENTS {
        let (w, b) = king_pair(i).unwrap();
        assert_eq!(king_pair_index(w, b), Some(i));
    }
    let canonical = (0..64)
        .flat_map(|w| (0..64).map(move |b| (w, b)))
        .filter(|&(w, b)| king_pair_index(w, b).is_some())
        .count();
    assert_eq!(canonical, KING_PLACEMENTS);
    assert_eq!(king_pair_index(0, 64 + 18), None);
    assert_eq!(king_pair_index(64, 18), None);
    assert_eq!(king_pair_index(usize::MAX, usize::MAX), None);
}

/// `pawnless_endings(men)` lists each pawnless ending of `men` pieces once
/// up to colour exchange: for every split of the pieces between the sides
/// (brute force over strings), exactly one of the ending and its colour
/// exchange is listed. The 3- and 4-man lists are the 24 endings of the
/// retrograde bench, in its order.
#[test]
fn pawnless_endings_once_up_to_colours() {
    let names = |men| -> Vec<String> {
        pawnless_endings(men)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let all_24 = [
        "KQvK", "KRvK", "KBvK", "KNvK", "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK", "KRBvK",
        "KRNvK", "KBBvK", "KBNvK", "KNNvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KRvKR", "KRvKB",
        "KRvKN", "KBvKB", "KBvKN", "KNvKN",
    ];
    assert_eq!([names(3), names(4)].concat(), all_24);
    assert_eq!(names(2), ["KvK"]);
    assert!(names(0).is_empty() && names(1).is_empty() && names(MAX_PIECES + 1).is_empty());
    // Multisets of roles as sorted strings, strongest first.
    fn sets(n: usize) -> Vec<String> {
        if n == 0 {
            return vec![String::new()];
        }
        let mut out = Vec::new();
        for s in sets(n - 1) {
            for r in "QRBN".chars() {
                if s.chars()
                    .last()
                    .is_none_or(|l| "QRBN".find(l) <= "QRBN".find(r))
                {
                    out.push(format!("{s}{r}"));
                }
            }
        }
        out
    }
    for men in 2..=6 {
        let listed: HashSet<String> = names(men).into_iter().collect();
        assert_eq!(
            listed.len(),
            pawnless_endings(men).len(),
            "{men}: duplicates"
        );
        let mut splits = 0;
        for white in 0..=men - 2 {
            for w in sets(white) {
                for b in sets(men - 2 - white) {
                    let ending = format!("K{w}vK{b}");
                    let exchanged = format!("K{b}vK{w}");
                    let found = usize::from(listed.contains(&ending))
                        + usize::from(listed.contains(&exchanged));
                    let want = if ending == exchanged { 2 } else { 1 };
                    assert_eq!(found, want, "{ending}");
                    assert!(ending.parse::<Signature>().is_ok());
                    splits += 1;
                }
            }
        }
        // Each listed ending stands for itself and its exchange (one split
        // when the two sides have the same pieces).
        let symmetric = listed
            .iter()
            .filter(|e| {
                let (w, b) = e.split_once('v').unwrap();
                w == b
            })
            .count();
        assert_eq!(splits, 2 * listed.len() - symmetric, "{men}");
    }
    assert_eq!(pawnless_endings(5).len(), 60);
}

#[test]
fn signatures() {
    let s: Signature = "KRQvKN".parse().unwrap();
    assert_eq!(s.to_string(), "KQRvKN");
    assert_eq!(s.piece_count(), 5);
    for text in ["KQvK", "KBNvK", "KQRvKQ", "KvK"] {
        assert_eq!(text.parse::<Signature>().unwrap().to_string(), text);
    }
    let e = |s: &str| s.parse::<Signature>().unwrap_err();
    use gametree_games_chess::Color::{Black, White};
    assert_eq!(e("KQK"), SignatureError::Separator);
    assert_eq!(e("KQvKvK"), SignatureError::Separator);
    assert_eq!(e("QvK"), SignatureError::MissingKing(White));
    assert_eq!(e("KQv"), SignatureError::MissingKing(Black));
    assert_eq!(e("KQKvK"), SignatureError::ExtraKing(White));
    // Pawns parse; the pawnless index refuses them.
    assert_eq!("KPvKP".parse::<Signature>().unwrap().to_string(), "KPvKP");
    assert_eq!("KPRvK".parse::<Signature>().unwrap().to_string(), "KRPvK");
    assert_eq!(
        Endgame::new("KPvK").unwrap_err(),
        SignatureError::Pawn(White)
    );
    assert_eq!(
        Endgame::new("KvKP").unwrap_err(),
        SignatureError::Pawn(Black)
    );
    assert_eq!(e("KvKx"), SignatureError::PieceLetter('x'));
    assert_eq!(e("KqvK"), SignatureError::PieceLetter('q'));
    assert_eq!(e("KQQQvKRRR"), SignatureError::TooManyPieces(8));
    assert!(!e("K").to_string().is_empty());
    assert!(Endgame::new("KPvK").is_err());
    let p: Position = "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1".parse().unwrap();
    assert_eq!(Signature::of(&p).unwrap().to_string(), "KQvK");
}

#[test]
fn index_sizes() {
    let sizes: Vec<u64> = ["KvK", "KQvK", "KQvKR", "KQRvKR", "KQRvKQR"]
        .iter()
        .map(|s| Endgame::new(s).unwrap().size())
        .collect();
    assert_eq!(sizes, [924, 59_136, 3_784_704, 242_221_056, 15_502_147_584]);
}

/// The number of legal positions up to symmetry of `ending` for each side
/// to move that the Syzygy generator prints (win + draw + loss per side to
/// move, as syzygy-tables.info publishes them; the corpus of
/// `gametree-data`).
fn published_positions(ending: &str) -> (u64, u64) {
    let stats = gametree_data::syzygy_3_4_men().unwrap();
    let e = stats.iter().find(|e| e.ending == ending).unwrap();
    let all = |w: gametree_data::WinDrawLoss| w.wins + w.draws + w.losses;
    (all(e.wtm), all(e.btm))
}

/// Every valid index round-trips; the number of valid indices per side is
/// the published number of positions ([`published_positions`]).
fn round_trip(sig: &str) {
    let (white, black) = published_positions(sig);
    let space = Endgame::new(sig).unwrap();
    let mut counts = [0u64; 2];
    for i in 0..space.size() {
        if let Some(p) = space.position(i) {
            assert_eq!(space.index_of(&p), Some(i), "{sig} {i} {p}");
            assert_eq!(p.hash(), p.recompute_hash());
            // Every symmetric image has the same index.
            let fen = p.to_string();
            let q: Position = fen.parse().unwrap();
            assert_eq!(space.index_of(&q), Some(i));
            counts[p.side_to_move().index()] += 1;
        }
    }
    assert_eq!(counts, [white, black], "{sig}");
    assert_eq!(space.position(space.size()), None);
}

#[test]
fn kqk_round_trip_and_published_counts() {
    round_trip("KQvK");
}

#[test]
fn krk_round_trip_and_published_counts() {
    round_trip("KRvK");
}

/// The raw (unreduced) count of legal KQvK positions, by brute force over
/// FEN placements, equals the published one (144,508 with White to move,
/// 223,944 with Black; the corpus of `gametree-data`).
#[test]
fn kqk_raw_counts_and_symmetric_images() {
    let space = Endgame::new("KQvK").unwrap();
    let mut counts = [0u64; 2];
    for wk in 0..64usize {
        for bk in 0..64usize {
            if adjacent_or_equal(wk, bk) {
                continue;
            }
            for q in 0..64usize {
                if q == wk || q == bk {
                    continue;
                }
                for side in 0..2 {
                    let mut board = ['1'; 64];
                    board[wk] = 'K';
                    board[bk] = 'k';
                    board[q] = 'Q';
                    let ranks: Vec<String> = (0..8)
                        .rev()
                        .map(|r| board[r * 8..r * 8 + 8].iter().collect())
                        .collect();
                    let fen = format!("{} {} - - 0 1", ranks.join("/"), ["w", "b"][side]);
                    let Ok(p) = fen.parse::<Position>() else {
                        continue;
                    };
                    counts[side] += 1;
                    let i = space.index_of(&p).unwrap();
                    let c = space.position(i).unwrap();
                    // The canonical position is a symmetric image of p.
                    assert_eq!(c.count_legal_moves(), p.count_legal_moves());
                    assert_eq!(c.in_check(), p.in_check());
                }
            }
        }
    }
    let raw = gametree_data::chess_endgames().unwrap().kqvk_raw;
    assert_eq!(counts, [raw.wtm, raw.btm]);
}

/// For every position q of the space and every move that stays in it, q is
/// among the predecessors of the result, and predecessors report nothing
/// else.
fn predecessors_match_forward_moves(sig: &str) {
    let space = Endgame::new(sig).unwrap();
    let mut forward: HashMap<u64, BTreeSet<u64>> = HashMap::new();
    for i in 0..space.size() {
        let Some(mut q) = space.position(i) else {
            continue;
        };
        for m in q.legal_moves() {
            let u = q.make(m);
            if let Some(j) = space.index_of(&q) {
                forward.entry(j).or_default().insert(i);
            }
            q.unmake(m, u);
        }
    }
    for j in 0..space.size() {
        let Some(p) = space.position(j) else { continue };
        let mut back = BTreeSet::new();
        space.predecessors(&p, &mut |i| {
            back.insert(i);
        });
        assert_eq!(back, forward.remove(&j).unwrap_or_default(), "{sig} {p}");
    }
}

#[test]
fn kqk_predecessors_exhaustive() {
    predecessors_match_forward_moves("KQvK");
}

#[test]
fn krk_predecessors_exhaustive() {
    predecessors_match_forward_moves("KRvK");
}

/// Sampled, on a 5-piece ending with captures and same-kind pieces: each
/// reported predecessor leads to p in one move, and each non-capturing move
/// of a sampled q is reported.
#[test]
fn sampled_predecessors_with_captures_and_twins() {
    for sig in ["KRvKN", "KBBvK", "KQvKRN"] {
        let space = Endgame::new(sig).unwrap();
        let mut rng = Pcg64::new(99, 5);
        let mut checked = 0;
        while checked < 400 {
            let i = rng.next_u64() % space.size();
            let Some(mut q) = space.position(i) else {
                continue;
            };
            checked += 1;
            // Forward: every move that stays in the space is undone.
            for m in q.legal_moves() {
                let u = q.make(m);
                if let Some(j) = space.index_of(&q) {
                    let mut found = false;
                    space.predecessors(&q, &mut |k| found |= k == i);
                    assert!(found, "{sig}: {m} from index {i} not undone");
                    let _ = j;
                }
                q.unmake(m, u);
            }
            // Backward: every predecessor reaches q's class in one move.
            let mut preds = Vec::new();
            space.predecessors(&q, &mut |k| preds.push(k));
            for k in preds {
                let mut r = space
                    .position(k)
                    .unwrap_or_else(|| panic!("{sig}: invalid predecessor {k}"));
                let reaches = r.legal_moves().into_iter().any(|m| {
                    let u = r.make(m);
                    let hit = space.index_of(&r) == Some(i);
                    r.unmake(m, u);
                    hit
                });
                assert!(reaches, "{sig}: predecessor {k} does not reach {i}");
            }
        }
    }
}
