//! [`FastEndgame`]: the [`Endgame`] numbering over [`Placement`]s, with
//! index-level moves for the indexed backward method. Its
//! [`IndexMoves`](gametree_game::IndexMoves) are in `moves.rs`, the
//! block-wise un-moves in `blocks.rs`, the run-wise move counts in
//! `count.rs`.

use arrayvec::ArrayVec;
use gametree_game::{IndexSpace, Predecessors};
#[cfg(doc)]
use gametree_games_chess::Position;

use crate::SignatureError;
use crate::symmetry::{KING_PLACEMENTS, identical_runs};
use crate::{BISHOP_R, Endgame, KING_R, KNIGHT_R, MAX_PIECES, Placement, QUEEN_R, ROOK_R};

mod blocks;
mod count;
mod moves;
#[cfg(test)]
mod tests;

/// The positions of one pawnless material signature as [`Placement`]s,
/// numbered exactly as [`Endgame`] numbers [`Position`]s: an
/// [`IndexSpace`] and [`Predecessors`] for fast retrograde builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastEndgame {
    inner: Endgame,
    /// The non-king piece numbers, in index order.
    pieces: ArrayVec<u8, MAX_PIECES>,
    /// The piece array of a placement of this material with nothing
    /// captured (kings, then `pieces`, then zeros).
    full_pieces: [u8; MAX_PIECES],
    /// Its `alive` mask.
    full_alive: u8,
    /// Per non-king piece (index order): `log2` of its coordinate's weight
    /// in the index (`6 × (n − 1 − k)`).
    shift: [u8; MAX_PIECES],
    /// Per non-king piece: not one of a run of identical pieces (whose
    /// squares the index keeps sorted).
    plain: [bool; MAX_PIECES],
    /// Per non-king piece: the same piece as the one before it (its square
    /// must be greater).
    after_same: [bool; MAX_PIECES],
    /// Per non-king piece: its colour (0 White, 1 Black).
    color: [u8; MAX_PIECES],
    /// Per colour: the slots of its pieces, king included.
    slots: [u8; 2],
    /// The weight of the side to move in the index (`462 × 64^n`).
    side_stride: u64,
    /// No rook or queen, and at most one minor piece or no knight: a
    /// position may be drawn by insufficient material.
    may_lack_material: bool,
    /// [`Placement::material`] of this space's placements.
    material: u64,
}

impl FastEndgame {
    /// The index space of a signature such as `"KQvKR"`.
    ///
    /// # Errors
    ///
    /// A [`SignatureError`] when the text is not a pawnless signature with
    /// at most [`MAX_PIECES`] pieces.
    pub fn new(signature: &str) -> Result<FastEndgame, SignatureError> {
        Ok(FastEndgame::from_endgame(Endgame::new(signature)?))
    }

    /// The same numbering over placements as `endgame` over positions.
    #[must_use]
    pub fn from_endgame(endgame: Endgame) -> FastEndgame {
        let pieces: ArrayVec<u8, MAX_PIECES> =
            endgame.piece_numbers().iter().map(|&p| p as u8).collect();
        let mut full_pieces = [0u8; MAX_PIECES];
        full_pieces[0] = KING_R as u8;
        full_pieces[1] = (6 + KING_R) as u8;
        full_pieces[2..2 + pieces.len()].copy_from_slice(&pieces);
        let n = pieces.len();
        let numbers: ArrayVec<usize, MAX_PIECES> = pieces.iter().map(|&p| p as usize).collect();
        let mut shift = [0u8; MAX_PIECES];
        let mut plain = [true; MAX_PIECES];
        for (k, s) in shift[..n].iter_mut().enumerate() {
            *s = (6 * (n - 1 - k)) as u8;
        }
        for (start, end) in identical_runs(&numbers) {
            for p in &mut plain[start as usize..end as usize] {
                *p = false;
            }
        }
        let mut after_same = [false; MAX_PIECES];
        let mut color = [0u8; MAX_PIECES];
        for k in 0..n {
            after_same[k] = k > 0 && numbers[k - 1] == numbers[k];
            color[k] = (numbers[k] / 6) as u8;
        }
        let mut slots = [0b01u8, 0b10u8];
        for (k, &c) in color[..n].iter().enumerate() {
            slots[usize::from(c)] |= 1 << (2 + k);
        }
        let material = full_pieces[..2 + n]
            .iter()
            .map(|&p| 1u64 << (4 * u32::from(p)))
            .sum();
        FastEndgame {
            material,
            after_same,
            color,
            slots,
            inner: endgame,
            full_alive: ((1u16 << (2 + n)) - 1) as u8,
            pieces,
            full_pieces,
            shift,
            plain,
            side_stride: KING_PLACEMENTS as u64 * (1u64 << (6 * n)),
            may_lack_material: numbers
                .iter()
                .all(|&p| p % 6 == KNIGHT_R || p % 6 == BISHOP_R)
                && (n <= 1 || numbers.iter().all(|&p| p % 6 == BISHOP_R)),
        }
    }

    /// The [`Placement::material`] key of this space's placements: a
    /// placement with another key has no index here.
    #[must_use]
    pub fn material(&self) -> u64 {
        self.material
    }

    /// The [`Endgame`] with the same numbering.
    #[must_use]
    pub fn endgame(&self) -> &Endgame {
        &self.inner
    }

    /// The squares of the non-king pieces of `p` in index order, if its
    /// material is this space's.
    #[inline]
    fn squares(&self, p: &Placement) -> Option<ArrayVec<u8, MAX_PIECES>> {
        let mut squares = ArrayVec::new();
        let mut alive = p.alive & !0b11;
        let mut expected = self.pieces.iter();
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            if expected.next() != Some(&p.piece[slot]) {
                return None;
            }
            squares.push(p.square[slot]);
        }
        expected.next().is_none().then_some(squares)
    }
}

impl IndexSpace for FastEndgame {
    type Game = Placement;

    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn position(&self, index: u64) -> Option<Placement> {
        let p = self.decode(index)?;
        if p.king_attacked(p.side as usize ^ 1) || !self.canonical_reflection(&p, index) {
            return None;
        }
        Some(p)
    }

    #[inline]
    fn index_of(&self, p: &Placement) -> Option<u64> {
        if p.alive == self.full_alive && p.piece == self.full_pieces {
            // Nothing captured: the slots are the index order.
            return self.inner.canonical(
                p.side as usize,
                p.square[0] as usize,
                p.square[1] as usize,
                &p.square[2..2 + self.pieces.len()],
            );
        }
        let squares = self.squares(p)?;
        self.inner.canonical(
            p.side as usize,
            p.square[0] as usize,
            p.square[1] as usize,
            &squares,
        )
    }
}

impl Predecessors for FastEndgame {
    /// Un-moves every piece of the side that just moved to each empty square
    /// it could have come from (no un-captures), keeping the positions where
    /// the side to move now was not in check — as [`Endgame`] does.
    fn predecessors(&self, p: &Placement, found: &mut dyn FnMut(u64)) {
        if self.squares(p).is_none() {
            return;
        }
        let side = p.side as usize;
        let mover = side ^ 1;
        if p.king_attacked(mover) {
            return;
        }
        let occ = p.occupied();
        let mut q = *p;
        q.side = mover as u8;
        let all = p.attackers(mover);
        let target = p.square[side] as usize;
        for slot in p.live_slots() {
            let piece = p.piece[slot] as usize;
            if piece / 6 != mover {
                continue;
            }
            let to = p.square[slot] as usize;
            // The mover's other pieces; this one is added on its origin.
            let others = all.without(to);
            let mut origins = Placement::reach(piece, to, occ) & !occ;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                // The side to move now (`side`) must not be in check in
                // the predecessor, where it was not to move.
                let before = occ ^ (1u64 << from) ^ (1u64 << to);
                let mut attackers = others;
                attackers.add(piece, from);
                if attackers.hit(target, before) {
                    continue;
                }
                q.square[slot] = from as u8;
                if let Some(i) = self.index_of(&q) {
                    found(i);
                }
            }
            q.square[slot] = to as u8;
        }
    }
}

/// Distinct indices gathered from one position's moves or un-moves, in two
/// lists: `same` holds the results numbered without re-applying a symmetry
/// (the king placement kept, the kings not both on the long diagonal), which
/// are distinct placements and so distinct indices; `other` the rest (a
/// king moved, or both kings stand on the long diagonal), which may
/// coincide with each other or, when their king placement is the parent's,
/// with one in `same`.
struct Gathered {
    same: ArrayVec<u64, 256>,
    other: ArrayVec<u64, 256>,
}

impl Gathered {
    #[inline]
    fn new() -> Gathered {
        Gathered {
            same: ArrayVec::new(),
            other: ArrayVec::new(),
        }
    }

    /// Calls `found` once with each distinct index; `upper` is the side and
    /// king placement part (`index >> shift`) of the indices in `same`.
    #[inline]
    fn report(&self, upper: u64, shift: u32, mut found: impl FnMut(u64)) {
        for &j in &self.same {
            found(j);
        }
        for (k, &j) in self.other.iter().enumerate() {
            if self.other[..k].contains(&j) || (j >> shift == upper && self.same.contains(&j)) {
                continue;
            }
            found(j);
        }
    }
}

#[inline]
fn on_long_diagonal(sq: u8) -> bool {
    sq % 8 == sq / 8
}

/// On a1–h8 or a8–h1.
#[inline]
fn on_a_long_diagonal(sq: u8) -> bool {
    sq % 8 == sq / 8 || sq % 8 + sq / 8 == 7
}

impl FastEndgame {
    /// The placement an index spells out, or `None` when it is out of range
    /// or puts two pieces on one square or identical pieces out of order;
    /// whether the side not to move is in check, or a reflection gives a
    /// smaller index, is not examined ([`IndexSpace::position`] does).
    #[inline]
    fn decode(&self, index: u64) -> Option<Placement> {
        self.decode_pieces(index, self.pieces.len())
    }

    /// [`decode`](Self::decode) of the kings and the first `count` non-king
    /// pieces only: the others keep square 0 and are missing from
    /// `by_color` (but not from `alive`).
    #[inline(always)]
    fn decode_pieces(&self, index: u64, count: usize) -> Option<Placement> {
        if index >= self.size() {
            return None;
        }
        let n = self.pieces.len();
        // Side × 462 + king placement, below 2 × 462.
        let upper = (index >> (6 * n)) as usize;
        let (side, kings) = if upper >= KING_PLACEMENTS {
            (1, upper - KING_PLACEMENTS)
        } else {
            (0, upper)
        };
        let (wk, bk) = crate::king_pair(kings)?;
        let mut square = [0u8; MAX_PIECES];
        square[0] = wk as u8;
        square[1] = bk as u8;
        let mut by_color = [1u64 << wk, 1u64 << bk];
        let mut occupied = by_color[0] | by_color[1];
        let mut previous = 0u8;
        for k in 0..count.min(MAX_PIECES - 2) {
            let s = ((index >> self.shift[k]) & 63) as u8;
            let b = 1u64 << s;
            if occupied & b != 0 || (self.after_same[k] && previous > s) {
                return None;
            }
            occupied |= b;
            by_color[usize::from(self.color[k] & 1)] |= b;
            square[k + 2] = s;
            previous = s;
        }
        Some(Placement {
            piece: self.full_pieces,
            square,
            len: (2 + n) as u8,
            alive: self.full_alive,
            side: side as u8,
            by_color,
        })
    }

    /// Unless both kings stand on the long diagonal a1–h8, `true`; when they
    /// do, is `index` (the decoded placement `p`) the smaller of the two
    /// reflections, the canonical one?
    #[inline]
    fn canonical_reflection(&self, p: &Placement, index: u64) -> bool {
        let (wk, bk) = (p.square[0], p.square[1]);
        !(on_long_diagonal(wk) && on_long_diagonal(bk))
            || self.inner.canonical(
                p.side as usize,
                wk as usize,
                bk as usize,
                &p.square[2..2 + self.pieces.len()],
            ) == Some(index)
    }

    /// The same index with the other side to move.
    #[inline]
    fn other_side(&self, index: u64, side: usize) -> u64 {
        if side == 0 {
            index + self.side_stride
        } else {
            index - self.side_stride
        }
    }

    /// Files the index of `p` (index `index`, `side` to move next in the
    /// result) after slot `slot` moved `from` → `to`, into `g`; `base` is
    /// `index` with `side` to move. `false` when the result has no index
    /// (cannot happen after a legal move or un-move).
    #[inline(always)]
    fn file(
        &self,
        g: &mut Gathered,
        p: &Placement,
        base: u64,
        side: usize,
        diagonal: bool,
        (slot, from, to): (usize, u8, u8),
    ) -> bool {
        if slot >= 2 && !diagonal && self.plain[slot - 2] {
            // Only this piece's coordinate changes.
            let shift = self.shift[slot - 2];
            g.same
                .push(base - (u64::from(from) << shift) + (u64::from(to) << shift));
            return true;
        }
        let n = self.pieces.len();
        let mut sq = p.square;
        sq[slot] = to;
        match self
            .inner
            .canonical(side, sq[0] as usize, sq[1] as usize, &sq[2..2 + n])
        {
            Some(j) if slot >= 2 && !diagonal => g.same.push(j),
            Some(j) => g.other.push(j),
            None => return false,
        }
        true
    }
}

/// Blocks with fewer members are done member by member by
/// `FastEndgame::predecessor_block` (the shared work would cost more than
/// it saves: measured on level builds by callgrind).
const BLOCK_MIN_MEMBERS: u32 = 2;

/// The `(white king, black king)` squares when the king of `color` (0:
/// White) stands on `moved` and the other on `still`.
#[inline]
fn king_pair(color: usize, moved: usize, still: usize) -> (usize, usize) {
    if color == 0 {
        (moved, still)
    } else {
        (still, moved)
    }
}

/// Bishops, rooks and queens.
#[inline]
fn is_slider(piece: usize) -> bool {
    matches!(piece % 6, BISHOP_R | ROOK_R | QUEEN_R)
}
