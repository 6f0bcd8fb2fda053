//! What every solver here shares: the question asked, proof/disproof-number
//! arithmetic, the result types and the limit bookkeeping.

use std::fmt;
use std::time::{Duration, Instant};

use gametree_game::{Event, Game, Limits, Outcome, Request, Solution, Stats};
pub use gametree_game::{Progress, Stop};

/// A proof or disproof number. [`INFINITE`] means "can never be proven".
pub type Number = u64;

/// The infinite proof or disproof number: a proven node has disproof number
/// `INFINITE`, a disproven one proof number `INFINITE`. Finite numbers are
/// kept strictly below it (sums saturate at `INFINITE - 1`).
pub const INFINITE: Number = u64::MAX >> 2;

/// `a + b` where an infinite term makes the sum infinite and a finite sum
/// saturates just below [`INFINITE`].
#[inline]
pub(crate) fn add(a: Number, b: Number) -> Number {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

/// The question a proof-number search answers about its root position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// "Can the side to move force a win?"
    Win,
    /// "Can the side to move force at least a draw?" (avoid losing).
    AtLeastDraw,
}

impl Question {
    /// The least result, seen by the side to move at the root, that answers
    /// the question with "yes".
    #[must_use]
    pub const fn target(self) -> Outcome {
        match self {
            Question::Win => Outcome::Win,
            Question::AtLeastDraw => Outcome::Draw,
        }
    }

    /// Does the root side need a strict win (`true`) or only a draw?
    pub(crate) const fn needs_win(self) -> bool {
        matches!(self, Question::Win)
    }
}

/// Is a finished game a success for a side to move that needs a win
/// (`needs_win`) or only a draw? In the negamax form the requirement flips
/// whenever the turn passes (see [`child_needs_win`]): if the root side
/// needs a win, its opponent succeeds with a draw, and the other way round.
#[inline]
pub(crate) fn success(outcome: Outcome, needs_win: bool) -> bool {
    if needs_win {
        outcome == Outcome::Win
    } else {
        outcome != Outcome::Loss
    }
}

/// A child's `(φ, δ)` as its parent combines them: `(contribution to the
/// parent's φ, a minimum; contribution to the parent's δ, a sum)`. When the
/// move passed the turn (`flip`), the child's disproof proves the parent
/// (`φ(n) = min δ(c)`, `δ(n) = Σ φ(c)`, the negamax form); when the same
/// player moves again, the child's numbers are the parent's
/// (`φ(n) = min φ(c)`, `δ(n) = Σ δ(c)`).
#[inline]
pub(crate) fn as_parent(flip: bool, (phi, delta): (Number, Number)) -> (Number, Number) {
    if flip { (delta, phi) } else { (phi, delta) }
}

/// What a child's side to move needs when its parent's needs `needs_win`:
/// the opposite requirement when the move passed the turn (if the parent
/// needs a win, the opponent succeeds with a draw), the same one when the
/// same player moves again.
#[inline]
pub(crate) fn child_needs_win(needs_win: bool, flip: bool) -> bool {
    needs_win != flip
}

/// What the game's win bounds ([`gametree_game::Game::cannot_win`],
/// [`gametree_game::Game::cannot_draw`]) settle about a non-terminal
/// position whose side to move needs a win (`needs_win`) or only a draw:
/// `Some(false)` when it loses, or needs a win and cannot win;
/// `Some(true)` when the opponent loses, or the side needs a draw and the
/// opponent cannot win; `None` otherwise (or when the game declares no
/// win bounds).
#[inline]
pub(crate) fn settled_by_bounds<G: gametree_game::Game>(game: &G, needs_win: bool) -> Option<bool> {
    if !G::KNOWLEDGE.has_win_bounds() {
        return None;
    }
    // (A player that loses cannot win: `cannot_draw` is asked only after
    // `cannot_win` said yes.)
    let side = game.side_to_move();
    if game.cannot_win(side) && (needs_win || game.cannot_draw(side)) {
        return Some(false);
    }
    if game.cannot_win(side.opponent()) && (!needs_win || game.cannot_draw(side.opponent())) {
        return Some(true);
    }
    None
}

/// The `(φ, δ)` pair of a solved node, from its side to move's view.
#[inline]
pub(crate) fn solved(success: bool) -> (Number, Number) {
    if success {
        (0, INFINITE)
    } else {
        (INFINITE, 0)
    }
}

/// Why a solver could not be built or a search could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A memory size below the least the searcher can work with.
    TooSmall {
        /// What was asked for.
        bytes: usize,
        /// The least size.
        min: usize,
    },
    /// A memory size that cannot be addressed on this machine.
    TooLarge {
        /// What was asked for.
        bytes: usize,
        /// The largest size.
        max: usize,
    },
    /// The allocator refused the memory.
    AllocationFailed {
        /// What was asked for.
        bytes: usize,
    },
    /// A [`ValueSet`](crate::ValueSet) that is empty, unsorted or not
    /// symmetric under negation.
    BadValueSet,
    /// A leaf value that the [`ValueSet`](crate::ValueSet) does not hold.
    ValueNotInSet(gametree_game::Score),
    /// Threat-search limits that [`gametree_threats::ThreatSearch::new`]
    /// refuses.
    Threats(gametree_threats::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooSmall { bytes, min } => {
                write!(f, "{bytes} bytes is too small (min {min})")
            }
            Error::TooLarge { bytes, max } => {
                write!(f, "{bytes} bytes is too large (max {max})")
            }
            Error::AllocationFailed { bytes } => {
                write!(f, "could not allocate {bytes} bytes")
            }
            Error::BadValueSet => f.write_str(
                "the value set must be non-empty, sorted, without duplicates and symmetric under negation",
            ),
            Error::ValueNotInSet(s) => write!(f, "the leaf value {s} is not in the value set"),
            Error::Threats(e) => write!(f, "threat-space search: {e}"),
        }
    }
}

impl std::error::Error for Error {}

/// The answer of one proof-number search to its [`Question`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Yes: the side to move can force the question's target.
    Proven,
    /// No: the opponent can prevent it.
    Disproven,
    /// The search stopped first, for the given reason.
    Unknown(Stop),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Proven => f.write_str("proven"),
            Answer::Disproven => f.write_str("disproven"),
            Answer::Unknown(stop) => write!(f, "unknown ({stop})"),
        }
    }
}

/// The result of one search ([`Pns`](crate::Pns), [`DfPn`](crate::DfPn)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The question that was asked.
    pub question: Question,
    /// Proven, disproven, or unknown with the limit that stopped the search.
    pub answer: Answer,
    /// The root's proof number φ and disproof number δ (side-to-move view).
    pub proof: Number,
    /// The root's disproof number δ.
    pub disproof: Number,
    /// When proven: a move of the winning strategy at the root.
    pub best: Option<M>,
    /// What the search counted: [`Stats::nodes`], the positions expanded
    /// (moves generated at a non-terminal position; re-expansions by df-pn
    /// count again), and the tree or table use: [`Stats::table_bytes`],
    /// the bytes the tree or table may use (the table's size, or the
    /// tree's final size for the best-first searches);
    /// [`Stats::table_used`], the tree nodes held or table entries
    /// occupied at the end; [`Stats::table_stores`], the stores into the
    /// table (df-pn) or nodes added to the tree; and
    /// [`Stats::table_replacements`], the table entries overwritten by a
    /// different position (df-pn only). The other counters are zero.
    pub stats: Stats,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

impl<M> Report<M> {
    /// The report of a search that did not start: an option requires
    /// knowledge the game lacks ([`Stop::MissingKnowledge`]).
    pub(crate) fn refused(question: Question, missing: gametree_game::MissingKnowledge) -> Self {
        Report {
            question,
            answer: Answer::Unknown(Stop::MissingKnowledge(missing)),
            proof: 1,
            disproof: 1,
            best: None,
            stats: Stats::default(),
            elapsed: Duration::ZERO,
        }
    }
}

/// What a search counted: `nodes` expansions, and its tree or table use
/// (the [`Report::stats`] and [`ConspiracyReport::stats`](crate::ConspiracyReport::stats)
/// figures).
pub(crate) fn table_stats(
    nodes: u64,
    bytes: usize,
    used: usize,
    stores: u64,
    replacements: u64,
) -> Stats {
    let mut stats = Stats::nodes(nodes);
    stats.table_bytes = bytes;
    stats.table_used = used;
    stats.table_stores = stores;
    stats.table_replacements = replacements;
    stats
}

/// How the searches send their [`Progress`] to a request's sink: as
/// [`Event::Nodes`].
pub(crate) fn emit_progress<G: Game>(request: &mut Request<'_, G>, progress: &Progress) {
    request.emit(&Event::Nodes(*progress));
}

/// The [`Solver::solve`](gametree_game::Solver::solve) of the proof-number
/// searches: the value of `game` for its side to move by two searches
/// (`search`), "can it win?" and, if not, "can it draw?", each answering
/// `request` (its limits, its event sink, its oracle); ends with
/// [`Request::finish`]. The [`Solution`] has no exact score (proof-number
/// search finds no distances) and the first move of the proof as its line.
pub(crate) fn solve_request<G: Game>(
    game: &mut G,
    request: &mut Request<'_, G>,
    mut search: impl FnMut(&mut G, Question, &mut Request<'_, G>) -> Report<G::Move>,
) -> Solution<G::Move> {
    let solution = match game.outcome() {
        Some(o) => Solution::terminal(o),
        None => solve_with(|q| search(game, q, request)),
    };
    request.finish(solution)
}

/// Combines the two answers of a win/draw/loss solve ("can the side to
/// move win?", then, if not, "can it draw?") into a [`Solution`]: the best
/// move is the one that proved the win or the draw (none for a loss, where
/// every move loses); the nodes are those of both searches, the table
/// figures those of the last.
fn solve_with<M: Copy>(mut search: impl FnMut(Question) -> Report<M>) -> Solution<M> {
    let win = search(Question::Win);
    let (outcome, last, nodes, elapsed) = match win.answer {
        Answer::Proven => (Some(Outcome::Win), win, 0, Duration::ZERO),
        Answer::Unknown(_) => (None, win, 0, Duration::ZERO),
        Answer::Disproven => {
            let draw = search(Question::AtLeastDraw);
            let outcome = match draw.answer {
                Answer::Proven => Some(Outcome::Draw),
                Answer::Disproven => Some(Outcome::Loss),
                Answer::Unknown(_) => None,
            };
            (outcome, draw, win.stats.nodes, win.elapsed)
        }
    };
    let best = match outcome {
        Some(Outcome::Win | Outcome::Draw) => last.best,
        _ => None,
    };
    let mut stats = last.stats;
    stats.nodes += nodes;
    Solution {
        outcome,
        score: None,
        best,
        line: best.into_iter().collect(),
        stats,
        stopped: match last.answer {
            Answer::Unknown(stop) => Some(stop),
            _ => None,
        },
        elapsed: elapsed + last.elapsed,
    }
}

/// Limit bookkeeping shared by the searches: counts expansions, checks the
/// clock and the cancel flag every 256 expansions, and calls the progress
/// callback (which sends [`Event::Nodes`] to the request's sink).
pub(crate) struct Budget<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) start: Instant,
    pub(crate) nodes: u64,
    pub(crate) stop: Option<Stop>,
    pub(crate) progress: &'a mut dyn FnMut(&Progress),
    pub(crate) interval: u64,
    pub(crate) memory: Option<usize>,
    /// Positions whose knowledge the search consulted, for
    /// [`check_knowledge`](Budget::check_knowledge).
    #[cfg(debug_assertions)]
    visited: u64,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(
        limits: &'a Limits,
        progress: &'a mut dyn FnMut(&Progress),
        interval: u64,
        memory: Option<usize>,
    ) -> Budget<'a> {
        Budget {
            limits,
            start: Instant::now(),
            nodes: 0,
            stop: None,
            progress,
            interval: interval.max(1),
            memory,
            #[cfg(debug_assertions)]
            visited: 0,
        }
    }

    /// Counts a position whose knowledge (win bounds, proof hints,
    /// evaluation) the search is about to consult and, in debug builds,
    /// checks what the game declares against its rules on a sample of them
    /// ([`gametree_game::check::sampled_knowledge`]): a wrong declaration
    /// panics instead of giving a wrong answer. Nothing in release builds.
    #[inline]
    pub(crate) fn check_knowledge<G: gametree_game::Game>(&mut self, game: &G) {
        #[cfg(debug_assertions)]
        {
            self.visited += 1;
            gametree_game::check::sampled_knowledge(game, self.visited);
        }
        #[cfg(not(debug_assertions))]
        let _ = game;
    }

    /// Counts one expansion; returns `false` (and records why) when the
    /// search must stop. `bytes` is the memory the caller currently holds.
    pub(crate) fn expand(&mut self, bytes: usize, stored: u64) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stop = Some(Stop::Nodes);
            return false;
        }
        if self.memory.is_some_and(|m| bytes > m) {
            self.stop = Some(Stop::Memory);
            return false;
        }
        if self.nodes.is_multiple_of(256) {
            if self.limits.is_cancelled() {
                self.stop = Some(Stop::Cancelled);
                return false;
            }
            if self.limits.time.is_some_and(|t| self.start.elapsed() >= t) {
                self.stop = Some(Stop::Time);
                return false;
            }
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(self.interval) {
            (self.progress)(&Progress {
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                stored,
            });
        }
        true
    }
}

/// The answer read off a root's `(φ, δ)`.
pub(crate) fn answer_of(phi: Number, delta: Number, stop: Option<Stop>) -> Answer {
    if phi == 0 {
        Answer::Proven
    } else if delta == 0 {
        Answer::Disproven
    } else {
        Answer::Unknown(stop.unwrap_or(Stop::Nodes))
    }
}
