//! Win bounds: the Erdős–Selfridge potential of a player's open lines.
//!
//! Call the player who wants a line the maker and the other the breaker.
//! A window of `k` squares without a breaker stone is open; with `c` maker
//! stones in it, it weighs `2^c` (that is `2^k` times `2^-u`, `u` its empty
//! squares). Let `Φ` be the open windows' total weight and `w(s)` the
//! weight of the open windows through an empty square `s`.
//!
//! With the breaker to move and `Φ < 2^k`, the breaker keeps `Φ < 2^k`
//! for ever by always taking a square of largest `w`: its move removes
//! `w(x)` from `Φ`, and the maker's reply `y` then adds at most
//! `w(y) <= w(x)` (each open window through `y` doubles, and the windows
//! through both squares are gone). A completed line would weigh `2^k` on
//! its own, so the maker never completes one (Erdős and Selfridge, "On a
//! combinatorial game", J. Combinatorial Theory A 14, 1973). With the maker
//! to move, its best move adds the largest `w(y)`, so `Φ + max w < 2^k`
//! proves the same. A player without any open window is the case `Φ = 0`.
//! In the m,n,k-game itself the breaker may also win first, which only
//! ends the game sooner: the bound is on the maker's result.

use gametree_game::Player;

use crate::board::{Bits, SQUARES, STRIDE};
use crate::position::{DIRECTIONS, Mnk};

/// Per square: the weight of the open windows through it, and whether it
/// completes one of them.
pub(crate) struct Through {
    pub(crate) weight: [u32; SQUARES],
    pub(crate) completions: Bits,
}

impl Through {
    pub(crate) fn new() -> Through {
        Through {
            weight: [0; SQUARES],
            completions: Bits::default(),
        }
    }
}

impl Mnk {
    /// The total weight `Φ` of `player`'s open windows (see the module
    /// documentation); with `through`, also adds each open window's weight
    /// to the entries of its squares and marks the empty square of each
    /// window one stone short of a line.
    pub(crate) fn open_weight(&self, player: Player, mut through: Option<&mut Through>) -> u64 {
        let maker = &self.stones[player.index()];
        let breaker = &self.stones[player.opponent().index()];
        let (m, n, k) = (i32::from(self.m), i32::from(self.n), i32::from(self.k));
        let mut phi = 0u64;
        for &(dc, dr) in &DIRECTIONS {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            let (end_c, end_r) = (dc * (k - 1), dr * (k - 1));
            for r0 in 0..n {
                for c0 in 0..m {
                    let (c1, r1) = (c0 + end_c, r0 + end_r);
                    if c1 < 0 || c1 >= m || r1 < 0 || r1 >= n {
                        continue;
                    }
                    let square = |j: i32| (r0 + dr * j) as usize * STRIDE + (c0 + dc * j) as usize;
                    let mut count = 0;
                    let mut open = true;
                    for j in 0..k {
                        let sq = square(j);
                        if breaker.get(sq) {
                            open = false;
                            break;
                        }
                        count += u32::from(maker.get(sq));
                    }
                    if !open {
                        continue;
                    }
                    let weight = 1u32 << count;
                    phi += u64::from(weight);
                    if let Some(t) = through.as_deref_mut() {
                        for j in 0..k {
                            t.weight[square(j)] += weight;
                        }
                        if count + 1 == k as u32 {
                            for j in 0..k {
                                if !maker.get(square(j)) {
                                    t.completions.set(square(j));
                                }
                            }
                        }
                    }
                }
            }
        }
        phi
    }

    /// Can `player` be kept from ever completing a line (see the module
    /// documentation)? `false` when the game is over.
    pub(crate) fn blocked_by_potential(&self, player: Player) -> bool {
        if self.won || self.empty.is_empty() {
            return false;
        }
        let limit = 1u64 << self.k;
        if self.side != player {
            return self.open_weight(player, None) < limit;
        }
        let mut through = Through::new();
        let phi = self.open_weight(player, Some(&mut through));
        // (Squares that hold stones are not empty and are skipped.)
        let best = self
            .empty
            .iter()
            .map(|sq| u64::from(through.weight[sq]))
            .max()
            .unwrap_or(0);
        phi + best < limit
    }
}

impl Mnk {
    /// The weight of `player`'s open windows through square `sq`: the
    /// amount its potential grows by if it plays there, and the amount the
    /// opponent's move there removes.
    pub(crate) fn square_weight(&self, player: Player, sq: usize) -> u32 {
        let maker = &self.stones[player.index()];
        let breaker = &self.stones[player.opponent().index()];
        let (m, n, k) = (i32::from(self.m), i32::from(self.n), i32::from(self.k));
        let (c, r) = ((sq % STRIDE) as i32, (sq / STRIDE) as i32);
        let mut total = 0;
        for &(dc, dr) in &DIRECTIONS {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            // Windows starting `back` squares behind `sq`.
            'window: for back in 0..k {
                let (c0, r0) = (c - dc * back, r - dr * back);
                let (c1, r1) = (c0 + dc * (k - 1), r0 + dr * (k - 1));
                let inside = |c: i32, r: i32| c >= 0 && c < m && r >= 0 && r < n;
                if !inside(c0, r0) || !inside(c1, r1) {
                    continue;
                }
                let mut count = 0;
                for j in 0..k {
                    let s = (r0 + dr * j) as usize * STRIDE + (c0 + dc * j) as usize;
                    if breaker.get(s) {
                        continue 'window;
                    }
                    count += u32::from(maker.get(s));
                }
                total += 1u32 << count;
            }
        }
        total
    }

    /// The quiet-move hint: the weight of both players' open windows
    /// through the square (what the move adds to the mover's potential
    /// plus what it takes from the opponent's), clamped to `2^14`.
    pub(crate) fn potential_hint(&self, sq: usize) -> i32 {
        let w = self.square_weight(self.side, sq) + self.square_weight(self.side.opponent(), sq);
        w.min(1 << 14) as i32
    }

    /// The quiet hints of several moves (0 for a tactical move, a win or a
    /// block, as [`Game::move_hint`](gametree_game::Game::move_hint) gives
    /// them), from one scan of the board per player.
    pub(crate) fn potential_hints(&self, moves: &[crate::Move], out: &mut [i32]) {
        let mut through = Through::new();
        self.open_weight(self.side, Some(&mut through));
        self.open_weight(self.side.opponent(), Some(&mut through));
        for (o, m) in out.iter_mut().zip(moves) {
            *o = if through.completions.get(m.sq()) {
                0
            } else {
                through.weight[m.sq()].min(1 << 14) as i32
            };
        }
    }
}
