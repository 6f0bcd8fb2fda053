//! [`FastEndgame`]'s first pass over a run of 64 indices at once
//! ([`IndexMoves::successor_counts`]): the pieces they share decoded once,
//! the check test done with bitboards over the last piece's square.

use arrayvec::ArrayVec;
use gametree_game::{Counted, Game, IndexMoves, Outcome};
use gametree_games_chess::attacks::{KING, KNIGHT, tables};

use super::{FastEndgame, is_slider, king_pair, on_a_long_diagonal, on_long_diagonal};
use crate::legal::MoveContext;
use crate::symmetry::{KING_PLACEMENTS, canonical_kings};
use crate::{MAX_PIECES, Placement, PlacementMove};

/// What the positions of a run of 64 indices (the last piece on each
/// square) share of the targets of the side to move's other non-king
/// pieces ([`FastEndgame`]'s first pass).
#[derive(Clone, Copy)]
pub(super) struct Shared {
    /// The slots described.
    slots: u8,
    /// The last piece's square, as a bitboard.
    last: u64,
    /// Per slot: the squares the piece reaches without the last piece.
    reach: [u64; MAX_PIECES],
    /// Per slot: the squares where the last piece changes that reach (a
    /// slider's lines; none for a knight).
    lines: [u64; MAX_PIECES],
    /// Per slot: the line through the piece and its king.
    line: [u64; MAX_PIECES],
    /// Per slot: pinned without the last piece, which changes that only
    /// from a square of `line`.
    pinned: [bool; MAX_PIECES],
}

impl Shared {
    /// Nothing shared.
    pub(super) const NONE: Shared = Shared {
        slots: 0,
        last: 0,
        reach: [0; MAX_PIECES],
        lines: [0; MAX_PIECES],
        line: [0; MAX_PIECES],
        pinned: [false; MAX_PIECES],
    };

    /// [`Placement::legal_targets`] of `slot` (one of `slots`) in `p`, the
    /// run's position with the last piece on `last`.
    #[inline(always)]
    pub(super) fn legal(&self, p: &Placement, c: &MoveContext, slot: usize) -> u64 {
        let from = p.square[slot] as usize;
        let reach = if self.lines[slot] & self.last != 0 {
            Placement::reach(p.piece[slot] as usize, from, c.occ)
        } else {
            self.reach[slot]
        };
        let line = self.line[slot];
        let pinned = if line & self.last != 0 {
            Placement::pinned(c, from, line)
        } else {
            self.pinned[slot]
        };
        Placement::restrict(c, reach & !p.by_color[c.us], line, pinned)
    }
}

impl FastEndgame {
    /// [`successor_counts`](IndexMoves::successor_counts) of the 64 indices
    /// from `first` (a multiple of 64 below the size; at least one non-king
    /// piece).
    #[inline]
    pub(super) fn count_run(
        &self,
        first: u64,
        report: &mut impl FnMut(u64, Counted<'_, Placement>),
    ) {
        let n = self.pieces.len();
        // The last piece's slot; its square is the index's low 6 bits.
        let last = 1 + n;
        let Some(mut p) = self.decode_pieces(first, n - 1) else {
            for i in first..first + 64 {
                report(i, Counted::Done(None));
            }
            return;
        };
        let us = p.side as usize;
        let piece = p.piece[last] as usize;
        let color = piece / 6;
        p.alive &= !(1 << last);
        let both = p.both_attackers();
        p.alive |= 1 << last;
        let occ = p.occupied();
        // The squares the last piece may stand on: empty, and after the
        // identical piece before it.
        let mut valid = !occ;
        if self.after_same[n - 1] {
            valid &= u64::MAX << p.square[last - 1];
        }
        // The side not to move is not in check: no leaper of ours attacks
        // its king, the last piece blocks the line of every slider of ours
        // that does, and does not attack it itself.
        let their_king = p.square[us ^ 1] as usize;
        let ours = both[us];
        if (KING[their_king] & ours.king) | (KNIGHT[their_king] & ours.leap) != 0 {
            valid = 0;
        }
        let mut sliders = ours.sliders_at(their_king, occ);
        while sliders != 0 {
            valid &= tables().between(their_king, sliders.trailing_zeros() as usize);
            sliders &= sliders - 1;
        }
        if color == us {
            valid &= !Placement::reach(piece, their_king, occ);
        }
        // What the side to move's moves depend on, for the shared pieces:
        // `MoveContext` with the last piece added below.
        let t = tables();
        let king = p.square[us] as usize;
        let theirs = both[us ^ 1];
        let lifted = occ & !(1u64 << king);
        let leapers = (KNIGHT[king] & theirs.leap) | (KING[king] & theirs.king);
        let slider_checkers = theirs.sliders_at(king, occ);
        let danger = theirs.attacks(lifted);
        // Only the squares next to our king matter of `danger` (it bars our
        // king's moves): the last piece changes those by blocking a slider's
        // line to one of them, from a square between the two.
        let mut blocking = 0;
        let mut near = KING[king];
        while near != 0 {
            let to = near.trailing_zeros() as usize;
            near &= near - 1;
            let mut sliders = theirs.sliders_at(to, lifted);
            while sliders != 0 {
                blocking |= t.between(to, sliders.trailing_zeros() as usize);
                sliders &= sliders - 1;
            }
        }
        // Where the last piece, if theirs, checks our king.
        let checks = if color == us {
            0
        } else {
            Placement::reach(piece, king, occ)
        };
        // The targets of our other non-king pieces without the last piece.
        let mut shared = Shared::NONE;
        if n >= 2 {
            let checkers = leapers | slider_checkers;
            let c = MoveContext {
                us,
                occ,
                king,
                in_check: checkers != 0,
                evasions: 0,
                checkers,
                sliders: theirs.diagonal | theirs.straight,
                danger: 0,
                enemy: theirs,
            };
            let mut mine = self.slots[us] & !(1 << us) & !(1 << last);
            while mine != 0 {
                let slot = mine.trailing_zeros() as usize;
                mine &= mine - 1;
                let (piece, from) = (p.piece[slot] as usize, p.square[slot] as usize);
                let reach = Placement::reach(piece, from, occ);
                let line = t.line(king, from);
                shared.slots |= 1 << slot;
                shared.reach[slot] = reach;
                shared.lines[slot] = if is_slider(piece) { reach } else { 0 };
                shared.line[slot] = line;
                shared.pinned[slot] = Placement::pinned(&c, from, line);
            }
        }
        let diagonal = on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]);
        for sq in 0..64u8 {
            let i = first + u64::from(sq);
            let b = 1u64 << sq;
            shared.last = b;
            if valid & b == 0 {
                report(i, Counted::Done(None));
                continue;
            }
            let mut q = p;
            q.square[last] = sq;
            q.by_color[color] |= b;
            if diagonal && !self.canonical_reflection(&q, i) {
                report(i, Counted::Done(None));
                continue;
            }
            let context = || {
                let mut enemy = theirs;
                let mut checkers = leapers | (checks & b);
                // A slider's check stands unless the last piece blocks it.
                let mut s = slider_checkers;
                while s != 0 {
                    let from = s.trailing_zeros() as usize;
                    s &= s - 1;
                    if t.between(king, from) & b == 0 {
                        checkers |= 1u64 << from;
                    }
                }
                let mut danger = if blocking & b == 0 {
                    danger
                } else {
                    theirs.attacks(lifted | b)
                };
                if color != us {
                    enemy.add(piece, usize::from(sq));
                    danger |= Placement::reach(piece, usize::from(sq), lifted | b);
                }
                MoveContext {
                    us,
                    occ: occ | b,
                    king,
                    in_check: checkers != 0,
                    evasions: MoveContext::evasions(king, checkers),
                    checkers,
                    sliders: enemy.diagonal | enemy.straight,
                    danger,
                    enemy,
                }
            };
            let counted = self.count_valid(&q, i, diagonal, context, &shared, |child| {
                report(i, Counted::Exit(child))
            });
            report(i, Counted::Done(counted));
        }
    }

    /// [`successor_count`](IndexMoves::successor_count) of the valid,
    /// canonical index `index`, decoded as `p`; `diagonal`: both kings on
    /// the long diagonal a1–h8;
    /// `context` computes the [`MoveContext`] of `p` (when needed);
    /// `shared` holds what the run of `p` shares of its pieces' targets.
    #[inline(always)]
    pub(super) fn count_valid(
        &self,
        p: &Placement,
        index: u64,
        diagonal: bool,
        context: impl FnOnce() -> MoveContext,
        shared: &Shared,
        mut exit: impl FnMut(&Placement),
    ) -> Option<(Option<Outcome>, usize)> {
        let us = p.side as usize;
        if self.may_lack_material && p.insufficient_material() {
            return Some((p.outcome(), 0));
        }
        let base = self.other_side(index, us);
        let enemy = p.by_color[us ^ 1];
        let n = self.pieces.len();
        let shift = 6 * n as u32;
        let upper = base >> shift;
        let c = context();
        let mut same = 0usize;
        let mut other: ArrayVec<u64, 256> = ArrayVec::new();
        // A numbered result with the parent's king placement may coincide
        // with an unnumbered one.
        let mut clash = false;
        let mut any = false;
        // Nothing is captured: the side to move's slots are known.
        let mut alive = self.slots[us];
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            let legal = if slot == us {
                // The king may not go where the enemy attacks.
                KING[p.square[us] as usize] & !p.by_color[us] & !c.danger
            } else if shared.slots & (1 << slot) != 0 {
                shared.legal(p, &c, slot)
            } else {
                p.legal_targets(&c, slot)
            };
            if legal == 0 {
                continue;
            }
            any = true;
            let from = p.square[slot];
            let mut captures = legal & enemy;
            while captures != 0 {
                let to = captures.trailing_zeros() as u8;
                captures &= captures - 1;
                let mut child = *p;
                child.make(PlacementMove {
                    slot: slot as u8,
                    from,
                    to,
                });
                exit(&child);
            }
            let mut quiet = legal & !enemy;
            if slot >= 2 && !diagonal {
                // The same symmetry (none): distinct placements, distinct
                // indices.
                same += quiet.count_ones() as usize;
                continue;
            }
            let still = p.square[slot ^ 1];
            if !diagonal {
                // A king move. Two of them lead to one index only through a
                // symmetry other than the identity that keeps the other king
                // in place, a reflection in a long diagonal through `still`,
                // mapping one target onto the other; both targets touch the
                // king's square, which must then lie on that diagonal too
                // (two squares that mirror each other in a diagonal and both
                // touch a square off it do not exist). Both kings on a8–h1
                // is never canonical (the White king stays in a1–d1–d4), and
                // both on a1–h8 is `diagonal`: so these results are distinct,
                // and distinct from the others unless they keep the parent's
                // king placement, which too takes a symmetry keeping `still`
                // in place: none when it stands on neither long diagonal. (A
                // legal king move never makes the kings adjacent, so each has
                // an index.)
                if !on_a_long_diagonal(still) {
                    same += quiet.count_ones() as usize;
                    continue;
                }
                let parent = (upper % KING_PLACEMENTS as u64) as usize;
                while quiet != 0 {
                    let to = quiet.trailing_zeros() as usize;
                    quiet &= quiet - 1;
                    let (wk, bk) = king_pair(slot, to, still as usize);
                    match canonical_kings(wk, bk) {
                        Some(kings) => {
                            same += 1;
                            clash |= kings == parent;
                        }
                        None => {
                            let mut child = *p;
                            child.make(PlacementMove {
                                slot: slot as u8,
                                from,
                                to: to as u8,
                            });
                            exit(&child);
                        }
                    }
                }
                continue;
            }
            while quiet != 0 {
                let to = quiet.trailing_zeros() as u8;
                quiet &= quiet - 1;
                let mut sq = p.square;
                sq[slot] = to;
                match self
                    .inner
                    .canonical(us ^ 1, sq[0] as usize, sq[1] as usize, &sq[2..2 + n])
                {
                    Some(j) => {
                        if !other.contains(&j) {
                            clash |= j >> shift == upper && !diagonal;
                            other.push(j);
                        }
                    }
                    None => {
                        let mut child = *p;
                        child.make(PlacementMove {
                            slot: slot as u8,
                            from,
                            to,
                        });
                        exit(&child);
                    }
                }
            }
        }
        if !any {
            let outcome = if c.in_check {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
            return Some((Some(outcome), 0));
        }
        if !clash {
            return Some((None, same + other.len()));
        }
        let mut count = 0;
        self.successor_indices(index, |_| count += 1, |_| {});
        Some((None, count))
    }
}
