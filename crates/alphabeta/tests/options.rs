//! The option vocabulary of [`Config`]: knowledge switches take and give
//! back a [`Use`], the table's options are one nested [`TableConfig`] with
//! its size as `memory`, and `threads(ALL_CORES)` is every core.

use gametree_alphabeta::{
    ALL_CORES, AlphaBeta, Config, Find, Limits, Request, SearchError, Solver, TableConfig, TtUse,
    Use, negamax,
};
use gametree_games_tictactoe::TicTacToe;

#[test]
fn knowledge_switches_take_and_give_a_use() {
    let c = Config::new();
    assert_eq!(c.get_forcing(), Use::Auto);
    for usage in [Use::Auto, Use::On, Use::Off] {
        let c = Config::new().forcing(usage).length_bound(usage);
        assert_eq!((c.get_forcing(), c.get_length_bound()), (usage, usage));
    }
    // Tic-tac-toe has no win bounds: required, they are refused.
    let refused = AlphaBeta::<TicTacToe>::new(Config::new().win_bounds(Use::On));
    assert!(
        matches!(&refused, Err(SearchError::MissingKnowledge(e)) if e.option() == "win_bounds"),
        "{refused:?}"
    );
    assert!(AlphaBeta::<TicTacToe>::new(Config::new().win_bounds(Use::Off)).is_ok());
}

#[test]
fn the_table_is_one_nested_config() {
    let table = TableConfig::new().memory(1 << 20).check_bits(16);
    let c = Config::new().table(table);
    assert_eq!(c.get_table(), table);
    assert_eq!(c.get_memory(), 1 << 20);
    assert_eq!(c.memory(2 << 20).get_table().get_memory(), 2 << 20);
    assert_eq!(Config::plain().get_table().get_usage(), TtUse::Off);
    assert_eq!(Config::new().get_table(), TableConfig::new());
    // A small table with the solved layout allowed keeps its layout (the
    // solved layout needs 16 MiB) and solves right; so does the full one.
    let mut board: TicTacToe = "X...O....".parse().unwrap();
    for table in [TableConfig::new().memory(1 << 20), TableConfig::new()] {
        let mut s = AlphaBeta::<TicTacToe>::new(Config::new().table(table)).unwrap();
        // A depth-limited search first: the normal probe policy would cut
        // it short with the solve's exact entries.
        let searched = s.search(&mut board, &mut Request::new(&Limits::depth(3)));
        assert_eq!(searched.value, negamax(&mut board, 3).value);
        let none = Limits::none();
        let solved = s.solve(&mut board, &mut Request::new(&none).find(Find::Score));
        assert_eq!(solved.score, Some(gametree_game::Score::DRAW));
    }
}

#[test]
fn zero_threads_is_every_core() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let c = Config::new().threads(ALL_CORES).memory(1 << 20);
    assert_eq!(c.get_threads(), 0);
    let mut s = AlphaBeta::<TicTacToe>::new(c).unwrap();
    assert_eq!(s.config().get_threads(), cores);
    let mut board: TicTacToe = "X...O....".parse().unwrap();
    assert_eq!(
        s.search(&mut board, &mut Request::new(&Limits::depth(4)))
            .value,
        negamax(&mut board, 4).value
    );
    let none = Limits::none();
    assert_eq!(
        s.solve(&mut board, &mut Request::new(&none).find(Find::Score))
            .score,
        Some(gametree_game::Score::DRAW)
    );
}
