//! The tablebase as an [`Oracle`] for the searchers, and as a
//! [`Solver`] of the positions it holds.

use std::time::Instant;

use gametree_game::{Game, Limits, Oracle, Request, Score, Solution, Solver, Stop};
use gametree_games_chess::{Move, Position};
use gametree_retrograde::{DRAWN_LINE, Value};

use crate::Tablebase;

/// The tablebase answers every position of an ending it holds (colours
/// exchanged too) without castling rights, with its distance to mate:
/// `AlphaBeta` and df-pn (given it by `Request::oracle`) then stop
/// at such positions below the root instead of searching them. A table in
/// a file is read when a probe first needs it; a file that cannot be
/// read leaves its positions unknown (`None`: searched instead), the
/// error kept for [`Tablebase::take_error`].
///
/// As every published database does, the tables ignore the fifty-move
/// rule and the history of the game: a search that probes them values a
/// position by best play from it, whatever its move counter says.
///
/// ```
/// use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
/// use gametree_chess_tables::{BuildOptions, Tablebase};
/// use gametree_games_chess::Position;
///
/// let mut tables = Tablebase::new();
/// tables.build(&["KRvK".parse()?], &BuildOptions::default())?;
///
/// let mut searcher = AlphaBeta::<Position>::new(Config::default())?;
/// // One ply of search, then the tables; the line is played out to mate.
/// let mut p: Position = "8/8/8/4k3/8/8/8/R6K w - - 0 1".parse()?;
/// let limits = Limits::none();
/// let mut request = Request::new(&limits).find(Find::Score).oracle(&tables);
/// let solved = searcher.solve(&mut p, &mut request);
/// let score = solved.score.expect("solved");
/// assert_eq!(Some(score), tables.probe(&p)?.map(|v| v.to_score()));
/// assert_eq!(solved.line.len() as u32, score.plies_to_end().unwrap());
/// assert!(solved.stats.nodes < 1_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Oracle<Position> for Tablebase {
    fn probe(&self, position: &Position) -> Option<Score> {
        self.kept(Tablebase::probe(self, position))
            .map(Value::to_score)
    }
}

/// The tablebase solves the positions of the endings it holds, as any
/// [`Solver`]: the exact value with its distance to mate, the best move
/// and the line of best moves to mate ([`DRAWN_LINE`] plies of a draw),
/// the same answer whatever the request's [`Find`](gametree_game::Find).
/// Lookups count as nodes; [`Limits::time`], [`Limits::cancel`] and
/// [`Limits::nodes`] end the line early (the value and the best move are
/// still given). A position of an ending the tablebase does not hold, or
/// whose file cannot be read, is [`Stop::OutOfScope`] (the error kept for
/// [`Tablebase::take_error`]). The request's oracle is not consulted.
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tablebase};
/// use gametree_game::{Game, Limits, Outcome, Request, Solver};
/// use gametree_games_chess::Position;
///
/// let mut tables = Tablebase::new();
/// tables.build(&["KRvK".parse()?], &BuildOptions::default())?;
/// let mut p: Position = "8/8/8/4k3/8/8/8/R6K w - - 0 1".parse()?;
/// let solution = tables.solve(&mut p, &mut Request::new(&Limits::none()));
/// assert_eq!(solution.outcome, Some(Outcome::Win));
/// // The line is played out to mate.
/// let plies = solution.score.and_then(|s| s.plies_to_end()).unwrap();
/// assert_eq!(solution.line.len() as u32, plies);
/// for &m in &solution.line {
///     p.make(m);
/// }
/// assert_eq!(p.outcome(), Some(Outcome::Loss));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Solver<Position> for Tablebase {
    fn solve(
        &mut self,
        game: &mut Position,
        request: &mut Request<'_, Position>,
    ) -> Solution<Move> {
        let solution = self.solved_line(game, request.get_limits());
        request.finish(solution)
    }
}

impl Tablebase {
    /// The value, best move and line of [`Solver::solve`].
    fn solved_line(&self, game: &Position, limits: &Limits) -> Solution<Move> {
        let start = Instant::now();
        if let Some(o) = game.outcome() {
            return Solution::terminal(o);
        }
        let mut solution = Solution::default();
        solution.stats.nodes = 1;
        let Some(root) = self.kept(self.probe(game)) else {
            solution.stopped = Some(Stop::OutOfScope);
            solution.elapsed = start.elapsed();
            return solution;
        };
        let plies = root.plies().map_or(DRAWN_LINE, usize::from);
        let mut position = game.clone();
        while solution.line.len() < plies && position.outcome().is_none() {
            if !solution.line.is_empty()
                && limits
                    .reached(start.elapsed(), solution.stats.nodes)
                    .is_some()
            {
                break;
            }
            solution.stats.nodes += 1;
            match self.best_move(&position) {
                Ok(Some((m, _))) => {
                    solution.line.push(m);
                    position.make(m);
                }
                Ok(None) => break,
                Err(e) => {
                    self.kept(Err(e));
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
