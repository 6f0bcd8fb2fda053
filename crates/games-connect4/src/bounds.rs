//! Win bounds ([`Game::cannot_win`](gametree_game::Game::cannot_win)):
//! proofs, without search, that a player can no longer win.
//!
//! * **No room.** No four fits in the player's stones and the empty cells.
//! * **Claimeven** (Allis, *A Knowledge-Based Approach of Connect-Four*,
//!   1988). On a board with an even number of rows, when the player is to
//!   move and every column has an even number of empty cells, the
//!   opponent can answer every move in the same column. The player then
//!   gets exactly the lower cell of each pair of empty cells (rows 1, 3,
//!   5, … from the bottom, counting from 1) and the opponent the upper
//!   one, so the player cannot win when no four fits in its stones and
//!   those lower cells: the opponent's strategy holds it to a draw at
//!   best, whatever it plays.
//!
//! * **Lost to claimeven** ([`Game::cannot_draw`](gametree_game::Game::cannot_draw)).
//!   In the claimeven position above, when in addition a four fits in the
//!   opponent's stones and the upper cells it gets, the opponent's
//!   strategy completes it (the player can never complete one first): the
//!   player loses.
//!
//! All are checked against exhaustive search on every position of small
//! boards in `tests/bounds.rs`.

use gametree_game::Player;

use crate::board::{Board, has_four};

/// One bit in every other row from the bottom row up, below row `height`:
/// rows 0, 2, 4, … of a column (0-based).
#[inline(always)]
const fn even_rows(height: usize) -> u64 {
    // 0b…010101 with `height / 2` ones when `height` is even; the standard
    // board's height gets a constant.
    if height == 6 {
        0b01_0101
    } else {
        ((1u64 << height) - 1) / 3
    }
}

impl Board {
    /// Is `player` to move in a claimeven position: an even number of
    /// rows, and an even number of empty cells in every column?
    #[inline(always)]
    const fn claimeven_for_opponent(&self, player: Player) -> bool {
        let to_move = matches!(
            (player, self.plies & 1),
            (Player::First, 0) | (Player::Second, 1)
        );
        let height = self.size.height();
        // The lowest empty cell of a column is in an odd row (0-based)
        // exactly when the column holds an odd number of stones; a full
        // column's carry lands on the sentinel row, which is even.
        to_move
            && height.is_multiple_of(2)
            && (self.mask + self.bottom) & ((self.bottom * even_rows(height)) << 1) == 0
    }

    /// Does `player` lose to the opponent's claimeven, by the rule above?
    /// `true` is a proof that the value for `player` is a loss; `false`
    /// means "not known".
    #[inline]
    #[must_use]
    pub const fn lost_to_claimeven(&self, player: Player) -> bool {
        if !self.claimeven_for_opponent(player) {
            return false;
        }
        let stride = self.size.stride();
        let empty = self.full & !self.mask;
        let lower = empty & (self.bottom * even_rows(self.size.height()));
        let opponent = self.current ^ self.mask;
        !has_four(self.current | lower, stride) && has_four(opponent | (empty & !lower), stride)
    }

    /// Can `player` no longer win, by the rules above? `true` is a proof
    /// that the value for `player` is at most a draw; `false` means "not
    /// known".
    #[inline]
    #[must_use]
    pub const fn no_win_left(&self, player: Player) -> bool {
        let stride = self.size.stride();
        let empty = self.full & !self.mask;
        let to_move = matches!(
            (player, self.plies & 1),
            (Player::First, 0) | (Player::Second, 1)
        );
        let own = if to_move {
            self.current
        } else {
            self.current ^ self.mask
        };
        let height = self.size.height();
        if to_move && height.is_multiple_of(2) {
            let even = self.bottom * even_rows(height);
            // The lowest empty cell of a column is in an odd row (0-based)
            // exactly when the column holds an odd number of stones; a full
            // column's carry lands on the sentinel row, which is even.
            if (self.mask + self.bottom) & (even << 1) == 0 {
                // The lower cells are a subset of the empty ones: one test
                // decides both rules.
                return !has_four(own | (empty & even), stride);
            }
        }
        !has_four(own | empty, stride)
    }
}
