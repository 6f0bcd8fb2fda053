//! Knowledge declared wrongly fails loudly: debug builds of the
//! proof-number and conspiracy-number solvers check what a game declares
//! in `Game::KNOWLEDGE` against its rules on a sample of the positions they
//! visit (`gametree_game::check::sampled_knowledge`), and panic naming the
//! item instead of answering wrongly. The same game declaring nothing
//! false is solved.

use arrayvec::ArrayVec;
use gametree_game::check::{FailureKind, knowledge};
use gametree_game::{Game, Knowledge, Limits, Outcome, Player, Request, Score, Solver};
use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, PnsConfig};

/// Which promise a [`Pile`] breaks.
const HONEST: u8 = 0;
/// `cannot_win` says a side to move facing four stones cannot win (it
/// wins: take one).
const WIN_BOUND: u8 = 1;
/// `proof_hints` gives a proof number of 0.
const PROOF_HINT: u8 = 2;
/// `evaluate` gives a decisive score.
const EVALUATION: u8 = 3;

/// Take one or two stones; whoever takes the last stone wins (a multiple
/// of three is lost for the side to move). It declares win bounds, proof
/// hints and an evaluation, and breaks the promise `LIE` names.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pile<const LIE: u8> {
    stones: u32,
    to_move: Player,
}

impl<const LIE: u8> Pile<LIE> {
    fn new(stones: u32) -> Self {
        Pile {
            stones,
            to_move: Player::First,
        }
    }
}

impl<const LIE: u8> Game for Pile<LIE> {
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
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.win_bounds().proof_hints().evaluation();

    fn cannot_win(&self, player: Player) -> bool {
        // True of the side to move on a multiple of three.
        player == self.to_move
            && (self.stones.is_multiple_of(3) || LIE == WIN_BOUND && self.stones == 4)
    }
    fn proof_hints(&self) -> (u32, u32) {
        if LIE == PROOF_HINT && self.stones == 5 {
            (0, 1)
        } else {
            (1, 1)
        }
    }
    fn evaluate(&self) -> Score {
        if LIE == EVALUATION && self.stones == 5 {
            Score::win_in(3)
        } else {
            Score::heuristic(0)
        }
    }
}

fn expected(stones: u32) -> Outcome {
    if stones.is_multiple_of(3) {
        Outcome::Loss
    } else {
        Outcome::Win
    }
}

#[test]
fn the_oracle_names_each_broken_promise() {
    for stones in 0..=12 {
        knowledge(&Pile::<HONEST>::new(stones)).unwrap();
    }
    let kind = |r: Result<(), gametree_game::check::Failure>| r.unwrap_err().kind();
    assert_eq!(
        kind(knowledge(&Pile::<WIN_BOUND>::new(4))),
        FailureKind::WinBoundMismatch
    );
    assert_eq!(
        kind(knowledge(&Pile::<PROOF_HINT>::new(5))),
        FailureKind::ProofHintMismatch
    );
    assert_eq!(
        kind(knowledge(&Pile::<EVALUATION>::new(5))),
        FailureKind::EvaluationMismatch
    );
}

#[test]
fn honest_declarations_are_solved() {
    for stones in 1..=15 {
        let g = Pile::<HONEST>::new(stones);
        let want = Some(expected(stones));
        let pns = Pns::new(PnsConfig::new())
            .unwrap()
            .solve(&mut g.clone(), &mut Request::new(&Limits::none()));
        assert_eq!(pns.outcome, want, "pns, {stones} stones");
        let dfpn = DfPn::new(DfPnConfig::new())
            .unwrap()
            .solve(&mut g.clone(), &mut Request::new(&Limits::none()));
        assert_eq!(dfpn.outcome, want, "df-pn, {stones} stones");
        let cns = Conspiracy::new(ConspiracyConfig::new())
            .unwrap()
            .search(&mut g.clone(), &mut Request::new(&Limits::none()))
            .unwrap();
        assert_eq!(cns.outcome(), want, "cns, {stones} stones");
    }
}

// A debug build checks a sample of each search's positions (the root
// among them): solving every pile up to 12, as a test suite would, meets
// the broken promise.

#[cfg(debug_assertions)]
#[test]
#[should_panic(
    expected = "declares win bounds, but the rules disagree: cannot_win claims the side to move cannot win, but the value is a win"
)]
fn a_false_win_bound_panics_in_df_pn() {
    let mut dfpn = DfPn::new(DfPnConfig::new()).unwrap();
    for stones in 1..=12 {
        dfpn.solve(
            &mut Pile::<WIN_BOUND>::new(stones),
            &mut Request::new(&Limits::none()),
        );
    }
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "declares win bounds")]
fn a_false_win_bound_panics_in_pns() {
    let mut pns = Pns::new(PnsConfig::new()).unwrap();
    for stones in 1..=12 {
        pns.solve(
            &mut Pile::<WIN_BOUND>::new(stones),
            &mut Request::new(&Limits::none()),
        );
    }
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "declares proof hints, but the rules disagree: proof_hints gives (0, 1)")]
fn a_zero_proof_hint_panics() {
    let mut pns = Pns::new(PnsConfig::new()).unwrap();
    for stones in 1..=12 {
        pns.solve(
            &mut Pile::<PROOF_HINT>::new(stones),
            &mut Request::new(&Limits::none()),
        );
    }
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "declares evaluation, but the rules disagree: evaluate gives")]
fn a_decisive_evaluation_panics_in_cns() {
    let mut cns = Conspiracy::new(ConspiracyConfig::new()).unwrap();
    for stones in 1..=12 {
        let _ = cns.search(
            &mut Pile::<EVALUATION>::new(stones),
            &mut Request::new(&Limits::none()),
        );
    }
}
