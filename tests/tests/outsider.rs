//! Games written the way an outsider would write them, against the public
//! API only: `type Move = u32`, only the required `Game` methods (no
//! knowledge, no move numbering, no evaluation), and every solver of the
//! workspace must solve them. The second game lets a player move twice in a
//! row; its values come from a brute force written here, sharing nothing
//! with the searchers.

use arrayvec::ArrayVec;
use gametree_game::{
    Find, Game, IndexSpace, Limits, Outcome, Player, Predecessors, Request, Solver,
};
use gametree_pns_conspiracy::ProofConfig;

/// A pile of stones; take 1, 3 or 4; whoever takes the last stone wins.
/// Known: the side to move loses exactly when `stones % 7` is 0 or 2.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Subtract {
    stones: u32,
    to_move: Player,
}

impl Game for Subtract {
    type Move = u32;
    type Undo = ();
    type Moves = ArrayVec<u32, 3>;
    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        out.extend([1, 3, 4].into_iter().filter(|&t| t <= self.stones));
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
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }
}

/// The same pile, but taking 2 stones from a pile of 5 or more keeps the
/// turn (the player moves again); take 1 or 2; the last stone wins.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bonus {
    stones: u32,
    to_move: Player,
}

impl Game for Bonus {
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
        // The player who took the last stone is the one who just moved, who
        // never moves again after an emptying move (the bonus needs 5).
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }
}

/// The brute force for `Bonus`: does the side to move win from `stones`?
fn bonus_wins(stones: u32) -> bool {
    if stones == 0 {
        return false;
    }
    (1..=2u32).filter(|&t| t <= stones).any(|t| {
        let again = t == 2 && stones >= 5;
        let rest = stones - t;
        if again {
            rest > 0 && bonus_wins(rest) || rest == 0
        } else {
            rest == 0 || !bonus_wins(rest)
        }
    })
}

/// Every solver of the workspace, as `Solver`s.
fn solvers<G: Game + Send + 'static>() -> Vec<(&'static str, Box<dyn Solver<G>>)>
where
    G::Move: Send + Sync,
{
    use gametree_alphabeta::{AlphaBeta, Config};
    use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns};
    vec![
        (
            "alpha-beta",
            Box::new(AlphaBeta::<G>::new(Config::default()).unwrap()),
        ),
        (
            "alpha-beta plain",
            Box::new(AlphaBeta::<G>::new(Config::plain()).unwrap()),
        ),
        (
            "alpha-beta tiny table",
            Box::new(AlphaBeta::<G>::new(Config::default().memory(256)).unwrap()),
        ),
        ("pns", Box::new(Pns::default())),
        ("pn2", Box::new(Pns::pn2())),
        (
            "df-pn",
            Box::new(
                DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 12))).unwrap(),
            ),
        ),
        (
            "cns",
            Box::new(Conspiracy::new(ConspiracyConfig::new()).unwrap()),
        ),
    ]
}

#[test]
fn an_outsiders_u32_game_is_solved_by_every_solver() {
    let none = Limits::none();
    let mut all = solvers::<Subtract>();
    for stones in 0..40 {
        let mut g = Subtract {
            stones,
            to_move: Player::First,
        };
        let expected = if stones.is_multiple_of(7) || stones % 7 == 2 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        let negamax = gametree_alphabeta::negamax_solve(&mut g.clone())
            .value
            .outcome();
        assert_eq!(negamax, Some(expected), "negamax at {stones}");
        for (name, s) in &mut all {
            // The score from the solvers that find one (alpha-beta's exact
            // solve), the outcome from the others.
            let mut request = Request::new(&none).find(Find::Score);
            let got = s.solve(&mut g, &mut request);
            assert_eq!(got.outcome, Some(expected), "{name} at {stones}");
            if expected == Outcome::Win {
                let m = got.best.expect("a winning move");
                let mut after = g.clone();
                after.make(m);
                assert!(
                    after.stones.is_multiple_of(7) || after.stones % 7 == 2,
                    "{name} at {stones}: {m} does not win"
                );
            }
        }
        // Weak solving too.
        let mut ab =
            gametree_alphabeta::AlphaBeta::<Subtract>::new(gametree_alphabeta::Config::default())
                .unwrap();
        let mut weak = Request::new(&none).find(Find::Outcome);
        assert_eq!(ab.solve(&mut g, &mut weak).outcome, Some(expected));
    }
}

/// Piles of 0 to 60 stones, first player to move (the value does not depend
/// on who moves).
struct Piles;

impl IndexSpace for Piles {
    type Game = Subtract;
    fn size(&self) -> u64 {
        61
    }
    fn position(&self, i: u64) -> Option<Subtract> {
        (i < 61).then_some(Subtract {
            stones: i as u32,
            to_move: Player::First,
        })
    }
    fn index_of(&self, p: &Subtract) -> Option<u64> {
        (p.stones < 61).then_some(u64::from(p.stones))
    }
}

impl Predecessors for Piles {
    fn predecessors(&self, p: &Subtract, found: &mut dyn FnMut(u64)) {
        for t in [1, 3, 4] {
            if p.stones + t < 61 {
                found(u64::from(p.stones + t));
            }
        }
    }
}

#[test]
fn an_outsiders_game_with_an_index_is_solved_by_retrograde_analysis() {
    let none = Limits::none();
    let table = gametree_retrograde::Generator::new(&Piles)
        .backward()
        .unwrap();
    for stones in 0..61u64 {
        let value = table.get(stones).expect("valid index");
        let lost = stones.is_multiple_of(7) || stones % 7 == 2;
        assert_eq!(value.outcome() == Outcome::Loss, lost, "{stones}");
        // The distance agrees with alpha-beta's exact score.
        let mut g = Piles.position(stones).unwrap();
        let mut ab =
            gametree_alphabeta::AlphaBeta::<Subtract>::new(gametree_alphabeta::Config::default())
                .unwrap();
        let mut exact = Request::new(&none).find(Find::Score);
        assert_eq!(
            ab.solve(&mut g, &mut exact).score,
            Some(value.to_score()),
            "{stones}"
        );
    }
}

#[test]
fn a_game_where_a_player_moves_twice_is_solved_by_every_solver() {
    let none = Limits::none();
    let mut all = solvers::<Bonus>();
    let mut kept = 0;
    for stones in 0..40 {
        let mut g = Bonus {
            stones,
            to_move: Player::Second,
        };
        let expected = if bonus_wins(stones) {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let negamax = gametree_alphabeta::negamax_solve(&mut g.clone())
            .value
            .outcome();
        assert_eq!(negamax, Some(expected), "negamax at {stones}");
        for (name, s) in &mut all {
            // The score from the solvers that find one (alpha-beta's exact
            // solve), the outcome from the others.
            let mut request = Request::new(&none).find(Find::Score);
            let got = s.solve(&mut g, &mut request);
            assert_eq!(got.outcome, Some(expected), "{name} at {stones}");
        }
        kept += u32::from(stones >= 5);
    }
    assert!(kept > 0);
    // The plain alternating reading (negate at every ply) would be wrong
    // here: the rule changes the values.
    let alternating = |n: u32| !n.is_multiple_of(3);
    assert!((0..40).any(|n| bonus_wins(n) != alternating(n)));
}

/// Retrograde analysis refuses a game where a player moves twice, rather
/// than give it wrong values.
#[test]
fn retrograde_refuses_a_game_that_keeps_the_turn() {
    struct BonusPiles;
    impl IndexSpace for BonusPiles {
        type Game = Bonus;
        fn size(&self) -> u64 {
            20
        }
        fn position(&self, i: u64) -> Option<Bonus> {
            (i < 20).then_some(Bonus {
                stones: i as u32,
                to_move: Player::First,
            })
        }
        fn index_of(&self, p: &Bonus) -> Option<u64> {
            (p.stones < 20).then_some(u64::from(p.stones))
        }
    }
    let err = gametree_retrograde::Generator::new(&BonusPiles)
        .forward()
        .unwrap_err();
    assert!(
        matches!(err, gametree_retrograde::BuildError::TurnKept { .. }),
        "{err}"
    );
}
