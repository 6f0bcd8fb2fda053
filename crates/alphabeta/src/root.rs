//! The root drivers: iterative deepening, aspiration windows, MTD(f), and
//! null-window bisection (on the ladder of the values a solved position can
//! still have, when the game bounds its length).

use gametree_game::{Game, MoveBuffer, Score};
use gametree_ttable::Table;

use crate::Report;
use crate::config::{Algorithm, TtUse};
use crate::order::move_of_code;
use crate::searcher::MAX_PLY;
use crate::worker::{Frame, Mode, TO_END_DEPTH, Worker, with_move};

/// The values a position can have when the game is over within `r` plies,
/// as consecutive ranks `-losses..=wins`: rank 0 is the draw, rank 1 the
/// slowest win, rank `wins` the quickest; rank -1 the slowest loss. With
/// `parity` (the forcing contract: turns alternate and only the player who
/// just moved can win) wins come on odd distances and losses on even ones
/// only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ladder {
    parity: bool,
    wins: i32,
    losses: i32,
}

impl Ladder {
    pub(crate) fn new(r: u32, parity: bool) -> Ladder {
        let r = r as i32;
        if parity {
            Ladder {
                parity,
                wins: (r + 1) / 2,
                losses: r / 2,
            }
        } else {
            Ladder {
                parity,
                wins: r,
                losses: r,
            }
        }
    }

    fn min(self) -> i32 {
        -self.losses
    }

    fn max(self) -> i32 {
        self.wins
    }

    /// The score of rank `t` (`min() <= t <= max()`).
    fn score(self, t: i32) -> Score {
        if t == 0 {
            Score::DRAW
        } else if t > 0 {
            let k = (self.wins + 1 - t) as u32;
            Score::win_in(if self.parity { 2 * k - 1 } else { k })
        } else {
            let k = (self.losses + 1 + t) as u32;
            Score::loss_in(if self.parity { 2 * k } else { k })
        }
    }

    /// The largest rank whose score is at most `u` (`min()` if none).
    fn rank_at_most(self, u: Score) -> i32 {
        let mut t = self.max();
        while t > self.min() && self.score(t) > u {
            t -= 1;
        }
        t
    }

    /// The smallest rank whose score is at least `l` (`max()` if none).
    fn rank_at_least(self, l: Score) -> i32 {
        let mut t = self.min();
        while t < self.max() && self.score(t) < l {
            t += 1;
        }
        t
    }
}

impl<G: Game, T: Table> Worker<'_, G, T> {
    /// Iterative deepening (or a single search) in `mode`.
    pub(crate) fn iterate(&mut self, game: &mut G, mode: Mode) -> Report<G::Move> {
        let mut report = Report::default();
        let (first, last) = match mode {
            Mode::ToEnd => {
                self.to_end = true;
                if self.auto_algorithm {
                    self.config.algorithm = Algorithm::Bisection;
                }
                (TO_END_DEPTH as u32, TO_END_DEPTH as u32)
            }
            Mode::Depth(d) if self.config.iterative_deepening => (d.min(1), d),
            Mode::Depth(d) => (d, d),
            Mode::Prove => {
                self.proving = true;
                (1, MAX_PLY as u32 - 1)
            }
        };
        let mut previous: Option<Score> = None;
        let mut depth = first;
        loop {
            // Lazy SMP: helpers start some iterations one ply deeper.
            let d = match self.helper {
                Some(i) if !self.to_end && i % 2 == 1 && depth < last => depth + 1,
                _ => depth,
            };
            self.iteration_horizon = false;
            let value = self.iteration(game, d, previous);
            if self.stopped {
                break;
            }
            // A decisive value is only accepted once the whole mate lies
            // inside the horizon: before that it can be a bound carried
            // over from the table rather than the shortest distance.
            let inside = value.plies_to_end().is_some_and(|k| k <= depth);
            if d == depth {
                let line = self.iteration_line(game, value, inside);
                self.report_iteration(depth, value, &line);
                report.value = value;
                report.best = self.root_best;
                report.line = line;
                if self.proving && (inside || !self.iteration_horizon) {
                    report.depth = depth;
                    report.completed = true;
                    report.outcome = value.outcome();
                    break;
                }
                previous = Some(value);
                report.depth = if self.to_end { 0 } else { depth };
                // Proving: an iteration that proved nothing is not a result.
                report.completed = !self.proving;
            }
            if depth >= last {
                break;
            }
            if matches!(mode, Mode::Depth(_)) && value.is_decisive() && self.limits.depth.is_none()
            {
                // Without a depth limit, a decisive value ends the search.
                break;
            }
            depth += 1;
            // A limit reached (or a cancel from the event sink) between
            // iterations ends the search before the next one starts.
            self.check_limits();
            if self.stopped {
                break;
            }
        }
        if self.to_end && report.completed {
            report.outcome = report.value.outcome();
        }
        if report.completed && self.helper.is_none() && !self.stopped && self.config.complete_line {
            // A limit reached while completing the line leaves the line
            // shorter, not the value unknown.
            self.complete_line(game, report.value, &mut report.line);
            self.stop_reason = None;
            if report.best.is_none() {
                report.best = report.line.first().copied();
            }
        }
        report.stopped = self.stop_reason;
        report.stats = self.finish_stats();
        report.elapsed = self.start.elapsed();
        report
    }

    /// The principal line of the iteration that just finished with
    /// `value`. When the reporting thread sends iterations to an event sink,
    /// a `proven` value's line (the whole result inside the horizon) is
    /// completed to the end of the game first, as the final report's is.
    fn iteration_line(&mut self, game: &mut G, value: Score, proven: bool) -> Vec<G::Move> {
        let mut line = self.pv.line(0).to_vec();
        if proven
            && self.complete_lines
            && self.events.is_some()
            && self.helper.is_none()
            && !self.to_end
        {
            self.complete_line(game, value, &mut line);
        }
        line
    }

    /// One iteration at `depth`, by the configured root algorithm.
    fn iteration(&mut self, game: &mut G, depth: u32, previous: Option<Score>) -> Score {
        match self.config.algorithm {
            Algorithm::Mtdf => self.mtdf(game, depth, previous.unwrap_or(Score::DRAW)),
            Algorithm::Bisection => self.bisection(game, depth, previous.unwrap_or(Score::DRAW)),
            Algorithm::AlphaBeta | Algorithm::Pvs | Algorithm::Auto => {
                match (self.config.aspiration, previous) {
                    (Some(delta), Some(prev)) if !prev.is_decisive() => {
                        let alpha = Score::new(prev.get() - delta);
                        let beta = Score::new(prev.get() + delta);
                        let v = self.root(game, depth, alpha, beta);
                        if self.stopped || (v > alpha && v < beta) {
                            v
                        } else {
                            self.stats.aspiration_researches += 1;
                            self.root(game, depth, -Score::INFINITY, Score::INFINITY)
                        }
                    }
                    _ => self.root(game, depth, -Score::INFINITY, Score::INFINITY),
                }
            }
        }
    }

    /// Extends `line`, the principal variation of a solved position of
    /// value `value`, to the end of the game: a null-window test per move
    /// finds, at each ply, a move that keeps the value (the line's own move
    /// first). Needs an exact value searched to the end (solving), or a
    /// decisive one (proving), whose distance bounds the depth; a draw in a
    /// game that can repeat keeps its line. Stops quietly at a limit.
    pub(crate) fn complete_line(&mut self, game: &mut G, value: Score, line: &mut Vec<G::Move>) {
        if !self.to_end && !value.is_decisive() {
            return;
        }
        let root = game.side_to_move();
        let mut played: Vec<(G::Move, G::Undo)> = Vec::new();
        let mut out: Vec<G::Move> = Vec::new();
        let mut moves = G::Moves::default();
        let fail_soft = true;
        while game.outcome().is_none() && out.len() < MAX_PLY - 2 {
            let ply = out.len() as u32;
            // The value from the side to move's point of view.
            let v = if game.side_to_move() == root {
                value
            } else {
                -value
            };
            let depth = if self.to_end {
                TO_END_DEPTH as u32
            } else {
                match value.plies_to_end() {
                    Some(n) if n > ply => n - ply - 1,
                    _ => break,
                }
            };
            game.generate(&mut moves);
            let hint = line.get(out.len()).copied();
            // Then the table's move (usually the one that decided), then
            // the rest in generation order.
            let stored = if self.config.table.usage == TtUse::Off {
                None
            } else {
                let tt_depth = self.tt_depth(depth);
                self.probe(game.table_key(), tt_depth, ply)
                    .and_then(|h| h.entry.best_move)
                    .and_then(|code| move_of_code(&*game, &moves, code))
            };
            let candidates = hint.into_iter().chain(stored).chain(
                moves
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|&m| Some(m) != hint && Some(m) != stored),
            );
            let mut found = None;
            for m in candidates {
                if !moves.as_slice().contains(&m) {
                    continue;
                }
                let side = game.side_to_move();
                let frame = Frame {
                    depth,
                    ply: ply + 1,
                    alpha: Score::new(v.get() - 1),
                    beta: v,
                    previous: Some(m),
                    safe: false,
                    fail_soft,
                };
                let c = with_move(game, m, |g| {
                    let same_side = g.side_to_move() == side;
                    self.child(g, same_side, frame).value
                });
                if self.stopped {
                    break;
                }
                if c >= v {
                    found = Some(m);
                    break;
                }
            }
            let Some(m) = found else { break };
            out.push(m);
            let undo = game.make(m);
            played.push((m, undo));
        }
        while let Some((m, undo)) = played.pop() {
            game.unmake(m, undo);
        }
        if out.len() >= line.len() && (line.is_empty() || out.first() == line.first()) {
            *line = out;
        }
    }

    /// MTD(f): null-window passes from `guess` until the bounds meet.
    fn mtdf(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
        let (mut lower, mut upper) = (-Score::INFINITY, Score::INFINITY);
        let mut g = guess;
        let mut best = None;
        let mut line = Vec::new();
        while lower < upper {
            let beta = if g == lower {
                Score::new(g.get() + 1)
            } else {
                g
            };
            g = self.root(game, depth, Score::new(beta.get() - 1), beta);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
        }
        self.root_best = best;
        self.pv.set_root(&line);
        g
    }

    /// Null-window bisection: each test at the middle of `[lower, upper)`,
    /// the first at `guess`.
    fn bisection(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
        if self.to_end
            && self.uses.length_bound
            && game.outcome().is_none()
            && let Some(r) = game.remaining_plies()
            && (r as usize) < MAX_PLY - 2
        {
            let ladder = Ladder::new(r, self.uses.forcing);
            return self.ladder_bisection(game, depth, ladder);
        }
        let (mut lower, mut upper) = (-Score::INFINITY, Score::INFINITY);
        let mut best = None;
        let mut line = Vec::new();
        let mut test = guess;
        while lower < upper {
            // The test value x decides "value > x?": x in [lower, upper).
            let x = test.clamp(lower, Score::new(upper.get() - 1));
            let g = self.root(game, depth, x, Score::new(x.get() + 1));
            if self.stopped {
                return g;
            }
            if g <= x {
                upper = g;
            } else {
                lower = g;
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
            let (mut lo, mut hi) = (lower.get(), upper.get());
            if self.to_end {
                // Solving: every value is 0 or decisive, so bisect inside
                // the decisive range, not across empty heuristic values.
                if lo >= 1 {
                    lo = lo.max(Score::MAX_HEURISTIC);
                }
                if hi <= -1 {
                    hi = hi.min(-Score::MAX_HEURISTIC);
                }
            }
            test = Score::new(lo / 2 + hi / 2);
        }
        self.root_best = best;
        self.pv.set_root(&line);
        lower
    }

    /// Bisection on the ladder of the values a solved position can have
    /// (see [`Ladder`]): Pons's rule, each test at the middle of the
    /// remaining ranks but first at half the best possible loss (win) when
    /// the middle is on the losing (winning) side, so quick decisive results
    /// — cheap to refute, the short lines bounding the search — come first;
    /// once the value is neither a quick win nor a quick loss, one PVS
    /// search inside the remaining window. Measured against Pons's order
    /// throughout (complete_line off, 64 MiB table, cleared per position):
    /// 4×4 four-in-a-row after up to 4 stones 1.49× fewer nodes, the empty
    /// 5×4, 6×4, 6×5 and 7×4 Connect Four boards 1.29×, 1.31×, 1.22× and
    /// 1.09× fewer, Pons's Test_L3_R1 and Test_L2_R2 (first 200 and 100
    /// lines) 1.17× and 1.08× fewer, Test_L1_R1 the same, Test_L1_R2 (first
    /// 100) 4.5 % more.
    fn ladder_bisection(&mut self, game: &mut G, depth: u32, ladder: Ladder) -> Score {
        let (mut lo, mut hi) = (ladder.min(), ladder.max());
        let mut best = None;
        let mut line = Vec::new();
        let (min, max) = (lo, hi);
        while lo < hi {
            if lo >= min / 2 && hi <= max / 2 {
                // Neither a quick win nor a quick loss: one PVS search
                // inside the remaining window settles the value, where
                // further halvings toward zero would take a test each (a
                // draw needs about two per halving).
                let alpha = Score::new(ladder.score(lo).get() - 1);
                let beta = Score::new(ladder.score(hi).get() + 1);
                let algorithm = self.config.algorithm;
                self.config.algorithm = Algorithm::Pvs;
                let v = self.root(game, depth, alpha, beta);
                self.config.algorithm = algorithm;
                self.stats.mtdf_passes += 1;
                return v;
            }
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            // Is the value above the rank-`med` score?
            let x = ladder.score(med);
            let g = self.root(game, depth, x, Score::new(x.get() + 1));
            if self.stopped {
                return g;
            }
            if g <= x {
                hi = ladder.rank_at_most(g).min(med);
            } else {
                lo = ladder.rank_at_least(g).max(med + 1);
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
        }
        if best.is_none() {
            // Never above the lowest rank: the quickest loss, which every
            // move achieves.
            let mut moves = G::Moves::default();
            game.generate(&mut moves);
            best = moves.as_slice().first().copied();
            line.clear();
            line.extend(best);
        }
        self.root_best = best;
        self.pv.set_root(&line);
        ladder.score(lo)
    }

    /// The root search: [`Self::node`] as the root (never cut by the table
    /// or an oracle, recording the best move); notes whether the horizon
    /// cut a leaf.
    pub(crate) fn root(&mut self, game: &mut G, depth: u32, alpha: Score, beta: Score) -> Score {
        self.root_best = None;
        let fail_soft = self.config.fail_soft
            || matches!(
                self.config.algorithm,
                Algorithm::Mtdf | Algorithm::Bisection
            );
        let v = self.node::<true>(game, Frame::root(depth, alpha, beta, fail_soft));
        self.iteration_horizon |= v.taint.horizon;
        v.value
    }
}
