//! Pawnless endgames for retrograde analysis: material signatures
//! ([`Signature`], `KQvKR`) and a perfect index per signature with the
//! board's 8-fold symmetry ([`Endgame`], implementing
//! [`gametree_game::IndexSpace`] and [`gametree_game::Predecessors`]).
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
//! use gametree_games_chess::{Endgame, Position};
//!
//! let kqk = Endgame::new("KQvK")?;
//! assert_eq!(kqk.size(), 2 * 462 * 64);
//! let p: Position = "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1".parse()?;
//! let i = kqk.index_of(&p).unwrap();
//! let canonical = kqk.position(i).unwrap();
//! assert_eq!(kqk.index_of(&canonical), Some(i));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use gametree_game::{IndexSpace, Predecessors};

use crate::attacks::{KING, KNIGHT, tables};
use crate::position::{BISHOP_R, KING_R, KNIGHT_R, PAWN_R, Position, QUEEN_R, ROOK_R};
use crate::types::{Color, Piece, Role};

/// The most pieces (kings included) a signature may have.
pub const MAX_PIECES: usize = 7;

/// The number of king placements up to symmetry.
pub const KING_PLACEMENTS: usize = 462;

/// A pawnless material signature such as `KQvKR`: each side's king and
/// other pieces. Parsing accepts the pieces in any order and case-sensitive
/// letters `K Q R B N`; printing writes them in the order Q, R, B, N.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// White's pieces other than the king, sorted Q, R, B, N.
    white: ArrayVec<Role, MAX_PIECES>,
    /// Black's pieces other than the king, sorted Q, R, B, N.
    black: ArrayVec<Role, MAX_PIECES>,
}

/// Why a material signature was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureError {
    /// Not exactly one `v` separating the two sides.
    Separator,
    /// A side does not start with its king `K`.
    MissingKing(Color),
    /// A side has a second king.
    ExtraKing(Color),
    /// A pawn: only pawnless endings are indexed.
    Pawn(Color),
    /// A letter that is not `K Q R B N`.
    PieceLetter(char),
    /// More than [`MAX_PIECES`] pieces.
    TooManyPieces(usize),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid material signature: ")?;
        match self {
            SignatureError::Separator => {
                f.write_str("expected two sides separated by one 'v', like KQvKR")
            }
            SignatureError::MissingKing(c) => write!(f, "{c:?}'s side must start with its king K"),
            SignatureError::ExtraKing(c) => write!(f, "{c:?} has more than one king"),
            SignatureError::Pawn(c) => {
                write!(f, "{c:?} has a pawn; only pawnless endings are indexed")
            }
            SignatureError::PieceLetter(c) => {
                write!(f, "unknown piece letter {c:?} (use K, Q, R, B, N)")
            }
            SignatureError::TooManyPieces(n) => write!(f, "{n} pieces, at most {MAX_PIECES}"),
        }
    }
}

impl std::error::Error for SignatureError {}

impl FromStr for Signature {
    type Err = SignatureError;
    fn from_str(s: &str) -> Result<Signature, SignatureError> {
        let mut sides = s.split('v');
        let (Some(w), Some(b), None) = (sides.next(), sides.next(), sides.next()) else {
            return Err(SignatureError::Separator);
        };
        let parse_side =
            |text: &str, color: Color| -> Result<ArrayVec<Role, MAX_PIECES>, SignatureError> {
                let mut chars = text.chars();
                if chars.next() != Some('K') {
                    return Err(SignatureError::MissingKing(color));
                }
                let mut roles = ArrayVec::new();
                for c in chars {
                    let role = match c {
                        'Q' => Role::Queen,
                        'R' => Role::Rook,
                        'B' => Role::Bishop,
                        'N' => Role::Knight,
                        'K' => return Err(SignatureError::ExtraKing(color)),
                        'P' => return Err(SignatureError::Pawn(color)),
                        c => return Err(SignatureError::PieceLetter(c)),
                    };
                    roles
                        .try_push(role)
                        .map_err(|_| SignatureError::TooManyPieces(text.chars().count()))?;
                }
                roles.sort_by(|a, b| b.cmp(a));
                Ok(roles)
            };
        let white = parse_side(w, Color::White)?;
        let black = parse_side(b, Color::Black)?;
        let n = 2 + white.len() + black.len();
        if n > MAX_PIECES {
            return Err(SignatureError::TooManyPieces(n));
        }
        Ok(Signature { white, black })
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |roles: &[Role]| -> String {
            core::iter::once('K')
                .chain(roles.iter().map(|r| r.char().to_ascii_uppercase()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.white), side(&self.black))
    }
}

impl Signature {
    /// The number of pieces, kings included.
    #[must_use]
    pub fn piece_count(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// The non-king pieces, White's first, each side Q, R, B, N.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        let w = self.white.iter().map(|&role| Piece {
            color: Color::White,
            role,
        });
        let b = self.black.iter().map(|&role| Piece {
            color: Color::Black,
            role,
        });
        w.chain(b)
    }

    /// The signature of a position, or `None` if it has pawns or too many pieces.
    #[must_use]
    pub fn of(position: &Position) -> Option<Signature> {
        if position.by_role[PAWN_R] != 0 || position.piece_count() as usize > MAX_PIECES {
            return None;
        }
        let side = |c: usize| {
            let mut roles = ArrayVec::new();
            for r in [QUEEN_R, ROOK_R, BISHOP_R, KNIGHT_R] {
                for _ in 0..position.pieces(c, r).count_ones() {
                    roles.push(Role::ALL[r]);
                }
            }
            roles
        };
        Some(Signature {
            white: side(0),
            black: side(1),
        })
    }
}

/// Every pawnless ending with `men` pieces, kings included, once up to the
/// exchange of colours: White has at least as many pieces as Black, and
/// when both have as many, White's are at least as strong (compared piece
/// by piece in the order Q, R, B, N). In build order for a whole set: more
/// White pieces first, each side's pieces from the strongest set down. An
/// empty list when `men` is below 2 or above [`MAX_PIECES`].
///
/// ```
/// use gametree_games_chess::pawnless_endings;
///
/// let names = |men| pawnless_endings(men).iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert_eq!(names(3), ["KQvK", "KRvK", "KBvK", "KNvK"]);
/// assert_eq!(names(4)[..5], ["KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK"]);
/// assert_eq!(names(4)[10..13], ["KQvKQ", "KQvKR", "KQvKB"]);
/// assert_eq!(pawnless_endings(4).len(), 20);
/// ```
#[must_use]
pub fn pawnless_endings(men: usize) -> Vec<Signature> {
    const ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    /// Every multiset of `n` roles, strongest first, as role positions in
    /// `ROLES` (non-decreasing).
    fn sets(n: usize) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|set: Vec<usize>| {
                    let from = set.last().copied().unwrap_or(0);
                    (from..ROLES.len()).map(move |r| {
                        let mut next = set.clone();
                        next.push(r);
                        next
                    })
                })
                .collect();
        }
        out
    }
    let mut out = Vec::new();
    if !(2..=MAX_PIECES).contains(&men) {
        return out;
    }
    let pieces = men - 2;
    for white in (pieces.div_ceil(2)..=pieces).rev() {
        let black = pieces - white;
        for w in sets(white) {
            for b in sets(black) {
                // Lower positions are stronger: White's set must not be
                // weaker than Black's of the same size.
                if white == black && w > b {
                    continue;
                }
                out.push(Signature {
                    white: w.iter().map(|&r| ROLES[r]).collect(),
                    black: b.iter().map(|&r| ROLES[r]).collect(),
                });
            }
        }
    }
    out
}

/// Every ending a sequence of captures of non-king pieces leads to from
/// `signature`, each once, fewest pieces first (then by name), `signature`
/// itself excluded: the tables a retrograde build of `signature` values its
/// captures through, in an order in which each can be built after the ones
/// before it.
///
/// With `normalise`, an ending in which only Black has pieces is written
/// with the colours exchanged (`KvKR` as `KRvK`: the same table with the
/// colours flipped, see [`Placement::flipped`](crate::Placement::flipped))
/// and the bare kings `KvK` are left out; without it, every ending appears
/// as the captures leave it, `KvK` included.
///
/// ```
/// use gametree_games_chess::{Signature, sub_endings};
///
/// let kqkr: Signature = "KQvKR".parse()?;
/// let names = |subs: Vec<Signature>| subs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert_eq!(names(sub_endings(&kqkr, false)), ["KvK", "KQvK", "KvKR"]);
/// assert_eq!(names(sub_endings(&kqkr, true)), ["KQvK", "KRvK"]);
/// # Ok::<(), gametree_games_chess::SignatureError>(())
/// ```
#[must_use]
pub fn sub_endings(signature: &Signature, normalise: bool) -> Vec<Signature> {
    let mut out: Vec<Signature> = Vec::new();
    let mut todo = vec![signature.clone()];
    while let Some(sig) = todo.pop() {
        for side in 0..2 {
            let count = if side == 0 {
                sig.white.len()
            } else {
                sig.black.len()
            };
            for k in 0..count {
                let mut sub = sig.clone();
                if side == 0 {
                    sub.white.remove(k);
                } else {
                    sub.black.remove(k);
                }
                if normalise {
                    match (sub.white.is_empty(), sub.black.is_empty()) {
                        (true, true) => continue,
                        (true, false) => core::mem::swap(&mut sub.white, &mut sub.black),
                        _ => {}
                    }
                }
                if !out.contains(&sub) {
                    out.push(sub.clone());
                    todo.push(sub);
                }
            }
        }
    }
    out.sort_by_cached_key(|s| (s.piece_count(), s.to_string()));
    out
}

/// Maps a square through symmetry `t` (bit 0: mirror files, bit 1: mirror
/// ranks, bit 2: swap files and ranks).
const fn transform(t: usize, sq: usize) -> usize {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        let x = f;
        f = r;
        r = x;
    }
    r * 8 + f
}

/// `TRANSFORM[t][sq]`: [`transform`] as a table.
static TRANSFORM: [[u8; 64]; 8] = {
    let mut out = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut sq = 0;
        while sq < 64 {
            out[t][sq] = transform(t, sq) as u8;
            sq += 1;
        }
        t += 1;
    }
    out
};

/// No second symmetry (see [`KingSymmetry`]).
const NO_SYMMETRY: u8 = u8::MAX;

/// For one placement of the two kings (any squares): the canonical king
/// placement number and the symmetries that produce it. Two symmetries do
/// exactly when both kings end on the long diagonal a1–h8; then the
/// smaller of the two indices is canonical.
#[derive(Clone, Copy)]
struct KingSymmetry {
    /// The canonical placement number, or `NO_PAIR` for adjacent or equal squares.
    kings: u16,
    /// The first symmetry that makes the kings canonical.
    first: u8,
    /// The second, or `NO_SYMMETRY`.
    second: u8,
}

/// [`KingSymmetry`] for every `white king × 64 + black king`, found by trying
/// the 8 symmetries on each pair once (at compile time).
static KING_SYMMETRY: [KingSymmetry; 64 * 64] = {
    let mut out = [KingSymmetry {
        kings: NO_PAIR,
        first: NO_SYMMETRY,
        second: NO_SYMMETRY,
    }; 64 * 64];
    let mut i = 0;
    while i < 64 * 64 {
        let (wk, bk) = (i / 64, i % 64);
        let mut t = 0;
        while t < 8 {
            let kings = KINGS.index[transform(t, wk) * 64 + transform(t, bk)];
            if kings != NO_PAIR {
                if out[i].first == NO_SYMMETRY {
                    out[i] = KingSymmetry {
                        kings,
                        first: t as u8,
                        second: NO_SYMMETRY,
                    };
                } else {
                    assert!(out[i].kings == kings && out[i].second == NO_SYMMETRY);
                    out[i].second = t as u8;
                }
            }
            t += 1;
        }
        i += 1;
    }
    out
};

/// The canonical king placement number of `(white king, black king)` on
/// any squares (the number of the pair a symmetry brings them to), or
/// `None` when they are equal or adjacent.
#[inline]
pub(crate) fn canonical_kings(wk: usize, bk: usize) -> Option<usize> {
    let kings = KING_SYMMETRY[(wk & 63) * 64 + (bk & 63)].kings;
    (kings != NO_PAIR).then_some(kings as usize)
}

/// The king placement number of `(white king, black king)` when the pair
/// is canonical as it stands and no other symmetry gives it (the kings are
/// not both on the long diagonal a1–h8): then the canonical index of a
/// placement with these kings keeps every other square (identical pieces
/// already in order), and only the side and king part of the index change.
/// `None` otherwise.
#[inline]
pub(crate) fn kings_in_place(wk: usize, bk: usize) -> Option<usize> {
    let sym = KING_SYMMETRY[(wk & 63) * 64 + (bk & 63)];
    (sym.kings != NO_PAIR && sym.first == 0 && sym.second == NO_SYMMETRY)
        .then_some(sym.kings as usize)
}

/// The square map of the one symmetry that makes `(white king, black king)`
/// canonical, when only one does (the kings are not both on the long
/// diagonal a1–h8 afterwards); `None` when two do or the kings are equal or
/// adjacent. The canonical index of a placement with these kings maps every
/// other square through it (then sorts identical pieces).
#[inline]
pub(crate) fn king_transform(wk: usize, bk: usize) -> Option<&'static [u8; 64]> {
    let sym = KING_SYMMETRY[(wk & 63) * 64 + (bk & 63)];
    (sym.kings != NO_PAIR && sym.second == NO_SYMMETRY).then(|| &TRANSFORM[sym.first as usize])
}

/// The canonical index of a placement: `pieces` are the non-king piece
/// numbers in index order, `runs` the `(start, end)` ranges of identical
/// pieces among them, `squares` their squares (any order within a run).
/// `None` when the kings are equal or adjacent squares.
#[inline]
pub(crate) fn canonical_index(
    runs: &[(u8, u8)],
    side: usize,
    wk: usize,
    bk: usize,
    squares: &[u8],
) -> Option<u64> {
    let sym = KING_SYMMETRY[wk * 64 + bk];
    if sym.kings == NO_PAIR {
        return None;
    }
    let base = (side * KING_PLACEMENTS + sym.kings as usize) as u64;
    let encode = |t: u8| -> u64 {
        let table = &TRANSFORM[t as usize];
        let mut sq = [0u8; MAX_PIECES];
        let n = squares.len().min(MAX_PIECES);
        for k in 0..n {
            sq[k] = table[usize::from(squares[k] & 63)];
        }
        for &(start, end) in runs {
            // Insertion sort: runs are two to five squares long.
            for k in start as usize + 1..end as usize {
                let mut j = k;
                while j > start as usize && sq[j - 1] > sq[j] {
                    sq.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        sq[..n].iter().fold(base, |i, &s| i * 64 + u64::from(s))
    };
    let i = encode(sym.first);
    if sym.second == NO_SYMMETRY {
        Some(i)
    } else {
        Some(i.min(encode(sym.second)))
    }
}

/// The `(start, end)` ranges of runs of two or more equal piece numbers.
pub(crate) fn identical_runs(pieces: &[usize]) -> ArrayVec<(u8, u8), MAX_PIECES> {
    let mut runs = ArrayVec::new();
    let mut start = 0;
    while start < pieces.len() {
        let mut end = start + 1;
        while end < pieces.len() && pieces[end] == pieces[start] {
            end += 1;
        }
        if end - start > 1 {
            runs.push((start as u8, end as u8));
        }
        start = end;
    }
    runs
}

/// The canonical king placements in order, and the number of each
/// `(white king × 64 + black king)` (or `NO_PAIR`), built at compile time.
struct KingTable {
    pairs: [(u8, u8); KING_PLACEMENTS],
    index: [u16; 64 * 64],
}

const NO_PAIR: u16 = u16::MAX;

static KINGS: KingTable = {
    let mut pairs = [(0u8, 0u8); KING_PLACEMENTS];
    let mut index = [NO_PAIR; 64 * 64];
    let mut n = 0;
    let mut wk = 0;
    while wk < 64 {
        let (wf, wr) = (wk % 8, wk / 8);
        let mut bk = 0;
        while wf <= 3 && wr <= wf && bk < 64 {
            let adjacent = bk == wk || KING[wk] & (1u64 << bk) != 0;
            if !adjacent && !(wf == wr && bk / 8 > bk % 8) {
                index[wk * 64 + bk] = n as u16;
                pairs[n] = (wk as u8, bk as u8);
                n += 1;
            }
            bk += 1;
        }
        wk += 1;
    }
    assert!(n == KING_PLACEMENTS);
    KingTable { pairs, index }
};

/// The king placement number of `(white king, black king)` if that pair is
/// canonical (see the [module docs](crate::endgame)), else `None`.
#[must_use]
pub fn king_pair_index(white_king: usize, black_king: usize) -> Option<usize> {
    let i = *KINGS.index.get(white_king * 64 + black_king)?;
    (i != NO_PAIR).then_some(i as usize)
}

/// The canonical king placement with this number (`< 462`), as
/// `(white king, black king)` square numbers.
#[must_use]
pub fn king_pair(index: usize) -> Option<(usize, usize)> {
    KINGS
        .pairs
        .get(index)
        .map(|&(w, b)| (w as usize, b as usize))
}

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
        Ok(Endgame::from_signature(signature.parse()?))
    }

    /// The index space of a parsed signature.
    #[must_use]
    pub fn from_signature(signature: Signature) -> Endgame {
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
        let mut occ = (1u64 << wk) | (1u64 << bk);
        for (i, &s) in squares.iter().enumerate() {
            let s = s as usize;
            if occ & (1u64 << s) != 0 {
                return None;
            }
            if i > 0 && self.pieces[i] == self.pieces[i - 1] && squares[i - 1] as usize > s {
                return None;
            }
            occ |= 1u64 << s;
        }
        let mut p = Position::empty();
        p.put(wk, KING_R);
        p.put(bk, 6 + KING_R);
        for (&piece, &s) in self.pieces.iter().zip(&squares) {
            p.put(s as usize, piece);
        }
        p.side = if side == 0 {
            Color::White
        } else {
            Color::Black
        };
        if p.opponent_in_check() {
            return None;
        }
        // Only two kings both on the long diagonal leave a symmetry that
        // keeps them in place; then the smaller reflection is canonical.
        if wk % 8 == wk / 8
            && bk % 8 == bk / 8
            && self.canonical(side, wk, bk, &squares) != Some(index)
        {
            return None;
        }
        p.hash = p.compute_hash();
        Some(p)
    }

    fn index_of(&self, position: &Position) -> Option<u64> {
        if position.castling != 0 || Signature::of(position).as_ref() != Some(&self.signature) {
            return None;
        }
        let mut squares: ArrayVec<u8, MAX_PIECES> = ArrayVec::new();
        let mut last = usize::MAX;
        let mut from = 0u64;
        for &piece in &self.pieces {
            if piece != last {
                from = position.by_color[piece / 6] & position.by_role[piece % 6];
                last = piece;
            }
            squares.push(from.trailing_zeros() as u8);
            from &= from - 1;
        }
        self.canonical(
            position.side.index(),
            position.king_sq(0),
            position.king_sq(1),
            &squares,
        )
    }
}

impl Predecessors for Endgame {
    /// Un-moves every piece of the side that just moved to each empty square
    /// it could have come from (no un-captures, no un-promotions: pawnless),
    /// keeping the positions where the side to move now was not in check.
    fn predecessors(&self, position: &Position, found: &mut dyn FnMut(u64)) {
        if self.index_of(position).is_none() || position.opponent_in_check() {
            return;
        }
        let t = tables();
        let mover = position.side.index() ^ 1;
        let occ = position.occupied();
        let mut own = position.by_color[mover];
        let mut q = position.clone();
        q.side = q.side.opponent();
        while own != 0 {
            let to = own.trailing_zeros() as usize;
            own &= own - 1;
            let piece = position.board[to] as usize;
            let origins = match piece % 6 {
                KNIGHT_R => KNIGHT[to],
                BISHOP_R => t.bishop(to, occ),
                ROOK_R => t.rook(to, occ),
                QUEEN_R => t.bishop(to, occ) | t.rook(to, occ),
                _ => KING[to],
            } & !occ;
            let mut o = origins;
            while o != 0 {
                let from = o.trailing_zeros() as usize;
                o &= o - 1;
                q.remove(to, piece);
                q.put(from, piece);
                // In the predecessor, the side that is now to move must not
                // have been in check (it was not to move there).
                if !q.opponent_in_check()
                    && let Some(i) = self.index_of(&q)
                {
                    found(i);
                }
                q.remove(from, piece);
                q.put(to, piece);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(signature: &str, normalise: bool) -> Vec<String> {
        let sig: Signature = signature.parse().unwrap();
        sub_endings(&sig, normalise)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn sub_endings_of_a_five_man_ending() {
        assert_eq!(
            names("KQRvKR", false),
            ["KvK", "KQvK", "KRvK", "KvKR", "KQRvK", "KQvKR", "KRvKR"]
        );
        assert_eq!(
            names("KQRvKR", true),
            ["KQvK", "KRvK", "KQRvK", "KQvKR", "KRvKR"]
        );
        // Identical pieces: each ending once; pieces given in any order.
        assert_eq!(names("KNBBvK", true), ["KBvK", "KNvK", "KBBvK", "KBNvK"]);
        assert_eq!(names("KvKQ", true), Vec::<String>::new());
        assert_eq!(names("KvKQ", false), ["KvK"]);
        assert!(names("KvK", false).is_empty());
        // Every sub-ending has fewer pieces, and each comes after its own.
        let sig: Signature = "KQRvKBN".parse().unwrap();
        let subs = sub_endings(&sig, false);
        assert_eq!(subs.len(), 4 * 4 - 1);
        for (k, s) in subs.iter().enumerate() {
            assert!(s.piece_count() < sig.piece_count());
            for t in sub_endings(s, false) {
                assert!(subs[..k].contains(&t), "{t} before {s}");
            }
        }
    }
}
