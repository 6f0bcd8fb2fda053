//! The value of a position and its one-byte code.

use core::fmt;

use gametree_game::{Outcome, Score};

/// The game-theoretic value of a position, from the side to move's view,
/// with the distance to the end of the game in plies (distance to mate for
/// chess).
///
/// A win is always at an odd distance and a loss at an even one, because the
/// game ends with the loser to move (`Loss(0)` is a position where the side
/// to move has already lost). That is what lets [`Value::code`] store a
/// value in one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (the last ply is the
    /// winner's).
    Win(u16),
    /// Neither side can force a win (including positions of a cycle that
    /// nobody can leave profitably).
    Draw,
    /// The side to move loses in this many plies.
    Loss(u16),
}

/// Code of a draw in the one-byte encoding.
pub(crate) const DRAW_CODE: u8 = 0;
/// Code of an index that stands for no position.
pub(crate) const INVALID_CODE: u8 = 1;
/// Reserved code, never stored in a finished table (the generators use it
/// for "terminal draw, do not look at again").
pub(crate) const RESERVED_CODE: u8 = 255;
/// The first decisive code: distance 0.
const DECISIVE_BASE: u8 = 2;

impl Value {
    /// The longest distance, in plies, that the one-byte encoding holds.
    pub const MAX_PLIES: u16 = (RESERVED_CODE - 1 - DECISIVE_BASE) as u16;

    /// The same position's value seen from the other side one ply earlier:
    /// the value of a parent whose only (or best) move leads here.
    ///
    /// `Loss(n)` becomes `Win(n + 1)`, `Win(n)` becomes `Loss(n + 1)`, a draw
    /// stays a draw.
    #[must_use]
    pub const fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d.saturating_add(1)),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d.saturating_add(1)),
        }
    }

    /// Win, draw or loss, dropping the distance.
    #[must_use]
    pub const fn outcome(self) -> Outcome {
        match self {
            Value::Win(_) => Outcome::Win,
            Value::Draw => Outcome::Draw,
            Value::Loss(_) => Outcome::Loss,
        }
    }

    /// The distance to the end in plies, `None` for a draw.
    #[must_use]
    pub const fn plies(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value as a node-relative [`Score`] (`Score::win_in(n)`,
    /// `Score::DRAW`, `Score::loss_in(n)`), the scale alpha-beta solvers
    /// report.
    #[must_use]
    pub const fn to_score(self) -> Score {
        match self {
            Value::Win(d) => Score::win_in(d as u32),
            Value::Draw => Score::DRAW,
            Value::Loss(d) => Score::loss_in(d as u32),
        }
    }

    /// The value of a decisive or drawn [`Score`] (`None` for a heuristic
    /// score or a distance beyond `u16`).
    #[must_use]
    pub fn from_score(score: Score) -> Option<Value> {
        match score.outcome()? {
            Outcome::Draw => Some(Value::Draw),
            Outcome::Win => Some(Value::Win(u16::try_from(score.plies_to_end()?).ok()?)),
            Outcome::Loss => Some(Value::Loss(u16::try_from(score.plies_to_end()?).ok()?)),
        }
    }

    /// The one-byte code of this value, or `None` when it cannot be encoded:
    /// a distance above [`Value::MAX_PLIES`], a win at an even distance or a
    /// loss at an odd one.
    ///
    /// Codes: `0` draw, `1` invalid index, `2 + d` a decisive value at
    /// distance `d` (a win when `d` is odd), `255` reserved.
    #[must_use]
    pub const fn code(self) -> Option<u8> {
        match self {
            Value::Draw => Some(DRAW_CODE),
            Value::Win(d) | Value::Loss(d) => {
                let win = matches!(self, Value::Win(_));
                if d > Self::MAX_PLIES || (d % 2 == 1) != win {
                    None
                } else {
                    Some(DECISIVE_BASE + d as u8)
                }
            }
        }
    }

    /// The value a code stands for: `None` for the invalid-index code `1`
    /// and the reserved code `255`.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Value> {
        match code {
            DRAW_CODE => Some(Value::Draw),
            INVALID_CODE | RESERVED_CODE => None,
            c => {
                let d = (c - DECISIVE_BASE) as u16;
                Some(if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                })
            }
        }
    }
}

/// The distance of a decisive code (`None` for draw, invalid, reserved).
#[inline]
pub(crate) const fn code_distance(code: u8) -> Option<u16> {
    if code >= DECISIVE_BASE && code != RESERVED_CODE {
        Some((code - DECISIVE_BASE) as u16)
    } else {
        None
    }
}

/// The code of a decisive value at distance `d` (win iff `d` is odd);
/// `d <= MAX_PLIES` is the caller's business.
#[inline]
pub(crate) const fn decisive_code(d: u16) -> u8 {
    DECISIVE_BASE + d as u8
}

impl fmt::Display for Value {
    /// `win in 3`, `draw`, `loss in 0` (plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for code in 0..=255u8 {
            match Value::from_code(code) {
                Some(v) => assert_eq!(v.code(), Some(code), "{v}"),
                None => assert!(code == INVALID_CODE || code == RESERVED_CODE),
            }
        }
        assert_eq!(Value::Win(2).code(), None);
        assert_eq!(Value::Loss(3).code(), None);
        assert_eq!(Value::Loss(Value::MAX_PLIES + 1).code(), None);
        assert_eq!(Value::Loss(Value::MAX_PLIES).code(), Some(254));
    }

    #[test]
    fn parent_and_score() {
        assert_eq!(Value::Loss(0).parent(), Value::Win(1));
        assert_eq!(Value::Win(1).parent(), Value::Loss(2));
        for v in [Value::Win(7), Value::Draw, Value::Loss(4)] {
            assert_eq!(Value::from_score(v.to_score()), Some(v));
        }
        assert!(Value::Win(1).to_score() > Value::Win(3).to_score());
    }
}
