//! The small traits a game implements to be searched by the gametree crates.
//!
//! This crate is the bottom of the gametree workspace: it holds the
//! vocabulary ([`Player`], [`Outcome`], [`Score`], [`Limits`]) and the one
//! trait every game implements, [`Game`]: the rules (legal moves,
//! make/unmake, outcome, hash) and, optionally, the game's **knowledge**
//! (evaluation, tactical moves and hints, immediate wins, a bound on the
//! remaining length, proof-number hints, move numbers), declared once in
//! [`Game::KNOWLEDGE`] and used by every searcher without further calls.
//! [`IndexSpace`], [`Predecessors`] and [`IndexMoves`] number a game's
//! positions for retrograde analysis. Search crates (`alphabeta`,
//! `pns-conspiracy`, `retrograde`) depend on these traits and never on a
//! concrete game; games depend on this crate and never on a search crate.
//!
//! It also ships two things every game needs to be trusted: a generic
//! [`perft`] (count the leaves of the move tree, to compare with published
//! numbers) and the [`check`] oracles (make/unmake restores the position,
//! the incremental hash equals the hash computed from scratch, `try_make`
//! accepts exactly the generated moves, forcing knowledge equals a two-ply
//! search) that unit tests, fuzzers and `cargo xtask verify` all run.
//!
//! # Implementing a game
//!
//! A pile of stones; each player in turn removes one or two; whoever takes
//! the last stone wins. Only the rules: every solver of the workspace can
//! solve it.
//!
//! ```
//! use arrayvec::ArrayVec;
//! use gametree_game::{Find, Game, Limits, Outcome, Player, Request, Score, Solver, perft};
//!
//! #[derive(Clone, Debug, PartialEq, Eq)]
//! struct Nim { stones: u32, to_move: Player }
//!
//! impl Game for Nim {
//!     type Move = u32; // stones taken
//!     type Undo = ();
//!     type Moves = ArrayVec<u32, 2>;
//!
//!     fn side_to_move(&self) -> Player { self.to_move }
//!     fn generate(&self, out: &mut Self::Moves) {
//!         out.clear();
//!         for take in 1..=2.min(self.stones) { out.push(take); }
//!     }
//!     fn make(&mut self, m: u32) { self.stones -= m; self.to_move = self.to_move.opponent(); }
//!     fn unmake(&mut self, m: u32, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The previous player took the last stone: the side to move has lost.
//!         (self.stones == 0).then_some(Outcome::Loss)
//!     }
//!     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | self.to_move.index() as u64 }
//! }
//!
//! let mut nim = Nim { stones: 4, to_move: Player::First };
//! assert_eq!(perft(&mut nim, 2), 4);
//! assert!(nim.try_make(3).is_err()); // illegal: the position is unchanged
//! assert_eq!(nim.stones, 4);
//! // The oracles every game must pass:
//! gametree_game::check::playout(&nim, &mut [1u64, 0, 0].into_iter(), 10)?;
//!
//! // Solved by alpha-beta: take one stone, and win in 3 plies.
//! let mut solver = gametree_alphabeta::AlphaBeta::<Nim>::new(gametree_alphabeta::Config::default())?;
//! let limits = Limits::none();
//! let solved = solver.solve(&mut nim, &mut Request::new(&limits).find(Find::Score));
//! assert_eq!(solved.score, Some(Score::win_in(3)));
//! assert_eq!(solved.best, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A game that knows more says so in [`Game::KNOWLEDGE`] and overrides the
//! matching methods: an evaluation for depth-limited search, tactical moves
//! ([`Game::move_hint`]) for move ordering and quiescence, immediate wins and
//! non-losing moves ([`Game::winning_move`], [`Game::non_losing_moves`]) to
//! end nodes early, [`Game::remaining_plies`] and [`Game::cannot_win`] to
//! prove draws, one-to-one [`Game::move_number`]s for history tables.
//! Knowledge that is data rather than code (an endgame database loaded at
//! run time) is an [`Oracle`], which searchers consult below the root.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod check;
mod enumerate;
mod knowledge;
mod limits;
mod options;
mod oracle;
mod perft;
mod request;
mod score;
mod solve;

pub use enumerate::{Counted, IndexMoves, IndexSpace, Predecessors};
pub use knowledge::{Knowledge, MoveHint};
pub use limits::Limits;
pub use options::{ALL_CORES, MissingKnowledge, Use};
pub use oracle::Oracle;
pub use perft::{perft, perft_divide};
pub use request::{Event, EventSink, Find, Request};
pub use score::Score;
pub use solve::{
    Progress, Solution, Solver, Stats, Stop, solve_line, solve_moves, solve_with_line,
};

use arrayvec::ArrayVec;
use core::fmt;
use core::hash::Hash;

/// One of the two players. `First` moves first from the initial position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// The player who moves first (X, White, Red, ...).
    First,
    /// The player who moves second (O, Black, Yellow, ...).
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `0` for [`Player::First`], `1` for [`Player::Second`] (for table indexing).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// The game-theoretic result of a position, from the point of view of the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The side to move loses.
    Loss,
    /// Neither side wins.
    Draw,
    /// The side to move wins.
    Win,
}

impl Outcome {
    /// The same result seen by the other player.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

impl fmt::Display for Outcome {
    /// `win`, `draw` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        })
    }
}

/// A caller-owned, allocation-free list of moves that [`Game::generate`]
/// fills. Implemented for [`arrayvec::ArrayVec`]; a game picks a capacity
/// at least as large as its largest legal move count.
pub trait MoveBuffer<M>: Default {
    /// Removes every move.
    fn clear(&mut self);
    /// Appends a move.
    ///
    /// # Panics
    ///
    /// May panic when the buffer is full; a game's capacity must bound its
    /// move count.
    fn push(&mut self, m: M);
    /// The moves, in generation order.
    fn as_slice(&self) -> &[M];
    /// The moves, for reordering in place.
    fn as_mut_slice(&mut self) -> &mut [M];
    /// Keeps only the moves for which `keep` returns `true`, in order.
    fn retain(&mut self, keep: impl FnMut(&M) -> bool);
    /// The number of moves.
    #[inline]
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    /// No moves?
    #[inline]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<M, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self);
    }
    #[inline]
    fn push(&mut self, m: M) {
        ArrayVec::push(self, m);
    }
    #[inline]
    fn as_slice(&self) -> &[M] {
        ArrayVec::as_slice(self)
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [M] {
        ArrayVec::as_mut_slice(self)
    }
    #[inline]
    fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        ArrayVec::retain(self, |m| keep(m));
    }
}

/// A move that is not legal in the position it was offered to; returned by
/// [`Game::try_make`], which leaves the position unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove<M> {
    mv: M,
}

impl<M: Copy> IllegalMove<M> {
    /// Wraps the refused move.
    pub const fn new(mv: M) -> Self {
        IllegalMove { mv }
    }
    /// The move that was refused.
    pub const fn mv(&self) -> M {
        self.mv
    }
}

impl<M: fmt::Display> fmt::Display for IllegalMove<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.mv)
    }
}

impl<M: fmt::Display + fmt::Debug> core::error::Error for IllegalMove<M> {}

/// A two-player, zero-sum, perfect-information game position that can be
/// searched.
///
/// A game implements the **rules** (the required methods) and may declare
/// **knowledge** (the provided methods, each with a sound default, switched
/// on by [`Game::KNOWLEDGE`]): an evaluation, tactical moves and quiet-move
/// hints, immediate wins and non-losing moves, a bound on the remaining
/// length, proof-number hints and a move numbering. Every searcher of the
/// workspace uses what the game declares, with no further call; a game that
/// declares nothing can still be solved by every solver.
///
/// Contract of the rules (checked by the [`check`] oracles):
/// * [`generate`](Game::generate) replaces the buffer's contents with the
///   legal moves, each once, in an order that depends only on the position.
///   A position where the game is over generates no moves, except where a
///   game's convention says otherwise (chess generates moves in a position
///   drawn by the fifty-move rule or by repetition, as perft counts them);
///   searches call [`outcome`](Game::outcome) first.
/// * [`make`](Game::make) plays a **legal** move (a precondition: use
///   [`try_make`](Game::try_make) for untrusted moves) and returns the token
///   that [`unmake`](Game::unmake) needs to restore the position exactly,
///   hash included.
/// * [`hash`](Game::hash) is maintained incrementally and always equals
///   [`recompute_hash`](Game::recompute_hash).
/// * [`outcome`](Game::outcome) is `Some` exactly when the game is over, seen
///   by the side to move (usually a [`Outcome::Loss`]: the opponent just won).
///
/// **Turn order.** Values are always from the point of view of the side to
/// move ([`side_to_move`](Game::side_to_move)). Turns need not alternate: a
/// move after which the same player is to move again (a completed box in
/// Dots-and-Boxes, a last seed in one's own store in Kalah) keeps the
/// value's sign, and every searcher of the workspace decides the sign of a
/// child's value by comparing the children's `side_to_move()` with the
/// parent's, never by ply parity.
///
/// **Hashing.** Searchers share results between transpositions through the
/// hash: two positions with equal hashes are taken to be equal (the
/// transposition tables verify all 64 bits). Put everything that decides
/// the future of the game in it: the side to move, rights and counters that
/// change the legal moves, and, when one type represents several games
/// (board sizes, `k` in a row), the rules.
pub trait Game: Clone {
    /// A move. Printing it uses the game's move notation.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display;
    /// What [`unmake`](Game::unmake) needs beyond the move (`()` for simple
    /// games; captured piece, rights and counters for chess).
    type Undo;
    /// The move list, e.g. `ArrayVec<Self::Move, N>`: no heap per node.
    type Moves: MoveBuffer<Self::Move>;

    /// The player whose turn it is.
    fn side_to_move(&self) -> Player;
    /// Writes the legal moves into `out`, replacing what it held.
    fn generate(&self, out: &mut Self::Moves);
    /// Plays a legal move. Behaviour on an illegal move is unspecified (it
    /// may panic or corrupt the position); see [`try_make`](Game::try_make).
    fn make(&mut self, m: Self::Move) -> Self::Undo;
    /// Takes back `m`, which must be the last move made, with its token.
    fn unmake(&mut self, m: Self::Move, undo: Self::Undo);
    /// `Some` when the game is over, from the side to move's view.
    fn outcome(&self) -> Option<Outcome>;
    /// The incrementally maintained position hash (usually Zobrist).
    fn hash(&self) -> u64;

    /// The same hash computed from scratch, for the oracles. The default
    /// returns [`hash`](Game::hash) (right for a game that computes its
    /// hash from the position on every call); a game that updates its hash
    /// in `make`/`unmake` overrides it so that [`check`] can compare the two.
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }

    /// The key under which a searcher's transposition table keeps this
    /// position. The default is [`hash`](Game::hash). A game whose rules
    /// are symmetric may return a key shared by a position and its images
    /// (Connect Four: a position and its mirror image), so that one entry
    /// serves them all; it must then be shared only by positions whose
    /// values are equal under every search (same side to move, same
    /// distances to the end). Such a game also overrides
    /// [`table_move`](Game::table_move), so that a best move stored by one
    /// image orders the moves of the others; a stored move is in any case
    /// only an ordering hint (searchers check that it is legal before
    /// trying it, and never trust it without searching it). Used by
    /// `gametree-alphabeta`'s table; the proof-number solvers, whose proofs
    /// name moves, key on [`hash`](Game::hash).
    #[inline]
    fn table_key(&self) -> u64 {
        self.hash()
    }

    /// The [`table_key`](Game::table_key) of the position after `m` (a
    /// legal move here), computed without making it, where the game can
    /// do that faster than [`make`](Game::make), `table_key` and
    /// [`unmake`](Game::unmake); `None` (the default) otherwise. A
    /// searcher that loads each child's table entry before searching
    /// (`gametree-alphabeta`'s prefetch) asks this first. When `Some`, it
    /// must equal the child's `table_key` ([`check::position`] tests it).
    #[inline]
    fn table_key_after(&self, m: Self::Move) -> Option<u64> {
        let _ = m;
        None
    }

    /// The move `m` of this position as the table keeps it under
    /// [`table_key`](Game::table_key): carried to the image of the position
    /// that the key stands for. The default returns `m`, right for every
    /// game whose table key is its own. A game whose key is shared by a
    /// position and its images returns the corresponding move of the image
    /// the key is computed from (Connect Four: the mirrored column when the
    /// mirror image has the smaller key), so that two images storing and
    /// reading one entry agree on which move it names. The result is a
    /// move of that image, which need not be legal here; the map must be
    /// its own inverse (`table_move(table_move(m)) == m`), as a mirror or
    /// any other reflection is.
    ///
    /// Connect Four's `Board` is an example.
    ///
    #[inline]
    fn table_move(&self, m: Self::Move) -> Self::Move {
        m
    }

    /// Whether a position can occur twice in one game (the game graph has
    /// cycles: chess, Ataxx). Solvers then cannot search depth-first to the
    /// end and prove by iterative deepening instead. The default, `false`,
    /// suits games where every move changes the position for good (a stone
    /// is added: tic-tac-toe, Connect Four, m,n,k).
    const CAN_REPEAT: bool = false;

    /// Whether the current [`outcome`](Game::outcome) rests on more than the
    /// position that [`hash`](Game::hash) identifies: a draw by repetition of
    /// an earlier position of the game, or by a counter the hash leaves out
    /// (chess's fifty-move rule). Searches that share results between
    /// transpositions never store a value that depends on such an outcome
    /// (the graph-history interaction problem). Only meaningful when
    /// `outcome()` is `Some`; answering `true` more often is safe, only
    /// slower. The default, `false`, suits every game whose outcome is a
    /// function of the hashed position.
    fn outcome_depends_on_history(&self) -> bool {
        false
    }

    /// [`outcome`](Game::outcome), on a position whose last move is known
    /// not to have won: its mover had no winning move
    /// ([`winning_move`](Game::winning_move) was `None` there, or the
    /// mover's position was itself reached by a move of a
    /// [`non_losing_moves`](Game::non_losing_moves) list, which leaves the
    /// opponent no immediate win). Searchers with forcing knowledge call it there instead of
    /// `outcome`; a game whose win test costs time overrides it to skip the
    /// test (Connect Four: only a full board can end the game then). It
    /// must equal `outcome()` on every such position ([`check::forcing`]
    /// verifies it). The default returns `outcome()`.
    #[inline]
    fn outcome_unless_won(&self) -> Option<Outcome> {
        self.outcome()
    }

    /// Is `m` legal here? The default generates the moves and looks.
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Self::Moves::default();
        self.generate(&mut moves);
        moves.as_slice().contains(&m)
    }

    /// Plays `m` if it is legal; otherwise returns an error and leaves the
    /// position unchanged.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when `m` is not among the generated moves.
    fn try_make(&mut self, m: Self::Move) -> Result<Self::Undo, IllegalMove<Self::Move>> {
        if self.is_legal(m) {
            Ok(self.make(m))
        } else {
            Err(IllegalMove::new(m))
        }
    }

    // ----- Knowledge: every item below is optional. -----

    /// Which of the knowledge methods below the game provides. A method
    /// whose item is off is never called by a searcher (its default stands
    /// in); a searcher option that needs an item the game lacks (quiescence
    /// search without tactical moves, say) is refused when the searcher is
    /// built.
    ///
    /// ```
    /// use gametree_game::Knowledge;
    ///
    /// const K: Knowledge = Knowledge::NONE.evaluation().tactics();
    /// assert!(K.has_tactics() && !K.has_forcing());
    /// ```
    const KNOWLEDGE: Knowledge = Knowledge::NONE;

    /// A heuristic value of a non-terminal position for the side to move
    /// (for depth-limited search; [`Knowledge::evaluation`]). Must return a
    /// heuristic score (`|v| <= Score::MAX_HEURISTIC`; build it with
    /// [`Score::heuristic`]); searches score terminal positions themselves
    /// from [`Game::outcome`]. The default, a draw, makes a depth-limited
    /// search count material nothing and only see the end of the game.
    fn evaluate(&self) -> Score {
        Score::DRAW
    }

    /// How promising move `m` (legal here) looks before it is searched:
    /// [`MoveHint::Tactical`] for a move worth trying first and in
    /// quiescence search (a capture, an immediate win, a forced block;
    /// [`Knowledge::tactics`]), with its priority (higher first, e.g.
    /// MVV-LVA); [`MoveHint::Quiet`] for the others, with a static ordering
    /// hint (higher first; [`Knowledge::order_hints`]; within `-2^14..2^14`).
    /// The default says every move is quiet and equal.
    fn move_hint(&self, m: Self::Move) -> MoveHint {
        let _ = m;
        MoveHint::Quiet(0)
    }

    /// The quiet hints of several moves at once, for sorting a node's
    /// moves: writes `move_hint(moves[i]).quiet()` into `out[i]` for every
    /// `i` below `moves.len().min(out.len())`. The default calls
    /// [`move_hint`](Game::move_hint) once per move; a game overrides it
    /// when the moves share work (Connect Four computes the position's
    /// threats once, not once per move). It must write exactly what
    /// `move_hint` gives: [`check::position`] tests it.
    fn quiet_hints(&self, moves: &[Self::Move], out: &mut [i32]) {
        for (o, &m) in out.iter_mut().zip(moves) {
            *o = self.move_hint(m).quiet();
        }
    }

    /// Writes only the tactical moves into `out` (for quiescence search).
    /// The default filters [`Game::generate`] by
    /// [`move_hint`](Game::move_hint); games override it with a faster
    /// generator.
    fn generate_tactical(&self, out: &mut Self::Moves) {
        self.generate(out);
        out.retain(|&m| self.move_hint(m).is_tactical());
    }

    /// A move that wins on the spot (after it the game is over and the
    /// opponent, to move, has lost), if there is one
    /// ([`Knowledge::forcing`]). With forcing knowledge it must be `Some`
    /// whenever such a move exists: searchers rely on it to bound values by
    /// distance.
    fn winning_move(&self) -> Option<Self::Move> {
        None
    }

    /// Writes the legal moves after which the opponent has no immediate win
    /// (a subset of [`Game::generate`], exactly those;
    /// [`Knowledge::forcing`]); empty when every move loses at once. Only
    /// called on a position that is not over ([`Game::outcome`] is `None`)
    /// and where [`winning_move`](Game::winning_move) is `None`.
    ///
    /// Forcing knowledge also promises that turns alternate and that the
    /// game ends only with the player who just moved winning, or with a
    /// draw ([`Game::outcome`] is never [`Outcome::Win`]): searchers bound
    /// values by distance with it (no win before the side to move's
    /// next-but-one move when `winning_move` is `None`). [`check::forcing`]
    /// verifies all of it against a two-ply search.
    fn non_losing_moves(&self, out: &mut Self::Moves) {
        self.generate(out);
    }

    /// An upper bound on the number of plies before the game ends, whatever
    /// is played ([`Knowledge::length_bound`]; a board game that fills a
    /// cell per move: its empty cells). Solvers use it to prove draws early
    /// and to bisect on the values the position can still have. Must hold
    /// for every position reached; `None` means unknown.
    fn remaining_plies(&self) -> Option<u32> {
        None
    }

    /// Heuristic initial proof and disproof numbers for proof-number search
    /// ([`Knowledge::proof_hints`]): for the question "can the side to move
    /// force a win?" at an unexpanded non-terminal node, `(proof, disproof)`
    /// estimates, each at least 1. The default, `(1, 1)`, is plain
    /// proof-number search.
    fn proof_hints(&self) -> (u32, u32) {
        (1, 1)
    }

    /// Is `player` sure not to win from here, whatever it plays, against
    /// the opponent's best defence ([`Knowledge::win_bounds`])? `true` is a
    /// proof: the game's value for `player` is at most a draw (a game where
    /// every line of `player` is blocked, or where a potential argument such
    /// as Erdős–Selfridge's shows that the opponent can block them all).
    /// `false` means "not known". Solvers use it to end a search early: a
    /// side to move that cannot win is held to a draw at best, an opponent
    /// that cannot win lets it draw at least. The default, `false`, claims
    /// nothing. [`check::win_bounds`] verifies the claims against an
    /// exhaustive search.
    fn cannot_win(&self, player: Player) -> bool {
        let _ = player;
        false
    }

    /// Is `player` sure to lose from here, whatever it plays, against the
    /// opponent's best play ([`Knowledge::win_bounds`])? `true` is a proof
    /// that the game's value for `player` is a loss: a strategy of the
    /// opponent that wins against every reply (in Connect Four, the
    /// opponent's claimeven strategy completing a four while `player`'s
    /// cells hold none). `false` means "not known". A player that loses
    /// cannot win: where this says `true`, [`cannot_win`](Self::cannot_win)
    /// must say `true` too (solvers ask this only then). Solvers use it as
    /// `cannot_win`, one step further: a side to move sure to lose is held
    /// to a loss at best, an opponent sure to lose gives the side to move
    /// a win. The default, `false`, claims nothing. [`check::win_bounds`]
    /// verifies the claims against an exhaustive search.
    fn cannot_draw(&self, player: Player) -> bool {
        let _ = player;
        false
    }

    /// Writes the moves of the side to move that threaten to win at once
    /// ([`Knowledge::threats`]): after such a move, were it to move again,
    /// it would have a winning move (a "four" in Go-Moku: `k − 1` stones in
    /// a line that the opponent has not blocked). Threat-space searches try
    /// only these as the attacker's moves and check every defence against
    /// the rules and [`Game::non_losing_moves`], so a list that misses a
    /// threat or holds a move that is none is safe (it finds fewer wins, or
    /// searches more); the exact list is fastest. Only called on a position
    /// that is not over. The default writes nothing.
    fn threat_moves(&self, out: &mut Self::Moves) {
        out.clear();
    }

    /// The number of distinct move numbers ([`move_number`](Game::move_number)
    /// is below it), at most 65,535. The default goes with the default
    /// numbering.
    const MOVE_NUMBERS: usize = DEFAULT_MOVE_NUMBERS;

    /// The textbook's move number (`nombre()`): maps a move to
    /// `0..MOVE_NUMBERS`, for history and counter-move tables and for the
    /// move a transposition table keeps. Two different moves of one
    /// position should get different numbers ([`Knowledge::move_numbers`]
    /// says they always do). The default hashes the move into
    /// `0..4096`: every game gets history tables and table moves, and two
    /// moves that share a number only share their ordering statistics.
    fn move_number(m: Self::Move) -> usize {
        default_move_number(&m)
    }
}

/// The number of move numbers of the default numbering.
pub const DEFAULT_MOVE_NUMBERS: usize = 4096;

/// The default move numbering: an FNV-1a hash of the move, reduced to
/// `0..DEFAULT_MOVE_NUMBERS`.
#[must_use]
pub fn default_move_number<M: Hash>(m: &M) -> usize {
    struct Fnv(u64);
    impl core::hash::Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    m.hash(&mut h);
    let x = h.0;
    ((x ^ (x >> 32)) as usize) % DEFAULT_MOVE_NUMBERS
}

/// The sign a child's value takes in its parent: `child_value` is from the
/// point of view of the child's side to move, the result from the parent's.
/// The value flips when the side to move changed, and keeps its sign when
/// the same player moves again.
///
/// ```
/// use gametree_game::{Player, Score, from_child};
///
/// let v = Score::win_in(3);
/// assert_eq!(from_child(Player::First, Player::Second, v), -v);
/// assert_eq!(from_child(Player::First, Player::First, v), v); // moves again
/// ```
#[inline]
#[must_use]
pub fn from_child(parent: Player, child: Player, child_value: Score) -> Score {
    if parent == child {
        child_value
    } else {
        -child_value
    }
}

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
