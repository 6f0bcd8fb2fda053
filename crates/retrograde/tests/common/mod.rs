//! Helpers shared by the integration tests: a plain negamax solver (the
//! reference every table is compared with) and a space wrapper that keeps a
//! slice of another space, so that moves leave it.
#![allow(dead_code, unreachable_pub)]

use gametree_game::{Game, IndexSpace, MoveBuffer, Outcome, Predecessors};
use gametree_retrograde::Value;

/// Plain negamax to the end of the game: the exact value with the distance
/// (shortest win, longest loss). No pruning, no table.
pub fn solve<G: Game>(g: &mut G) -> Value {
    match g.outcome() {
        Some(Outcome::Loss) => return Value::Loss(0),
        Some(Outcome::Draw) => return Value::Draw,
        Some(Outcome::Win) => unreachable!("no game here wins on its own move"),
        None => {}
    }
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let mut best: Option<Value> = None;
    for &m in moves.as_slice() {
        let undo = g.make(m);
        let v = solve(g).parent();
        g.unmake(m, undo);
        best = Some(match best {
            None => v,
            Some(b) => better(b, v),
        });
    }
    best.expect("a position that is not over has moves")
}

/// The better of two values for the side to move.
pub fn better(a: Value, b: Value) -> Value {
    fn rank(v: Value) -> i32 {
        match v {
            Value::Win(d) => 100_000 - i32::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -100_000 + i32::from(d),
        }
    }
    if rank(b) > rank(a) { b } else { a }
}

/// The positions of `inner` whose `layer` lies in `range` (e.g. tic-tac-toe
/// boards with at least five marks), numbered as `inner` numbers them.
pub struct Slice<S, F> {
    pub inner: S,
    pub layer: F,
    pub range: core::ops::Range<u32>,
}

impl<S: IndexSpace, F: Fn(&S::Game) -> u32> Slice<S, F> {
    fn keeps(&self, p: &S::Game) -> bool {
        self.range.contains(&(self.layer)(p))
    }
}

impl<S: IndexSpace, F: Fn(&S::Game) -> u32> IndexSpace for Slice<S, F> {
    type Game = S::Game;
    fn size(&self) -> u64 {
        self.inner.size()
    }
    fn position(&self, index: u64) -> Option<S::Game> {
        self.inner.position(index).filter(|p| self.keeps(p))
    }
    fn index_of(&self, position: &S::Game) -> Option<u64> {
        if self.keeps(position) {
            self.inner.index_of(position)
        } else {
            None
        }
    }
}

impl<S: Predecessors, F: Fn(&S::Game) -> u32> Predecessors for Slice<S, F> {
    fn predecessors(&self, position: &S::Game, found: &mut dyn FnMut(u64)) {
        self.inner.predecessors(position, &mut |i| {
            if self.position(i).is_some() {
                found(i);
            }
        });
    }
}

/// A space whose predecessor generator is broken on purpose: it drops
/// every `drop`-th predecessor and, when `spurious`, reports index 0 too.
pub struct Faulty<S> {
    pub inner: S,
    pub drop: u64,
    pub spurious: bool,
}

impl<S: IndexSpace> IndexSpace for Faulty<S> {
    type Game = S::Game;
    fn size(&self) -> u64 {
        self.inner.size()
    }
    fn position(&self, index: u64) -> Option<S::Game> {
        self.inner.position(index)
    }
    fn index_of(&self, position: &S::Game) -> Option<u64> {
        self.inner.index_of(position)
    }
}

impl<S: Predecessors> Predecessors for Faulty<S> {
    fn predecessors(&self, position: &S::Game, found: &mut dyn FnMut(u64)) {
        let mut n = 0;
        self.inner.predecessors(position, &mut |i| {
            n += 1;
            if self.drop == 0 || n % self.drop != 0 {
                found(i);
            }
        });
        if self.spurious {
            found(0);
        }
    }
}
