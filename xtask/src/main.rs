//! `cargo xtask verify | fuzz | bench`: gametree's developer tasks.
//!
//! `verify` is the project's main job: every pruned search against plain
//! negamax, every solver against the others, every published number, and
//! the make/unmake and hash oracles, printed as one table.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod bench_compressed;
mod bench_defaults;
mod bench_peer;
mod bench_pons;
mod bench_retrograde;
mod bench_sizes;
mod bench_steininger;
mod bench_syzygy;
mod benchmarks_md;
mod fuzz;
mod verify;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "gametree developer tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Compare every optimised search with its reference and reproduce every
    /// published number; prints a table and exits non-zero on a mismatch.
    Verify(verify::Options),
    /// Measure: `ordering` (nodes per ordering heuristic), `alphabeta`
    /// (nodes and time per variant against negamax), `connect4`,
    /// `retrograde` (endgame databases), `syzygy` (ours against the Syzygy
    /// generator, `--rtbgen PATH`).
    Bench(Box<bench::Options>),
    /// Run the cargo-fuzz targets of `fuzz/` (needs nightly; installs
    /// cargo-fuzz if missing); prints runs, coverage and crashes per target
    /// and exits non-zero on a crash.
    Fuzz(fuzz::Options),
}

/// The workspace root (xtask lives one level below it).
fn project_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or(manifest.clone(), PathBuf::from)
}

/// Where cargo puts the workspace's builds: `$CARGO_TARGET_DIR` when set
/// (relative to the project root, where xtask runs cargo), else
/// `target/` at the project root.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => project_root().join(dir),
        _ => project_root().join("target"),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Verify(opts) => verify::run(&opts),
        Task::Bench(opts) => bench::run(&opts).map(|()| true),
        Task::Fuzz(opts) => fuzz::run(&opts),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
