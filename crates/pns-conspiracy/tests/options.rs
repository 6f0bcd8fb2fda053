//! The option vocabulary of the proof-number searches: the knowledge
//! switches take a [`Use`] (a required item the game lacks refuses the
//! search with a typed reason, `Auto` and `On` agree where the game has
//! it), and [`ProofConfig`] is one struct shared by PNS, PN² and df-pn.

use gametree_game::{Limits, Outcome, Request, Solver, Stop};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::{
    Answer, DfPn, DfPnConfig, Pns, PnsConfig, ProofConfig, Question, SecondLevel, Use,
};

/// Tic-tac-toe declares no proof hints: requiring them refuses every
/// search before it expands a node, with the option's name.
#[test]
fn a_required_item_the_game_lacks_refuses_the_search() {
    let proof = ProofConfig::new().proof_hints(Use::On);
    let refused = |stop: Option<Stop>| match stop {
        Some(Stop::MissingKnowledge(e)) => e.option() == "proof_hints",
        _ => false,
    };
    let mut pns = Pns::new(PnsConfig::new().proof(proof)).unwrap();
    let mut board = TicTacToe::new();
    let report = pns.search(
        &mut board,
        Question::Win,
        &mut Request::new(&Limits::none()),
    );
    assert!(matches!(report.answer, Answer::Unknown(s) if refused(Some(s))));
    assert_eq!(report.stats.nodes, 0);
    let pn2 = PnsConfig::new()
        .proof(proof)
        .second_level(Some(SecondLevel::default()));
    let solution = Pns::new(pn2)
        .unwrap()
        .solve(&mut board, &mut Request::new(&Limits::none()));
    assert_eq!(solution.outcome, None);
    assert!(refused(solution.stopped), "{:?}", solution.stopped);
    let mut dfpn = DfPn::new(DfPnConfig::new().proof(proof)).unwrap();
    let solution = Solver::solve(&mut dfpn, &mut board, &mut Request::new(&Limits::none()));
    assert_eq!(solution.outcome, None);
    assert!(refused(solution.stopped), "{:?}", solution.stopped);
    let (report, strategy) = dfpn.prove(
        &mut board,
        Question::AtLeastDraw,
        &mut Request::new(&Limits::none()),
    );
    assert!(matches!(report.answer, Answer::Unknown(s) if refused(Some(s))));
    assert!(strategy.is_none());
    // The same game with the item `Auto` or `Off` is solved.
    for usage in [Use::Auto, Use::Off] {
        let proof = ProofConfig::new().proof_hints(usage);
        let mut dfpn = DfPn::new(DfPnConfig::new().proof(proof)).unwrap();
        let solution = dfpn.solve(&mut board, &mut Request::new(&Limits::none()));
        assert_eq!(solution.outcome, Some(Outcome::Draw), "{usage:?}");
    }
}

/// A game that has every item: `On` is `Auto`, node for node, and every
/// setting gives the same outcome.
#[test]
fn on_equals_auto_where_the_game_has_the_item() {
    let mut g = Mnk::new(4, 4, 3).unwrap();
    let with = |usage: Use| {
        ProofConfig::new()
            .proof_hints(usage)
            .win_bounds(usage)
            .threats(usage)
    };
    let mut outcomes = Vec::new();
    for usage in [Use::Auto, Use::On, Use::Off] {
        let mut pns = Pns::new(PnsConfig::new().proof(with(usage))).unwrap();
        let solution = pns.solve(&mut g, &mut Request::new(&Limits::none()));
        let mut dfpn = DfPn::new(DfPnConfig::new().proof(with(usage))).unwrap();
        let other = dfpn.solve(&mut g, &mut Request::new(&Limits::none()));
        assert_eq!(solution.outcome, other.outcome, "{usage:?}");
        assert!(solution.outcome.is_some());
        outcomes.push((solution.outcome, solution.stats.nodes, other.stats.nodes));
    }
    assert_eq!(outcomes[0], outcomes[1], "Auto and On differ");
    assert_eq!(outcomes[0].0, outcomes[2].0);
}

/// One struct, read back the same from both configurations; memory in
/// bytes, df-pn's default table 16 MiB, the getters of the type the
/// setters take.
#[test]
fn the_shared_options_are_one_struct() {
    let proof = ProofConfig::new()
        .memory(1 << 20)
        .progress_interval(0)
        .win_bounds(Use::Off);
    assert_eq!(proof.get_progress_interval(), 1);
    assert_eq!(proof.get_win_bounds(), Use::Off);
    assert_eq!(proof.get_threats(), Use::Auto);
    assert_eq!(PnsConfig::new().proof(proof).get_proof(), proof);
    let dfpn = DfPn::new(DfPnConfig::new().proof(proof)).unwrap();
    assert_eq!(dfpn.config().get_proof(), proof);
    assert_eq!(dfpn.config().get_memory(), 1 << 20);
    assert_eq!(DfPnConfig::new().get_memory(), 16 << 20);
    assert_eq!(ProofConfig::new().get_memory(), None);
}
