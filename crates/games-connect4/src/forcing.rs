//! Immediate wins, non-losing moves and the threat-count hint: the Connect
//! Four knowledge a generic
//! alpha-beta searcher needs to solve positions quickly (immediate wins,
//! moves that do not hand the opponent a win, threat-count ordering).

use crate::board::{centre_rank, shl};
use crate::{Board, Column, Moves};

impl Board {
    /// A column that connects four now (the leftmost), if any.
    #[inline]
    pub(crate) fn first_winning_column(&self) -> Option<Column> {
        let wins = self.winning_moves();
        // The (dearer) end-of-game test only when there is a win to report.
        if wins == 0 || self.is_over() {
            return None;
        }
        Some(self.column_of_cell(wins & wins.wrapping_neg()))
    }

    /// [`Board::non_losing_moves`] as columns, centre first (on a position
    /// that is not over, as the `Game` contract promises).
    #[inline]
    pub(crate) fn non_losing_columns_into(&self, out: &mut Moves) {
        self.columns_of(Board::non_losing_moves(self), out);
    }
}

impl Board {
    /// The number of threats the side to move owns after the move
    /// ([`Board::threats_after`]), times 64, plus a centre bonus that breaks
    /// ties (63 for the centre column, one less per step of the centre-first
    /// order), so that equal threat counts are tried centre first whatever
    /// the picker's selection order.
    #[inline]
    pub(crate) fn threat_hint(&self, m: Column) -> i32 {
        let (c, w) = (m.index(), self.size().width());
        let s = self.size().stride();
        // The landing cell: the column's bit of `possible` (none when full).
        let cell = if c < w {
            self.possible() & (shl(1, s).wrapping_sub(1) << (c as u32 * s))
        } else {
            0
        };
        if cell == 0 {
            return i32::MIN / 2;
        }
        let threats = self.threats_after(cell) as i32;
        threats * 64 + 63 - centre_rank(w, c) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_game::Game;

    #[test]
    fn forcing_agrees_with_brute_force() {
        for moves in [
            "",
            "4",
            "4455",
            "445566",
            "41516",
            "3344556",
            "4444441111112222",
        ] {
            let b: Board = moves.parse().unwrap();
            gametree_game::check::forcing(&b).unwrap();
        }
        let _ = Board::standard().side_to_move();
    }

    #[test]
    fn hint_counts_threats() {
        let b: Board = "445566".parse().unwrap();
        let mut moves = Moves::new();
        b.generate(&mut moves);
        assert_eq!(moves.len(), 7);
        assert!(moves.as_slice().iter().all(|&m| b.threat_hint(m) >= 0));
    }
}
