//! The board's 8 symmetries and the 462 king placements: the canonical
//! form of a pawnless placement (see the [`Endgame`](crate::Endgame)
//! docs), as tables built at compile time.

use arrayvec::ArrayVec;
use gametree_games_chess::attacks::KING;

use crate::MAX_PIECES;

/// The number of king placements up to symmetry.
pub const KING_PLACEMENTS: usize = 462;

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
/// canonical (see [`Endgame`](crate::Endgame)), else `None` (also for a
/// square above 63).
#[must_use]
pub fn king_pair_index(white_king: usize, black_king: usize) -> Option<usize> {
    if white_king >= 64 || black_king >= 64 {
        return None;
    }
    let i = KINGS.index[white_king * 64 + black_king];
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
