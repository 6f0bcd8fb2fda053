//! Endings with pawns: [`PawnEndgame`], a perfect index with the
//! left–right symmetry and the en-passant state.

use arrayvec::ArrayVec;
use gametree_game::{Game, IndexSpace, Predecessors};
use gametree_games_chess::attacks::tables;
use gametree_games_chess::{Color, Move, Piece, Position, Role, Square};

use crate::endgame::{piece_list, piece_origins};
use crate::{MAX_PIECES, PAWN_R, Signature, SignatureError, piece, square};

mod board;
mod moves;
#[cfg(test)]
mod tests;

/// The values a slot's square takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Domain {
    /// The leading pawn: files a–d, ranks 2–7 (24).
    Lead,
    /// Another pawn: ranks 2–7 (48).
    Pawn,
    /// A piece: any square (64).
    Piece,
    /// The leading pawn, having just moved two squares: its file, a–d (4).
    EpLead,
    /// Another pawn, having just moved two squares: its file (8).
    EpPawn,
}

impl Domain {
    const fn radix(self) -> u64 {
        match self {
            Domain::Lead => 24,
            Domain::Pawn => 48,
            Domain::Piece => 64,
            Domain::EpLead => 4,
            Domain::EpPawn => 8,
        }
    }
}

/// The rank (0-based) of a pawn of `color` that has just moved two
/// squares.
const fn ep_rank(color: usize) -> usize {
    if color == 0 { 3 } else { 4 }
}

/// A part of the index: one side to move, with or without an en-passant
/// capture of the pawn in a given slot.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Region {
    side: usize,
    ep_slot: Option<usize>,
    offset: u64,
    size: u64,
    domains: ArrayVec<Domain, MAX_PIECES>,
}

/// The positions of one material signature with pawns, numbered with the
/// left–right symmetry and the en-passant state: an [`IndexSpace`] and
/// [`Predecessors`] for the retrograde crate. Positions have no castling
/// rights; counters and history are ignored by
/// [`index_of`](IndexSpace::index_of) and zero in
/// [`position`](IndexSpace::position).
///
/// # The index
///
/// Pawns move forward only, so the board's only symmetry that keeps the
/// rules is the reflection in the line between the d- and e-files. The
/// *leading pawn* — the first pawn of the signature: White's if White has
/// one, else Black's — is brought onto the files a–d, so it takes 24
/// values (ranks 2 to 7, four files); every other pawn takes 48 (ranks 2
/// to 7), every other piece and each king 64. Like pieces stand on
/// increasing squares; when both reflections put a leading pawn on the
/// files a–d (two like pawns), the smaller index is canonical. No
/// position is its own reflection (a king never is), so an index stands
/// for exactly two positions, reflected.
///
/// A position in which the side to move can capture en passant is
/// another position than the same pieces without that right, with
/// another value. Those positions have their own index *regions*: one per
/// side to move and per pawn of the other side that may just have moved
/// two squares; in such a region that pawn takes 8 values (its file; 4
/// when it is the leading pawn), its rank being fixed. A region position
/// is valid only when an en-passant capture is legal.
///
/// `index = region offset + ((white king × 64 + black king) × r₁ + v₁) × r₂ + …`,
/// the non-king pieces in the signature's order with their radices
/// `rⱼ` (24, 48, 64, 8 or 4). The first two regions hold the positions
/// without an en-passant capture, White to move then Black: they are the
/// positions the Syzygy generator counts (see [`statistics`](crate::statistics)).
///
/// ```
/// use gametree_game::IndexSpace;
/// use gametree_chess_tables::PawnEndgame;
/// use gametree_games_chess::Position;
///
/// let kpk = PawnEndgame::new("KPvK")?;
/// // Two sides to move × 64 × 64 kings × 24 pawn squares.
/// assert_eq!(kpk.positions_per_side() * 2, 2 * 64 * 64 * 24);
/// let p: Position = "8/8/8/4k3/8/8/6P1/6K1 w - - 0 1".parse()?;
/// let i = kpk.index_of(&p).unwrap();
/// // The canonical position is the reflection, with the pawn on b2.
/// assert_eq!(kpk.position(i).unwrap().to_string(), "8/8/8/3k4/8/8/1P6/1K6 w - - 0 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnEndgame {
    signature: Signature,
    /// Piece numbers (`colour × 6 + role`) of the non-king pieces, in
    /// index order.
    pieces: ArrayVec<usize, MAX_PIECES>,
    /// How many pieces of each number the signature has.
    counts: [u8; 12],
    /// The slot of the leading pawn, and how many like pawns it has.
    lead: usize,
    lead_run: usize,
    regions: ArrayVec<Region, 8>,
    /// The region of each side to move without (`0`) or with an
    /// en-passant capture of the pawn in slot `k` (`k + 1`).
    region_of: [[u8; MAX_PIECES + 1]; 2],
    size: u64,
    /// Per slot (0 the White king, 1 the Black king, then the non-king
    /// pieces): the piece number.
    slot_piece: [u8; MAX_PIECES],
    /// Per slot: not one of like pieces (a move changes only its
    /// coordinate of the index).
    plain: [bool; MAX_PIECES],
    /// Per slot: the weight of its coordinate in the index of the regions
    /// without an en-passant capture.
    weight: [u64; MAX_PIECES],
}

impl PawnEndgame {
    /// The index space of a signature with pawns such as `"KPvK"`.
    ///
    /// # Errors
    ///
    /// A [`SignatureError`] when the text is not a signature with at most
    /// [`MAX_PIECES`] pieces, or has no pawn
    /// ([`SignatureError::NoPawn`]).
    pub fn new(signature: &str) -> Result<PawnEndgame, SignatureError> {
        PawnEndgame::from_signature(signature.parse()?)
    }

    /// The index space of a parsed signature.
    ///
    /// # Errors
    ///
    /// [`SignatureError::NoPawn`] when it has no pawn.
    pub fn from_signature(signature: Signature) -> Result<PawnEndgame, SignatureError> {
        if !signature.has_pawns() {
            return Err(SignatureError::NoPawn);
        }
        let pieces: ArrayVec<usize, MAX_PIECES> = signature.pieces().map(Piece::index).collect();
        let mut counts = [0u8; 12];
        for &p in &pieces {
            counts[p] += 1;
        }
        let lead = pieces
            .iter()
            .position(|&p| p % 6 == PAWN_R)
            .expect("a signature with pawns");
        let base: ArrayVec<Domain, MAX_PIECES> = pieces
            .iter()
            .enumerate()
            .map(|(j, &p)| match () {
                () if j == lead => Domain::Lead,
                () if p % 6 == PAWN_R => Domain::Pawn,
                () => Domain::Piece,
            })
            .collect();
        let mut regions = ArrayVec::new();
        let mut offset = 0;
        let mut add = |side: usize, ep_slot: Option<usize>| {
            let mut domains = base.clone();
            if let Some(k) = ep_slot {
                domains[k] = if k == lead {
                    Domain::EpLead
                } else {
                    Domain::EpPawn
                };
            }
            let size = 64 * 64 * domains.iter().map(|d| d.radix()).product::<u64>();
            regions.push(Region {
                side,
                ep_slot,
                offset,
                size,
                domains,
            });
            offset += size;
        };
        add(0, None);
        add(1, None);
        for side in 0..2 {
            // The pawns of the other side may just have moved two squares,
            // when the side to move has a pawn to take them with.
            if !pieces.contains(&(side * 6 + PAWN_R)) {
                continue;
            }
            let theirs = (1 - side) * 6 + PAWN_R;
            for (k, &p) in pieces.iter().enumerate() {
                if p == theirs {
                    add(side, Some(k));
                }
            }
        }
        let mut region_of = [[0u8; MAX_PIECES + 1]; 2];
        for (r, region) in regions.iter().enumerate() {
            region_of[region.side][region.ep_slot.map_or(0, |k| k + 1)] = r as u8;
        }
        let n = pieces.len();
        let mut slot_piece = [0u8; MAX_PIECES];
        let mut plain = [true; MAX_PIECES];
        let mut weight = [0u64; MAX_PIECES];
        slot_piece[0] = crate::WHITE_KING as u8;
        slot_piece[1] = crate::BLACK_KING as u8;
        let mut w = 1u64;
        for k in (0..n).rev() {
            slot_piece[2 + k] = pieces[k] as u8;
            plain[2 + k] = counts[pieces[k]] == 1;
            weight[2 + k] = w;
            w *= base[k].radix();
        }
        weight[1] = w;
        weight[0] = 64 * w;
        Ok(PawnEndgame {
            slot_piece,
            plain,
            weight,
            signature,
            lead,
            lead_run: usize::from(counts[pieces[lead]]),
            pieces,
            counts,
            regions,
            region_of,
            size: offset,
        })
    }

    /// The material signature.
    #[must_use]
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The indices of each side to move without an en-passant capture:
    /// White's are `0..positions_per_side()`, Black's the next as many;
    /// the regions with an en-passant capture follow.
    #[must_use]
    pub fn positions_per_side(&self) -> u64 {
        self.regions[0].size
    }

    /// The square of the pawn the side to move can capture en passant
    /// (legally), if any.
    fn ep_pawn(position: &Position) -> Option<usize> {
        let ep = position.en_passant()?.index();
        let us = position.turn();
        let pawn = Piece {
            color: us,
            role: Role::Pawn,
        };
        let pawns = position.piece_squares(pawn);
        position
            .legal_moves()
            .iter()
            .any(|m| m.to().index() == ep && pawns & (1u64 << m.from().index()) != 0)
            .then(|| if us == Color::White { ep - 8 } else { ep + 8 })
    }

    /// The index of `position` in one orientation (reflected or not), or
    /// `None` when that orientation is not canonical-eligible (the leading
    /// pawn on the files e–h).
    fn encode(&self, position: &Position, mirror: bool, ep_pawn: Option<usize>) -> Option<u64> {
        let flip = if mirror { 7 } else { 0 };
        let n = self.pieces.len();
        let mut squares = [0usize; MAX_PIECES];
        let mut j = 0;
        while j < n {
            let start = j;
            let mut bb = position.piece_squares(piece(self.pieces[j]));
            while bb != 0 && j < n {
                squares[j] = bb.trailing_zeros() as usize ^ flip;
                bb &= bb - 1;
                j += 1;
            }
            // Reflected squares of one rank come in decreasing order:
            // like pieces back on increasing squares.
            if mirror {
                for a in start + 1..j {
                    let mut b = a;
                    while b > start && squares[b - 1] > squares[b] {
                        squares.swap(b - 1, b);
                        b -= 1;
                    }
                }
            }
        }
        let ep_slot = match ep_pawn {
            None => 0,
            Some(e) => 1 + squares[..n].iter().position(|&s| s == e ^ flip)?,
        };
        let region = &self.regions[self.region_of[position.turn().index()][ep_slot] as usize];
        let king = |color: Color| {
            position
                .piece_squares(Piece {
                    color,
                    role: Role::King,
                })
                .trailing_zeros() as usize
                ^ flip
        };
        let mut index = (king(Color::White) * 64 + king(Color::Black)) as u64;
        for ((&sq, &domain), &number) in squares[..n].iter().zip(&region.domains).zip(&self.pieces)
        {
            index = index * domain.radix() + value(domain, sq, number / 6)?;
        }
        Some(region.offset + index)
    }

    /// Does `position` have exactly this ending's material (and no
    /// castling rights)?
    fn has_material(&self, position: &Position) -> bool {
        if position.castling_rights() != 0
            || position.piece_count() as usize != 2 + self.pieces.len()
        {
            return false;
        }
        (0..12).all(|n| {
            let want = if n % 6 == Role::King.index() {
                1
            } else {
                u32::from(self.counts[n])
            };
            position.piece_squares(piece(n)).count_ones() == want
        })
    }
}

/// The value of square `sq` in `domain` (for a pawn of colour `color`),
/// or `None` when the square is outside it.
fn value(domain: Domain, sq: usize, color: usize) -> Option<u64> {
    let (rank, file) = (sq / 8, sq % 8);
    let v = match domain {
        Domain::Lead => ((1..=6).contains(&rank) && file < 4).then(|| (rank - 1) * 4 + file)?,
        Domain::Pawn => (1..=6).contains(&rank).then(|| sq - 8)?,
        Domain::Piece => sq,
        Domain::EpLead => (rank == ep_rank(color) && file < 4).then_some(file)?,
        Domain::EpPawn => (rank == ep_rank(color)).then_some(file)?,
    };
    Some(v as u64)
}

/// The square of value `v` in `domain` (for a pawn of colour `color`).
fn square_of(domain: Domain, v: u64, color: usize) -> usize {
    let v = v as usize;
    match domain {
        Domain::Lead => (v / 4 + 1) * 8 + v % 4,
        Domain::Pawn => v + 8,
        Domain::Piece => v,
        Domain::EpLead | Domain::EpPawn => ep_rank(color) * 8 + v,
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

impl IndexSpace for PawnEndgame {
    type Game = Position;

    fn size(&self) -> u64 {
        self.size
    }

    fn position(&self, index: u64) -> Option<Position> {
        let region = self
            .regions
            .iter()
            .find(|r| (r.offset..r.offset + r.size).contains(&index))?;
        let mut rest = index - region.offset;
        let n = self.pieces.len();
        let mut squares = [0usize; MAX_PIECES];
        for j in (0..n).rev() {
            let domain = region.domains[j];
            let radix = domain.radix();
            squares[j] = square_of(domain, rest % radix, self.pieces[j] / 6);
            rest /= radix;
        }
        let (wk, bk) = ((rest / 64) as usize, (rest % 64) as usize);
        // Like pieces on increasing squares.
        for j in 1..n {
            if self.pieces[j] == self.pieces[j - 1] && squares[j - 1] >= squares[j] {
                return None;
            }
        }
        let kings = [(wk, crate::WHITE_KING), (bk, crate::BLACK_KING)];
        let others = squares[..n]
            .iter()
            .copied()
            .zip(self.pieces.iter().copied());
        let pieces = kings
            .into_iter()
            .chain(others)
            .map(|(s, p)| (square(s), piece(p)));
        let mut p = Position::from_pieces(color(region.side), pieces).ok()?;
        if let Some(k) = region.ep_slot {
            // The square the pawn passed over.
            let pawn = squares[k];
            let over = if self.pieces[k] / 6 == 0 {
                pawn - 8
            } else {
                pawn + 8
            };
            p = p.with_en_passant(Square::new(over as u8)).ok()?;
        }
        // Canonical (reflection, en-passant capture legal): the index of
        // the position is this one.
        (self.index_unchecked(&p) == Some(index)).then_some(p)
    }

    fn index_of(&self, position: &Position) -> Option<u64> {
        if !self.has_material(position) {
            return None;
        }
        self.index_unchecked(position)
    }
}

impl PawnEndgame {
    /// The index of a position known to have this ending's material.
    fn index_unchecked(&self, position: &Position) -> Option<u64> {
        let ep = PawnEndgame::ep_pawn(position);
        if self.lead_run == 1 {
            // One leading pawn: its file says which reflection is canonical.
            let lead = position.piece_squares(piece(self.pieces[self.lead]));
            let mirror = lead.trailing_zeros() % 8 >= 4;
            return self.encode(position, mirror, ep);
        }
        let a = self.encode(position, false, ep);
        let b = self.encode(position, true, ep);
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Predecessors for PawnEndgame {
    /// Un-moves every piece of the side that just moved to each empty
    /// square it could have come from: pieces as in the pawnless endings,
    /// pawns one or two squares back (no un-captures, no un-promotions:
    /// those come from other endings). A position with an en-passant
    /// capture has one un-move, the pawn's double step back; a position
    /// without one does not get the double steps after which an
    /// en-passant capture would have been possible. Each predecessor is
    /// reported with and without the en-passant captures its side to move
    /// may have had.
    fn predecessors(&self, position: &Position, found: &mut dyn FnMut(u64)) {
        if !self.has_material(position) {
            return;
        }
        // The position's index, needed for double steps only.
        let mut target = None;
        let ep_pawn = PawnEndgame::ep_pawn(position);
        let mut pieces = piece_list(position);
        let turn = position.turn();
        let mover = turn.opponent();
        let t = tables();
        let occ = position.color_squares(Color::White) | position.color_squares(Color::Black);
        for k in 0..pieces.len() {
            let (at, p) = pieces[k];
            let to = at.index();
            if p.color != mover || ep_pawn.is_some_and(|e| e != to) {
                continue;
            }
            let origins = match p.role {
                Role::Pawn => pawn_origins(mover.index(), to, occ, ep_pawn.is_some()),
                role => piece_origins(t, role, to, occ),
            } & !occ;
            let mut o = origins;
            while o != 0 {
                let from = o.trailing_zeros() as usize;
                o &= o - 1;
                pieces[k].0 = square(from);
                // The side now to move was not in check before the move:
                // `from_pieces` refuses that.
                if let Ok(q) = Position::from_pieces(mover, pieces.iter().copied()) {
                    let double = p.role == Role::Pawn && from.abs_diff(to) == 16;
                    // A double step leads here only when it gives no
                    // en-passant capture (else it leads to the position
                    // with one), or when this position has one.
                    let leads_here = !double || {
                        let here = *target.get_or_insert_with(|| self.index_unchecked(position));
                        let mut child = q.clone();
                        child.make(Move::new(square(from), at, None));
                        self.index_unchecked(&child) == here
                    };
                    if leads_here {
                        self.report_with_ep(&q, found);
                    }
                }
            }
            pieces[k].0 = at;
        }
    }
}

impl PawnEndgame {
    /// Reports `q`, and `q` with each en-passant capture its side to move
    /// may have (a pawn of the other side that may just have moved two
    /// squares).
    fn report_with_ep(&self, q: &Position, found: &mut dyn FnMut(u64)) {
        if let Some(i) = self.index_unchecked(q) {
            found(i);
        }
        let them = q.turn().opponent();
        let pawns = q.piece_squares(Piece {
            color: them,
            role: Role::Pawn,
        });
        let occ = q.color_squares(Color::White) | q.color_squares(Color::Black);
        let rank = ep_rank(them.index());
        let mut bb = pawns & (0xFFu64 << (8 * rank));
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let (over, origin) = if them == Color::White {
                (sq - 8, sq - 16)
            } else {
                (sq + 8, sq + 16)
            };
            if occ & ((1u64 << over) | (1u64 << origin)) != 0 {
                continue;
            }
            if let Ok(qe) = q.clone().with_en_passant(Square::new(over as u8))
                && PawnEndgame::ep_pawn(&qe).is_some()
                && let Some(i) = self.index_unchecked(&qe)
            {
                found(i);
            }
        }
    }
}

/// The squares a pawn of colour `color` (0 White) on `to` may have come
/// from without capturing: one square back (not from the first rank), or
/// two from its starting rank over an empty square; only the double step
/// when `double_only`. Occupied origins are removed by the caller.
fn pawn_origins(color: usize, to: usize, occ: u64, double_only: bool) -> u64 {
    let rank = to / 8;
    let mut out = 0u64;
    if color == 0 {
        if rank >= 2 && !double_only {
            out |= 1u64 << (to - 8);
        }
        if rank == 3 && occ & (1u64 << (to - 8)) == 0 {
            out |= 1u64 << (to - 16);
        }
    } else {
        if rank <= 5 && !double_only {
            out |= 1u64 << (to + 8);
        }
        if rank == 4 && occ & (1u64 << (to + 8)) == 0 {
            out |= 1u64 << (to + 16);
        }
    }
    out
}

/// The same position with the colours exchanged: every piece changes
/// colour and moves to the mirror square across the middle of the board
/// (a1 ↔ a8), the other side is to move, and an en-passant square is
/// mirrored too. Its value for the side to move is the same. `None` when
/// the position has castling rights.
#[must_use]
pub fn flip_position(position: &Position) -> Option<Position> {
    if position.castling_rights() != 0 {
        return None;
    }
    let mut pieces: ArrayVec<(Square, Piece), 32> = ArrayVec::new();
    for number in 0..12 {
        let p = piece(number);
        let mut bb = position.piece_squares(p);
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let flipped = Piece {
                color: p.color.opponent(),
                role: p.role,
            };
            pieces.try_push((square(sq ^ 56), flipped)).ok()?;
        }
    }
    let q = Position::from_pieces(position.turn().opponent(), pieces).ok()?;
    match position.en_passant() {
        None => Some(q),
        Some(ep) => q.with_en_passant(Square::new(ep.index() as u8 ^ 56)).ok(),
    }
}
