//! The small traits a game implements to be searched by the gametree crates.
//!
//! This crate is the bottom of the gametree workspace: it holds the
//! vocabulary ([`Player`], [`Outcome`], [`Score`]) and the traits that every
//! game implements ([`Game`]) or may implement ([`Evaluate`], [`MoveIndex`],
//! [`PackMove`], [`Tactical`], [`Forcing`], [`OrderHint`], [`ProofHints`], and
//! [`IndexSpace`] /
//! [`Predecessors`] for retrograde analysis). Search crates (`alphabeta`,
//! `pns-conspiracy`, `retrograde`) depend on these traits and never on a
//! concrete game; games depend on this crate and never on a search crate.
//!
//! It also ships two things every game needs to be trusted: a generic
//! [`perft`] (count the leaves of the move tree, to compare with published
//! numbers) and the [`check`] oracles (make/unmake restores the position,
//! the incremental hash equals the hash computed from scratch, `try_make`
//! accepts exactly the generated moves) that unit tests, fuzzers and
//! `cargo xtask verify` all run.
//!
//! # Implementing a game
//!
//! A pile of stones; each player in turn removes one or two; whoever takes
//! the last stone wins.
//!
//! ```
//! use arrayvec::ArrayVec;
//! use game::{Game, Outcome, Player, perft};
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
//!     fn recompute_hash(&self) -> u64 { self.hash() }
//! }
//!
//! let mut nim = Nim { stones: 4, to_move: Player::First };
//! assert_eq!(perft(&mut nim, 2), 4);
//! assert!(nim.try_make(3).is_err()); // illegal: the position is unchanged
//! assert_eq!(nim.stones, 4);
//! // The oracles every game must pass:
//! game::check::playout(&nim, &mut [1u64, 0, 0].into_iter(), 10)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod check;
mod enumerate;
mod limits;
mod perft;
mod score;

pub use enumerate::{Counted, IndexMoves, IndexSpace, Predecessors};
pub use limits::Limits;
pub use perft::{perft, perft_divide};
pub use score::Score;

use arrayvec::ArrayVec;
use core::fmt;

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
/// Contract (checked by the [`check`] oracles):
/// * [`generate`](Game::generate) replaces the buffer's contents with the
///   legal moves, each once. A position where the game is over generates no
///   moves, except where a game's convention says otherwise (chess generates
///   moves in a position drawn by the fifty-move rule or by repetition, as
///   perft counts them); searches call [`outcome`](Game::outcome) first.
/// * [`make`](Game::make) plays a **legal** move (a precondition: use
///   [`try_make`](Game::try_make) for untrusted moves) and returns the token
///   that [`unmake`](Game::unmake) needs to restore the position exactly,
///   hash included.
/// * [`hash`](Game::hash) is maintained incrementally and always equals
///   [`recompute_hash`](Game::recompute_hash).
/// * [`outcome`](Game::outcome) is `Some` exactly when the game is over, seen
///   by the side to move (usually a [`Outcome::Loss`]: the opponent just won).
pub trait Game: Clone {
    /// A move. Printing it uses the game's move notation.
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
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
    /// The incrementally maintained position hash (usually Zobrist).
    ///
    /// When one type represents several games (board sizes, `k` in a row,
    /// blocked squares), the rules belong in the hash too: searchers keep
    /// their transposition table from one search to the next, so two
    /// positions of different games with equal hashes would share entries.
    fn hash(&self) -> u64;
    /// The same hash computed from scratch (slow; for the oracles).
    fn recompute_hash(&self) -> u64;

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
}

/// A heuristic evaluation for depth-limited search.
pub trait Evaluate: Game {
    /// The heuristic value of a non-terminal position for the side to move.
    /// Must return a heuristic score (`|v| <= Score::MAX_HEURISTIC`; build it
    /// with [`Score::heuristic`]); searches score terminal positions
    /// themselves from [`Game::outcome`].
    fn evaluate(&self) -> Score;
}

/// The textbook's move number (`nombre()`): maps a move to `0..COUNT`,
/// injective or nearly so, for history tables and counter-move tables.
pub trait MoveIndex: Copy {
    /// One more than the largest index.
    const COUNT: usize;
    /// The move's number, in `0..COUNT`.
    fn index(self) -> usize;
}

/// Packs a move into 16 bits for transposition tables.
///
/// `unpack(pack(m)) == Some(m)` for every move; the code `u16::MAX` is
/// reserved by tables for "no move" and must never be produced. An unpacked
/// move need not be legal in the position it is used in: searchers check it.
pub trait PackMove: Copy {
    /// The move's code, `< u16::MAX`.
    fn pack(self) -> u16;
    /// The move a code stands for, or `None` for a code no move produces.
    fn unpack(code: u16) -> Option<Self>;
}

/// Moves worth trying first (captures, promotions, immediate wins, forced
/// blocks), used by move pickers for ordering and by quiescence search.
pub trait Tactical: Game {
    /// `Some(priority)` for a tactical move (higher is tried first, e.g.
    /// MVV-LVA), `None` for a quiet move.
    fn tactical_score(&self, m: Self::Move) -> Option<i32>;

    /// Writes only the tactical moves into `out`. The default filters
    /// [`Game::generate`]; games override it with a faster generator.
    fn generate_tactical(&self, out: &mut Self::Moves) {
        self.generate(out);
        out.retain(|&m| self.tactical_score(m).is_some());
    }
}

/// Immediate threats, for games where "I win now" and "every move but these
/// loses at once" are cheap to see (connection games). Searchers use it to
/// end a node without expanding it, and to skip moves that hand the opponent
/// an immediate win; both keep the exact negamax value (at remaining depth
/// 2 or more, where plain negamax sees the same thing).
///
/// Contract beyond the two methods: the game ends only with the player who
/// just moved winning, or with a draw ([`Game::outcome`] is never
/// [`Outcome::Win`]). Searchers rely on it to bound values by distance
/// (no win before the side to move's next-but-one move when
/// [`winning_move`](Self::winning_move) is `None`).
pub trait Forcing: Game {
    /// A move that wins on the spot (the game ends with the side to move
    /// winning), if there is one.
    fn winning_move(&self) -> Option<Self::Move>;

    /// Writes the legal moves after which the opponent has no immediate win
    /// (a subset of [`Game::generate`]); empty when every move loses at
    /// once. Only called when [`winning_move`](Self::winning_move) is `None`.
    fn non_losing_moves(&self, out: &mut Self::Moves);
}

/// A static move-ordering hint: how promising a move looks before it is
/// searched (e.g. the number of threats it creates in a connection game).
/// Searchers try moves with higher hints first among the quiet moves, with
/// the history heuristic as a tie-break.
pub trait OrderHint: Game {
    /// Higher is tried first. Should be cheap and within `-2^15..2^15`.
    fn order_hint(&self, m: Self::Move) -> i32;
}

/// Heuristic initial proof and disproof numbers for proof-number search.
pub trait ProofHints: Game {
    /// For the question "can the side to move force a win?" at an unexpanded
    /// non-terminal node: `(proof, disproof)` estimates, each at least 1.
    /// The default, `(1, 1)`, is plain proof-number search.
    fn proof_hints(&self) -> (u32, u32) {
        (1, 1)
    }
}
