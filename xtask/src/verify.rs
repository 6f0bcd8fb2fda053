//! `cargo xtask verify`: the flags, then `gametree_verify::run` (the one
//! registry of rows, shared with `gametree verify`).

use std::path::PathBuf;

use anyhow::{Result, bail};
use gametree_verify::{Mode, Output};

pub(crate) use gametree_verify::CONNECT4_DATA;

/// Options of `cargo xtask verify`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// The CI subset: every row, fewer positions and shallower depths
    /// (under two minutes).
    #[arg(long, conflicts_with = "deep")]
    quick: bool,
    /// The full run plus the long rows (Pons's hardest set, m,n,k 4,4,4 by
    /// the proof-number searches, depth 4 on m,n,k 5,5,4 and Ataxx):
    /// several times the full run's duration.
    #[arg(long)]
    deep: bool,
    /// Seed of the random positions (every mismatch prints the seed that
    /// reproduces it).
    #[arg(long, default_value_t = gametree_verify::DEFAULT_SEED)]
    seed: u64,
    /// Only the rows of games whose name contains this text.
    #[arg(long)]
    game: Option<String>,
    /// Only the rows of variants whose name contains this text.
    #[arg(long)]
    variant: Option<String>,
    /// Directory holding the published data sets (default: $GAMETREE_DATA,
    /// else ../shared/data beside the project root).
    #[arg(long)]
    data: Option<PathBuf>,
    /// List the rows without running them.
    #[arg(long)]
    list: bool,
    /// A row skipped for lack of data is an error (exit code 1).
    #[arg(long)]
    strict: bool,
    /// One JSON object per row instead of the table.
    #[arg(long)]
    json: bool,
}

/// The data directory: `--data`, else the workspace's one rule,
/// `gametree_verify::default_data_dir` (`$GAMETREE_DATA`, else
/// `../shared/data` beside the project root).
pub(crate) fn data_dir(flag: Option<&PathBuf>) -> PathBuf {
    flag.cloned()
        .unwrap_or_else(gametree_verify::default_data_dir)
}

/// Runs the selected rows; `Ok(false)` on a mismatch (or missing data
/// with `--strict`).
pub(crate) fn run(opts: &Options) -> Result<bool> {
    if let Some(d) = &opts.data
        && !d.is_dir()
    {
        bail!("--data {}: not a directory", d.display());
    }
    let mode = if opts.quick {
        Mode::Quick
    } else if opts.deep {
        Mode::Deep
    } else {
        Mode::Full
    };
    let mut o = gametree_verify::Options::new(mode);
    o.seed = opts.seed;
    o.game.clone_from(&opts.game);
    o.variant.clone_from(&opts.variant);
    o.data = data_dir(opts.data.as_ref());
    o.strict = opts.strict;
    o.output = if opts.json {
        Output::Json
    } else {
        Output::Table
    };
    o.times = Some(crate::project_root().join("target/verify-times.tsv"));
    if opts.list {
        for r in gametree_verify::list(&o) {
            println!("{:<14} {:<9} {}", r.game, r.family.label(), r.variant);
        }
        return Ok(true);
    }
    Ok(gametree_verify::run(&o)?.passed())
}
