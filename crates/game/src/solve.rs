//! What every solver of the workspace shares: the [`Solver`] trait, its
//! [`Solution`], why a search [`Stop`]s early, and the [`Progress`]
//! snapshot handed to progress callbacks.

use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;

#[cfg(doc)]
use crate::{Event, Limits};
use crate::{Game, MoveBuffer, Outcome, Request, Score};

/// Why a search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stop {
    /// The node budget of [`Limits::nodes`] was spent.
    Nodes,
    /// The time budget of [`Limits::time`] ran out.
    Time,
    /// The cancel flag of [`Limits::cancel`] was raised.
    Cancelled,
    /// The search reached its memory bound (an explicit tree, a database).
    Memory,
    /// The position, or a successor the answer needs, is outside what the
    /// solver covers (a database that does not hold it).
    OutOfScope,
    /// The search did not start: an option set to [`Use::On`](crate::Use::On)
    /// needs knowledge the game does not declare (a solver whose
    /// constructor does not know the game refuses it here).
    MissingKnowledge(crate::MissingKnowledge),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Nodes => "node limit",
            Stop::Time => "time limit",
            Stop::Cancelled => "cancelled",
            Stop::Memory => "memory limit",
            Stop::OutOfScope => "position not covered",
            Stop::MissingKnowledge(e) => return write!(f, "refused: {e}"),
        })
    }
}

/// A snapshot handed to a progress callback (`FnMut(&Progress)`) every so
/// often by a long search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Positions visited (alpha-beta), expanded (proof-number searches) or
    /// valued (retrograde analysis) so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// Entries, tree nodes or positions held so far.
    pub stored: u64,
}

/// What a solver counted while it worked: positions, the table, the
/// cutoffs. Each solver fills the counters that apply to it and leaves the
/// others at zero (alpha-beta counts cutoffs and table probes; the
/// proof-number searches count table stores and the tree's size).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Positions visited (alpha-beta, quiescence nodes included), expanded
    /// (the proof-number searches; re-expansions count again) or looked up
    /// (a database).
    pub nodes: u64,
    /// Beta cutoffs.
    pub beta_cutoffs: u64,
    /// Beta cutoffs by the first move searched (a measure of ordering).
    pub first_move_cutoffs: u64,
    /// Table probes.
    pub tt_probes: u64,
    /// Probes that found the key.
    pub tt_hits: u64,
    /// Nodes cut off by a stored bound.
    pub tt_cutoffs: u64,
    /// PVS re-searches after a null window failed high.
    pub pvs_researches: u64,
    /// Aspiration re-searches.
    pub aspiration_researches: u64,
    /// MTD(f) null-window passes.
    pub mtdf_passes: u64,
    /// Nodes decided by the game's forcing knowledge without expansion.
    pub forced: u64,
    /// Nodes cut by a win that threat-space search proved.
    pub threat_cutoffs: u64,
    /// Nodes valued by the request's [`Oracle`](crate::Oracle).
    pub oracle_hits: u64,
    /// Table occupancy per mille at the end (alpha-beta).
    pub hashfull: u32,
    /// Bytes the table or tree may use (the table's size, or the tree's
    /// final size for best-first searches).
    pub table_bytes: usize,
    /// Tree nodes held, or table entries occupied, at the end (the
    /// proof-number searches).
    pub table_used: usize,
    /// Stores into the table, or nodes added to the tree (the
    /// proof-number searches).
    pub table_stores: u64,
    /// Table entries overwritten by a different position (df-pn).
    pub table_replacements: u64,
}

impl Stats {
    /// Counters with only `nodes` set.
    #[must_use]
    pub fn nodes(nodes: u64) -> Self {
        Stats {
            nodes,
            ..Stats::default()
        }
    }

    /// The share of cutoffs made by the first move, in `[0, 1]`.
    #[must_use]
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }
}

/// What a [`Solver`] found about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Win, draw or loss for the side to move; `None` when a limit stopped
    /// the solver first.
    pub outcome: Option<Outcome>,
    /// The exact value with the distance to the end of the game (a win in
    /// `n` plies is [`Score::win_in`]`(n)`), from the solvers that find
    /// distances (alpha-beta's `solve`, a database); `None` from the others
    /// and when `outcome` is `None`.
    pub score: Option<Score>,
    /// A move that achieves `outcome` (and `score`, when there is one);
    /// `None` at a terminal position, or when every move loses and the
    /// solver does not say which loses slowest.
    pub best: Option<M>,
    /// The principal line from `best` on, as far as the solver knows it: to
    /// the end of the game for alpha-beta's `solve` and for databases, the
    /// first move only for the proof-number solvers.
    pub line: Vec<M>,
    /// What stopped the solver before it found the outcome.
    pub stopped: Option<Stop>,
    /// Time spent.
    pub elapsed: Duration,
    /// What the solver counted, positions ([`Stats::nodes`]) first.
    pub stats: Stats,
}

impl<M> Default for Solution<M> {
    fn default() -> Self {
        Solution {
            outcome: None,
            score: None,
            best: None,
            line: Vec::new(),
            stopped: None,
            elapsed: Duration::ZERO,
            stats: Stats::default(),
        }
    }
}

impl<M> Solution<M> {
    /// The solution of a position where the game is already over.
    #[must_use]
    pub fn terminal(outcome: Outcome) -> Self {
        Solution {
            outcome: Some(outcome),
            score: Some(Score::terminal(outcome, 0)),
            ..Solution::default()
        }
    }
}

/// A solver: finds the game-theoretic value of positions, answering one
/// [`Request`] (limits, what to find, an event sink, an oracle).
/// Implemented by alpha-beta (`AlphaBeta`), the proof-number searches
/// (`Pns`, `DfPn`), conspiracy-number search (`Conspiracy`) and loaded
/// endgame databases, so that one caller (a command-line tool, a
/// verification harness) can drive any of them.
///
/// ```
/// use gametree_game::{Game, Limits, Request, Solution, Solver};
///
/// /// Solves every position with the same solver, one after the other.
/// fn solve_all<G: Game, S: Solver<G>>(solver: &mut S, positions: &mut [G]) -> Vec<Solution<G::Move>> {
///     let limits = Limits::none();
///     positions
///         .iter_mut()
///         .map(|p| solver.solve(p, &mut Request::new(&limits)))
///         .collect()
/// }
/// ```
pub trait Solver<G: Game> {
    /// Answers `request` about `game`, sending a [`Event::Done`] to its
    /// sink at the end. The position is unchanged on return.
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move>;

    /// Forgets what earlier solves left in tables (results stay correct
    /// without it; only node counts depend on what is kept).
    fn clear(&mut self) {}
}

impl<G: Game, S: Solver<G> + ?Sized> Solver<G> for &mut S {
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        (**self).solve(game, request)
    }
    fn clear(&mut self) {
        (**self).clear();
    }
}

impl<G: Game, S: Solver<G> + ?Sized> Solver<G> for alloc::boxed::Box<S> {
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        (**self).solve(game, request)
    }
    fn clear(&mut self) {
        (**self).clear();
    }
}

/// Solves every legal move of `game` with `solver`: the value of each move
/// for the side to move, best first — what an analyser shows beside each
/// column or square.
///
/// Each entry is a [`Solution`] seen from the player who makes the move:
/// `best` is the move itself, `line` starts with it and goes on with the
/// solver's line after it, `outcome` and `score` are the solved position
/// after the move seen from the mover ([`Outcome::flip`] and
/// [`Score::back_up`] when the turn passes; kept when the mover moves
/// again), `stats` and `elapsed` are the work spent on that move. Each move
/// is solved with `request` (its limits apply to each move's solve); a
/// move the limits stop has
/// `outcome == None` and comes last.
///
/// Order: wins before draws before losses before unsolved moves; within an
/// outcome, the better [`Score`] first (a faster win, a slower loss) when
/// the solver finds scores; ties keep the generation order. The best move's
/// outcome and score are those of the position itself.
///
/// The position is unchanged on return. An empty list means the game is
/// over (or the game has no legal move).
///
/// ```
/// use gametree_game::{Limits, Outcome, Request, Score, solve_moves};
/// # use gametree_game::{Game, Player, Solution, Solver};
/// # #[derive(Clone)]
/// # struct Nim { stones: u32, to_move: Player }
/// # impl Game for Nim {
/// #     type Move = u32;
/// #     type Undo = ();
/// #     type Moves = arrayvec::ArrayVec<u32, 3>;
/// #     fn side_to_move(&self) -> Player { self.to_move }
/// #     fn generate(&self, out: &mut Self::Moves) {
/// #         out.clear();
/// #         out.extend((1..=3).filter(|&m| m <= self.stones));
/// #     }
/// #     fn make(&mut self, m: u32) { self.stones -= m; self.to_move = self.to_move.opponent(); }
/// #     fn unmake(&mut self, m: u32, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
/// #     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
/// #     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | self.to_move.index() as u64 }
/// # }
/// # /// Plain negamax over the whole tree, with distances.
/// # struct Negamax;
/// # fn negamax(g: &mut Nim) -> Score {
/// #     if let Some(o) = g.outcome() { return Score::terminal(o, 0); }
/// #     let mut moves = arrayvec::ArrayVec::<u32, 3>::new();
/// #     g.generate(&mut moves);
/// #     let mut best = -Score::INFINITY;
/// #     for m in moves {
/// #         g.make(m);
/// #         best = best.max(negamax(g).back_up(false));
/// #         g.unmake(m, ());
/// #     }
/// #     best
/// # }
/// # impl Solver<Nim> for Negamax {
/// #     fn solve(&mut self, g: &mut Nim, _: &mut Request<'_, Nim>) -> Solution<u32> {
/// #         let score = negamax(g);
/// #         Solution { outcome: score.outcome(), score: Some(score), ..Solution::default() }
/// #     }
/// # }
/// // Normal-play Nim with moves of 1-3 stones: 6 stones, take 2 and win.
/// let mut game = Nim { stones: 6, to_move: Player::First };
/// let moves = solve_moves(&mut Negamax, &mut game, &mut Request::new(&Limits::none()));
/// assert_eq!(moves.len(), 3);
/// assert_eq!(moves[0].best, Some(2));
/// assert_eq!(moves[0].outcome, Some(Outcome::Win));
/// assert_eq!(moves[0].score, Some(Score::win_in(3)));
/// assert!(moves[1..].iter().all(|m| m.outcome == Some(Outcome::Loss)));
/// assert_eq!(game.stones, 6);
/// ```
pub fn solve_moves<G: Game, S: Solver<G> + ?Sized>(
    solver: &mut S,
    game: &mut G,
    request: &mut Request<'_, G>,
) -> Vec<Solution<G::Move>> {
    let mut list = G::Moves::default();
    game.generate(&mut list);
    let mover = game.side_to_move();
    let mut out: Vec<Solution<G::Move>> = Vec::with_capacity(list.len());
    for &m in list.as_slice() {
        let undo = game.make(m);
        let kept = game.side_to_move() == mover;
        let after = match game.outcome() {
            Some(o) => Solution::terminal(o),
            None => solver.solve(game, request),
        };
        game.unmake(m, undo);
        let mut line = Vec::with_capacity(after.line.len() + 1);
        line.push(m);
        line.extend_from_slice(&after.line);
        out.push(Solution {
            outcome: after.outcome.map(|o| if kept { o } else { o.flip() }),
            score: after.score.map(|s| s.back_up(kept)),
            best: Some(m),
            line,
            stopped: after.stopped,
            elapsed: after.elapsed,
            stats: after.stats,
        });
    }
    out.sort_by_key(|s| core::cmp::Reverse(move_rank(s)));
    out
}

/// The order of [`solve_moves`]: solved before unsolved, then win, draw,
/// loss, then the score.
fn move_rank<M>(s: &Solution<M>) -> (bool, i8, Option<Score>) {
    let outcome = match s.outcome {
        Some(Outcome::Win) => 1,
        Some(Outcome::Draw) => 0,
        Some(Outcome::Loss) => -1,
        None => -2,
    };
    (s.outcome.is_some(), outcome, s.score)
}

/// A line from `game` to the end of the game that keeps the value: at each
/// position the first move of [`solve_moves`] (a winning move for the side
/// that wins, the best-scored one when the solver finds scores; any move
/// that keeps the draw; for the side that loses, its slowest loss when the
/// solver finds scores, else the first move). For solvers that return only
/// a first move (the proof-number searches), this completes the line.
///
/// Each position is solved once; only when the solver finds scores are its
/// moves solved one by one as well (to rank them by score). A solver
/// without scores plays its own [`Solution::best`] for a win or a draw
/// and the first legal move for a loss, so the line costs one solve per
/// ply, not one per legal move.
///
/// Stops early, with the line so far, when a limit stops a solve or after
/// `max_plies` moves (a bound for games where the winner could go round in
/// circles without distances). The position is unchanged on return.
pub fn solve_line<G: Game, S: Solver<G> + ?Sized>(
    solver: &mut S,
    game: &mut G,
    request: &mut Request<'_, G>,
    max_plies: usize,
) -> Vec<G::Move> {
    let mut line = Vec::new();
    let mut undos = Vec::new();
    while line.len() < max_plies && game.outcome().is_none() {
        let here = solver.solve(game, request);
        let Some(outcome) = here.outcome else {
            break;
        };
        let next = match (here.score, outcome, here.best) {
            (None, Outcome::Win | Outcome::Draw, Some(m)) => Some(m),
            (None, Outcome::Loss, _) => {
                let mut list = G::Moves::default();
                game.generate(&mut list);
                list.as_slice().first().copied()
            }
            _ => solve_moves(solver, game, request)
                .first()
                .filter(|m| m.outcome.is_some())
                .and_then(|m| m.best),
        };
        let Some(m) = next else {
            break;
        };
        undos.push(game.make(m));
        line.push(m);
    }
    for (&m, undo) in line.iter().zip(undos).rev() {
        game.unmake(m, undo);
    }
    line
}

/// Solves `game` with `solver` and, when the solver gave no more than its
/// first move (the proof-number searches), completes the line move by move
/// with the same solver ([`solve_line`]): at most the game's
/// [`remaining_plies`](Game::remaining_plies), else `max_plies`. The best
/// move is the line's first. What `gametree solve` prints, and what the
/// verify rows check it by.
pub fn solve_with_line<G: Game, S: Solver<G> + ?Sized>(
    solver: &mut S,
    game: &mut G,
    request: &mut Request<'_, G>,
    max_plies: usize,
) -> Solution<G::Move> {
    let mut solution = solver.solve(game, request);
    if solution.outcome.is_some() && solution.line.len() <= 1 {
        let bound = game.remaining_plies().map_or(max_plies, |n| n as usize);
        let line = solve_line(solver, game, request, bound);
        if !line.is_empty() {
            solution.best = Some(line[0]);
            solution.line = line;
        }
    }
    solution
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    /// Normal-play Nim, moves of 1–3 stones.
    #[derive(Clone)]
    struct Nim {
        stones: u32,
        to_move: Player,
    }

    impl Game for Nim {
        type Move = u32;
        type Undo = ();
        type Moves = arrayvec::ArrayVec<u32, 3>;
        fn side_to_move(&self) -> Player {
            self.to_move
        }
        fn generate(&self, out: &mut Self::Moves) {
            out.clear();
            out.extend((1..=3).filter(|&m| m <= self.stones));
        }
        fn make(&mut self, m: u32) {
            self.stones -= m;
            self.to_move = self.to_move.opponent();
        }
        fn unmake(&mut self, m: u32, (): ()) {
            self.stones += m;
            self.to_move = self.to_move.opponent();
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.stones == 0).then_some(Outcome::Loss)
        }
        fn hash(&self) -> u64 {
            u64::from(self.stones) << 1 | self.to_move.index() as u64
        }
    }

    fn wins(stones: u32) -> bool {
        !stones.is_multiple_of(4)
    }

    /// A solver without scores (as the proof-number searches): the outcome
    /// and a winning move by the rule of Nim; counts its calls.
    struct Scoreless {
        calls: usize,
    }

    impl Solver<Nim> for Scoreless {
        fn solve(&mut self, g: &mut Nim, _: &mut Request<'_, Nim>) -> Solution<u32> {
            self.calls += 1;
            let win = wins(g.stones);
            Solution {
                outcome: Some(if win { Outcome::Win } else { Outcome::Loss }),
                best: win.then_some(g.stones % 4),
                ..Solution::default()
            }
        }
    }

    /// The line keeps the value (a winner always leaves a multiple of 4, the
    /// loser takes one stone) with one solve per ply.
    #[test]
    fn scoreless_line_costs_one_solve_per_ply() {
        for stones in 1..30 {
            let mut g = Nim {
                stones,
                to_move: Player::First,
            };
            let mut solver = Scoreless { calls: 0 };
            let none = crate::Limits::none();
            let line = solve_line(&mut solver, &mut g, &mut Request::new(&none), 100);
            assert_eq!(g.stones, stones, "position restored");
            assert_eq!(line.iter().sum::<u32>(), stones, "the line ends the game");
            assert_eq!(solver.calls, line.len());
            let mut left = stones;
            for &m in &line {
                let before = left;
                left -= m;
                if wins(before) {
                    assert!(!wins(left), "{stones}: a winner's move must keep the win");
                } else {
                    assert_eq!(m, 1, "{stones}: the loser plays the first move");
                }
            }
        }
    }
}
