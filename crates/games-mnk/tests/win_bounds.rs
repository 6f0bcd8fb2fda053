//! `cannot_win` (the Erdős–Selfridge potential) against exhaustive search,
//! and the potential-based hints against their batched form.

use gametree_game::check::{exhaustive_value, win_bounds};
use gametree_game::{Game, Outcome, Player};
use gametree_games_mnk::{Mnk, Moves};
use rand_core::Rng;
use rand_pcg::Pcg64;

/// Random positions with at most `left` empty squares on small boards:
/// every claim of `cannot_win` holds against plain negamax, and the
/// claims are made often enough to mean something.
#[test]
fn cannot_win_never_contradicts_exhaustive_search() {
    let mut rng = Pcg64::new(0x77696e, 5);
    let sizes = [
        (3, 3, 3),
        (4, 3, 3),
        (4, 4, 3),
        (4, 4, 4),
        (5, 4, 4),
        (5, 5, 4),
        (6, 4, 4),
        (5, 5, 5),
    ];
    let mut claims = 0;
    let mut checked = 0;
    let mut moves = Moves::default();
    for round in 0..600 {
        let (m, n, k) = sizes[round % sizes.len()];
        let mut g = Mnk::new(m, n, k).unwrap();
        let left = 5 + (rng.next_u64() % 5) as u32;
        while g.outcome().is_none() && u32::from(m) * u32::from(n) - g.stones_played() > left {
            g.generate(&mut moves);
            let mv = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(mv);
        }
        if g.outcome().is_some() {
            continue;
        }
        win_bounds(&g).unwrap();
        checked += 1;
        let side = g.side_to_move();
        claims += usize::from(g.cannot_win(side)) + usize::from(g.cannot_win(side.opponent()));
    }
    assert!(checked > 400, "{checked} positions");
    assert!(claims > 200, "only {claims} claims in {checked} positions");
}

/// The bound is a real proof, not a restatement of "no open line": on the
/// empty 4,4,4 board both players still have every line open, and both are
/// held to a draw (the published value).
#[test]
fn the_potential_proves_4_4_4_a_draw_at_the_start() {
    let g = Mnk::new(4, 4, 4).unwrap();
    assert!(g.cannot_win(Player::First) && g.cannot_win(Player::Second));
    // Not on 4,4,3, a first-player win.
    let g = Mnk::new(4, 4, 3).unwrap();
    assert!(!g.cannot_win(Player::First));
}

/// Tic-tac-toe after x b2, o a2 (an edge answer to the centre) is a win for
/// x: the oracle finds it and the bound claims nothing there.
#[test]
fn the_oracle_sees_a_won_position() {
    let mut g: Mnk = "3,3,3 b2 a2".parse().unwrap();
    assert_eq!(exhaustive_value(&mut g), Outcome::Win);
    assert!(!g.cannot_win(Player::First));
    win_bounds(&g).unwrap();
}
