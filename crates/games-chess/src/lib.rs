//! Chess for gametree.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attacks;
mod fen;
mod movegen;
mod mv;
mod position;
mod types;

pub use fen::{FenError, FenErrorKind};
pub use mv::{Move, UciError, UciErrorKind};
pub use position::{Position, Undo};
pub use types::{Color, Piece, Role, Square, SquareError};

/// The initial position in FEN.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
