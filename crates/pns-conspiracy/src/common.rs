//! What every solver here shares: the question asked, proof/disproof-number
//! arithmetic, the result types and the limit bookkeeping.

use std::fmt;
use std::time::{Duration, Instant};

use game::{Limits, Outcome};

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
/// at every ply: if the root side needs a win, its opponent succeeds with a
/// draw, and the other way round.
#[inline]
pub(crate) fn success(outcome: Outcome, needs_win: bool) -> bool {
    if needs_win {
        outcome == Outcome::Win
    } else {
        outcome != Outcome::Loss
    }
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

/// Why a search stopped before answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The node budget of [`Limits::nodes`] was spent.
    Nodes,
    /// The time budget of [`Limits::time`] ran out.
    Time,
    /// The cancel flag of [`Limits::cancel`] was raised.
    Cancelled,
    /// The explicit tree reached the configured memory limit.
    Memory,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Nodes => "node limit",
            Stop::Time => "time limit",
            Stop::Cancelled => "cancelled",
            Stop::Memory => "memory limit",
        })
    }
}

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

/// How much of its memory a search used: explicit tree nodes for the
/// best-first searches, table entries for df-pn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableUse {
    /// Bytes the tree or table may use (the table's size, or the tree's
    /// final size for best-first searches).
    pub capacity_bytes: usize,
    /// Tree nodes held, or table entries occupied, at the end.
    pub used: usize,
    /// Stores into the table (df-pn) or nodes added to the tree.
    pub stores: u64,
    /// Table entries overwritten by a different position (df-pn only).
    pub replacements: u64,
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
    pub best_move: Option<M>,
    /// Positions expanded (moves generated at a non-terminal position;
    /// re-expansions by df-pn count again).
    pub nodes: u64,
    /// Tree or table use.
    pub table: TableUse,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

/// The game-theoretic value of a position found by two searches
/// ("win?" then, if not, "at least a draw?").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The value for the side to move, or `None` if a limit stopped a search.
    pub outcome: Option<Outcome>,
    /// The report of the "can the side to move win?" search.
    pub win: Report<M>,
    /// The report of the "at least a draw?" search, when it was needed.
    pub draw: Option<Report<M>>,
}

impl<M> Solution<M> {
    /// Positions expanded by both searches together.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.win.nodes + self.draw.as_ref().map_or(0, |d| d.nodes)
    }

    /// Time spent by both searches together.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.win.elapsed + self.draw.as_ref().map_or(Duration::ZERO, |d| d.elapsed)
    }
}

/// Combines the two answers of a win/draw/loss solve.
pub(crate) fn solve_with<M>(mut search: impl FnMut(Question) -> Report<M>) -> Solution<M> {
    let win = search(Question::Win);
    match win.answer {
        Answer::Proven => Solution {
            outcome: Some(Outcome::Win),
            win,
            draw: None,
        },
        Answer::Unknown(_) => Solution {
            outcome: None,
            win,
            draw: None,
        },
        Answer::Disproven => {
            let draw = search(Question::AtLeastDraw);
            let outcome = match draw.answer {
                Answer::Proven => Some(Outcome::Draw),
                Answer::Disproven => Some(Outcome::Loss),
                Answer::Unknown(_) => None,
            };
            Solution {
                outcome,
                win,
                draw: Some(draw),
            }
        }
    }
}

/// A snapshot handed to a progress callback every
/// `progress_interval` expansions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions expanded so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// Tree nodes held or table entries stored so far.
    pub stored: u64,
}

/// Limit bookkeeping shared by the searches: counts expansions, checks the
/// clock and the cancel flag every 256 expansions, and calls the progress
/// callback.
pub(crate) struct Budget<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) start: Instant,
    pub(crate) nodes: u64,
    pub(crate) stop: Option<Stop>,
    pub(crate) progress: &'a mut dyn FnMut(&Progress),
    pub(crate) interval: u64,
    pub(crate) memory: Option<usize>,
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
        }
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
