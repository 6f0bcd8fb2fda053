//! Graph-history interaction: chess positions repeat and threefold
//! repetition draws depend on the path, so a solver with a transposition
//! table must neither store those draws by position nor wander around
//! cycles. Distances to mate are checked against a plain depth-limited
//! alpha-beta without a table (a mate found inside the horizon is exact).

use gametree_alphabeta::{
    Algorithm, AlphaBeta, Config, Find, Limits, Request, Solver, TableConfig, alpha_beta,
};
use gametree_game::Score;
use gametree_games_chess::Position;
use gametree_ttable::ProbePolicy;

fn solve(config: Config, fen: &str) -> Score {
    let mut p: Position = fen.parse().unwrap();
    let mut s = AlphaBeta::<Position>::new(config).unwrap();
    let limits = Limits::none().with_nodes(50_000_000);
    let r = s.solve(&mut p, &mut Request::new(&limits).find(Find::Score));
    r.score
        .unwrap_or_else(|| panic!("{fen}: not solved within the node limit"))
}

/// Mate in 4 (7 plies) that the table used to turn into a repetition draw.
#[test]
fn kqk_mate_in_four_is_not_a_draw() {
    let fen = "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1";
    let mut p: Position = fen.parse().unwrap();
    let reference = alpha_beta(&mut p, 7).value;
    assert_eq!(reference, Score::win_in(7), "reference");
    assert_eq!(solve(Config::default(), fen), reference);
}

/// The shortest loss, by every ordering and root algorithm, equals what
/// exact-depth searches (verified equal to negamax) say: decisive at the
/// distance, not one ply earlier.
#[test]
fn kqk_longest_defence_is_exact() {
    let fen = "8/8/8/8/7k/8/3K1Q2/8 b - - 0 1";
    let exact = |d: u32| {
        let mut p: Position = fen.parse().unwrap();
        let config =
            Config::default().table(TableConfig::new().probe_policy(ProbePolicy::ExactDepth));
        let mut s = AlphaBeta::<Position>::new(config).unwrap();
        s.search(&mut p, &mut Request::new(&Limits::none().with_depth(d)))
            .value
    };
    let reference = exact(12);
    assert_eq!(reference, Score::loss_in(12), "reference at depth 12");
    assert!(!exact(11).is_decisive(), "reference at depth 11");
    for (name, c) in [
        ("default", Config::default()),
        (
            "alpha-beta",
            Config::default().algorithm(Algorithm::AlphaBeta),
        ),
        (
            "no killers, no history",
            Config::default().killers(0).history(None),
        ),
        ("MTD(f)", Config::default().algorithm(Algorithm::Mtdf)),
    ] {
        assert_eq!(solve(c, fen), reference, "{name}");
    }
}

/// A solve stopped by its node limit before proving anything is reported
/// as not completed (not as the last heuristic value).
#[test]
fn unproven_is_not_completed() {
    let mut p: Position = "8/8/3k4/8/8/8/3K2Q1/8 b - - 0 1".parse().unwrap();
    let mut s = AlphaBeta::<Position>::new(Config::default()).unwrap();
    let limits = Limits::none().with_nodes(20_000);
    let r = s.solve(&mut p, &mut Request::new(&limits).find(Find::Score));
    assert_eq!(r.score, None);
    assert_eq!(r.outcome, None);
    assert_eq!(r.stopped, Some(gametree_alphabeta::Stop::Nodes));
}
