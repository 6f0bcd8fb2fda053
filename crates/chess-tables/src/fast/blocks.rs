//! [`FastEndgame`]'s un-moves of a block of 64 indices at once
//! ([`IndexMoves::predecessor_block`]).

use arrayvec::ArrayVec;
use gametree_game::IndexMoves;
use gametree_games_chess::attacks::{KING, KNIGHT, tables};

use super::{
    BLOCK_MIN_MEMBERS, FastEndgame, is_slider, king_pair, on_a_long_diagonal, on_long_diagonal,
};
use crate::legal::Attackers;
use crate::symmetry::{KING_PLACEMENTS, canonical_kings, king_transform, kings_in_place};
use crate::{MAX_PIECES, Placement};

impl FastEndgame {
    /// [`IndexMoves::predecessor_block_filtered`]: an un-move whose
    /// predecessors share one block (all but those numbered member by
    /// member through the canonical index) reports only the members whose
    /// predecessor `wanted` has.
    #[inline(always)]
    pub(super) fn block_predecessors(
        &self,
        first: u64,
        members: u64,
        wanted: impl Fn(u64) -> u64,
        mut found: impl FnMut(u64, u64),
    ) {
        let n = self.pieces.len();
        if n == 0 || members.count_ones() < BLOCK_MIN_MEMBERS {
            return self.predecessors_one_by_one(first, members, found);
        }
        let Some(p) = self.decode(first + u64::from(members.trailing_zeros())) else {
            return self.predecessors_one_by_one(first, members, found);
        };
        let side = p.side as usize;
        let mover = side ^ 1;
        let target = p.square[side];
        if on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]) {
            return self.predecessors_one_by_one(first, members, found);
        }
        let shift = 6 * n as u32;
        let xslot = n + 1;
        // Everything but `X`.
        let fixed = p.occupied() & !(1u64 << p.square[xslot]);
        let parent_kings = ((first >> shift) % KING_PLACEMENTS as u64) as usize;
        // A king un-move keeps the king placement only through a
        // reflection in a long diagonal through the other king (see
        // `successor_count`). Its result, the member's pieces reflected, is
        // then the result of another piece's un-move only if the reflection
        // moves exactly one non-king piece: those members go member by
        // member, where such results are merged.
        let mut members = members;
        if on_a_long_diagonal(target) {
            let mut origins = KING[p.square[mover] as usize] & !fixed;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                let (wk, bk) = king_pair(mover, from, target as usize);
                if canonical_kings(wk, bk) == Some(parent_kings) {
                    let risky = match king_transform(wk, bk) {
                        Some(map) => self.reflected_one_apart(&p, map, members),
                        None => members,
                    };
                    if risky != 0 {
                        self.predecessors_one_by_one(first, risky, &mut found);
                        members &= !risky;
                        if members == 0 {
                            return;
                        }
                    }
                }
            }
        }
        let t = tables();
        let target = target as usize;
        let xpiece = p.piece[xslot] as usize;
        let x_mover = xpiece / 6 == mover;
        let x_plain = self.plain[n - 1];
        // The mover's pieces but `X`.
        let movers = self.slots[mover] & !(1 << xslot);
        let mut fixed_all = Attackers::default();
        let mut rest = movers;
        while rest != 0 {
            let slot = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            fixed_all.add(p.piece[slot] as usize, p.square[slot] as usize);
        }
        let base = self.other_side(first, side);
        let low = first & ((1u64 << shift) - 1);
        let side_base = (mover * KING_PLACEMENTS) as u64;
        // The canonical index of the un-move of `slot` to `from` with `X`
        // on `x`, for the results that re-apply a symmetry or sort `X`.
        let canonical = |slot: usize, from: usize, x: u64| {
            let mut sq = p.square;
            sq[slot] = from as u8;
            sq[xslot] = x as u8;
            self.inner
                .canonical(mover, sq[0] as usize, sq[1] as usize, &sq[2..2 + n])
        };
        let mut rest = movers;
        while rest != 0 {
            let slot = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let piece = p.piece[slot] as usize;
            let to = p.square[slot] as usize;
            let others = fixed_all.without(to);
            let lifted = fixed & !(1u64 << to);
            if (KING[target] & others.king) | (KNIGHT[target] & others.leap) != 0 {
                // A check no un-move of this piece can block.
                continue;
            }
            // The mover's other sliders that attack the king unless `from`
            // or `X` blocks them; the squares this piece would check from
            // unless `X` blocks it; those `X` checks from unless `from`
            // blocks it.
            let lines = others.sliders_at(target, lifted);
            let checks = Placement::reach(piece, target, lifted);
            let x_checks = if x_mover {
                Placement::reach(xpiece, target, lifted)
            } else {
                0
            };
            let slider = is_slider(piece);
            let mut origins = Placement::reach(piece, to, fixed) & !fixed;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                let b = 1u64 << from;
                let mut legal = members & !b;
                if slider {
                    legal &= !t.between(to, from);
                }
                if checks & b != 0 {
                    if !slider {
                        continue;
                    }
                    legal &= t.between(from, target);
                }
                let mut rest = lines;
                while rest != 0 {
                    let q = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let between = t.between(q, target);
                    if between & b == 0 {
                        legal &= between;
                    }
                }
                legal &= if x_checks & b != 0 && is_slider(xpiece) {
                    !Placement::reach(xpiece, target, lifted | b)
                } else {
                    !x_checks
                };
                if legal == 0 {
                    continue;
                }
                // The predecessor of member `first + k` is `start + k`, or
                // (`None`) goes through the canonical index; `mapped`: it is
                // `j | map[k]` (a king un-move that takes one symmetry,
                // `X` not among identical pieces, so only `X`'s coordinate
                // depends on `k`).
                let mut mapped = None;
                let start = if slot >= 2 {
                    if self.plain[slot - 2] {
                        let shift = self.shift[slot - 2];
                        Some(base - ((to as u64) << shift) + ((from as u64) << shift))
                    } else if x_plain {
                        // Identical pieces sorted, the kings in place:
                        // `X`'s coordinate is kept.
                        canonical(slot, from, 0)
                    } else {
                        None
                    }
                } else {
                    let (wk, bk) = king_pair(slot, from, target);
                    let start = kings_in_place(wk, bk)
                        .map(|kings| ((side_base + kings as u64) << shift) | low);
                    if start.is_none() && x_plain {
                        mapped = king_transform(wk, bk)
                            .and_then(|map| Some((canonical(slot, from, 0)? & !63, map)));
                    }
                    start
                };
                if let Some((j, map)) = mapped {
                    let want = wanted(j);
                    if want == 0 {
                        continue;
                    }
                    let mut rest = legal;
                    while rest != 0 {
                        let k = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if want >> map[k] & 1 != 0 {
                            found(first + k as u64, j | u64::from(map[k]));
                        }
                    }
                    continue;
                }
                if let Some(j) = start
                    && j % 64 == 0
                {
                    // The predecessors `j + k` share the block `j`.
                    legal &= wanted(j);
                }
                let mut rest = legal;
                while rest != 0 {
                    let k = u64::from(rest.trailing_zeros());
                    rest &= rest - 1;
                    match start {
                        Some(j) => found(first + k, j + k),
                        None => {
                            if let Some(j) = canonical(slot, from, k) {
                                found(first + k, j);
                            }
                        }
                    }
                }
            }
        }
        if !x_mover {
            return;
        }
        // `X`'s un-moves: the origins from which it does not check the
        // king, and that block every line of the mover's other sliders to
        // it (a check `X` discovered by leaving its origin).
        let mut ok = !fixed & !Placement::reach(xpiece, target, fixed);
        if (KING[target] & fixed_all.king) | (KNIGHT[target] & fixed_all.leap) != 0 {
            ok = 0;
        }
        let mut lines = fixed_all.sliders_at(target, fixed);
        while lines != 0 {
            let q = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            ok &= t.between(q, target);
        }
        if x_plain {
            // The predecessors `base + from` share the block `base`.
            ok &= wanted(base);
        }
        if ok == 0 {
            return;
        }
        let mut rest = members;
        while rest != 0 {
            let x = u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            let index = first + x;
            let mut origins = Placement::reach(xpiece, x as usize, fixed | (1u64 << x)) & ok;
            while origins != 0 {
                let from = u64::from(origins.trailing_zeros());
                origins &= origins - 1;
                if x_plain {
                    found(index, base + from);
                } else if let Some(j) = canonical(xslot, from as usize, from) {
                    // `X` itself on `from`, sorted among its identical
                    // pieces.
                    found(index, j);
                }
            }
        }
    }
}

impl FastEndgame {
    /// The members `k` of `members` (`X`, the last non-king piece, on
    /// square `k`; the other pieces as in `p`) whose non-king pieces differ
    /// from their image through the square map `map` (a reflection) in
    /// exactly one piece: `|P \\ map(P)| = 1` for the set `P` of their
    /// `(piece, square)` pairs.
    ///
    /// Pieces of one kind count separately: for each kind with squares
    /// `S`, `|S \\ map(S)|`. Only `X`'s kind depends on `k`: with `F` the
    /// squares of the other pieces of that kind and `A = F \\ map(F)`,
    /// adding `k` takes one from the count when `map(k)` is in `A` (then
    /// `k` is in `map(A)`), and adds one when `k` is neither in `map(F)`
    /// nor fixed by the map.
    pub(super) fn reflected_one_apart(&self, p: &Placement, map: &[u8; 64], members: u64) -> u64 {
        let n = self.pieces.len();
        let xslot = n + 1;
        let image = |set: u64| {
            let mut out = 0u64;
            let mut rest = set;
            while rest != 0 {
                out |= 1u64 << map[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            out
        };
        let x_piece = p.piece[xslot];
        // The squares of each kind of non-king piece but `X`.
        let mut kinds: ArrayVec<(u8, u64), MAX_PIECES> = ArrayVec::new();
        for slot in 2..xslot {
            let b = 1u64 << p.square[slot];
            match kinds.iter_mut().find(|(piece, _)| *piece == p.piece[slot]) {
                Some((_, set)) => *set |= b,
                None => kinds.push((p.piece[slot], b)),
            }
        }
        let mut apart = 0u32;
        let mut same = 0u64;
        for &(piece, set) in &kinds {
            if piece == x_piece {
                same = set;
            } else {
                apart += (set & !image(set)).count_ones();
            }
        }
        let a = same & !image(same);
        let apart = apart + a.count_ones();
        let fewer = image(a);
        let fixed = map
            .iter()
            .enumerate()
            .filter(|&(sq, &to)| usize::from(to) == sq)
            .fold(0u64, |set, (sq, _)| set | 1u64 << sq);
        let more = !(image(same) | fixed);
        let mut one = 0u64;
        if apart == 2 {
            one |= fewer;
        }
        if apart == 0 {
            one |= more;
        }
        if apart == 1 {
            one |= !(fewer | more);
        }
        members & one
    }
}

impl FastEndgame {
    /// [`IndexMoves::predecessor_block`] as the trait provides it: each
    /// member through [`IndexMoves::predecessor_indices`].
    pub(super) fn predecessors_one_by_one(
        &self,
        first: u64,
        members: u64,
        mut found: impl FnMut(u64, u64),
    ) {
        let mut rest = members;
        while rest != 0 {
            let index = first + u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            self.predecessor_indices(index, |j| found(index, j));
        }
    }
}
