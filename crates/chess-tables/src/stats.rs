//! Win/draw/loss statistics of a table as the Syzygy generator counts
//! them ([`statistics`]).

use arrayvec::ArrayVec;
use gametree_game::IndexSpace;
use gametree_retrograde::{Counts, SizeMismatch, Table};

use crate::{Error, FastEndgame, KING_PLACEMENTS, MAX_PIECES, PawnEndgame, Signature, king_pair};

/// Win, draw and loss counts, from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
}

impl Wdl {
    /// All positions counted.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn of(c: &Counts) -> Wdl {
        Wdl {
            wins: c.wins,
            draws: c.draws,
            losses: c.losses,
        }
    }
}

/// An ending's statistics for each side to move ([`statistics`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statistics {
    /// White to move, in the Syzygy generator's convention (see
    /// [`statistics`]: positions up to symmetry, like pieces told apart).
    pub white: Wdl,
    /// Black to move, in the Syzygy generator's convention.
    pub black: Wdl,
    /// White to move, counted over the index: one per valid index (like
    /// pieces not told apart).
    pub raw_white: Wdl,
    /// Black to move, counted over the index.
    pub raw_black: Wdl,
    /// The longest win with White to move, in plies, and the smallest
    /// index holding it.
    pub longest_white_win: Option<(u16, u64)>,
    /// The longest win with Black to move, in plies, and the smallest
    /// index holding it.
    pub longest_black_win: Option<(u16, u64)>,
}

/// The statistics of `table`, the table of `space`'s ending: win, draw and
/// loss counts for each side to move in the Syzygy generator's convention
/// ([`Statistics::white`] and [`black`](Statistics::black): the figures
/// of its published `.txt` statistics, see below) and over the index
/// ([`raw_white`](Statistics::raw_white), [`raw_black`](Statistics::raw_black)),
/// and the longest wins in plies (distance to mate; the Syzygy
/// generator's longest wins are distances to zeroing, another measure).
///
/// # The convention
///
/// The Syzygy generator's statistics (its `.txt` files, published with
/// the tables) count, for each side to move, the legal positions up to
/// the board's 8 symmetries, with like pieces (two White bishops, say)
/// told apart: a position and its image under a symmetry are one, but
/// the position with the two bishops exchanged is another, unless a
/// symmetry of the board maps the position onto itself with the bishops
/// exchanged. An [`Endgame`](crate::Endgame) index stands for a class of
/// positions up to symmetry with like pieces *not* told apart (on
/// increasing squares), so it stands for `k₁! × k₂! × …` of Syzygy's
/// classes for groups of `k₁, k₂, …` like pieces — divided by the number
/// of distinct exchanges of like pieces that symmetries of the position
/// make. The only symmetry other than the identity that can map a
/// position of the index onto itself is the reflection in the diagonal
/// a1–h8, when both kings stand on it (every other symmetry moves a king:
/// the rotations and the reflections in the middle lines fix no square,
/// and the canonical king placements never have both kings on a8–h1); it
/// exchanges like pieces when it maps the pieces onto themselves and not
/// all of them stand on that diagonal. So an index counts `k₁! × k₂! × …`
/// positions, or half that.
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tablebase, Wdl};
///
/// let mut tables = Tablebase::new();
/// tables.build(&["KRvK".parse()?], &BuildOptions::default())?;
/// let stats = tables.statistics(&"KRvK".parse()?).unwrap();
/// // The Syzygy generator's published KRvK statistics.
/// assert_eq!(stats.white, Wdl { wins: 21_959, draws: 0, losses: 0 });
/// assert_eq!(stats.black, Wdl { wins: 0, draws: 2_796, losses: 25_260 });
/// // No like pieces: the index counts the same.
/// assert_eq!(stats.raw_white, stats.white);
/// // Mate in 16 moves.
/// assert_eq!(stats.longest_white_win.map(|(plies, _)| plies), Some(31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`Error::Size`] when the table does not have one entry per index of
/// the space.
pub fn statistics(space: &FastEndgame, table: &Table) -> Result<Statistics, Error> {
    if table.len() != space.size() {
        return Err(Error::Size {
            ending: space.endgame().signature().clone(),
            source: SizeMismatch {
                space: space.size(),
                table: table.len(),
            },
        });
    }
    let half = space.size() / 2;
    let white = table.counts_where(|i| i < half);
    let black = table.counts_where(|i| i >= half);
    let raw_white = Wdl::of(&white);
    let raw_black = Wdl::of(&black);
    let labellings = labellings(space);
    let (syzygy_white, syzygy_black) = if labellings == 1 {
        (raw_white, raw_black)
    } else {
        // The indices that stand for half as many labelled classes.
        let halved = |i: u64| exchanged_by_reflection(space, i);
        let white_halved = Wdl::of(&table.counts_where(|i| i < half && halved(i)));
        let black_halved = Wdl::of(&table.counts_where(|i| i >= half && halved(i)));
        let weigh = |all: Wdl, halved: Wdl| Wdl {
            wins: labellings * all.wins - labellings / 2 * halved.wins,
            draws: labellings * all.draws - labellings / 2 * halved.draws,
            losses: labellings * all.losses - labellings / 2 * halved.losses,
        };
        (
            weigh(raw_white, white_halved),
            weigh(raw_black, black_halved),
        )
    };
    Ok(Statistics {
        white: syzygy_white,
        black: syzygy_black,
        raw_white,
        raw_black,
        longest_white_win: white.longest_win,
        longest_black_win: black.longest_win,
    })
}

/// The statistics of `table`, the table of `space`'s ending with pawns,
/// in the Syzygy generator's convention as for [`statistics`]: for each
/// side to move, the legal positions without an en-passant capture (the
/// generator's statistics do not count those), up to the reflection
/// between the d- and e-files, like pieces told apart. No position is its
/// own reflection (the kings), so a [`PawnEndgame`] index stands for
/// `k₁! × k₂! × …` of them for groups of `k₁, k₂, …` like pieces.
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tablebase, Wdl};
///
/// let mut tables = Tablebase::new();
/// tables.build(&["KPvK".parse()?], &BuildOptions::default())?;
/// let stats = tables.statistics(&"KPvK".parse()?).unwrap();
/// // The Syzygy generator's published KPvK statistics.
/// assert_eq!(stats.white, Wdl { wins: 62_480, draws: 19_184, losses: 0 });
/// assert_eq!(stats.black, Wdl { wins: 0, draws: 35_210, losses: 48_802 });
/// // Mate in 28 moves at most.
/// assert_eq!(stats.longest_white_win.map(|(plies, _)| plies), Some(55));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`Error::Size`] when the table does not have one entry per index of
/// the space.
pub fn pawn_statistics(space: &PawnEndgame, table: &Table) -> Result<Statistics, Error> {
    use gametree_game::IndexSpace as _;
    if table.len() != space.size() {
        return Err(Error::Size {
            ending: space.signature().clone(),
            source: SizeMismatch {
                space: space.size(),
                table: table.len(),
            },
        });
    }
    let half = space.positions_per_side();
    let white = table.counts_where(|i| i < half);
    let black = table.counts_where(|i| (half..2 * half).contains(&i));
    let raw_white = Wdl::of(&white);
    let raw_black = Wdl::of(&black);
    let k = labellings_of(space.signature());
    let weigh = |w: Wdl| Wdl {
        wins: k * w.wins,
        draws: k * w.draws,
        losses: k * w.losses,
    };
    Ok(Statistics {
        white: weigh(raw_white),
        black: weigh(raw_black),
        raw_white,
        raw_black,
        longest_white_win: white.longest_win,
        longest_black_win: black.longest_win,
    })
}

/// `k₁! × k₂! × …` for the groups of like pieces of `space`'s ending: the
/// labellings of its like pieces.
fn labellings(space: &FastEndgame) -> u64 {
    labellings_of(space.endgame().signature())
}

/// `k₁! × k₂! × …` for the groups of like pieces of an ending.
fn labellings_of(signature: &Signature) -> u64 {
    let pieces: ArrayVec<_, MAX_PIECES> = signature.pieces().collect();
    let mut product = 1u64;
    let mut start = 0;
    while start < pieces.len() {
        let mut end = start + 1;
        while end < pieces.len() && pieces[end] == pieces[start] {
            end += 1;
        }
        product *= (1..=(end - start) as u64).product::<u64>();
        start = end;
    }
    product
}

/// Does the position of index `i` (a valid one) have a symmetry that
/// exchanges like pieces? Only the reflection in a1–h8 can, when both kings
/// stand on that diagonal (see [`statistics`]).
pub(crate) fn exchanged_by_reflection(space: &FastEndgame, i: u64) -> bool {
    let others = space.endgame().signature().piece_count() - 2;
    let kings = ((i >> (6 * others)) % KING_PLACEMENTS as u64) as usize;
    let on_diagonal = |sq: usize| sq % 8 == sq / 8;
    match king_pair(kings) {
        Some((wk, bk)) if on_diagonal(wk) && on_diagonal(bk) => {}
        _ => return false,
    }
    let Some(p) = space.position(i) else {
        return false;
    };
    let reflect = |sq: usize| (sq % 8) * 8 + sq / 8;
    let pieces: ArrayVec<(usize, usize), MAX_PIECES> = p.pieces().skip(2).collect();
    pieces
        .iter()
        .all(|&(piece, sq)| pieces.contains(&(piece, reflect(sq))))
        && pieces.iter().any(|&(_, sq)| !on_diagonal(sq))
}
