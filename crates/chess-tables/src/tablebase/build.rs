//! Building one ending's table: the limits, the method (the indexed
//! backward method, over [`FastEndgame`] without pawns and [`PawnEndgame`]
//! with them), and the memory a build takes.

use gametree_game::{IndexMoves, IndexSpace};
use gametree_retrograde::{Event, Generator, Method, Resolve, Table};

use super::{
    Built, Entry, MAX_BUILD_PIECES, MAX_PAWN_BUILD_PIECES, MixedTables, PawnEntry, Progress,
    SubTables, label,
};
use crate::{Endgame, Error, FastEndgame, PawnEndgame, Signature};

/// [`Error::TooManyPieces`] when `ending` is larger than
/// [`MAX_BUILD_PIECES`] (or [`MAX_PAWN_BUILD_PIECES`] with pawns).
pub(super) fn check_buildable(ending: &Signature) -> Result<(), Error> {
    let most = if ending.has_pawns() {
        MAX_PAWN_BUILD_PIECES
    } else {
        MAX_BUILD_PIECES
    };
    if ending.piece_count() > most {
        return Err(Error::TooManyPieces {
            ending: ending.clone(),
            pieces: ending.piece_count(),
        });
    }
    Ok(())
}

/// Builds one ending's table, its exits valued in `pawnless` and `pawns`:
/// the indexed backward method, over [`PawnEndgame`] with pawns and
/// [`FastEndgame`] without.
pub(super) fn build_ending(
    ending: &Signature,
    pawnless: Vec<&Entry>,
    pawns: Vec<&PawnEntry>,
    threads: usize,
    progress: Option<&Progress<'_>>,
) -> Result<Built, Error> {
    let report = |e: &Event| {
        if let Some(p) = progress {
            p(ending, e);
        }
    };
    let report: Option<&(dyn Fn(&Event) + Sync)> = progress.is_some().then_some(&report);
    if let Some(space) = pawn_space_of(ending) {
        let resolver = MixedTables { pawnless, pawns };
        let table = indexed(ending, &space, &resolver, threads, report)?;
        return Ok(Built::Pawns(Box::new((space, table))));
    }
    let space = space_of(ending);
    let resolver = SubTables::new(pawnless);
    let table = indexed(ending, &space, &resolver, threads, report)?;
    Ok(Built::Pawnless(Box::new((space, table))))
}

/// One space's table by the indexed backward method, its exits valued by
/// `resolver`.
fn indexed<S: IndexMoves + Sync>(
    ending: &Signature,
    space: &S,
    resolver: &(dyn Resolve<S::Game> + Sync),
    threads: usize,
    report: Option<&(dyn Fn(&Event) + Sync)>,
) -> Result<Table, Error> {
    let mut generator = Generator::new(space)
        .label(label(ending))
        .resolver(resolver)
        .threads(threads);
    if let Some(report) = report {
        generator = generator.progress(report);
    }
    generator.backward_indexed().map_err(|source| Error::Build {
        ending: ending.clone(),
        source,
    })
}

/// The index space of a pawnless ending.
pub(super) fn space_of(signature: &Signature) -> FastEndgame {
    FastEndgame::from_endgame(Endgame::from_signature(signature.clone()))
}

/// The index space of an ending with pawns, or `None` for a pawnless one.
pub(super) fn pawn_space_of(signature: &Signature) -> Option<PawnEndgame> {
    PawnEndgame::from_signature(signature.clone()).ok()
}

/// The memory a build of `ending` on `threads` threads takes, its table
/// included: [`Generator::memory`] of its method.
pub(super) fn build_bytes(ending: &Signature, threads: usize) -> u64 {
    match pawn_space_of(ending) {
        Some(space) => {
            Generator::new(&space)
                .threads(threads)
                .memory(Method::BackwardIndexed)
                .total_bytes
        }
        None => {
            let space = space_of(ending);
            Generator::new(&space)
                .threads(threads)
                .memory(Method::BackwardIndexed)
                .total_bytes
        }
    }
}

/// The size of an ending's index space.
pub(super) fn space_size(signature: &Signature) -> u64 {
    match pawn_space_of(signature) {
        Some(space) => space.size(),
        None => space_of(signature).size(),
    }
}
