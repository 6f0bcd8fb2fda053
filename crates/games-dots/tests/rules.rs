//! Dots-and-Boxes: the rules (turns kept after a box, the oracles, the
//! notation), the published values by the brute-force reference, and every
//! solver of the workspace against it.

use gametree_pns_conspiracy::ProofConfig;
use std::collections::HashSet;

use gametree_alphabeta::{AlphaBeta, Config, negamax_solve};
use gametree_game::{Find, Game, Limits, Outcome, Player, Score, Solution, Solver, check};
use gametree_games_dots::{Dots, Line, ParseErrorKind, Size, check as reference, exact_score};
use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns};
use rand_core::Rng;
use rand_pcg::Pcg64;

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).unwrap()
}

/// Every position reachable from the empty board (by hash).
fn reachable(size: Size) -> Vec<Dots> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![Dots::new(size)];
    let mut moves = <Dots as Game>::Moves::default();
    while let Some(g) = stack.pop() {
        if !seen.insert(g.hash()) {
            continue;
        }
        g.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = g.clone();
            c.make(m);
            stack.push(c);
        }
        out.push(g);
    }
    out
}

fn random_position(size: Size, drawn: usize, rng: &mut Pcg64) -> Dots {
    let mut g = Dots::new(size);
    let mut moves = <Dots as Game>::Moves::default();
    for _ in 0..drawn {
        g.generate(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        g.make(m);
    }
    g
}

#[test]
fn a_completed_box_keeps_the_turn() {
    let mut g = Dots::new(size(2, 1));
    g.play_str("a1- a2- a1|").unwrap(); // first, second, first: three sides of box a1
    assert_eq!(g.side_to_move(), Player::Second);
    g.play_str("b1|").unwrap(); // second closes it
    assert_eq!(g.box_difference(), -1);
    assert_eq!(g.side_to_move(), Player::Second, "moves again");
    g.play_str("b1-").unwrap();
    assert_eq!(g.side_to_move(), Player::First);
    // Two boxes with one line: both scored, the turn kept.
    let mut g = Dots::new(size(2, 1));
    g.play_str("a1- a2- b1- b2- a1| c1|").unwrap();
    let before = g.side_to_move();
    g.play_str("b1|").unwrap();
    assert_eq!(g.side_to_move(), before);
    assert_eq!(g.box_difference().abs(), 2);
    assert_eq!(g.outcome(), Some(Outcome::Win));
}

#[test]
fn oracles_hold_on_random_playouts() {
    let mut rng = Pcg64::new(7, 11);
    for (w, h) in [(1, 1), (2, 2), (3, 3), (2, 5), (5, 5), (4, 6), (1, 21)] {
        let start = Dots::new(size(w, h));
        for _ in 0..40 {
            let mut choices = std::iter::from_fn(|| Some(rng.next_u64()));
            check::playout(&start, &mut choices, 64).unwrap();
        }
        let g = random_position(size(w, h), 5, &mut rng);
        let mut moves = <Dots as Game>::Moves::default();
        g.generate(&mut moves);
        for &m in moves.as_slice() {
            check::try_make_agrees(&g, m).unwrap();
        }
    }
}

#[test]
fn notation_round_trips_and_errors_are_typed() {
    let g = Dots::from_moves(size(3, 3), "a1- b1| d4| c4- a1|").unwrap_err();
    assert_eq!(g.index(), Some(3));
    assert!(matches!(g.kind(), ParseErrorKind::OffBoard(_)));
    let g = Dots::from_moves(size(3, 3), "a1- a1-").unwrap_err();
    assert!(matches!(g.kind(), ParseErrorKind::Drawn(_)));
    for bad in ["a1", "1a-", "a0-", "a1x", "é1-", "a-", "a001-"] {
        let e = Dots::from_moves(size(3, 3), bad).unwrap_err();
        assert!(matches!(e.kind(), ParseErrorKind::BadMove(_)), "{bad}");
    }
    let mut rng = Pcg64::new(3, 5);
    for _ in 0..50 {
        let g = random_position(size(3, 2), 9, &mut rng);
        let again = Dots::from_moves(size(3, 2), &g.to_string()).unwrap();
        assert_eq!(again, g);
        assert_eq!(again.to_string(), g.to_string());
    }
    assert_eq!(Dots::new(size(2, 2)).to_string(), "");
    assert_eq!("3x4".parse::<Size>().unwrap(), size(3, 4));
    for bad in ["0x3", "3x0", "6x6", "3", "x", "3x-1", "99999999999x2"] {
        assert!(bad.parse::<Size>().is_err(), "{bad}");
    }
}

/// The published values, by the brute-force reference: the first
/// player's final difference from the empty board. The values come from
/// the corpus of `gametree-data` (`crates/data/data/dots.toml`): 1x1
/// -1 (the fourth line goes to the second player), 2x2 +2 (Berlekamp,
/// Winning Ways; The Dots-and-Boxes Game), 3x3 -3 (David Wilson's
/// analysis).
#[test]
fn published_values() {
    let first = |w, h| {
        let future = reference::future_values(size(w, h)).unwrap();
        reference::exact_score(&Dots::new(size(w, h)), &future)
    };
    let published = gametree_data::dots().unwrap();
    assert_eq!(published.len(), 3);
    for v in published {
        assert_eq!(
            first(v.width, v.height),
            v.score,
            "{}x{}",
            v.width,
            v.height
        );
    }
    // Transposed boards have the same values.
    for (w, h) in [(1, 2), (1, 3), (2, 3), (1, 4), (1, 5)] {
        assert_eq!(first(w, h), first(h, w), "{w}x{h}");
    }
}

/// A solver built on plain negamax to the end (the workspace's reference).
struct Negamax;

impl Solver<Dots> for Negamax {
    fn solve(
        &mut self,
        game: &mut Dots,
        _: &mut gametree_game::Request<'_, Dots>,
    ) -> Solution<Line> {
        let r = negamax_solve(game);
        Solution {
            outcome: r.value.outcome(),
            score: Some(r.value),
            best: r.best,
            line: r.line,
            stats: r.stats,
            ..Solution::default()
        }
    }
}

#[test]
fn negamax_and_alpha_beta_equal_the_reference_on_every_1x2_and_2x1_position() {
    for s in [size(1, 2), size(2, 1)] {
        let future = reference::future_values(s).unwrap();
        let mut ab = AlphaBeta::<Dots>::new(Config::default()).unwrap();
        for p in reachable(s) {
            let expected = reference::exact_score(&p, &future);
            assert_eq!(
                exact_score(&mut Negamax, &p, &Limits::none()),
                Some(expected),
                "{p}"
            );
            assert_eq!(
                exact_score(&mut ab, &p, &Limits::none()),
                Some(expected),
                "{p}"
            );
        }
    }
}

/// The win/draw/loss a solver finds with target 0, against the reference.
fn outcome_of(expected: i32) -> Outcome {
    match expected.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

#[test]
fn every_solver_agrees_on_every_2x2_position() {
    let s = size(2, 2);
    let future = reference::future_values(s).unwrap();
    let positions = reachable(s);
    assert!(positions.len() > 1000);
    let mut ab = AlphaBeta::<Dots>::new(Config::default()).unwrap();
    let mut plain = AlphaBeta::<Dots>::new(Config::plain()).unwrap();
    let mut solvers: Vec<(&str, Box<dyn Solver<Dots>>)> = vec![
        ("pns", Box::new(Pns::default())),
        ("pn2", Box::new(Pns::pn2())),
        (
            "df-pn",
            Box::new(
                DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 16))).unwrap(),
            ),
        ),
        (
            "cns",
            Box::new(Conspiracy::new(ConspiracyConfig::new()).unwrap()),
        ),
    ];
    for p in positions.iter().step_by(3) {
        let expected = reference::exact_score(p, &future);
        assert_eq!(
            exact_score(&mut ab, p, &Limits::none()),
            Some(expected),
            "{p}"
        );
        // The exact distance-to-end score of the target-0 game, two ways.
        let a = Solver::solve(
            &mut ab,
            &mut p.clone(),
            &mut gametree_game::Request::new(&Limits::none()).find(Find::Score),
        )
        .score;
        let b = Solver::solve(
            &mut plain,
            &mut p.clone(),
            &mut gametree_game::Request::new(&Limits::none()).find(Find::Score),
        )
        .score;
        assert_eq!(a, b, "{p}");
        assert_eq!(
            a.and_then(Score::outcome),
            Some(outcome_of(expected)),
            "{p}"
        );
        for (name, s) in &mut solvers {
            let got = s
                .solve(
                    &mut p.clone(),
                    &mut gametree_game::Request::new(&Limits::none()),
                )
                .outcome;
            assert_eq!(got, Some(outcome_of(expected)), "{name} at {p}");
        }
    }
}

#[test]
fn alpha_beta_equals_the_reference_on_random_3x3_positions() {
    let s = size(3, 3);
    let future = reference::future_values(s).unwrap();
    let mut ab = AlphaBeta::<Dots>::new(Config::default()).unwrap();
    let mut rng = Pcg64::new(1, 2);
    for _ in 0..60 {
        let drawn = 8 + (rng.next_u64() % 12) as usize;
        let p = random_position(s, drawn, &mut rng);
        let expected = reference::exact_score(&p, &future);
        assert_eq!(
            exact_score(&mut ab, &p, &Limits::none()),
            Some(expected),
            "{p}"
        );
    }
}
