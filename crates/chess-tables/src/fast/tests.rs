//! The fast space against the position space, index-level moves against
//! placement-level moves, run-wise and block-wise work against the
//! per-index methods.

use gametree_game::{Counted, Game, IndexMoves, IndexSpace, Outcome, Predecessors};
use gametree_games_chess::{Color, Position};

use super::*;

/// The side to move and the sorted `(piece, square)` list.
type Material = (Color, Vec<(usize, usize)>);

fn sorted_pieces(p: &Placement) -> Material {
    let mut v: Vec<_> = p.pieces().collect();
    v.sort_unstable();
    (p.turn(), v)
}

/// Everything a retrograde build asks of the two spaces agrees at
/// `index`: validity, the position, its outcome, its moves (and the
/// position and index each leads to) and its predecessors.
fn agree_at(fast: &FastEndgame, index: u64) -> bool {
    let slow = fast.endgame();
    let (Some(p), Some(q)) = (slow.position(index), fast.position(index)) else {
        assert_eq!(
            slow.position(index).is_none(),
            fast.position(index).is_none()
        );
        return false;
    };
    assert_eq!(Placement::from_position(&p), Some(q), "{index}");
    assert_eq!(fast.index_of(&q), Some(index));
    assert_eq!(p.outcome(), q.outcome(), "{p}");
    let mut slow_moves: Vec<(String, Option<u64>, Material)> = Vec::new();
    let mut moves = <Position as Game>::Moves::default();
    p.generate(&mut moves);
    let mut child = p.clone();
    for &m in moves.as_slice() {
        let undo = child.make(m);
        let placement = Placement::from_position(&child).unwrap();
        slow_moves.push((
            m.to_string(),
            slow.index_of(&child),
            sorted_pieces(&placement),
        ));
        child.unmake(m, undo);
    }
    let mut fast_moves = Vec::new();
    let mut buffer = <Placement as Game>::Moves::default();
    q.generate(&mut buffer);
    let mut r = q;
    for &m in buffer.as_slice() {
        let undo = r.make(m);
        fast_moves.push((m.to_string(), fast.index_of(&r), sorted_pieces(&r)));
        r.unmake(m, undo);
        assert_eq!(r, q);
    }
    slow_moves.sort();
    fast_moves.sort();
    assert_eq!(slow_moves, fast_moves, "{p}");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    slow.predecessors(&p, &mut |i| a.push(i));
    fast.predecessors(&q, &mut |i| b.push(i));
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "{p}");
    true
}

/// [`IndexMoves`] at `index` reports exactly what the position-level
/// methods imply: validity, outcome, the distinct successor indices
/// (each once), the successors outside the space (one per move) and the
/// distinct predecessor indices (each once). Returns validity.
fn index_moves_agree_at(fast: &FastEndgame, index: u64) -> bool {
    let (mut inside, mut exits) = (Vec::new(), Vec::new());
    let outcome = fast.successor_indices(index, |j| inside.push(j), |c| exits.push(*c));
    let Some(p) = fast.position(index) else {
        assert_eq!(outcome, None, "{index}");
        assert_eq!(fast.successor_count(index, |_| {}), None);
        assert!(inside.is_empty() && exits.is_empty());
        return false;
    };
    let mut preds = Vec::new();
    fast.predecessor_indices(index, |j| preds.push(j));
    assert_eq!(outcome, Some(p.outcome()), "{p}");
    let mut counted_exits = 0;
    assert_eq!(
        fast.successor_count(index, |_| counted_exits += 1),
        Some((p.outcome(), inside.len())),
        "{p}"
    );
    assert_eq!(counted_exits, exits.len());
    let (mut want_inside, mut want_exits) = (Vec::new(), Vec::new());
    if p.outcome().is_none() {
        let mut moves = <Placement as Game>::Moves::default();
        p.generate(&mut moves);
        let mut r = p;
        for &m in moves.as_slice() {
            let undo = r.make(m);
            match fast.index_of(&r) {
                Some(j) => want_inside.push(j),
                None => want_exits.push(sorted_pieces(&r)),
            }
            r.unmake(m, undo);
        }
    }
    want_inside.sort_unstable();
    want_inside.dedup();
    inside.sort_unstable();
    assert_eq!(inside, want_inside, "{p}");
    let mut exits: Vec<Material> = exits.iter().map(sorted_pieces).collect();
    exits.sort();
    want_exits.sort();
    assert_eq!(exits, want_exits, "{p}");
    let mut want_preds = Vec::new();
    fast.predecessors(&p, &mut |j| want_preds.push(j));
    want_preds.sort_unstable();
    want_preds.dedup();
    preds.sort_unstable();
    assert_eq!(preds, want_preds, "{p}");
    true
}

#[test]
fn index_moves_agree_with_the_position_moves_on_every_3_man_index() {
    for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ", "KvKN"] {
        let fast = FastEndgame::new(sig).unwrap();
        let valid = (0..fast.size())
            .filter(|&i| index_moves_agree_at(&fast, i))
            .count();
        assert!(valid > 20_000, "{sig}: {valid}");
    }
}

#[test]
fn index_moves_agree_with_the_position_moves_on_sampled_4_and_5_man_indices() {
    for sig in [
        "KQvKR", "KBNvK", "KBBvK", "KNNvK", "KRRvK", "KRvKB", "KQvKQ", "KNvKN", "KQRvKR", "KBBvKN",
        "KRRvKR", "KQQQvK",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        // About 20,000 indices; an odd stride visits every square of
        // every piece.
        let stride = (fast.size() / 20_000) | 1;
        let valid = (0..fast.size())
            .step_by(stride as usize)
            .filter(|&i| index_moves_agree_at(&fast, i))
            .count();
        assert!(valid > 1_000, "{sig}: {valid}");
    }
}

/// One report of the first pass: an exit of an index, or its result.
#[derive(Debug, PartialEq)]
enum Report {
    Exit(u64, Placement),
    Done(u64, Option<(Option<Outcome>, usize)>),
}

/// What `successor_counts` reports over `range`, and what
/// `successor_count` reports index by index.
fn first_pass_reports(fast: &FastEndgame, range: core::ops::Range<u64>) -> [Vec<Report>; 2] {
    let mut runs = Vec::new();
    fast.successor_counts(range.clone(), |i, r| {
        runs.push(match r {
            Counted::Exit(child) => Report::Exit(i, *child),
            Counted::Done(c) => Report::Done(i, c),
        });
    });
    let mut single = Vec::new();
    for i in range {
        let c = fast.successor_count(i, |child| single.push(Report::Exit(i, *child)));
        single.push(Report::Done(i, c));
    }
    [runs, single]
}

/// Material keys tell the 2- to 4-man signatures (both colour orders)
/// apart, and a capture's key is that of the spaces that index it.
#[test]
fn material_keys_pick_the_one_space_of_a_capture() {
    // Distinct signatures (either colour order) have distinct keys.
    let mut spaces: Vec<FastEndgame> = Vec::new();
    for men in 2..=4 {
        for sig in crate::pawnless_endings(men) {
            let space = FastEndgame::new(&sig.to_string()).unwrap();
            let flipped = sig
                .to_string()
                .split('v')
                .rev()
                .collect::<Vec<_>>()
                .join("v");
            spaces.push(space);
            if flipped != sig.to_string() {
                spaces.push(FastEndgame::new(&flipped).unwrap());
            }
        }
    }
    for (a, x) in spaces.iter().enumerate() {
        for y in &spaces[a + 1..] {
            assert_ne!(
                x.material(),
                y.material(),
                "{:?} {:?}",
                x.endgame().signature(),
                y.endgame().signature()
            );
        }
    }
    // Every capture from sampled KQvKR and KRvKN positions has the key
    // of exactly the spaces that give it an index.
    let mut captures = 0;
    for sig in ["KQvKR", "KRvKN", "KBNvK"] {
        let fast = FastEndgame::new(sig).unwrap();
        for i in (0..fast.size()).step_by(997) {
            let Some(p) = fast.position(i) else { continue };
            assert_eq!(p.material(), fast.material());
            p.for_each_legal(|m| {
                let mut child = p;
                child.make(m);
                if child.alive != p.alive {
                    captures += 1;
                    for space in &spaces {
                        assert_eq!(
                            space.material() == child.material(),
                            space.index_of(&child).is_some(),
                            "{child}"
                        );
                    }
                }
                true
            });
        }
    }
    assert!(captures > 1000, "{captures}");
}

/// `successor_counts` shares the decoding and the check test of 64
/// indices: it reports exactly what `successor_count` does, index by
/// index, on every index of the 3-man endings (also over ranges that
/// start and end inside a run) and on sampled runs of 4- and 5-man
/// endings (identical pieces, pieces of either side last).
#[test]
fn successor_counts_equal_successor_count_index_by_index() {
    let census = |reports: &[Report]| {
        let valid = reports
            .iter()
            .filter(|r| matches!(r, Report::Done(_, Some(_))))
            .count();
        let exits = reports
            .iter()
            .filter(|r| matches!(r, Report::Exit(..)))
            .count();
        (valid, exits)
    };
    for sig in ["KQvK", "KRvK", "KBvK", "KNvK"] {
        let fast = FastEndgame::new(sig).unwrap();
        for range in [0..fast.size(), 5..fast.size() - 3, 70..100] {
            let [runs, single] = first_pass_reports(&fast, range.clone());
            assert_eq!(runs, single, "{sig} {range:?}");
        }
        let [runs, _] = first_pass_reports(&fast, 0..fast.size());
        let (valid, exits) = census(&runs);
        // A lone minor piece draws: no moves are generated.
        let mating = sig == "KQvK" || sig == "KRvK";
        assert!(
            valid > 20_000 && (exits > 1_000) == mating,
            "{sig}: {valid} {exits}"
        );
    }
    for sig in [
        "KQvKR", "KRvKN", "KBNvK", "KBBvK", "KNNvK", "KQvKQ", "KRvKR", "KNvKB", "KQRvKR", "KBBvKN",
        "KRRvKR", "KRvKRB", "KQBvKQ",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        let runs = fast.size() / 64;
        // About 250 runs; an odd stride visits every square of every
        // piece but the last.
        let stride = (runs / 250) | 1;
        let (mut valid, mut exits) = (0, 0);
        for run in (0..runs).step_by(stride as usize) {
            let [a, b] = first_pass_reports(&fast, run * 64..run * 64 + 64);
            assert_eq!(a, b, "{sig} run {run}");
            let (v, e) = census(&a);
            valid += v;
            exits += e;
        }
        assert!(valid > 4_000 && exits > 100, "{sig}: {valid} {exits}");
    }
}

/// The king-move shortcuts of `successor_count` and
/// `predecessor_indices` take a king's moves (un-moves) as distinct
/// unless both kings stand on a1–h8, which needs the argument that two
/// of them could only merge through a reflection keeping the other king
/// and every other piece in place. Every valid index where such a
/// reflection exists (a king on a long diagonal whose reflection maps
/// the other pieces onto pieces of the same kind), and a sample of
/// those with a king on a long diagonal without that symmetry, report
/// exactly what the position-level moves imply.
#[test]
fn index_moves_agree_where_a_king_stands_on_a_long_diagonal() {
    let diagonal = |sq: u8| (sq % 8) * 8 + sq / 8;
    let anti = |sq: u8| (7 - sq % 8) * 8 + (7 - sq / 8);
    let symmetric = |p: &Placement, reflect: &dyn Fn(u8) -> u8| {
        let others: Vec<(u8, u8)> = p
            .pieces()
            .skip(2)
            .map(|(piece, sq)| (piece as u8, sq as u8))
            .collect();
        others
            .iter()
            .all(|&(piece, sq)| others.contains(&(piece, reflect(sq))))
    };
    for sig in ["KNNvK", "KBBvK", "KRvKR", "KQvKQ", "KNvKN"] {
        let fast = FastEndgame::new(sig).unwrap();
        let (mut mirrored, mut sampled) = (0, 0);
        for i in 0..fast.size() {
            let Some(p) = fast.position(i) else {
                continue;
            };
            let kings = [p.square[0], p.square[1]];
            if kings.iter().any(|&k| {
                (on_long_diagonal(k) && symmetric(&p, &diagonal))
                    || (k % 8 + k / 8 == 7 && symmetric(&p, &anti))
            }) {
                mirrored += 1;
                assert!(index_moves_agree_at(&fast, i));
            } else if i % 101 == 0 && kings.iter().any(|&k| on_a_long_diagonal(k)) {
                sampled += 1;
                assert!(index_moves_agree_at(&fast, i));
            }
        }
        assert!(
            mirrored > 5_000 && sampled > 5_000,
            "{sig}: {mirrored}, {sampled}"
        );
    }
}

/// `predecessor_block` on the block at `first` with `members` reports
/// exactly the pairs `(member, predecessor)` that `predecessor_indices`
/// reports member by member (as multisets), and
/// `predecessor_block_filtered` all of those it is asked for. Returns the
/// number of pairs.
fn block_agrees(fast: &FastEndgame, first: u64, members: u64) -> usize {
    let mut got = Vec::new();
    fast.predecessor_block(first, members, |i, j| got.push((i, j)));
    let mut want = Vec::new();
    for k in (0..64).filter(|k| members >> k & 1 != 0) {
        let i = first + k;
        fast.predecessor_indices(i, |j| want.push((i, j)));
    }
    got.sort_unstable();
    want.sort_unstable();
    if got != want {
        let extra: Vec<_> = got.iter().filter(|x| !want.contains(x)).collect();
        let missing: Vec<_> = want.iter().filter(|x| !got.contains(x)).collect();
        panic!(
            "{}: block {first}, members {members:#018x}: {} pairs, {} expected; \
             extra {extra:?}, missing {missing:?}",
            fast.endgame().signature(),
            got.len(),
            want.len()
        );
    }
    // `predecessor_block_filtered` with a pseudo-random wanted set
    // (about a quarter of each block): every wanted pair, and only
    // pairs `predecessor_block` reports.
    let wanted = |block: u64| {
        let h = (block ^ first).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h & h.rotate_left(29)
    };
    let is_wanted = |&(_, j): &(u64, u64)| wanted(j & !63) >> (j & 63) & 1 != 0;
    let mut filtered = Vec::new();
    fast.predecessor_block_filtered(first, members, wanted, |i, j| filtered.push((i, j)));
    filtered.sort_unstable();
    assert!(
        filtered.iter().all(|x| got.binary_search(x).is_ok()),
        "block {first}: a filtered pair predecessor_block does not report"
    );
    let kept: Vec<_> = got.iter().copied().filter(is_wanted).collect();
    let wanted_filtered: Vec<_> = filtered.iter().copied().filter(is_wanted).collect();
    assert_eq!(
        kept, wanted_filtered,
        "block {first}, members {members:#018x}"
    );
    got.len()
}

/// [`block_agrees`] on each of `blocks` (block numbers) with every
/// valid index of the block as a member, with random halves and
/// quarters of them, and with a single member. Returns the number of
/// pairs compared.
fn blocks_agree(fast: &FastEndgame, blocks: impl Iterator<Item = u64>) -> usize {
    // xorshift64, fixed seed.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pairs = 0;
    for block in blocks {
        let first = block * 64;
        let valid = (0..64u64)
            .filter(|&k| fast.position(first + k).is_some())
            .fold(0u64, |m, k| m | 1 << k);
        if valid == 0 {
            continue;
        }
        let half = valid & random();
        let quarter = half & random();
        for members in [valid, half, quarter, valid & valid.wrapping_neg()] {
            pairs += block_agrees(fast, first, members);
        }
    }
    pairs
}

#[test]
fn predecessor_blocks_agree_with_predecessor_indices_on_every_3_man_block() {
    for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ", "KvKR"] {
        let fast = FastEndgame::new(sig).unwrap();
        let pairs = blocks_agree(&fast, 0..fast.size() / 64);
        assert!(pairs > 100_000, "{sig}: {pairs}");
    }
}

#[test]
fn predecessor_blocks_agree_with_predecessor_indices_on_sampled_4_and_5_man_blocks() {
    for sig in [
        "KRvKN", "KQvKR", "KBNvK", "KRRvK", "KBBvK", "KQvKQ", "KNvKB", "KRvKR", "KQRvKR", "KRRvKN",
        "KRvKNN",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        // About 1,500 blocks; an odd stride visits every placement of
        // the kings with both sides to move.
        let blocks = fast.size() / 64;
        let stride = (blocks / 1500) | 1;
        let pairs = blocks_agree(&fast, (0..blocks).step_by(stride as usize));
        assert!(pairs > 100_000, "{sig}: {pairs}");
    }
}

/// Blocks where the side to move's king stands on a long diagonal (and
/// the kings not both on a1–h8): there a king un-move may keep the king
/// placement through a reflection, and its result may be another
/// piece's (the members `reflected_one_apart` picks).
#[test]
fn predecessor_blocks_agree_where_a_king_un_move_keeps_the_king_placement() {
    for sig in [
        "KQvKR", "KRvKN", "KBBvK", "KQvKQ", "KRRvKN", "KRvKNN", "KQRvKR", "KBNvKB", "KQvKRR",
        "KBvKQQ",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        let blocks = fast.size() / 64;
        let stride = (blocks / 40_000) | 1;
        let keeps = |&block: &u64| {
            let Some(p) = (0..64).find_map(|k| fast.decode(block * 64 + k)) else {
                return false;
            };
            let target = p.square[p.side as usize];
            on_a_long_diagonal(target)
                && !(on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]))
        };
        let chosen = (0..blocks)
            .step_by(stride as usize)
            .filter(keeps)
            .take(1_200);
        let pairs = blocks_agree(&fast, chosen);
        assert!(pairs > 50_000, "{sig}: {pairs}");
    }
}

/// Positions where the king un-move that keeps the king placement
/// gives the result of another piece's un-move: White's king came
/// from a2 (reflected in a1–h8 to b1); the queen from the mirror of
/// its square, and the rest of the pieces is symmetric — Black's two
/// rooks mirror each other (`X` is one of them), or the rook stands on
/// the diagonal.
#[test]
fn predecessor_blocks_agree_where_a_reflected_king_un_move_meets_another() {
    for (sig, fen) in [
        ("KQvKRR", "3r4/6k1/8/8/5Q1r/8/8/1K6 b - - 0 1"),
        ("KQvKR", "8/6k1/8/8/5Q2/2r5/8/1K6 b - - 0 1"),
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        let position: Position = fen.parse().unwrap();
        let p = Placement::from_position(&position).unwrap();
        let index = fast.index_of(&p).unwrap();
        let first = index & !63;
        let valid = (0..64u64)
            .filter(|&k| fast.position(first + k).is_some())
            .fold(0u64, |m, k| m | 1 << k);
        assert!(valid >> (index & 63) & 1 != 0, "{fen}");
        block_agrees(&fast, first, valid);
        block_agrees(
            &fast,
            first,
            1 << (index & 63) | valid & valid.wrapping_neg(),
        );
    }
}

#[test]
fn fast_space_agrees_with_the_position_space_on_every_3_man_index() {
    for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ"] {
        let fast = FastEndgame::new(sig).unwrap();
        let valid = (0..fast.size()).filter(|&i| agree_at(&fast, i)).count();
        assert!(valid > 20_000, "{sig}: {valid}");
    }
}

#[test]
fn fast_space_agrees_with_the_position_space_on_sampled_4_and_5_man_indices() {
    for sig in [
        "KQvKR", "KBNvK", "KBBvK", "KNNvK", "KRvKB", "KQvKQ", "KQRvKR", "KBBvKN",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        // About 4,000 indices; an odd stride (prime to 64) visits every
        // square of every piece.
        let stride = (fast.size() / 4000) | 1;
        let valid = (0..fast.size())
            .step_by(stride as usize)
            .filter(|&i| agree_at(&fast, i))
            .count();
        assert!(valid > 500, "{sig}: {valid}");
    }
}

/// The legal moves of a placement are the position's, on many sampled
/// positions of endings with pins, checks and double checks (sliders on
/// both sides), most of them in check or with a pinned piece.
#[test]
fn legal_moves_equal_the_position_moves_with_pins_and_checks() {
    let (mut checked, mut pinned) = (0, 0);
    for sig in [
        "KQvKR", "KRvKR", "KQvKQ", "KBvKR", "KQRvKR", "KRBvKQ", "KQBvKR",
    ] {
        let fast = FastEndgame::new(sig).unwrap();
        let stride = (fast.size() / 40_000) | 1;
        for i in (0..fast.size()).step_by(stride as usize) {
            let Some(q) = fast.position(i) else { continue };
            let p = q.to_position().unwrap();
            let mut want: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
            let mut moves = <Placement as Game>::Moves::default();
            q.generate(&mut moves);
            let mut got: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{p}");
            let c = q.move_context();
            checked += usize::from(c.in_check);
            pinned += (2..q.len as usize)
                .filter(|&s| {
                    q.piece[s] as usize / 6 == c.us
                        && c.enemy.sliders_at(c.king, c.occ & !(1u64 << q.square[s])) & !c.checkers
                            != 0
                })
                .count();
        }
    }
    assert!(checked > 20_000 && pinned > 1_000, "{checked} {pinned}");
}

#[test]
fn conversions_round_trip() {
    let p: Position = "8/8/3k4/8/2n5/8/1Q6/K6Q w - - 0 1".parse().unwrap();
    let q = Placement::from_position(&p).unwrap();
    assert_eq!(q.to_position().unwrap().to_string(), p.to_string());
    assert_eq!(q.to_string(), p.to_string());
    assert_eq!(q.hash(), q.recompute_hash());
    let with_pawn: Position = "8/8/3k4/8/2p5/8/1Q6/K7 w - - 0 1".parse().unwrap();
    assert_eq!(Placement::from_position(&with_pawn), None);
    assert_eq!(FastEndgame::new("KQvKN").unwrap().index_of(&q), None);
    let flipped: Position = "k6q/1q6/8/2N5/8/3K4/8/8 b - - 0 1".parse().unwrap();
    assert_eq!(q.flipped(), Placement::from_position(&flipped).unwrap());
    assert_eq!(q.flipped().flipped(), q);
}

/// A position and its colour-flipped twin: valid in the flipped space,
/// same outcome, same number of moves (every 7th KRvK index).
#[test]
fn flipping_preserves_moves_and_outcomes() {
    let krk = FastEndgame::new("KRvK").unwrap();
    let kkr = FastEndgame::new("KvKR").unwrap();
    for i in (0..krk.size()).step_by(7) {
        let Some(p) = krk.position(i) else { continue };
        let f = p.flipped();
        assert!(kkr.index_of(&f).and_then(|j| kkr.position(j)).is_some());
        assert_eq!(p.outcome(), f.outcome());
        let (mut a, mut b) = (<Placement as Game>::Moves::default(), Default::default());
        p.generate(&mut a);
        f.generate(&mut b);
        assert_eq!(a.len(), b.len());
    }
}
