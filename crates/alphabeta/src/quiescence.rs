//! Quiescence search at the horizon: stand pat on the evaluation, then
//! only the game's tactical moves, until the position is quiet.

use gametree_game::{Game, Score};
use gametree_ordering::{MovePicker, NoHistory};
use gametree_ttable::Table;

use crate::reference::MAX_QUIESCENCE_PLY;
use crate::worker::{NodeValue, Taint, Worker, with_move};

impl<G: Game, T: Table> Worker<'_, G, T> {
    /// The quiescence value of `game`, `qply` plies below the horizon,
    /// window `(alpha, beta)` (fail-soft), tainted when a terminal
    /// position below depends on the path.
    pub(crate) fn quiescence(
        &mut self,
        game: &mut G,
        ply: u32,
        qply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> NodeValue {
        if qply > 0 {
            self.stats.nodes += 1;
            if let Some(o) = game.outcome() {
                return self.terminal(game, o, ply);
            }
        }
        let stand = game.evaluate();
        if stand >= beta || qply >= MAX_QUIESCENCE_PLY {
            return NodeValue::clean(stand);
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut best = stand;
        let mut taint = Taint::NONE;
        let mut moves = G::Moves::default();
        game.generate_tactical(&mut moves);
        let side = game.side_to_move();
        let mut picker = MovePicker::<G>::new_tactical(None);
        while let Some(m) = picker.next(game, &mut moves, &NoHistory) {
            let v = with_move(game, m, |g| {
                if g.side_to_move() == side {
                    self.quiescence(g, ply + 1, qply + 1, alpha, beta)
                } else {
                    -self.quiescence(g, ply + 1, qply + 1, -beta, -alpha)
                }
            });
            taint = taint.or(v.taint);
            let v = v.value;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
            }
            if v >= beta {
                break;
            }
        }
        NodeValue::new(best, taint)
    }
}
