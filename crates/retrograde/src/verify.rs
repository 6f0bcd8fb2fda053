//! Oracles: the two methods agree, the predecessor generator is the exact
//! inverse of move generation, a table agrees with a search.

use core::fmt;

use gametree_game::{Game, IndexSpace, MoveBuffer, Predecessors};
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
    /// The predecessor generator is not the inverse of move generation.
    Predecessors(PredecessorFault),
    /// A value does not follow from its successors'.
    Inconsistent(Inconsistency),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Build(e) => write!(f, "build failed: {e}"),
            VerifyError::Disagree(d) => {
                write!(f, "forward sweeps and the backward method disagree at {d}")
            }
            VerifyError::Predecessors(e) => write!(f, "predecessors: {e}"),
            VerifyError::Inconsistent(e) => write!(f, "inconsistent value: {e}"),
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

/// What [`database`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatabaseReport {
    /// Indices compared between the two methods.
    pub indices: u64,
    /// Valid positions whose predecessors and value were checked.
    pub positions: u64,
    /// The table's counts.
    pub counts: crate::Counts,
}

/// The full `cargo xtask verify` row for one database: builds it by both
/// methods and compares them index by index ([`methods_agree`]), checks the
/// predecessor generator over the whole space ([`check_predecessors`]) and
/// checks every value against its successors' ([`locally_consistent`]).
///
/// # Errors
///
/// The first failure, as a [`VerifyError`].
pub fn database<S>(
    space: &S,
    resolver: &(dyn Resolve<S::Game> + Sync),
) -> Result<(Table, DatabaseReport), VerifyError>
where
    S: Predecessors + Sync,
{
    let (table, indices) = methods_agree(space, resolver)?;
    let all = 0..space.size();
    let positions = check_predecessors(space, all.clone()).map_err(VerifyError::Predecessors)?;
    locally_consistent(space, &table, resolver, all).map_err(VerifyError::Inconsistent)?;
    let counts = table.counts();
    Ok((
        table,
        DatabaseReport {
            indices,
            positions,
            counts,
        },
    ))
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

/// A position whose stored value does not follow from its successors'
/// ([`locally_consistent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The index.
    pub index: u64,
    /// The stored value.
    pub stored: Value,
    /// The value one ply of negamax over the successors' stored values gives
    /// (`None`: a successor could not be valued).
    pub from_successors: Option<Value>,
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "index {}: stored {}, its successors give {:?}",
            self.index, self.stored, self.from_successors
        )
    }
}

impl std::error::Error for Inconsistency {}

/// Checks every valid index in `indices` against one ply of negamax over
/// its successors, valued from the table (successors in the space), the
/// game (terminal successors outside it) or `resolver`: a terminal position
/// must hold its outcome, a won position the shortest win, a lost one the
/// longest loss, a draw neither. This check does not depend on how the table
/// was built, and a table that passes it everywhere is the true one (by
/// induction on the distance, every decisive value is proved by its
/// successors, and every position that can be won or lost is found).
/// Returns the number of positions checked.
///
/// # Errors
///
/// The first [`Inconsistency`] found.
pub fn locally_consistent<S: IndexSpace + Sync>(
    space: &S,
    table: &Table,
    resolver: &(dyn Resolve<S::Game> + Sync),
    indices: core::ops::Range<u64>,
) -> Result<u64, Inconsistency> {
    indices
        .into_par_iter()
        .map(|i| {
            let (Some(stored), Some(mut p)) = (table.get(i), space.position(i)) else {
                return Ok(0);
            };
            let derived = one_ply(space, table, resolver, &mut p);
            if derived == Some(stored) {
                Ok(1)
            } else {
                Err(Inconsistency {
                    index: i,
                    stored,
                    from_successors: derived,
                })
            }
        })
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

fn one_ply<S: IndexSpace>(
    space: &S,
    table: &Table,
    resolver: &(dyn Resolve<S::Game> + Sync),
    p: &mut S::Game,
) -> Option<Value> {
    use gametree_game::Outcome;
    let terminal = |g: &S::Game| match g.outcome() {
        Some(Outcome::Loss) => Some(Some(Value::Loss(0))),
        Some(Outcome::Draw) => Some(Some(Value::Draw)),
        Some(Outcome::Win) => Some(None),
        None => None,
    };
    if space.index_of(p).is_some()
        && let Some(v) = terminal(p)
    {
        return v;
    }
    let mut moves = <S::Game as Game>::Moves::default();
    p.generate(&mut moves);
    let mut best: Option<Value> = None;
    for &m in moves.as_slice() {
        let undo = p.make(m);
        let child = match space.index_of(p) {
            Some(j) => table.get(j),
            None => match terminal(p) {
                Some(v) => v,
                None => resolver.resolve(p),
            },
        };
        p.unmake(m, undo);
        let v = child?.parent();
        best = Some(best.map_or(v, |b| if rank(v) > rank(b) { v } else { b }));
    }
    best
}

/// Orders values for the side to move: shorter wins, then draws, then
/// longer losses.
fn rank(v: Value) -> i32 {
    match v {
        Value::Win(d) => 100_000 - i32::from(d),
        Value::Draw => 0,
        Value::Loss(d) => -100_000 + i32::from(d),
    }
}
