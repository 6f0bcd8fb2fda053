//! The staged move picker.

use arrayvec::ArrayVec;
use core::fmt;
use gametree_game::{Game, MoveBuffer, Player};

use crate::History;
use crate::tuning::QUIET_SELECTIONS_BEFORE_SORT;

/// Where the quiet moves get their order from: a [`History`] table, or
/// [`NoHistory`] for generation order.
pub trait QuietOrder<M> {
    /// The ordering score of quiet move `m` for `side`; higher first.
    fn quiet_score(&self, side: Player, m: M) -> i32;

    /// `false` when every score would be equal: the picker then yields the
    /// quiet moves in buffer order without scoring them.
    fn orders(&self) -> bool {
        true
    }
}

impl<G: Game> QuietOrder<G::Move> for History<G> {
    #[inline]
    fn quiet_score(&self, side: Player, m: G::Move) -> i32 {
        self.score(side, m)
    }
}

/// No quiet-move ordering: the quiet moves come in buffer order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoHistory;

impl<M> QuietOrder<M> for NoHistory {
    #[inline]
    fn quiet_score(&self, _: Player, _: M) -> i32 {
        0
    }
    #[inline]
    fn orders(&self) -> bool {
        false
    }
}

/// The stages of a [`MovePicker`], in the order it goes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The transposition-table move, if it is in the move list.
    TtMove,
    /// The tactical moves, highest tactical score first.
    Tactical,
    /// The killers of this ply that are in the list, most recent first.
    Killers,
    /// The counter-move to the previous move, if it is in the list.
    CounterMove,
    /// The remaining (quiet) moves, highest history score first.
    Quiet,
    /// Every move has been yielded.
    Done,
}

/// Internal progress: the public stages plus the one-off scoring steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    TtMove,
    ScoreTactical,
    Tactical,
    Killers,
    CounterMove,
    ScoreQuiet,
    Quiet,
    Done,
}

/// A staged, lazy move picker over a game's move buffer.
///
/// Stages, in order: the TT move; the tactical moves by
/// the game's [`Game::move_hint`] (only for a picker made with
/// [`new_tactical`](MovePicker::new_tactical)); the killers; the
/// counter-move; the rest by [`QuietOrder`] score (history). Suggested
/// moves (TT move, killers, counter-move) are yielded only when they are in
/// the buffer and not yielded yet, so a stale or even illegal suggestion is
/// harmless.
///
/// **Guarantee:** the picker yields exactly the moves of the buffer, each as
/// often as it appears there (once, for a game that keeps its contract),
/// whatever the suggestions and scores. It works by swapping moves inside
/// the buffer: after `n` calls the first `n` buffer slots hold the yielded
/// moves in yield order, which is what [`quiets_tried`](Self::quiets_tried)
/// reads.
///
/// **Cost:** no heap allocation. Selection is lazy: each call scans only
/// the not-yet-yielded part of the current stage, so a cutoff on the first
/// moves costs `O(n)` instead of a sort's `O(n log n)`; once
/// [`QUIET_SELECTIONS_BEFORE_SORT`](crate::tuning::QUIET_SELECTIONS_BEFORE_SORT)
/// quiet moves have been selected without a cutoff, the remaining quiet
/// moves are sorted once (insertion sort) and yielded in that order. Scores are cached
/// for up to `N` moves per stage (default
/// [`PICKER_CACHE`](crate::tuning::PICKER_CACHE) = 256); moves beyond that are
/// still yielded correctly, their scores are recomputed at each scan.
///
/// The searcher generates the moves into its own buffer, makes a picker and
/// calls [`next`](Self::next) with the same buffer until it returns `None`;
/// between calls it may make and unmake moves on the game (the picker holds
/// no borrow of the game, history or buffer).
///
/// ```
/// use gametree_game::{Game, Player};
/// use gametree_games_tictactoe::{Square, TicTacToe};
/// use gametree_ordering::{History, MovePicker, Policy, Stage};
///
/// let sq = |i| Square::new(i).unwrap();
/// let board: TicTacToe = "X.X.OO...".parse()?; // X to move: 1 wins, 3 blocks
/// let mut history = History::<TicTacToe>::new(Policy::Gravity);
/// history.reward(Player::First, sq(8), 5);
/// let mut moves = <TicTacToe as Game>::Moves::default();
/// board.generate(&mut moves);
/// let mut picker = MovePicker::<TicTacToe>::new_tactical(Some(sq(6)))
///     .with_killers(&[sq(7)])
///     .with_counter(Some(sq(7))); // already a killer: not yielded twice
/// let mut order = Vec::new();
/// while let Some(m) = picker.next(&board, &mut moves, &history) {
///     order.push((m.to_string(), picker.stage()));
/// }
/// let order: Vec<_> = order.iter().map(|(m, s)| (m.as_str(), *s)).collect();
/// assert_eq!(order, [
///     ("6", Stage::TtMove),
///     ("1", Stage::Tactical), // immediate win
///     ("3", Stage::Tactical), // block
///     ("7", Stage::Killers),
///     ("8", Stage::Quiet),    // best history
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MovePicker<G: Game, const K: usize = 2, const N: usize = { crate::tuning::PICKER_CACHE }>
{
    tt_move: Option<G::Move>,
    killers: ArrayVec<G::Move, K>,
    counter: Option<G::Move>,
    tactical: bool,
    step: Step,
    /// The stage of the last yielded move.
    stage: Stage,
    /// `moves[..cursor]` have been yielded, in order.
    cursor: usize,
    /// End of the tactical moves (after partitioning).
    tactical_end: usize,
    /// Next killer to try.
    killer: usize,
    /// Was the TT move yielded, and was it tactical?
    tt_yielded: bool,
    tt_tactical: bool,
    /// First buffer slot of the quiet stages (killers onward).
    quiet_start: usize,
    /// `scores[i]` is the score of `moves[base + i]`.
    base: usize,
    scores: ArrayVec<i32, N>,
    side: Player,
    ordered: bool,
    /// Quiet moves yielded so far, and are the remaining ones sorted?
    quiet_picks: usize,
    sorted: bool,
}

impl<G: Game, const K: usize, const N: usize> MovePicker<G, K, N> {
    /// A picker without a tactical stage (for games without tactical
    /// knowledge, or to measure ordering without it), with an optional TT
    /// move.
    #[must_use]
    pub fn new(tt_move: Option<G::Move>) -> Self {
        MovePicker {
            tt_move,
            killers: ArrayVec::new(),
            counter: None,
            tactical: false,
            step: Step::TtMove,
            stage: Stage::TtMove,
            cursor: 0,
            tactical_end: 0,
            killer: 0,
            tt_yielded: false,
            tt_tactical: false,
            quiet_start: usize::MAX,
            base: 0,
            scores: ArrayVec::new(),
            side: Player::First,
            ordered: false,
            quiet_picks: 0,
            sorted: false,
        }
    }

    /// A picker whose tactical stage tries the moves that the game's
    /// [`Game::move_hint`] marks tactical first, highest priority first.
    #[must_use]
    pub fn new_tactical(tt_move: Option<G::Move>) -> Self {
        MovePicker {
            tactical: true,
            ..Self::new(tt_move)
        }
    }

    /// Sets the killers to try, in order (e.g. [`Killers::get`](crate::Killers::get));
    /// at most `K` are kept, the first ones.
    #[must_use]
    pub fn with_killers(mut self, killers: &[G::Move]) -> Self {
        self.killers.clear();
        self.killers.extend(killers.iter().copied().take(K));
        self
    }

    /// Sets the counter-move to try after the killers (e.g.
    /// [`CounterMoves::get`](crate::CounterMoves::get)).
    #[must_use]
    pub fn with_counter(mut self, counter: Option<G::Move>) -> Self {
        self.counter = counter;
        self
    }

    /// The stage of the last yielded move ([`Stage::TtMove`] before the
    /// first call, [`Stage::Done`] once [`next`](Self::next) returned `None`).
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// How many moves have been yielded.
    #[must_use]
    pub fn yielded(&self) -> usize {
        self.cursor
    }

    /// Was the last yielded move quiet (not tactical)? The searcher updates
    /// killers, history and counter-moves only for quiet cutoff moves. A TT
    /// move counts as tactical when the picker has a tactical function that
    /// marks it tactical.
    #[must_use]
    pub fn last_is_quiet(&self) -> bool {
        match self.stage {
            Stage::TtMove => self.tt_yielded && !self.tt_tactical,
            Stage::Tactical | Stage::Done => false,
            Stage::Killers | Stage::CounterMove | Stage::Quiet => true,
        }
    }

    /// The quiet moves yielded so far, in yield order (the last one
    /// included), read from the buffer without allocating: what
    /// [`History::on_cutoff`] needs for its malus. `moves` must be the
    /// buffer given to [`next`](Self::next).
    pub fn quiets_tried<'a>(
        &self,
        moves: &'a G::Moves,
    ) -> impl Iterator<Item = G::Move> + use<'a, G, K, N>
    where
        G::Move: 'a,
    {
        let yielded = &moves.as_slice()[..self.cursor.min(moves.len())];
        let tt = if self.tt_yielded && !self.tt_tactical {
            &yielded[..1]
        } else {
            &yielded[..0]
        };
        let rest = &yielded[self.quiet_start.min(yielded.len())..];
        tt.iter().chain(rest).copied()
    }

    /// The next move to search, or `None` when every move of `moves` has
    /// been yielded. `moves` must hold the moves `game.generate` wrote and be
    /// the same buffer at every call (the picker reorders it in place);
    /// `game` must be in the same position at every call; `history` orders
    /// the quiet moves ([`NoHistory`] for buffer order).
    pub fn next<H: QuietOrder<G::Move>>(
        &mut self,
        game: &G,
        moves: &mut G::Moves,
        history: &H,
    ) -> Option<G::Move> {
        let list = moves.as_mut_slice();
        loop {
            match self.step {
                Step::TtMove => {
                    self.step = Step::ScoreTactical;
                    if let Some(tt) = self.tt_move
                        && let Some(m) = self.bring(list, tt)
                    {
                        self.tt_yielded = true;
                        self.tt_tactical = self.tactical && game.move_hint(m).is_tactical();
                        return self.yield_as(Stage::TtMove, m);
                    }
                }
                Step::ScoreTactical => {
                    self.step = Step::Tactical;
                    self.tactical_end = self.cursor;
                    if self.tactical {
                        self.base = self.cursor;
                        self.scores.clear();
                        for k in self.cursor..list.len() {
                            if let Some(s) = game.move_hint(list[k]).tactical() {
                                list.swap(self.tactical_end, k);
                                if self.scores.len() < N {
                                    self.scores.push(s);
                                }
                                self.tactical_end += 1;
                            }
                        }
                    }
                }
                Step::Tactical => {
                    if self.cursor < self.tactical_end {
                        let end = self.tactical_end;
                        let m = self.select(list, end, |m| {
                            game.move_hint(m).tactical().unwrap_or(i32::MIN)
                        });
                        return self.yield_as(Stage::Tactical, m);
                    }
                    self.step = Step::Killers;
                    self.quiet_start = self.cursor;
                }
                Step::Killers => {
                    while self.killer < self.killers.len() {
                        let k = self.killers[self.killer];
                        self.killer += 1;
                        if let Some(m) = self.bring(list, k) {
                            return self.yield_as(Stage::Killers, m);
                        }
                    }
                    self.step = Step::CounterMove;
                }
                Step::CounterMove => {
                    self.step = Step::ScoreQuiet;
                    if let Some(c) = self.counter
                        && let Some(m) = self.bring(list, c)
                    {
                        return self.yield_as(Stage::CounterMove, m);
                    }
                }
                Step::ScoreQuiet => {
                    self.step = Step::Quiet;
                    self.side = game.side_to_move();
                    self.ordered = history.orders();
                    self.base = self.cursor;
                    self.scores.clear();
                    if self.ordered {
                        let side = self.side;
                        let cached = list.len().min(self.cursor.saturating_add(N));
                        for &m in &list[self.cursor..cached] {
                            self.scores.push(history.quiet_score(side, m));
                        }
                    }
                }
                Step::Quiet => {
                    if self.cursor < list.len() {
                        let end = list.len();
                        if self.ordered
                            && !self.sorted
                            && self.quiet_picks >= QUIET_SELECTIONS_BEFORE_SORT
                            && end <= self.base + self.scores.len()
                        {
                            // Many quiet moves are being searched: sort the
                            // rest once instead of selecting each.
                            let from = self.cursor - self.base;
                            sort_descending(&mut list[self.cursor..], &mut self.scores[from..]);
                            self.sorted = true;
                        }
                        let m = if self.ordered && !self.sorted {
                            let side = self.side;
                            self.select(list, end, |m| history.quiet_score(side, m))
                        } else {
                            list[self.cursor]
                        };
                        self.quiet_picks += 1;
                        return self.yield_as(Stage::Quiet, m);
                    }
                    self.step = Step::Done;
                }
                Step::Done => {
                    self.stage = Stage::Done;
                    return None;
                }
            }
        }
    }

    #[inline]
    fn yield_as(&mut self, stage: Stage, m: G::Move) -> Option<G::Move> {
        self.stage = stage;
        self.cursor += 1;
        Some(m)
    }

    /// Finds `wanted` among the moves not yielded yet and swaps it to the
    /// cursor. Only used outside the scored stages, so no cache to fix.
    #[inline]
    fn bring(&self, list: &mut [G::Move], wanted: G::Move) -> Option<G::Move> {
        let at = list[self.cursor..].iter().position(|&m| m == wanted)?;
        list.swap(self.cursor, self.cursor + at);
        Some(wanted)
    }

    /// Swaps the best-scored move of `list[cursor..end]` to the cursor (the
    /// first of equal scores wins) and returns it; `score` recomputes the
    /// scores the cache does not hold.
    #[inline]
    fn select(
        &mut self,
        list: &mut [G::Move],
        end: usize,
        score: impl Fn(G::Move) -> i32,
    ) -> G::Move {
        let base = self.base;
        let cached = base + self.scores.len();
        let score_at = |k: usize| {
            if k < cached {
                self.scores[k - base]
            } else {
                score(list[k])
            }
        };
        let mut best = self.cursor;
        let mut best_score = score_at(best);
        for k in self.cursor + 1..end {
            let s = score_at(k);
            if s > best_score {
                best = k;
                best_score = s;
            }
        }
        list.swap(self.cursor, best);
        if best < cached {
            // The move that was at the cursor now lives at `best`.
            self.scores[best - base] = self.scores[self.cursor - base];
        }
        list[self.cursor]
    }
}

/// Sorts `moves` by `scores` (the same length), highest first, moving both
/// together: an insertion sort, stable and allocation-free.
fn sort_descending<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    for i in 1..moves.len() {
        let (m, s) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < s {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = m;
        scores[j] = s;
    }
}

impl<G: Game, const K: usize, const N: usize> fmt::Debug for MovePicker<G, K, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MovePicker")
            .field("tt_move", &self.tt_move)
            .field("killers", &self.killers.as_slice())
            .field("counter", &self.counter)
            .field("tactical", &self.tactical)
            .field("stage", &self.stage)
            .field("yielded", &self.cursor)
            .finish_non_exhaustive()
    }
}
