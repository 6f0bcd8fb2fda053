//! The move picker against the generated move list, on m,n,k positions.
//!
//! Whatever the TT move, killers, counter-move (legal or not, on the board
//! or not) and history, the picker must yield every generated move exactly
//! once and nothing else, the TT move first when it is legal, with stages in
//! order, and leave its buffer a permutation of the generated list.

use arbitrary::Arbitrary;
use gametree_game::{Game, MoveBuffer};
use gametree_games_mnk::{Mnk, Move};
use gametree_ordering::{History, MovePicker, NoHistory, Policy, QuietOrder, Stage};

/// A fuzz case: a position and the picker's hints.
#[derive(Arbitrary, Clone, Debug)]
pub struct Case {
    /// Board columns, rows and line length (each reduced to `1..=19`).
    pub size: (u8, u8, u8),
    /// The playout reaching the position.
    pub choices: Vec<u16>,
    /// The TT move (column, row), on the board or not.
    pub tt: Option<(u8, u8)>,
    /// The killers.
    pub killers: Vec<(u8, u8)>,
    /// The counter-move.
    pub counter: Option<(u8, u8)>,
    /// History updates: reward (or penalise) the move for the side to move
    /// (or the other side) at a depth.
    pub history: Vec<(bool, bool, (u8, u8), u8)>,
    /// History policy selector (modulo 4: three policies or no history).
    pub policy: u8,
    /// Use the tactical stage.
    pub tactical: bool,
    /// Use a tiny score cache (4 moves), so that most moves are rescored.
    pub small_cache: bool,
}

fn mv((c, r): (u8, u8)) -> Move {
    Move::new(c % 19, r % 19).expect("below 19")
}

/// Runs the case.
///
/// # Panics
///
/// When the picker breaks an invariant.
pub fn run(case: &Case) {
    let (m, n, k) = case.size;
    let Ok(start) = Mnk::new(1 + m % 19, 1 + n % 19, 1 + k % 19) else {
        return;
    };
    let game = crate::games::reach(&start, &case.choices, 400);
    let tt = case.tt.map(mv);
    let killers: Vec<Move> = case.killers.iter().take(4).copied().map(mv).collect();
    let counter = case.counter.map(mv);
    let policy = match case.policy % 4 {
        0 => Some(Policy::Textbook),
        1 => Some(Policy::DepthSquared),
        2 => Some(Policy::Gravity),
        _ => None,
    };
    let hints = Hints {
        tt,
        killers: &killers,
        counter,
        tactical: case.tactical,
    };
    match policy {
        Some(p) => {
            let mut history = History::<Mnk>::new(p);
            let side = game.side_to_move();
            for &(reward, own, at, depth) in case.history.iter().take(64) {
                let who = if own { side } else { side.opponent() };
                if reward {
                    history.reward(who, mv(at), u32::from(depth));
                } else {
                    history.penalize(who, mv(at), u32::from(depth));
                }
            }
            dispatch(&game, &hints, &history, case.small_cache);
        }
        None => dispatch(&game, &hints, &NoHistory, case.small_cache),
    }
}

struct Hints<'a> {
    tt: Option<Move>,
    killers: &'a [Move],
    counter: Option<Move>,
    tactical: bool,
}

fn dispatch<H: QuietOrder<Move>>(game: &Mnk, hints: &Hints<'_>, history: &H, small: bool) {
    if small {
        permutation::<Mnk, H, 4>(game, hints, history);
    } else {
        permutation::<Mnk, H, { gametree_ordering::tuning::PICKER_CACHE }>(game, hints, history);
    }
}

fn permutation<G, H, const N: usize>(game: &G, hints: &Hints<'_>, history: &H)
where
    G: Game<Move = Move>,
    H: QuietOrder<Move>,
{
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let mut reference: Vec<Move> = moves.as_slice().to_vec();
    let picker = if hints.tactical {
        MovePicker::<G, 2, N>::new_tactical(hints.tt)
    } else {
        MovePicker::<G, 2, N>::new(hints.tt)
    };
    let mut picker = picker
        .with_killers(hints.killers)
        .with_counter(hints.counter);
    let mut yielded = Vec::new();
    let mut last_stage = Stage::TtMove;
    while let Some(m) = picker.next(game, &mut moves, history) {
        assert!(reference.contains(&m), "yielded {m}, not generated");
        assert!(!yielded.contains(&m), "yielded {m} twice");
        assert!(picker.stage() >= last_stage, "stage went back");
        assert!(picker.stage() < Stage::Done, "a move in stage Done");
        last_stage = picker.stage();
        yielded.push(m);
        assert_eq!(picker.yielded(), yielded.len(), "yield count");
        let tried: Vec<Move> = picker.quiets_tried(&moves).collect();
        assert!(
            tried.iter().all(|t| yielded.contains(t)),
            "quiets_tried lists a move not yielded"
        );
        assert!(
            yielded.len() <= reference.len(),
            "more moves than generated"
        );
    }
    assert_eq!(picker.stage(), Stage::Done, "stage after the last move");
    assert_eq!(
        picker.next(game, &mut moves, history),
        None,
        "a move after None"
    );
    if let Some(tt) = hints.tt.filter(|tt| reference.contains(tt)) {
        assert_eq!(yielded.first(), Some(&tt), "legal TT move not first");
    }
    assert_eq!(yielded.len(), reference.len(), "moves never yielded");
    let mut buffer = moves.as_slice().to_vec();
    buffer.sort();
    reference.sort();
    assert_eq!(
        buffer, reference,
        "the buffer is not a permutation any more"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    #[test]
    fn seeded_cases_yield_permutations() {
        let mut rng = SplitMix(3);
        for _ in 0..300 {
            let bytes = rng.bytes(200);
            crate::with_arbitrary(&bytes, |c: Case| run(&c));
        }
    }
}
