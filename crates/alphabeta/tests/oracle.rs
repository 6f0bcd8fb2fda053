//! A searcher asked with an oracle (`Request::oracle`) returns plain
//! negamax's values: on every tic-tac-toe position with oracles that know
//! the positions of `k` marks or more, on a game whose moves sometimes
//! keep the turn, on one and on two threads, with a retrograde database;
//! the root is never probed.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrayvec::ArrayVec;
use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver, negamax_solve};
use gametree_game::{Game, Oracle, Outcome, Player, Score};
use gametree_games_tictactoe::TicTacToe;

/// Every non-terminal position reachable from the empty board.
fn reachable() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.hash()) || p.outcome().is_some() {
            continue;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        p.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = p;
            c.make(m);
            stack.push(c);
        }
        out.push(p);
    }
    out
}

/// Plain negamax on the positions of at least `k` marks (values computed
/// once, by position).
fn from_marks(k: u32) -> Arc<dyn Oracle<TicTacToe>> {
    let values: HashMap<u64, Score> = reachable()
        .iter()
        .map(|p| (p.hash(), negamax_solve(&mut { *p }).value))
        .collect();
    Arc::new(move |p: &TicTacToe| (p.marks() >= k).then(|| values[&p.hash()]))
}

#[test]
fn tictactoe_values_equal_negamax_with_every_oracle() {
    let positions = reachable();
    assert_eq!(positions.len(), 4520);
    let expected: Vec<Score> = positions
        .iter()
        .map(|p| negamax_solve(&mut { *p }).value)
        .collect();
    let none = Limits::none();
    for k in [0, 3, 6, 8] {
        for threads in [1, 2] {
            let mut s = AlphaBeta::<TicTacToe>::new(Config::default().threads(threads)).unwrap();
            let oracle = from_marks(k);
            let mut hits = 0;
            for (p, &want) in positions.iter().zip(&expected) {
                let mut request = Request::new(&none).find(Find::Score).oracle(&*oracle);
                let report = s.solve(&mut { *p }, &mut request);
                assert_eq!(
                    report.score,
                    Some(want),
                    "{p} with oracle from {k} marks, {threads} thread(s)"
                );
                // The line is played out to the end and keeps the value.
                let mut q = *p;
                for &m in &report.line {
                    q.try_make(m).unwrap();
                }
                if want.is_decisive() {
                    assert_eq!(
                        report.line.len() as u32,
                        want.plies_to_end().unwrap(),
                        "{p}"
                    );
                    assert_eq!(q.outcome(), Some(Outcome::Loss), "{p}");
                }
                hits += report.stats.oracle_hits;
            }
            assert!(hits > 0, "the oracle from {k} marks was never asked");
        }
    }
}

#[test]
fn a_retrograde_database_is_an_oracle() {
    use gametree_games_tictactoe::index::BoardIndex;
    use gametree_retrograde::{Generator, Method, TableProbe};
    // The request borrows the oracle: a database on the stack will do.
    let space = BoardIndex::plain();
    let table = Generator::new(&space).build(Method::Backward).unwrap();
    let db = TableProbe::new(&space, &table).unwrap();
    let mut s = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let none = Limits::none();
    let mut hits = 0;
    for p in reachable() {
        let mut request = Request::new(&none).find(Find::Score).oracle(&db);
        let report = s.solve(&mut { p }, &mut request);
        assert_eq!(report.score, Some(negamax_solve(&mut { p }).value), "{p}");
        hits += report.stats.oracle_hits;
    }
    assert!(hits > 0);
}

#[test]
fn depth_one_search_with_a_complete_oracle_is_exact() {
    let mut s = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let oracle = from_marks(0);
    let depth = Limits::depth(1);
    for p in reachable().iter().step_by(7) {
        let want = negamax_solve(&mut { *p }).value;
        let report = s.search(&mut { *p }, &mut Request::new(&depth).oracle(&*oracle));
        assert_eq!(report.value, want, "{p}");
        let best = report.best.expect("a move");
        let mut c = *p;
        c.make(best);
        assert_eq!(
            negamax_solve(&mut c).value.back_up(false),
            want,
            "{p}: {best}"
        );
    }
}

#[test]
fn the_root_is_searched_not_probed() {
    // An oracle that lies about the root only: the answer is unaffected.
    let root: TicTacToe = "X...O....".parse().unwrap();
    let key = root.hash();
    let mut s = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let liar = move |p: &TicTacToe| (p.hash() == key).then_some(Score::win_in(1));
    let none = Limits::none();
    let mut request = Request::new(&none).find(Find::Score).oracle(&liar);
    let report = s.solve(&mut { root }, &mut request);
    assert_eq!(report.score, Some(Score::DRAW));
    assert!(report.best.is_some());
    // The oracle belongs to its request: the next one, without it, asks
    // none.
    s.clear();
    let report = s.solve(&mut { root }, &mut Request::new(&none).find(Find::Score));
    assert_eq!(report.score, Some(Score::DRAW));
    assert_eq!(report.stats.oracle_hits, 0);
}

/// Take one or two stones; whoever takes the last stone wins; taking two
/// stones (and leaving some) keeps the turn.
#[derive(Clone, Debug)]
struct Greedy {
    stones: u32,
    to_move: Player,
    history: Vec<Player>,
}

impl Game for Greedy {
    type Move = u32;
    type Undo = ();
    type Moves = ArrayVec<u32, 2>;
    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        for take in 1..=2.min(self.stones) {
            out.push(take);
        }
    }
    fn make(&mut self, m: u32) {
        self.history.push(self.to_move);
        self.stones -= m;
        if m == 1 || self.stones == 0 {
            self.to_move = self.to_move.opponent();
        }
    }
    fn unmake(&mut self, m: u32, _: ()) {
        self.stones += m;
        self.to_move = self.history.pop().unwrap();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }
}

#[test]
fn moves_that_keep_the_turn_keep_the_oracle_sign() {
    for n in 1..=14 {
        for k in [1, 4, 9] {
            let mut g = Greedy {
                stones: n,
                to_move: Player::First,
                history: Vec::new(),
            };
            let want = negamax_solve(&mut g.clone()).value;
            let mut s = AlphaBeta::<Greedy>::new(Config::default()).unwrap();
            let oracle =
                move |p: &Greedy| (p.stones <= k).then(|| negamax_solve(&mut p.clone()).value);
            let none = Limits::none();
            let mut request = Request::new(&none).find(Find::Score).oracle(&oracle);
            assert_eq!(
                s.solve(&mut g, &mut request).score,
                Some(want),
                "{n} stones, oracle to {k}"
            );
        }
    }
}
