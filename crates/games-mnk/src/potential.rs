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
use crate::position::threat_windows;
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

/// A window of `k` squares: its first square and its direction.
#[derive(Clone, Copy)]
struct Window {
    c0: i32,
    r0: i32,
    dc: i32,
    dr: i32,
}

impl Window {
    /// The window's `j`-th square.
    #[inline]
    fn square(self, j: i32) -> usize {
        (self.r0 + self.dr * j) as usize * STRIDE + (self.c0 + self.dc * j) as usize
    }
}

impl Mnk {
    /// Calls `f` once per window of `k` squares in a line (each direction),
    /// with a function from `0..k` to the window's squares.
    fn each_window(&self, mut f: impl FnMut(Window)) {
        let (m, n, k) = (i32::from(self.m), i32::from(self.n), i32::from(self.k));
        for &(dc, dr) in &DIRECTIONS {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            let (end_c, end_r) = (dc * (k - 1), dr * (k - 1));
            for r0 in 0..n {
                for c0 in 0..m {
                    let (c1, r1) = (c0 + end_c, r0 + end_r);
                    if c1 < 0 || c1 >= m || r1 < 0 || r1 >= n {
                        continue;
                    }
                    f(Window { c0, r0, dc, dr });
                }
            }
        }
    }

    /// The total weight `Φ` of `player`'s open windows (see the module
    /// documentation); with `through`, also adds each open window's weight
    /// to the entries of its squares and marks the empty square of each
    /// window one stone short of a line.
    pub(crate) fn open_weight(&self, player: Player, mut through: Option<&mut Through>) -> u64 {
        let maker = &self.stones[player.index()];
        let breaker = &self.stones[player.opponent().index()];
        let k = i32::from(self.k);
        let mut phi = 0u64;
        self.each_window(|w| {
            let square = |j: i32| w.square(j);
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
                return;
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
        });
        phi
    }

    /// The empty squares where a stone of `player` makes `k − 1` in a
    /// window that holds no stone of the opponent (a "four" of Go-Moku):
    /// the two empty squares of every such window one stone fuller.
    pub(crate) fn threat_squares(&self, player: Player) -> Bits {
        let k = usize::from(self.k);
        if k < 2 {
            return Bits::default();
        }
        // Such a window holds only the maker's stones and exactly two empty
        // squares, scanned for all windows at once (as the completions).
        let free = self.stones[player.index()].or(self.empty);
        let (low_free, low_empty) = (free.low128(), self.empty.low128());
        let squares = match (self.fits_128(), self.rows_may_wrap()) {
            (true, false) => {
                Bits::from_low128(threat_windows::<u128, false>(low_free, low_empty, k))
            }
            (true, true) => Bits::from_low128(threat_windows::<u128, true>(low_free, low_empty, k)),
            (false, false) => threat_windows::<Bits, false>(free, self.empty, k),
            (false, true) => threat_windows::<Bits, true>(free, self.empty, k),
        };
        squares.and(self.empty)
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
    /// The quiet-move hint: the weight of both players' open windows
    /// through square `sq` (what a stone there adds to the mover's
    /// potential plus what it takes from the opponent's), clamped to
    /// `2^14`. Per direction it reads the `2k - 1` squares of the line
    /// through `sq` once and slides a window of `k` over them.
    pub(crate) fn potential_hint(&self, sq: usize) -> i32 {
        let (m, n, k) = (i32::from(self.m), i32::from(self.n), i32::from(self.k));
        let (c, r) = ((sq % STRIDE) as i32, (sq / STRIDE) as i32);
        let mut total = 0u32;
        for &(dc, dr) in &DIRECTIONS {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            // Per square of the line from `sq - (k-1)` to `sq + (k-1)`:
            // x stone, o stone, off the board.
            let cell = |i: i32| -> (u32, u32, u32) {
                let (cc, rr) = (c + dc * i, r + dr * i);
                if cc < 0 || cc >= m || rr < 0 || rr >= n {
                    return (0, 0, 1);
                }
                let s = rr as usize * STRIDE + cc as usize;
                (
                    u32::from(self.stones[0].get(s)),
                    u32::from(self.stones[1].get(s)),
                    0,
                )
            };
            let (mut x, mut o, mut off) = (0, 0, 0);
            for i in -(k - 1)..k {
                let (a, b, f) = cell(i);
                (x, o, off) = (x + a, o + b, off + f);
                if i >= 0 {
                    // The window `i - (k-1) ..= i`, which holds `sq`.
                    if off == 0 {
                        if o == 0 {
                            total += 1 << x;
                        }
                        if x == 0 {
                            total += 1 << o;
                        }
                    }
                    let (a, b, f) = cell(i - (k - 1));
                    (x, o, off) = (x - a, o - b, off - f);
                }
            }
        }
        total.min(1 << 14) as i32
    }

    /// The quiet hints of several moves (0 for a tactical move, a win or a
    /// block, as [`Game::move_hint`](gametree_game::Game::move_hint) gives
    /// them), from one scan of the board per player.
    pub(crate) fn potential_hints(&self, moves: &[crate::Move], out: &mut [i32]) {
        let mut through = Through::new();
        self.open_weights_of_both(&mut through);
        for (o, m) in out.iter_mut().zip(moves) {
            *o = if through.completions.get(m.sq()) {
                0
            } else {
                through.weight[m.sq()].min(1 << 14) as i32
            };
        }
    }
}

impl Mnk {
    /// [`open_weight`](Self::open_weight) of both players into one
    /// [`Through`] (weights summed, completion squares of either), in one
    /// pass over the windows.
    pub(crate) fn open_weights_of_both(&self, through: &mut Through) {
        let k = i32::from(self.k);
        self.each_window(|w| {
            let square = |j: i32| w.square(j);
            let mut count = [0u32; 2];
            for j in 0..k {
                let sq = square(j);
                count[0] += u32::from(self.stones[0].get(sq));
                count[1] += u32::from(self.stones[1].get(sq));
                if count[0] > 0 && count[1] > 0 {
                    break;
                }
            }
            // Open for at most one player (both, when empty).
            for p in 0..2 {
                if count[1 - p] > 0 {
                    continue;
                }
                let weight = 1u32 << count[p];
                for j in 0..k {
                    through.weight[square(j)] += weight;
                }
                if count[p] + 1 == k as u32 {
                    for j in 0..k {
                        if !self.stones[p].get(square(j)) {
                            through.completions.set(square(j));
                        }
                    }
                }
            }
        });
    }
}
