//! [`Limits`]: what stops a search.

use crate::Stop;
use alloc::sync::Arc;
use core::sync::atomic::{AtomicBool, Ordering};
use core::time::Duration;

/// What stops a search: a depth, a node budget, a time budget and a cancel
/// flag another thread may raise. Every searcher in gametree takes one;
/// the default is "no limit".
///
/// ```
/// use gametree_game::Limits;
/// use std::time::Duration;
///
/// let mut limits = Limits::depth(6).with_nodes(1_000_000).with_time(Duration::from_millis(50));
/// assert_eq!(limits.depth, Some(6));
/// let flag = limits.cancel_flag();
/// assert!(!limits.is_cancelled());
/// flag.store(true, std::sync::atomic::Ordering::Relaxed);
/// assert!(limits.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies (iterative deepening stops there).
    pub depth: Option<u32>,
    /// Maximum number of nodes visited.
    pub nodes: Option<u64>,
    /// Maximum wall-clock time.
    pub time: Option<Duration>,
    /// Raised by anyone to stop the search as soon as possible.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all (searches to the end of the game).
    #[must_use]
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Only a depth limit.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Adds a depth limit.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// Adds a node limit.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Adds a time limit.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// The cancel flag, created on first use; store `true` to stop the search.
    pub fn cancel_flag(&mut self) -> Arc<AtomicBool> {
        self.cancel
            .get_or_insert_with(|| Arc::new(AtomicBool::new(false)))
            .clone()
    }

    /// The limit that stops work that has run for `elapsed` and counted
    /// `nodes`, if one does: the cancel flag first, then the time, then
    /// the nodes (the depth limit is the searcher's own).
    ///
    /// ```
    /// use core::time::Duration;
    /// use gametree_game::{Limits, Stop};
    ///
    /// let limits = Limits::none().with_nodes(100);
    /// assert_eq!(limits.reached(Duration::ZERO, 99), None);
    /// assert_eq!(limits.reached(Duration::ZERO, 100), Some(Stop::Nodes));
    /// ```
    #[must_use]
    pub fn reached(&self, elapsed: Duration, nodes: u64) -> Option<Stop> {
        if self.is_cancelled() {
            Some(Stop::Cancelled)
        } else if self.time.is_some_and(|t| elapsed >= t) {
            Some(Stop::Time)
        } else if self.nodes.is_some_and(|n| nodes >= n) {
            Some(Stop::Nodes)
        } else {
            None
        }
    }

    /// Has the cancel flag been raised?
    #[inline]
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}
