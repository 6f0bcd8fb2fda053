//! The plain searches every optimised one is compared with: [`negamax`]
//! and plain (fail-hard) [`alpha_beta`], each at a fixed depth or to the
//! end of the game.

use std::time::Instant;

use alloc::vec::Vec;

use gametree_game::{Game, MoveBuffer, Score, from_child};

use crate::{Report, Stats};

/// How deep a reference search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// A fixed number of plies; positions at the horizon are evaluated.
    Plies(u32),
    /// To the end of the game (solver mode); no evaluation is needed.
    ToEnd,
}

impl Depth {
    fn remaining(self) -> u32 {
        match self {
            Depth::Plies(d) => d,
            Depth::ToEnd => u32::MAX,
        }
    }
}

/// A triangular principal-variation table: row `p` holds the best line
/// from ply `p`. Rows keep their capacity, so a search allocates only while
/// it first reaches a new ply, never per node.
#[derive(Debug)]
pub(crate) struct PvTable<M> {
    rows: Vec<Vec<M>>,
}

impl<M: Copy> PvTable<M> {
    pub(crate) fn new() -> Self {
        PvTable { rows: Vec::new() }
    }

    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        while self.rows.len() <= ply + 1 {
            self.rows.push(Vec::new());
        }
        self.rows[ply].clear();
    }

    /// Row `ply` becomes `m` followed by row `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, m: M) {
        let (head, tail) = self.rows.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row.clear();
        row.push(m);
        row.extend_from_slice(&tail[0]);
    }

    /// Replaces the root line (MTD(f) keeps the line of its last fail-high pass).
    pub(crate) fn set_root(&mut self, line: &[M]) {
        self.clear(0);
        self.rows[0].extend_from_slice(line);
    }

    pub(crate) fn line(&self, ply: usize) -> &[M] {
        self.rows.get(ply).map_or(&[], Vec::as_slice)
    }
}

struct Reference<'a, G: Game> {
    nodes: u64,
    pv: PvTable<G::Move>,
    eval: &'a dyn Fn(&G) -> Score,
}

impl<G: Game> Reference<'_, G> {
    fn negamax(&mut self, game: &mut G, depth: u32, ply: u32) -> Score {
        self.nodes += 1;
        self.pv.clear(ply as usize);
        if let Some(o) = game.outcome() {
            return Score::terminal(o, ply);
        }
        if depth == 0 {
            return (self.eval)(game);
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        debug_assert!(!moves.is_empty(), "a non-terminal position must have moves");
        let side = game.side_to_move();
        let mut best = -Score::INFINITY;
        for &m in moves.as_slice() {
            let undo = game.make(m);
            let child = self.negamax(game, depth - 1, ply + 1);
            let v = from_child(side, game.side_to_move(), child);
            game.unmake(m, undo);
            if v > best {
                best = v;
                self.pv.update(ply as usize, m);
            }
        }
        best
    }

    fn alpha_beta(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.nodes += 1;
        self.pv.clear(ply as usize);
        if let Some(o) = game.outcome() {
            return Score::terminal(o, ply);
        }
        if depth == 0 {
            return (self.eval)(game);
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        debug_assert!(!moves.is_empty(), "a non-terminal position must have moves");
        let side = game.side_to_move();
        for &m in moves.as_slice() {
            let undo = game.make(m);
            let v = if game.side_to_move() == side {
                self.alpha_beta(game, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.alpha_beta(game, depth - 1, ply + 1, -beta, -alpha)
            };
            game.unmake(m, undo);
            if v >= beta {
                return beta; // fail hard: the opponent will avoid this node
            }
            if v > alpha {
                alpha = v;
                self.pv.update(ply as usize, m);
            }
        }
        alpha
    }
}

fn run<G: Game>(
    game: &mut G,
    depth: Depth,
    eval: &dyn Fn(&G) -> Score,
    pruned: bool,
) -> Report<G::Move> {
    let start = Instant::now();
    let mut r = Reference {
        nodes: 0,
        pv: PvTable::new(),
        eval,
    };
    let d = depth.remaining();
    let value = if pruned {
        r.alpha_beta(game, d, 0, -Score::INFINITY, Score::INFINITY)
    } else {
        r.negamax(game, d, 0)
    };
    let line = r.pv.line(0).to_vec();
    Report {
        value,
        best: line.first().copied(),
        line,
        stats: Stats::nodes(r.nodes),
        elapsed: start.elapsed(),
        depth: match depth {
            Depth::Plies(d) => d,
            Depth::ToEnd => 0,
        },
        completed: true,
        outcome: match depth {
            Depth::ToEnd => value.outcome(),
            Depth::Plies(_) => None,
        },
        ..Report::default()
    }
}

/// Plain negamax to a fixed depth: the reference every other search must
/// equal. Terminal positions score `Score::terminal(outcome, ply)` (so
/// shorter wins score higher), positions at the horizon score
/// [`Game::evaluate`]. Visits every node of the tree; the best move is
/// the first one that reaches the value.
///
/// ```
/// use gametree_alphabeta::negamax;
/// use gametree_games_tictactoe::TicTacToe;
///
/// let mut board: TicTacToe = "XX.OO....".parse()?;
/// let report = negamax(&mut board, 3);
/// assert_eq!(report.value, gametree_game::Score::win_in(1));
/// assert_eq!(report.best.map(|m| m.get()), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn negamax<G: Game>(game: &mut G, depth: u32) -> Report<G::Move> {
    run(game, Depth::Plies(depth), &G::evaluate, false)
}

/// Plain negamax to the end of the game (no evaluation): the game-theoretic
/// value with distance to the end (shortest win, longest loss).
pub fn negamax_solve<G: Game>(game: &mut G) -> Report<G::Move> {
    run(game, Depth::ToEnd, &|_: &G| Score::DRAW, false)
}

/// Plain fail-hard alpha-beta to a fixed depth, in generation order. Same
/// value as [`negamax`], fewer nodes.
pub fn alpha_beta<G: Game>(game: &mut G, depth: u32) -> Report<G::Move> {
    run(game, Depth::Plies(depth), &G::evaluate, true)
}

/// Plain fail-hard alpha-beta to the end of the game. Same value as
/// [`negamax_solve`].
pub fn alpha_beta_solve<G: Game>(game: &mut G) -> Report<G::Move> {
    run(game, Depth::ToEnd, &|_: &G| Score::DRAW, true)
}

/// How far quiescence search may go below the horizon, in plies; a position
/// that deep takes its evaluation.
pub const MAX_QUIESCENCE_PLY: u32 = 32;

fn quiescence_reference<G: Game>(game: &mut G, ply: u32, qply: u32, nodes: &mut u64) -> Score {
    if qply > 0 {
        *nodes += 1;
        if let Some(o) = game.outcome() {
            return Score::terminal(o, ply);
        }
    }
    let stand = game.evaluate();
    if qply >= MAX_QUIESCENCE_PLY {
        return stand;
    }
    let mut moves = G::Moves::default();
    game.generate_tactical(&mut moves);
    let side = game.side_to_move();
    let mut best = stand;
    for &m in moves.as_slice() {
        let undo = game.make(m);
        let child = quiescence_reference(game, ply + 1, qply + 1, nodes);
        let v = from_child(side, game.side_to_move(), child);
        game.unmake(m, undo);
        best = best.max(v);
    }
    best
}

fn negamax_q<G: Game>(
    game: &mut G,
    depth: u32,
    ply: u32,
    nodes: &mut u64,
    pv: &mut PvTable<G::Move>,
) -> Score {
    *nodes += 1;
    pv.clear(ply as usize);
    if let Some(o) = game.outcome() {
        return Score::terminal(o, ply);
    }
    if depth == 0 {
        return quiescence_reference(game, ply, 0, nodes);
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let side = game.side_to_move();
    let mut best = -Score::INFINITY;
    for &m in moves.as_slice() {
        let undo = game.make(m);
        let child = negamax_q(game, depth - 1, ply + 1, nodes, pv);
        let v = from_child(side, game.side_to_move(), child);
        game.unmake(m, undo);
        if v > best {
            best = v;
            pv.update(ply as usize, m);
        }
    }
    best
}

/// Plain negamax to `depth`, then at the horizon a full-width quiescence
/// search: the value is the maximum of the evaluation ("standing pat") and
/// of the values of the game's tactical moves
/// ([`Game::generate_tactical`]), recursively, at most
/// [`MAX_QUIESCENCE_PLY`] plies deep. No pruning: the reference for searches
/// with [`Config::quiescence`](crate::Config::quiescence).
pub fn negamax_quiescence<G: Game>(game: &mut G, depth: u32) -> Report<G::Move> {
    let start = Instant::now();
    let mut nodes = 0;
    let mut pv = PvTable::new();
    let value = negamax_q(game, depth, 0, &mut nodes, &mut pv);
    let line = pv.line(0).to_vec();
    Report {
        value,
        best: line.first().copied(),
        line,
        stats: Stats::nodes(nodes),
        elapsed: start.elapsed(),
        depth,
        completed: true,
        ..Report::default()
    }
}
