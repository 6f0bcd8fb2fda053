//! [`PawnEndgame`]'s indices decoded into a [`Board`] (a square per slot,
//! two occupancy and two pawn masks, the side to move, the pawn that may
//! be taken en passant), with the legal moves generated on it and the
//! index computed back from squares, for the index-level moves of
//! `moves.rs`. Nothing here builds a [`Position`] but the successors that
//! leave the ending.

use arrayvec::ArrayVec;
use gametree_games_chess::attacks::{KING, KNIGHT, tables};
use gametree_games_chess::{Position, Role};

use super::{Domain, PawnEndgame, color, ep_rank, square_of, value};
use crate::legal::{Attackers, MoveContext};
use crate::{MAX_PIECES, PAWN_R, Placement, piece, square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares pawns of `color` (0 White) standing on `pawns` attack.
#[inline]
pub(super) fn pawn_attacks(color: usize, pawns: u64) -> u64 {
    if color == 0 {
        ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A)
    } else {
        ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A)
    }
}

/// One step forward for a pawn of `color`.
#[inline]
fn forward(color: usize, sq: usize) -> usize {
    if color == 0 { sq + 8 } else { sq - 8 }
}

/// One step back for a pawn of `color`.
#[inline]
fn backward(color: usize, sq: usize) -> usize {
    if color == 0 { sq - 8 } else { sq + 8 }
}

/// A position of a [`PawnEndgame`] as squares: slot 0 the White king,
/// slot 1 the Black king, slot `2 + k` the space's `k`-th non-king piece.
#[derive(Clone, Copy, Debug)]
pub(super) struct Board {
    /// Square per slot.
    pub(super) sq: [u8; MAX_PIECES],
    /// `0` White to move, `1` Black.
    pub(super) side: usize,
    /// The square of the pawn of the side not to move that has just moved
    /// two squares, in an en-passant region.
    pub(super) ep: Option<u8>,
    /// Occupancy by colour.
    pub(super) by_color: [u64; 2],
    /// Pawns by colour.
    pub(super) pawns: [u64; 2],
}

impl Board {
    /// Every occupied square.
    #[inline]
    pub(super) fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }
}

/// What a legal move does to the ending.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// Stays in the ending (no capture, no promotion).
    Inside,
    /// A pawn's double step, inside the ending.
    Double,
    /// A capture or a promotion: another ending.
    Exit,
}

/// The pieces a pawn promotes to, in the order moves are reported.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl PawnEndgame {
    /// The number of slots (kings included).
    #[inline]
    pub(super) fn slots(&self) -> usize {
        2 + self.pieces.len()
    }

    /// The piece number in `slot`.
    #[inline]
    pub(super) fn slot_piece(&self, slot: usize) -> usize {
        usize::from(self.slot_piece[slot])
    }

    /// The board an index spells out, or `None` when the index is out of
    /// range, puts two pieces on one square or like pieces out of order.
    /// Whether the position is legal and canonical is not examined
    /// ([`valid_board`](Self::valid_board) does).
    #[inline]
    pub(super) fn decode(&self, index: u64) -> Option<Board> {
        // The two regions without an en-passant capture come first, of
        // one size.
        let plain = self.regions[0].size;
        let region = if index < 2 * plain {
            &self.regions[usize::from(index >= plain)]
        } else {
            self.regions
                .iter()
                .find(|r| index >= r.offset && index - r.offset < r.size)?
        };
        let mut rest = index - region.offset;
        let n = self.pieces.len();
        let mut sq = [0u8; MAX_PIECES];
        for j in (0..n).rev() {
            let domain = region.domains[j];
            // Constant divisors, one per domain.
            let (v, r) = match domain {
                Domain::Piece => (rest % 64, rest / 64),
                Domain::Pawn => (rest % 48, rest / 48),
                Domain::Lead => (rest % 24, rest / 24),
                Domain::EpPawn => (rest % 8, rest / 8),
                Domain::EpLead => (rest % 4, rest / 4),
            };
            sq[2 + j] = square_of(domain, v, self.pieces[j] / 6) as u8;
            rest = r;
        }
        sq[0] = (rest / 64) as u8;
        sq[1] = (rest % 64) as u8;
        let mut b = Board {
            sq,
            side: region.side,
            ep: region.ep_slot.map(|k| sq[2 + k]),
            by_color: [0; 2],
            pawns: [0; 2],
        };
        for slot in 0..2 + n {
            let bit = 1u64 << sq[slot];
            if b.occupied() & bit != 0 {
                return None;
            }
            if slot >= 3
                && self.pieces[slot - 2] == self.pieces[slot - 3]
                && sq[slot - 1] > sq[slot]
            {
                return None;
            }
            let p = self.slot_piece(slot);
            b.by_color[p / 6] |= bit;
            if p % 6 == PAWN_R {
                b.pawns[p / 6] |= bit;
            }
        }
        Some(b)
    }

    /// The board of a valid index: the side not to move is not in check,
    /// an en-passant region's capture is legal, and the index is the
    /// canonical one of its position ([`IndexSpace::position`] is `Some`).
    ///
    /// [`IndexSpace::position`]: gametree_game::IndexSpace::position
    #[inline]
    pub(super) fn valid_board(&self, index: u64) -> Option<(Board, [Attackers; 2])> {
        let b = self.decode(index)?;
        let them = b.side ^ 1;
        let both = self.both_attackers(&b);
        let king = usize::from(b.sq[them]);
        if pawn_attacks(them, 1u64 << king) & b.pawns[b.side] != 0
            || both[b.side].hit(king, b.occupied())
        {
            return None;
        }
        if let Some(e) = b.ep {
            let e = usize::from(e);
            let (over, origin) = (backward(them, e), backward(them, backward(them, e)));
            if b.occupied() & ((1u64 << over) | (1u64 << origin)) != 0
                || !self.can_take_en_passant(&b, e)
            {
                return None;
            }
        }
        if self.lead_run > 1 && self.encode_squares(b.side, &b.sq, b.ep) != Some(index) {
            return None;
        }
        Some((b, both))
    }

    /// The non-pawn pieces of both colours on `b`.
    #[inline]
    pub(super) fn both_attackers(&self, b: &Board) -> [Attackers; 2] {
        let mut a = [Attackers::default(); 2];
        for slot in 0..self.slots() {
            let p = self.slot_piece(slot);
            if p % 6 != PAWN_R {
                a[p / 6].add(p, usize::from(b.sq[slot]));
            }
        }
        a
    }

    /// The non-pawn pieces of `color` on `b` (those on a square of its
    /// occupancy: a piece taken off there is left out).
    #[inline]
    fn attackers(&self, b: &Board, color: usize) -> Attackers {
        let mut a = Attackers::default();
        for slot in 0..self.slots() {
            let p = self.slot_piece(slot);
            let s = usize::from(b.sq[slot]);
            if p / 6 == color && p % 6 != PAWN_R && b.by_color[color] & (1u64 << s) != 0 {
                a.add(p, s);
            }
        }
        a
    }

    /// Does a piece of `by` attack `sq` on `b` with occupancy `occ`?
    #[inline]
    pub(super) fn attacked(&self, b: &Board, sq: usize, by: usize, occ: u64) -> bool {
        pawn_attacks(by ^ 1, 1u64 << sq) & b.pawns[by] != 0 || self.attackers(b, by).hit(sq, occ)
    }

    /// Can the side to move take the pawn on `e` (which has just moved two
    /// squares) en passant, legally?
    #[inline]
    pub(super) fn can_take_en_passant(&self, b: &Board, e: usize) -> bool {
        let us = b.side;
        let over = backward(us ^ 1, e);
        let mut from = pawn_attacks(us ^ 1, 1u64 << over) & b.pawns[us];
        while from != 0 {
            let f = from.trailing_zeros() as usize;
            from &= from - 1;
            if self.en_passant_legal(b, f, e) {
                return true;
            }
        }
        false
    }

    /// Does the capture en passant by the pawn on `from` of the pawn on `e`
    /// leave the mover's king safe?
    #[inline]
    fn en_passant_legal(&self, b: &Board, from: usize, e: usize) -> bool {
        let us = b.side;
        let them = us ^ 1;
        let over = backward(them, e);
        let mut after = *b;
        after.by_color[them] &= !(1u64 << e);
        after.pawns[them] &= !(1u64 << e);
        after.by_color[us] ^= (1u64 << from) | (1u64 << over);
        !self.attacked(&after, b.sq[us] as usize, them, after.occupied())
    }

    /// What the legality of the side to move's moves depends on: checks
    /// (by pawns too), pins, the squares the enemy attacks.
    #[inline]
    fn context(&self, b: &Board, enemy: Attackers) -> MoveContext {
        let us = b.side;
        let them = us ^ 1;
        let occ = b.occupied();
        let king = usize::from(b.sq[us]);
        let checkers = enemy.sliders_at(king, occ)
            | (KNIGHT[king] & enemy.leap)
            | (KING[king] & enemy.king)
            | (pawn_attacks(us, 1u64 << king) & b.pawns[them]);
        MoveContext {
            us,
            occ,
            king,
            in_check: checkers != 0,
            evasions: MoveContext::evasions(king, checkers),
            checkers,
            sliders: enemy.diagonal | enemy.straight,
            danger: enemy.attacks(occ & !(1u64 << king)) | pawn_attacks(them, b.pawns[them]),
            enemy,
        }
    }

    /// Calls `each(slot, from, to, kind)` with every legal move of the side
    /// to move (a promotion once, whatever it promotes to), given the
    /// enemy's non-pawn pieces; returns whether
    /// there is one, and whether the side to move is in check.
    #[inline]
    pub(super) fn for_each_legal(
        &self,
        b: &Board,
        enemy: Attackers,
        mut each: impl FnMut(usize, usize, usize, Kind),
    ) -> (bool, bool) {
        let c = self.context(b, enemy);
        let us = b.side;
        let them = us ^ 1;
        let ours = b.by_color[us];
        let enemy = b.by_color[them];
        let mut any = false;
        let king = c.king;
        let mut targets = KING[king] & !ours & !c.danger;
        any |= targets != 0;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let kind = if enemy & (1u64 << to) != 0 {
                Kind::Exit
            } else {
                Kind::Inside
            };
            each(us, king, to, kind);
        }
        let t = tables();
        for slot in 2..self.slots() {
            let p = self.slot_piece(slot);
            if p / 6 != us {
                continue;
            }
            let from = usize::from(b.sq[slot]);
            let pawn = p % 6 == PAWN_R;
            let reach = if pawn {
                let mut reach = pawn_attacks(us, 1u64 << from) & enemy;
                let one = forward(us, from);
                if c.occ & (1u64 << one) == 0 {
                    reach |= 1u64 << one;
                    if from / 8 == if us == 0 { 1 } else { 6 } {
                        let two = forward(us, one);
                        if c.occ & (1u64 << two) == 0 {
                            reach |= 1u64 << two;
                        }
                    }
                }
                reach
            } else {
                Placement::reach(p, from, c.occ) & !ours
            };
            let line = t.line(king, from);
            let mut legal = Placement::restrict(&c, reach, line, Placement::pinned(&c, from, line));
            any |= legal != 0;
            while legal != 0 {
                let to = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let kind = if enemy & (1u64 << to) != 0 || (pawn && (to / 8 == 0 || to / 8 == 7)) {
                    Kind::Exit
                } else if pawn && from.abs_diff(to) == 16 {
                    Kind::Double
                } else {
                    Kind::Inside
                };
                each(slot, from, to, kind);
            }
        }
        if let Some(e) = b.ep {
            let e = usize::from(e);
            let over = backward(them, e);
            let mut from = pawn_attacks(them, 1u64 << over) & b.pawns[us];
            while from != 0 {
                let f = from.trailing_zeros() as usize;
                from &= from - 1;
                if self.en_passant_legal(b, f, e) {
                    any = true;
                    let slot = (2..self.slots()).find(|&s| usize::from(b.sq[s]) == f);
                    if let Some(slot) = slot {
                        each(slot, f, over, Kind::Exit);
                    }
                }
            }
        }
        (any, c.in_check)
    }

    /// The index of the child after the inside move of `slot` from `from`
    /// to `to` (`double`: a pawn's double step, which leads to an
    /// en-passant region when the capture is legal).
    #[inline]
    pub(super) fn child_index(
        &self,
        b: &Board,
        index: u64,
        (slot, to): (usize, usize),
        double: bool,
    ) -> Option<u64> {
        let us = b.side;
        let from = usize::from(b.sq[slot]);
        if !double
            && b.ep.is_none()
            && let Some(j) = self.moved_index(index, us, slot, from, to)
        {
            return Some(j);
        }
        let mut child = *b;
        child.sq[slot] = to as u8;
        child.side = us ^ 1;
        child.ep = None;
        let moved = (1u64 << from) | (1u64 << to);
        child.by_color[us] ^= moved;
        if double {
            child.pawns[us] ^= moved;
            if self.can_take_en_passant(&child, to) {
                child.ep = Some(to as u8);
            }
        }
        self.encode_squares(child.side, &child.sq, child.ep)
    }

    /// The index after the piece in `slot` moved from `from` to `to` in
    /// the position of index `index` (`side` to move, no en-passant
    /// capture), the result without one: only that piece's coordinate and
    /// the side to move change, unless the piece is one of like pieces or
    /// the reflection may change (like leading pawns): then `None`.
    #[inline]
    pub(super) fn moved_index(
        &self,
        index: u64,
        side: usize,
        slot: usize,
        from: usize,
        to: usize,
    ) -> Option<u64> {
        if !self.plain[slot] || self.lead_run > 1 {
            return None;
        }
        let (old, new) = if slot < 2 {
            (from as u64, to as u64)
        } else {
            let domain = self.regions[0].domains[slot - 2];
            let color = self.pieces[slot - 2] / 6;
            (value(domain, from, color)?, value(domain, to, color)?)
        };
        let flipped = if side == 0 {
            index + self.regions[0].size
        } else {
            index - self.regions[0].size
        };
        Some(flipped + new * self.weight[slot] - old * self.weight[slot])
    }

    /// Calls `exit` with each position the move of `slot` from `from` to
    /// `to` (a capture, en passant included, or a promotion to each
    /// piece) leads to.
    pub(super) fn exits(
        &self,
        b: &Board,
        (slot, from, to): (usize, usize, usize),
        exit: &mut impl FnMut(&Position),
    ) {
        let us = b.side;
        let them = us ^ 1;
        let moving = self.slot_piece(slot);
        let pawn = moving % 6 == PAWN_R;
        let taken = if b.by_color[them] & (1u64 << to) != 0 {
            Some(to)
        } else if pawn && from % 8 != to % 8 {
            // En passant: the pawn beside the origin.
            Some(backward(us, to))
        } else {
            None
        };
        let promotes = pawn && (to / 8 == 0 || to / 8 == 7);
        let roles: &[Role] = if promotes { &PROMOTIONS } else { &[Role::Pawn] };
        for &role in roles {
            let mut pieces: ArrayVec<_, MAX_PIECES> = ArrayVec::new();
            for s in 0..self.slots() {
                let at = usize::from(b.sq[s]);
                if s == slot {
                    let mut p = piece(moving);
                    if promotes {
                        p.role = role;
                    }
                    pieces.push((square(to), p));
                } else if Some(at) != taken {
                    pieces.push((square(at), piece(self.slot_piece(s))));
                }
            }
            if let Ok(child) = Position::from_pieces(color(them), pieces) {
                exit(&child);
            }
        }
    }

    /// The index of squares `sq` (slot order; like pieces in any order)
    /// with `side` to move and, in an en-passant region, the pawn on `ep`
    /// just moved two squares: the canonical reflection, like pieces
    /// sorted. `None` when no reflection puts the leading pawn on the files
    /// a–d.
    #[inline]
    pub(super) fn encode_squares(
        &self,
        side: usize,
        sq: &[u8; MAX_PIECES],
        ep: Option<u8>,
    ) -> Option<u64> {
        if self.lead_run == 1 {
            let mirror = sq[2 + self.lead] % 8 >= 4;
            return self.encode_oriented(side, sq, ep, mirror);
        }
        match (
            self.encode_oriented(side, sq, ep, false),
            self.encode_oriented(side, sq, ep, true),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// [`encode_squares`](Self::encode_squares) in one orientation.
    #[inline]
    fn encode_oriented(
        &self,
        side: usize,
        sq: &[u8; MAX_PIECES],
        ep: Option<u8>,
        mirror: bool,
    ) -> Option<u64> {
        let flip = if mirror { 7 } else { 0 };
        let n = self.pieces.len();
        let mut s = [0u8; MAX_PIECES];
        for (k, x) in s[..n].iter_mut().enumerate() {
            *x = sq[2 + k] ^ flip;
        }
        for a in 1..n {
            let mut b = a;
            while b > 0 && self.pieces[b - 1] == self.pieces[b] && s[b - 1] > s[b] {
                s.swap(b - 1, b);
                b -= 1;
            }
        }
        let ep_slot = match ep {
            None => 0,
            Some(e) => 1 + s[..n].iter().position(|&x| x == e ^ flip)?,
        };
        let region = &self.regions[usize::from(self.region_of[side][ep_slot])];
        let mut index = u64::from(sq[0] ^ flip) * 64 + u64::from(sq[1] ^ flip);
        for ((&domain, &x), &number) in region.domains.iter().zip(&s[..n]).zip(&self.pieces) {
            index = index * domain.radix() + value(domain, usize::from(x), number / 6)?;
        }
        Some(region.offset + index)
    }

    /// The rank (0-based) a pawn of `color` stands on after its double
    /// step.
    #[inline]
    pub(super) fn ep_rank_of(color: usize) -> usize {
        ep_rank(color)
    }
}
