//! Chess endgame tables: the index spaces of endings with and without
//! pawns, and distance to mate for every position of a set of endings,
//! built by [`gametree_retrograde`] and probed by position.
//!
//! Endings with pawns are numbered by [`PawnEndgame`] (the left–right
//! symmetry, an en-passant capture part of the position) and built by
//! the same [`Tablebase::build`], which plans the endings their promotions
//! lead to as well as their captures.
//!
//! # Index spaces
//!
//! A pawnless ending is named by its material [`Signature`] (`KQvKR`).
//! [`Endgame`] numbers its positions with the board's 8-fold symmetry
//! (462 king placements, then 64 squares per other piece; see its docs)
//! and implements [`gametree_game::IndexSpace`] and
//! [`gametree_game::Predecessors`] over full
//! [`Position`](gametree_games_chess::Position)s: the reference.
//! [`FastEndgame`] numbers the same positions the same way as
//! [`Placement`]s — a position as a short list of pieces, a
//! [`gametree_game::Game`] of its own — and implements
//! [`gametree_game::IndexMoves`] too (moves and un-moves numbered from
//! the index), which [`gametree_retrograde::Generator::backward_indexed`]
//! builds over. [`pawnless_endings`] lists every ending of a number of
//! pieces, [`sub_endings`] the endings captures lead to.
//!
//! # The tablebase
//!
//! [`Tablebase`] holds a program's tables, one per ending, found by
//! material: a probe goes to its ending's table by a hash of the
//! position's material, or to the table of the colours exchanged
//! (`KRvKQ` in `KQvKR`), so each ending is built once. Its tables are
//! built in memory ([`Tablebase::build`]: every ending a capture or
//! promotion leads to, down to three pieces, planned and built several at
//! a time with [`gametree_retrograde::schedule`], each after the endings
//! it leads to), inserted ([`Tablebase::insert`]), or in files
//! ([`Tablebase::add_directory`]: raw `ENDING.gtb` and compressed
//! `ENDING.gtbz` files, each read when a probe first needs it, within a
//! memory budget). [`Tablebase::build_into`] builds into a directory in
//! little memory. [`statistics`] counts a table's wins, draws and losses
//! as the Syzygy generator does.
//!
//! Values are the same however a table is held (built, read from a raw
//! or a compressed file); a file that cannot be read is a typed
//! [`Error`]: a missing directory ([`Error::Directory`]), a truncated or
//! corrupted file or one of another format version or ending
//! ([`Error::Load`], with the [`gametree_retrograde::LoadError`] that
//! says which).
//!
//! A `Tablebase` is a [`gametree_game::Oracle`]: give it to alpha-beta or
//! df-pn in the request of a solve or search
//! (`gametree_game::Request::oracle`), and a search stops at every position
//! the tables hold below its root. It is a [`gametree_game::Solver`] too:
//! the value, best move and line to mate of the positions it holds.
//!
//! # Example
//!
//! ```
//! use gametree_chess_tables::{BuildOptions, Tablebase};
//! use gametree_games_chess::Position;
//! use gametree_retrograde::Value;
//!
//! let mut tables = Tablebase::new();
//! // KRvK needs no other table (a capture leaves two kings: a draw).
//! let built = tables.build(&["KRvK".parse()?], &BuildOptions::default())?;
//! assert_eq!(built.len(), 1);
//! // Black to move is mated.
//! let p: Position = "8/8/8/4k3/8/8/8/R6K b - - 0 1".parse()?;
//! assert!(matches!(tables.probe(&p)?, Some(Value::Loss(_))));
//! // The same position, colours exchanged, from the same table.
//! let q: Position = "r6k/8/8/8/4K3/8/8/8 w - - 0 1".parse()?;
//! assert_eq!(tables.probe(&q)?, tables.probe(&p)?);
//! // KQvKR needs KQvK and KRvK (KvKR is KRvK, colours exchanged).
//! let built = tables.build(&["KQvKR".parse()?], &BuildOptions::default())?;
//! let names: Vec<String> = built.iter().map(|s| s.to_string()).collect();
//! assert_eq!(names, ["KQvK", "KQvKR"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod endgame;
mod error;
mod exits;
mod fast;
mod legal;
mod oracle;
mod pawns;
mod placement;
mod signature;
mod stats;
mod symmetry;
mod tablebase;

use gametree_games_chess::{Color, Piece, Role, Square};

pub use endgame::Endgame;
pub use error::Error;
pub use exits::{captures, successor_endings};
pub use fast::FastEndgame;
pub use pawns::{PawnEndgame, flip_position};
pub use placement::{Placement, PlacementMove};
pub use signature::{
    MAX_PIECES, Signature, SignatureError, pawn_endings, pawnless_endings, sub_endings,
};
pub use stats::{Statistics, Wdl, pawn_statistics, statistics};
pub use symmetry::{KING_PLACEMENTS, king_pair, king_pair_index};
pub use tablebase::{
    BuildOptions, COMPRESSED_EXTENSION, Held, Load, LoadEvent, MAX_BUILD_PIECES,
    MAX_PAWN_BUILD_PIECES, PAWN_SCHEME, Progress, SCHEME, Tablebase, Written, check_table_file,
    compressed_table_file, find_table_file, is_compressed, label, table_bytes, table_file,
    table_files,
};

// The README's example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Role numbers ([`Role::index`]); a piece number is `colour × 6 + role`.
pub(crate) const PAWN_R: usize = Role::Pawn.index();
pub(crate) const KNIGHT_R: usize = Role::Knight.index();
pub(crate) const BISHOP_R: usize = Role::Bishop.index();
pub(crate) const ROOK_R: usize = Role::Rook.index();
pub(crate) const QUEEN_R: usize = Role::Queen.index();
pub(crate) const KING_R: usize = Role::King.index();
/// The kings' piece numbers.
pub(crate) const WHITE_KING: usize = KING_R;
pub(crate) const BLACK_KING: usize = 6 + KING_R;

/// The piece with number `n` (`colour × 6 + role`, below 12).
pub(crate) fn piece(n: usize) -> Piece {
    Piece {
        color: if n / 6 == 0 {
            Color::White
        } else {
            Color::Black
        },
        role: Role::ALL[n % 6],
    }
}

/// The square with number `sq` (only the low six bits are read).
pub(crate) fn square(sq: usize) -> Square {
    Square::new((sq & 63) as u8)
}
