//! Ataxx perft from the command line, with a `--divide` mode for debugging:
//!
//! ```text
//! cargo run --release -p gametree-games-ataxx --example perft -- 5
//! cargo run --release -p gametree-games-ataxx --example perft -- 4 --divide "x5o/7/7/7/7/7/o5x x 0 1"
//! ```

use std::process::ExitCode;
use std::time::Instant;

use gametree_games_ataxx::{Position, divide, perft};

fn main() -> ExitCode {
    let mut depth = None;
    let mut split = false;
    let mut fen = None;
    for arg in std::env::args().skip(1) {
        if arg == "--divide" {
            split = true;
        } else if depth.is_none() && arg.parse::<u32>().is_ok() {
            depth = arg.parse().ok();
        } else {
            fen = Some(arg);
        }
    }
    let Some(depth) = depth else {
        eprintln!("usage: perft DEPTH [--divide] [FEN]");
        return ExitCode::FAILURE;
    };
    let position = match fen.as_deref().map(Position::from_fen) {
        None => Position::startpos(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let total = if split {
        let rows = divide(&position, depth);
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft(&position, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {total}  ({secs:.3} s, {:.1} M leaves/s)",
        total as f64 / secs / 1e6
    );
    ExitCode::SUCCESS
}
