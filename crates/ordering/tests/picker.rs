//! The staged picker against a plain reference: the full, stable sort of the
//! move list into the same stages.

mod common;

use common::{Moves, Mv, Toy};
use gametree_game::{Game, Player};
use gametree_ordering::{History, MovePicker, NoHistory, Policy, QuietOrder, Stage};
use proptest::prelude::*;

/// A history stand-in with arbitrary (often tied) scores.
#[derive(Debug)]
struct Table(Vec<i32>);

impl QuietOrder<Mv> for Table {
    fn quiet_score(&self, side: Player, m: Mv) -> i32 {
        // Different per side, to catch a picker that scores the wrong side.
        self.0[m.index()] + if side == Player::First { 0 } else { 1000 }
    }
}

#[derive(Clone, Debug)]
struct Case {
    legal: Vec<Mv>,
    tactical: Vec<Option<i32>>,
    scores: Vec<i32>,
    tt: Option<Mv>,
    killers: Vec<Mv>,
    counter: Option<Mv>,
    side: Player,
    use_tactical: bool,
    use_history: bool,
}

/// Moves drawn from a small range so suggestions often hit (and sometimes
/// miss: illegal suggestions must be ignored).
fn any_move(range: u16) -> impl Strategy<Value = Mv> {
    (0..range).prop_map(Mv)
}

fn case(max_moves: usize, range: u16) -> impl Strategy<Value = Case> {
    (
        proptest::sample::subsequence(
            (0..range).collect::<Vec<_>>(),
            0..=max_moves.min(range as usize),
        )
        .prop_shuffle(),
        proptest::collection::vec(proptest::option::weighted(0.3, -3..4i32), Mv::COUNT),
        proptest::collection::vec(-5..5i32, Mv::COUNT),
        proptest::option::of(any_move(range + 8)),
        proptest::collection::vec(any_move(range + 8), 0..4),
        proptest::option::of(any_move(range + 8)),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(legal, tactical, scores, tt, killers, counter, first, use_tactical, use_history)| {
                Case {
                    legal: legal.into_iter().map(Mv).collect(),
                    tactical,
                    scores,
                    tt,
                    killers,
                    counter,
                    side: if first { Player::First } else { Player::Second },
                    use_tactical,
                    use_history,
                }
            },
        )
}

/// What each yielded move is judged by: its stage and a key that the
/// reference fixes (the move itself where the order is fully determined,
/// the score where ties may come in any order).
type Key = (Stage, i64);

/// The reference: remove the stages one by one from the generated list and
/// sort each by a stable full sort.
fn reference<const K: usize>(c: &Case, game: &Toy, quiet: &dyn Fn(Mv) -> i32) -> Vec<Key> {
    let mut rest = c.legal.clone();
    let mut out = Vec::new();
    let take = |rest: &mut Vec<Mv>, m: Mv| -> bool {
        match rest.iter().position(|&x| x == m) {
            Some(i) => {
                rest.remove(i);
                true
            }
            None => false,
        }
    };
    if let Some(tt) = c.tt
        && take(&mut rest, tt)
    {
        out.push((Stage::TtMove, i64::from(tt.0)));
    }
    if c.use_tactical {
        let mut tactical: Vec<(Mv, i32)> = rest
            .iter()
            .filter_map(|&m| game.tactical[m.index()].map(|s| (m, s)))
            .collect();
        tactical.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        for (m, s) in tactical {
            take(&mut rest, m);
            out.push((Stage::Tactical, i64::from(s)));
        }
    }
    for &k in c.killers.iter().take(K) {
        if take(&mut rest, k) {
            out.push((Stage::Killers, i64::from(k.0)));
        }
    }
    if let Some(counter) = c.counter
        && take(&mut rest, counter)
    {
        out.push((Stage::CounterMove, i64::from(counter.0)));
    }
    let mut quiets: Vec<i32> = rest.iter().map(|&m| quiet(m)).collect();
    quiets.sort_by_key(|&s| std::cmp::Reverse(s));
    out.extend(quiets.into_iter().map(|s| (Stage::Quiet, i64::from(s))));
    out
}

fn run<const K: usize, const N: usize, H: QuietOrder<Mv>>(
    c: &Case,
    history: &H,
) -> Result<(), TestCaseError> {
    let game = Toy::new(c.legal.clone(), c.tactical.clone(), c.side);
    let quiet = |m: Mv| {
        if history.orders() {
            history.quiet_score(c.side, m)
        } else {
            0
        }
    };
    let expected = reference::<K>(c, &game, &quiet);

    let mut moves = Moves::default();
    game.generate(&mut moves);
    let mut picker: MovePicker<Toy, K, N> = if c.use_tactical {
        MovePicker::new_tactical(c.tt)
    } else {
        MovePicker::new(c.tt)
    };
    picker = picker.with_killers(&c.killers).with_counter(c.counter);

    let mut yielded = Vec::new();
    let mut keys = Vec::new();
    let mut quiets = Vec::new();
    while let Some(m) = picker.next(&game, &mut moves, history) {
        prop_assert!(yielded.len() < c.legal.len(), "more moves than generated");
        let stage = picker.stage();
        let key = match stage {
            Stage::TtMove | Stage::Killers | Stage::CounterMove => i64::from(m.0),
            Stage::Tactical => i64::from(game.tactical[m.index()].unwrap()),
            Stage::Quiet => i64::from(quiet(m)),
            Stage::Done => unreachable!("a move yielded as Done"),
        };
        let tactical = c.use_tactical && game.tactical[m.index()].is_some();
        prop_assert_eq!(
            picker.last_is_quiet(),
            !tactical,
            "{:?} classified wrongly",
            m
        );
        if !tactical {
            quiets.push(m);
        }
        yielded.push(m);
        keys.push((stage, key));
        // The buffer's prefix is the yield order, and quiets_tried reads it.
        prop_assert_eq!(&moves.as_slice()[..yielded.len()], &yielded[..]);
        prop_assert_eq!(
            picker.quiets_tried(&moves).collect::<Vec<_>>(),
            quiets.clone()
        );
    }
    prop_assert_eq!(picker.stage(), Stage::Done);
    prop_assert_eq!(picker.next(&game, &mut moves, history), None);
    prop_assert_eq!(&keys, &expected);
    let mut sorted = yielded.clone();
    sorted.sort();
    let mut legal = c.legal.clone();
    legal.sort();
    prop_assert_eq!(sorted, legal, "not a permutation of the legal moves");
    Ok(())
}

fn run_all<const K: usize, const N: usize>(c: &Case) -> Result<(), TestCaseError> {
    if c.use_history {
        run::<K, N, _>(c, &Table(c.scores.clone()))
    } else {
        run::<K, N, _>(c, &NoHistory)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn picker_matches_the_full_sort(c in case(40, 48)) {
        run_all::<2, 256>(&c)?;
        run_all::<3, 256>(&c)?;
        run_all::<0, 256>(&c)?;
    }

    /// A cache far smaller than the move list: the uncached scores are
    /// recomputed and the result must not change.
    #[test]
    fn picker_with_a_tiny_cache(c in case(60, 100)) {
        run_all::<2, 3>(&c)?;
        run_all::<2, 1>(&c)?;
        run_all::<1, 0>(&c)?;
    }

    /// The real history table as the quiet order.
    #[test]
    fn picker_with_history(
        c in case(40, 48),
        updates in proptest::collection::vec((0..48u16, 0..20u32, any::<bool>()), 0..60),
    ) {
        let mut history = History::<Toy>::new(Policy::Gravity);
        for (m, depth, good) in updates {
            if good { history.reward(c.side, Mv(m), depth) } else { history.penalize(c.side, Mv(m), depth) }
        }
        run::<2, 256, _>(&c, &history)?;
        run::<2, 4, _>(&c, &history)?;
    }
}

#[test]
fn empty_list_yields_nothing() {
    let game = Toy::new(Vec::new(), vec![Some(1); Mv::COUNT], Player::First);
    let mut moves = Moves::default();
    game.generate(&mut moves);
    let mut picker = MovePicker::<Toy>::new_tactical(Some(Mv(3)))
        .with_killers(&[Mv(1)])
        .with_counter(Some(Mv(2)));
    assert_eq!(picker.next(&game, &mut moves, &NoHistory), None);
    assert_eq!(picker.stage(), Stage::Done);
    assert_eq!(picker.quiets_tried(&moves).count(), 0);
}
