//! [`Score`]: the negamax value of a position, with decisive scores that
//! encode the distance to the end of the game.

use core::fmt;
use core::ops::Neg;

use crate::Outcome;

/// The value of a position from the point of view of the side to move
/// (negamax convention): positive is good for the side to move, `0` is a draw.
///
/// A score is either *heuristic* (an evaluation, `|s| <=`
/// [`Score::MAX_HEURISTIC`]) or *decisive*: a win or loss at a known distance.
/// A win in `n` plies is `WIN - n`, a loss in `n` plies is `-(WIN - n)`, so the
/// ordinary integer order prefers shorter wins and longer losses.
///
/// Searches usually count the distance from the **root** (a mate found at ply
/// 7 of the search is "win in 7" for the root); a transposition table must
/// store it relative to the **node** (the same mate seen from a node at ply 3
/// is "win in 4"), because the same node is reached at different plies. Use
/// [`Score::to_node_relative`] before storing and [`Score::to_root_relative`]
/// after probing.
///
/// All scores, including [`Score::INFINITY`], fit in an `i16`, so tables can
/// pack them in 16 bits.
///
/// ```
/// use gametree_game::{Outcome, Score};
///
/// let mate_in_3 = Score::win_in(3);
/// assert!(mate_in_3.is_win());
/// assert_eq!(mate_in_3.plies_to_end(), Some(3));
/// assert!(Score::win_in(1) > mate_in_3); // shorter wins are better
/// assert_eq!(-Score::loss_in(4), Score::win_in(4));
/// // a terminal loss found 5 plies below the root
/// assert_eq!(Score::terminal(Outcome::Loss, 5), Score::loss_in(5));
/// // stored in a table at a node on ply 2, read back at ply 2
/// let stored = mate_in_3.to_node_relative(2);
/// assert_eq!(stored, Score::win_in(1));
/// assert_eq!(stored.to_root_relative(2), mate_in_3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// A draw, and the neutral evaluation.
    pub const DRAW: Score = Score(0);
    /// A win at this very node (zero plies to go): the largest finite score.
    pub const WIN: Score = Score(32_000);
    /// A loss at this very node: the smallest finite score.
    pub const LOSS: Score = Score(-32_000);
    /// Larger than every score; searches start with `(-INFINITY, INFINITY)`.
    pub const INFINITY: Score = Score(32_001);
    /// The longest distance a decisive score can carry, in plies.
    pub const MAX_PLY: u32 = 1_000;
    /// The largest heuristic (non-decisive) value.
    pub const MAX_HEURISTIC: i32 = 32_000 - Self::MAX_PLY as i32 - 1;

    /// Wraps a raw value. Values outside `[-INFINITY, INFINITY]` are clamped.
    #[inline]
    #[must_use]
    pub const fn new(value: i32) -> Score {
        let inf = Self::INFINITY.0;
        Score(if value > inf {
            inf
        } else if value < -inf {
            -inf
        } else {
            value
        })
    }

    /// A heuristic value, clamped into `[-MAX_HEURISTIC, MAX_HEURISTIC]` so
    /// that it can never be mistaken for a decisive score.
    #[inline]
    #[must_use]
    pub const fn heuristic(value: i32) -> Score {
        let m = Self::MAX_HEURISTIC;
        Score(if value > m {
            m
        } else if value < -m {
            -m
        } else {
            value
        })
    }

    /// A win for the side to move in `plies` plies (clamped to [`Score::MAX_PLY`]).
    #[inline]
    #[must_use]
    pub const fn win_in(plies: u32) -> Score {
        let p = if plies > Self::MAX_PLY {
            Self::MAX_PLY
        } else {
            plies
        };
        Score(Self::WIN.0 - p as i32)
    }

    /// A loss for the side to move in `plies` plies (clamped to [`Score::MAX_PLY`]).
    #[inline]
    #[must_use]
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Self::win_in(plies).0)
    }

    /// The score of a terminal position whose [`Outcome`] is `outcome`,
    /// reached `ply` plies below the root (root-relative distance).
    #[inline]
    #[must_use]
    pub const fn terminal(outcome: Outcome, ply: u32) -> Score {
        match outcome {
            Outcome::Win => Self::win_in(ply),
            Outcome::Draw => Self::DRAW,
            Outcome::Loss => Self::loss_in(ply),
        }
    }

    /// The raw integer.
    #[inline]
    #[must_use]
    pub const fn get(self) -> i32 {
        self.0
    }

    /// Is this a win or a loss at a known distance?
    #[inline]
    #[must_use]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() > Self::MAX_HEURISTIC && self.0.abs() <= Self::WIN.0
    }

    /// Is this a win for the side to move?
    #[inline]
    #[must_use]
    pub const fn is_win(self) -> bool {
        self.is_decisive() && self.0 > 0
    }

    /// Is this a loss for the side to move?
    #[inline]
    #[must_use]
    pub const fn is_loss(self) -> bool {
        self.is_decisive() && self.0 < 0
    }

    /// For a decisive score, the number of plies to the end of the game.
    #[inline]
    #[must_use]
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_decisive() {
            Some((Self::WIN.0 - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// The game-theoretic outcome a decisive or draw score stands for:
    /// `Some(Win)`/`Some(Loss)` for decisive scores, `Some(Draw)` for exactly
    /// zero, `None` for any other heuristic value.
    #[inline]
    #[must_use]
    pub const fn outcome(self) -> Option<Outcome> {
        if self.is_win() {
            Some(Outcome::Win)
        } else if self.is_loss() {
            Some(Outcome::Loss)
        } else if self.0 == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Converts a root-relative decisive score, seen at a node `ply` plies
    /// below the root, into a node-relative one (for storing in a table).
    /// Heuristic scores are unchanged.
    #[inline]
    #[must_use]
    pub const fn to_node_relative(self, ply: u32) -> Score {
        if self.is_win() {
            Score(self.0 + ply as i32)
        } else if self.is_loss() {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The score of a move, for the player who made it, given the score of
    /// the position it leads to for *that* position's side to move: negated
    /// when the turn passes (`turn_kept == false`), kept when the mover
    /// moves again, and one ply further from the end of the game when
    /// decisive (a loss in 4 after the move is a win in 5 before it).
    ///
    /// ```
    /// use gametree_game::Score;
    ///
    /// assert_eq!(Score::loss_in(4).back_up(false), Score::win_in(5));
    /// assert_eq!(Score::win_in(2).back_up(true), Score::win_in(3));
    /// assert_eq!(Score::new(7).back_up(false), Score::new(-7));
    /// ```
    #[inline]
    #[must_use]
    pub const fn back_up(self, turn_kept: bool) -> Score {
        let mover = if turn_kept { self } else { Score(-self.0) };
        mover.to_root_relative(1)
    }

    /// Converts a node-relative decisive score (from a table) into a
    /// root-relative one for a node `ply` plies below the root.
    /// Heuristic scores are unchanged.
    #[inline]
    #[must_use]
    pub const fn to_root_relative(self, ply: u32) -> Score {
        if self.is_win() {
            Score::new(self.0 - ply as i32)
        } else if self.is_loss() {
            Score::new(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl From<Score> for i32 {
    #[inline]
    fn from(s: Score) -> i32 {
        s.0
    }
}

impl fmt::Display for Score {
    /// `win in N`, `loss in N`, `inf`, `-inf`, or the signed number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self >= Score::INFINITY {
            f.write_str("inf")
        } else if *self <= -Score::INFINITY {
            f.write_str("-inf")
        } else if let (Some(n), true) = (self.plies_to_end(), self.is_win()) {
            write!(f, "win in {n}")
        } else if let Some(n) = self.plies_to_end() {
            write!(f, "loss in {n}")
        } else {
            write!(f, "{:+}", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn decisive_boundaries() {
        assert!(!Score::heuristic(i32::MAX).is_decisive());
        assert!(!Score::heuristic(i32::MIN).is_decisive());
        assert!(Score::win_in(Score::MAX_PLY).is_decisive());
        assert!(Score::win_in(0) == Score::WIN);
        assert!(!Score::INFINITY.is_decisive());
        assert!(Score::new(i32::MAX) == Score::INFINITY);
        assert!(Score::INFINITY.get() <= i32::from(i16::MAX));
        assert!(Score::win_in(5000) == Score::win_in(Score::MAX_PLY));
    }

    #[test]
    fn node_root_round_trip() {
        for ply in 0..50 {
            for d in ply..ply + 40 {
                for s in [
                    Score::win_in(d),
                    Score::loss_in(d),
                    Score::DRAW,
                    Score::new(123),
                ] {
                    assert_eq!(s.to_node_relative(ply).to_root_relative(ply), s);
                }
            }
        }
        // A mate in 10 from the root, seen at ply 4, is a mate in 6 from that node;
        // read back at ply 1 (a transposition) it is a mate in 7 from the root.
        let s = Score::win_in(10).to_node_relative(4);
        assert_eq!(s, Score::win_in(6));
        assert_eq!(s.to_root_relative(1), Score::win_in(7));
    }

    #[test]
    fn display() {
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
        assert_eq!(Score::loss_in(0).to_string(), "loss in 0");
        assert_eq!(Score::new(-12).to_string(), "-12");
        assert_eq!(Score::DRAW.to_string(), "+0");
        assert_eq!((-Score::INFINITY).to_string(), "-inf");
    }
}
