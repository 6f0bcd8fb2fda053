//! [`IndexMoves`] of [`PawnEndgame`]: moves and un-moves computed on the
//! decoded index ([`Board`]), the results numbered from their squares;
//! captures and promotions, which leave the ending, reported as
//! positions.

use arrayvec::ArrayVec;
use gametree_game::{IndexMoves, Outcome};
use gametree_games_chess::Position;
use gametree_games_chess::attacks::{KING, KNIGHT};

use super::board::{Board, Kind, pawn_attacks};
use super::{PawnEndgame, pawn_origins};
use crate::{PAWN_R, Placement};

/// Successor or predecessor indices of one position, made distinct.
type Found = ArrayVec<u64, 256>;

impl IndexMoves for PawnEndgame {
    /// Decodes the index into squares, generates the legal moves there and
    /// numbers each move that stays in the ending from the squares after
    /// it (the reflection and the order of like pieces re-applied; a double
    /// step into an en-passant region when the capture is legal).
    /// Captures and promotions (to each piece) leave the ending and are
    /// reported as positions.
    fn successor_indices(
        &self,
        index: u64,
        mut inside: impl FnMut(u64),
        mut exit: impl FnMut(&Position),
    ) -> Option<Option<Outcome>> {
        let (b, both) = self.valid_board(index)?;
        let mut found = Found::new();
        let (any, in_check) = self.for_each_legal(&b, both[b.side ^ 1], |slot, from, to, kind| {
            if kind == Kind::Exit {
                self.exits(&b, (slot, from, to), &mut exit);
            } else if let Some(j) = self.child_index(&b, index, (slot, to), kind == Kind::Double)
                && !found.contains(&j)
            {
                found.push(j);
            }
        });
        if !any {
            return Some(Some(if in_check {
                Outcome::Loss
            } else {
                Outcome::Draw
            }));
        }
        for j in found {
            inside(j);
        }
        Some(None)
    }

    /// With one leading pawn, the moves that stay in the ending lead to
    /// distinct indices without a reflection (the leading pawn keeps its
    /// file, and two moves never give one position): they are counted,
    /// not numbered. With like leading pawns, through
    /// [`successor_indices`](Self::successor_indices).
    fn successor_count(
        &self,
        index: u64,
        mut exit: impl FnMut(&Position),
    ) -> Option<(Option<Outcome>, usize)> {
        if self.lead_run > 1 {
            let mut count = 0;
            let outcome = self.successor_indices(index, |_| count += 1, exit)?;
            return Some((outcome, count));
        }
        let (b, both) = self.valid_board(index)?;
        let mut count = 0;
        let (any, in_check) = self.for_each_legal(&b, both[b.side ^ 1], |slot, from, to, kind| {
            if kind == Kind::Exit {
                self.exits(&b, (slot, from, to), &mut exit);
            } else {
                count += 1;
            }
        });
        if !any {
            let outcome = if in_check {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
            return Some((Some(outcome), 0));
        }
        Some((None, count))
    }

    /// The un-moves of [`Predecessors::predecessors`](gametree_game::Predecessors::predecessors):
    /// every piece of the side that just moved back to each empty square it
    /// came from (pawns one or two squares, a double step only when it
    /// gives no legal en-passant capture, and in an en-passant region only
    /// that pawn's double step), each predecessor with and without the
    /// en-passant captures its side to move may have had; numbered from
    /// the squares.
    fn predecessor_indices(&self, index: u64, mut found: impl FnMut(u64)) {
        let Some(b) = self.decode(index) else {
            return;
        };
        let turn = b.side;
        let mover = turn ^ 1;
        let occ = b.occupied();
        let mut all = Found::new();
        let distinct = self.lead_run == 1;
        let mut report = |j: u64| {
            if distinct {
                found(j);
            } else if !all.contains(&j) {
                all.push(j);
            }
        };
        let movers = self.both_attackers(&b)[mover];
        let target = usize::from(b.sq[turn]);
        // The squares from which a pawn of the mover attacks the king.
        let pawn_checks = pawn_attacks(turn, 1u64 << target);
        for slot in 0..self.slots() {
            let p = self.slot_piece(slot);
            if p / 6 != mover {
                continue;
            }
            let to = usize::from(b.sq[slot]);
            if b.ep.is_some_and(|e| usize::from(e) != to) {
                continue;
            }
            let pawn = p % 6 == PAWN_R;
            // The mover's other pieces must not attack the king in the
            // predecessor: leapers and pawns never, sliders unless the
            // origin blocks them; this one not from its origin.
            let (others, other_pawns) = if pawn {
                (movers, b.pawns[mover] & !(1u64 << to))
            } else {
                (movers.without(to), b.pawns[mover])
            };
            if other_pawns & pawn_checks != 0
                || (KING[target] & others.king) | (KNIGHT[target] & others.leap) != 0
            {
                continue;
            }
            let lifted = occ & !(1u64 << to);
            let discovered = others.sliders_at(target, lifted) != 0;
            let (reach, checks) = if pawn {
                (pawn_origins(mover, to, occ, b.ep.is_some()), pawn_checks)
            } else {
                (
                    Placement::reach(p, to, occ),
                    Placement::reach(p, target, lifted),
                )
            };
            let mut origins = reach & !occ & !checks;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                if discovered && others.sliders_at(target, lifted | (1u64 << from)) != 0 {
                    continue;
                }
                // A double step leads here only when it gives no legal
                // en-passant capture (else to the region with one), or
                // when this position has one.
                let double = pawn && from.abs_diff(to) == 16;
                if double && b.ep.is_none() && self.can_take_en_passant(&b, to) {
                    continue;
                }
                let mut q = b;
                q.sq[slot] = from as u8;
                q.side = mover;
                q.ep = None;
                let moved = (1u64 << from) | (1u64 << to);
                q.by_color[mover] ^= moved;
                if pawn {
                    q.pawns[mover] ^= moved;
                }
                let plain = if b.ep.is_none() {
                    self.moved_index(index, turn, slot, to, from)
                } else {
                    None
                };
                self.report_board_with_ep(&q, plain, &mut report);
            }
        }
        for j in all {
            found(j);
        }
    }
}

impl PawnEndgame {
    /// Reports the index of `q` (no en-passant capture), and of `q` with
    /// each en-passant capture its side to move may legally make (a pawn
    /// of the other side that may just have moved two squares); `plain`,
    /// when known, is the first.
    #[inline]
    fn report_board_with_ep(&self, q: &Board, plain: Option<u64>, report: &mut impl FnMut(u64)) {
        if let Some(j) = plain.or_else(|| self.encode_squares(q.side, &q.sq, None)) {
            report(j);
        }
        let them = q.side ^ 1;
        let rank = PawnEndgame::ep_rank_of(them);
        let occ = q.occupied();
        let mut pawns = q.pawns[them] & (0xFFu64 << (8 * rank));
        while pawns != 0 {
            let e = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            let (over, origin) = if them == 0 {
                (e - 8, e - 16)
            } else {
                (e + 8, e + 16)
            };
            if occ & ((1u64 << over) | (1u64 << origin)) != 0 || !self.can_take_en_passant(q, e) {
                continue;
            }
            if let Some(j) = self.encode_squares(q.side, &q.sq, Some(e as u8)) {
                report(j);
            }
        }
    }
}
