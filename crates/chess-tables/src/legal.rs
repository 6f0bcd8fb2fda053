//! The legal moves of a [`Placement`]: the pieces of each side by the way
//! they attack ([`Attackers`]), what the legality of the side to move's
//! moves depends on ([`MoveContext`]: checks, pins, the squares the enemy
//! attacks), and the move generator built on them, with table-free slider
//! attacks (`attacks::sparse_rook`, `sparse_bishop`) that stay in the
//! first-level cache beside a generator's large arrays.

use gametree_games_chess::attacks::{KING, KNIGHT, sparse_bishop, sparse_rook, tables};

use crate::placement::{NO_CAPTURE, Placement, PlacementMove};
use crate::{BISHOP_R, KNIGHT_R, QUEEN_R, ROOK_R};

/// The pieces of one colour by the way they attack.
#[derive(Clone, Copy, Default)]
pub(crate) struct Attackers {
    /// Bishops and queens.
    pub(crate) diagonal: u64,
    /// Rooks and queens.
    pub(crate) straight: u64,
    /// Knights.
    pub(crate) leap: u64,
    /// The king.
    pub(crate) king: u64,
}

impl Attackers {
    #[inline]
    pub(crate) fn add(&mut self, piece: usize, sq: usize) {
        let b = 1u64 << sq;
        match piece % 6 {
            KNIGHT_R => self.leap |= b,
            BISHOP_R => self.diagonal |= b,
            ROOK_R => self.straight |= b,
            QUEEN_R => {
                self.diagonal |= b;
                self.straight |= b;
            }
            _ => self.king |= b,
        }
    }

    /// The same without any piece on `sq` (captured there).
    #[inline]
    pub(crate) fn without(self, sq: usize) -> Attackers {
        let keep = !(1u64 << sq);
        Attackers {
            diagonal: self.diagonal & keep,
            straight: self.straight & keep,
            leap: self.leap & keep,
            king: self.king & keep,
        }
    }

    /// Every square one of these pieces attacks with occupancy `occ`.
    #[inline]
    pub(crate) fn attacks(&self, occ: u64) -> u64 {
        let mut all = 0;
        let mut each = |mut set: u64, reach: &dyn Fn(usize) -> u64| {
            while set != 0 {
                all |= reach(set.trailing_zeros() as usize);
                set &= set - 1;
            }
        };
        each(self.king, &|sq| KING[sq]);
        each(self.leap, &|sq| KNIGHT[sq]);
        each(self.diagonal, &|sq| sparse_bishop(sq, occ));
        each(self.straight, &|sq| sparse_rook(sq, occ));
        all
    }

    /// The sliders among these pieces that attack `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn sliders_at(&self, sq: usize, occ: u64) -> u64 {
        (sparse_bishop(sq, occ) & self.diagonal) | (sparse_rook(sq, occ) & self.straight)
    }

    /// Does one of these pieces attack `sq` with occupancy `occ`?
    #[inline]
    pub(crate) fn hit(&self, sq: usize, occ: u64) -> bool {
        if (KING[sq] & self.king) | (KNIGHT[sq] & self.leap) != 0 {
            return true;
        }
        (self.diagonal != 0 && sparse_bishop(sq, occ) & self.diagonal != 0)
            || (self.straight != 0 && sparse_rook(sq, occ) & self.straight != 0)
    }
}

/// What the legality of one side's moves depends on
/// ([`Placement::move_context`]).
pub(crate) struct MoveContext {
    /// The side to move.
    pub(crate) us: usize,
    /// Occupancy.
    pub(crate) occ: u64,
    /// Our king's square.
    pub(crate) king: usize,
    /// Is our king attacked?
    pub(crate) in_check: bool,
    /// The enemy's sliders.
    pub(crate) sliders: u64,
    /// Squares our king may not move to (only those next to it are read).
    pub(crate) danger: u64,
    /// The enemy pieces giving check.
    pub(crate) checkers: u64,
    /// In check, the squares where another piece's move answers it (the
    /// checker's, or between it and our king; none in double check).
    pub(crate) evasions: u64,
    /// The enemy's pieces.
    pub(crate) enemy: Attackers,
}

impl MoveContext {
    /// In check from `checkers`, the squares where a piece other than the
    /// king answers it: one checker, take it or block its line; two, none
    /// (only the king moves); not in check, none.
    #[inline]
    pub(crate) fn evasions(king: usize, checkers: u64) -> u64 {
        if checkers != 0 && checkers & (checkers - 1) == 0 {
            checkers | tables().between(king, checkers.trailing_zeros() as usize)
        } else {
            0
        }
    }
}

/// Light squares (a1 is dark).
pub(crate) const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;

impl Placement {
    /// The pieces of `color` by the way they attack.
    #[inline]
    pub(crate) fn attackers(&self, color: usize) -> Attackers {
        let mut a = Attackers::default();
        let mut alive = self.alive;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            let piece = self.piece[slot] as usize;
            if piece / 6 == color {
                a.add(piece, self.square[slot] as usize);
            }
        }
        a
    }

    /// The pieces of both colours by the way they attack (one pass).
    #[inline]
    pub(crate) fn both_attackers(&self) -> [Attackers; 2] {
        let mut a = [Attackers::default(); 2];
        let mut alive = self.alive;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            let piece = self.piece[slot] as usize;
            a[piece / 6].add(piece, self.square[slot] as usize);
        }
        a
    }

    /// Is the king of `color` attacked?
    #[inline]
    pub(crate) fn king_attacked(&self, color: usize) -> bool {
        self.attackers(color ^ 1)
            .hit(self.square[color] as usize, self.occupied())
    }

    /// Squares a piece on `from` reaches given the occupancy (captures of
    /// either colour included).
    #[inline(always)]
    pub(crate) fn reach(piece: usize, from: usize, occ: u64) -> u64 {
        match piece % 6 {
            KNIGHT_R => KNIGHT[from],
            BISHOP_R => sparse_bishop(from, occ),
            ROOK_R => sparse_rook(from, occ),
            QUEEN_R => sparse_bishop(from, occ) | sparse_rook(from, occ),
            _ => KING[from],
        }
    }

    /// What the legality of the side to move's moves depends on.
    #[inline]
    pub(crate) fn move_context(&self) -> MoveContext {
        self.move_context_from(self.attackers(self.side as usize ^ 1))
    }

    /// [`move_context`](Self::move_context) given the enemy's pieces.
    #[inline]
    pub(crate) fn move_context_from(&self, enemy: Attackers) -> MoveContext {
        let mut c = self.checks_from(enemy);
        // Every square the enemy attacks through the square our king leaves
        // (a defended piece included).
        c.danger = enemy.attacks(c.occ & !(1u64 << c.king));
        c
    }

    /// Does the side to move have a legal move? [`for_each_legal`]'s
    /// answer, without the set of squares the enemy attacks: each king
    /// target is tested on its own (a square is attacked with our king
    /// lifted exactly when it is in that set), and the other pieces only
    /// when the king has no move.
    ///
    /// [`for_each_legal`]: Self::for_each_legal
    #[inline]
    pub(crate) fn has_legal_move(&self) -> bool {
        let us = self.side as usize;
        let enemy = self.attackers(us ^ 1);
        let king = self.square[us] as usize;
        let lifted = self.occupied() & !(1u64 << king);
        let mut targets = KING[king] & !self.by_color[us];
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if !enemy.hit(to, lifted) {
                return true;
            }
        }
        let c = self.checks_from(enemy);
        if c.checkers & c.checkers.wrapping_sub(1) != 0 {
            // Double check: only the king moves.
            return false;
        }
        let mut alive = self.alive & !0b11;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            if self.piece[slot] as usize / 6 == us && self.legal_targets(&c, slot) != 0 {
                return true;
            }
        }
        false
    }

    /// [`move_context_from`](Self::move_context_from) without `danger`
    /// (left empty): enough for the moves of pieces other than the king.
    #[inline]
    pub(crate) fn checks_from(&self, enemy: Attackers) -> MoveContext {
        let us = self.side as usize;
        let occ = self.occupied();
        let king = self.square[us] as usize;
        let checkers =
            enemy.sliders_at(king, occ) | (KNIGHT[king] & enemy.leap) | (KING[king] & enemy.king);
        MoveContext {
            us,
            occ,
            king,
            in_check: checkers != 0,
            evasions: MoveContext::evasions(king, checkers),
            checkers,
            sliders: enemy.diagonal | enemy.straight,
            danger: 0,
            enemy,
        }
    }

    /// The squares the piece in `slot` (of the side to move) reaches by a
    /// legal move, captures included.
    #[inline(always)]
    pub(crate) fn legal_targets(&self, c: &MoveContext, slot: usize) -> u64 {
        let piece = self.piece[slot] as usize;
        let from = self.square[slot] as usize;
        let targets = Self::reach(piece, from, c.occ) & !self.by_color[c.us];
        if slot == c.us {
            // The king may not go where the enemy attacks.
            return targets & !c.danger;
        }
        let line = tables().line(c.king, from);
        Self::restrict(c, targets, line, Self::pinned(c, from, line))
    }

    /// Is the piece of the side to move on `from` (on `line` with its king)
    /// pinned? Lifting it lets a slider other than a checker attack our
    /// king (only through `from`).
    #[inline]
    pub(crate) fn pinned(c: &MoveContext, from: usize, line: u64) -> bool {
        line & c.sliders != 0
            && c.enemy.sliders_at(c.king, c.occ & !(1u64 << from)) & !c.checkers != 0
    }

    /// The legal part of `targets` of a piece other than the king, on `line`
    /// with its king: a pinned piece must stay on the line (between the
    /// king and the pinner, or taking it), which never answers a check from
    /// another line.
    #[inline]
    pub(crate) fn restrict(c: &MoveContext, targets: u64, line: u64, pinned: bool) -> u64 {
        match (c.in_check, pinned) {
            (false, false) => targets,
            (false, true) => targets & line,
            (true, false) => targets & c.evasions,
            (true, true) => 0,
        }
    }

    /// Calls `each` with every legal move until it returns `false`.
    #[inline]
    pub(crate) fn for_each_legal(&self, mut each: impl FnMut(PlacementMove) -> bool) {
        let c = self.move_context();
        let mut alive = self.alive;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            if self.piece[slot] as usize / 6 != c.us {
                continue;
            }
            let from = self.square[slot];
            let mut targets = self.legal_targets(&c, slot);
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let m = PlacementMove {
                    slot: slot as u8,
                    from,
                    to,
                };
                if !each(m) {
                    return;
                }
            }
        }
    }

    /// Marks the piece of `color` on `sq` dead; returns its slot.
    #[inline]
    pub(crate) fn capture_at(&mut self, color: usize, sq: usize) -> u8 {
        let mut alive = self.alive;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            if self.square[slot] as usize == sq && self.piece[slot] as usize / 6 == color {
                self.alive &= !(1 << slot);
                self.by_color[color] &= !(1u64 << sq);
                return slot as u8;
            }
        }
        NO_CAPTURE
    }

    /// Draw by insufficient material, as [`Position::is_insufficient_material`]
    /// (no pawns here): no rook or queen, and at most one minor piece or
    /// only bishops all on squares of one colour.
    pub(crate) fn insufficient_material(&self) -> bool {
        let (mut minors, mut knights, mut bishops) = (0u32, 0u32, 0u64);
        for slot in self.live_slots() {
            match self.piece[slot] as usize % 6 {
                ROOK_R | QUEEN_R => return false,
                KNIGHT_R => {
                    minors += 1;
                    knights += 1;
                }
                BISHOP_R => {
                    minors += 1;
                    bishops |= 1u64 << self.square[slot];
                }
                _ => {}
            }
        }
        minors <= 1 || (knights == 0 && (bishops & LIGHT == 0 || bishops & !LIGHT == 0))
    }
}
