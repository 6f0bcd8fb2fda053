//! A pawnless position as a short list of pieces ([`Placement`]), a
//! [`Game`] with no history, counters or hash to maintain, and
//! [`FastEndgame`]: the same index as [`Endgame`] over placements, for
//! building endgame databases quickly.
//!
//! [`Endgame`] numbers full [`Position`]s; every step of a retrograde
//! build through it (index → position, move generation, making a move,
//! position → index) carries the full position's board array, hash,
//! history and general move generator. A [`Placement`] is at most seven
//! `(piece, square)` slots, two occupancy masks and the side to move
//! (40 bytes, `Copy`); its moves are generated and made on those slots,
//! and its index is computed from the slots through the same precomputed
//! symmetry tables. The numbering is identical, so a table built over
//! [`FastEndgame`] is probed through [`Endgame`] and vice versa (the tests
//! build both and compare them index by index).
//!
//! ```
//! use gametree_game::{Game, IndexSpace};
//! use gametree_games_chess::{Endgame, FastEndgame, Placement, Position};
//!
//! let fast = FastEndgame::new("KQvK")?;
//! let p: Position = "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1".parse()?;
//! let placement = Placement::from_position(&p).unwrap();
//! let i = fast.index_of(&placement).unwrap();
//! assert_eq!(Endgame::new("KQvK")?.index_of(&p), Some(i));
//! let mut moves = Default::default();
//! placement.generate(&mut moves);
//! assert_eq!(moves.len(), p.legal_moves().len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use arrayvec::ArrayVec;
use gametree_game::{Counted, Game, IndexMoves, IndexSpace, Outcome, Player, Predecessors};

use crate::attacks::{KING, KNIGHT, sparse_bishop, sparse_rook, tables};
use crate::endgame::{
    Endgame, KING_PLACEMENTS, MAX_PIECES, SignatureError, canonical_kings, identical_runs,
    king_transform, kings_in_place,
};
use crate::position::{BISHOP_R, KING_R, KNIGHT_R, PAWN_R, Position, QUEEN_R, ROOK_R};
use crate::types::Color;

/// A pawnless position without castling rights or en-passant square, as
/// at most [`MAX_PIECES`] slots of `(piece, square)`: slot 0 is the White
/// king, slot 1 the Black king, then the other pieces in the order of
/// their material signature (White's, then Black's, each Q, R, B, N;
/// identical pieces in increasing squares when built by
/// [`from_position`](Self::from_position)). A captured piece keeps its
/// slot, marked dead, so that [`Game::unmake`] restores it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Piece number (`colour × 6 + role`) per slot.
    piece: [u8; MAX_PIECES],
    /// Square per slot.
    square: [u8; MAX_PIECES],
    /// Slots in use.
    len: u8,
    /// One bit per slot whose piece is on the board.
    alive: u8,
    /// `0` White to move, `1` Black.
    side: u8,
    /// Occupancy by colour.
    by_color: [u64; 2],
}

/// A move of a [`Placement`]: which slot moves, from where, to where.
/// Printed in UCI notation (`a1b2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacementMove {
    slot: u8,
    from: u8,
    to: u8,
}

impl PlacementMove {
    /// The square the piece leaves, `0` (a1) to `63` (h8).
    #[must_use]
    pub fn from(self) -> usize {
        self.from as usize
    }

    /// The square the piece reaches.
    #[must_use]
    pub fn to(self) -> usize {
        self.to as usize
    }
}

fn square_name(sq: u8) -> [char; 2] {
    [char::from(b'a' + sq % 8), char::from(b'1' + sq / 8)]
}

impl fmt::Display for PlacementMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = square_name(self.from);
        let [c, d] = square_name(self.to);
        write!(f, "{a}{b}{c}{d}")
    }
}

/// No capture (the [`Game::Undo`] of a [`Placement`] is the captured slot
/// or this).
const NO_CAPTURE: u8 = u8::MAX;

/// The pieces of one colour by the way they attack.
#[derive(Clone, Copy, Default)]
struct Attackers {
    /// Bishops and queens.
    diagonal: u64,
    /// Rooks and queens.
    straight: u64,
    /// Knights.
    leap: u64,
    /// The king.
    king: u64,
}

impl Attackers {
    #[inline]
    fn add(&mut self, piece: usize, sq: usize) {
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
    fn without(self, sq: usize) -> Attackers {
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
    fn attacks(&self, occ: u64) -> u64 {
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
    fn sliders_at(&self, sq: usize, occ: u64) -> u64 {
        (sparse_bishop(sq, occ) & self.diagonal) | (sparse_rook(sq, occ) & self.straight)
    }

    /// Does one of these pieces attack `sq` with occupancy `occ`?
    #[inline]
    fn hit(&self, sq: usize, occ: u64) -> bool {
        if (KING[sq] & self.king) | (KNIGHT[sq] & self.leap) != 0 {
            return true;
        }
        (self.diagonal != 0 && sparse_bishop(sq, occ) & self.diagonal != 0)
            || (self.straight != 0 && sparse_rook(sq, occ) & self.straight != 0)
    }
}

/// What the legality of one side's moves depends on
/// ([`Placement::move_context`]).
struct MoveContext {
    /// The side to move.
    us: usize,
    /// Occupancy.
    occ: u64,
    /// Our king's square.
    king: usize,
    /// Is our king attacked?
    in_check: bool,
    /// The enemy's sliders.
    sliders: u64,
    /// Squares our king may not move to (only those next to it are read).
    danger: u64,
    /// The enemy pieces giving check.
    checkers: u64,
    /// In check, the squares where another piece's move answers it (the
    /// checker's, or between it and our king; none in double check).
    evasions: u64,
    /// The enemy's pieces.
    enemy: Attackers,
}

/// What the positions of a run of 64 indices (the last piece on each
/// square) share of the targets of the side to move's other non-king
/// pieces ([`FastEndgame`]'s first pass).
#[derive(Clone, Copy)]
struct Shared {
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
    const NONE: Shared = Shared {
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
    fn legal(&self, p: &Placement, c: &MoveContext, slot: usize) -> u64 {
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

impl MoveContext {
    /// In check from `checkers`, the squares where a piece other than the
    /// king answers it: one checker, take it or block its line; two, none
    /// (only the king moves); not in check, none.
    #[inline]
    fn evasions(king: usize, checkers: u64) -> u64 {
        if checkers != 0 && checkers & (checkers - 1) == 0 {
            checkers | tables().between(king, checkers.trailing_zeros() as usize)
        } else {
            0
        }
    }
}

/// Light squares (a1 is dark).
const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;

impl Placement {
    /// The placement of a pawnless position without castling rights and with
    /// at most [`MAX_PIECES`] pieces (one king each), or `None`.
    /// The en-passant square, counters and history are dropped.
    #[must_use]
    pub fn from_position(position: &Position) -> Option<Placement> {
        if position.by_role[PAWN_R] != 0
            || position.castling != 0
            || position.piece_count() as usize > MAX_PIECES
        {
            return None;
        }
        let mut p = Placement {
            piece: [0; MAX_PIECES],
            square: [0; MAX_PIECES],
            len: 0,
            alive: 0,
            side: position.side.index() as u8,
            by_color: position.by_color,
        };
        for color in 0..2 {
            if position.pieces(color, KING_R).count_ones() != 1 {
                return None;
            }
            p.push(color * 6 + KING_R, position.king_sq(color));
        }
        for color in 0..2 {
            for role in [QUEEN_R, ROOK_R, BISHOP_R, KNIGHT_R] {
                let mut bb = position.pieces(color, role);
                while bb != 0 {
                    p.push(color * 6 + role, bb.trailing_zeros() as usize);
                    bb &= bb - 1;
                }
            }
        }
        Some(p)
    }

    fn push(&mut self, piece: usize, sq: usize) {
        let slot = self.len as usize;
        self.piece[slot] = piece as u8;
        self.square[slot] = sq as u8;
        self.alive |= 1 << slot;
        self.len += 1;
    }

    /// The same position as a full [`Position`] (counters zero, no history).
    #[must_use]
    pub fn to_position(&self) -> Position {
        let mut p = Position::empty();
        for slot in self.live_slots() {
            p.put(self.square[slot] as usize, self.piece[slot] as usize);
        }
        p.side = if self.side == 0 {
            Color::White
        } else {
            Color::Black
        };
        p.hash = p.compute_hash();
        p
    }

    /// The same position with the colours exchanged: every piece changes
    /// colour and moves to the mirror square across the middle of the board
    /// (a1 ↔ a8), and the other side is to move. Its value for the side to
    /// move is the same, so a `KvKR` position is probed in a `KRvK` table.
    /// The captured pieces are dropped and the slots put back in signature
    /// order.
    #[must_use]
    pub fn flipped(&self) -> Placement {
        let mut p = Placement {
            piece: [0; MAX_PIECES],
            square: [0; MAX_PIECES],
            len: 0,
            alive: 0,
            side: self.side ^ 1,
            by_color: [self.by_color[1].swap_bytes(), self.by_color[0].swap_bytes()],
        };
        for color in 0..2 {
            p.push(color * 6 + KING_R, self.square[color ^ 1] as usize ^ 56);
        }
        for color in 0..2 {
            for role in [QUEEN_R, ROOK_R, BISHOP_R, KNIGHT_R] {
                let old = (color ^ 1) * 6 + role;
                let mut squares: ArrayVec<usize, MAX_PIECES> = self
                    .live_slots()
                    .filter(|&s| self.piece[s] as usize == old)
                    .map(|s| self.square[s] as usize ^ 56)
                    .collect();
                squares.sort_unstable();
                for sq in squares {
                    p.push(color * 6 + role, sq);
                }
            }
        }
        p
    }

    /// A key of the material on the board: two placements have the same
    /// key exactly when they have the same number of pieces of each colour
    /// and kind (the side to move and the squares do not count). A
    /// [`FastEndgame`]'s [`material`](FastEndgame::material) is the key of
    /// its placements, so a resolver holding several tables can pick the
    /// one a capture leads to without trying each table's index.
    ///
    /// ```
    /// use gametree_game::IndexSpace;
    /// use gametree_games_chess::{FastEndgame, Placement, Position};
    ///
    /// let krk = FastEndgame::new("KRvK").unwrap();
    /// let position = Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1").unwrap();
    /// let p = Placement::from_position(&position).unwrap();
    /// assert_eq!(p.material(), krk.material());
    /// assert!(krk.index_of(&p).is_some());
    /// // The colours exchanged: KvKR, another key.
    /// assert_ne!(p.flipped().material(), krk.material());
    /// ```
    #[must_use]
    pub fn material(&self) -> u64 {
        let mut key = 0u64;
        let mut alive = self.alive;
        while alive != 0 {
            let slot = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            // Four bits per piece number (at most MAX_PIECES of each).
            key += 1u64 << (4 * u32::from(self.piece[slot]));
        }
        key
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        if self.side == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The pieces on the board as `(piece number colour × 6 + role, square)`,
    /// kings first.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.live_slots()
            .map(|s| (self.piece[s] as usize, self.square[s] as usize))
    }

    #[inline]
    fn live_slots(&self) -> impl Iterator<Item = usize> + use<> {
        let mut alive = self.alive;
        core::iter::from_fn(move || {
            (alive != 0).then(|| {
                let s = alive.trailing_zeros() as usize;
                alive &= alive - 1;
                s
            })
        })
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The pieces of `color` by the way they attack.
    #[inline]
    fn attackers(&self, color: usize) -> Attackers {
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
    fn both_attackers(&self) -> [Attackers; 2] {
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
    fn king_attacked(&self, color: usize) -> bool {
        self.attackers(color ^ 1)
            .hit(self.square[color] as usize, self.occupied())
    }

    /// Squares a piece on `from` reaches given the occupancy (captures of
    /// either colour included).
    #[inline(always)]
    fn reach(piece: usize, from: usize, occ: u64) -> u64 {
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
    fn move_context(&self) -> MoveContext {
        self.move_context_from(self.attackers(self.side as usize ^ 1))
    }

    /// [`move_context`](Self::move_context) given the enemy's pieces.
    #[inline]
    fn move_context_from(&self, enemy: Attackers) -> MoveContext {
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
    fn has_legal_move(&self) -> bool {
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
    fn checks_from(&self, enemy: Attackers) -> MoveContext {
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
    fn legal_targets(&self, c: &MoveContext, slot: usize) -> u64 {
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
    fn pinned(c: &MoveContext, from: usize, line: u64) -> bool {
        line & c.sliders != 0
            && c.enemy.sliders_at(c.king, c.occ & !(1u64 << from)) & !c.checkers != 0
    }

    /// The legal part of `targets` of a piece other than the king, on `line`
    /// with its king: a pinned piece must stay on the line (between the
    /// king and the pinner, or taking it), which never answers a check from
    /// another line.
    #[inline]
    fn restrict(c: &MoveContext, targets: u64, line: u64, pinned: bool) -> u64 {
        match (c.in_check, pinned) {
            (false, false) => targets,
            (false, true) => targets & line,
            (true, false) => targets & c.evasions,
            (true, true) => 0,
        }
    }

    /// Calls `each` with every legal move until it returns `false`.
    #[inline]
    fn for_each_legal(&self, mut each: impl FnMut(PlacementMove) -> bool) {
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
    fn capture_at(&mut self, color: usize, sq: usize) -> u8 {
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
    fn insufficient_material(&self) -> bool {
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

impl fmt::Display for Placement {
    /// The position in FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_position(), f)
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Placement(\"{self}\")")
    }
}

impl Game for Placement {
    type Move = PlacementMove;
    /// The captured slot, or `u8::MAX`.
    type Undo = u8;
    type Moves = ArrayVec<PlacementMove, 256>;

    fn side_to_move(&self) -> Player {
        if self.side == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        self.for_each_legal(|m| {
            out.push(m);
            true
        });
    }

    #[inline]
    fn make(&mut self, m: PlacementMove) -> u8 {
        let us = self.side as usize;
        let them = us ^ 1;
        let captured = if self.by_color[them] & (1u64 << m.to) != 0 {
            self.capture_at(them, m.to as usize)
        } else {
            NO_CAPTURE
        };
        self.square[m.slot as usize] = m.to;
        self.by_color[us] ^= (1u64 << m.from) | (1u64 << m.to);
        self.side ^= 1;
        captured
    }

    #[inline]
    fn unmake(&mut self, m: PlacementMove, captured: u8) {
        self.side ^= 1;
        let us = self.side as usize;
        self.square[m.slot as usize] = m.from;
        self.by_color[us] ^= (1u64 << m.from) | (1u64 << m.to);
        if captured != NO_CAPTURE {
            self.alive |= 1 << captured;
            self.by_color[us ^ 1] |= 1u64 << m.to;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.king_attacked(self.side as usize) {
                Outcome::Loss
            } else {
                Outcome::Draw
            });
        }
        self.insufficient_material().then_some(Outcome::Draw)
    }

    /// A hash of the pieces and the side to move (recomputed each time;
    /// retrograde analysis does not use it).
    fn hash(&self) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(self.side);
        for (piece, sq) in self.pieces() {
            h ^= ((piece as u64) << 6 | sq as u64).wrapping_add(0x632B_E59B_D9B4_E019);
            h = h.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        }
        h
    }

    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
}

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
        let (side, kings) = if upper >= crate::KING_PLACEMENTS {
            (1, upper - crate::KING_PLACEMENTS)
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
    /// The un-moves of [`Predecessors::predecessors`], numbered from the
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

impl FastEndgame {
    /// [`IndexMoves::predecessor_block_filtered`]: an un-move whose
    /// predecessors share one block (all but those numbered member by
    /// member through the canonical index) reports only the members whose
    /// predecessor `wanted` has.
    #[inline(always)]
    fn block_predecessors(
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
    fn reflected_one_apart(&self, p: &Placement, map: &[u8; 64], members: u64) -> u64 {
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

impl FastEndgame {
    /// [`IndexMoves::predecessor_block`] as the trait provides it: each
    /// member through [`IndexMoves::predecessor_indices`].
    fn predecessors_one_by_one(&self, first: u64, members: u64, mut found: impl FnMut(u64, u64)) {
        let mut rest = members;
        while rest != 0 {
            let index = first + u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            self.predecessor_indices(index, |j| found(index, j));
        }
    }
}

impl FastEndgame {
    /// [`successor_counts`](IndexMoves::successor_counts) of the 64 indices
    /// from `first` (a multiple of 64 below the size; at least one non-king
    /// piece).
    #[inline]
    fn count_run(&self, first: u64, report: &mut impl FnMut(u64, Counted<'_, Placement>)) {
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
    fn count_valid(
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

#[cfg(test)]
mod tests {
    use gametree_game::{Counted, Game, IndexMoves, IndexSpace, Predecessors};

    use super::*;

    /// The side to move and the sorted `(piece, square)` list.
    type Material = (Color, Vec<(usize, usize)>);

    fn sorted_pieces(p: &Placement) -> Material {
        let mut v: Vec<_> = p.pieces().collect();
        v.sort_unstable();
        (p.turn(), v)
    }

    /// Everything a retrograde build asks of the two spaces agrees at
    /// `index`: validity, the position, its outcome, its moves (and the
    /// position and index each leads to) and its predecessors.
    fn agree_at(fast: &FastEndgame, index: u64) -> bool {
        let slow = fast.endgame();
        let (Some(p), Some(q)) = (slow.position(index), fast.position(index)) else {
            assert_eq!(
                slow.position(index).is_none(),
                fast.position(index).is_none()
            );
            return false;
        };
        assert_eq!(Placement::from_position(&p), Some(q), "{index}");
        assert_eq!(fast.index_of(&q), Some(index));
        assert_eq!(p.outcome(), q.outcome(), "{p}");
        let mut slow_moves: Vec<(String, Option<u64>, Material)> = Vec::new();
        let mut moves = <Position as Game>::Moves::default();
        p.generate(&mut moves);
        let mut child = p.clone();
        for &m in moves.as_slice() {
            let undo = child.make(m);
            let placement = Placement::from_position(&child).unwrap();
            slow_moves.push((
                m.to_string(),
                slow.index_of(&child),
                sorted_pieces(&placement),
            ));
            child.unmake(m, undo);
        }
        let mut fast_moves = Vec::new();
        let mut buffer = <Placement as Game>::Moves::default();
        q.generate(&mut buffer);
        let mut r = q;
        for &m in buffer.as_slice() {
            let undo = r.make(m);
            fast_moves.push((m.to_string(), fast.index_of(&r), sorted_pieces(&r)));
            r.unmake(m, undo);
            assert_eq!(r, q);
        }
        slow_moves.sort();
        fast_moves.sort();
        assert_eq!(slow_moves, fast_moves, "{p}");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        slow.predecessors(&p, &mut |i| a.push(i));
        fast.predecessors(&q, &mut |i| b.push(i));
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{p}");
        true
    }

    /// [`IndexMoves`] at `index` reports exactly what the position-level
    /// methods imply: validity, outcome, the distinct successor indices
    /// (each once), the successors outside the space (one per move) and the
    /// distinct predecessor indices (each once). Returns validity.
    fn index_moves_agree_at(fast: &FastEndgame, index: u64) -> bool {
        let (mut inside, mut exits) = (Vec::new(), Vec::new());
        let outcome = fast.successor_indices(index, |j| inside.push(j), |c| exits.push(*c));
        let Some(p) = fast.position(index) else {
            assert_eq!(outcome, None, "{index}");
            assert_eq!(fast.successor_count(index, |_| {}), None);
            assert!(inside.is_empty() && exits.is_empty());
            return false;
        };
        let mut preds = Vec::new();
        fast.predecessor_indices(index, |j| preds.push(j));
        assert_eq!(outcome, Some(p.outcome()), "{p}");
        let mut counted_exits = 0;
        assert_eq!(
            fast.successor_count(index, |_| counted_exits += 1),
            Some((p.outcome(), inside.len())),
            "{p}"
        );
        assert_eq!(counted_exits, exits.len());
        let (mut want_inside, mut want_exits) = (Vec::new(), Vec::new());
        if p.outcome().is_none() {
            let mut moves = <Placement as Game>::Moves::default();
            p.generate(&mut moves);
            let mut r = p;
            for &m in moves.as_slice() {
                let undo = r.make(m);
                match fast.index_of(&r) {
                    Some(j) => want_inside.push(j),
                    None => want_exits.push(sorted_pieces(&r)),
                }
                r.unmake(m, undo);
            }
        }
        want_inside.sort_unstable();
        want_inside.dedup();
        inside.sort_unstable();
        assert_eq!(inside, want_inside, "{p}");
        let mut exits: Vec<Material> = exits.iter().map(sorted_pieces).collect();
        exits.sort();
        want_exits.sort();
        assert_eq!(exits, want_exits, "{p}");
        let mut want_preds = Vec::new();
        fast.predecessors(&p, &mut |j| want_preds.push(j));
        want_preds.sort_unstable();
        want_preds.dedup();
        preds.sort_unstable();
        assert_eq!(preds, want_preds, "{p}");
        true
    }

    #[test]
    fn index_moves_agree_with_the_position_moves_on_every_3_man_index() {
        for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ", "KvKN"] {
            let fast = FastEndgame::new(sig).unwrap();
            let valid = (0..fast.size())
                .filter(|&i| index_moves_agree_at(&fast, i))
                .count();
            assert!(valid > 20_000, "{sig}: {valid}");
        }
    }

    #[test]
    fn index_moves_agree_with_the_position_moves_on_sampled_4_and_5_man_indices() {
        for sig in [
            "KQvKR", "KBNvK", "KBBvK", "KNNvK", "KRRvK", "KRvKB", "KQvKQ", "KNvKN", "KQRvKR",
            "KBBvKN", "KRRvKR", "KQQQvK",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            // About 20,000 indices; an odd stride visits every square of
            // every piece.
            let stride = (fast.size() / 20_000) | 1;
            let valid = (0..fast.size())
                .step_by(stride as usize)
                .filter(|&i| index_moves_agree_at(&fast, i))
                .count();
            assert!(valid > 1_000, "{sig}: {valid}");
        }
    }

    /// One report of the first pass: an exit of an index, or its result.
    #[derive(Debug, PartialEq)]
    enum Report {
        Exit(u64, Placement),
        Done(u64, Option<(Option<Outcome>, usize)>),
    }

    /// What `successor_counts` reports over `range`, and what
    /// `successor_count` reports index by index.
    fn first_pass_reports(fast: &FastEndgame, range: core::ops::Range<u64>) -> [Vec<Report>; 2] {
        let mut runs = Vec::new();
        fast.successor_counts(range.clone(), |i, r| {
            runs.push(match r {
                Counted::Exit(child) => Report::Exit(i, *child),
                Counted::Done(c) => Report::Done(i, c),
            });
        });
        let mut single = Vec::new();
        for i in range {
            let c = fast.successor_count(i, |child| single.push(Report::Exit(i, *child)));
            single.push(Report::Done(i, c));
        }
        [runs, single]
    }

    /// Material keys tell the 2- to 4-man signatures (both colour orders)
    /// apart, and a capture's key is that of the spaces that index it.
    #[test]
    fn material_keys_pick_the_one_space_of_a_capture() {
        // Distinct signatures (either colour order) have distinct keys.
        let mut spaces: Vec<FastEndgame> = Vec::new();
        for men in 2..=4 {
            for sig in crate::pawnless_endings(men) {
                let space = FastEndgame::new(&sig.to_string()).unwrap();
                let flipped = sig
                    .to_string()
                    .split('v')
                    .rev()
                    .collect::<Vec<_>>()
                    .join("v");
                spaces.push(space);
                if flipped != sig.to_string() {
                    spaces.push(FastEndgame::new(&flipped).unwrap());
                }
            }
        }
        for (a, x) in spaces.iter().enumerate() {
            for y in &spaces[a + 1..] {
                assert_ne!(
                    x.material(),
                    y.material(),
                    "{:?} {:?}",
                    x.endgame().signature(),
                    y.endgame().signature()
                );
            }
        }
        // Every capture from sampled KQvKR and KRvKN positions has the key
        // of exactly the spaces that give it an index.
        let mut captures = 0;
        for sig in ["KQvKR", "KRvKN", "KBNvK"] {
            let fast = FastEndgame::new(sig).unwrap();
            for i in (0..fast.size()).step_by(997) {
                let Some(p) = fast.position(i) else { continue };
                assert_eq!(p.material(), fast.material());
                p.for_each_legal(|m| {
                    let mut child = p;
                    child.make(m);
                    if child.alive != p.alive {
                        captures += 1;
                        for space in &spaces {
                            assert_eq!(
                                space.material() == child.material(),
                                space.index_of(&child).is_some(),
                                "{child}"
                            );
                        }
                    }
                    true
                });
            }
        }
        assert!(captures > 1000, "{captures}");
    }

    /// `successor_counts` shares the decoding and the check test of 64
    /// indices: it reports exactly what `successor_count` does, index by
    /// index, on every index of the 3-man endings (also over ranges that
    /// start and end inside a run) and on sampled runs of 4- and 5-man
    /// endings (identical pieces, pieces of either side last).
    #[test]
    fn successor_counts_equal_successor_count_index_by_index() {
        let census = |reports: &[Report]| {
            let valid = reports
                .iter()
                .filter(|r| matches!(r, Report::Done(_, Some(_))))
                .count();
            let exits = reports
                .iter()
                .filter(|r| matches!(r, Report::Exit(..)))
                .count();
            (valid, exits)
        };
        for sig in ["KQvK", "KRvK", "KBvK", "KNvK"] {
            let fast = FastEndgame::new(sig).unwrap();
            for range in [0..fast.size(), 5..fast.size() - 3, 70..100] {
                let [runs, single] = first_pass_reports(&fast, range.clone());
                assert_eq!(runs, single, "{sig} {range:?}");
            }
            let [runs, _] = first_pass_reports(&fast, 0..fast.size());
            let (valid, exits) = census(&runs);
            // A lone minor piece draws: no moves are generated.
            let mating = sig == "KQvK" || sig == "KRvK";
            assert!(
                valid > 20_000 && (exits > 1_000) == mating,
                "{sig}: {valid} {exits}"
            );
        }
        for sig in [
            "KQvKR", "KRvKN", "KBNvK", "KBBvK", "KNNvK", "KQvKQ", "KRvKR", "KNvKB", "KQRvKR",
            "KBBvKN", "KRRvKR", "KRvKRB", "KQBvKQ",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            let runs = fast.size() / 64;
            // About 250 runs; an odd stride visits every square of every
            // piece but the last.
            let stride = (runs / 250) | 1;
            let (mut valid, mut exits) = (0, 0);
            for run in (0..runs).step_by(stride as usize) {
                let [a, b] = first_pass_reports(&fast, run * 64..run * 64 + 64);
                assert_eq!(a, b, "{sig} run {run}");
                let (v, e) = census(&a);
                valid += v;
                exits += e;
            }
            assert!(valid > 4_000 && exits > 100, "{sig}: {valid} {exits}");
        }
    }

    /// The king-move shortcuts of `successor_count` and
    /// `predecessor_indices` take a king's moves (un-moves) as distinct
    /// unless both kings stand on a1–h8, which needs the argument that two
    /// of them could only merge through a reflection keeping the other king
    /// and every other piece in place. Every valid index where such a
    /// reflection exists (a king on a long diagonal whose reflection maps
    /// the other pieces onto pieces of the same kind), and a sample of
    /// those with a king on a long diagonal without that symmetry, report
    /// exactly what the position-level moves imply.
    #[test]
    fn index_moves_agree_where_a_king_stands_on_a_long_diagonal() {
        let diagonal = |sq: u8| (sq % 8) * 8 + sq / 8;
        let anti = |sq: u8| (7 - sq % 8) * 8 + (7 - sq / 8);
        let symmetric = |p: &Placement, reflect: &dyn Fn(u8) -> u8| {
            let others: Vec<(u8, u8)> = p
                .pieces()
                .skip(2)
                .map(|(piece, sq)| (piece as u8, sq as u8))
                .collect();
            others
                .iter()
                .all(|&(piece, sq)| others.contains(&(piece, reflect(sq))))
        };
        for sig in ["KNNvK", "KBBvK", "KRvKR", "KQvKQ", "KNvKN"] {
            let fast = FastEndgame::new(sig).unwrap();
            let (mut mirrored, mut sampled) = (0, 0);
            for i in 0..fast.size() {
                let Some(p) = fast.position(i) else {
                    continue;
                };
                let kings = [p.square[0], p.square[1]];
                if kings.iter().any(|&k| {
                    (on_long_diagonal(k) && symmetric(&p, &diagonal))
                        || (k % 8 + k / 8 == 7 && symmetric(&p, &anti))
                }) {
                    mirrored += 1;
                    assert!(index_moves_agree_at(&fast, i));
                } else if i % 101 == 0 && kings.iter().any(|&k| on_a_long_diagonal(k)) {
                    sampled += 1;
                    assert!(index_moves_agree_at(&fast, i));
                }
            }
            assert!(
                mirrored > 5_000 && sampled > 5_000,
                "{sig}: {mirrored}, {sampled}"
            );
        }
    }

    /// `predecessor_block` on the block at `first` with `members` reports
    /// exactly the pairs `(member, predecessor)` that `predecessor_indices`
    /// reports member by member (as multisets), and
    /// `predecessor_block_filtered` all of those it is asked for. Returns the
    /// number of pairs.
    fn block_agrees(fast: &FastEndgame, first: u64, members: u64) -> usize {
        let mut got = Vec::new();
        fast.predecessor_block(first, members, |i, j| got.push((i, j)));
        let mut want = Vec::new();
        for k in (0..64).filter(|k| members >> k & 1 != 0) {
            let i = first + k;
            fast.predecessor_indices(i, |j| want.push((i, j)));
        }
        got.sort_unstable();
        want.sort_unstable();
        if got != want {
            let extra: Vec<_> = got.iter().filter(|x| !want.contains(x)).collect();
            let missing: Vec<_> = want.iter().filter(|x| !got.contains(x)).collect();
            panic!(
                "{}: block {first}, members {members:#018x}: {} pairs, {} expected; \
                 extra {extra:?}, missing {missing:?}",
                fast.endgame().signature(),
                got.len(),
                want.len()
            );
        }
        // `predecessor_block_filtered` with a pseudo-random wanted set
        // (about a quarter of each block): every wanted pair, and only
        // pairs `predecessor_block` reports.
        let wanted = |block: u64| {
            let h = (block ^ first).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h & h.rotate_left(29)
        };
        let is_wanted = |&(_, j): &(u64, u64)| wanted(j & !63) >> (j & 63) & 1 != 0;
        let mut filtered = Vec::new();
        fast.predecessor_block_filtered(first, members, wanted, |i, j| filtered.push((i, j)));
        filtered.sort_unstable();
        assert!(
            filtered.iter().all(|x| got.binary_search(x).is_ok()),
            "block {first}: a filtered pair predecessor_block does not report"
        );
        let kept: Vec<_> = got.iter().copied().filter(is_wanted).collect();
        let wanted_filtered: Vec<_> = filtered.iter().copied().filter(is_wanted).collect();
        assert_eq!(
            kept, wanted_filtered,
            "block {first}, members {members:#018x}"
        );
        got.len()
    }

    /// [`block_agrees`] on each of `blocks` (block numbers) with every
    /// valid index of the block as a member, with random halves and
    /// quarters of them, and with a single member. Returns the number of
    /// pairs compared.
    fn blocks_agree(fast: &FastEndgame, blocks: impl Iterator<Item = u64>) -> usize {
        // xorshift64, fixed seed.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut pairs = 0;
        for block in blocks {
            let first = block * 64;
            let valid = (0..64u64)
                .filter(|&k| fast.position(first + k).is_some())
                .fold(0u64, |m, k| m | 1 << k);
            if valid == 0 {
                continue;
            }
            let half = valid & random();
            let quarter = half & random();
            for members in [valid, half, quarter, valid & valid.wrapping_neg()] {
                pairs += block_agrees(fast, first, members);
            }
        }
        pairs
    }

    #[test]
    fn predecessor_blocks_agree_with_predecessor_indices_on_every_3_man_block() {
        for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ", "KvKR"] {
            let fast = FastEndgame::new(sig).unwrap();
            let pairs = blocks_agree(&fast, 0..fast.size() / 64);
            assert!(pairs > 100_000, "{sig}: {pairs}");
        }
    }

    #[test]
    fn predecessor_blocks_agree_with_predecessor_indices_on_sampled_4_and_5_man_blocks() {
        for sig in [
            "KRvKN", "KQvKR", "KBNvK", "KRRvK", "KBBvK", "KQvKQ", "KNvKB", "KRvKR", "KQRvKR",
            "KRRvKN", "KRvKNN",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            // About 1,500 blocks; an odd stride visits every placement of
            // the kings with both sides to move.
            let blocks = fast.size() / 64;
            let stride = (blocks / 1500) | 1;
            let pairs = blocks_agree(&fast, (0..blocks).step_by(stride as usize));
            assert!(pairs > 100_000, "{sig}: {pairs}");
        }
    }

    /// Blocks where the side to move's king stands on a long diagonal (and
    /// the kings not both on a1–h8): there a king un-move may keep the king
    /// placement through a reflection, and its result may be another
    /// piece's (the members `reflected_one_apart` picks).
    #[test]
    fn predecessor_blocks_agree_where_a_king_un_move_keeps_the_king_placement() {
        for sig in [
            "KQvKR", "KRvKN", "KBBvK", "KQvKQ", "KRRvKN", "KRvKNN", "KQRvKR", "KBNvKB", "KQvKRR",
            "KBvKQQ",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            let blocks = fast.size() / 64;
            let stride = (blocks / 40_000) | 1;
            let keeps = |&block: &u64| {
                let Some(p) = (0..64).find_map(|k| fast.decode(block * 64 + k)) else {
                    return false;
                };
                let target = p.square[p.side as usize];
                on_a_long_diagonal(target)
                    && !(on_long_diagonal(p.square[0]) && on_long_diagonal(p.square[1]))
            };
            let chosen = (0..blocks)
                .step_by(stride as usize)
                .filter(keeps)
                .take(1_200);
            let pairs = blocks_agree(&fast, chosen);
            assert!(pairs > 50_000, "{sig}: {pairs}");
        }
    }

    /// Positions where the king un-move that keeps the king placement
    /// gives the result of another piece's un-move: White's king came
    /// from a2 (reflected in a1–h8 to b1); the queen from the mirror of
    /// its square, and the rest of the pieces is symmetric — Black's two
    /// rooks mirror each other (`X` is one of them), or the rook stands on
    /// the diagonal.
    #[test]
    fn predecessor_blocks_agree_where_a_reflected_king_un_move_meets_another() {
        for (sig, fen) in [
            ("KQvKRR", "3r4/6k1/8/8/5Q1r/8/8/1K6 b - - 0 1"),
            ("KQvKR", "8/6k1/8/8/5Q2/2r5/8/1K6 b - - 0 1"),
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            let position: Position = fen.parse().unwrap();
            let p = Placement::from_position(&position).unwrap();
            let index = fast.index_of(&p).unwrap();
            let first = index & !63;
            let valid = (0..64u64)
                .filter(|&k| fast.position(first + k).is_some())
                .fold(0u64, |m, k| m | 1 << k);
            assert!(valid >> (index & 63) & 1 != 0, "{fen}");
            block_agrees(&fast, first, valid);
            block_agrees(
                &fast,
                first,
                1 << (index & 63) | valid & valid.wrapping_neg(),
            );
        }
    }

    #[test]
    fn fast_space_agrees_with_the_position_space_on_every_3_man_index() {
        for sig in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ"] {
            let fast = FastEndgame::new(sig).unwrap();
            let valid = (0..fast.size()).filter(|&i| agree_at(&fast, i)).count();
            assert!(valid > 20_000, "{sig}: {valid}");
        }
    }

    #[test]
    fn fast_space_agrees_with_the_position_space_on_sampled_4_and_5_man_indices() {
        for sig in [
            "KQvKR", "KBNvK", "KBBvK", "KNNvK", "KRvKB", "KQvKQ", "KQRvKR", "KBBvKN",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            // About 4,000 indices; an odd stride (prime to 64) visits every
            // square of every piece.
            let stride = (fast.size() / 4000) | 1;
            let valid = (0..fast.size())
                .step_by(stride as usize)
                .filter(|&i| agree_at(&fast, i))
                .count();
            assert!(valid > 500, "{sig}: {valid}");
        }
    }

    /// The legal moves of a placement are the position's, on many sampled
    /// positions of endings with pins, checks and double checks (sliders on
    /// both sides), most of them in check or with a pinned piece.
    #[test]
    fn legal_moves_equal_the_position_moves_with_pins_and_checks() {
        let (mut checked, mut pinned) = (0, 0);
        for sig in [
            "KQvKR", "KRvKR", "KQvKQ", "KBvKR", "KQRvKR", "KRBvKQ", "KQBvKR",
        ] {
            let fast = FastEndgame::new(sig).unwrap();
            let stride = (fast.size() / 40_000) | 1;
            for i in (0..fast.size()).step_by(stride as usize) {
                let Some(q) = fast.position(i) else { continue };
                let p = q.to_position();
                let mut want: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
                let mut moves = <Placement as Game>::Moves::default();
                q.generate(&mut moves);
                let mut got: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{p}");
                let c = q.move_context();
                checked += usize::from(c.in_check);
                pinned += (2..q.len as usize)
                    .filter(|&s| {
                        q.piece[s] as usize / 6 == c.us
                            && c.enemy.sliders_at(c.king, c.occ & !(1u64 << q.square[s]))
                                & !c.checkers
                                != 0
                    })
                    .count();
            }
        }
        assert!(checked > 20_000 && pinned > 1_000, "{checked} {pinned}");
    }

    #[test]
    fn conversions_round_trip() {
        let p: Position = "8/8/3k4/8/2n5/8/1Q6/K6Q w - - 0 1".parse().unwrap();
        let q = Placement::from_position(&p).unwrap();
        assert_eq!(q.to_position().to_string(), p.to_string());
        assert_eq!(q.to_string(), p.to_string());
        assert_eq!(q.hash(), q.recompute_hash());
        let with_pawn: Position = "8/8/3k4/8/2p5/8/1Q6/K7 w - - 0 1".parse().unwrap();
        assert_eq!(Placement::from_position(&with_pawn), None);
        assert_eq!(FastEndgame::new("KQvKN").unwrap().index_of(&q), None);
        let flipped: Position = "k6q/1q6/8/2N5/8/3K4/8/8 b - - 0 1".parse().unwrap();
        assert_eq!(q.flipped(), Placement::from_position(&flipped).unwrap());
        assert_eq!(q.flipped().flipped(), q);
    }

    /// A position and its colour-flipped twin: valid in the flipped space,
    /// same outcome, same number of moves (every 7th KRvK index).
    #[test]
    fn flipping_preserves_moves_and_outcomes() {
        let krk = FastEndgame::new("KRvK").unwrap();
        let kkr = FastEndgame::new("KvKR").unwrap();
        for i in (0..krk.size()).step_by(7) {
            let Some(p) = krk.position(i) else { continue };
            let f = p.flipped();
            assert!(kkr.index_of(&f).and_then(|j| kkr.position(j)).is_some());
            assert_eq!(p.outcome(), f.outcome());
            let (mut a, mut b) = (<Placement as Game>::Moves::default(), Default::default());
            p.generate(&mut a);
            f.generate(&mut b);
            assert_eq!(a.len(), b.len());
        }
    }
}
