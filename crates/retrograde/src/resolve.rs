//! Values of successors that leave the index space ([`Resolve`]).

use std::time::Instant;

use gametree_game::{
    Game, IndexSpace, Limits, MoveBuffer, Oracle, Outcome, Request, Score, Solution, Solver, Stop,
};

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
/// ask the game: a successor whose [`Game::outcome`](gametree_game::Game::outcome)
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
///
/// A `TableProbe` is also a [`Solver`]: the exact value and distance of a
/// position, a best move (fastest win, slowest loss) and the line of best
/// moves to the end of the game (a drawn line stops after
/// [`DRAWN_LINE`] plies), each successor looked up in the table, or,
/// when it leaves the space, in the [`exits`](TableProbe::exits)
/// resolver. A position or successor that nothing covers gives a
/// [`Solution`] stopped with [`Stop::OutOfScope`].
///
/// ```
/// use gametree_game::{Limits, Outcome, Request, Score, Solver};
/// use gametree_games_tictactoe::TicTacToe;
/// use gametree_games_tictactoe::index::BoardIndex;
/// use gametree_retrograde::{Generator, Method, TableProbe};
///
/// let space = BoardIndex::plain();
/// let table = Generator::new(&space).build(Method::Backward)?;
/// let mut db = TableProbe::new(&space, &table)?;
/// let solution = db.solve(&mut TicTacToe::new(), &mut Request::new(&Limits::none()));
/// assert_eq!(solution.outcome, Some(Outcome::Draw));
/// assert_eq!(solution.score, Some(Score::DRAW));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TableProbe<'a, S: IndexSpace> {
    space: &'a S,
    table: &'a Table,
    exits: Option<&'a (dyn Resolve<S::Game> + Sync)>,
}

impl<S: IndexSpace + core::fmt::Debug> core::fmt::Debug for TableProbe<'_, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TableProbe")
            .field("space", self.space)
            .field("table", self.table)
            .field("exits", &self.exits.is_some())
            .finish()
    }
}

/// How many plies of a drawn line [`TableProbe`]'s [`Solver`] reports (a
/// draw has no end to reach).
pub const DRAWN_LINE: usize = 20;

/// The longest line [`TableProbe`]'s [`Solver`] follows.
const MAX_LINE: usize = 1024;

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
            Ok(TableProbe {
                space,
                table,
                exits: None,
            })
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

    /// Values the successors outside the space through `exits` (the
    /// sub-databases of a chess ending) when solving; without it such a
    /// successor is out of scope.
    #[must_use]
    pub fn exits(mut self, exits: &'a (dyn Resolve<S::Game> + Sync)) -> Self {
        self.exits = Some(exits);
        self
    }

    /// The exact value of any position: over (from the game), in the
    /// space (from the table) or leaving it (from the exits).
    fn value(&self, position: &S::Game) -> Option<Value> {
        match position.outcome() {
            Some(Outcome::Loss) => return Some(Value::Loss(0)),
            Some(Outcome::Draw) => return Some(Value::Draw),
            Some(Outcome::Win) => return Some(Value::Win(0)),
            None => {}
        }
        match self.space.index_of(position) {
            Some(i) => self.table.get(i),
            None => self.exits?.resolve(position),
        }
    }

    /// A best move of `position` and its value: the fastest win, else a
    /// draw, else the slowest loss. `Err(n)` when a successor is not
    /// covered, after `n` lookups.
    fn best(&self, position: &S::Game, lookups: &mut u64) -> Result<Best<S::Game>, ()> {
        let mut moves = <S::Game as Game>::Moves::default();
        position.generate(&mut moves);
        let mut best: Option<(<S::Game as Game>::Move, Value)> = None;
        for &m in moves.as_slice() {
            let mut child = position.clone();
            child.make(m);
            *lookups += 1;
            let v = self.value(&child).ok_or(())?.parent();
            // `Score` orders faster wins first and slower losses last.
            if best.is_none_or(|(_, b)| v.to_score() > b.to_score()) {
                best = Some((m, v));
            }
        }
        Ok(best)
    }
}

/// A best move and its value (`None` when there is no move).
type Best<G> = Option<(<G as Game>::Move, Value)>;

impl<S: IndexSpace> Solver<S::Game> for TableProbe<'_, S> {
    /// Looks the position up, then follows best moves to the end of the
    /// game. Lookups count as nodes; [`Limits::time`] and
    /// [`Limits::cancel`] end the line early (the value and best move are
    /// still given), [`Limits::nodes`] bounds the lookups the same way.
    /// The request's oracle is not consulted: the table is exact.
    fn solve(
        &mut self,
        game: &mut S::Game,
        request: &mut Request<'_, S::Game>,
    ) -> Solution<<S::Game as Game>::Move> {
        let solution = self.line(game, request.get_limits());
        request.finish(solution)
    }
}

impl<S: IndexSpace> TableProbe<'_, S> {
    /// The value, best move and line of [`Solver::solve`].
    fn line(&mut self, game: &mut S::Game, limits: &Limits) -> Solution<<S::Game as Game>::Move> {
        let start = Instant::now();
        let mut solution = Solution::default();
        if let Some(o) = game.outcome() {
            return Solution::terminal(o);
        }
        solution.stats.nodes = 1;
        let Some(root) = self.value(game) else {
            solution.stopped = Some(Stop::OutOfScope);
            solution.elapsed = start.elapsed();
            return solution;
        };
        let mut position = game.clone();
        loop {
            if position.outcome().is_some()
                || solution.line.len() >= MAX_LINE
                || (root == Value::Draw && solution.line.len() >= DRAWN_LINE)
            {
                break;
            }
            let stop = limits.reached(start.elapsed(), solution.stats.nodes);
            if stop.is_some() && !solution.line.is_empty() {
                break;
            }
            match self.best(&position, &mut solution.stats.nodes) {
                Ok(Some((m, _))) => {
                    solution.line.push(m);
                    position.make(m);
                }
                Ok(None) => break,
                Err(()) => {
                    if solution.line.is_empty() {
                        solution.stopped = Some(Stop::OutOfScope);
                        solution.elapsed = start.elapsed();
                        return solution;
                    }
                    break;
                }
            }
        }
        solution.outcome = Some(root.outcome());
        solution.score = Some(root.to_score());
        solution.best = solution.line.first().copied();
        solution.elapsed = start.elapsed();
        solution
    }
}

/// A database is an [`Oracle`] for the searchers: the exact value of a
/// position in its space, or of one its [`exits`](TableProbe::exits)
/// resolver knows, as a node-relative [`Score`].
///
/// ```
/// use gametree_game::{Oracle, Score};
/// use gametree_games_tictactoe::TicTacToe;
/// use gametree_games_tictactoe::index::BoardIndex;
/// use gametree_retrograde::{Generator, Method, TableProbe};
///
/// let space = BoardIndex::plain();
/// let table = Generator::new(&space).build(Method::Backward)?;
/// let db = TableProbe::new(&space, &table)?;
/// // X to move wins at once.
/// let p: TicTacToe = "XX.OO....".parse()?;
/// assert_eq!(Oracle::probe(&db, &p), Some(Score::win_in(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<S: IndexSpace + Sync> Oracle<S::Game> for TableProbe<'_, S> {
    fn probe(&self, position: &S::Game) -> Option<Score> {
        TableProbe::probe(self, position)
            .or_else(|| self.exits.and_then(|e| e.resolve(position)))
            .map(Value::to_score)
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
