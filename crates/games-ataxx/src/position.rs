//! The position, its rules and the [`Game`] implementation.

use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::ZobristTable;

use crate::bitboard::{ALL, JUMPS, SINGLES, dilate};
use crate::square::{Move, Square};

/// The most legal moves a position can have: 49 single moves plus one jump
/// per unordered pair of squares at distance 2 (240 pairs; a pair gives at
/// most one jump, from the stone to the empty square).
pub const MAX_MOVES: usize = 49 + 240;

/// The move list: no heap allocation.
pub type Moves = ArrayVec<Move, MAX_MOVES>;

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing: a stone may move here.
    Empty,
    /// A stone of the first player (`x`, "black").
    X,
    /// A stone of the second player (`o`, "white").
    O,
    /// A blocked square (`-` in FEN): never holds a stone.
    Blocked,
}

/// The Zobrist keys: 49 squares × (x, o, blocked) + the side to move.
pub(crate) struct Keys {
    pub(crate) stone: [[u64; 2]; 49],
    pub(crate) flip: [u64; 49],
    pub(crate) blocked: [u64; 49],
    pub(crate) side: u64,
}

/// The keys come from `gametree_zobrist::ZobristTable::new(49, 3)`: piece 0 is an
/// `x` stone, 1 an `o` stone, 2 a blocked square.
pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let t: ZobristTable = ZobristTable::new(49, 3);
    let mut k = Keys {
        stone: [[0; 2]; 49],
        flip: [0; 49],
        blocked: [0; 49],
        side: t.side(),
    };
    for s in 0..49 {
        k.stone[s] = [t.piece(s, 0), t.piece(s, 1)];
        k.flip[s] = t.piece(s, 0) ^ t.piece(s, 1);
        k.blocked[s] = t.piece(s, 2);
    }
    k
});

/// An Ataxx position: stones, blocked squares, side to move, half-move
/// clock and full-move number, with its incrementally maintained hash.
///
/// Equality compares every field (the hash follows from the others).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones by player index (0 = x, 1 = o).
    pub(crate) stones: [u64; 2],
    pub(crate) blocked: u64,
    pub(crate) side: Player,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

/// What [`Game::unmake`] needs: the flipped stones and the old clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    flipped: u64,
    halfmoves: u32,
}

/// The game-over test shared by [`Position`] and the fast perft: a side has
/// no stones, the clock reached 100, or no empty square is within distance 2
/// of any stone.
#[inline]
pub(crate) fn is_over(x: u64, o: u64, empty: u64, halfmoves: u32) -> bool {
    x == 0 || o == 0 || halfmoves >= 100 || dilate(dilate(x | o)) & empty == 0
}

impl Default for Position {
    /// The standard start position, `x5o/7/7/7/7/7/o5x x 0 1`.
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard start position, `x5o/7/7/7/7/7/o5x x 0 1`.
    #[must_use]
    pub fn startpos() -> Position {
        let a1 = 1u64;
        let g1 = 1 << 6;
        let a7 = 1 << 42;
        let g7 = 1 << 48;
        Position::from_parts([a7 | g1, a1 | g7], 0, Player::First, 0, 1)
    }

    /// Builds a position from bitboards (bit `rank * 7 + file`), checking
    /// nothing but masking to the board; the hash is computed. Used by the
    /// FEN parser after validation.
    pub(crate) fn from_parts(
        stones: [u64; 2],
        blocked: u64,
        side: Player,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Position {
        let mut p = Position {
            stones: [stones[0] & ALL, stones[1] & ALL],
            blocked: blocked & ALL,
            side,
            halfmoves,
            fullmoves,
            hash: 0,
        };
        p.hash = p.recompute_hash();
        p
    }

    /// What `square` holds.
    #[must_use]
    pub fn cell(&self, square: Square) -> Cell {
        let b = square.bit();
        if self.stones[0] & b != 0 {
            Cell::X
        } else if self.stones[1] & b != 0 {
            Cell::O
        } else if self.blocked & b != 0 {
            Cell::Blocked
        } else {
            Cell::Empty
        }
    }

    /// The stones of `player` as a bitboard (bit `rank * 7 + file`).
    #[must_use]
    pub fn stones(&self, player: Player) -> u64 {
        self.stones[player.index()]
    }

    /// The blocked squares as a bitboard.
    #[must_use]
    pub fn blocked(&self) -> u64 {
        self.blocked
    }

    /// The empty squares as a bitboard.
    #[inline]
    #[must_use]
    pub fn empty(&self) -> u64 {
        ALL & !(self.stones[0] | self.stones[1] | self.blocked)
    }

    /// The number of stones `player` has.
    #[must_use]
    pub fn count(&self, player: Player) -> u32 {
        self.stones[player.index()].count_ones()
    }

    /// The half-move clock: plies since the last single move.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number, incremented after each move of `o`.
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Is the game over (a side has no stones, the clock reached 100, or no
    /// empty square is within distance 2 of any stone)?
    #[inline]
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        is_over(self.stones[0], self.stones[1], self.empty(), self.halfmoves)
    }

    /// The number of opponent stones that `m` would flip (0 for the pass).
    #[inline]
    #[must_use]
    pub fn flips(&self, m: Move) -> u32 {
        match m.to() {
            Some(to) => {
                (SINGLES[to.index()] & self.stones[self.side.opponent().index()]).count_ones()
            }
            None => 0,
        }
    }

    /// The number of legal moves (a pass counts as one), without listing
    /// them: the bulk count of the last ply of [`perft`](crate::perft).
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        crate::perft::count_moves(
            self.stones[self.side.index()],
            self.stones[self.side.opponent().index()],
            self.empty(),
            self.halfmoves,
        )
    }

    /// The board as seven lines of text, rank 7 first (`x`, `o`, `-`
    /// blocked, `.` empty), for debugging.
    #[must_use]
    pub fn board_string(&self) -> String {
        let mut s = String::with_capacity(56);
        for rank in (0..7).rev() {
            for file in 0..7 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                s.push(match self.cell(sq) {
                    Cell::Empty => '.',
                    Cell::X => 'x',
                    Cell::O => 'o',
                    Cell::Blocked => '-',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
    type Moves = Moves;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate(&self, out: &mut Moves) {
        out.clear();
        let us = self.stones[self.side.index()];
        let them = self.stones[self.side.opponent().index()];
        let empty = self.empty();
        if is_over(us, them, empty, self.halfmoves) {
            return;
        }
        let mut singles = dilate(us) & empty;
        while singles != 0 {
            let to = singles.trailing_zeros() as u8;
            singles &= singles - 1;
            out.push(Move::jump_unchecked(to, to));
        }
        let mut from_set = us;
        while from_set != 0 {
            let from = from_set.trailing_zeros() as u8;
            from_set &= from_set - 1;
            let mut targets = JUMPS[from as usize] & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(Move::jump_unchecked(from, to));
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    fn make(&mut self, m: Move) -> Undo {
        let keys = &*KEYS;
        let undo = Undo {
            flipped: 0,
            halfmoves: self.halfmoves,
        };
        let us = self.side.index();
        let them = 1 - us;
        let mut hash = self.hash ^ keys.side;
        let (from, to) = m.raw();
        let undo = if m.is_pass() {
            self.halfmoves += 1;
            undo
        } else {
            let to_bit = 1u64 << to;
            let flipped = SINGLES[to as usize] & self.stones[them];
            self.stones[us] |= to_bit;
            hash ^= keys.stone[to as usize][us];
            if from == to {
                self.halfmoves = 0;
            } else {
                self.stones[us] ^= 1 << from;
                hash ^= keys.stone[from as usize][us];
                self.halfmoves += 1;
            }
            self.stones[us] |= flipped;
            self.stones[them] ^= flipped;
            let mut f = flipped;
            while f != 0 {
                hash ^= keys.flip[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            Undo { flipped, ..undo }
        };
        if self.side == Player::Second {
            self.fullmoves += 1;
        }
        self.side = self.side.opponent();
        self.hash = hash;
        undo
    }

    fn unmake(&mut self, m: Move, undo: Undo) {
        let keys = &*KEYS;
        self.side = self.side.opponent();
        if self.side == Player::Second {
            self.fullmoves -= 1;
        }
        self.halfmoves = undo.halfmoves;
        let us = self.side.index();
        let them = 1 - us;
        let mut hash = self.hash ^ keys.side;
        if !m.is_pass() {
            let (from, to) = m.raw();
            let flipped = undo.flipped;
            self.stones[us] ^= flipped;
            self.stones[them] |= flipped;
            let mut f = flipped;
            while f != 0 {
                hash ^= keys.flip[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            self.stones[us] ^= 1 << to;
            hash ^= keys.stone[to as usize][us];
            if from != to {
                self.stones[us] |= 1 << from;
                hash ^= keys.stone[from as usize][us];
            }
        }
        self.hash = hash;
    }

    /// Jumps can bring a position back.
    const CAN_REPEAT: bool = true;

    /// `true` once the half-move clock (not hashed) has reached 100.
    fn outcome_depends_on_history(&self) -> bool {
        self.halfmoves >= 100
    }

    fn outcome(&self) -> Option<Outcome> {
        let [x, o] = self.stones;
        let empty = self.empty();
        if x == 0 || o == 0 || dilate(dilate(x | o)) & empty == 0 {
            let us = self.count(self.side);
            let them = self.count(self.side.opponent());
            Some(match us.cmp(&them) {
                core::cmp::Ordering::Greater => Outcome::Win,
                core::cmp::Ordering::Equal => Outcome::Draw,
                core::cmp::Ordering::Less => Outcome::Loss,
            })
        } else if self.halfmoves >= 100 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let keys = &*KEYS;
        let mut h = if self.side == Player::Second {
            keys.side
        } else {
            0
        };
        for s in 0..49 {
            let b = 1u64 << s;
            if self.stones[0] & b != 0 {
                h ^= keys.stone[s][0];
            }
            if self.stones[1] & b != 0 {
                h ^= keys.stone[s][1];
            }
            if self.blocked & b != 0 {
                h ^= keys.blocked[s];
            }
        }
        h
    }

    fn is_legal(&self, m: Move) -> bool {
        let us = self.stones[self.side.index()];
        let them = self.stones[self.side.opponent().index()];
        let empty = self.empty();
        if is_over(us, them, empty, self.halfmoves) {
            return false;
        }
        let (from, to) = m.raw();
        if m.is_pass() {
            return crate::perft::count_unchecked(us, empty) == 0;
        }
        if empty >> to & 1 == 0 {
            return false;
        }
        if from == to {
            SINGLES[to as usize] & us != 0
        } else {
            us >> from & 1 == 1 && JUMPS[from as usize] >> to & 1 == 1
        }
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.evaluation().tactics().move_numbers();

    /// Material: 100 per stone more than the opponent.
    fn evaluate(&self) -> Score {
        let us = self.count(self.side) as i32;
        let them = self.count(self.side.opponent()) as i32;
        Score::heuristic(100 * (us - them))
    }

    /// Captures are tactical: a move that flips stones, scored by the
    /// material it gains (flips, plus one for the new stone of a single
    /// move).
    #[inline]
    fn move_hint(&self, m: Move) -> MoveHint {
        let flips = self.flips(m) as i32;
        if flips > 0 {
            MoveHint::Tactical(flips + i32::from(m.is_single()))
        } else {
            MoveHint::Quiet(0)
        }
    }

    /// Only moves to empty squares next to an opponent stone, in the order
    /// of [`Game::generate`] (singles, then jumps).
    fn generate_tactical(&self, out: &mut Moves) {
        out.clear();
        let us = self.stones[self.side.index()];
        let them = self.stones[self.side.opponent().index()];
        let empty = self.empty();
        if is_over(us, them, empty, self.halfmoves) {
            return;
        }
        let targets = empty & dilate(them);
        let mut singles = dilate(us) & targets;
        while singles != 0 {
            let to = singles.trailing_zeros() as u8;
            singles &= singles - 1;
            out.push(Move::jump_unchecked(to, to));
        }
        let mut from_set = us;
        while from_set != 0 {
            let from = from_set.trailing_zeros() as u8;
            from_set &= from_set - 1;
            let mut jumps = JUMPS[from as usize] & targets;
            while jumps != 0 {
                let to = jumps.trailing_zeros() as u8;
                jumps &= jumps - 1;
                out.push(Move::jump_unchecked(from, to));
            }
        }
    }

    /// [`Move::number`].
    const MOVE_NUMBERS: usize = Move::NUMBERS;

    #[inline]
    fn move_number(m: Move) -> usize {
        m.number()
    }
}
