//! Proof-number search (PNS, PN², df-pn) and conspiracy-number search for
//! any [`gametree_game::Game`].
//!
//! * [`Pns`]: best-first proof-number search (Allis 1994) over an explicit
//!   tree, and PN² (Breuker) with [`PnsConfig::second_level`].
//! * [`DfPn`]: depth-first proof-number search (Nagai 2002) with a
//!   transposition table sized in bytes, replacement by work, and the 1+ε
//!   trick (Pawlewicz and Lew).
//! * [`Conspiracy`]: conspiracy-number search (McAllester 1988; Schaeffer
//!   1990) over a [`ValueSet`], with a threshold, on the whole game or on a
//!   depth-limited tree.
//!
//! All proof-number searches work in the negamax φ/δ form and answer a
//! [`Question`] about the side to move: "can it force a win?" or "can it
//! force at least a draw?". Their [`Solver::solve`](gametree_game::Solver::solve)
//! asks both in turn to get win, draw or loss.
//!
//! Every search answers one [`gametree_game::Request`]: its
//! [`Limits`](gametree_game::Limits) (nodes, time, cancel flag), its event
//! sink, which gets [`Event::Nodes`](gametree_game::Event::Nodes) every
//! progress interval (and [`Event::Done`](gametree_game::Event::Done) at
//! the end of a `Solver::solve`), and its [`Oracle`](gametree_game::Oracle),
//! which df-pn consults below the root (PNS, PN² and conspiracy search
//! ignore it). Each has a memory bound (tree limit or table size) and
//! reports the answer (or the limit that stopped it), the `best` move,
//! `stats` ([`gametree_game::Stats`]: nodes and table use) and the time
//! `elapsed`. There is one method of each kind per searcher:
//! [`Pns::search`], [`DfPn::search`] and [`Conspiracy::search`];
//! [`Pns::prove`] and [`DfPn::prove`]; and the
//! [`Solver`](gametree_game::Solver) trait's `solve` and `clear`.
//!
//! A proof tree can be extracted ([`Pns::prove`], [`DfPn::prove`]) and
//! replayed against the game by [`verify`], which trusts nothing but the
//! game's rules. The [`agree`] module holds the cross-checks that
//! `cargo xtask verify` runs against the alpha-beta solver.
//!
//! ```
//! use arrayvec::ArrayVec;
//! use gametree_game::{Game, Limits, Outcome, Player, Request, Solver};
//! use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, Question, verify};
//!
//! // Take one or two stones; whoever takes the last stone wins.
//! #[derive(Clone, Debug)]
//! struct Nim { stones: u32, to_move: Player }
//! impl Game for Nim {
//!     type Move = u32;
//!     type Undo = ();
//!     type Moves = ArrayVec<u32, 2>;
//!     fn side_to_move(&self) -> Player { self.to_move }
//!     fn generate(&self, out: &mut Self::Moves) {
//!         out.clear();
//!         for take in 1..=2.min(self.stones) { out.push(take); }
//!     }
//!     fn make(&mut self, m: u32) { self.stones -= m; self.to_move = self.to_move.opponent(); }
//!     fn unmake(&mut self, m: u32, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | self.to_move.index() as u64 }
//! }
//!
//! // Multiples of three are lost for the side to move.
//! let limits = Limits::none();
//! let mut nim = Nim { stones: 10, to_move: Player::First };
//! let (report, proof) = Pns::default().prove(&mut nim, Question::Win, &mut Request::new(&limits));
//! assert_eq!(report.best, Some(1));
//! verify(&mut nim, &proof.unwrap())?; // replayed against the rules
//!
//! nim.stones = 9;
//! let solution = DfPn::new(DfPnConfig::new())?.solve(&mut nim, &mut Request::new(&limits));
//! assert_eq!(solution.outcome, Some(Outcome::Loss));
//! let cns = Conspiracy::new(ConspiracyConfig::new())?.search(&mut nim, &mut Request::new(&limits))?;
//! assert_eq!(cns.outcome(), Some(Outcome::Loss));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod agree;
mod cns;
mod common;
mod dfpn;
mod options;
mod pns;
mod proof;

pub use cns::{Conspiracy, ConspiracyConfig, ConspiracyReport, ValueSet};
pub use common::{Answer, Error, INFINITE, Number, Progress, Question, Report, Stop};
pub use dfpn::{DfPn, DfPnConfig};
pub use gametree_game::{MissingKnowledge, Use};
pub use gametree_threats::ThreatConfig;
pub use options::ProofConfig;
pub use pns::{Pns, PnsConfig, SecondLevel};
pub use proof::{
    BuildError, Claim, Strategy, Trust, VerifyError, VerifyErrorKind, VerifyStats, build_strategy,
    verify, verify_with,
};

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
