//! Dots-and-Boxes for the gametree crates: the game where a player who
//! completes a box **moves again**, so turns do not alternate, on any board
//! of `W × H` boxes with at most 64 lines.
//!
//! * [`Dots`] implements [`gametree_game::Game`] with its knowledge (lines that take
//!   boxes are tactical, lines that give one away come last, the lines left
//!   bound the game's length, lines are their own move numbers, the box
//!   difference is the evaluation). Every searcher of the workspace decides
//!   the sign of a value from `side_to_move()`, so all of them solve it.
//! * The result compares the final box difference with a target (0: more
//!   boxes wins); [`exact_score`] turns any [`gametree_game::Solver`] into a solver
//!   of the exact final box difference by a binary search over targets, and
//!   [`exact_solve`] adds a best move and a line that achieve that difference.
//! * Position text: the moves from the empty board (`""`), each a dot and a
//!   direction: `a1-` is the line from dot a1 to the right, `a1|` the line
//!   from a1 up (columns from `a`, rows from 1 at the bottom). [`Size`]
//!   parses `WxH` boxes.
//!
//! Published values reproduced by the tests (first player's final box
//! difference with best play): 1×1 −1, 2×2 +2 (a first-player win,
//! Berlekamp, *Winning Ways* and *The Dots-and-Boxes Game*), 3×3 −3 (a
//! second-player win by 3: David Wilson's analysis, which also corrects the
//! book's "by 1"), and every board up to 3×3 boxes.
//!
//! ```
//! use gametree_game::Limits;
//! use gametree_games_dots::{Dots, Size, exact_score};
//!
//! let board = Dots::new(Size::new(2, 2)?);
//! let mut solver = gametree_alphabeta::AlphaBeta::<Dots>::new(gametree_alphabeta::Config::default())?;
//! assert_eq!(exact_score(&mut solver, &board, &Limits::none()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod board;
pub mod check;
mod notation;

pub use board::{Dots, Line, MAX_LINES, Moves, Size, SizeError, Undo};
pub use notation::{ParseError, ParseErrorKind};

use gametree_game::{
    Find, Game, Limits, Outcome, Player, Request, Solution, Solver, Stop, solve_line,
};

/// The final box difference for the player to move under perfect play,
/// found with any win/draw/loss `solver` by a binary search over targets
/// (each question "is the first player's final difference above `t`,
/// equal, or below?" is one solve of the position with target `t`): at
/// most `log2(2 · boxes left + 1) + 1` solves. `None` when a limit stopped a
/// solve (each solve gets `limits`, and asks for [`Find::Score`]: a solver
/// that finds distances gives its whole line, which [`exact_solve`] keeps).
///
/// [`exact_solve`] finds a move and a line that achieve the score as well.
pub fn exact_score<S: Solver<Dots> + ?Sized>(
    solver: &mut S,
    position: &Dots,
    limits: &Limits,
) -> Option<i32> {
    let mut nodes = 0;
    bisect(solver, position, limits, &mut nodes)
        .ok()
        .map(|(first, _)| for_mover(position, first))
}

/// The exact score of a position with a move and a line that achieve it,
/// all from one series of solves ([`exact_solve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactSolution {
    /// The final box difference for the player to move under perfect play
    /// (the boxes taken so far included); `None` when a limit stopped a
    /// solve.
    pub score: Option<i32>,
    /// A move after which the player to move still gets exactly `score`
    /// (the turn kept or not); `None` at the end of the game, when a limit
    /// stopped the solves, or when the solver contradicted its own answers
    /// (the score is then still reported: a verify family checks the move
    /// against a brute force).
    pub best: Option<Line>,
    /// A line from `best` on in which every move keeps the score: both
    /// players play perfectly, so the game played out along it ends with
    /// exactly `score` for the player to move now. To the end of the game
    /// unless a limit stopped a solve.
    pub line: Vec<Line>,
    /// Positions visited, expanded or looked up by all the solves.
    pub nodes: u64,
    /// What stopped a solve before the answer was complete.
    pub stopped: Option<Stop>,
}

/// The exact final box difference for the player to move, with a best move
/// and a principal line that achieve **that** difference: the score by the
/// binary search of [`exact_score`], the move and the line from a solve of
/// the position whose target is the score itself (a draw there: every move
/// that keeps the draw gives exactly the score, whoever plays it). A
/// solver that returns only a first move (the proof-number searches) has
/// its line completed move by move ([`gametree_game::solve_line`]) on that
/// same target.
///
/// At most one solve more than [`exact_score`] (none when the search over
/// targets ended on a draw), plus the line's solves for solvers that give a
/// first move only.
///
/// ```
/// use gametree_game::{Game, Limits};
/// use gametree_games_dots::{Dots, Size, exact_score, exact_solve};
///
/// let board = Dots::from_moves(Size::new(2, 2)?, "a1- b1- a1|")?;
/// let mut solver = gametree_alphabeta::AlphaBeta::<Dots>::new(gametree_alphabeta::Config::default())?;
/// let solved = exact_solve(&mut solver, &board, &Limits::none());
/// let best = solved.best.expect("the game is not over");
/// // The best move keeps the score: the same exact score after it, from
/// // the same player's view (negated when the turn passes).
/// let mut after = board.clone();
/// after.make(best);
/// let kept = after.side_to_move() == board.side_to_move();
/// let child = exact_score(&mut solver, &after, &Limits::none()).unwrap();
/// assert_eq!(solved.score, Some(if kept { child } else { -child }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn exact_solve<S: Solver<Dots> + ?Sized>(
    solver: &mut S,
    position: &Dots,
    limits: &Limits,
) -> ExactSolution {
    let mut out = ExactSolution {
        score: None,
        best: None,
        line: Vec::new(),
        nodes: 0,
        stopped: None,
    };
    let (first, at_target) = match bisect(solver, position, limits, &mut out.nodes) {
        Ok(found) => found,
        Err(stop) => {
            out.stopped = stop;
            return out;
        }
    };
    out.score = Some(for_mover(position, first));
    if position.outcome().is_some() {
        return out;
    }
    let mut exact = position.with_target(first);
    let solution = match at_target {
        Some(solution) => solution,
        None => {
            let s = solver.solve(&mut exact, &mut request(limits));
            out.nodes += s.stats.nodes;
            s
        }
    };
    match solution.outcome {
        Some(Outcome::Draw) => {}
        None => {
            out.stopped = solution.stopped;
            return out;
        }
        // The solver said the first player's final difference is `first`,
        // and now that it is not: no move is claimed.
        Some(_) => return out,
    }
    let Some(best) = solution.best else {
        return out;
    };
    out.best = Some(best);
    out.line = if solution.line.len() > 1 && solution.line[0] == best {
        solution.line
    } else {
        let bound = exact.lines_left() as usize;
        let line = solve_line(solver, &mut exact, &mut request(limits), bound);
        if line.first() == Some(&best) {
            line
        } else {
            vec![best]
        }
    };
    out
}

/// The request of every solve here, within `limits`: for the score, which a
/// solver that finds distances (alpha-beta) answers with its whole
/// principal line, kept by [`exact_solve`]; the others answer with the
/// outcome, all that the search over targets reads.
fn request(limits: &Limits) -> Request<'_, Dots> {
    Request::new(limits).find(Find::Score)
}

/// The final box difference for the side to move, from the first player's.
fn for_mover(position: &Dots, first: i32) -> i32 {
    match position.side_to_move() {
        Player::First => first,
        Player::Second => -first,
    }
}

/// The first player's final difference under perfect play, by a binary
/// search over targets, with the solution of the solve whose target was
/// that difference (a draw), when one was made; `Err` with what stopped a
/// solve.
fn bisect<S: Solver<Dots> + ?Sized>(
    solver: &mut S,
    position: &Dots,
    limits: &Limits,
    nodes: &mut u64,
) -> Result<(i32, Option<Solution<Line>>), Option<Stop>> {
    let left = position.boxes_left() as i32;
    let now = position.box_difference();
    // The first player's final difference lies in lo..=hi.
    let (mut lo, mut hi) = (now - left, now + left);
    loop {
        if lo == hi {
            return Ok((lo, None));
        }
        let t = lo + (hi - lo) / 2;
        let mut g = position.with_target(t);
        let solution = solver.solve(&mut g, &mut request(limits));
        *nodes += solution.stats.nodes;
        let Some(outcome) = solution.outcome else {
            return Err(solution.stopped);
        };
        // The outcome is the side to move's; the target is the first
        // player's.
        let for_first = match position.side_to_move() {
            Player::First => outcome,
            Player::Second => outcome.flip(),
        };
        match for_first {
            Outcome::Win => lo = t + 1,
            Outcome::Draw => return Ok((t, Some(solution))),
            Outcome::Loss => hi = t - 1,
        }
    }
}
