//! [`Position`]: the board, make/unmake, hashing and draw rules.

use core::fmt;
use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::{Extra, ZobristTable};

use crate::attacks::{Bitboard, KING, KNIGHT, PAWN, tables};
use crate::movegen::{AnySink, CountSink, ListSink};
use crate::mv::{Move, UciError, UciErrorKind};
use crate::types::{Color, Piece, Square};

pub(crate) const EMPTY: u8 = 12;
pub(crate) const NO_EP: u8 = 64;
pub(crate) const PAWN_R: usize = 0;
pub(crate) const KNIGHT_R: usize = 1;
pub(crate) const BISHOP_R: usize = 2;
pub(crate) const ROOK_R: usize = 3;
pub(crate) const QUEEN_R: usize = 4;
pub(crate) const KING_R: usize = 5;

/// Castling right bits: White king side, White queen side, Black king side,
/// Black queen side.
pub(crate) const WK: u8 = 1;
pub(crate) const WQ: u8 = 2;
pub(crate) const BK: u8 = 4;
pub(crate) const BQ: u8 = 8;

/// Rights kept when a move touches a square (as origin or destination).
const CASTLE_KEEP: [u8; 64] = {
    let mut t = [15u8; 64];
    t[0] = 15 & !WQ;
    t[4] = 15 & !(WK | WQ);
    t[7] = 15 & !WK;
    t[56] = 15 & !BQ;
    t[60] = 15 & !(BK | BQ);
    t[63] = 15 & !BK;
    t
};

/// The Zobrist keys, drawn from the `zobrist` crate's table
/// `ZobristTable::with_extras(64, 12, [castling: 16, en passant file: 8])`
/// (piece number = `colour × 6 + role`) and copied into flat arrays.
pub(crate) struct Keys {
    pub(crate) piece: [[u64; 64]; 12],
    pub(crate) side: u64,
    pub(crate) castling: [u64; 16],
    pub(crate) ep: [u64; 8],
}

/// The `zobrist` table the chess keys come from. Part of the public
/// contract: hashes depend on it.
pub(crate) static ZOBRIST: LazyLock<ZobristTable> = LazyLock::new(|| {
    ZobristTable::with_extras(
        64,
        12,
        &[
            Extra {
                name: "castling",
                count: 16,
            },
            Extra {
                name: "en passant file",
                count: 8,
            },
        ],
    )
});

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let z = &*ZOBRIST;
    let mut piece = [[0u64; 64]; 12];
    for (p, row) in piece.iter_mut().enumerate() {
        for (sq, k) in row.iter_mut().enumerate() {
            *k = z.piece(sq, p);
        }
    }
    let mut castling = [0u64; 16];
    castling.copy_from_slice(z.extra(0));
    let mut ep = [0u64; 8];
    ep.copy_from_slice(z.extra(1));
    Keys {
        piece,
        side: z.side(),
        castling,
        ep,
    }
});

#[inline(always)]
pub(crate) fn keys() -> &'static Keys {
    &KEYS
}

/// A chess position with its game history (the hashes of the positions
/// before each move, for threefold repetition).
///
/// Build one with [`Position::startpos`] or by parsing a FEN string
/// (`"...".parse::<Position>()`, [`Position::from_fen`]); print it as FEN
/// with [`Display`](fmt::Display). Play moves through [`gametree_game::Game`]
/// (`make`/`unmake`/`try_make`).
///
/// Equality compares the board, side to move, castling rights, en-passant
/// square, both counters **and** the history.
///
/// The en-passant square is kept only when an enemy pawn stands next to the
/// pawn that just moved two squares (so that positions that differ only by
/// an unusable en-passant square hash alike); FEN output then shows `-`.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) board: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    pub(crate) history: Vec<u64>,
}

/// What [`Game::unmake`] needs to take a move back: the captured piece, the
/// castling rights, the en-passant square, the half-move clock and the hash
/// before the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    castling: u8,
    ep: u8,
    halfmove: u16,
    hash: u64,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\", history: {})", self.history.len())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The initial position.
    #[must_use]
    pub fn startpos() -> Position {
        Position::from_fen(crate::STARTPOS).expect("the initial FEN is valid")
    }

    /// An empty board, White to move, no rights (internal builder).
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [0; 6],
            by_color: [0; 2],
            board: [EMPTY; 64],
            side: Color::White,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            history: Vec::new(),
        }
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: usize, piece: usize) {
        let b = 1u64 << sq;
        self.by_role[piece % 6] |= b;
        self.by_color[piece / 6] |= b;
        self.board[sq] = piece as u8;
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: usize, piece: usize) {
        let b = 1u64 << sq;
        self.by_role[piece % 6] ^= b;
        self.by_color[piece / 6] ^= b;
        self.board[sq] = EMPTY;
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        (p != EMPTY).then(|| Piece::from_index(p as usize))
    }

    /// The colour to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.side
    }

    /// Castling rights as FEN letters `KQkq` bits: 1 = K, 2 = Q, 4 = k, 8 = q.
    #[must_use]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant target square, when an en-passant capture may be possible.
    #[must_use]
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep != NO_EP).then(|| Square::new(self.ep))
    }

    /// Plies since the last capture or pawn move (fifty-move rule).
    #[must_use]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The FEN full-move number (starts at 1, grows after Black's move;
    /// wraps around after 65,535).
    #[must_use]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The hashes of the positions before each move made so far (oldest first).
    #[must_use]
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Forgets the game history (repetitions before this point no longer count).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The number of pieces on the board.
    #[must_use]
    pub fn piece_count(&self) -> u32 {
        (self.by_color[0] | self.by_color[1]).count_ones()
    }

    /// The squares holding `piece`, as a bitboard (bit `i` for square
    /// `i`, a1 = 0; see [`attacks`](crate::attacks)).
    #[inline]
    #[must_use]
    pub fn piece_squares(&self, piece: Piece) -> Bitboard {
        self.pieces(piece.color.index(), piece.role.index())
    }

    /// The squares holding a piece of `color`, as a bitboard.
    #[inline]
    #[must_use]
    pub fn color_squares(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub(crate) fn pieces(&self, color: usize, role: usize) -> Bitboard {
        self.by_color[color] & self.by_role[role]
    }

    #[inline(always)]
    pub(crate) fn king_sq(&self, color: usize) -> usize {
        self.pieces(color, KING_R).trailing_zeros() as usize
    }

    /// Pieces of either colour attacking `sq` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attackers_to(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let t = tables();
        let r = &self.by_role;
        (PAWN[0][sq] & self.pieces(1, PAWN_R))
            | (PAWN[1][sq] & self.pieces(0, PAWN_R))
            | (KNIGHT[sq] & r[KNIGHT_R])
            | (KING[sq] & r[KING_R])
            | (t.rook(sq, occ) & (r[ROOK_R] | r[QUEEN_R]))
            | (t.bishop(sq, occ) & (r[BISHOP_R] | r[QUEEN_R]))
    }

    /// Is the side to move in check?
    #[must_use]
    pub fn in_check(&self) -> bool {
        let us = self.side.index();
        self.attackers_to(self.king_sq(us), self.occupied()) & self.by_color[us ^ 1] != 0
    }

    /// Is the side *not* to move in check (an illegal position)?
    pub(crate) fn opponent_in_check(&self) -> bool {
        let them = self.side.index() ^ 1;
        self.attackers_to(self.king_sq(them), self.occupied()) & self.by_color[them ^ 1] != 0
    }

    /// The hash computed from scratch.
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        let mut occupied = self.by_color[0] | self.by_color[1];
        while occupied != 0 {
            let sq = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            h ^= k.piece[self.board[sq] as usize][sq];
        }
        if self.side == Color::Black {
            h ^= k.side;
        }
        h ^= k.castling[self.castling as usize];
        if self.ep != NO_EP {
            h ^= k.ep[(self.ep & 7) as usize];
        }
        h
    }

    /// Keeps `ep` only if a pawn of the side to move could capture there.
    pub(crate) fn normalise_ep(&mut self) {
        if self.ep != NO_EP {
            let us = self.side.index();
            if PAWN[us ^ 1][self.ep as usize] & self.pieces(us, PAWN_R) == 0 {
                self.ep = NO_EP;
            }
        }
    }

    /// Plays `m`, which must be legal, and returns the token to take it back.
    #[inline(always)]
    pub(crate) fn make_move(&mut self, m: Move) -> Undo {
        self.make_impl::<true>(m)
    }

    /// [`make_move`](Self::make_move); with `FULL == false` (perft only) the
    /// hash and the history are left alone, and [`unmake_impl`](Self::unmake_impl)
    /// with the same flag restores the position.
    #[inline(always)]
    pub(crate) fn make_impl<const FULL: bool>(&mut self, m: Move) -> Undo {
        let k = keys();
        let from = m.orig_idx();
        let to = m.to_idx();
        let piece = self.board[from] as usize;
        let role = piece % 6;
        let us = self.side.index();
        let captured = self.board[to];
        let undo = Undo {
            captured,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        if FULL {
            self.history.push(self.hash);
        }
        let mut h = self.hash ^ k.side;
        if self.ep != NO_EP {
            if FULL {
                h ^= k.ep[(self.ep & 7) as usize];
            }
            self.ep = NO_EP;
        }
        self.halfmove = self.halfmove.wrapping_add(1);
        if captured != EMPTY {
            self.remove(to, captured as usize);
            if FULL {
                h ^= k.piece[captured as usize][to];
            }
            self.halfmove = 0;
        }
        self.remove(from, piece);
        if FULL {
            h ^= k.piece[piece][from];
        }
        let promo = m.promo_code();
        let placed = if promo != 0 {
            us * 6 + promo as usize
        } else {
            piece
        };
        self.put(to, placed);
        if FULL {
            h ^= k.piece[placed][to];
        }
        if role == PAWN_R {
            self.halfmove = 0;
            if from ^ to == 16 {
                let ep = (from + to) / 2;
                if PAWN[us][ep] & self.pieces(us ^ 1, PAWN_R) != 0 {
                    self.ep = ep as u8;
                    if FULL {
                        h ^= k.ep[ep & 7];
                    }
                }
            } else if to == undo.ep as usize {
                let cap = to ^ 8;
                let cp = (us ^ 1) * 6 + PAWN_R;
                self.remove(cap, cp);
                if FULL {
                    h ^= k.piece[cp][cap];
                }
            }
        } else if role == KING_R && from.abs_diff(to) == 2 {
            let (rf, rt) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            let rook = us * 6 + ROOK_R;
            self.remove(rf, rook);
            self.put(rt, rook);
            if FULL {
                h ^= k.piece[rook][rf] ^ k.piece[rook][rt];
            }
        }
        let rights = self.castling & CASTLE_KEEP[from] & CASTLE_KEEP[to];
        if rights != self.castling {
            if FULL {
                h ^= k.castling[self.castling as usize] ^ k.castling[rights as usize];
            }
            self.castling = rights;
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = self.side.opponent();
        if FULL {
            self.hash = h;
        }
        undo
    }

    /// Takes back `m`, the last move made, with its token.
    #[inline(always)]
    pub(crate) fn unmake_move(&mut self, m: Move, undo: Undo) {
        self.unmake_impl::<true>(m, undo);
    }

    /// [`unmake_move`](Self::unmake_move) for [`make_impl`](Self::make_impl).
    #[inline(always)]
    pub(crate) fn unmake_impl<const FULL: bool>(&mut self, m: Move, undo: Undo) {
        self.side = self.side.opponent();
        let us = self.side.index();
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let from = m.orig_idx();
        let to = m.to_idx();
        let placed = self.board[to] as usize;
        let piece = if m.promo_code() != 0 {
            us * 6 + PAWN_R
        } else {
            placed
        };
        self.remove(to, placed);
        self.put(from, piece);
        if undo.captured != EMPTY {
            self.put(to, undo.captured as usize);
        }
        let role = piece % 6;
        if role == PAWN_R {
            if to == undo.ep as usize {
                self.put(to ^ 8, (us ^ 1) * 6 + PAWN_R);
            }
        } else if role == KING_R && from.abs_diff(to) == 2 {
            let (rf, rt) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            let rook = us * 6 + ROOK_R;
            self.remove(rt, rook);
            self.put(rf, rook);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        if FULL {
            self.history.pop();
        }
    }

    /// The legal moves, in a fresh list.
    #[must_use]
    pub fn legal_moves(&self) -> ArrayVec<Move, 256> {
        let mut out = ArrayVec::new();
        self.generate_into::<false>(&mut ListSink(&mut out));
        out
    }

    /// The number of legal moves, counted without listing them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = CountSink(0);
        self.generate_into::<false>(&mut c);
        c.0
    }

    /// Does the side to move have a legal move? What
    /// `count_legal_moves() > 0` says, with generation stopped at the first
    /// stage (king, knights, diagonal sliders, ...) that finds one.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnySink(false);
        self.generate_into::<false>(&mut any);
        any.0
    }

    /// Has the position been seen at least twice before with the same side
    /// to move, castling rights and en-passant square (since the last
    /// capture or pawn move)?
    #[must_use]
    pub fn is_threefold_repetition(&self) -> bool {
        let n = self.history.len();
        let reach = (self.halfmove as usize).min(n);
        let mut seen = 0;
        let mut back = 2;
        while back <= reach {
            if self.history[n - back] == self.hash {
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Neither side can ever mate: bare kings, a single minor piece, or
    /// only bishops all on squares of one colour.
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        let r = &self.by_role;
        if r[PAWN_R] | r[ROOK_R] | r[QUEEN_R] != 0 {
            return false;
        }
        let minors = r[KNIGHT_R] | r[BISHOP_R];
        if minors.count_ones() <= 1 {
            return true;
        }
        const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
        r[KNIGHT_R] == 0 && (r[BISHOP_R] & LIGHT == 0 || r[BISHOP_R] & !LIGHT == 0)
    }

    /// Parses a UCI move and checks that it is legal here.
    ///
    /// # Errors
    ///
    /// A [`UciError`] for malformed text, or of kind
    /// [`UciErrorKind::Illegal`] for a well-formed illegal move.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let m: Move = text.parse()?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(UciError::new(UciErrorKind::Illegal, text))
        }
    }

    /// Perft with bulk counting at the last ply (the same numbers as
    /// [`gametree_game::perft`], faster).
    pub fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let moves = self.legal_moves();
                let mut total = 0;
                for &m in &moves {
                    let u = self.make_impl::<false>(m);
                    total += self.perft(depth - 1);
                    self.unmake_impl::<false>(m, u);
                }
                total
            }
        }
    }
}

impl Position {
    /// Perft split by root move ("divide", `depth >= 1`), with the bulk
    /// counter below the root: the rows of [`gametree_game::perft_divide`], faster.
    /// Empty for `depth == 0`.
    #[must_use]
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let moves = self.legal_moves();
        let mut rows = Vec::with_capacity(moves.len());
        for &m in &moves {
            let u = self.make_move(m);
            rows.push((m, self.perft(depth - 1)));
            self.unmake_move(m, u);
        }
        rows
    }
}

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
    type Moves = ArrayVec<Move, 256>;

    #[inline]
    fn side_to_move(&self) -> Player {
        match self.side {
            Color::White => Player::First,
            Color::Black => Player::Second,
        }
    }

    /// All legal moves; the fifty-move rule and repetitions are ignored here
    /// (as perft does): ask [`outcome`](Game::outcome) first.
    #[inline]
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        self.generate_into::<false>(&mut ListSink(out));
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        self.make_move(m)
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        self.unmake_move(m, undo);
    }

    /// Checkmate is a [`Outcome::Loss`]; stalemate, the fifty-move rule
    /// (100 plies without capture or pawn move, unless the last move mated),
    /// threefold repetition and insufficient material are draws.
    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                Outcome::Loss
            } else {
                Outcome::Draw
            });
        }
        if self.halfmove >= 100 || self.is_threefold_repetition() || self.is_insufficient_material()
        {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Positions repeat in chess.
    const CAN_REPEAT: bool = true;

    /// `true` when the fifty-move rule or a threefold repetition is in
    /// force: those draws depend on the game's history and on the halfmove
    /// clock, which the hash leaves out.
    fn outcome_depends_on_history(&self) -> bool {
        self.halfmove >= 100 || self.is_threefold_repetition()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    /// Checks `m` against a freshly generated move list (so any 16-bit move
    /// is safe to test).
    fn is_legal(&self, m: Move) -> bool {
        let from = m.orig_idx();
        if self.by_color[self.side.index()] & (1u64 << from) == 0 {
            return false;
        }
        self.legal_moves().contains(&m)
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.evaluation().tactics().move_numbers();

    /// Material plus piece-square bonuses, for the side to move, in
    /// centipawns ([`Score::heuristic`]).
    #[inline]
    fn evaluate(&self) -> Score {
        self.material_evaluation()
    }

    /// Captures (en passant included) and promotions are tactical: ten
    /// times the victim's value minus a tenth of the attacker's (most
    /// valuable victim, least valuable attacker), plus ten times the
    /// promotion's gain. Quiet moves get no hint.
    #[inline]
    fn move_hint(&self, m: Move) -> MoveHint {
        match self.mvv_lva(m) {
            Some(s) => MoveHint::Tactical(s),
            None => MoveHint::Quiet(0),
        }
    }

    /// A dedicated generator that only produces the legal captures and
    /// promotions (no quiet move is generated and filtered). In check it
    /// yields only the tactical evasions: a quiescence search should search
    /// every move when [`Position::in_check`] holds.
    #[inline]
    fn generate_tactical(&self, out: &mut ArrayVec<Move, 256>) {
        self.captures_and_promotions(out);
    }

    /// [`Move::number`]: `from × 64 + to`, plus `4096 ×` the promotion code.
    const MOVE_NUMBERS: usize = 5 * 4096;

    #[inline]
    fn move_number(m: Move) -> usize {
        m.number()
    }
}
