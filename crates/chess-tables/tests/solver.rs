//! The tablebase as a `Solver`: the value it answers is the probe's, its
//! line is a mate in exactly the stated plies played out by best moves,
//! and what it does not hold is out of scope, never a wrong answer.

use gametree_chess_tables::{BuildOptions, Tablebase};
use gametree_game::{Find, Game, IndexSpace, Limits, Outcome, Request, Solver, Stop};
use gametree_games_chess::Position;

fn built(endings: &[&str]) -> Tablebase {
    let endings: Vec<_> = endings.iter().map(|e| e.parse().unwrap()).collect();
    let mut tables = Tablebase::new();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    tables
}

#[test]
fn every_sampled_position_solves_to_its_probed_value_with_a_line_that_ends_there() {
    let mut tables = built(&["KRvK"]);
    let space = gametree_chess_tables::Endgame::new("KRvK").unwrap();
    let mut checked = 0;
    for index in (0..space.size()).step_by(251) {
        let Some(start) = space.position(index) else {
            continue;
        };
        let probed = tables.probe(&start).unwrap().expect("KRvK is held");
        for find in [Find::Outcome, Find::Score] {
            let mut p = start.clone();
            let solution = tables.solve(&mut p, &mut Request::new(&Limits::none()).find(find));
            assert_eq!(p, start, "the position is restored");
            assert_eq!(solution.score, Some(probed.to_score()), "{start}");
            assert_eq!(solution.outcome, Some(probed.outcome()));
            assert_eq!(solution.best, solution.line.first().copied());
            assert_eq!(solution.stopped, None);
            // The line: every move legal, the value moving one ply closer
            // to the end at each move, and a mate at the stated distance.
            let mut value = probed;
            for &m in &solution.line {
                let mut moves = <Position as Game>::Moves::default();
                p.generate(&mut moves);
                assert!(moves.contains(&m), "{m} is legal in {p}");
                p.make(m);
                let next = tables.probe(&p).unwrap();
                if let Some(next) = next {
                    assert_eq!(next.parent(), value, "{m} keeps the value in {start}");
                    value = next;
                }
            }
            match probed.plies() {
                Some(plies) => {
                    assert_eq!(solution.line.len(), usize::from(plies), "{start}");
                    assert!(p.outcome().is_some(), "the line of {start} ends the game");
                }
                // A draw: shown for a while, or until the game ends (the
                // rook taken).
                None => assert!(
                    solution.line.len() == gametree_retrograde::DRAWN_LINE
                        || p.outcome() == Some(Outcome::Draw),
                    "the drawn line of {start}"
                ),
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked} positions sampled");
}

#[test]
fn an_ending_not_held_is_out_of_scope_and_a_node_limit_shortens_the_line_only() {
    let mut tables = built(&["KRvK"]);
    let mut p: Position = "8/8/8/4k3/8/8/8/1Q5K w - - 0 1".parse().unwrap();
    let solution = tables.solve(&mut p, &mut Request::new(&Limits::none()));
    assert_eq!(solution.stopped, Some(Stop::OutOfScope));
    assert_eq!(
        (solution.outcome, solution.score, solution.best),
        (None, None, None)
    );

    let mut p: Position = "8/8/8/4k3/8/8/8/R6K w - - 0 1".parse().unwrap();
    let full = tables.solve(&mut p, &mut Request::new(&Limits::none()));
    let limits = Limits::none().with_nodes(3);
    let short = tables.solve(&mut p, &mut Request::new(&limits));
    assert_eq!(full.outcome, Some(Outcome::Win));
    assert_eq!((short.outcome, short.score), (full.outcome, full.score));
    assert!(short.line.len() < full.line.len());
    assert_eq!(short.line[..], full.line[..short.line.len()]);
}
