//! Threat-space search: proves that the side to move wins by a sequence of
//! threats, each of which leaves the opponent a single way not to lose at
//! once, for any [`Game`] that lists its threat moves
//! ([`Game::threat_moves`], [`Knowledge::threats`]) and knows its immediate
//! wins ([`Knowledge::forcing`]).
//!
//! Allis's threat-space search (1994) found the threat sequences that
//! proved free-style Go-Moku a first-player win: the attacker plays only
//! threats, the defender only the replies that stop them. This crate
//! searches the part of that space where every threat is absolute, a
//! "four" of Go-Moku (victory by continuous fours, VCF): after the
//! attacker's threat the defender must stop an immediate win. Every step is
//! checked against the rules, so a win it reports is a real forced win:
//!
//! * the attacker's moves are the game's threat moves (any list is safe);
//! * after each, a defender that can win at once does so, and the sequence
//!   fails ([`Game::winning_move`]);
//! * otherwise the defender's moves are exactly [`Game::non_losing_moves`]
//!   (every other move lets the attacker win at once); none left is a win,
//!   more than one is no longer forcing and the sequence fails, and the
//!   one left is answered by the next threat;
//! * the attacker wins when it has a winning move.
//!
//! Solvers use it as a proof-time pruning: a position whose side to move
//! has such a sequence is solved without being searched, so the defender's
//! moves that allow one are refuted at once. A search that fails only
//! means that no sequence was found within the depth and node limits; it
//! never claims a loss or a draw. Positions searched to the end without a
//! win are remembered in a small table (by hash and depth), so a solver that
//! asks again about the same position pays nothing.
//!
//! What it leaves out: threats that give the defender several replies
//! (Go-Moku's open threes) and Allis's dependency analysis, which combines
//! independent threats without trying their orders; here transposed orders
//! meet in the table instead.
//!
//! ```
//! use gametree_game::Game;
//! use gametree_games_mnk::Mnk;
//! use gametree_threats::{ThreatConfig, ThreatSearch};
//!
//! let mut search = ThreatSearch::new(ThreatConfig::default())?;
//! let mut g = Mnk::new(7, 7, 4)?;
//! for mv in ["c4", "a1", "d4", "a7"] {
//!     g.make(mv.parse()?);
//! }
//! // x (to move) has c4 and d4 in an empty row: b4 or e4 makes an open
//! // three, which o cannot block at both ends.
//! let win = search.find_win(&mut g).expect("a threat sequence");
//! assert!(win.plies >= 3 && win.plies % 2 == 1);
//! g.make(win.first);
//! // o has no threat sequence of its own.
//! assert_eq!(search.find_win(&mut g), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;

use gametree_game::{Game, MoveBuffer, Outcome};

/// Limits of one [`ThreatSearch::find_win`] call, built by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreatConfig {
    depth: u32,
    nodes: u64,
    table_entries: usize,
}

impl Default for ThreatConfig {
    fn default() -> Self {
        ThreatConfig::new()
    }
}

impl ThreatConfig {
    /// At most 20 threats in a row, 2,000 positions per call, a table of
    /// 2^16 entries (1 MiB).
    #[must_use]
    pub const fn new() -> ThreatConfig {
        ThreatConfig {
            depth: 20,
            nodes: 2_000,
            table_entries: 1 << 16,
        }
    }

    /// The most threats (attacker moves before the winning one) in a
    /// sequence.
    #[must_use]
    pub const fn depth(mut self, threats: u32) -> ThreatConfig {
        self.depth = threats;
        self
    }

    /// The most positions one call visits (the attacker's positions).
    #[must_use]
    pub const fn nodes(mut self, nodes: u64) -> ThreatConfig {
        self.nodes = nodes;
        self
    }

    /// The number of entries of the table of positions without a sequence,
    /// rounded down to a power of two (16 bytes each; at least 1, at most
    /// 2^32).
    #[must_use]
    pub const fn table_entries(mut self, entries: usize) -> ThreatConfig {
        self.table_entries = entries;
        self
    }

    /// Whether [`ThreatSearch::new`] accepts this configuration, without
    /// allocating anything.
    ///
    /// # Errors
    ///
    /// [`Error::TableSize`] for a table of 0 or more than 2^32 entries.
    pub fn check(&self) -> Result<(), Error> {
        let n = self.table_entries;
        if n == 0 || n > 1 << 32 {
            return Err(Error::TableSize(n));
        }
        Ok(())
    }
}

/// A configuration [`ThreatSearch::new`] refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The table must have between 1 and 2^32 entries.
    TableSize(usize),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TableSize(n) => write!(
                f,
                "threat table of {n} entries: it needs between 1 and 2^32"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// A forced win found by [`ThreatSearch::find_win`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatWin<M> {
    /// The first move of the sequence (a threat, or the winning move).
    pub first: M,
    /// Plies to the winning move, included, against the longest defence
    /// the sequence allows: the side to move wins within this many plies
    /// (an upper bound on the distance to win; odd).
    pub plies: u32,
}

/// What [`ThreatSearch`] has done since it was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatStats {
    /// Calls of [`ThreatSearch::find_win`].
    pub calls: u64,
    /// Calls that found a win.
    pub wins: u64,
    /// Attacker positions visited.
    pub nodes: u64,
    /// Calls answered by the table.
    pub table_hits: u64,
}

/// Threat-space search over absolute threats (see the crate docs), with a
/// table of the positions already searched without success.
#[derive(Clone, Debug)]
pub struct ThreatSearch {
    config: ThreatConfig,
    /// `[hash, depth + 1]`: no sequence of at most `depth` threats from the
    /// position with this hash; `[_, 0]` is an empty slot.
    table: Vec<[u64; 2]>,
    /// Positions left in the current call.
    left: u64,
    stats: ThreatStats,
}

impl ThreatSearch {
    /// A search with `config`'s limits and an empty table.
    ///
    /// # Errors
    ///
    /// [`Error::TableSize`] for a table of 0 or more than 2^32 entries.
    pub fn new(config: ThreatConfig) -> Result<ThreatSearch, Error> {
        config.check()?;
        let n = config.table_entries;
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        Ok(ThreatSearch {
            config,
            table: vec![[0; 2]; n],
            left: 0,
            stats: ThreatStats::default(),
        })
    }

    /// The limits it was built with.
    #[must_use]
    pub fn config(&self) -> ThreatConfig {
        self.config
    }

    /// Counts since it was built.
    #[must_use]
    pub fn stats(&self) -> ThreatStats {
        self.stats
    }

    /// The bytes its table takes (16 per entry).
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.table.len() * core::mem::size_of::<[u64; 2]>()
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.fill([0; 2]);
    }

    /// Does the side to move of `game` win by a sequence of absolute
    /// threats? `None` when no sequence was found within the limits, when
    /// the game is over, and always for a game that does not declare both
    /// [`Knowledge::threats`] and [`Knowledge::forcing`] or whose positions
    /// can repeat ([`Game::CAN_REPEAT`]). `game` is restored.
    pub fn find_win<G: Game>(&mut self, game: &mut G) -> Option<ThreatWin<G::Move>> {
        if !applies::<G>() || game.outcome().is_some() {
            return None;
        }
        self.stats.calls += 1;
        self.left = self.config.nodes;
        let win = self.attack(game, self.config.depth);
        self.stats.wins += u64::from(win.is_some());
        win
    }

    fn slot(&self, hash: u64) -> usize {
        (hash ^ hash >> 32) as usize & (self.table.len() - 1)
    }

    /// The side to move is the attacker and the game is not over.
    fn attack<G: Game>(&mut self, game: &mut G, depth: u32) -> Option<ThreatWin<G::Move>> {
        // Looked up first: an entry also says there is no winning move.
        let hash = game.hash();
        let slot = self.slot(hash);
        let [h, d] = self.table[slot];
        if h == hash && d > u64::from(depth) {
            self.stats.table_hits += 1;
            return None;
        }
        if let Some(first) = game.winning_move() {
            return Some(ThreatWin { first, plies: 1 });
        }
        if depth == 0 {
            return None;
        }
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.stats.nodes += 1;
        #[cfg(debug_assertions)]
        gametree_game::check::sampled_knowledge(game, self.stats.nodes);
        let mut threats = G::Moves::default();
        game.threat_moves(&mut threats);
        for &m in threats.as_slice() {
            let undo = game.make(m);
            let defended = match game.outcome() {
                Some(Outcome::Loss) => Some(0),
                Some(_) => None,
                None => self.defend(game, depth - 1),
            };
            game.unmake(m, undo);
            if let Some(plies) = defended {
                return Some(ThreatWin {
                    first: m,
                    plies: plies + 1,
                });
            }
        }
        // A search cut by the node limit (`left` reached 0 and stays there)
        // proves nothing; a complete one is remembered.
        if self.left > 0 {
            self.table[slot] = [hash, u64::from(depth) + 1];
        }
        None
    }

    /// The defender is to move after a threat; the plies to the attacker's
    /// win, counting the defender's move, if every defence loses.
    fn defend<G: Game>(&mut self, game: &mut G, depth: u32) -> Option<u32> {
        if game.winning_move().is_some() {
            return None;
        }
        let mut replies = G::Moves::default();
        game.non_losing_moves(&mut replies);
        match replies.as_slice() {
            [] => Some(2),
            &[r] => {
                let undo = game.make(r);
                let won = match game.outcome() {
                    None => self.attack(game, depth),
                    Some(_) => None,
                };
                game.unmake(r, undo);
                won.map(|w| w.plies + 1)
            }
            _ => None,
        }
    }
}

/// Does threat-space search apply to `G` (threat moves, forcing knowledge,
/// no repetitions)?
#[must_use]
pub const fn applies<G: Game>() -> bool {
    G::KNOWLEDGE.has_threats() && G::KNOWLEDGE.has_forcing() && !G::CAN_REPEAT
}

#[cfg(doc)]
use gametree_game::Knowledge;

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
