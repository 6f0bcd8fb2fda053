//! Runs the perft data file up to a node budget and prints one line per row:
//! `cargo run --release -p gametree-games-chess --example perft_suite -- 1000000000`.

use std::process::ExitCode;

use gametree_games_chess::suite;

fn main() -> ExitCode {
    let budget = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(suite::TEST_BUDGET);
    let results = match suite::verify_file(&suite::data_path(), budget) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = 0;
    for r in &results {
        let secs = r.elapsed.as_secs_f64();
        println!(
            "{:<20} depth {} expected {:>13} counted {:>13} {:>8.3} s {:>7.1} Mnps {}",
            r.id,
            r.depth,
            r.expected,
            r.counted,
            secs,
            r.counted as f64 / secs.max(1e-9) / 1e6,
            if r.ok() { "ok" } else { "MISMATCH" }
        );
        failed += usize::from(!r.ok());
    }
    println!("{} rows, {failed} mismatches", results.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
