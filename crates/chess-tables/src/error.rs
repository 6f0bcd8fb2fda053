//! [`Error`]: why tables could not be built, found, loaded or saved.

use std::fmt;
use std::path::PathBuf;

use gametree_game::Stop;
use gametree_retrograde::{Label, LoadError};

use crate::{MAX_BUILD_PIECES, SCHEME, Signature};

/// Why tables could not be built, found, loaded or saved.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An ending has more pieces than [`MAX_BUILD_PIECES`].
    TooManyPieces {
        /// The ending.
        ending: Signature,
        /// Its number of pieces, kings included.
        pieces: usize,
    },
    /// The generator failed on an ending (a bug in the space or the
    /// tables, or the thread pool could not start).
    Build {
        /// The ending.
        ending: Signature,
        /// What went wrong.
        source: gametree_retrograde::BuildError,
    },
    /// A build was stopped by its limits
    /// ([`BuildOptions::limits`](crate::BuildOptions::limits)).
    Stopped {
        /// The ending being built, or the next one to build.
        ending: Signature,
        /// Which limit.
        stop: Stop,
    },
    /// A directory of tables could not be read (missing, not a
    /// directory).
    Directory {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A table file could not be read, or is not the ending's table:
    /// truncated, corrupted, of another format version, of another ending
    /// (the kinds of [`LoadError`]).
    Load {
        /// The ending.
        ending: Signature,
        /// What went wrong.
        source: LoadError,
    },
    /// A table file could not be written.
    Save {
        /// The ending.
        ending: Signature,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A table's label is not that of a chess ending in [`SCHEME`].
    Label {
        /// The table's label.
        found: Label,
    },
    /// A table has another size than its ending's index space.
    Size {
        /// The ending.
        ending: Signature,
        /// The sizes.
        source: gametree_retrograde::SizeMismatch,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooManyPieces { ending, pieces } => write!(
                f,
                "{ending}: {pieces} pieces; tables are built for at most {MAX_BUILD_PIECES} (memory)"
            ),
            Error::Build { ending, source } => write!(f, "building {ending}: {source}"),
            Error::Stopped { ending, stop } => write!(f, "building {ending}: stopped ({stop})"),
            Error::Directory { path, source } => {
                write!(f, "reading the directory {}: {source}", path.display())
            }
            Error::Load { ending, source } => write!(f, "loading {ending}: {source}"),
            Error::Save { ending, source } => write!(f, "saving {ending}: {source}"),
            Error::Size { ending, source } => write!(f, "{ending}: {source}"),
            Error::Label { found } => write!(
                f,
                "the table is labelled {found}, not chess/<ending>/{SCHEME}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::TooManyPieces { .. } | Error::Label { .. } | Error::Stopped { .. } => None,
            Error::Build { source, .. } => Some(source),
            Error::Directory { source, .. } => Some(source),
            Error::Load { source, .. } => Some(source),
            Error::Save { source, .. } => Some(source),
            Error::Size { source, .. } => Some(source),
        }
    }
}
