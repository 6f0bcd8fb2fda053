//! Legal move generation: checks, pins, double check, castling through
//! attacked squares, en passant (with the rank discovered-check case) and
//! promotions. Moves are produced as sets (origin, target bitboard) into a
//! [`Sink`] that either lists them or only counts them (bulk perft).

use arrayvec::ArrayVec;

use crate::attacks::{Bitboard, KING, KNIGHT, PAWN, tables};
use crate::mv::Move;
use crate::position::{
    BISHOP_R, BK, BQ, KING_R, KNIGHT_R, NO_EP, PAWN_R, Position, QUEEN_R, ROOK_R, WK, WQ,
};

const RANK_1: Bitboard = 0xFF;
const RANK_8: Bitboard = 0xFF << 56;
const FILE_A: Bitboard = 0x0101_0101_0101_0101;
const FILE_H: Bitboard = FILE_A << 7;

/// Receives generated moves.
pub(crate) trait Sink {
    /// Non-promoting moves from `from` to every square of `targets`.
    fn moves(&mut self, from: usize, targets: Bitboard);
    /// Promotions (four each) from `from` to every square of `targets`.
    fn promos(&mut self, from: usize, targets: Bitboard);
    /// Pawn moves to every square of `targets`, from `to - delta`.
    fn pawn_set(&mut self, targets: Bitboard, delta: i32);
    /// Promotions (four each) to every square of `targets`, from `to - delta`.
    fn pawn_promos(&mut self, targets: Bitboard, delta: i32);
    /// A single move.
    fn one(&mut self, m: Move);

    /// Does this sink only ask whether there is a legal move? Then
    /// generation stops at the first stage that reports one (constant, so
    /// the checks compile away for the other sinks).
    #[inline(always)]
    fn first_only(&self) -> bool {
        false
    }

    /// With [`first_only`](Self::first_only): has a move been reported?
    #[inline(always)]
    fn has_any(&self) -> bool {
        false
    }
}

/// Records whether any move is reported, for [`Position::has_legal_move`].
pub(crate) struct AnySink(pub(crate) bool);

impl Sink for AnySink {
    #[inline(always)]
    fn first_only(&self) -> bool {
        true
    }

    #[inline(always)]
    fn moves(&mut self, _: usize, targets: Bitboard) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn promos(&mut self, _: usize, targets: Bitboard) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, _: i32) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn pawn_promos(&mut self, targets: Bitboard, _: i32) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn has_any(&self) -> bool {
        self.0
    }
}

/// Counts moves without listing them.
pub(crate) struct CountSink(pub(crate) u64);

impl Sink for CountSink {
    #[inline(always)]
    fn moves(&mut self, _: usize, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promos(&mut self, _: usize, targets: Bitboard) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, _: i32) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_promos(&mut self, targets: Bitboard, _: i32) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Appends moves to a list.
pub(crate) struct ListSink<'a>(pub(crate) &'a mut ArrayVec<Move, 256>);

#[inline(always)]
fn push_promos(out: &mut ArrayVec<Move, 256>, from: usize, to: usize) {
    // Queen first: the usual best guess for move ordering.
    for p in [4, 1, 3, 2] {
        out.push(Move::raw(from, to, p));
    }
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn moves(&mut self, from: usize, mut targets: Bitboard) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.0.push(Move::raw(from, to, 0));
        }
    }
    #[inline(always)]
    fn promos(&mut self, from: usize, mut targets: Bitboard) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            push_promos(self.0, from, to);
        }
    }
    #[inline(always)]
    fn pawn_set(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.0.push(Move::raw((to as i32 - delta) as usize, to, 0));
        }
    }
    #[inline(always)]
    fn pawn_promos(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            push_promos(self.0, (to as i32 - delta) as usize, to);
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
}

#[inline(always)]
fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        bb << delta
    } else {
        bb >> -delta
    }
}

impl Position {
    /// Is `sq` attacked by colour `by` with occupancy `occ`?
    #[inline(always)]
    pub(crate) fn attacked_by(&self, by: usize, sq: usize, occ: Bitboard) -> bool {
        let t = tables();
        let them = self.by_color[by];
        let r = &self.by_role;
        (KNIGHT[sq] & r[KNIGHT_R] & them != 0)
            || (PAWN[by ^ 1][sq] & r[PAWN_R] & them != 0)
            || (KING[sq] & r[KING_R] & them != 0)
            || (t.bishop(sq, occ) & (r[BISHOP_R] | r[QUEEN_R]) & them != 0)
            || (t.rook(sq, occ) & (r[ROOK_R] | r[QUEEN_R]) & them != 0)
    }

    /// Generates the legal moves into `sink`; with `TACTICAL`, only captures
    /// (en passant included) and promotions.
    #[inline(always)]
    pub(crate) fn generate_into<const TACTICAL: bool>(&self, sink: &mut impl Sink) {
        let t = tables();
        let us = self.side.index();
        let them = us ^ 1;
        let own = self.by_color[us];
        let opp = self.by_color[them];
        let occ = own | opp;
        let r = &self.by_role;
        let ksq = self.king_sq(us);
        let kbit = 1u64 << ksq;
        // Checkers and pinned pieces in one pass over the enemy sliders that
        // see the king through our own pieces: none between = check, one of
        // ours between = pin.
        let mut checkers = ((KNIGHT[ksq] & r[KNIGHT_R]) | (PAWN[us][ksq] & r[PAWN_R])) & opp;
        let mut pinned = 0;
        let mut snipers = ((t.rook(ksq, opp) & (r[ROOK_R] | r[QUEEN_R]))
            | (t.bishop(ksq, opp) & (r[BISHOP_R] | r[QUEEN_R])))
            & opp;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let b = t.between(ksq, s) & occ;
            if b == 0 {
                checkers |= 1u64 << s;
            } else if b & (b - 1) == 0 {
                pinned |= b & own;
            }
        }
        let target_mask = if TACTICAL { opp } else { !own };

        // King moves: the king may not stay on a line it is checked along,
        // so test each destination with the king removed.
        let mut kt = KING[ksq] & target_mask;
        let occ_no_king = occ ^ kbit;
        let mut king_ok = 0;
        while kt != 0 {
            let to = kt.trailing_zeros() as usize;
            kt &= kt - 1;
            if !self.attacked_by(them, to, occ_no_king) {
                king_ok |= 1u64 << to;
                if sink.first_only() {
                    break;
                }
            }
        }
        sink.moves(ksq, king_ok);
        if sink.first_only() && sink.has_any() {
            return;
        }
        if checkers & (checkers.wrapping_sub(1)) != 0 {
            return; // double check: only the king moves
        }
        let check_mask = if checkers != 0 {
            t.between(ksq, checkers.trailing_zeros() as usize) | checkers
        } else {
            !0
        };

        let mask = target_mask & check_mask;
        let mut knights = r[KNIGHT_R] & own & !pinned;
        while knights != 0 {
            let from = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            sink.moves(from, KNIGHT[from] & mask);
        }
        if sink.first_only() && sink.has_any() {
            return;
        }
        let mut diag = (r[BISHOP_R] | r[QUEEN_R]) & own;
        while diag != 0 {
            let from = diag.trailing_zeros() as usize;
            diag &= diag - 1;
            let mut a = t.bishop(from, occ) & mask;
            if pinned & (1u64 << from) != 0 {
                a &= t.line(ksq, from);
            }
            sink.moves(from, a);
        }
        if sink.first_only() && sink.has_any() {
            return;
        }
        let mut orth = (r[ROOK_R] | r[QUEEN_R]) & own;
        while orth != 0 {
            let from = orth.trailing_zeros() as usize;
            orth &= orth - 1;
            let mut a = t.rook(from, occ) & mask;
            if pinned & (1u64 << from) != 0 {
                a &= t.line(ksq, from);
            }
            sink.moves(from, a);
        }

        if sink.first_only() && sink.has_any() {
            return;
        }

        // Pawns.
        let pawns = r[PAWN_R] & own;
        let empty = !occ;
        let (up, last, third, left_edge, right_edge) = if us == 0 {
            (8i32, RANK_8, RANK_1 << 16, FILE_A, FILE_H)
        } else {
            (-8i32, RANK_1, RANK_8 >> 16, FILE_A, FILE_H)
        };
        let free = pawns & !pinned;
        let single = shift(free, up) & empty;
        let push_promos = single & last & check_mask;
        sink.pawn_promos(push_promos, up);
        if !TACTICAL {
            sink.pawn_set(single & !last & check_mask, up);
            let double = shift(single & third, up) & empty & check_mask;
            sink.pawn_set(double, 2 * up);
        }
        let cap_targets = opp & check_mask;
        // Capture towards the a-file (delta up - 1) and towards the h-file (up + 1).
        let cl = shift(free & !left_edge, up - 1) & cap_targets;
        let cr = shift(free & !right_edge, up + 1) & cap_targets;
        sink.pawn_promos(cl & last, up - 1);
        sink.pawn_promos(cr & last, up + 1);
        sink.pawn_set(cl & !last, up - 1);
        sink.pawn_set(cr & !last, up + 1);
        if sink.first_only() && sink.has_any() {
            return;
        }
        let mut pinned_pawns = pawns & pinned;
        while pinned_pawns != 0 {
            let from = pinned_pawns.trailing_zeros() as usize;
            pinned_pawns &= pinned_pawns - 1;
            let line = t.line(ksq, from);
            let fbit = 1u64 << from;
            let one = shift(fbit, up) & empty;
            let mut tg = one;
            if !TACTICAL {
                tg |= shift(one & third, up) & empty;
            }
            tg |= PAWN[us][from] & opp;
            tg &= line & check_mask;
            if TACTICAL {
                tg &= opp | last;
            }
            sink.promos(from, tg & last);
            sink.moves(from, tg & !last);
        }
        if sink.first_only() && sink.has_any() {
            return;
        }

        // En passant: test the position after the capture directly, which
        // also covers the king and both pawns on one rank with a rook.
        if self.ep != NO_EP {
            let ep = self.ep as usize;
            let cap = ep ^ 8;
            let mut cands = PAWN[them][ep] & pawns;
            while cands != 0 {
                let from = cands.trailing_zeros() as usize;
                cands &= cands - 1;
                let occ2 = (occ ^ (1u64 << from) ^ (1u64 << cap)) | (1u64 << ep);
                let attackers = self.attackers_to(ksq, occ2) & opp & !(1u64 << cap);
                if attackers == 0 {
                    sink.one(Move::raw(from, ep, 0));
                }
            }
        }

        // Castling: not out of, through or into check; the squares between
        // king and rook empty.
        if !TACTICAL && checkers == 0 {
            let (ks, qs) = if us == 0 { (WK, WQ) } else { (BK, BQ) };
            let base = if us == 0 { 0 } else { 56 };
            if self.castling & ks != 0
                && occ & (0b0110_0000u64 << base) == 0
                && !self.attacked_by(them, base + 5, occ)
                && !self.attacked_by(them, base + 6, occ)
            {
                sink.one(Move::raw(base + 4, base + 6, 0));
            }
            if self.castling & qs != 0
                && occ & (0b0000_1110u64 << base) == 0
                && !self.attacked_by(them, base + 3, occ)
                && !self.attacked_by(them, base + 2, occ)
            {
                sink.one(Move::raw(base + 4, base + 2, 0));
            }
        }
    }

    /// The captures (en passant included) and promotions, legal only.
    #[must_use]
    pub fn tactical_moves(&self) -> ArrayVec<Move, 256> {
        let mut out = ArrayVec::new();
        self.generate_into::<true>(&mut ListSink(&mut out));
        out
    }
}
