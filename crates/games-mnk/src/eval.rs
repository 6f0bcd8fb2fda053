//! Pattern/threat evaluation, tactical moves and proof-number hints.

use gametree_game::{Game, Player, Score};

use crate::board::{Bits, STRIDE};
use crate::position::{DIRECTIONS, Mnk, Move, Moves};

/// The value of a window of `k` squares holding `c` stones of one player
/// and none of the other: 4 to the power of the threat level, where a
/// window one stone short of a line is level 4 whatever `k` is.
fn window_weight(c: u32, k: u32) -> i32 {
    let level = (c + 4).saturating_sub(k - 1).min(5);
    if c == 0 { 0 } else { 1 << (2 * level.max(1)) }
}

/// A decisive-looking but heuristic bonus: the side to move can complete a
/// line now, or the opponent has two completion squares that cannot both
/// be blocked.
const THREAT_BONUS: i32 = 20_000;

/// Per player: the sum of window weights, and the set of squares that
/// complete one of its windows.
#[derive(Debug, Default)]
pub(crate) struct Patterns {
    pub(crate) weight: [i32; 2],
    pub(crate) completions: [Bits; 2],
}

impl Mnk {
    /// Scans every window of `k` consecutive squares in the four directions
    /// (a sliding count along each line, so the cost is about 4 × m × n).
    pub(crate) fn patterns(&self) -> Patterns {
        let (m, n, k) = (i32::from(self.m), i32::from(self.n), u32::from(self.k));
        let mut pat = Patterns::default();
        let at = |c: i32, r: i32| r as usize * STRIDE + c as usize;
        let inside = |c: i32, r: i32| c >= 0 && c < m && r >= 0 && r < n;
        for &(dc, dr) in &DIRECTIONS {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            for r0 in 0..n {
                for c0 in 0..m {
                    if inside(c0 - dc, r0 - dr) {
                        continue; // not the start of a line
                    }
                    let mut count = [0u32; 2];
                    let (mut c, mut r, mut i) = (c0, r0, 0i32);
                    while inside(c, r) {
                        let sq = at(c, r);
                        for (p, cnt) in count.iter_mut().enumerate() {
                            *cnt += u32::from(self.stones[p].get(sq));
                        }
                        if i >= k as i32 {
                            let old = at(c - dc * k as i32, r - dr * k as i32);
                            for (p, cnt) in count.iter_mut().enumerate() {
                                *cnt -= u32::from(self.stones[p].get(old));
                            }
                        }
                        if i + 1 >= k as i32 {
                            for p in 0..2 {
                                if count[p] > 0 && count[1 - p] == 0 {
                                    pat.weight[p] += window_weight(count[p], k);
                                    if count[p] + 1 == k {
                                        for j in 0..k as i32 {
                                            let s = at(c - dc * j, r - dr * j);
                                            if self.empty.get(s) {
                                                pat.completions[p].set(s);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        c += dc;
                        r += dr;
                        i += 1;
                    }
                }
            }
        }
        pat
    }
}

/// Patterns and threats: every window of `k` squares that only one player
/// occupies is worth `4^level` to that player (level 4 for a window one
/// stone short of a line, one less per missing stone); plus a large bonus
/// when the side to move can complete a line, or a large malus when it
/// cannot and the opponent has two or more completion squares. Relative to
/// the side to move, clamped to a heuristic score.
impl Mnk {
    pub(crate) fn pattern_evaluation(&self) -> Score {
        let pat = self.patterns();
        let us = self.side.index();
        let them = 1 - us;
        let mut v = pat.weight[us] - pat.weight[them];
        if !pat.completions[us].is_empty() {
            v += THREAT_BONUS;
        } else if pat.completions[them].count() >= 2 {
            v -= THREAT_BONUS;
        }
        Score::heuristic(v)
    }
}

/// Immediate wins (priority 2) come first, then forced blocks: the squares
/// where the opponent would complete a line (priority 1).
impl Mnk {
    pub(crate) fn tactical_priority(&self, m: Move) -> Option<i32> {
        if !self.is_legal(m) {
            None
        } else if self.makes_line(m, self.side) {
            Some(2)
        } else if self.makes_line(m, self.side.opponent()) {
            Some(1)
        } else {
            None
        }
    }

    /// Wins first, then blocks, each in square order.
    pub(crate) fn tactical_moves(&self, out: &mut Moves) {
        out.clear();
        if self.won {
            return;
        }
        for mv in self.winning_moves(self.side) {
            out.push(mv);
        }
        let wins = out.len();
        for mv in self.winning_moves(self.side.opponent()) {
            if !out.as_slice()[..wins].contains(&mv) {
                out.push(mv);
            }
        }
    }
}

/// The proof and disproof numbers given to a position whose result the
/// threats already decide.
const SURE: u32 = 64;

/// Cheap threat-based hints: a side to move that can complete a line is
/// proved in one move `(1, SURE)`; one that cannot, facing two or more
/// completion squares of the opponent, is almost surely lost `(SURE, 1)`;
/// otherwise `(1, 1)`.
impl Mnk {
    pub(crate) fn threat_proof_hints(&self) -> (u32, u32) {
        let side: Player = self.side;
        if self.winning_moves(side).next().is_some() {
            (1, SURE)
        } else if self.winning_moves(side.opponent()).nth(1).is_some() {
            (SURE, 1)
        } else {
            (1, 1)
        }
    }
}

impl Mnk {
    pub(crate) fn first_winning_move(&self) -> Option<Move> {
        if self.outcome().is_some() {
            return None;
        }
        self.winning_moves(self.side_to_move()).next()
    }

    /// A stone never helps the opponent, so: every move when the opponent
    /// has no winning square, the block when it has one, nothing when it
    /// has two or more.
    pub(crate) fn non_losing_into(&self, out: &mut Moves) {
        self.generate(out);
        let mut threats = self.winning_moves(self.side_to_move().opponent());
        match (threats.next(), threats.next()) {
            (None, _) => {}
            (Some(t), None) => out.retain(|m| *m == t),
            (Some(_), Some(_)) => out.clear(),
        }
    }
}
