//! Every win that threat-space search reports is a real forced win within
//! its number of plies, checked against alpha-beta's exact values on random
//! m,n,k positions; games without threat knowledge are left alone.

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_game::{Game, Score};

/// `solver`'s exact score of `g`, solved without limits.
fn exact_score(solver: &mut AlphaBeta<Mnk>, g: &mut Mnk) -> Score {
    let none = Limits::none();
    solver
        .solve(g, &mut Request::new(&none).find(Find::Score))
        .score
        .expect("solved without limits")
}
use gametree_games_mnk::{Mnk, Moves};
use gametree_threats::{Error, ThreatConfig, ThreatSearch, applies};
use rand_core::Rng;
use rand_pcg::Pcg64;

/// Random positions of `m,n,k` after `from..` random moves, not over.
fn positions(m: u8, n: u8, k: u8, from: usize, count: usize, seed: u64) -> Vec<Mnk> {
    let mut rng = Pcg64::new(seed.into(), 0x7417);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Mnk::new(m, n, k).unwrap();
        let mut moves = Moves::default();
        for ply in 0.. {
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            if ply >= from {
                out.push(g.clone());
            }
            let mv = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(mv);
        }
    }
    out.truncate(count);
    out
}

#[test]
fn every_win_found_is_a_forced_win_within_its_plies() {
    let mut solver = AlphaBeta::<Mnk>::new(Config::default().memory(16 << 20)).unwrap();
    let mut search = ThreatSearch::new(ThreatConfig::default()).unwrap();
    let (mut wins, mut checked) = (0, 0);
    for &(m, n, k, from, count) in &[
        (4, 4, 3, 0, 300),
        (5, 4, 4, 2, 300),
        (5, 5, 4, 6, 300),
        (6, 5, 4, 12, 200),
        (7, 7, 5, 30, 100),
    ] {
        for mut g in positions(
            m,
            n,
            k,
            from,
            count,
            u64::from(m) * 31 + u64::from(n) * 7 + u64::from(k),
        ) {
            let before = g.clone();
            let found = search.find_win(&mut g);
            assert_eq!(g, before, "restored");
            let Some(win) = found else { continue };
            solver.clear();
            let exact = exact_score(&mut solver, &mut g);
            assert!(
                exact.is_win() && exact >= Score::win_in(win.plies),
                "{g}: threat win in {} plies by {}, exact {exact}",
                win.plies,
                win.first
            );
            // The first move keeps the win within one ply less.
            let mut child = g.clone();
            child.make(win.first);
            if child.outcome().is_none() {
                solver.clear();
                let after = exact_score(&mut solver, &mut child);
                assert!(
                    after <= Score::loss_in(win.plies - 1),
                    "{g}: {} then {after}",
                    win.first
                );
            }
            wins += 1;
            checked += 1;
        }
    }
    // The search finds something to check on these boards.
    assert!(wins >= 100, "{wins} wins ({checked} checked)");
    let s = search.stats();
    assert_eq!(s.wins, wins);
}

#[test]
fn a_found_win_does_not_depend_on_the_table() {
    // The same positions with a one-entry table and a fresh search each
    // time: the same answers.
    let mut shared = ThreatSearch::new(ThreatConfig::default()).unwrap();
    for mut g in positions(6, 6, 4, 6, 200, 9) {
        let mut fresh = ThreatSearch::new(ThreatConfig::default().table_entries(1)).unwrap();
        let a = shared.find_win(&mut g).is_some();
        let b = fresh.find_win(&mut g).is_some();
        assert_eq!(a, b, "{g}");
    }
}

#[test]
fn limits_and_errors() {
    assert_eq!(
        ThreatSearch::new(ThreatConfig::new().table_entries(0)).unwrap_err(),
        Error::TableSize(0)
    );
    assert!(Error::TableSize(0).to_string().contains("entries"));
    // No threats allowed: only an immediate win is found.
    let mut none = ThreatSearch::new(ThreatConfig::new().depth(0)).unwrap();
    let mut g = Mnk::new(7, 7, 4).unwrap();
    for mv in ["c4", "a1", "d4", "a7"] {
        g.make(mv.parse().unwrap());
    }
    assert_eq!(none.find_win(&mut g), None);
    let mut some = ThreatSearch::new(ThreatConfig::new()).unwrap();
    assert!(some.find_win(&mut g).is_some());
    // A game without threat knowledge is never searched.
    assert!(applies::<Mnk>());
    assert!(!applies::<gametree_games_tictactoe::TicTacToe>());
    let mut t = gametree_games_tictactoe::TicTacToe::new();
    assert_eq!(some.find_win(&mut t), None);
}

/// m,n,k whose threat list is every legal move: most "threats" then leave
/// the defender many replies, which the search must not mistake for forced.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Loose(Mnk);

impl Game for Loose {
    type Move = <Mnk as Game>::Move;
    type Undo = <Mnk as Game>::Undo;
    type Moves = Moves;
    const KNOWLEDGE: gametree_game::Knowledge = Mnk::KNOWLEDGE;
    fn side_to_move(&self) -> gametree_game::Player {
        self.0.side_to_move()
    }
    fn generate(&self, out: &mut Moves) {
        self.0.generate(out);
    }
    fn make(&mut self, m: Self::Move) {
        self.0.make(m);
    }
    fn unmake(&mut self, m: Self::Move, undo: ()) {
        self.0.unmake(m, undo);
    }
    fn outcome(&self) -> Option<gametree_game::Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn winning_move(&self) -> Option<Self::Move> {
        self.0.winning_move()
    }
    fn non_losing_moves(&self, out: &mut Moves) {
        self.0.non_losing_moves(out);
    }
    fn threat_moves(&self, out: &mut Moves) {
        self.0.generate(out);
    }
}

#[test]
fn a_loose_threat_list_finds_only_real_wins() {
    let mut solver = AlphaBeta::<Mnk>::new(Config::default().memory(16 << 20)).unwrap();
    let mut search = ThreatSearch::new(ThreatConfig::new().depth(4).nodes(500)).unwrap();
    let (mut wins, mut sequences) = (0, 0);
    for g in positions(5, 5, 4, 4, 400, 3) {
        let mut loose = Loose(g.clone());
        let Some(win) = search.find_win(&mut loose) else {
            continue;
        };
        let mut g = g;
        solver.clear();
        let exact = exact_score(&mut solver, &mut g);
        assert!(
            exact.is_win() && exact >= Score::win_in(win.plies),
            "{g}: {exact}"
        );
        wins += 1;
        sequences += usize::from(win.plies > 1);
    }
    assert!(wins >= 50 && sequences > 0, "{wins} {sequences}");
}
