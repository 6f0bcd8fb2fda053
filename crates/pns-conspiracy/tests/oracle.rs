//! df-pn with an oracle in its request (`Solver::solve`, `DfPn::search`)
//! answers as plain negamax does, on every tic-tac-toe position, with
//! oracles that know the positions of `k` marks or more; the root is never
//! probed.

use gametree_pns_conspiracy::ProofConfig;
use std::collections::{HashMap, HashSet};

use gametree_alphabeta::negamax_solve;
use gametree_game::{Game, Limits, Outcome, Request, Score, Solver};
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::{Answer, DfPn, DfPnConfig, Question};

/// Every non-terminal position reachable from the empty board.
fn reachable() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.hash()) || p.outcome().is_some() {
            continue;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        p.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = p;
            c.make(m);
            stack.push(c);
        }
        out.push(p);
    }
    out
}

#[test]
fn outcomes_equal_negamax_with_every_oracle() {
    let positions = reachable();
    let expected: Vec<Option<Outcome>> = positions
        .iter()
        .map(|p| negamax_solve(&mut { *p }).value.outcome())
        .collect();
    let values: HashMap<u64, Score> = positions
        .iter()
        .map(|p| (p.hash(), negamax_solve(&mut { *p }).value))
        .collect();
    for k in [0, 4, 7] {
        let values = &values;
        let oracle = move |p: &TicTacToe| (p.marks() >= k).then(|| values[&p.hash()]);
        let mut dfpn =
            DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 20))).unwrap();
        let (mut plain, mut probing) = (0, 0);
        let none = Limits::none();
        for (p, &want) in positions.iter().zip(&expected) {
            let solved = dfpn.solve(&mut { *p }, &mut Request::new(&none).oracle(&oracle));
            assert_eq!(solved.outcome, want, "{p} with oracle from {k} marks");
            // One question, with and without the oracle: the same answer
            // (and, over all positions, fewer expansions with it).
            Solver::<TicTacToe>::clear(&mut dfpn);
            let with = dfpn.search(
                &mut { *p },
                Question::Win,
                &mut Request::new(&none).oracle(&oracle),
            );
            Solver::<TicTacToe>::clear(&mut dfpn);
            let without = dfpn.search(&mut { *p }, Question::Win, &mut Request::new(&none));
            assert_eq!(with.answer, without.answer, "{p}");
            plain += without.stats.nodes;
            probing += with.stats.nodes;
        }
        assert!(
            probing < plain,
            "oracle from {k} marks: {probing} >= {plain} expansions"
        );
    }
}

#[test]
fn the_root_is_searched_not_probed() {
    let root: TicTacToe = "X...O....".parse().unwrap();
    let key = root.hash();
    let liar = move |p: &TicTacToe| (p.hash() == key).then_some(Score::win_in(1));
    let mut dfpn = DfPn::new(DfPnConfig::new()).unwrap();
    let none = Limits::none();
    let report = dfpn.search(
        &mut { root },
        Question::Win,
        &mut Request::new(&none).oracle(&liar),
    );
    assert_eq!(report.answer, Answer::Disproven);
}
