//! The one error type of the crate: a table could not be built.

use core::fmt;

/// Why a table could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The size holds less than one bucket (64 bytes).
    TooSmall,
    /// The size needs more than [`crate::MAX_BUCKETS`] buckets (256 GiB).
    TooLarge,
    /// The allocator refused the memory.
    AllocationFailed,
    /// The number of verification bits is not in `1..=64`.
    InvalidCheckBits,
    /// [`crate::ProbePolicy::ExactDepth`] needs full-key verification
    /// (`check_bits == 64`).
    ExactDepthNeedsFullKey,
    /// The solved layout ([`crate::Config::solved`]) needs at least `2^18`
    /// buckets (16 MiB) to keep keys exact.
    SolvedTooSmall,
    /// The solved layout keeps no depth, so it cannot serve
    /// [`crate::ProbePolicy::ExactDepth`].
    SolvedWithExactDepth,
}

/// A table could not be built: bad size, bad configuration, or the memory
/// could not be allocated. Building a table never panics or aborts.
///
/// ```
/// use gametree_ttable::{ErrorKind, TranspositionTable};
///
/// let err = TranspositionTable::new(10).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::TooSmall);
/// assert_eq!(err.requested_bytes(), 10);
/// println!("{err}"); // "table size of 10 bytes is smaller than one 64-byte bucket"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableError {
    kind: ErrorKind,
    bytes: usize,
}

impl TableError {
    pub(crate) const fn new(kind: ErrorKind, bytes: usize) -> TableError {
        TableError { kind, bytes }
    }

    /// What went wrong.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The size in bytes that was asked for.
    #[must_use]
    pub const fn requested_bytes(&self) -> usize {
        self.bytes
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.bytes;
        match self.kind {
            ErrorKind::TooSmall => {
                write!(
                    f,
                    "table size of {b} bytes is smaller than one 64-byte bucket"
                )
            }
            ErrorKind::TooLarge => write!(
                f,
                "table size of {b} bytes needs more than {} buckets of 64 bytes",
                crate::MAX_BUCKETS
            ),
            ErrorKind::AllocationFailed => {
                write!(f, "could not allocate a table of {b} bytes")
            }
            ErrorKind::InvalidCheckBits => {
                f.write_str("the number of verification bits must be in 1..=64")
            }
            ErrorKind::ExactDepthNeedsFullKey => f.write_str(
                "the exact-depth probe policy needs full-key verification (check_bits = 64)",
            ),
            ErrorKind::SolvedTooSmall => write!(
                f,
                "a solved-layout table needs at least {} bytes to keep keys exact; {b} bytes were asked for",
                crate::solved::MIN_BUCKETS * crate::BUCKET_BYTES
            ),
            ErrorKind::SolvedWithExactDepth => f.write_str(
                "the solved layout keeps no depth, so it cannot use the exact-depth probe policy",
            ),
        }
    }
}

impl std::error::Error for TableError {}
