//! Win/draw/loss on Pons's `Test_L2_R1` set (1000 Connect Four positions):
//! the `minimax` crate's `IterativeSearch` (the most used Rust peer)
//! against this crate's generic `AlphaBeta`'s weak solve (`Solver::solve`
//! asked for `Find::Outcome`), in the same run,
//! both checked against the file's score signs.
//!
//! ```sh
//! cargo run --release -p gametree-alphabeta --example vs_minimax [-- DATA_DIR [LIMIT]]
//! ```
//!
//! `DATA_DIR` holds Pascal Pons's `Test_L2_R1` file, from his blog *Solving
//! Connect 4: how to build a perfect AI* (blog.gamesolver.org, part 2, "Test
//! protocol"; by default `$GAMETREE_DATA/connect4`, else
//! `../shared/data/connect4` beside the repository); `LIMIT` takes only the
//! first lines.

use gametree_game::Use;
use std::path::PathBuf;
use std::time::Instant;

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_data::pons::TestSet;
use gametree_game::{Game, Outcome};
use gametree_games_connect4::{Board, Column, Size};
use minimax::{Evaluation, Evaluator, IterativeOptions, IterativeSearch, Strategy, Winner};

/// `minimax`'s view of our board.
struct C4;

impl minimax::Game for C4 {
    type S = Board;
    type M = Column;

    fn generate_moves(state: &Board, moves: &mut Vec<Column>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(state) {
            return Some(w);
        }
        let mut buf = <Board as Game>::Moves::default();
        state.generate(&mut buf);
        moves.extend_from_slice(buf.as_slice());
        None
    }

    fn apply(state: &mut Board, m: Column) -> Option<Board> {
        state.make(m);
        None
    }

    fn undo(state: &mut Board, m: Column) {
        state.unmake(m, ());
    }

    fn get_winner(state: &Board) -> Option<Winner> {
        match state.outcome()? {
            Outcome::Loss => Some(Winner::PlayerJustMoved),
            Outcome::Draw => Some(Winner::Draw),
            Outcome::Win => Some(Winner::PlayerToMove),
        }
    }

    fn zobrist_hash(state: &Board) -> u64 {
        state.hash()
    }
}

/// The same threat evaluation our searcher has.
struct Threats;

impl Evaluator for Threats {
    type G = C4;
    fn evaluate(&self, s: &Board) -> Evaluation {
        s.evaluate().get().clamp(-30_000, 30_000) as Evaluation
    }
}

fn sign(o: Outcome) -> i32 {
    match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().map_or_else(
        || gametree_data::default_data_dir().join("connect4"),
        PathBuf::from,
    );
    let limit: usize = args.next().map_or(Ok(1000), |s| s.parse())?;
    let set =
        TestSet::L2_R1.load_with(&dir, |moves, _| Board::from_moves(Size::STANDARD, moves))?;
    let set = &set[..limit.min(set.len())];
    println!("{} positions of {}", set.len(), TestSet::L2_R1.file_name());

    // minimax 0.6: iterative deepening to the end of the game.
    let t0 = Instant::now();
    let mut wrong = 0;
    for t in set {
        let mut s = IterativeSearch::new(
            Threats,
            IterativeOptions::new().with_table_byte_size(16 << 20),
        );
        s.set_max_depth((42 - t.board.plies()) as u8);
        s.choose_move(&t.board);
        let v = s.root_value();
        let got = i32::from(v > 10_000) - i32::from(v < -10_000);
        if got != t.score.signum() {
            wrong += 1;
        }
    }
    let minimax_secs = t0.elapsed().as_secs_f64();
    println!("| solver | seconds | wrong signs | speed-up |");
    println!("|---|---:|---:|---:|");
    println!("| minimax 0.6 IterativeSearch | {minimax_secs:.3} | {wrong} | 1.0× |");

    let solver = Config::default()
        .algorithm(gametree_alphabeta::Algorithm::Bisection)
        .iterative_deepening(false)
        .killers(0)
        .history(None)
        .counter_moves(false);
    let configs: [(&str, Config); 3] = [
        (
            "AlphaBeta default without forcing and hints",
            Config::default().forcing(Use::Off).order_hints(Use::Off),
        ),
        ("AlphaBeta default", Config::default()),
        ("AlphaBeta bisection, threat order, forcing", solver),
    ];
    for (name, config) in configs {
        // 1 MiB: the table is cleared per position, as for minimax's fresh one.
        let mut searcher = AlphaBeta::<Board>::new(config.memory(1 << 20))?;
        let t0 = Instant::now();
        let mut wrong = 0;
        let mut nodes = 0;
        for t in set {
            if std::env::var_os("NOCLEAR").is_none() {
                searcher.clear();
            }
            let none = Limits::none();
            let mut weak = Request::new(&none).find(Find::Outcome);
            let r = searcher.solve(&mut t.board.clone(), &mut weak);
            nodes += r.stats.nodes;
            if r.outcome.map(sign) != Some(t.score.signum()) {
                wrong += 1;
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "| {name} | {secs:.3} | {wrong} | {:.1}× | ({} nodes/position)",
            minimax_secs / secs,
            nodes / set.len() as u64
        );
    }
    Ok(())
}
