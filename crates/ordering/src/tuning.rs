//! Every tuning constant of the crate, in one place.
//!
//! The history bonus policies ([`crate::Policy`]) and the decay between
//! searches read their numbers from here and nowhere else, so a tuning run
//! edits one file.

/// Bound of the gravity history: scores stay in
/// `-HISTORY_MAX..=HISTORY_MAX`. With `|bonus| <= HISTORY_MAX` the update
/// `h += bonus − h·|bonus|/HISTORY_MAX` cannot leave that range, and the
/// products it computes (at most `HISTORY_MAX²` = 2²⁸) fit an `i32`.
pub const HISTORY_MAX: i32 = 16_384;

/// Gravity bonus per squared ply of remaining depth: the bonus at depth `d`
/// is `min(GRAVITY_BONUS_PER_DEPTH_SQUARED · d², GRAVITY_BONUS_MAX)`.
pub const GRAVITY_BONUS_PER_DEPTH_SQUARED: i32 = 16;

/// Cap of a single gravity bonus (or malus): one eighth of the range, so one
/// cutoff cannot erase what many searches learned.
pub const GRAVITY_BONUS_MAX: i32 = HISTORY_MAX / 8;

/// Largest exponent of the textbook's `4^depth` bonus: `4^15 = 2³⁰` is the
/// largest power of four an `i32` holds (`4^16 = 2³²` overflows). Deeper
/// cutoffs get the same bonus as depth 15.
pub const TEXTBOOK_MAX_EXPONENT: u32 = 15;

/// Cap of a single bonus of the additive policies (`4^depth`, `depth²`):
/// `2³⁰`, which is `4^TEXTBOOK_MAX_EXPONENT`.
pub const ADDITIVE_BONUS_MAX: i32 = 1 << 30;

/// Bound of the additive policies: scores saturate in
/// `-ADDITIVE_LIMIT..=ADDITIVE_LIMIT` instead of overflowing.
pub const ADDITIVE_LIMIT: i32 = i32::MAX;

/// [`crate::History::decay`] divides every score by this (rounding toward
/// zero) between searches, so old knowledge fades but is not lost.
pub const DECAY_DIVISOR: i32 = 2;

/// How many scores a [`crate::MovePicker`] caches by default: moves beyond
/// this many in one stage are still yielded correctly, their scores are just
/// recomputed at each selection. 256 exceeds the largest legal move count of
/// chess (218).
pub const PICKER_CACHE: usize = 256;

/// How many quiet moves a [`crate::MovePicker`] selects one by one before it
/// sorts the rest of the quiet moves at once: selection wins when a cutoff
/// comes early (the usual case), a sort wins when many moves are searched.
pub const QUIET_SELECTIONS_BEFORE_SORT: usize = 3;
