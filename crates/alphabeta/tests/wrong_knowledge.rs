//! Knowledge declared wrongly fails loudly: a debug build of `AlphaBeta`
//! checks what a game declares in `Game::KNOWLEDGE` against its rules on a
//! sample of the positions it searches (`gametree_game::check::
//! sampled_knowledge`), and panics naming the item, instead of returning
//! wrong distances. The same games with honest declarations are solved.

use arrayvec::ArrayVec;
use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver, negamax_solve};
use gametree_game::check::{FailureKind, knowledge};
use gametree_game::{Game, Knowledge, Outcome, Player};

/// Take one or two stones; whoever takes the last stone wins; taking two
/// from a pile of five or more keeps the turn (the player moves again).
/// With `FORCING`, it declares forcing knowledge, and its `winning_move`
/// and `non_losing_moves` are right move by move, but forcing knowledge
/// promises alternating turns, which this game breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bonus<const FORCING: bool> {
    stones: u32,
    to_move: Player,
}

impl<const FORCING: bool> Bonus<FORCING> {
    fn new(stones: u32) -> Self {
        Bonus {
            stones,
            to_move: Player::First,
        }
    }
}

impl<const FORCING: bool> Game for Bonus<FORCING> {
    type Move = u32;
    type Undo = Player;
    type Moves = ArrayVec<u32, 2>;

    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        out.extend((1..=2).filter(|&t| t <= self.stones));
    }
    fn make(&mut self, m: u32) -> Player {
        let before = self.to_move;
        let again = m == 2 && self.stones >= 5;
        self.stones -= m;
        if !again {
            self.to_move = before.opponent();
        }
        before
    }
    fn unmake(&mut self, m: u32, before: Player) {
        self.stones += m;
        self.to_move = before;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }

    const KNOWLEDGE: Knowledge = if FORCING {
        Knowledge::NONE.forcing()
    } else {
        Knowledge::NONE
    };

    fn winning_move(&self) -> Option<u32> {
        // Taking the whole pile of one or two stones.
        (1..=2).contains(&self.stones).then_some(self.stones)
    }
    fn non_losing_moves(&self, out: &mut Self::Moves) {
        self.generate(out);
        out.retain(|&mut m| {
            let mut after = self.clone();
            after.make(m);
            after.outcome().is_some() || after.winning_move().is_none()
        });
    }
}

/// Take one or two stones; the last stone wins; alternating turns. It
/// promises `bound(stones)` plies at most to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nim {
    stones: u32,
    to_move: Player,
    short: bool,
}

impl Game for Nim {
    type Move = u32;
    type Undo = ();
    type Moves = ArrayVec<u32, 2>;

    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        out.extend((1..=2).filter(|&t| t <= self.stones));
    }
    fn make(&mut self, m: u32) {
        self.stones -= m;
        self.to_move = self.to_move.opponent();
    }
    fn unmake(&mut self, m: u32, (): ()) {
        self.stones += m;
        self.to_move = self.to_move.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 2 | (self.to_move.index() as u64) << 1 | u64::from(self.short)
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.length_bound();

    /// One ply per stone (taking ones only), or, when `short`, half that:
    /// right only when every move takes two.
    fn remaining_plies(&self) -> Option<u32> {
        Some(if self.short {
            self.stones.div_ceil(2)
        } else {
            self.stones
        })
    }
}

fn solver<G: Game>() -> AlphaBeta<G> {
    AlphaBeta::new(Config::default()).unwrap()
}

/// The exact score of `g` by a fresh searcher, solved without limits.
fn exact<G>(g: &mut G) -> Option<gametree_game::Score>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let none = Limits::none();
    solver::<G>()
        .solve(g, &mut Request::new(&none).find(Find::Score))
        .score
}

#[test]
fn the_oracle_names_the_broken_promise() {
    let f = knowledge(&Bonus::<true>::new(9)).unwrap_err();
    assert_eq!(f.kind(), FailureKind::ForcingMismatch);
    assert_eq!(f.kind().knowledge_item(), Some("forcing"));
    assert!(f.detail().contains("does not pass the turn"), "{f}");
    // A pile too small for the bonus keeps its promises.
    knowledge(&Bonus::<true>::new(4)).unwrap();
    knowledge(&Bonus::<false>::new(9)).unwrap();

    let short = Nim {
        stones: 9,
        to_move: Player::First,
        short: true,
    };
    let f = knowledge(&short).unwrap_err();
    assert_eq!(f.kind(), FailureKind::LengthBoundMismatch);
    assert!(f.detail().contains("within 5 plies"), "{f}");
    knowledge(&Nim {
        short: false,
        ..short
    })
    .unwrap();
}

#[test]
fn honest_declarations_are_solved() {
    for stones in 0..=20 {
        let mut g = Bonus::<false>::new(stones);
        let want = negamax_solve(&mut g.clone()).value;
        assert_eq!(exact(&mut g), Some(want), "{stones} stones");
        let mut nim = Nim {
            stones,
            to_move: Player::First,
            short: false,
        };
        let want = negamax_solve(&mut nim.clone()).value;
        assert_eq!(exact(&mut nim), Some(want), "{stones} stones");
    }
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "declares forcing, but the rules disagree: 2 does not pass the turn")]
fn forcing_knowledge_in_a_game_that_keeps_the_turn_panics() {
    let mut g = Bonus::<true>::new(9);
    exact(&mut g);
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "declares length bound, but the rules disagree")]
fn a_length_bound_too_short_panics() {
    let mut g = Nim {
        stones: 12,
        to_move: Player::First,
        short: true,
    };
    exact(&mut g);
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "Game::KNOWLEDGE of wrong_knowledge::Bonus<true> declares forcing")]
fn a_depth_limited_search_checks_too() {
    let mut g = Bonus::<true>::new(30);
    solver::<Bonus<true>>().search(&mut g, &mut Request::new(&Limits::depth(3)));
}
