//! A toy game whose move list, tactical scores and side to move are chosen
//! by the test: the picker only looks at the list, so this exercises every
//! case a real game can produce (and more).
#![allow(dead_code, unreachable_pub)]

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player};
use std::fmt;

/// Moves are numbers below [`Mv::COUNT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mv(pub u16);

impl fmt::Display for Mv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

impl Mv {
    /// The number of moves (and of move numbers).
    pub const COUNT: usize = 512;
    /// The move's number.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Room for every move of the index space.
pub type Moves = ArrayVec<Mv, 512>;

/// The position: its legal moves, in generation order, and a tactical
/// score per move index.
#[derive(Clone, Debug)]
pub struct Toy {
    pub legal: Vec<Mv>,
    pub tactical: Vec<Option<i32>>,
    pub side: Player,
}

impl Toy {
    pub fn new(legal: Vec<Mv>, tactical: Vec<Option<i32>>, side: Player) -> Toy {
        assert_eq!(tactical.len(), Mv::COUNT);
        Toy {
            legal,
            tactical,
            side,
        }
    }
}

impl Game for Toy {
    type Move = Mv;
    type Undo = ();
    type Moves = Moves;

    fn side_to_move(&self) -> Player {
        self.side
    }
    fn generate(&self, out: &mut Moves) {
        out.clear();
        for &m in &self.legal {
            out.push(m);
        }
    }
    fn make(&mut self, _: Mv) {
        self.side = self.side.opponent();
    }
    fn unmake(&mut self, _: Mv, _: ()) {
        self.side = self.side.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        self.side.index() as u64
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.tactics().move_numbers();

    fn move_hint(&self, m: Mv) -> MoveHint {
        match self.tactical[m.index()] {
            Some(s) => MoveHint::Tactical(s),
            None => MoveHint::Quiet(0),
        }
    }

    const MOVE_NUMBERS: usize = Mv::COUNT;

    fn move_number(m: Mv) -> usize {
        m.index()
    }
}
