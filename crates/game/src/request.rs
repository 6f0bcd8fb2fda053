//! One solve request for every [`Solver`](crate::Solver): the [`Limits`],
//! what to find ([`Find`]), an optional sink for the solver's [`Event`]s
//! and an optional [`Oracle`] — new per-call parameters extend the
//! request, never add `solve_with_x` methods.

use core::fmt;
use core::time::Duration;

use crate::{Game, Limits, Oracle, Progress, Score, Solution};

/// What a solve must find.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Find {
    /// Win, draw or loss (what every solver finds; the proof-number
    /// searches find nothing more).
    #[default]
    Outcome,
    /// The exact score, with the distance to the end of the game, from the
    /// solvers that find distances (alpha-beta, databases); the others
    /// answer with the outcome only.
    Score,
}

/// What a solver reports while it works, to the sink of a [`Request`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'a, M> {
    /// An iteration of a deepening search finished (Stockfish's `info
    /// depth … score … pv …`).
    Iteration {
        /// The depth searched, in plies.
        depth: u32,
        /// The value at that depth, from the root's side to move. (A
        /// searcher on several threads may send an earlier iteration a
        /// value that draws on its helpers' deeper searches.)
        value: Score,
        /// The principal line found.
        line: &'a [M],
        /// Nodes so far.
        nodes: u64,
        /// Time so far.
        elapsed: Duration,
    },
    /// Node counts, every so often (the configuration's progress interval).
    Nodes(Progress),
    /// A database build began (retrograde analysis), before any memory is
    /// allocated.
    Start {
        /// Positions to value: the indices of the space.
        positions: u64,
        /// The working memory the build will use, in bytes.
        bytes: u64,
        /// Worker threads.
        threads: usize,
    },
    /// A level of a database build is done. Level 0 is the classification
    /// before the first level (positions decided at once: terminal
    /// positions, moves out of the space); after level `n` (a backward
    /// level or a forward sweep) every position decided at distance `n` is
    /// known.
    Level {
        /// The level just completed.
        level: u32,
        /// Positions decided by this level.
        decided: u64,
        /// Positions decided so far.
        total: u64,
        /// Indices that stand for a position.
        valid: u64,
    },
    /// The solve or build ended, with its totals.
    Done {
        /// Nodes in all (a database build: positions decided).
        nodes: u64,
        /// Time in all.
        elapsed: Duration,
    },
}

impl<M> Event<'_, M> {
    /// A copy that outlives the sink's call, for a sink that records
    /// events: the same event with an [`Iteration`](Event::Iteration)'s
    /// line dropped (the only borrowed field).
    #[must_use]
    pub fn detached(&self) -> Event<'static, M> {
        self.without_line()
    }

    /// The same event for another move type, an
    /// [`Iteration`](Event::Iteration)'s line dropped: how a database
    /// build over one representation of positions reports as another
    /// (the builds send no line).
    #[must_use]
    pub fn without_line<N>(&self) -> Event<'static, N> {
        match *self {
            Event::Iteration {
                depth,
                value,
                nodes,
                elapsed,
                ..
            } => Event::Iteration {
                depth,
                value,
                line: &[],
                nodes,
                elapsed,
            },
            Event::Nodes(p) => Event::Nodes(p),
            Event::Start {
                positions,
                bytes,
                threads,
            } => Event::Start {
                positions,
                bytes,
                threads,
            },
            Event::Level {
                level,
                decided,
                total,
                valid,
            } => Event::Level {
                level,
                decided,
                total,
                valid,
            },
            Event::Done { nodes, elapsed } => Event::Done { nodes, elapsed },
        }
    }
}

/// The event sink of a [`Request`]: a closure called with every event.
pub type EventSink<'a, M> = dyn FnMut(&Event<'_, M>) + 'a;

/// One solve request: borrowed [`Limits`], what to [`Find`], an optional
/// event sink and an optional [`Oracle`].
///
/// ```
/// use gametree_game::{Event, Find, Game, Limits, Request, Solution, Solver};
///
/// /// Solves `game` for its exact score, printing each finished iteration.
/// fn solve_verbose<G: Game, S: Solver<G>>(solver: &mut S, game: &mut G) -> Solution<G::Move> {
///     let limits = Limits::none();
///     let mut print = |e: &Event<'_, G::Move>| {
///         if let Event::Iteration { depth, value, .. } = e {
///             println!("depth {depth}: {value:?}");
///         }
///     };
///     let mut request = Request::new(&limits).find(Find::Score).events(&mut print);
///     solver.solve(game, &mut request)
/// }
/// ```
pub struct Request<'a, G: Game> {
    limits: &'a Limits,
    find: Find,
    events: Option<&'a mut EventSink<'a, G::Move>>,
    oracle: Option<&'a dyn Oracle<G>>,
}

impl<G: Game> fmt::Debug for Request<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("limits", self.limits)
            .field("find", &self.find)
            .field("events", &self.events.is_some())
            .field("oracle", &self.oracle.is_some())
            .finish()
    }
}

impl<'a, G: Game> Request<'a, G> {
    /// A request for the outcome within `limits`, with no event sink and
    /// no oracle.
    #[must_use]
    pub fn new(limits: &'a Limits) -> Self {
        Request {
            limits,
            find: Find::Outcome,
            events: None,
            oracle: None,
        }
    }

    /// What to find.
    #[must_use]
    pub fn find(mut self, find: Find) -> Self {
        self.find = find;
        self
    }

    /// Sends the solver's [`Event`]s to `sink`.
    #[must_use]
    pub fn events(mut self, sink: &'a mut EventSink<'a, G::Move>) -> Self {
        self.events = Some(sink);
        self
    }

    /// Exact values of positions below the root (an endgame database),
    /// for the solvers that consult one (alpha-beta, df-pn); the others
    /// ignore it.
    #[must_use]
    pub fn oracle(mut self, oracle: &'a dyn Oracle<G>) -> Self {
        self.oracle = Some(oracle);
        self
    }

    /// The limits.
    #[must_use]
    pub fn get_limits(&self) -> &'a Limits {
        self.limits
    }

    /// What to find.
    #[must_use]
    pub fn get_find(&self) -> Find {
        self.find
    }

    /// The oracle, if any.
    #[must_use]
    pub fn get_oracle(&self) -> Option<&'a dyn Oracle<G>> {
        self.oracle
    }

    /// Sends `event` to the sink, if any.
    pub fn emit(&mut self, event: &Event<'_, G::Move>) {
        if let Some(sink) = &mut self.events {
            sink(event);
        }
    }

    /// Sends [`Event::Done`] with `solution`'s totals and returns it: how
    /// a [`Solver`](crate::Solver) ends its answer.
    pub fn finish(&mut self, solution: Solution<G::Move>) -> Solution<G::Move> {
        self.emit(&Event::Done {
            nodes: solution.stats.nodes,
            elapsed: solution.elapsed,
        });
        solution
    }
}
