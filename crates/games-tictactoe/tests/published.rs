//! The published tic-tac-toe numbers, reproduced by exhaustive enumeration
//! through the `Game` trait: 765 positions up to symmetry (OEIS A008907),
//! 255,168 complete games (OEIS A061526) split 131,184 / 77,904 / 46,080
//! and 138 terminal positions up to symmetry split 91 / 44 / 3 (the
//! Wikipedia article "Tic-tac-toe"), and the draw of the empty board. The
//! numbers come from the corpus of `gametree-data`
//! (`crates/data/data/tictactoe.toml`), not from this crate.

use std::collections::{HashMap, HashSet};

use gametree_data::{Split, TicTacToeFigures};
use gametree_game::IndexSpace;
use gametree_game::{Game, Outcome, Player, perft};
use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use rand_core::Rng;

fn published() -> &'static TicTacToeFigures {
    gametree_data::tictactoe().unwrap()
}

fn reachable() -> HashMap<(u16, u16), TicTacToe> {
    fn walk(b: &mut TicTacToe, seen: &mut HashMap<(u16, u16), TicTacToe>) {
        if seen.insert((b.x_mask(), b.o_mask()), *b).is_some() {
            return;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        b.generate(&mut moves);
        for &m in moves.as_slice() {
            b.make(m);
            walk(b, seen);
            b.unmake(m, ());
        }
    }
    let mut seen = HashMap::new();
    walk(&mut TicTacToe::new(), &mut seen);
    seen
}

/// The winner of a terminal position: who made the last move.
fn winner(b: &TicTacToe) -> Option<Player> {
    match b.outcome() {
        Some(Outcome::Loss) => Some(b.side_to_move().opponent()),
        _ => None,
    }
}

#[test]
fn reachable_positions_by_marks() {
    let all = reachable();
    assert_eq!(all.len() as u64, published().reachable_positions);
    let mut by_marks = [0u64; 10];
    for b in all.values() {
        by_marks[b.marks() as usize] += 1;
    }
    assert_eq!(by_marks[..], published().reachable_by_marks[..]);
    let terminal = all.values().filter(|b| b.outcome().is_some()).count();
    assert_eq!(terminal as u64, published().terminal_positions);
    // every reachable position parses back from its text
    for b in all.values() {
        let text = b.to_string();
        assert_eq!(text.parse::<TicTacToe>().unwrap(), *b, "{text}");
    }
}

#[test]
fn positions_up_to_symmetry() {
    let all = reachable();
    let classes: HashSet<(u16, u16)> = all
        .values()
        .map(|b| {
            let c = b.canonical();
            (c.x_mask(), c.o_mask())
        })
        .collect();
    assert_eq!(classes.len() as u64, published().positions_up_to_symmetry);
    let mut split = Split {
        x_wins: 0,
        o_wins: 0,
        draws: 0,
    };
    let terminal: HashSet<(u16, u16)> = all
        .values()
        .filter(|b| b.outcome().is_some())
        .map(|b| {
            let c = b.canonical();
            (c.x_mask(), c.o_mask())
        })
        .collect();
    for &(x, o) in &terminal {
        let b = TicTacToe::from_masks(x, o).unwrap();
        match winner(&b) {
            Some(Player::First) => split.x_wins += 1,
            Some(Player::Second) => split.o_wins += 1,
            None => split.draws += 1,
        }
    }
    assert_eq!(split, published().terminal_up_to_symmetry);
    assert_eq!(terminal.len() as u64, split.total());
}

#[test]
fn complete_games() {
    fn games(b: &mut TicTacToe, split: &mut Split) {
        if b.outcome().is_some() {
            match winner(b) {
                Some(Player::First) => split.x_wins += 1,
                Some(Player::Second) => split.o_wins += 1,
                None => split.draws += 1,
            }
            return;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        b.generate(&mut moves);
        for &m in moves.as_slice() {
            b.make(m);
            games(b, split);
            b.unmake(m, ());
        }
    }
    let mut split = Split {
        x_wins: 0,
        o_wins: 0,
        draws: 0,
    };
    games(&mut TicTacToe::new(), &mut split);
    assert_eq!(split, published().games);
    // perft(9) counts exactly the games that fill the board
    assert_eq!(
        perft(&mut TicTacToe::new(), 9),
        published().full_board_games
    );
}

#[test]
fn empty_board_is_a_draw() {
    // An independent memoised minimax over the masks (not the crate's search).
    fn value(b: &mut TicTacToe, memo: &mut HashMap<(u16, u16), i8>) -> i8 {
        if let Some(&v) = memo.get(&(b.x_mask(), b.o_mask())) {
            return v;
        }
        let v = match b.outcome() {
            Some(Outcome::Loss) => -1,
            Some(Outcome::Draw) => 0,
            Some(Outcome::Win) => 1,
            None => {
                let mut moves = <TicTacToe as Game>::Moves::default();
                b.generate(&mut moves);
                let mut best = -1;
                for &m in moves.as_slice() {
                    b.make(m);
                    best = best.max(-value(b, memo));
                    b.unmake(m, ());
                }
                best
            }
        };
        memo.insert((b.x_mask(), b.o_mask()), v);
        v
    }
    let mut memo = HashMap::new();
    let expected = match published().empty_board {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    assert_eq!(value(&mut TicTacToe::new(), &mut memo), expected);
    // symmetric positions have equal values
    for (&(x, o), &v) in &memo {
        let c = TicTacToe::from_masks(x, o).unwrap().canonical();
        assert_eq!(memo[&(c.x_mask(), c.o_mask())], v);
    }
}

/// The valid indices of the plain and the symmetric numbering are the
/// reachable positions and their classes.
#[test]
fn valid_indices_match_the_published_counts() {
    for (space, expected) in [
        (BoardIndex::plain(), published().reachable_positions),
        (
            BoardIndex::symmetric(),
            published().positions_up_to_symmetry,
        ),
    ] {
        let mut valid = 0;
        for i in 0..space.size() {
            if let Some(p) = space.position(i) {
                valid += 1;
                assert_eq!(space.index_of(&p), Some(i));
            }
        }
        assert_eq!(valid, expected);
    }
}

#[test]
fn oracles_on_random_playouts() {
    let mut rng = rand_pcg::Pcg64::new(0x7717_u128, 1);
    for _ in 0..2_000 {
        let mut choices = std::iter::from_fn(|| Some(rng.next_u64()));
        gametree_game::check::playout(&TicTacToe::new(), &mut choices, 9).unwrap();
    }
}

#[test]
fn try_make_agrees_everywhere() {
    for b in reachable().values() {
        for s in 0..9 {
            let sq = gametree_games_tictactoe::Square::new(s).unwrap();
            gametree_game::check::try_make_agrees(b, sq).unwrap();
        }
    }
}

#[test]
fn forcing_agrees_with_brute_force_everywhere() {
    for b in reachable().values() {
        gametree_game::check::forcing(b).unwrap();
    }
}
