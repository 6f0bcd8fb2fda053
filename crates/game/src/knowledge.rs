//! What a game knows beyond its rules: [`MoveHint`], a move's promise
//! before it is searched, and [`Knowledge`], the set of optional
//! [`Game`] methods a game declares.

use core::fmt;

#[cfg(doc)]
use crate::{Game, Score};

/// How promising a move looks before it is searched (see
/// [`Game::move_hint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveHint {
    /// A move worth trying first and in quiescence search, with its
    /// priority (higher first).
    Tactical(i32),
    /// Any other move, with a static ordering hint (higher first).
    Quiet(i32),
}

impl MoveHint {
    /// Is this a tactical move?
    #[inline]
    #[must_use]
    pub const fn is_tactical(self) -> bool {
        matches!(self, MoveHint::Tactical(_))
    }

    /// The tactical priority, `None` for a quiet move.
    #[inline]
    #[must_use]
    pub const fn tactical(self) -> Option<i32> {
        match self {
            MoveHint::Tactical(p) => Some(p),
            MoveHint::Quiet(_) => None,
        }
    }

    /// The quiet-move hint, clamped to `-2^14..=2^14` (0 for a tactical move).
    #[inline]
    #[must_use]
    pub const fn quiet(self) -> i32 {
        match self {
            MoveHint::Tactical(_) => 0,
            MoveHint::Quiet(h) => {
                if h > 1 << 14 {
                    1 << 14
                } else if h < -(1 << 14) {
                    -(1 << 14)
                } else {
                    h
                }
            }
        }
    }
}

/// Which optional knowledge a game provides (see [`Game::KNOWLEDGE`]).
/// Built from [`Knowledge::NONE`] with the `const` builder methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knowledge {
    bits: u16,
}

impl Knowledge {
    const EVALUATION: u16 = 1;
    const TACTICS: u16 = 2;
    const ORDER_HINTS: u16 = 4;
    const FORCING: u16 = 8;
    const LENGTH_BOUND: u16 = 16;
    const PROOF_HINTS: u16 = 32;
    const MOVE_NUMBERS: u16 = 64;
    const WIN_BOUNDS: u16 = 128;
    const THREATS: u16 = 256;

    /// Nothing beyond the rules.
    pub const NONE: Knowledge = Knowledge { bits: 0 };

    const fn with(self, bit: u16) -> Knowledge {
        Knowledge {
            bits: self.bits | bit,
        }
    }
    const fn has(self, bit: u16) -> bool {
        self.bits & bit != 0
    }
}

/// The builder method (`evaluation()`) and the query (`has_evaluation()`)
/// of each item of [`Knowledge`], with their docs.
macro_rules! knowledge_items {
    ($( $(#[$with_doc:meta])* $with:ident / $has:ident: $bit:ident, { $(#[$has_doc:meta])* } )*) => {
        impl Knowledge {
            $(
                $(#[$with_doc])*
                #[must_use]
                pub const fn $with(self) -> Knowledge {
                    self.with(Self::$bit)
                }
                $(#[$has_doc])*
                #[must_use]
                pub const fn $has(self) -> bool {
                    self.has(Self::$bit)
                }
            )*
        }
    };
}

knowledge_items! {
    /// [`Game::evaluate`] is a real evaluation.
    evaluation / has_evaluation: EVALUATION,
    {
        /// Does the game evaluate positions?
    }
    /// [`Game::move_hint`] marks tactical moves and
    /// [`Game::generate_tactical`] lists them.
    tactics / has_tactics: TACTICS,
    {
        /// Does the game mark tactical moves?
    }
    /// [`Game::move_hint`] gives quiet moves a meaningful hint.
    order_hints / has_order_hints: ORDER_HINTS,
    {
        /// Does the game hint at quiet moves?
    }
    /// [`Game::winning_move`] and [`Game::non_losing_moves`] are exact (and
    /// turns alternate; see there).
    forcing / has_forcing: FORCING,
    {
        /// Does the game know immediate wins and non-losing moves?
    }
    /// [`Game::remaining_plies`] bounds the game's length.
    length_bound / has_length_bound: LENGTH_BOUND,
    {
        /// Does the game bound its remaining length?
    }
    /// [`Game::proof_hints`] gives informed initial proof numbers.
    proof_hints / has_proof_hints: PROOF_HINTS,
    {
        /// Does the game give proof-number hints?
    }
    /// [`Game::move_number`] gives different moves of a position different
    /// numbers.
    move_numbers / has_move_numbers: MOVE_NUMBERS,
    {
        /// Does the game number its moves one-to-one?
    }
    /// [`Game::cannot_win`] proves that a player can no longer win, and
    /// [`Game::cannot_draw`] that it loses.
    win_bounds / has_win_bounds: WIN_BOUNDS,
    {
        /// Does the game prove that a player can no longer win?
    }
    /// [`Game::threat_moves`] lists the moves that threaten to win at once
    /// (for threat-space search; needs [`Knowledge::forcing`] too).
    threats / has_threats: THREATS,
    {
        /// Does the game list its threat moves?
    }
}

impl fmt::Display for Knowledge {
    /// The items, e.g. `evaluation, tactics, forcing`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Self::EVALUATION, "evaluation"),
            (Self::TACTICS, "tactics"),
            (Self::ORDER_HINTS, "order hints"),
            (Self::FORCING, "forcing"),
            (Self::LENGTH_BOUND, "length bound"),
            (Self::PROOF_HINTS, "proof hints"),
            (Self::MOVE_NUMBERS, "move numbers"),
            (Self::WIN_BOUNDS, "win bounds"),
            (Self::THREATS, "threats"),
        ];
        let mut first = true;
        for (bit, name) in names {
            if self.has(bit) {
                if !first {
                    f.write_str(", ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        if first {
            f.write_str("none")?;
        }
        Ok(())
    }
}
