//! Drivers that feed fuzzer input to the `gametree_game::check` oracles.
//!
//! Positions are valid by construction: a playout picks each move as the
//! next fuzzer number modulo the number of legal moves (the rule of
//! [`gametree_game::check::playout`], repeated by [`reach`]).

use core::fmt;
use core::str::FromStr;

use gametree_game::{Game, MoveBuffer, check};

/// The position reached from `start` by the rule of
/// [`gametree_game::check::playout`]: each move is the next choice modulo the number
/// of legal moves; stops at the end of the game, without moves, after
/// `max_plies` moves or when the choices run out.
pub fn reach<G: Game>(start: &G, choices: &[u16], max_plies: usize) -> G {
    let mut game = start.clone();
    let mut moves = G::Moves::default();
    for &c in choices.iter().take(max_plies) {
        if game.outcome().is_some() {
            break;
        }
        game.generate(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.make(moves.as_slice()[usize::from(c) % moves.len()]);
    }
    game
}

/// Runs [`check::playout`] along the fuzzer's playout, then
/// [`check::try_make_agrees`] for every candidate at the start and at the
/// end of the playout.
///
/// # Panics
///
/// With the oracle's message when an invariant is broken.
pub fn playout<G>(start: &G, choices: &[u16], max_plies: usize, candidates: &[G::Move])
where
    G: Game + Eq + fmt::Debug,
{
    let mut numbers = choices.iter().map(|&c| u64::from(c));
    if let Err(f) = check::playout(start, &mut numbers, max_plies) {
        panic!("playout oracle: {f}");
    }
    let end = reach(start, choices, max_plies);
    for &c in candidates {
        for g in [start, &end] {
            if let Err(f) = check::try_make_agrees(g, c) {
                panic!("try_make oracle: {f}");
            }
        }
    }
}

/// Runs [`check::forcing`] on every position of the fuzzer's playout.
///
/// # Panics
///
/// With the oracle's message when the forcing knowledge disagrees with brute force.
pub fn forcing<G>(start: &G, choices: &[u16], max_plies: usize)
where
    G: Game + fmt::Debug,
{
    for plies in 0..=choices.len().min(max_plies) {
        let g = reach(start, &choices[..plies], max_plies);
        if let Err(f) = check::forcing(&g) {
            panic!("forcing oracle after {plies} plies: {f}");
        }
        if g.outcome().is_some() {
            break;
        }
    }
}

/// Parses `text`; when that succeeds, printing the value and parsing the
/// print must give the same value back, and printing that must give the
/// same text (printing is canonical). Returns the parsed value.
///
/// # Panics
///
/// When the print does not parse or round-trip.
pub fn round_trip<T>(text: &str) -> Option<T>
where
    T: FromStr + fmt::Display + PartialEq + fmt::Debug,
    T::Err: fmt::Display,
{
    let value: T = text.parse().ok()?;
    let printed = value.to_string();
    let again: T = match printed.parse() {
        Ok(v) => v,
        Err(e) => panic!("{printed:?} (printed from {text:?}) does not parse: {e}"),
    };
    assert_eq!(again, value, "print/parse of {text:?} via {printed:?}");
    assert_eq!(again.to_string(), printed, "printing is not canonical");
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    fn choices(rng: &mut SplitMix, n: usize) -> Vec<u16> {
        (0..n).map(|_| rng.next_u64() as u16).collect()
    }

    #[test]
    fn seeded_playouts_pass_every_game() {
        let mut rng = SplitMix(1);
        for _ in 0..40 {
            let c = choices(&mut rng, 80);
            playout(&gametree_games_tictactoe::TicTacToe::new(), &c, 9, &[]);
            forcing(&gametree_games_tictactoe::TicTacToe::new(), &c, 9);
            let mnk = gametree_games_mnk::Mnk::new(5, 4, 3).unwrap();
            playout(
                &mnk,
                &c,
                20,
                &[gametree_games_mnk::Move::new(2, 2).unwrap()],
            );
            forcing(&mnk, &c, 20);
            playout(
                &gametree_games_ataxx::Position::startpos(),
                &c,
                30,
                &[gametree_games_ataxx::Move::PASS],
            );
            playout(&gametree_games_connect4::Board::standard(), &c, 42, &[]);
            playout(&gametree_games_chess::Position::startpos(), &c, 60, &[]);
            let dots =
                gametree_games_dots::Dots::new(gametree_games_dots::Size::new(3, 2).unwrap());
            playout(&dots, &c, 17, &[]);
        }
    }

    #[test]
    fn round_trip_accepts_canonical_text_and_refuses_garbage() {
        let b: gametree_games_tictactoe::TicTacToe = round_trip("X...O....").unwrap();
        assert_eq!(b.marks(), 2);
        assert!(round_trip::<gametree_games_tictactoe::TicTacToe>("not a board").is_none());
        assert!(
            round_trip::<gametree_games_chess::Position>(gametree_games_chess::STARTPOS).is_some()
        );
    }

    #[test]
    #[should_panic(expected = "playout oracle")]
    fn a_broken_game_is_caught() {
        // A game whose incremental hash forgets the side to move.
        #[derive(Clone, Debug, PartialEq, Eq)]
        struct Broken(gametree_games_tictactoe::TicTacToe);
        impl Game for Broken {
            type Move = gametree_games_tictactoe::Square;
            type Undo = <gametree_games_tictactoe::TicTacToe as Game>::Undo;
            type Moves = <gametree_games_tictactoe::TicTacToe as Game>::Moves;
            fn side_to_move(&self) -> gametree_game::Player {
                self.0.side_to_move()
            }
            fn generate(&self, out: &mut Self::Moves) {
                self.0.generate(out)
            }
            fn make(&mut self, m: Self::Move) -> Self::Undo {
                self.0.make(m)
            }
            fn unmake(&mut self, m: Self::Move, u: Self::Undo) {
                self.0.unmake(m, u)
            }
            fn outcome(&self) -> Option<gametree_game::Outcome> {
                self.0.outcome()
            }
            fn hash(&self) -> u64 {
                self.0.hash() ^ u64::from(self.0.marks() == 3)
            }
            fn recompute_hash(&self) -> u64 {
                self.0.recompute_hash()
            }
        }
        playout(
            &Broken(gametree_games_tictactoe::TicTacToe::new()),
            &[0, 1, 2, 3],
            9,
            &[],
        );
    }
}
