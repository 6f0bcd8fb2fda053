//! [`Reachable`]: an index space built by enumerating every position
//! reachable from a root, for games with a small state space (Connect Four
//! on small boards, tic-tac-toe, small m,n,k-games) that have no closed-form
//! index of their own.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use arrayvec::ArrayVec;
use gametree_game::{Game, IndexSpace, MoveBuffer, Predecessors};

/// The longest path from the root a [`Reachable`] space accepts, in plies.
pub const MAX_DEPTH: usize = 256;

/// Every position reachable from a root, numbered in breadth-first order,
/// with the reversed move graph kept as predecessor lists.
///
/// Positions are identified by a caller-supplied key, which must be unique
/// per position (for example Connect Four's `Board::key`) or per symmetry
/// class (`Board::symmetric_key`): two positions with the same key are
/// treated as one. [`position`](IndexSpace::position) replays the moves of
/// the first path that reached the index from the root, so the space stores
/// only a key table, a parent link and the predecessor lists.
///
/// Memory: about 40 bytes per position plus 4 bytes per distinct move
/// between classes; enumeration keeps the positions of one breadth-first
/// layer at a time.
pub struct Reachable<G, K> {
    root: G,
    key: K,
    index: HashMap<u64, u32>,
    /// The discovering parent and the number of the move (in generation
    /// order) that led here; the root's parent is `u32::MAX`.
    parent: Vec<(u32, u8)>,
    pred_start: Vec<u32>,
    preds: Vec<u32>,
}

impl<G, K> core::fmt::Debug for Reachable<G, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Reachable")
            .field("positions", &self.parent.len())
            .field("edges", &self.preds.len())
            .finish_non_exhaustive()
    }
}

/// The reachable space has more than `u32::MAX - 1` positions or edges, a
/// position with more than 256 moves, or a position first reached deeper
/// than [`MAX_DEPTH`] plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyPositions;

impl core::fmt::Display for TooManyPositions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("too many reachable positions (or moves) for a Reachable space")
    }
}

impl std::error::Error for TooManyPositions {}

impl<G: Game, K: Fn(&G) -> u64> Reachable<G, K> {
    /// Enumerates every position reachable from `root` (terminal positions
    /// included, not expanded).
    ///
    /// # Errors
    ///
    /// [`TooManyPositions`] when the space does not fit the 32-bit numbering.
    pub fn new(root: G, key: K) -> Result<Self, TooManyPositions> {
        let mut index = HashMap::new();
        let mut parent = vec![(u32::MAX, 0u8)];
        let mut edges: Vec<(u32, u32)> = Vec::new();
        index.insert(key(&root), 0u32);
        let mut layer = vec![(0u32, root.clone())];
        let mut moves = G::Moves::default();
        let mut depth = 0;
        while !layer.is_empty() {
            if depth > MAX_DEPTH {
                return Err(TooManyPositions);
            }
            depth += 1;
            let mut next = Vec::new();
            for (i, mut p) in layer {
                if p.outcome().is_some() {
                    continue;
                }
                p.generate(&mut moves);
                for (k, &m) in moves.as_slice().iter().enumerate() {
                    let k = u8::try_from(k).map_err(|_| TooManyPositions)?;
                    let undo = p.make(m);
                    let j = match index.entry(key(&p)) {
                        Entry::Occupied(e) => *e.get(),
                        Entry::Vacant(e) => {
                            let j = u32::try_from(parent.len())
                                .ok()
                                .filter(|&j| j < u32::MAX)
                                .ok_or(TooManyPositions)?;
                            e.insert(j);
                            parent.push((i, k));
                            next.push((j, p.clone()));
                            j
                        }
                    };
                    p.unmake(m, undo);
                    edges.push((j, i));
                }
            }
            layer = next;
        }
        edges.sort_unstable();
        edges.dedup();
        u32::try_from(edges.len()).map_err(|_| TooManyPositions)?;
        let mut pred_start = vec![0u32; parent.len() + 1];
        for &(child, _) in &edges {
            pred_start[child as usize + 1] += 1;
        }
        for i in 1..pred_start.len() {
            pred_start[i] += pred_start[i - 1];
        }
        let preds = edges.into_iter().map(|(_, p)| p).collect();
        Ok(Reachable {
            root,
            key,
            index,
            parent,
            pred_start,
            preds,
        })
    }

    /// The number of positions (every index below it is valid).
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.parent.len() as u64
    }

    /// The number of distinct moves between positions (predecessor links).
    #[must_use]
    pub fn edges(&self) -> u64 {
        self.preds.len() as u64
    }
}

impl<G: Game, K: Fn(&G) -> u64> IndexSpace for Reachable<G, K> {
    type Game = G;

    fn size(&self) -> u64 {
        self.positions()
    }

    fn position(&self, index: u64) -> Option<G> {
        let mut at = u32::try_from(index).ok()?;
        self.parent.get(at as usize)?;
        let mut path: ArrayVec<u8, MAX_DEPTH> = ArrayVec::new();
        while let Some(&(p, k)) = self.parent.get(at as usize).filter(|e| e.0 != u32::MAX) {
            path.try_push(k).ok()?;
            at = p;
        }
        let mut g = self.root.clone();
        let mut moves = G::Moves::default();
        for &k in path.iter().rev() {
            g.generate(&mut moves);
            let m = *moves.as_slice().get(usize::from(k))?;
            g.make(m);
        }
        Some(g)
    }

    fn index_of(&self, position: &G) -> Option<u64> {
        self.index.get(&(self.key)(position)).map(|&i| u64::from(i))
    }
}

impl<G: Game, K: Fn(&G) -> u64> Predecessors for Reachable<G, K> {
    fn predecessors(&self, position: &G, found: &mut dyn FnMut(u64)) {
        let Some(i) = self.index_of(position) else {
            return;
        };
        let i = i as usize;
        let (a, b) = (self.pred_start[i] as usize, self.pred_start[i + 1] as usize);
        for &p in &self.preds[a..b] {
            found(u64::from(p));
        }
    }
}
