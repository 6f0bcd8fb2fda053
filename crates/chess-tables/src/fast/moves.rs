//! [`IndexMoves`] of [`FastEndgame`]: moves and un-moves numbered from
//! the index.

use gametree_game::{Counted, Game, IndexMoves, IndexSpace, Outcome};

use super::count::Shared;
use super::{FastEndgame, Gathered, king_pair, on_long_diagonal};
use crate::Placement;
use crate::symmetry::{KING_PLACEMENTS, kings_in_place};

impl IndexMoves for FastEndgame {
    /// Decodes the index once, generates the legal moves on the placement
    /// and numbers each non-capture from the parent's index: a non-king
    /// piece that is not one of identical pieces changes one coordinate
    /// (`index ± side weight + (to − from) × 64^k`); king moves, identical
    /// pieces and kings both on the long diagonal go through the canonical
    /// index. Captures leave the space and are reported as placements.
    fn successor_indices(
        &self,
        index: u64,
        mut inside: impl FnMut(u64),
        mut exit: impl FnMut(&Placement),
    ) -> Option<Option<Outcome>> {
        let p = self.position(index)?;
        if p.insufficient_material() {
            return Some(p.outcome());
        }
        let us = p.side as usize;
        let base = self.other_side(index, us);
        let diagonal = on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]);
        let enemy = p.by_color[us ^ 1];
        let mut g = Gathered::new();
        let mut any = false;
        p.for_each_legal(|m| {
            any = true;
            if enemy & (1u64 << m.to) != 0
                || !self.file(
                    &mut g,
                    &p,
                    base,
                    us ^ 1,
                    diagonal,
                    (m.slot as usize, m.from, m.to),
                )
            {
                let mut child = p;
                child.make(m);
                exit(&child);
            }
            true
        });
        if !any {
            return Some(Some(if p.king_attacked(us) {
                Outcome::Loss
            } else {
                Outcome::Draw
            }));
        }
        let shift = 6 * self.pieces.len() as u32;
        g.report(base >> shift, shift, &mut inside);
        Some(None)
    }

    /// Counts what [`successor_indices`](Self::successor_indices) would
    /// list without numbering the moves of non-king pieces that are not one
    /// of identical pieces (distinct placements under the same symmetry, so
    /// distinct indices); only king moves, and every move when both kings
    /// stand on the long diagonal, are numbered to find coincidences.
    fn successor_count(
        &self,
        index: u64,
        exit: impl FnMut(&Placement),
    ) -> Option<(Option<Outcome>, usize)> {
        // `position`, the pieces of both sides gathered in one pass.
        let p = self.decode(index)?;
        let us = p.side as usize;
        let [white, black] = p.both_attackers();
        let (ours, theirs) = if us == 0 {
            (white, black)
        } else {
            (black, white)
        };
        if ours.hit(p.square[us ^ 1] as usize, p.occupied())
            || !self.canonical_reflection(&p, index)
        {
            return None;
        }
        let diagonal = on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]);
        self.count_valid(
            &p,
            index,
            diagonal,
            || p.move_context_from(theirs),
            &Shared::NONE,
            exit,
        )
    }

    /// Decodes the pieces shared by each run of 64 indices (all but the
    /// last non-king piece, whose square is the index's low 6 bits) once,
    /// finds with bitboards over that square where the side not to move is
    /// in check, and counts the moves of each valid index as
    /// [`successor_count`](Self::successor_count) does from there.
    fn successor_counts(
        &self,
        indices: core::ops::Range<u64>,
        mut report: impl FnMut(u64, Counted<'_, Placement>),
    ) {
        let mut i = indices.start;
        while i < indices.end {
            let first = i & !63;
            let stop = (first + 64).min(indices.end);
            if self.pieces.is_empty() || i != first || stop != first + 64 {
                for j in i..stop {
                    let counted = self.successor_count(j, |child| report(j, Counted::Exit(child)));
                    report(j, Counted::Done(counted));
                }
            } else {
                self.count_run(first, &mut report);
            }
            i = stop;
        }
    }
    /// The un-moves of [`Predecessors::predecessors`](gametree_game::Predecessors::predecessors), numbered from the
    /// index as [`successor_indices`](Self::successor_indices) numbers moves.
    fn predecessor_indices(&self, index: u64, found: impl FnMut(u64)) {
        // The index is valid: the checks of `position` are not repeated.
        let Some(p) = self.decode(index) else {
            return;
        };
        let side = p.side as usize;
        let mover = side ^ 1;
        let base = self.other_side(index, side);
        let diagonal = on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]);
        let occ = p.occupied();
        let all = p.attackers(mover);
        let target = p.square[side] as usize;
        let n = self.pieces.len();
        let shift = 6 * n as u32;
        let upper = base >> shift;
        let mut g = Gathered::new();
        // Nothing is captured: the mover's slots are known.
        let mut slots = self.slots[mover];
        while slots != 0 {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            let piece = p.piece[slot] as usize;
            let to = p.square[slot] as usize;
            let others = all.without(to);
            let lifted = occ & !(1u64 << to);
            // The side to move now must not be in check in the predecessor,
            // where it was not to move: not from this piece on its origin
            // (the squares it would attack the king from), nor from the
            // others, which can only do so through the square it left (and
            // then only unless the origin blocks the line).
            let checks = Placement::reach(piece, target, lifted);
            let discovered = others.hit(target, lifted);
            let mut origins = Placement::reach(piece, to, occ) & !occ & !checks;
            if slot >= 2 && !diagonal && self.plain[slot - 2] {
                // Only this piece's coordinate changes.
                let shift = self.shift[slot - 2];
                let rest = base - ((to as u64) << shift);
                while origins != 0 {
                    let from = origins.trailing_zeros() as usize;
                    origins &= origins - 1;
                    if discovered && others.hit(target, lifted | (1u64 << from)) {
                        continue;
                    }
                    g.same.push(rest + ((from as u64) << shift));
                }
                continue;
            }
            // King un-moves are distinct from each other unless the other
            // king stands on a long diagonal (see `successor_count`), and
            // from the un-moves of other pieces unless they keep the king
            // placement.
            let distinct = slot < 2 && !diagonal;
            // The other king (for a king un-move) and the squares of the
            // other pieces, which stay in place when the new king pair needs
            // no symmetry.
            let still = p.square[slot ^ 1] as usize;
            let low = index & ((1u64 << shift) - 1);
            let side_base = (mover * KING_PLACEMENTS) as u64;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                if discovered && others.hit(target, lifted | (1u64 << from)) {
                    continue;
                }
                let in_place = if slot < 2 {
                    let (wk, bk) = king_pair(slot, from, still);
                    kings_in_place(wk, bk)
                } else {
                    None
                };
                let j = if let Some(kings) = in_place {
                    ((side_base + kings as u64) << shift) | low
                } else {
                    let mut sq = p.square;
                    sq[slot] = from as u8;
                    let Some(j) =
                        self.inner
                            .canonical(mover, sq[0] as usize, sq[1] as usize, &sq[2..2 + n])
                    else {
                        continue;
                    };
                    j
                };
                if (slot >= 2 && !diagonal) || (distinct && j >> shift != upper) {
                    g.same.push(j);
                } else {
                    g.other.push(j);
                }
            }
        }
        g.report(upper, shift, found);
    }

    /// The un-moves of [`predecessor_indices`](Self::predecessor_indices)
    /// for the members of a block of 64 indices, which differ only in the
    /// square of the last non-king piece (`X`, the index's lowest six
    /// bits): the side to move, the kings and the other pieces are decoded
    /// once. For an un-move of another piece (the kings included) from
    /// `to` to `from`, the members from which it is legal are found as a
    /// bit set over `X`'s square: `X` may not stand on `from`, nor between
    /// `to` and `from` for a slider, and the side to move must not be in
    /// check in the predecessor — from the piece on `from` unless `X`
    /// blocks the line, from another slider of the mover unless `from` or
    /// `X` blocks it, from `X` itself if it is the mover's. When the result
    /// keeps `X`'s coordinate (no symmetry re-applied, `X` not sorted among
    /// identical pieces), the predecessor of member `first + k` is one
    /// fixed index plus `k`. `X`'s own un-moves are generated member by
    /// member, with what does not depend on its square worked out once.
    ///
    /// Falls back to [`predecessor_indices`](Self::predecessor_indices)
    /// member by member for a block with a single member (the shared work
    /// would not pay), when both kings stand on a1–h8 (results may
    /// coincide through the second reflection), and for the members where
    /// an un-move of the mover's king lands on the parent's king placement
    /// through a reflection that moves exactly one of their other pieces
    /// (the result may then be that piece's un-move too). Else every result
    /// is distinct, as `predecessor_indices` argues, and is reported as
    /// found.
    fn predecessor_block(&self, first: u64, members: u64, found: impl FnMut(u64, u64)) {
        self.block_predecessors(first, members, |_| u64::MAX, found);
    }

    fn predecessor_block_filtered(
        &self,
        first: u64,
        members: u64,
        wanted: impl Fn(u64) -> u64,
        found: impl FnMut(u64, u64),
    ) {
        self.block_predecessors(first, members, wanted, found);
    }
}
