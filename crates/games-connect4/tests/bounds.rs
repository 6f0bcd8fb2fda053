//! The win bounds (`Game::cannot_win`: no room for a four, Allis's
//! claimeven; `Game::cannot_draw`: lost to the opponent's claimeven)
//! against their definitions written cell by cell and against exhaustive
//! search, on every position of small boards.

use std::collections::HashMap;

use gametree_game::{Game, Outcome, Player};
use gametree_games_connect4::{Board, Column, Size};

/// The value of `b` for the side to move, by memoized negamax over every
/// position below it (`memo` by the board's unique key).
fn value(b: &mut Board, memo: &mut HashMap<u64, Outcome>) -> Outcome {
    if let Some(o) = b.outcome() {
        return o;
    }
    if let Some(&v) = memo.get(&b.key()) {
        return v;
    }
    let mut best = Outcome::Loss;
    for c in 0..b.size().width() {
        let col = Column::new(c).expect("small board");
        if !b.can_play(col) {
            continue;
        }
        b.play(col);
        let v = value(b, memo).flip();
        b.undo();
        if v > best {
            best = v;
        }
        if best == Outcome::Win {
            break;
        }
    }
    memo.insert(b.key(), best);
    best
}

/// Every line of four cells of the board, as (column, row) lists.
fn lines(size: Size) -> Vec<[(usize, usize); 4]> {
    let (w, h) = (size.width() as i64, size.height() as i64);
    let mut out = Vec::new();
    for c in 0..w {
        for r in 0..h {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let cells = [0, 1, 2, 3].map(|i| (c + i * dc, r + i * dr));
                if cells
                    .iter()
                    .all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
                {
                    out.push(cells.map(|(x, y)| (x as usize, y as usize)));
                }
            }
        }
    }
    out
}

/// What the definitions, cell by cell, say of `player`.
struct Rules {
    /// No four fits in the player's stones and the empty cells.
    no_room: bool,
    /// The opponent's claimeven leaves the player no four.
    claimeven: bool,
    /// Claimeven without its condition on the columns (a deliberately
    /// wrong rule the brute force must catch).
    careless: bool,
    /// The opponent's claimeven completes a four, the player's cells hold
    /// none: the player loses.
    lost: bool,
    /// The loss rule without the player's side of it (wrong on purpose).
    careless_lost: bool,
}

fn by_definition(b: &Board, player: Player, lines: &[[(usize, usize); 4]]) -> Rules {
    let size = b.size();
    let fits = |owned: &dyn Fn(usize, usize) -> bool| {
        lines.iter().any(|l| l.iter().all(|&(c, r)| owned(c, r)))
    };
    let mine_or_empty = |c, r| b.stone_at(c, r).is_none_or(|p| p == player);
    let no_room = !fits(&mine_or_empty);
    let stones = |c: usize| {
        (0..size.height())
            .filter(|&r| b.stone_at(c, r).is_some())
            .count()
    };
    let to_move = b.side_to_move() == player;
    let even_height = size.height().is_multiple_of(2);
    let lower_cells = |c: usize, r: usize| match b.stone_at(c, r) {
        Some(p) => p == player,
        None => (r - stones(c)).is_multiple_of(2),
    };
    let upper_cells = |c: usize, r: usize| match b.stone_at(c, r) {
        Some(p) => p != player,
        None => !(r - stones(c)).is_multiple_of(2),
    };
    let all_even = (0..size.width()).all(|c| stones(c).is_multiple_of(2));
    let applies = to_move && even_height && all_even;
    let opponent_four = fits(&upper_cells);
    Rules {
        no_room,
        claimeven: applies && !fits(&lower_cells),
        careless: to_move && !fits(&lower_cells),
        lost: applies && !fits(&lower_cells) && opponent_four,
        careless_lost: applies && opponent_four,
    }
}

/// Tallies of one board's positions.
#[derive(Debug, Default)]
struct Tally {
    positions: usize,
    no_room: usize,
    claimeven_only: usize,
    careless_wrong: usize,
    lost: usize,
    careless_lost_wrong: usize,
}

/// Walks every position of a `w × h` board, checking both rules against
/// their definitions and the exhaustive value.
fn check_board(w: usize, h: usize) -> Tally {
    let size = Size::new(w, h).expect("small board");
    let lines = lines(size);
    let mut memo = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Board::new(size)];
    let mut t = Tally::default();
    while let Some(mut b) = stack.pop() {
        if !seen.insert(b.key()) || b.outcome().is_some() {
            continue;
        }
        t.positions += 1;
        for player in [Player::First, Player::Second] {
            let rules = by_definition(&b, player, &lines);
            let claimed = b.cannot_win(player);
            assert_eq!(
                claimed,
                rules.no_room || rules.claimeven,
                "{w}x{h} {b:?}: cannot_win({player:?}) against its definition"
            );
            let lost = b.cannot_draw(player);
            assert_eq!(
                lost, rules.lost,
                "{w}x{h} {b:?}: cannot_draw({player:?}) against its definition"
            );
            let v = value(&mut b, &mut memo);
            let (wins, loses) = if player == b.side_to_move() {
                (v == Outcome::Win, v == Outcome::Loss)
            } else {
                (v == Outcome::Loss, v == Outcome::Win)
            };
            assert!(
                !(claimed && wins),
                "{w}x{h} {b:?}: {player:?} wins though cannot_win says not"
            );
            assert!(
                !lost || loses,
                "{w}x{h} {b:?}: {player:?} does not lose though cannot_draw says so"
            );
            t.no_room += usize::from(rules.no_room);
            t.claimeven_only += usize::from(rules.claimeven && !rules.no_room);
            t.careless_wrong += usize::from(rules.careless && wins);
            t.lost += usize::from(lost);
            t.careless_lost_wrong += usize::from(rules.careless_lost && !loses);
        }
        for c in 0..w {
            let col = Column::new(c).expect("small board");
            if b.can_play(col) {
                let mut next = b;
                next.play(col);
                stack.push(next);
            }
        }
    }
    t
}

#[test]
fn win_bounds_are_sound_on_every_position_of_small_boards() {
    for (w, h) in [(4, 4), (5, 4), (4, 5), (3, 6), (6, 3)] {
        let t = check_board(w, h);
        assert!(
            t.no_room > 0,
            "{w}x{h}: the no-room rule never applied: {t:?}"
        );
        if h.is_multiple_of(2) {
            assert!(
                t.claimeven_only > 0,
                "{w}x{h}: claimeven never added a bound: {t:?}"
            );
            // (Three columns hold no horizontal or diagonal four, and the
            // upper cells of one column no vertical one.)
            assert!(w < 4 || t.lost > 0, "{w}x{h}: no loss to claimeven: {t:?}");
        } else {
            assert_eq!(
                (t.claimeven_only, t.lost),
                (0, 0),
                "{w}x{h}: claimeven on an odd height: {t:?}"
            );
        }
        // The test has teeth: the same rule without its condition on the
        // columns claims wrongly somewhere.
        if (w, h) == (5, 4) {
            assert!(
                t.careless_wrong > 0 && t.careless_lost_wrong > 0,
                "{w}x{h}: a careless rule was never caught: {t:?}"
            );
        }
    }
}

#[test]
fn the_empty_standard_board_has_no_bound_and_claimeven_needs_even_columns() {
    let b = Board::standard();
    assert!(!b.cannot_win(Player::First));
    assert!(!b.cannot_win(Player::Second));
    // First player to move; the second player answers in the same column:
    // here the first player's lower cells (rows 1, 3, 5) hold no four.
    let mut b: Board = "444".parse().expect("valid");
    assert_eq!(b.side_to_move(), Player::Second);
    assert!(!b.cannot_win(Player::Second), "column 4 holds three stones");
    b.play(Column::new(3).expect("column"));
    assert!(
        !b.cannot_win(Player::First),
        "rows 1, 3, 5 hold horizontal fours"
    );
}
