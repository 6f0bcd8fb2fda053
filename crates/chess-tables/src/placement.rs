//! A pawnless position as a short list of pieces ([`Placement`]), a
//! [`Game`] with no history, counters or hash to maintain, which
//! [`FastEndgame`] numbers as [`Endgame`] numbers positions, for building
//! endgame databases quickly. Its move generation is in `legal.rs`.
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
//! use gametree_chess_tables::{Endgame, FastEndgame, Placement};
//! use gametree_games_chess::Position;
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
use gametree_game::{Game, Outcome, Player};
use gametree_games_chess::{Color, Position};

use crate::{BISHOP_R, KING_R, KNIGHT_R, MAX_PIECES, QUEEN_R, ROOK_R, piece, square};
#[cfg(doc)]
use crate::{Endgame, FastEndgame};

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
    pub(crate) piece: [u8; MAX_PIECES],
    /// Square per slot.
    pub(crate) square: [u8; MAX_PIECES],
    /// Slots in use.
    pub(crate) len: u8,
    /// One bit per slot whose piece is on the board.
    pub(crate) alive: u8,
    /// `0` White to move, `1` Black.
    pub(crate) side: u8,
    /// Occupancy by colour.
    pub(crate) by_color: [u64; 2],
}

/// A move of a [`Placement`]: which slot moves, from where, to where.
/// Printed in UCI notation (`a1b2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacementMove {
    pub(crate) slot: u8,
    pub(crate) from: u8,
    pub(crate) to: u8,
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
pub(crate) const NO_CAPTURE: u8 = u8::MAX;

impl Placement {
    /// The placement of a pawnless position without castling rights and with
    /// at most [`MAX_PIECES`] pieces (one king each), or `None`.
    /// The en-passant square, counters and history are dropped.
    #[must_use]
    pub fn from_position(position: &Position) -> Option<Placement> {
        let count = |n: usize| position.piece_squares(piece(n)).count_ones();
        if count(crate::PAWN_R) + count(6 + crate::PAWN_R) != 0
            || position.castling_rights() != 0
            || position.piece_count() as usize > MAX_PIECES
        {
            return None;
        }
        let mut p = Placement {
            piece: [0; MAX_PIECES],
            square: [0; MAX_PIECES],
            len: 0,
            alive: 0,
            side: position.turn().index() as u8,
            by_color: [
                position.color_squares(Color::White),
                position.color_squares(Color::Black),
            ],
        };
        for color in 0..2 {
            let king = position.piece_squares(piece(color * 6 + KING_R));
            if king.count_ones() != 1 {
                return None;
            }
            p.push(color * 6 + KING_R, king.trailing_zeros() as usize);
        }
        for color in 0..2 {
            for role in [QUEEN_R, ROOK_R, BISHOP_R, KNIGHT_R] {
                let mut bb = position.piece_squares(piece(color * 6 + role));
                while bb != 0 {
                    p.push(color * 6 + role, bb.trailing_zeros() as usize);
                    bb &= bb - 1;
                }
            }
        }
        Some(p)
    }

    pub(crate) fn push(&mut self, piece: usize, sq: usize) {
        let slot = self.len as usize;
        self.piece[slot] = piece as u8;
        self.square[slot] = sq as u8;
        self.alive |= 1 << slot;
        self.len += 1;
    }

    /// The same position as a full [`Position`] (counters zero, no
    /// history); `None` when the pieces are not a legal position, which
    /// never happens to a placement made by this crate (from a position,
    /// an index, by moves or by [`flipped`](Self::flipped)).
    #[must_use]
    pub fn to_position(&self) -> Option<Position> {
        let pieces = self
            .live_slots()
            .map(|s| (square(self.square[s].into()), piece(self.piece[s].into())));
        Position::from_pieces(self.turn(), pieces).ok()
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
    /// use gametree_chess_tables::{FastEndgame, Placement};
    /// use gametree_games_chess::Position;
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
    pub(crate) fn live_slots(&self) -> impl Iterator<Item = usize> + use<> {
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
    pub(crate) fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }
}

impl fmt::Display for Placement {
    /// The position in FEN (no castling rights or en-passant square, the
    /// counters `0 1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut board = [None; 64];
        for (p, sq) in self.pieces() {
            board[sq] = Some(piece(p).char());
        }
        for rank in (0..8).rev() {
            let mut gap = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if gap > 0 {
                            write!(f, "{gap}")?;
                            gap = 0;
                        }
                        write!(f, "{c}")?;
                    }
                    None => gap += 1,
                }
            }
            if gap > 0 {
                write!(f, "{gap}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = if self.side == 0 { 'w' } else { 'b' };
        write!(f, " {side} - - 0 1")
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
