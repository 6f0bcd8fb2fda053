//! The history heuristic: a score per (side, move) learned from cutoffs.

use alloc::boxed::Box;
use alloc::vec;
use core::fmt;
use core::marker::PhantomData;
use gametree_game::{Game, Player};

use crate::tuning::{
    ADDITIVE_BONUS_MAX, ADDITIVE_LIMIT, DECAY_DIVISOR, GRAVITY_BONUS_MAX,
    GRAVITY_BONUS_PER_DEPTH_SQUARED, HISTORY_MAX, TEXTBOOK_MAX_EXPONENT,
};

/// How a cutoff at a given remaining depth rewards the move that caused it
/// (and, as a malus, the quiet moves tried before it). The numbers live in
/// [`crate::tuning`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The textbook's `4^depth`, saturating: the exponent is clamped to
    /// [`TEXTBOOK_MAX_EXPONENT`] (4^16 would overflow an `i32`) and scores
    /// saturate at `±ADDITIVE_LIMIT`.
    Textbook,
    /// `depth²`, capped at [`ADDITIVE_BONUS_MAX`]; scores saturate at
    /// `±ADDITIVE_LIMIT`.
    DepthSquared,
    /// The bounded "gravity" update `h += bonus − h·|bonus|/HISTORY_MAX`
    /// with `bonus = min(GRAVITY_BONUS_PER_DEPTH_SQUARED · depth²,
    /// GRAVITY_BONUS_MAX)`: scores move toward `±HISTORY_MAX` ever more
    /// slowly and never leave that range, so a frequently rewarded move does
    /// not freeze the table the way saturation does.
    Gravity,
}

impl Policy {
    /// The bonus (and malus magnitude) of a cutoff at remaining `depth`;
    /// always in `0..=ADDITIVE_BONUS_MAX` (`0..=GRAVITY_BONUS_MAX` for
    /// [`Policy::Gravity`]), whatever the depth.
    #[must_use]
    pub const fn bonus(self, depth: u32) -> i32 {
        match self {
            Policy::Textbook => {
                let exponent = if depth < TEXTBOOK_MAX_EXPONENT {
                    depth
                } else {
                    TEXTBOOK_MAX_EXPONENT
                };
                1 << (2 * exponent)
            }
            Policy::DepthSquared => {
                let d = depth as u64;
                let square = d * d; // < 2^64: depth < 2^32
                if square > ADDITIVE_BONUS_MAX as u64 {
                    ADDITIVE_BONUS_MAX
                } else {
                    square as i32
                }
            }
            Policy::Gravity => {
                let d = depth as u64;
                let scaled = (d * d).saturating_mul(GRAVITY_BONUS_PER_DEPTH_SQUARED as u64);
                if scaled > GRAVITY_BONUS_MAX as u64 {
                    GRAVITY_BONUS_MAX
                } else {
                    scaled as i32
                }
            }
        }
    }

    /// The bound of the scores: every score `h` satisfies `|h| <= limit()`.
    #[must_use]
    pub const fn limit(self) -> i32 {
        match self {
            Policy::Textbook | Policy::DepthSquared => ADDITIVE_LIMIT,
            Policy::Gravity => HISTORY_MAX,
        }
    }

    /// One update of score `h` by a signed `delta` (a bonus or a negated
    /// malus). `h` is assumed within `±limit()`; the result always is.
    #[inline]
    #[must_use]
    pub const fn apply(self, h: i32, delta: i32) -> i32 {
        let limit = self.limit() as i64;
        let next = match self {
            Policy::Textbook | Policy::DepthSquared => h as i64 + delta as i64,
            Policy::Gravity => {
                let b = clamp(delta as i64, limit);
                let h = h as i64;
                h + b - h * b.abs() / limit
            }
        };
        clamp(next, limit) as i32
    }
}

const fn clamp(x: i64, limit: i64) -> i64 {
    if x > limit {
        limit
    } else if x < -limit {
        -limit
    } else {
        x
    }
}

/// The history table: a score per (side, [`Game::move_number`] of the move), raised
/// when a quiet move causes a cutoff and lowered (the malus) for the quiet
/// moves that were tried before it and failed to.
///
/// The [`MovePicker`](crate::MovePicker) orders the quiet moves by this score.
/// The table holds `2 · G::MOVE_NUMBERS` scores allocated once by
/// [`History::new`]; updates never allocate and never overflow: every score
/// stays within `±policy.limit()`.
///
/// ```
/// use gametree_game::Player;
/// use gametree_games_tictactoe::{Square, TicTacToe};
/// use gametree_ordering::{History, Policy};
///
/// let sq = |i| Square::new(i).unwrap();
/// let mut history = History::<TicTacToe>::new(Policy::Gravity);
/// // At depth 3, square 4 refuted the opponent after squares 0 and 2 failed.
/// history.on_cutoff(Player::First, sq(4), [sq(0), sq(2), sq(4)], 3);
/// assert!(history.score(Player::First, sq(4)) > 0);
/// assert!(history.score(Player::First, sq(0)) < 0);
/// assert_eq!(history.score(Player::Second, sq(4)), 0);
/// history.decay(); // between searches
/// assert_eq!(history.score(Player::First, sq(4)), Policy::Gravity.bonus(3) / 2);
/// ```
#[derive(Clone)]
pub struct History<G: Game> {
    table: Box<[i32]>,
    policy: Policy,
    malus: bool,
    moves: PhantomData<fn(G)>,
}

impl<G: Game> History<G> {
    /// A zeroed table of `2 · G::MOVE_NUMBERS` scores with the given bonus policy
    /// and the malus on; its only allocation.
    #[must_use]
    pub fn new(policy: Policy) -> Self {
        History {
            table: vec![0; 2 * G::MOVE_NUMBERS.max(1)].into_boxed_slice(),
            policy,
            malus: true,
            moves: PhantomData,
        }
    }

    /// Turns the malus of [`on_cutoff`](History::on_cutoff) on or off.
    #[must_use]
    pub fn with_malus(mut self, malus: bool) -> Self {
        self.malus = malus;
        self
    }

    /// The bonus policy.
    #[must_use]
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Does [`on_cutoff`](History::on_cutoff) penalise the quiet moves tried
    /// before the cutoff?
    #[must_use]
    pub fn malus(&self) -> bool {
        self.malus
    }

    #[inline]
    fn slot(side: Player, m: G::Move) -> usize {
        // A numbering that breaks its bound only shares slots.
        let index = G::move_number(m) % G::MOVE_NUMBERS.max(1);
        side.index() * G::MOVE_NUMBERS.max(1) + index
    }

    /// The score of `m` for `side`; higher is tried earlier.
    #[inline]
    #[must_use]
    pub fn score(&self, side: Player, m: G::Move) -> i32 {
        self.table[Self::slot(side, m)]
    }

    /// Rewards `m` for `side` with the policy's bonus at remaining `depth`.
    #[inline]
    pub fn reward(&mut self, side: Player, m: G::Move, depth: u32) {
        let bonus = self.policy.bonus(depth);
        self.add(side, m, bonus);
    }

    /// Penalises `m` for `side` by the policy's bonus at remaining `depth`
    /// (whether or not the malus is on: that switch only affects
    /// [`on_cutoff`](History::on_cutoff)).
    #[inline]
    pub fn penalize(&mut self, side: Player, m: G::Move, depth: u32) {
        let bonus = self.policy.bonus(depth);
        self.add(side, m, -bonus);
    }

    #[inline]
    fn add(&mut self, side: Player, m: G::Move, delta: i32) {
        let slot = Self::slot(side, m);
        self.table[slot] = self.policy.apply(self.table[slot], delta);
    }

    /// What a searcher calls on a beta cutoff by the quiet move `best` at
    /// remaining `depth`: rewards `best` and, with the malus on, penalises
    /// every other move of `tried` (the quiet moves searched at this node
    /// before `best`; `best` itself may be included, it is skipped).
    /// [`MovePicker::quiets_tried`](crate::MovePicker::quiets_tried) gives
    /// exactly that list without allocating.
    pub fn on_cutoff(
        &mut self,
        side: Player,
        best: G::Move,
        tried: impl IntoIterator<Item = G::Move>,
        depth: u32,
    ) {
        let bonus = self.policy.bonus(depth);
        self.add(side, best, bonus);
        if self.malus {
            for m in tried {
                if m != best {
                    self.add(side, m, -bonus);
                }
            }
        }
    }

    /// Divides every score by [`DECAY_DIVISOR`](crate::tuning::DECAY_DIVISOR),
    /// rounding toward zero: called between searches (or iterations) so
    /// that old knowledge fades.
    pub fn decay(&mut self) {
        self.table.iter_mut().for_each(|h| *h /= DECAY_DIVISOR);
    }

    /// Resets every score to zero.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The largest `|score|` in the table (for statistics and tests).
    #[must_use]
    pub fn max_magnitude(&self) -> i32 {
        self.table
            .iter()
            .map(|h| h.saturating_abs())
            .max()
            .unwrap_or(0)
    }
}

impl<G: Game> fmt::Debug for History<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("policy", &self.policy)
            .field("malus", &self.malus)
            .field("slots", &self.table.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gravity formula itself (before the final clamp) never leaves the
    /// range, for every score in range and every bonus the policy can give.
    #[test]
    fn gravity_stays_in_range_without_the_clamp() {
        let max = i64::from(HISTORY_MAX);
        for b in -i64::from(GRAVITY_BONUS_MAX)..=i64::from(GRAVITY_BONUS_MAX) {
            for h in (-max..=max).step_by(7).chain([-max, max]) {
                let next = h + b - h * b.abs() / max;
                assert!(next.abs() <= max, "h={h} b={b} -> {next}");
            }
        }
    }

    #[test]
    fn textbook_bonus_is_four_to_the_depth_then_capped() {
        for d in 0..=TEXTBOOK_MAX_EXPONENT {
            assert_eq!(i64::from(Policy::Textbook.bonus(d)), 4i64.pow(d));
        }
        for d in [16, 17, 100, u32::MAX] {
            assert_eq!(Policy::Textbook.bonus(d), 1 << 30);
        }
    }

    #[test]
    fn depth_squared_and_gravity_bonus() {
        for d in 0..100u32 {
            let square = i64::from(d) * i64::from(d);
            assert_eq!(i64::from(Policy::DepthSquared.bonus(d)), square);
            let gravity = (square * i64::from(GRAVITY_BONUS_PER_DEPTH_SQUARED))
                .min(i64::from(GRAVITY_BONUS_MAX));
            assert_eq!(i64::from(Policy::Gravity.bonus(d)), gravity);
        }
        assert_eq!(Policy::DepthSquared.bonus(u32::MAX), ADDITIVE_BONUS_MAX);
        assert_eq!(Policy::Gravity.bonus(u32::MAX), GRAVITY_BONUS_MAX);
    }
}
