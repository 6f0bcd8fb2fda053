//! A material + piece-square [`Evaluate`], and [`Tactical`] moves
//! (captures and promotions ordered by MVV-LVA) for quiescence search.

use arrayvec::ArrayVec;
use gametree_game::Score;

use crate::movegen::ListSink;
use crate::mv::Move;
use crate::position::{EMPTY, KING_R, PAWN_R, Position};

/// Piece values in centipawns: pawn, knight, bishop, rook, queen, king (0).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Distance from the centre in king steps: 0 on d4–e5, 3 on the rim.
const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr { df } else { dr }
}

/// Piece-square bonuses from White's point of view (Black mirrors the
/// rank), built from simple rules: pawns gain as they advance and in the
/// centre, minor pieces and the queen like the centre, rooks like the
/// seventh rank, the king hides on its back rank until the endgame and then
/// walks to the centre.
const fn pst(role: usize, sq: usize, endgame: bool) -> i32 {
    let rank = (sq / 8) as i32;
    let file = (sq % 8) as i32;
    let cd = centre_distance(sq);
    match role {
        0 => {
            let central = if (file == 3 || file == 4) && rank >= 2 && rank <= 4 {
                12
            } else {
                0
            };
            (rank - 1) * if endgame { 12 } else { 5 } + central
        }
        1 => 20 - 12 * cd,
        2 => 10 - 6 * cd,
        3 => {
            if rank == 6 {
                20
            } else {
                0
            }
        }
        4 => 6 - 3 * cd,
        _ => {
            if endgame {
                24 - 12 * cd
            } else if rank == 0 {
                if file <= 2 || file >= 6 { 20 } else { 5 }
            } else {
                -15 * rank
            }
        }
    }
}

const fn build_pst(endgame: bool) -> [[i32; 64]; 6] {
    let mut t = [[0; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[role][sq] = pst(role, sq, endgame);
            sq += 1;
        }
        role += 1;
    }
    t
}

static PST_MIDDLE: [[i32; 64]; 6] = build_pst(false);
static PST_END: [[i32; 64]; 6] = build_pst(true);

impl Position {
    /// The static evaluation from White's point of view, in centipawns.
    #[must_use]
    pub fn evaluate_white(&self) -> i32 {
        // Endgame when neither side has more than a rook and a minor piece.
        let heavy = |c: usize| -> i32 {
            (1..5)
                .map(|r| PIECE_VALUES[r] * self.pieces(c, r).count_ones() as i32)
                .sum()
        };
        let endgame = heavy(0) <= 830 && heavy(1) <= 830;
        let table = if endgame { &PST_END } else { &PST_MIDDLE };
        let mut score = 0;
        for sq in 0..64 {
            let p = self.board[sq];
            if p == EMPTY {
                continue;
            }
            let (color, role) = (p as usize / 6, p as usize % 6);
            let rel = if color == 0 { sq } else { sq ^ 56 };
            let v = PIECE_VALUES[role] + table[role][rel];
            score += if color == 0 { v } else { -v };
        }
        score
    }

    /// The MVV-LVA priority of a capture or promotion (the tactical priority
    /// of [`gametree_game::Game::move_hint`]).
    #[must_use]
    pub fn mvv_lva(&self, m: Move) -> Option<i32> {
        let from = m.orig_idx();
        let to = m.to_idx();
        let attacker = self.board[from] as usize % 6;
        let target = self.board[to];
        let victim = if target != EMPTY {
            Some(target as usize % 6)
        } else if attacker == PAWN_R && to == self.ep as usize {
            Some(PAWN_R)
        } else {
            None
        };
        let promo = m.promo_code();
        if victim.is_none() && promo == 0 {
            return None;
        }
        let mut s = victim.map_or(0, |v| {
            10 * PIECE_VALUES[v] - PIECE_VALUES[attacker.min(KING_R)] / 10
        });
        if promo != 0 {
            s += 10 * (PIECE_VALUES[promo as usize] - PIECE_VALUES[PAWN_R]);
        }
        Some(s)
    }
}

impl Position {
    /// Material plus piece-square bonuses, for the side to move, in
    /// centipawns ([`Score::heuristic`]).
    pub(crate) fn material_evaluation(&self) -> Score {
        let v = self.evaluate_white();
        Score::heuristic(if self.side.index() == 0 { v } else { -v })
    }
}

impl Position {
    /// A dedicated generator that only produces the legal captures and
    /// promotions (no quiet move is generated and filtered). In check it
    /// yields only the tactical evasions: a quiescence search should search
    /// every move when [`Position::in_check`] holds.
    pub(crate) fn captures_and_promotions(&self, out: &mut ArrayVec<Move, 256>) {
        out.clear();
        self.generate_into::<true>(&mut ListSink(out));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_game::{Game, MoveBuffer};

    /// The FEN with colours swapped and the board flipped (no castling or ep).
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn symmetric_and_sensible() {
        let start = Position::startpos();
        assert_eq!(start.evaluate_white(), 0);
        assert_eq!(start.evaluate(), Score::DRAW);
        // Colour-mirrored positions evaluate to opposite values.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let a: Position = fen.parse().unwrap();
            let b: Position = mirror(fen).parse().unwrap();
            assert_eq!(a.evaluate_white(), -b.evaluate_white(), "{fen}");
            assert_eq!(a.evaluate(), b.evaluate());
        }
        // A queen up is a lot.
        let q: Position = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        assert!(q.evaluate().get() > 800);
    }

    #[test]
    fn tactical_moves_are_the_scored_ones() {
        let p: Position = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
            .parse()
            .unwrap();
        let mut fast = ArrayVec::new();
        p.generate_tactical(&mut fast);
        let mut all = ArrayVec::<Move, 256>::new();
        p.generate(&mut all);
        MoveBuffer::retain(&mut all, |&m| p.move_hint(m).is_tactical());
        assert_eq!(fast.as_slice(), all.as_slice());
        // PxQ beats QxP.
        let p: Position = "4k3/8/8/3q4/4P3/8/1p6/Q3K3 w - - 0 1".parse().unwrap();
        let pxq = p.parse_uci("e4d5").unwrap();
        let qxp = p.parse_uci("a1b2").unwrap();
        assert!(p.move_hint(pxq).tactical() > p.move_hint(qxp).tactical());
        assert_eq!(
            p.move_hint(p.parse_uci("e1f2").unwrap()),
            gametree_game::MoveHint::Quiet(0)
        );
    }
}
