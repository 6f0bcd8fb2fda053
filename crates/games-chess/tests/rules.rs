//! Rules, formats and oracles: FEN and UCI errors, draw rules, the
//! `gametree_game::check` oracles on seeded random playouts, and a move-by-move
//! comparison with the `cozy-chess` crate.

use std::collections::BTreeSet;

use gametree_game::{Game, Outcome, check};
use gametree_games_chess::{
    Color, FenErrorKind, Move, Piece, Position, STARTPOS, Square, UciErrorKind,
};
use rand_core::Rng;
use rand_pcg::Pcg64;

const FENS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/8/K1pP3r/8/8/8/4k3 w - c6 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
];

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_kind(fen: &str) -> FenErrorKind {
    fen.parse::<Position>().expect_err(fen).kind()
}

#[test]
fn fen_errors_are_precise() {
    use FenErrorKind as K;
    assert_eq!(fen_kind("8/8/8/8/8/8/8/8 w - -  0"), K::FieldCount(5));
    assert_eq!(fen_kind(""), K::FieldCount(0));
    assert_eq!(fen_kind("4k3/8/8/8/8/8/4K3 w - - 0 1"), K::RankCount(7));
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K4 w - - 0 1"), K::RankLength(1));
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K2 w - - 0 1"), K::RankLength(1));
    assert_eq!(fen_kind("4k3/8/8/8/8/7/8/4K3 w - - 0 1"), K::RankLength(3));
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/4Kx2 w - - 0 1"),
        K::PieceLetter('x')
    );
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/4K02 w - - 0 1"),
        K::PieceLetter('0')
    );
    assert!(matches!(
        fen_kind("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        K::PawnOnBackRank(_)
    ));
    assert_eq!(
        fen_kind("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        K::KingCount(gametree_games_chess::Color::Black)
    );
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        K::KingCount(gametree_games_chess::Color::White)
    );
    assert_eq!(
        fen_kind("4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1"),
        K::TooManyPieces(gametree_games_chess::Color::White)
    );
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), K::Side);
    assert_eq!(
        fen_kind("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1"),
        K::CastlingSyntax
    );
    assert_eq!(
        fen_kind("r3k2r/8/8/8/8/8/8/R3K2R w QK - 0 1"),
        K::CastlingSyntax
    );
    assert_eq!(
        fen_kind("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"),
        K::CastlingSyntax
    );
    assert_eq!(
        fen_kind("r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1"),
        K::CastlingPlacement('K')
    );
    assert_eq!(
        fen_kind("r3k2r/8/8/8/8/8/8/R4K1R w Q - 0 1"),
        K::CastlingPlacement('Q')
    );
    assert_eq!(
        fen_kind("1r2k2r/8/8/8/8/8/8/R3K2R w q - 0 1"),
        K::CastlingPlacement('q')
    );
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        K::EnPassantSyntax
    );
    assert!(matches!(
        fen_kind("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        K::EnPassantPlacement(_)
    ));
    assert!(matches!(
        fen_kind("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1"),
        K::EnPassantPlacement(_)
    ));
    assert!(matches!(
        fen_kind("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1"),
        K::EnPassantPlacement(_)
    ));
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K3 w - - x 1"), K::HalfmoveClock);
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K3 w - - -1 1"), K::HalfmoveClock);
    assert_eq!(fen_kind("4k3/8/8/8/8/8/8/4K3 w - - 0 x"), K::FullmoveNumber);
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/4K3 w - - 0 -1"),
        K::FullmoveNumber
    );
    // Counters wrap around instead of overflowing, and make/unmake restores them.
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 b - - 65535 65535");
    let before = p.clone();
    let m = p.parse_uci("e8d8").unwrap();
    let u = p.make(m);
    assert_eq!(p.to_string(), "3k4/8/8/8/8/8/8/R3K3 w - - 0 0");
    assert_eq!(pos(&p.to_string()).hash(), p.hash());
    p.unmake(m, u);
    assert_eq!(p, before);
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/4K3 w - - 0 99999"),
        K::FullmoveNumber
    );
    assert_eq!(
        fen_kind("4k3/8/8/8/8/8/8/K3R3 w - - 0 1"),
        K::OpponentInCheck
    );
    // Errors print a message.
    assert!(!"x".parse::<Position>().unwrap_err().to_string().is_empty());
    // Four fields are accepted, with counters 0 1.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 b - -").to_string(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn fen_round_trip_and_ep_normalisation() {
    for fen in FENS {
        assert_eq!(pos(fen).to_string(), *fen);
    }
    // A valid en-passant square no pawn can use is dropped.
    let p = pos("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1");
    assert_eq!(p.en_passant(), None);
    assert_eq!(p.hash(), pos("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1").hash());
}

/// The pieces of `p` as `(square, piece)`, read square by square.
fn pieces_of(p: &Position) -> Vec<(Square, Piece)> {
    (0..64)
        .map(Square::new)
        .filter_map(|sq| p.piece_at(sq).map(|piece| (sq, piece)))
        .collect()
}

/// `from_pieces` sets up the board FEN would (without castling rights,
/// en-passant square or counters), and `piece_squares` / `color_squares`
/// agree with `piece_at`, along random games from every test position.
#[test]
fn from_pieces_and_bitboards_agree_with_fen() {
    let mut checked = 0;
    for fen in FENS {
        for mut rng in seeds().take(2) {
            let mut p = pos(fen);
            for _ in 0..60 {
                let pieces = pieces_of(&p);
                let q = Position::from_pieces(p.turn(), pieces.iter().copied()).unwrap();
                let board = p.to_string();
                let board = board.split(' ').take(2).collect::<Vec<_>>().join(" ");
                assert_eq!(q.to_string(), format!("{board} - - 0 1"));
                assert_eq!(q, pos(&q.to_string()));
                for color in [Color::White, Color::Black] {
                    let mut all = 0u64;
                    for role in gametree_games_chess::Role::ALL {
                        let piece = Piece { color, role };
                        let squares = pieces
                            .iter()
                            .filter(|&&(_, x)| x == piece)
                            .fold(0u64, |b, &(sq, _)| b | 1 << sq.index());
                        assert_eq!(p.piece_squares(piece), squares, "{p}");
                        all |= squares;
                    }
                    assert_eq!(p.color_squares(color), all, "{p}");
                }
                checked += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make(moves[rng.next_u64() as usize % moves.len()]);
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// `from_pieces` refuses what FEN refuses, and two pieces on one square.
#[test]
fn from_pieces_errors_are_typed() {
    let piece = |c: char| Piece::from_char(c).unwrap();
    let at = |s: &str| s.parse::<Square>().unwrap();
    let kind = |turn: Color, list: &[(&str, char)]| {
        Position::from_pieces(turn, list.iter().map(|&(s, c)| (at(s), piece(c))))
            .unwrap_err()
            .kind()
    };
    let w = Color::White;
    assert_eq!(
        kind(w, &[("e1", 'K'), ("e8", 'k'), ("e1", 'Q')]),
        FenErrorKind::SquareTaken(at("e1"))
    );
    assert_eq!(
        kind(w, &[("e1", 'K')]),
        FenErrorKind::KingCount(Color::Black)
    );
    assert_eq!(
        kind(w, &[("e1", 'K'), ("e8", 'k'), ("d1", 'K')]),
        FenErrorKind::KingCount(Color::White)
    );
    assert_eq!(
        kind(w, &[("e1", 'K'), ("e8", 'k'), ("a8", 'P')]),
        FenErrorKind::PawnOnBackRank(at("a8"))
    );
    assert_eq!(
        kind(w, &[("e1", 'K'), ("e8", 'k'), ("e4", 'Q')]),
        FenErrorKind::OpponentInCheck
    );
    // Eleven knights: more than two plus eight promotions.
    let mut knights = vec![("a1", 'K'), ("h8", 'k')];
    knights.extend(
        [
            "b3", "c3", "d3", "e3", "f3", "b5", "c5", "d5", "e5", "f5", "g5",
        ]
        .map(|s| (s, 'N')),
    );
    assert_eq!(kind(w, &knights), FenErrorKind::TooManyPieces(Color::White));
    assert!(
        !Position::from_pieces(w, [(at("a1"), piece('K')), (at("a1"), piece('k'))])
            .unwrap_err()
            .to_string()
            .is_empty()
    );
    // Legal: Black to move, in check.
    let p = Position::from_pieces(
        Color::Black,
        [
            (at("e1"), piece('K')),
            (at("e8"), piece('k')),
            (at("e4"), piece('Q')),
        ],
    )
    .unwrap();
    assert!(p.in_check());
}

#[test]
fn uci_parse_checks_legality() {
    let p = Position::startpos();
    assert_eq!(p.parse_uci("e2e4").unwrap().to_string(), "e2e4");
    assert_eq!(
        p.parse_uci("e2e5").unwrap_err().kind(),
        UciErrorKind::Illegal
    );
    assert_eq!(
        p.parse_uci("e7e5").unwrap_err().kind(),
        UciErrorKind::Illegal
    );
    assert_eq!(p.parse_uci("e2").unwrap_err().kind(), UciErrorKind::Length);
    let promo = pos("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1");
    assert!(promo.parse_uci("b7b8q").is_ok());
    assert!(promo.parse_uci("b7b8n").is_ok());
    assert_eq!(
        promo.parse_uci("b7b8").unwrap_err().kind(),
        UciErrorKind::Illegal
    );
    assert_eq!(
        p.parse_uci("e2e4q").unwrap_err().kind(),
        UciErrorKind::Illegal
    );
}

#[test]
fn special_moves() {
    // En passant that would expose the king along the rank is illegal.
    let p = pos("8/8/8/K1pP3r/8/8/8/4k3 w - c6 0 1");
    assert!(p.parse_uci("d5c6").is_err());
    let p = pos("8/8/8/K1pP4/8/8/8/4k3 w - c6 0 1");
    assert!(p.parse_uci("d5c6").is_ok());
    // En passant removes the checking pawn.
    let mut p = pos("8/8/8/2pP4/1K6/8/8/4k3 w - c6 0 1");
    assert!(p.in_check());
    let m = p.parse_uci("d5c6").unwrap();
    p.make(m);
    assert_eq!(p.to_string(), "8/8/2P5/8/1K6/8/8/4k3 b - - 0 1");
    // Castling: not through an attacked square, not out of check.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(p.parse_uci("e1g1").is_ok() && p.parse_uci("e1c1").is_ok());
    let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    assert!(p.parse_uci("e1g1").is_err(), "f1 attacked");
    let p = pos("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1");
    assert!(p.parse_uci("e1c1").is_ok(), "b1 may be attacked");
    let p = pos("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(p.parse_uci("e1g1").is_err() && p.parse_uci("e1c1").is_err());
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    p.make(p.parse_uci("e1c1").unwrap());
    assert_eq!(p.to_string(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // Double check: only king moves.
    let p = pos("4k3/8/8/8/8/5n2/8/r2QK2R w K - 0 1");
    assert!(p.legal_moves().iter().all(|m| m.from().to_string() == "e1"));
    // Promotion with capture, all four pieces.
    let p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let promos: BTreeSet<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.promotion().is_some())
        .map(ToString::to_string)
        .collect();
    assert_eq!(promos.len(), 8);
}

#[test]
fn outcomes() {
    // Fool's mate.
    let mut p = Position::startpos();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = p.parse_uci(m).unwrap();
        p.try_make(m).unwrap();
    }
    assert_eq!(p.outcome(), Some(Outcome::Loss));
    // Stalemate.
    assert_eq!(
        pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome(),
        Some(Outcome::Draw)
    );
    // Fifty-move rule, but mate on the hundredth ply still wins.
    assert_eq!(
        pos("7k/8/6K1/8/8/8/8/R7 w - - 100 80").outcome(),
        Some(Outcome::Draw)
    );
    assert_eq!(pos("7k/8/6K1/8/8/8/8/R7 w - - 99 80").outcome(), None);
    assert_eq!(
        pos("R6k/8/6K1/8/8/8/8/8 b - - 100 80").outcome(),
        Some(Outcome::Loss)
    );
    // Insufficient material.
    for fen in [
        "7k/8/6K1/8/8/8/8/8 w - - 0 1",
        "7k/8/6K1/8/8/8/8/N7 w - - 0 1",
        "7k/8/6K1/8/8/8/8/1B6 w - - 0 1",
        "7k/8/6K1/8/8/8/b7/1B6 w - - 0 1",
    ] {
        assert_eq!(pos(fen).outcome(), Some(Outcome::Draw), "{fen}");
    }
    for fen in [
        "7k/8/6K1/8/8/8/1b6/1B6 w - - 0 1",
        "7k/8/6K1/8/8/8/n7/1B6 w - - 0 1",
    ] {
        assert_eq!(pos(fen).outcome(), None, "{fen}");
    }
    // Threefold repetition: the start position after the knights go out and
    // back twice; twice is not enough.
    let mut p = Position::startpos();
    let start_hash = p.hash();
    for round in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            assert_eq!(p.outcome(), None, "round {round} before {m}");
            let m = p.parse_uci(m).unwrap();
            p.make(m);
        }
        assert_eq!(p.hash(), start_hash);
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(p.is_threefold_repetition());
    // The moves are still generated (perft convention).
    assert_eq!(p.count_legal_moves(), 20);
}

#[test]
fn hash_distinguishes_rights_and_ep() {
    let a = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let b = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    let c = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    let d = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let e = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(d.hash(), e.hash());
    assert_eq!(d.hash(), d.recompute_hash());
}

fn seeds() -> impl Iterator<Item = Pcg64> {
    (0..8u128).map(|s| Pcg64::new(0xC4E5_5000 + s, 0x0a02_bdbf_7bb3_c0a7))
}

#[test]
fn oracles_on_random_playouts() {
    for fen in FENS {
        for mut rng in seeds() {
            let start = pos(fen);
            let mut choices = std::iter::from_fn(|| Some(rng.next_u64()));
            check::playout(&start, &mut choices, 120).unwrap();
        }
    }
}

#[test]
fn try_make_agrees_on_arbitrary_moves() {
    let mut rng = Pcg64::new(7, 7);
    for fen in FENS {
        let mut p = pos(fen);
        for _ in 0..40 {
            for _ in 0..50 {
                if let Some(m) = Move::from_number(rng.next_u64() as usize % (5 * 4096)) {
                    check::try_make_agrees(&p, m).unwrap();
                }
            }
            let mut moves = <Position as Game>::Moves::default();
            p.generate(&mut moves);
            for &m in moves.as_slice() {
                check::try_make_agrees(&p, m).unwrap();
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            p.make(m);
        }
    }
}

/// Our legal moves in UCI (castling as the king's two-square move).
fn ours(p: &Position) -> BTreeSet<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

/// cozy-chess's legal moves, castling converted from king-takes-rook.
fn theirs(b: &cozy_chess::Board) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    b.generate_moves(|ms| {
        for m in ms {
            let mut to = m.to;
            if b.piece_on(m.from) == Some(cozy_chess::Piece::King)
                && b.colors(b.side_to_move()).has(m.to)
            {
                let file = if m.to.file() > m.from.file() {
                    cozy_chess::File::G
                } else {
                    cozy_chess::File::C
                };
                to = cozy_chess::Square::new(file, m.to.rank());
            }
            let mut s = format!("{}{}", m.from, to);
            if let Some(p) = m.promotion {
                s.push_str(&p.to_string());
            }
            set.insert(s);
        }
        false
    });
    set
}

#[test]
fn same_moves_as_cozy_chess_along_random_games() {
    let mut positions = 0;
    for fen in FENS {
        for mut rng in seeds() {
            let mut p = pos(fen);
            for _ in 0..150 {
                // cozy-chess refuses half-move clocks above 100.
                let fen = p.to_string();
                let fields: Vec<&str> = fen.split(' ').collect();
                let fen = format!(
                    "{} {} {} {} 0 1",
                    fields[0], fields[1], fields[2], fields[3]
                );
                let b = cozy_chess::Board::from_fen(&fen, false).unwrap();
                let mine = ours(&p);
                assert_eq!(mine, theirs(&b), "{p}");
                assert_eq!(p.has_legal_move(), !mine.is_empty(), "{p}");
                positions += 1;
                let tactical: BTreeSet<String> =
                    p.tactical_moves().iter().map(ToString::to_string).collect();
                let expected: BTreeSet<String> = mine
                    .iter()
                    .filter(|m| {
                        let m = p.parse_uci(m).unwrap();
                        m.promotion().is_some()
                            || p.piece_at(m.to()).is_some()
                            || (p.en_passant() == Some(m.to())
                                && p.piece_at(m.from()).unwrap().role
                                    == gametree_games_chess::Role::Pawn)
                    })
                    .cloned()
                    .collect();
                assert_eq!(tactical, expected, "{p}");
                if mine.is_empty() {
                    break;
                }
                let list: Vec<&String> = mine.iter().collect();
                let m = p
                    .parse_uci(list[(rng.next_u64() % list.len() as u64) as usize])
                    .unwrap();
                p.make(m);
                assert_eq!(pos(&p.to_string()).hash(), p.hash());
            }
        }
    }
    assert!(positions > 5000);
}

/// `has_legal_move` stops generating at the first stage that finds a move.
/// Positions whose only legal moves come from one late stage, or none, and
/// every position two plies from them, check each exit against the full
/// count (the move lists are cozy-chess-checked along random games above).
#[test]
fn has_legal_move_agrees_with_the_count() {
    let cases: [(&str, Option<&[&str]>); 6] = [
        // Stalemate and mate: no stage finds a move.
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Some(&[])),
        ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", Some(&[])),
        // Only pawn pushes.
        ("7k/5Q1p/5K2/8/8/8/8/8 b - - 0 1", Some(&["h7h5", "h7h6"])),
        // Only en passant answers the check of the pawn that just moved.
        ("8/8/3Q4/k7/1Pp5/2N5/8/7K b - b3 0 1", Some(&["c4b3"])),
        // Only a pinned rook, along its pin.
        (
            "k7/2K5/1B6/8/8/8/r7/R7 b - - 0 1",
            Some(&["a2a1", "a2a3", "a2a4", "a2a5", "a2a6", "a2a7"]),
        ),
        // Castling rights (castling is the last stage), many other moves.
        ("4k3/8/8/8/8/8/3PPP2/3QK2R w K - 0 1", None),
    ];
    for (fen, only) in cases {
        let mut p = pos(fen);
        let moves: BTreeSet<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        if let Some(only) = only {
            let only: BTreeSet<String> = only.iter().map(|m| (*m).to_string()).collect();
            assert_eq!(moves, only, "{p}");
        }
        assert_eq!(p.has_legal_move(), !moves.is_empty(), "{p}");
        for m in p.legal_moves() {
            let undo = p.make(m);
            assert_eq!(p.has_legal_move(), p.count_legal_moves() > 0, "{p}");
            for r in p.legal_moves() {
                let undo2 = p.make(r);
                assert_eq!(p.has_legal_move(), p.count_legal_moves() > 0, "{p}");
                p.unmake(r, undo2);
            }
            p.unmake(m, undo);
        }
    }
    assert_eq!(
        pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome(),
        Some(Outcome::Draw)
    );
    assert_eq!(
        pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").outcome(),
        Some(Outcome::Loss)
    );
}

/// Parsers never panic: mutated FEN strings and random UCI strings either
/// parse or give a typed error; what parses round-trips and passes the
/// position oracle.
#[test]
fn mutated_fens_never_panic_and_round_trip() {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0x";
    let mut rng = Pcg64::new(2024, 12);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let base = FENS[(rng.next_u64() % FENS.len() as u64) as usize];
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.next_u64() % 3 {
            let i = (rng.next_u64() % bytes.len() as u64) as usize;
            let c = ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize];
            match rng.next_u64() % 3 {
                0 => bytes[i] = c,
                1 => bytes.insert(i, c),
                _ => {
                    bytes.remove(i);
                }
            }
        }
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(p) = text.parse::<Position>() {
            parsed += 1;
            let again: Position = p.to_string().parse().unwrap();
            assert_eq!(again.to_string(), p.to_string());
            assert_eq!(again.hash(), p.hash());
            check::position(&p, 0).unwrap();
            assert_eq!(p.has_legal_move(), p.count_legal_moves() > 0, "{p}");
        }
        let uci: String = (0..rng.next_u64() % 6)
            .map(|_| ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize] as char)
            .collect();
        let _ = Position::startpos().parse_uci(&uci);
    }
    assert!(parsed > 200, "only {parsed} mutated FENs parsed");
}
