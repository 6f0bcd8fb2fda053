//! Material signatures ([`Signature`], `KQvKR`, `KRPvKR`), every ending
//! of a number of pieces ([`pawnless_endings`], [`pawn_endings`]) and the
//! endings captures lead to ([`sub_endings`]).

use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use gametree_games_chess::{Color, Piece, Position, Role};

/// The most pieces (kings included) a signature may have.
pub const MAX_PIECES: usize = 7;

/// A material signature such as `KQvKR` or `KPvKP`: each side's king and
/// other pieces. Parsing accepts the pieces in any order and case-sensitive
/// letters `K Q R B N P`; printing writes them in the order Q, R, B, N, P.
/// Pawnless signatures are numbered by [`Endgame`](crate::Endgame), those
/// with pawns by [`PawnEndgame`](crate::PawnEndgame).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// White's pieces other than the king, sorted Q, R, B, N, P.
    white: ArrayVec<Role, MAX_PIECES>,
    /// Black's pieces other than the king, sorted Q, R, B, N, P.
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
    /// A pawn, where only a pawnless ending is accepted
    /// ([`Endgame::new`](crate::Endgame::new)); parsing a [`Signature`]
    /// accepts pawns.
    Pawn(Color),
    /// A letter that is not `K Q R B N`.
    PieceLetter(char),
    /// More than [`MAX_PIECES`] pieces.
    TooManyPieces(usize),
    /// No pawn, where an ending with pawns is expected
    /// ([`PawnEndgame::new`](crate::PawnEndgame::new)).
    NoPawn,
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
                write!(
                    f,
                    "{c:?} has a pawn; this index takes pawnless endings only"
                )
            }
            SignatureError::PieceLetter(c) => {
                write!(f, "unknown piece letter {c:?} (use K, Q, R, B, N, P)")
            }
            SignatureError::TooManyPieces(n) => write!(f, "{n} pieces, at most {MAX_PIECES}"),
            SignatureError::NoPawn => {
                f.write_str("no pawn; this index takes endings with pawns only")
            }
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
                        'P' => Role::Pawn,
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

    /// Has either side a pawn?
    #[must_use]
    pub fn has_pawns(&self) -> bool {
        self.white.contains(&Role::Pawn) || self.black.contains(&Role::Pawn)
    }

    /// The first pawn of [`pieces`](Self::pieces) (White's), if any.
    pub(crate) fn first_pawn_color(&self) -> Option<Color> {
        if self.white.contains(&Role::Pawn) {
            Some(Color::White)
        } else if self.black.contains(&Role::Pawn) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The same ending with the colours exchanged (`KRvKQ` for `KQvKR`).
    #[must_use]
    pub fn flipped(&self) -> Signature {
        Signature {
            white: self.black.clone(),
            black: self.white.clone(),
        }
    }

    /// The non-king pieces, White's first, each side Q, R, B, N, P.
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

    /// The signature of a position (pawns included), or `None` if it has
    /// more than [`MAX_PIECES`] pieces.
    #[must_use]
    pub fn of(position: &Position) -> Option<Signature> {
        let count = |color, role| position.piece_squares(Piece { color, role }).count_ones();
        if position.piece_count() as usize > MAX_PIECES {
            return None;
        }
        let side = |color| {
            let mut roles = ArrayVec::new();
            for role in [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..count(color, role) {
                    roles.push(role);
                }
            }
            roles
        };
        Some(Signature {
            white: side(Color::White),
            black: side(Color::Black),
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
/// use gametree_chess_tables::pawnless_endings;
///
/// let names = |men| pawnless_endings(men).iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert_eq!(names(3), ["KQvK", "KRvK", "KBvK", "KNvK"]);
/// assert_eq!(names(4)[..5], ["KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK"]);
/// assert_eq!(names(4)[10..13], ["KQvKQ", "KQvKR", "KQvKB"]);
/// assert_eq!(pawnless_endings(4).len(), 20);
/// ```
#[must_use]
pub fn pawnless_endings(men: usize) -> Vec<Signature> {
    endings_of(men, &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight])
}

/// Every ending with pawns with `men` pieces, kings included, once up to
/// the exchange of colours, by the rule of [`pawnless_endings`] with the
/// pawn the weakest piece; an empty list when `men` is below 3 or above
/// [`MAX_PIECES`].
///
/// ```
/// use gametree_chess_tables::pawn_endings;
///
/// let names = |men| pawn_endings(men).iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert_eq!(names(3), ["KPvK"]);
/// assert_eq!(
///     names(4),
///     ["KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP", "KPvKP"]
/// );
/// ```
#[must_use]
pub fn pawn_endings(men: usize) -> Vec<Signature> {
    let roles = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    let mut all = endings_of(men, &roles);
    all.retain(Signature::has_pawns);
    all
}

/// Every ending of `men` pieces over `roles` (strongest first), once up to
/// the exchange of colours.
fn endings_of(men: usize, roles: &[Role]) -> Vec<Signature> {
    /// Every multiset of `n` roles, strongest first, as role positions in
    /// `ROLES` (non-decreasing).
    fn sets(n: usize, kinds: usize) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|set: Vec<usize>| {
                    let from = set.last().copied().unwrap_or(0);
                    (from..kinds).map(move |r| {
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
        for w in sets(white, roles.len()) {
            for b in sets(black, roles.len()) {
                // Lower positions are stronger: White's set must not be
                // weaker than Black's of the same size.
                if white == black && w > b {
                    continue;
                }
                out.push(Signature {
                    white: w.iter().map(|&r| roles[r]).collect(),
                    black: b.iter().map(|&r| roles[r]).collect(),
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
/// use gametree_chess_tables::{Signature, sub_endings};
///
/// let kqkr: Signature = "KQvKR".parse()?;
/// let names = |subs: Vec<Signature>| subs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert_eq!(names(sub_endings(&kqkr, false)), ["KvK", "KQvK", "KvKR"]);
/// assert_eq!(names(sub_endings(&kqkr, true)), ["KQvK", "KRvK"]);
/// # Ok::<(), gametree_chess_tables::SignatureError>(())
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
