//! [`BuildError`]: why a build by any of the three generators stopped.

use core::fmt;

use gametree_game::Stop;

use super::Method;
use super::levels::MAX_COUNT;
use crate::Value;

/// Why a build stopped. Each variant names the index where the problem was
/// found; all of them but [`BuildError::ThreadPool`],
/// [`BuildError::TooLarge`], [`BuildError::Memory`],
/// [`BuildError::Unsupported`] and [`BuildError::Stopped`] point at a bug
/// in the space, its predecessors or the resolver, never at a position
/// that merely has an unusual value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// `index_of(position(index))` is not `index`.
    InconsistentIndex {
        /// The index whose position maps elsewhere.
        index: u64,
        /// Where its position maps.
        found: Option<u64>,
    },
    /// A move from `index` leads to a position whose index the space marks
    /// invalid.
    InvalidSuccessor {
        /// The parent.
        index: u64,
        /// The successor's index.
        successor: u64,
    },
    /// A move from `index` leaves the space into a non-terminal position the
    /// resolver has no value for.
    Unresolved {
        /// The parent.
        index: u64,
    },
    /// The resolver returned a value the one-byte encoding cannot hold (a
    /// win at an even distance, a loss at an odd one, or too far).
    BadResolvedValue {
        /// The parent.
        index: u64,
        /// The resolver's answer.
        value: Value,
    },
    /// A terminal position is a win for the side to move; the encoding
    /// (wins at odd distances) cannot hold it.
    TerminalWin {
        /// The position's index, or its parent's when the terminal position
        /// is outside the space.
        index: u64,
    },
    /// A position that is not terminal has no moves.
    NoMoves {
        /// The position's index.
        index: u64,
    },
    /// A move from `index` leaves the same player to move. The one-byte
    /// values (wins at odd distances, losses at even ones) and the level
    /// order of both methods need turns that alternate; a game where a
    /// player may move twice in a row (Dots-and-Boxes) is refused rather
    /// than given wrong values. Solve such games with a search.
    TurnKept {
        /// The parent.
        index: u64,
    },
    /// A distance longer than [`Value::MAX_PLIES`].
    TooFar {
        /// The position's index.
        index: u64,
    },
    /// A position has more than 127 distinct successors in the space (the
    /// backward method's counters are bytes, one bit of which flags moves
    /// out of the space into lost positions).
    TooManyMoves {
        /// The position's index.
        index: u64,
    },
    /// The predecessor generator reported an index that is invalid, out of
    /// range, or has no move into the position it was asked about.
    InconsistentPredecessors {
        /// The position whose predecessors were generated.
        index: u64,
        /// The reported predecessor.
        predecessor: u64,
    },
    /// The space does not fit in this machine's address space: its size
    /// does not fit a `usize`. Nothing was allocated.
    TooLarge {
        /// The space's size.
        size: u64,
    },
    /// One of the build's arrays could not be allocated: the space is too
    /// large for the memory available
    /// ([`Generator::memory`](crate::Generator::memory) states what a build
    /// needs). Every array whose size depends on the space is allocated
    /// before the first pass over the space, so this comes before any
    /// position is looked at; nothing is kept.
    Memory {
        /// The size in bytes of the allocation that failed.
        bytes: u64,
    },
    /// The thread pool could not be built.
    ThreadPool(String),
    /// A limit set by [`Generator::limits`](crate::Generator::limits) stopped the build between two
    /// levels; nothing is kept.
    Stopped(Stop),
    /// [`Generator::build`](crate::Generator::build) was asked for
    /// [`Method::BackwardIndexed`], which needs a space implementing
    /// [`IndexMoves`](gametree_game::IndexMoves) that `build` cannot see
    /// (its space is only known to implement
    /// [`Predecessors`](gametree_game::Predecessors)). Build such a space
    /// with [`Generator::build_indexed`](crate::Generator::build_indexed)
    /// or [`Generator::backward_indexed`](crate::Generator::backward_indexed).
    /// Nothing was started.
    Unsupported {
        /// The method asked for.
        method: Method,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InconsistentIndex { index, found } => write!(
                f,
                "index {index}: its position maps back to index {found:?}"
            ),
            BuildError::InvalidSuccessor { index, successor } => write!(
                f,
                "index {index}: a move leads to index {successor}, which is marked invalid"
            ),
            BuildError::Unresolved { index } => write!(
                f,
                "index {index}: a move leaves the space and the resolver has no value for it"
            ),
            BuildError::BadResolvedValue { index, value } => write!(
                f,
                "index {index}: the resolver's value {value} cannot be encoded"
            ),
            BuildError::TerminalWin { index } => write!(
                f,
                "index {index}: a terminal position won by the side to move is not supported"
            ),
            BuildError::NoMoves { index } => {
                write!(f, "index {index}: not terminal but has no moves")
            }
            BuildError::TurnKept { index } => write!(
                f,
                "index {index}: a move leaves the same player to move (retrograde analysis needs alternating turns)"
            ),
            BuildError::TooFar { index } => write!(
                f,
                "index {index}: distance longer than {} plies",
                Value::MAX_PLIES
            ),
            BuildError::TooManyMoves { index } => write!(
                f,
                "index {index}: more than {MAX_COUNT} distinct successors in the space"
            ),
            BuildError::InconsistentPredecessors { index, predecessor } => write!(
                f,
                "index {index}: reported predecessor {predecessor} is invalid or has no move here"
            ),
            BuildError::TooLarge { size } => {
                write!(f, "a space of {size} indices does not fit in memory")
            }
            BuildError::Memory { bytes } => {
                write!(f, "cannot allocate {bytes} bytes for the build")
            }
            BuildError::ThreadPool(e) => write!(f, "cannot build the thread pool: {e}"),
            BuildError::Stopped(why) => write!(f, "the build stopped: {why}"),
            BuildError::Unsupported { method } => write!(
                f,
                "the {method} method needs a space implementing IndexMoves (use Generator::build_indexed)"
            ),
        }
    }
}

impl std::error::Error for BuildError {}
