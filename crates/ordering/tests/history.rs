//! The history table against an exact model in `i128` arithmetic: it never
//! overflows, whatever the update sequence, and each policy does what its
//! formula says.

mod common;

use common::{Mv, Toy};
use gametree_game::Player;
use gametree_ordering::{History, Policy, tuning};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Reward(Player, u16, u32),
    Penalize(Player, u16, u32),
    Cutoff(Player, u16, Vec<u16>, u32),
    Decay,
    Clear,
}

fn depth() -> impl Strategy<Value = u32> {
    prop_oneof![0..40u32, any::<u32>(), Just(u32::MAX), 14..18u32]
}

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::First), Just(Player::Second)]
}

fn op() -> impl Strategy<Value = Op> {
    let m = 0..8u16; // few moves, so scores pile up and saturate
    prop_oneof![
        8 => (player(), m.clone(), depth()).prop_map(|(p, m, d)| Op::Reward(p, m, d)),
        4 => (player(), m.clone(), depth()).prop_map(|(p, m, d)| Op::Penalize(p, m, d)),
        8 => (player(), m.clone(), proptest::collection::vec(m, 0..6), depth())
            .prop_map(|(p, b, t, d)| Op::Cutoff(p, b, t, d)),
        1 => Just(Op::Decay),
        1 => Just(Op::Clear),
    ]
}

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::Textbook),
        Just(Policy::DepthSquared),
        Just(Policy::Gravity)
    ]
}

/// The formulas, written out in wide arithmetic.
struct Model {
    policy: Policy,
    malus: bool,
    table: Vec<i128>,
}

impl Model {
    fn bonus(&self, depth: u32) -> i128 {
        let d = i128::from(depth);
        match self.policy {
            Policy::Textbook => 4i128.pow(depth.min(15)),
            Policy::DepthSquared => (d * d).min(1 << 30),
            Policy::Gravity => (16 * d * d).min(2048),
        }
    }
    fn limit(&self) -> i128 {
        match self.policy {
            Policy::Gravity => 16_384,
            _ => i128::from(i32::MAX),
        }
    }
    fn add(&mut self, slot: usize, delta: i128) {
        let h = self.table[slot];
        let next = match self.policy {
            Policy::Gravity => h + delta - h * delta.abs() / 16_384,
            _ => h + delta,
        };
        self.table[slot] = next.clamp(-self.limit(), self.limit());
    }
    fn apply(&mut self, op: &Op) {
        let slot = |p: Player, m: u16| p.index() * Mv::COUNT + usize::from(m);
        match op {
            Op::Reward(p, m, d) => self.add(slot(*p, *m), self.bonus(*d)),
            Op::Penalize(p, m, d) => self.add(slot(*p, *m), -self.bonus(*d)),
            Op::Cutoff(p, b, tried, d) => {
                let bonus = self.bonus(*d);
                self.add(slot(*p, *b), bonus);
                if self.malus {
                    for m in tried.iter().filter(|&m| m != b) {
                        self.add(slot(*p, *m), -bonus);
                    }
                }
            }
            Op::Decay => self.table.iter_mut().for_each(|h| *h /= 2),
            Op::Clear => self.table.iter_mut().for_each(|h| *h = 0),
        }
    }
}

fn apply(history: &mut History<Toy>, op: &Op) {
    match op {
        Op::Reward(p, m, d) => history.reward(*p, Mv(*m), *d),
        Op::Penalize(p, m, d) => history.penalize(*p, Mv(*m), *d),
        Op::Cutoff(p, b, tried, d) => {
            history.on_cutoff(*p, Mv(*b), tried.iter().map(|&m| Mv(m)), *d);
        }
        Op::Decay => history.decay(),
        Op::Clear => history.clear(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Overflow checks are on in tests: an overflow anywhere would panic.
    #[test]
    fn history_never_overflows_and_matches_the_model(
        policy in policy(),
        malus in any::<bool>(),
        ops in proptest::collection::vec(op(), 0..300),
    ) {
        let mut history = History::<Toy>::new(policy).with_malus(malus);
        let mut model = Model { policy, malus, table: vec![0; 2 * Mv::COUNT] };
        for op in &ops {
            let before: Vec<i32> = (0..8).map(|m| history.score(Player::First, Mv(m))).collect();
            apply(&mut history, op);
            model.apply(op);
            prop_assert!(i128::from(history.max_magnitude()) <= model.limit());
            prop_assert!(history.max_magnitude() <= policy.limit());
            for p in [Player::First, Player::Second] {
                for m in 0..8u16 {
                    let slot = p.index() * Mv::COUNT + usize::from(m);
                    prop_assert_eq!(i128::from(history.score(p, Mv(m))), model.table[slot]);
                }
            }
            // Direction: a reward never lowers a score, a penalty never raises it.
            match *op {
                Op::Reward(Player::First, m, _) | Op::Cutoff(Player::First, m, _, _) => {
                    prop_assert!(history.score(Player::First, Mv(m)) >= before[usize::from(m)]);
                }
                Op::Penalize(Player::First, m, _) => {
                    prop_assert!(history.score(Player::First, Mv(m)) <= before[usize::from(m)]);
                }
                _ => {}
            }
        }
    }

    /// Rewarding one move forever saturates at the limit, exactly, without
    /// overflowing; the same for penalising.
    #[test]
    fn saturates_at_the_limit(policy in policy(), depth in 1..u32::MAX) {
        let mut history = History::<Toy>::new(policy);
        for _ in 0..200_000 {
            history.reward(Player::Second, Mv(1), depth);
            history.penalize(Player::Second, Mv(2), depth);
            if history.score(Player::Second, Mv(1)) == policy.limit() {
                break;
            }
        }
        prop_assert!(history.score(Player::Second, Mv(1)) <= policy.limit());
        prop_assert!(history.score(Player::Second, Mv(2)) >= -policy.limit());
        if policy != Policy::Gravity {
            // Saturation is reached by the additive policies.
            prop_assert_eq!(history.score(Player::Second, Mv(1)), policy.limit());
        }
    }
}

#[test]
fn gravity_converges_to_the_bound_only_asymptotically() {
    let mut history = History::<Toy>::new(Policy::Gravity);
    let mut last = 0;
    for _ in 0..10_000 {
        history.reward(Player::First, Mv(0), 100);
        let h = history.score(Player::First, Mv(0));
        assert!(h >= last && h <= tuning::HISTORY_MAX);
        last = h;
    }
    // Close to the bound (within one bonus's rounding) but never beyond.
    assert!(last > tuning::HISTORY_MAX - tuning::GRAVITY_BONUS_MAX);
}

#[test]
fn policies_order_depths() {
    for policy in [Policy::Textbook, Policy::DepthSquared, Policy::Gravity] {
        let mut last = -1;
        for d in 0..200 {
            let b = policy.bonus(d);
            assert!(b >= last, "{policy:?} bonus decreases at depth {d}");
            last = b;
        }
    }
    assert_eq!(Policy::Textbook.bonus(3), 64);
    assert_eq!(Policy::DepthSquared.bonus(3), 9);
}

#[test]
fn a_number_out_of_range_shares_a_slot_instead_of_panicking() {
    let mut history = History::<Toy>::new(Policy::Gravity);
    history.reward(Player::First, Mv(3), 4);
    let beyond = Mv(Mv::COUNT as u16 + 3);
    assert_eq!(
        history.score(Player::First, beyond),
        history.score(Player::First, Mv(3))
    );
}
