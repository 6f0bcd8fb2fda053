//! Oracles: the two methods agree, the predecessor generator is the exact
//! inverse of move generation, a table agrees with a search.

use core::fmt;

use game::{Game, IndexSpace, MoveBuffer, Predecessors};
use rayon::prelude::*;

use crate::{BuildError, Generator, Resolve, Table, Value};

/// The first index where two tables differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The index.
    pub index: u64,
    /// The first table's value (`None`: invalid).
    pub first: Option<Value>,
    /// The second table's value.
    pub second: Option<Value>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "index {}: {:?} against {:?}",
            self.index, self.first, self.second
        )
    }
}

impl std::error::Error for Disagreement {}

/// Compares two tables index by index.
///
/// # Errors
///
/// The smallest index where they differ (a length difference shows as the
/// first index one of them lacks).
pub fn compare(first: &Table, second: &Table) -> Result<u64, Disagreement> {
    let len = first.len().max(second.len());
    let bad = (0..len)
        .into_par_iter()
        .filter(|&i| first.get(i) != second.get(i) || first.is_valid(i) != second.is_valid(i))
        .min();
    match bad {
        None => Ok(len),
        Some(index) => Err(Disagreement {
            index,
            first: first.get(index),
            second: second.get(index),
        }),
    }
}

/// What went wrong in [`methods_agree`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// A build failed.
    Build(BuildError),
    /// The two methods gave different values.
    Disagree(Disagreement),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Build(e) => write!(f, "build failed: {e}"),
            VerifyError::Disagree(d) => {
                write!(f, "forward sweeps and the backward method disagree at {d}")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Builds `space` by both methods (with `resolver` for moves leaving it) and
/// checks that they agree at every index. Returns the table and the number
/// of indices compared. This is the `cargo xtask verify` row for every small
/// database.
///
/// # Errors
///
/// [`VerifyError::Build`] if either build fails, [`VerifyError::Disagree`]
/// at the first index where they differ.
pub fn methods_agree<S>(
    space: &S,
    resolver: &(dyn Resolve<S::Game> + Sync),
) -> Result<(Table, u64), VerifyError>
where
    S: Predecessors + Sync,
{
    let generator = Generator::new(space).resolver(resolver);
    let forward = generator.forward().map_err(VerifyError::Build)?;
    let backward = generator.backward().map_err(VerifyError::Build)?;
    let n = compare(&forward, &backward).map_err(VerifyError::Disagree)?;
    Ok((backward, n))
}

/// A fault of a predecessor generator found by [`check_predecessors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredecessorFault {
    /// `parent` has a move into `child`'s class, but the predecessors of
    /// `child` do not include `parent`.
    Missing {
        /// The parent's index.
        parent: u64,
        /// The child's index.
        child: u64,
    },
    /// The predecessors of `child` include `parent`, which has no move into
    /// `child`'s class (or is invalid).
    Spurious {
        /// The reported index.
        parent: u64,
        /// The child's index.
        child: u64,
    },
}

impl fmt::Display for PredecessorFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PredecessorFault::Missing { parent, child } => write!(
                f,
                "index {parent} has a move to index {child}, which does not list it as a predecessor"
            ),
            PredecessorFault::Spurious { parent, child } => write!(
                f,
                "index {child} lists {parent} as a predecessor, which has no move to it"
            ),
        }
    }
}

impl std::error::Error for PredecessorFault {}

/// Checks, for every index in `indices`, that the predecessors of its
/// position are exactly the indices with a move into its class: each
/// reported predecessor has such a move, and each move of the position
/// itself is found again among the predecessors of its successor. Over the
/// whole space, this proves the generator is the exact inverse of move
/// generation (what the backward method's counters rely on). Returns the
/// number of positions checked.
///
/// # Errors
///
/// The first [`PredecessorFault`] found.
pub fn check_predecessors<S: Predecessors + Sync>(
    space: &S,
    indices: core::ops::Range<u64>,
) -> Result<u64, PredecessorFault> {
    let has_move_into = |parent: u64, child: u64| -> bool {
        let Some(mut p) = space.position(parent) else {
            return false;
        };
        let mut moves = <S::Game as Game>::Moves::default();
        p.generate(&mut moves);
        moves.as_slice().iter().any(|&m| {
            let undo = p.make(m);
            let hit = space.index_of(&p) == Some(child);
            p.unmake(m, undo);
            hit
        })
    };
    let preds_of = |child: u64, out: &mut Vec<u64>| {
        out.clear();
        if let Some(q) = space.position(child) {
            space.predecessors(&q, &mut |p| out.push(p));
        }
    };
    indices
        .clone()
        .into_par_iter()
        .map_init(Vec::new, |buf: &mut Vec<u64>, i| {
            let Some(mut p) = space.position(i) else {
                return Ok(0);
            };
            preds_of(i, buf);
            for &parent in buf.iter() {
                if !has_move_into(parent, i) {
                    return Err(PredecessorFault::Spurious { parent, child: i });
                }
            }
            let mut moves = <S::Game as Game>::Moves::default();
            p.generate(&mut moves);
            for &m in moves.as_slice() {
                let undo = p.make(m);
                let child = space.index_of(&p);
                p.unmake(m, undo);
                if let Some(child) = child {
                    preds_of(child, buf);
                    if !buf.contains(&i) {
                        return Err(PredecessorFault::Missing { parent: i, child });
                    }
                }
            }
            Ok(1)
        })
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// A position where a table and a search disagree ([`agrees_with_search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchDisagreement {
    /// The index.
    pub index: u64,
    /// The table's value (`None`: the index is marked invalid).
    pub table: Option<Value>,
    /// The search's value.
    pub search: Value,
}

impl fmt::Display for SearchDisagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "index {}: the table says {:?}, the search {}",
            self.index, self.table, self.search
        )
    }
}

impl std::error::Error for SearchDisagreement {}

/// Checks the table against `search` (e.g. an alpha-beta solver returning
/// the exact value with its distance) at every valid index in `indices`.
/// Returns the number of positions compared.
///
/// # Errors
///
/// The first index where they differ.
pub fn agrees_with_search<S>(
    space: &S,
    table: &Table,
    indices: impl IntoIterator<Item = u64>,
    mut search: impl FnMut(&mut S::Game) -> Value,
) -> Result<u64, SearchDisagreement>
where
    S: IndexSpace,
{
    let mut checked = 0;
    for index in indices {
        let Some(mut p) = space.position(index) else {
            continue;
        };
        let found = search(&mut p);
        if table.get(index) != Some(found) {
            return Err(SearchDisagreement {
                index,
                table: table.get(index),
                search: found,
            });
        }
        checked += 1;
    }
    Ok(checked)
}
