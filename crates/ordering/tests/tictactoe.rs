//! The picker on every reachable tic-tac-toe position, with the game's own
//! tactical moves (wins, then blocks): it yields exactly the generated moves,
//! the tactical ones first by priority, whatever the suggestions.

use gametree_game::Game;
use gametree_games_tictactoe::{Square, TicTacToe};
use gametree_ordering::{History, MovePicker, Policy, Stage};
use std::collections::HashSet;

fn visit(game: &mut TicTacToe, seen: &mut HashSet<u64>, history: &mut History<TicTacToe>) -> usize {
    if !seen.insert(game.hash()) {
        return 0;
    }
    let mut checked = 1;
    let mut moves = <TicTacToe as Game>::Moves::default();
    game.generate(&mut moves);
    let generated: Vec<Square> = moves.as_slice().to_vec();

    // Suggestions derived from the hash: legal or not, tactical or not.
    let sq = |i: u64| Square::new((i % 9) as u8).unwrap();
    let h = game.hash();
    let tt = (!h.is_multiple_of(3)).then(|| sq(h >> 3));
    let killers = [sq(h >> 7), sq(h >> 11)];
    let counter = Some(sq(h >> 17));
    let mut picker = MovePicker::<TicTacToe>::new_tactical(tt)
        .with_killers(&killers)
        .with_counter(counter);
    let mut yielded = Vec::new();
    let mut last_tactical = i32::MAX;
    while let Some(m) = picker.next(game, &mut moves, history) {
        assert!(!yielded.contains(&m), "{m} yielded twice in {game}");
        match picker.stage() {
            Stage::TtMove => assert_eq!(Some(m), tt),
            Stage::Tactical => {
                let s = game
                    .move_hint(m)
                    .tactical()
                    .expect("a quiet move in the tactical stage");
                assert!(s <= last_tactical, "tactical moves out of order in {game}");
                last_tactical = s;
            }
            Stage::Killers | Stage::CounterMove | Stage::Quiet => {
                assert_eq!(
                    game.move_hint(m).tactical(),
                    None,
                    "{m} is tactical in {game}"
                );
            }
            Stage::Done => unreachable!(),
        }
        yielded.push(m);
    }
    let mut a = yielded.clone();
    let mut b = generated;
    a.sort_by_key(|s| s.to_string());
    b.sort_by_key(|s| s.to_string());
    assert_eq!(a, b, "not a permutation of the legal moves in {game}");

    // Teach the history something, so the quiet order varies.
    if let Some(&first) = yielded.last() {
        history.on_cutoff(game.side_to_move(), first, picker.quiets_tried(&moves), 3);
    }
    if game.outcome().is_none() {
        for m in yielded {
            game.make(m);
            checked += visit(game, seen, history);
            game.unmake(m, ());
        }
    }
    checked
}

#[test]
fn every_reachable_position() {
    let mut history = History::new(Policy::Textbook);
    let positions = visit(&mut TicTacToe::new(), &mut HashSet::new(), &mut history);
    // The published count of reachable positions (the corpus of
    // `gametree-data`).
    let published = gametree_data::tictactoe().unwrap();
    assert_eq!(positions as u64, published.reachable_positions);
    assert!(history.max_magnitude() > 0);
}
