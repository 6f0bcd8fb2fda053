//! Threat-space search inside alpha-beta ([`Config::threats`]): the exact
//! score and the weak value are those of the search without it, on random
//! m,n,k positions where threats abound, and bad settings are refused with
//! a typed error.

use gametree_alphabeta::{
    AlphaBeta, Config, Find, Limits, Request, SearchError, Solver, ThreatConfig,
};
use gametree_game::{Game, Use};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;

/// Random positions of `m,n,k` with `stones` stones, not over.
fn positions(m: u8, n: u8, k: u8, stones: u32, count: usize, seed: u64) -> Vec<Mnk> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Mnk::new(m, n, k).expect("a size");
        for _ in 0..stones {
            let mut moves = <Mnk as Game>::Moves::default();
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            g.make(mv);
        }
        if g.stones_played() == stones && g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

#[test]
fn threats_keep_every_value() {
    let mut off = AlphaBeta::<Mnk>::new(Config::default().threats(Use::Off)).expect("table");
    let mut on = AlphaBeta::<Mnk>::new(Config::default().threats(Use::On)).expect("table");
    // Long sequences too, so that deep threat wins are used.
    let mut long =
        AlphaBeta::<Mnk>::new(Config::default().threat_limits(ThreatConfig::new().depth(20)))
            .expect("table");
    let mut cutoffs = 0;
    let none = Limits::none();
    for (i, &(m, n, k, stones)) in [(5, 5, 4, 8), (6, 6, 4, 12), (7, 7, 5, 24)]
        .iter()
        .enumerate()
    {
        for g in positions(m, n, k, stones, 20, 7 + i as u64) {
            let exact = off.solve(&mut g.clone(), &mut Request::new(&none).find(Find::Score));
            assert!(exact.score.is_some());
            for s in [&mut on, &mut long] {
                let got = s.solve(&mut g.clone(), &mut Request::new(&none).find(Find::Score));
                assert_eq!(got.score, exact.score, "{g}");
                cutoffs += got.stats.threat_cutoffs;
                let weak = s.solve(&mut g.clone(), &mut Request::new(&none).find(Find::Outcome));
                assert_eq!(weak.outcome, exact.outcome, "{g}");
            }
        }
    }
    // The comparison means something only if threats cut nodes.
    assert!(cutoffs > 100, "only {cutoffs} threat cutoffs");
}

#[test]
fn threat_settings_are_checked() {
    let bad = Config::default().threat_limits(ThreatConfig::new().table_entries(0));
    assert!(matches!(
        AlphaBeta::<Mnk>::new(bad).map(|_| ()),
        Err(SearchError::Threats(_))
    ));
    // Unused limits are not checked: the game has no threats.
    assert!(AlphaBeta::<TicTacToe>::new(bad).is_ok());
    assert!(matches!(
        AlphaBeta::<TicTacToe>::new(Config::default().threats(Use::On)).map(|_| ()),
        Err(SearchError::MissingKnowledge(e)) if e.option() == "threats"
    ));
    assert_eq!(
        AlphaBeta::<Mnk>::new(Config::default())
            .expect("table")
            .config()
            .get_threats(),
        gametree_alphabeta::Use::Auto
    );
}
