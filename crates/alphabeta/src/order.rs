//! Move order inside a node: the per-thread heuristic tables, the quiet
//! order from the game's hints, and the lean order used when no heuristic
//! table is on.

use gametree_game::{Game, MoveBuffer, Player};
use gametree_ordering::{CounterMoves, History, Killers, Policy, QuietOrder};
use gametree_threats::ThreatSearch;

use crate::config::Config;
use crate::searcher::{MAX_PLY, Uses};

/// The per-thread move-ordering tables.
#[derive(Debug)]
pub(crate) struct Heuristics<G: Game> {
    pub(crate) killers: Killers<G::Move>,
    pub(crate) history: History<G>,
    pub(crate) counters: CounterMoves<G>,
    /// The threat-space search and its table of failed positions
    /// ([`Uses::threats`]).
    pub(crate) threats: Option<ThreatSearch>,
}

impl<G: Game> Heuristics<G> {
    pub(crate) fn new(config: &Config, uses: &Uses) -> Self {
        Heuristics {
            killers: Killers::new(MAX_PLY),
            history: History::new(uses.history.unwrap_or(Policy::Gravity))
                .with_malus(config.history_malus),
            counters: CounterMoves::new(),
            // (`AlphaBeta::new` checked the limits: `ok()` keeps them.)
            threats: uses
                .threats
                .then(|| ThreatSearch::new(config.threat_limits).ok())
                .flatten(),
        }
    }
}

/// The quiet-move order of the staged picker: the game's hints with
/// history as the tie-break, history alone, or the buffer's order. One
/// type for the three, so that the picker is instantiated (and inlined)
/// once.
pub(crate) enum QuietKey<'a, G: Game> {
    Hints {
        game: &'a G,
        history: Option<&'a History<G>>,
    },
    History(&'a History<G>),
    Buffer,
}

impl<G: Game> QuietOrder<G::Move> for QuietKey<'_, G> {
    #[inline]
    fn quiet_score(&self, side: Player, m: G::Move) -> i32 {
        match self {
            QuietKey::Hints { game, history } => {
                let h = game.move_hint(m).quiet();
                let history = history
                    .map_or(0, |t| t.score(side, m))
                    .clamp(-(1 << 15), 1 << 15);
                h * (1 << 16) + history
            }
            QuietKey::History(t) => t.score(side, m),
            QuietKey::Buffer => 0,
        }
    }

    #[inline]
    fn orders(&self) -> bool {
        !matches!(self, QuietKey::Buffer)
    }
}

/// The most moves the lean order handles; longer lists use the picker.
pub(crate) const LEAN_MAX: usize = 32;

/// The move order of a node without killers, history, counter-moves or a
/// tactical stage: the table move, then the rest sorted once by the game's
/// hint (stable: generation order among equal hints), or in generation
/// order without hints. The same order the staged picker gives with those
/// stages empty, without its bookkeeping.
pub(crate) struct LeanOrder {
    /// `moves[..cursor]` have been yielded.
    cursor: usize,
    /// 0: the table move is next; 1: sort the rest; 2: yield in order.
    stage: u8,
}

impl LeanOrder {
    #[inline]
    pub(crate) fn new() -> Self {
        LeanOrder {
            cursor: 0,
            stage: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn next<G: Game>(
        &mut self,
        game: &G,
        moves: &mut G::Moves,
        tt_move: Option<G::Move>,
        hints: bool,
    ) -> Option<G::Move> {
        let list = moves.as_mut_slice();
        if self.stage == 0 {
            self.stage = 1;
            if let Some(tt) = tt_move
                && let Some(at) = list.iter().position(|&m| m == tt)
            {
                list.swap(0, at);
                self.cursor = 1;
                return Some(tt);
            }
        }
        if self.stage == 1 {
            self.stage = 2;
            if hints && list.len() > self.cursor + 1 {
                let rest = &mut list[self.cursor..];
                let n = rest.len().min(LEAN_MAX);
                let mut scores = [0i32; LEAN_MAX];
                game.quiet_hints(&rest[..n], &mut scores[..n]);
                // Insertion sort, highest first, stable.
                for i in 1..n {
                    let (m, sc) = (rest[i], scores[i]);
                    let mut j = i;
                    while j > 0 && scores[j - 1] < sc {
                        rest[j] = rest[j - 1];
                        scores[j] = scores[j - 1];
                        j -= 1;
                    }
                    rest[j] = m;
                    scores[j] = sc;
                }
            }
        }
        let m = *list.get(self.cursor)?;
        self.cursor += 1;
        Some(m)
    }
}

/// The 16-bit code a table keeps for a move of `game`: the number of its
/// [`Game::table_move`].
#[inline]
pub(crate) fn move_code<G: Game>(game: &G, m: G::Move) -> u16 {
    (G::move_number(game.table_move(m)) % usize::from(u16::MAX)) as u16
}

/// The move of `moves` whose code (as `game` stores it, see
/// [`Game::table_move`]) is `code` (the first, if numbers are shared), if
/// any: a table move is only ever a move of the list.
#[inline]
pub(crate) fn move_of_code<G: Game>(game: &G, moves: &G::Moves, code: u16) -> Option<G::Move> {
    moves
        .as_slice()
        .iter()
        .copied()
        .find(|&m| move_code(game, m) == code)
}
