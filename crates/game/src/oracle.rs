//! [`Oracle`]: exact values known without search (an endgame database).

use core::fmt;

use crate::{Game, Score};

/// Exact values of some positions, known without searching them: an
/// endgame database, a solved opening book, a closed-form rule of the game.
///
/// The game's [`Knowledge`](crate::Knowledge) is what a game *type* knows,
/// declared at compile time; an oracle is data loaded at run time (the
/// chess tables on disk), so searchers take it as a value, in the request
/// of a solve ([`Request::oracle`](crate::Request::oracle)), which
/// alpha-beta and df-pn consult. A searcher asks the
/// oracle at every node below the root before expanding it (after the
/// game's own [`outcome`](Game::outcome), so an oracle is never asked about
/// a finished game) and takes an answer as the node's exact value. The
/// root itself is always searched: its value is the best of its children's,
/// and a best move comes with it.
///
/// **The contract.** [`probe`](Oracle::probe) returns the exact value of
/// the position for its side to move, in plies to the end of the game
/// under best play, node-relative (as a transposition table stores it):
/// [`Score::win_in`]`(n)` when the side to move wins in `n` plies,
/// [`Score::loss_in`]`(n)` when it loses in `n`, [`Score::DRAW`] for a
/// draw; `None` when it does not know the position. A search that uses an
/// oracle returns the values the game's rules give wherever the oracle is
/// right; it cannot detect an oracle that is wrong. An oracle whose values
/// ignore part of the rules (chess databases ignore the fifty-move rule, as
/// every published one does) makes the search ignore them too below the
/// positions it answers.
///
/// Closures `Fn(&G) -> Option<Score>` that are `Send + Sync` are oracles.
///
/// ```
/// use arrayvec::ArrayVec;
/// use gametree_game::{Find, Game, Limits, Oracle, Outcome, Player, Request, Score, Solver};
///
/// // Take one or two stones; whoever takes the last stone wins.
/// #[derive(Clone, Debug)]
/// struct Nim { stones: u32, to_move: Player }
/// impl Game for Nim {
///     type Move = u32;
///     type Undo = ();
///     type Moves = ArrayVec<u32, 2>;
///     fn side_to_move(&self) -> Player { self.to_move }
///     fn generate(&self, out: &mut Self::Moves) {
///         out.clear();
///         for take in 1..=2.min(self.stones) { out.push(take); }
///     }
///     fn make(&mut self, m: u32) { self.stones -= m; self.to_move = self.to_move.opponent(); }
///     fn unmake(&mut self, m: u32, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
///     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
///     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | self.to_move.index() as u64 }
/// }
///
/// // The closed form: a multiple of three is lost; otherwise take the
/// // remainder. Every pair of moves removes three stones.
/// let rule = |nim: &Nim| -> Option<Score> {
///     let n = nim.stones;
///     Some(if n % 3 == 0 { Score::loss_in(2 * n / 3) } else { Score::win_in(2 * (n / 3) + 1) })
/// };
/// assert_eq!(rule.probe(&Nim { stones: 4, to_move: Player::First }), Some(Score::win_in(3)));
///
/// // Alpha-beta asks the oracle below the root: one level of search, and
/// // the principal variation to the end through the oracle's values.
/// let mut searcher = gametree_alphabeta::AlphaBeta::<Nim>::new(gametree_alphabeta::Config::default())?;
/// let mut nim = Nim { stones: 100, to_move: Player::First };
/// let limits = Limits::none();
/// let mut request = Request::new(&limits).find(Find::Score).oracle(&rule);
/// let solved = searcher.solve(&mut nim, &mut request);
/// assert_eq!(solved.score, Some(Score::win_in(67)));
/// assert_eq!(solved.best, Some(1));
/// assert_eq!(solved.line.len(), 67);
/// assert!(solved.stats.nodes < 300);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Oracle<G: Game>: Send + Sync {
    /// The exact value of `position` for its side to move (node-relative,
    /// see the trait's contract), or `None` when the oracle does not know
    /// it. Never called on a position whose game is over.
    fn probe(&self, position: &G) -> Option<Score>;
}

impl<G: Game, F: Fn(&G) -> Option<Score> + Send + Sync> Oracle<G> for F {
    fn probe(&self, position: &G) -> Option<Score> {
        self(position)
    }
}

impl<G: Game> fmt::Debug for dyn Oracle<G> + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Oracle")
    }
}
