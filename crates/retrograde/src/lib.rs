//! Endgame databases by retrograde analysis, for any game that numbers its
//! positions.
//!
//! A game (or a part of it: the chess positions of one material
//! signature) implements [`gametree_game::IndexSpace`] — a size, index → canonical
//! position, position → index — and, for the backward method,
//! [`gametree_game::Predecessors`] (un-moves), or for its indexed variant
//! [`gametree_game::IndexMoves`] (moves and un-moves computed on indices).
//! This crate then computes the exact
//! value of every position: win, draw or loss for the side to move, and the
//! distance to the end of the game in plies (distance to mate for chess).
//!
//! * Three generators ([`Method`]), one file each in `src/generate/`:
//!   - repeated **forward sweeps** ([`Generator::forward`], `forward.rs`:
//!     set the terminal positions, sweep every undecided position until a
//!     sweep finds nothing new);
//!   - **Thompson's backward method** ([`Generator::backward`],
//!     `backward.rs`: from the decided positions, generate predecessors; a
//!     predecessor of a lost position is won, one whose counter of
//!     remaining moves drops to zero is lost);
//!   - the same backward method **over index-level moves**
//!     ([`Generator::backward_indexed`], `indexed.rs`, for spaces
//!     implementing [`gametree_game::IndexMoves`]: the same table, with
//!     successors counted and predecessors listed as indices by the space;
//!     the fast one for chess endings).
//!
//!   The two backward generators share their levels (`levels.rs`); the
//!   [`Generator`] builder, the first pass and the valuing of moves out of
//!   the space are in `generate/mod.rs`. [`Generator::build`] runs the
//!   first two by their [`Method`], [`Generator::build_indexed`] all three
//!   on a space with both traits. All run level by level, so distances are
//!   exact, and all run in parallel with rayon. Positions never decided are
//!   draws, cycles included.
//! * Moves that leave the space (captures into a smaller ending, terminal
//!   positions outside it) are valued by a [`Resolve`]r, typically a
//!   [`TableProbe`] over an already built sub-database.
//! * Values ([`Value`]) take one byte per index ([`Table`]) or two bits
//!   without distances ([`WdlTable`]). Invalid indices are marked as such.
//! * An on-disk format ([`format`](mod@format)) with a checksummed header (game,
//!   material, index scheme, encoding, counts), written atomically and
//!   refused with a typed [`LoadError`] when truncated, corrupted, of
//!   another version or for other material.
//! * Progress through a callback ([`Event`]), the memory a build needs
//!   stated before it starts ([`Generator::memory`]), every array whose
//!   size depends on the space or on a file allocated fallibly (a space or
//!   file too large for memory is a [`BuildError::Memory`] or a
//!   [`LoadError`], never an abort), and the workspace's
//!   [`gametree_game::Limits`] (time, cancel flag, positions decided) stopping a
//!   build cleanly ([`Generator::limits`], [`BuildError::Stopped`]).
//! * A built or loaded table answers like any solver: [`TableProbe`]
//!   implements [`gametree_game::Solver`] (value, distance, best move and the line
//!   to the end of the game).
//! * [`schedule`]: a set of databases that depend on one another (every
//!   chess ending on its sub-endings), built several at a time, each job
//!   started once the jobs it needs have finished.
//! * [`Reachable`]: an index space for any game with a small state space,
//!   built by enumerating the positions reachable from a root under a
//!   unique (or symmetry-class) key, with the move graph reversed as
//!   predecessor lists (Connect Four 4×4 and 5×4).
//! * Oracles ([`verify`]): the two methods agree index by index; the
//!   predecessor generator is the exact inverse of move generation; a table
//!   agrees with a search.
//!
//! # Example
//!
//! A subtraction game: take one to three stones, whoever takes the last one
//! wins. The index is the number of stones.
//!
//! ```
//! use arrayvec::ArrayVec;
//! use gametree_game::{Game, IndexSpace, Outcome, Player, Predecessors};
//! use gametree_retrograde::{Generator, Label, Method, Value, verify};
//!
//! #[derive(Clone, Debug)]
//! struct Pile { stones: u64, to_move: Player }
//!
//! impl Game for Pile {
//!     type Move = u64;
//!     type Undo = ();
//!     type Moves = ArrayVec<u64, 3>;
//!     fn side_to_move(&self) -> Player { self.to_move }
//!     fn generate(&self, out: &mut Self::Moves) {
//!         out.clear();
//!         out.extend(1..=self.stones.min(3));
//!     }
//!     fn make(&mut self, m: u64) { self.stones -= m; self.to_move = self.to_move.opponent(); }
//!     fn unmake(&mut self, m: u64, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
//!     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//!     fn hash(&self) -> u64 { self.stones }
//!     fn recompute_hash(&self) -> u64 { self.stones }
//! }
//!
//! /// Piles of 0 to 40 stones; the side to move does not matter.
//! struct Piles;
//!
//! impl IndexSpace for Piles {
//!     type Game = Pile;
//!     fn size(&self) -> u64 { 41 }
//!     fn position(&self, i: u64) -> Option<Pile> {
//!         (i < 41).then_some(Pile { stones: i, to_move: Player::First })
//!     }
//!     fn index_of(&self, p: &Pile) -> Option<u64> { (p.stones < 41).then_some(p.stones) }
//! }
//!
//! impl Predecessors for Piles {
//!     fn predecessors(&self, p: &Pile, found: &mut dyn FnMut(u64)) {
//!         for take in 1..=3 {
//!             if p.stones + take < 41 { found(p.stones + take); }
//!         }
//!     }
//! }
//!
//! let generator = Generator::new(&Piles).label(Label::new("pile", "0-40", "stones-v1"));
//! println!("needs {}", generator.memory(Method::Backward));
//! let table = generator.build(Method::Backward)?;
//! assert_eq!(table.get(0), Some(Value::Loss(0)));
//! assert_eq!(table.get(5), Some(Value::Win(3)));   // take 1, leave 4
//! assert_eq!(table.get(40), Some(Value::Loss(20)));
//! // The other method agrees everywhere; un-moves invert moves exactly.
//! assert_eq!(gametree_retrograde::compare(&table, &generator.forward()?), Ok(41));
//! assert_eq!(verify::check_predecessors(&Piles, 0..41), Ok(41));
//! // Round trip through the file format, refusing the wrong material.
//! let bytes = table.to_bytes();
//! let label = Label::new("pile", "0-40", "stones-v1");
//! assert_eq!(gametree_retrograde::Table::from_bytes(&bytes, &label)?, table);
//! let other = Label::new("pile", "0-99", "stones-v1");
//! assert!(gametree_retrograde::Table::from_bytes(&bytes, &other).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod compressed;
pub mod format;
mod generate;
mod reachable;
mod resolve;
mod schedule;
mod table;
mod value;
pub mod verify;

pub use format::LoadError;
pub use gametree_game::Event;
pub use generate::{BuildError, BuildSink, Generator, MemoryEstimate, Method};
pub use reachable::{MAX_DEPTH, Reachable, TooManyPositions};
pub use resolve::{DRAWN_LINE, NoExits, Resolve, SizeMismatch, TableProbe};
pub use schedule::{Job, ScheduleError, schedule};
pub use table::{Counts, Label, Table, WdlTable};
pub use value::Value;
pub use verify::compare;

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
