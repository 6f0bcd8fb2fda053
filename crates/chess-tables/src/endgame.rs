//! A perfect index per pawnless material signature with the board's
//! 8-fold symmetry ([`Endgame`], implementing
//! [`gametree_game::IndexSpace`] and [`gametree_game::Predecessors`] over
//! full [`Position`]s).
//!
//! # The index
//!
//! Without pawns (and without castling rights), the 8 symmetries of the
//! square (4 rotations, 4 reflections) preserve the rules, so one position
//! stands for up to 8. The white king is brought into the triangle
//! a1–d1–d4 (10 squares); when it stands on the diagonal a1–d4, the black
//! king is brought on or below the diagonal a1–h8. Excluding equal and
//! adjacent squares, that leaves exactly **462** king placements (the
//! textbook's exercise; the tests count the classes by brute force over all
//! 64 × 64 placements too). The other pieces take 64 squares each, and the
//! side to move doubles the space:
//!
//! `size = 2 × 462 × 64^(n − 2)` for `n` pieces: **59,136** for 3 pieces,
//! **3,784,704** for 4, **242,221,056** for 5 and **15,502,147,584** for 6
//! (`KQRvKQ`, `KRRvKR`, ...); a 6-piece table of one byte per index would
//! take 14.4 GiB (a tighter index would also drop the squares the kings
//! and the other pieces occupy: 2 × 462 × 62 × 61 × 60 × 59 =
//! 12,370,770,720 for 6 pieces).
//!
//! `index = ((side × 462 + kings) × 64 + square₁) × 64 + ... + squareₙ₋₂`,
//! the other pieces in the signature's order (White's, then Black's, each
//! Q, R, B, N).
//!
//! An index is *valid* when it is the canonical form of a legal position:
//! no two pieces on one square, identical pieces on increasing squares,
//! the side not to move not in check, and — when both kings stand on the
//! diagonal a1–h8, whose reflection keeps them in place — the smaller of the
//! two reflected indices. [`IndexSpace::position`] returns `None` for the
//! others, and `index_of(position(i)) == i` for every valid `i` (tested for
//! every index of KQvK and KRvK).
//!
//! ```
//! use gametree_game::IndexSpace;
//! use gametree_chess_tables::Endgame;
//! use gametree_games_chess::Position;
//!
//! let kqk = Endgame::new("KQvK")?;
//! assert_eq!(kqk.size(), 2 * 462 * 64);
//! let p: Position = "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1".parse()?;
//! let i = kqk.index_of(&p).unwrap();
//! let canonical = kqk.position(i).unwrap();
//! assert_eq!(kqk.index_of(&canonical), Some(i));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use arrayvec::ArrayVec;
use gametree_game::{IndexSpace, Predecessors};
use gametree_games_chess::attacks::{KING, KNIGHT, tables};
use gametree_games_chess::{Color, Piece, Position, Role, Square};

use crate::symmetry::{KING_PLACEMENTS, canonical_index, identical_runs, king_pair};
use crate::{MAX_PIECES, Signature, SignatureError, piece, square};

/// The positions of one pawnless material signature, numbered with the
/// 8-fold symmetry: an [`IndexSpace`] and [`Predecessors`] for the
/// retrograde crate. Positions have no castling rights and no en-passant
/// square; counters and history are ignored by [`index_of`](IndexSpace::index_of)
/// and zero in [`position`](IndexSpace::position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endgame {
    signature: Signature,
    /// Piece numbers (`colour × 6 + role`) of the non-king pieces, in index order.
    pieces: ArrayVec<usize, MAX_PIECES>,
    /// Runs of identical pieces in `pieces`, as `(start, end)`.
    runs: ArrayVec<(u8, u8), MAX_PIECES>,
    size: u64,
}

impl Endgame {
    /// The index space of a signature such as `"KQvKR"`.
    ///
    /// # Errors
    ///
    /// A [`SignatureError`] when the text is not a pawnless signature with
    /// at most [`MAX_PIECES`] pieces.
    pub fn new(signature: &str) -> Result<Endgame, SignatureError> {
        let signature: Signature = signature.parse()?;
        if let Some(color) = signature.first_pawn_color() {
            return Err(SignatureError::Pawn(color));
        }
        Ok(Endgame::from_signature(signature))
    }

    /// The index space of a parsed pawnless signature.
    ///
    /// # Panics
    ///
    /// When the signature has a pawn (see
    /// [`PawnEndgame`](crate::PawnEndgame) for those).
    #[must_use]
    pub fn from_signature(signature: Signature) -> Endgame {
        assert!(
            !signature.has_pawns(),
            "{signature}: Endgame numbers pawnless endings (PawnEndgame numbers the others)"
        );
        let pieces: ArrayVec<usize, MAX_PIECES> = signature.pieces().map(Piece::index).collect();
        let size = 2 * KING_PLACEMENTS as u64 * 64u64.pow(pieces.len() as u32);
        Endgame {
            signature,
            runs: identical_runs(&pieces),
            pieces,
            size,
        }
    }

    /// The material signature.
    #[must_use]
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The non-king piece numbers (`colour × 6 + role`), in index order.
    pub(crate) fn piece_numbers(&self) -> &[usize] {
        &self.pieces
    }

    /// The canonical index of a placement (see [`canonical_index`]).
    #[inline]
    pub(crate) fn canonical(
        &self,
        side: usize,
        wk: usize,
        bk: usize,
        squares: &[u8],
    ) -> Option<u64> {
        canonical_index(&self.runs, side, wk, bk, squares)
    }
}

/// The colour with index `side` (0 White).
fn color(side: usize) -> Color {
    if side == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The square of the king of `color`.
fn king_square(position: &Position, color: Color) -> usize {
    let king = Piece {
        color,
        role: Role::King,
    };
    position.piece_squares(king).trailing_zeros() as usize
}

impl IndexSpace for Endgame {
    type Game = Position;

    fn size(&self) -> u64 {
        self.size
    }

    fn position(&self, index: u64) -> Option<Position> {
        if index >= self.size {
            return None;
        }
        let n = self.pieces.len();
        let mut squares: ArrayVec<u8, MAX_PIECES> = ArrayVec::new();
        let mut rest = index;
        for _ in 0..n {
            squares.push((rest % 64) as u8);
            rest /= 64;
        }
        squares.reverse();
        let kings = (rest % KING_PLACEMENTS as u64) as usize;
        let side = (rest / KING_PLACEMENTS as u64) as usize;
        let (wk, bk) = king_pair(kings)?;
        for i in 1..n {
            if self.pieces[i] == self.pieces[i - 1] && squares[i - 1] > squares[i] {
                return None;
            }
        }
        // Only two kings both on the long diagonal leave a symmetry that
        // keeps them in place; then the smaller reflection is canonical.
        if wk % 8 == wk / 8
            && bk % 8 == bk / 8
            && self.canonical(side, wk, bk, &squares) != Some(index)
        {
            return None;
        }
        // Two pieces on one square, or the side not to move in check: no
        // position.
        let kings = [(wk, crate::WHITE_KING), (bk, crate::BLACK_KING)];
        let others = squares
            .iter()
            .map(|&s| usize::from(s))
            .zip(self.pieces.iter().copied());
        let pieces = kings
            .into_iter()
            .chain(others)
            .map(|(s, p)| (square(s), piece(p)));
        Position::from_pieces(color(side), pieces).ok()
    }

    fn index_of(&self, position: &Position) -> Option<u64> {
        if position.castling_rights() != 0
            || Signature::of(position).as_ref() != Some(&self.signature)
        {
            return None;
        }
        let mut squares: ArrayVec<u8, MAX_PIECES> = ArrayVec::new();
        let mut last = usize::MAX;
        let mut from = 0u64;
        for &number in &self.pieces {
            if number != last {
                from = position.piece_squares(piece(number));
                last = number;
            }
            squares.push(from.trailing_zeros() as u8);
            from &= from - 1;
        }
        self.canonical(
            position.turn().index(),
            king_square(position, Color::White),
            king_square(position, Color::Black),
            &squares,
        )
    }
}

/// The pieces of a position (at most [`MAX_PIECES`]) as a list, by piece
/// number then square.
pub(crate) fn piece_list(position: &Position) -> ArrayVec<(Square, Piece), MAX_PIECES> {
    let mut pieces = ArrayVec::new();
    for number in 0..12 {
        let mut bb = position.piece_squares(piece(number));
        while bb != 0 && !pieces.is_full() {
            pieces.push((square(bb.trailing_zeros() as usize), piece(number)));
            bb &= bb - 1;
        }
    }
    pieces
}

/// The squares a piece of kind `role` on `to` attacks over `occ`: those
/// it may have come from (occupied ones included; pawns none).
pub(crate) fn piece_origins(
    t: &gametree_games_chess::attacks::Tables,
    role: Role,
    to: usize,
    occ: u64,
) -> u64 {
    match role {
        Role::Knight => KNIGHT[to],
        Role::Bishop => t.bishop(to, occ),
        Role::Rook => t.rook(to, occ),
        Role::Queen => t.bishop(to, occ) | t.rook(to, occ),
        Role::King => KING[to],
        Role::Pawn => 0,
    }
}

impl Predecessors for Endgame {
    /// Un-moves every piece of the side that just moved to each empty square
    /// it could have come from (no un-captures, no un-promotions: pawnless),
    /// keeping the positions where the side to move now was not in check.
    fn predecessors(&self, position: &Position, found: &mut dyn FnMut(u64)) {
        if self.index_of(position).is_none() {
            return;
        }
        // The pieces as a list, each un-move set up as a new position.
        let mut pieces = piece_list(position);
        let turn = position.turn();
        if Position::from_pieces(turn, pieces.iter().copied()).is_err() {
            // The side not to move is in check.
            return;
        }
        let t = tables();
        let mover = turn.opponent();
        let occ = position.color_squares(Color::White) | position.color_squares(Color::Black);
        for k in 0..pieces.len() {
            let (at, p) = pieces[k];
            if p.color != mover {
                continue;
            }
            let to = at.index();
            let origins = piece_origins(t, p.role, to, occ) & !occ;
            let mut o = origins;
            while o != 0 {
                let from = o.trailing_zeros() as usize;
                o &= o - 1;
                pieces[k].0 = square(from);
                // In the predecessor, the side that is now to move must not
                // have been in check (it was not to move there):
                // `from_pieces` refuses that.
                if let Ok(q) = Position::from_pieces(mover, pieces.iter().copied())
                    && let Some(i) = self.index_of(&q)
                {
                    found(i);
                }
            }
            pieces[k].0 = at;
        }
    }
}
