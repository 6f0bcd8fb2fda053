//! Connect Four 4×4 and m,n,k 3,3,3 / 4,4,3: every solver against the
//! published values (Connect Four 4×4 a draw: John Tromp, "John's Connect
//! Four Playground", tromp.github.io/c4/c4.html; 3,3,3 a draw and 4,4,3 a
//! first-player win: the Wikipedia article "m,n,k-game", after Uiterwijk
//! and van den Herik, "The advantage of the initiative", 2000; read from
//! the corpus of `gametree-data`) and against the workspace's alpha-beta
//! solver on seeded random positions.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Game, Limits, MoveBuffer, Outcome, Request, Use};
use gametree_games_connect4::{Board, Size};
use gametree_games_mnk::Mnk;
use gametree_pns_conspiracy::{
    Answer, DfPn, DfPnConfig, Pns, PnsConfig, ProofConfig, Question, agree,
};

/// The alpha-beta solver's value for the side to move.
fn alpha_beta_outcome<G>(g: &mut G) -> Outcome
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let mut searcher = AlphaBeta::<G>::new(Config::default()).expect("table");
    let none = Limits::none();
    let mut exact = gametree_game::Request::new(&none).find(gametree_game::Find::Score);
    gametree_game::Solver::solve(&mut searcher, g, &mut exact)
        .outcome
        .expect("solved")
}

/// Positions reached by seeded random play, `plies` moves deep, not over.
fn random_positions<G: Game>(
    start: &G,
    count: usize,
    plies: std::ops::Range<u64>,
    seed: u64,
) -> Vec<G> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        let len = plies.start + next() % (plies.end - plies.start);
        for _ in 0..len {
            let mut moves = G::Moves::default();
            g.generate(&mut moves);
            if g.outcome().is_some() || moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
            g.make(m);
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

/// The published value of the empty Connect Four board `w` × `h`.
fn connect4_value(w: usize, h: usize) -> Outcome {
    let c4 = gametree_data::connect4().unwrap();
    c4.board(w, h).unwrap().value
}

/// The published value of the empty m,n,k board.
fn mnk_value(m: u8, n: u8, k: u8) -> Outcome {
    let games = gametree_data::mnk().unwrap();
    let game = games.iter().find(|g| (g.m, g.n, g.k) == (m, n, k));
    game.unwrap().value
}

fn check_empty_board<G: Game>(g: &mut G, expected: Outcome, with_cns: bool) {
    let t = std::time::Instant::now();
    let stats =
        agree::proof_solvers_agree(g, expected, &Limits::none()).unwrap_or_else(|e| panic!("{e}"));
    if with_cns {
        agree::cns_agrees(g, expected, &Limits::none()).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("{stats:?} {:?}", t.elapsed());
    // With and without the game's proof hints.
    for hints in [true, false] {
        let mut pns =
            Pns::new(PnsConfig::new().proof(ProofConfig::new().proof_hints(Use::from(hints))))
                .unwrap();
        let mut dfpn =
            DfPn::new(DfPnConfig::new().proof(ProofConfig::new().proof_hints(Use::from(hints))))
                .unwrap();
        for r in [
            pns.search(g, Question::Win, &mut Request::new(&Limits::none())),
            dfpn.search(g, Question::Win, &mut Request::new(&Limits::none())),
        ] {
            assert_eq!(r.answer == Answer::Proven, expected == Outcome::Win);
            eprintln!("hints {hints}: {} nodes", r.stats.nodes);
        }
    }
}

#[test]
fn connect_four_4x4_is_a_draw() {
    let expected = connect4_value(4, 4);
    let mut g = Board::new(Size::new(4, 4).unwrap());
    assert_eq!(alpha_beta_outcome(&mut g), expected);
    check_empty_board(&mut g, expected, false);
}

#[test]
fn mnk_333_draw_and_443_first_player_win() {
    let mut g = Mnk::new(3, 3, 3).unwrap();
    check_empty_board(&mut g, mnk_value(3, 3, 3), true);
    let mut g = Mnk::new(4, 4, 3).unwrap();
    check_empty_board(&mut g, mnk_value(4, 4, 3), true);
}

#[test]
fn random_positions_agree_with_alpha_beta() {
    let c4 = Board::new(Size::new(4, 4).unwrap());
    for mut g in random_positions(&c4, 24, 3..10, 0x5eed) {
        let expected = alpha_beta_outcome(&mut g);
        agree::solvers_agree(&mut g, expected, &Limits::none())
            .unwrap_or_else(|e| panic!("{g}: {e}"));
    }
    let mnk = Mnk::new(4, 4, 3).unwrap();
    for mut g in random_positions(&mnk, 30, 1..8, 0xfeed) {
        let expected = alpha_beta_outcome(&mut g);
        agree::solvers_agree(&mut g, expected, &Limits::none())
            .unwrap_or_else(|e| panic!("{g}: {e}"));
    }
}
