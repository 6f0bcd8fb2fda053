//! Knowledge declared wrongly fails loudly: a debug build of threat-space
//! search checks what a game declares in `Game::KNOWLEDGE` against its
//! rules on a sample of the positions it visits
//! (`gametree_game::check::sampled_knowledge`), and panics naming the item.

use gametree_game::check::{FailureKind, knowledge};
use gametree_game::{Game, Outcome, Player};
use gametree_games_mnk::{Mnk, Move, Moves};

/// m,n,k whose threat list also holds a square taken before the search
/// started: a move that is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Taken {
    game: Mnk,
    taken: Move,
}

impl Game for Taken {
    type Move = Move;
    type Undo = ();
    type Moves = Moves;
    const KNOWLEDGE: gametree_game::Knowledge = Mnk::KNOWLEDGE;
    fn side_to_move(&self) -> Player {
        self.game.side_to_move()
    }
    fn generate(&self, out: &mut Moves) {
        self.game.generate(out);
    }
    fn make(&mut self, m: Move) {
        self.game.make(m);
    }
    fn unmake(&mut self, m: Move, undo: ()) {
        self.game.unmake(m, undo);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn winning_move(&self) -> Option<Move> {
        self.game.winning_move()
    }
    fn non_losing_moves(&self, out: &mut Moves) {
        self.game.non_losing_moves(out);
    }
    fn threat_moves(&self, out: &mut Moves) {
        self.game.threat_moves(out);
        out.push(self.taken);
    }
}

/// x (to move) has c4 and d4 on 7,7,4; o has a1 and a7.
fn position() -> Mnk {
    let mut g = Mnk::new(7, 7, 4).unwrap();
    for mv in ["c4", "a1", "d4", "a7"] {
        g.make(mv.parse().unwrap());
    }
    g
}

#[test]
fn the_oracle_names_the_illegal_threat() {
    knowledge(&position()).unwrap();
    let taken = Taken {
        game: position(),
        taken: "a1".parse().unwrap(),
    };
    let f = knowledge(&taken).unwrap_err();
    assert_eq!(f.kind(), FailureKind::ThreatMismatch);
    assert_eq!(f.kind().knowledge_item(), Some("threats"));
    assert!(
        f.detail()
            .contains("threat_moves lists a1, not a legal move"),
        "{f}"
    );
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(
    expected = "declares threats, but the rules disagree: threat_moves lists a1, not a legal move"
)]
fn an_illegal_threat_move_panics() {
    use gametree_threats::{ThreatConfig, ThreatSearch};
    let mut search = ThreatSearch::new(ThreatConfig::default()).unwrap();
    let mut g = Taken {
        game: position(),
        taken: "a1".parse().unwrap(),
    };
    search.find_win(&mut g);
}
