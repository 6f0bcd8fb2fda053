//! Values of successors that leave the index space ([`Resolve`]).

use game::IndexSpace;

use crate::{Table, Value};

/// Values the positions a move leads to when they are outside the space
/// being built: a capture into a smaller chess ending, a promotion, a
/// position another database holds.
///
/// Every successor outside the space is passed to
/// [`resolve`](Resolve::resolve), which must return its exact value, from
/// the point of view of the side to move in `position`, or `None` when it
/// does not know it. A win, or a loss in one ply or more, is taken as it
/// is (no terminal position has such a value). Otherwise the generators
/// ask the game: a successor whose [`Game::outcome`](game::Game::outcome)
/// is `Some` is valued from it (`Loss` → `Value::Loss(0)`, `Draw` →
/// `Value::Draw`) whatever the resolver said, so a resolver need not know
/// terminal positions; for any other, `None` stops the build with
/// [`BuildError::Unresolved`](crate::BuildError::Unresolved) and a draw or
/// an immediate loss stands. A resolver whose values are exact on terminal
/// positions too, as a database's are, says so by
/// [`knows_terminals`](Resolve::knows_terminals): then its draws and
/// immediate losses are taken as they are, without asking the game (a
/// move generation per such successor).
///
/// Closures `Fn(&G) -> Option<Value>` are resolvers; so are [`NoExits`],
/// [`TableProbe`] (an already built database over its own space) and an
/// array or `Vec` of resolvers (the first `Some` wins).
pub trait Resolve<G> {
    /// The value of `position`, a successor outside the space, or `None`
    /// when this resolver does not know it.
    fn resolve(&self, position: &G) -> Option<Value>;

    /// Are the values this resolver returns exact on terminal positions
    /// too (a checkmated side to move `Loss(0)`, a stalemate a draw)?
    /// Then the generators do not ask the game about a successor it
    /// values as a draw or an immediate loss. `false` unless a resolver
    /// says otherwise; [`TableProbe`] says `true` (a database holds the
    /// exact value of every position), an array or `Vec` when all its
    /// resolvers do.
    ///
    /// A resolver that says `true` and is wrong on a terminal position
    /// makes a wrong table.
    fn knows_terminals(&self) -> bool {
        false
    }
}

impl<G, F: Fn(&G) -> Option<Value>> Resolve<G> for F {
    fn resolve(&self, position: &G) -> Option<Value> {
        self(position)
    }
}

impl<G, R: Resolve<G>, const N: usize> Resolve<G> for [R; N] {
    /// Asks each resolver in turn; the first `Some` wins.
    fn resolve(&self, position: &G) -> Option<Value> {
        self.iter().find_map(|r| r.resolve(position))
    }

    fn knows_terminals(&self) -> bool {
        self.iter().all(Resolve::knows_terminals)
    }
}

impl<G, R: Resolve<G>> Resolve<G> for Vec<R> {
    /// Asks each resolver in turn; the first `Some` wins.
    fn resolve(&self, position: &G) -> Option<Value> {
        self.iter().find_map(|r| r.resolve(position))
    }

    fn knows_terminals(&self) -> bool {
        self.iter().all(Resolve::knows_terminals)
    }
}

/// The resolver for a space that no move leaves except into terminal
/// positions (tic-tac-toe, Connect Four): it resolves nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoExits;

impl<G> Resolve<G> for NoExits {
    fn resolve(&self, _: &G) -> Option<Value> {
        None
    }
}

/// An already built [`Table`] together with the space it numbers, for
/// probing by position and as a [`Resolve`]r for bigger databases.
#[derive(Debug)]
pub struct TableProbe<'a, S> {
    space: &'a S,
    table: &'a Table,
}

/// A table whose size differs from its space's: it was built for another
/// space. Returned by [`TableProbe::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeMismatch {
    /// The space's size.
    pub space: u64,
    /// The table's number of entries.
    pub table: u64,
}

impl core::fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the table has {} entries but its space has {} indices",
            self.table, self.space
        )
    }
}

impl std::error::Error for SizeMismatch {}

impl<'a, S: IndexSpace> TableProbe<'a, S> {
    /// Pairs a table with its space.
    ///
    /// # Errors
    ///
    /// [`SizeMismatch`] when the table does not have one entry per index.
    pub fn new(space: &'a S, table: &'a Table) -> Result<Self, SizeMismatch> {
        if space.size() == table.len() {
            Ok(TableProbe { space, table })
        } else {
            Err(SizeMismatch {
                space: space.size(),
                table: table.len(),
            })
        }
    }

    /// The value of `position`, or `None` when it is not in the space (or
    /// its index is marked invalid).
    #[must_use]
    pub fn probe(&self, position: &S::Game) -> Option<Value> {
        self.table.get(self.space.index_of(position)?)
    }

    /// The space.
    #[must_use]
    pub fn space(&self) -> &'a S {
        self.space
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &'a Table {
        self.table
    }
}

impl<S: IndexSpace> Resolve<S::Game> for TableProbe<'_, S> {
    fn resolve(&self, position: &S::Game) -> Option<Value> {
        self.probe(position)
    }

    /// `true`: a table holds every position's exact value.
    fn knows_terminals(&self) -> bool {
        true
    }
}
