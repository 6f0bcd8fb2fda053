//! Builds chess endgame tables with everything they need and prints what
//! was built, how long it took and each table's statistics.
//!
//! ```text
//! cargo run --release -p gametree-chess-tables --example build -- [--threads N] ENDING... | 3 | 4
//! ```
//!
//! An ending is a signature (`KQvKR`); `3` or `4` stands for every pawnless
//! ending of that many pieces. `--threads 0` (the default) uses every core.

use std::time::Instant;

use gametree_chess_tables::{BuildOptions, Signature, Tablebase, pawnless_endings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut threads = 0;
    let mut endings: Vec<Signature> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().ok_or("--threads needs a number")?.parse()?,
            "3" | "4" | "5" => endings.extend(pawnless_endings(arg.parse()?)),
            _ => endings.push(arg.parse()?),
        }
    }
    if endings.is_empty() {
        endings = pawnless_endings(3)
            .into_iter()
            .chain(pawnless_endings(4))
            .collect();
    }
    let mut tables = Tablebase::new();
    println!(
        "memory: at most {:.1} MiB",
        tables.memory(&endings, threads) as f64 / f64::from(1 << 20)
    );
    let start = Instant::now();
    let plan = tables.plan(&endings);
    let planned = start.elapsed().as_secs_f64();
    let built = tables.build(
        &endings,
        &BuildOptions {
            threads,
            progress: None,
            ..BuildOptions::default()
        },
    )?;
    let wall = start.elapsed().as_secs_f64();
    assert_eq!(plan, built);
    for (signature, _, table) in tables.iter() {
        let counts = table.counts();
        let longest = counts.longest_win.map_or(0, |(plies, _)| plies);
        println!(
            "{signature:7} {:>10} positions, longest win {longest:3} plies",
            counts.positions()
        );
    }
    println!(
        "{} tables in {wall:.2} s (planned in {planned:.3} s), threads {threads}",
        built.len()
    );
    Ok(())
}
