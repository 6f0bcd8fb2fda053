//! `cargo xtask verify`: the registry of checks, the runner and the table.
//!
//! A check is a function from a [`Ctx`] (seed, quick mode, data directory)
//! to a [`Tally`] (positions compared, agreements, mismatches, or a reason
//! to skip). Each game registers its checks in its own module; adding a
//! game is one module and one line in [`registry`].

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};

mod ataxx;
mod chess;
pub(crate) mod common;
mod connect4;
mod dots;
mod mnk;
mod pressure;
mod progress;
mod solvers;
mod tictactoe;

/// Options of `cargo xtask verify`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// The CI subset: every row, fewer positions and shallower depths
    /// (under two minutes).
    #[arg(long, conflicts_with = "deep")]
    pub(crate) quick: bool,
    /// The full run plus the long rows (Pons's hardest set, m,n,k 4,4,4 by
    /// the proof-number searches, depth 4 on m,n,k 5,5,4 and Ataxx):
    /// several times the full run's duration.
    #[arg(long)]
    pub(crate) deep: bool,
    /// Seed of the random positions (every mismatch prints the seed that
    /// reproduces it).
    #[arg(long, default_value_t = 20_261_202)]
    pub(crate) seed: u64,
    /// Only the rows of games whose name contains this text.
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// Only the rows of variants whose name contains this text.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// Directory holding the published data sets (default: $GAMETREE_DATA,
    /// else ../shared/data beside the project root); see
    /// [`CONNECT4_DATA`] for what goes in it.
    #[arg(long)]
    pub(crate) data: Option<PathBuf>,
    /// List the rows without running them.
    #[arg(long)]
    pub(crate) list: bool,
    /// A row skipped for lack of data is an error (exit code 1).
    #[arg(long)]
    pub(crate) strict: bool,
}

/// What the data directory holds, and where to get it: said by every row
/// that skips for lack of it.
pub(crate) const CONNECT4_DATA: &str = "Pascal Pons's Connect Four test sets (Test_L3_R1, Test_L2_R1, Test_L2_R2, Test_L1_R1, Test_L1_R2, Test_L1_R3: one position and its score per line), from the test protocol page of his blog, http://blog.gamesolver.org/solving-connect-four/02-test-protocol/; put them in DIR/connect4 and set GAMETREE_DATA=DIR or pass --data DIR";

/// The data directory: `--data`, else `$GAMETREE_DATA`, else
/// `../shared/data` beside the project root (the same rule as the tests).
pub(crate) fn data_dir(flag: Option<&PathBuf>) -> PathBuf {
    flag.cloned()
        .or_else(|| std::env::var_os("GAMETREE_DATA").map(PathBuf::from))
        .unwrap_or_else(|| crate::project_root().join("../shared/data"))
}

/// The four families of checks: equivalence with negamax, solver agreement,
/// published numbers, oracles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// A pruned search equals plain negamax.
    Equivalence,
    /// Every solver returns the same game-theoretic value.
    Solvers,
    /// A published number is reproduced.
    Published,
    /// make/unmake, incremental hash and legality oracles.
    Oracles,
}

impl Family {
    fn label(self) -> &'static str {
        match self {
            Family::Equivalence => "1 equal",
            Family::Solvers => "2 solve",
            Family::Published => "3 publ.",
            Family::Oracles => "4 oracle",
        }
    }
}

/// What a check sees.
#[derive(Debug)]
pub(crate) struct Ctx {
    /// Reduced sizes for CI.
    pub(crate) quick: bool,
    /// The long rows and sizes too (`--deep`).
    pub(crate) deep: bool,
    /// The row's seed (the global seed mixed with the row's name).
    pub(crate) seed: u64,
    /// The seed shared by the rows of one game (the global seed mixed with
    /// the game's name): rows that compare on the same positions draw them
    /// from it.
    pub(crate) game_seed: u64,
    /// Shared data directory (may not exist).
    pub(crate) data: PathBuf,
}

impl Ctx {
    /// `quick` in quick mode, `full` otherwise.
    pub(crate) fn pick<T>(&self, quick: T, full: T) -> T {
        if self.quick { quick } else { full }
    }

    /// `quick`, `full` or `deep`, by the mode.
    pub(crate) fn pick3<T>(&self, quick: T, full: T, deep: T) -> T {
        if self.deep {
            deep
        } else {
            self.pick(quick, full)
        }
    }
}

/// One disagreement, with everything needed to reproduce it.
#[derive(Debug, Clone)]
pub(crate) struct Mismatch {
    pub(crate) position: String,
    pub(crate) depth: Option<u32>,
    pub(crate) expected: String,
    pub(crate) got: String,
}

/// The result of one row.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) positions: u64,
    pub(crate) agreements: u64,
    pub(crate) mismatches: Vec<Mismatch>,
    pub(crate) skipped: Option<Skip>,
    /// Something the row wants said beside its counts (e.g. how many
    /// searches a limit stopped, which are neither agreements nor
    /// mismatches).
    pub(crate) note: Option<String>,
}

impl Tally {
    /// Records one comparison.
    pub(crate) fn compare<T: PartialEq + std::fmt::Display>(
        &mut self,
        position: impl std::fmt::Display,
        depth: Option<u32>,
        expected: T,
        got: T,
    ) -> bool {
        self.positions += 1;
        if expected == got {
            self.agreements += 1;
            true
        } else {
            self.mismatches.push(Mismatch {
                position: position.to_string(),
                depth,
                expected: expected.to_string(),
                got: got.to_string(),
            });
            false
        }
    }

    /// A row that does not run in this mode, or could not run, with the
    /// reason.
    pub(crate) fn skip(reason: impl Into<String>) -> Tally {
        Tally {
            skipped: Some(Skip {
                missing_data: false,
                reason: reason.into(),
            }),
            ..Tally::default()
        }
    }
}

/// Why a row did not run.
#[derive(Clone, Debug)]
pub(crate) struct Skip {
    /// For lack of data (an error under `--strict`).
    pub(crate) missing_data: bool,
    /// What to say.
    pub(crate) reason: String,
}

impl Skip {
    /// Missing data: what could not be read, and why.
    pub(crate) fn data(what: impl std::fmt::Display) -> Skip {
        Skip {
            missing_data: true,
            reason: what.to_string(),
        }
    }
}

impl From<String> for Skip {
    /// A row that could not run (not for lack of data).
    fn from(reason: String) -> Skip {
        Skip {
            missing_data: false,
            reason,
        }
    }
}

impl From<Skip> for Tally {
    fn from(skip: Skip) -> Tally {
        Tally {
            skipped: Some(skip),
            ..Tally::default()
        }
    }
}

/// One row of the table.
pub(crate) struct Check {
    pub(crate) game: &'static str,
    pub(crate) family: Family,
    pub(crate) variant: String,
    pub(crate) run: Box<dyn Fn(&Ctx) -> Tally>,
}

impl Check {
    /// A row.
    pub(crate) fn new(
        game: &'static str,
        family: Family,
        variant: impl Into<String>,
        run: impl Fn(&Ctx) -> Tally + 'static,
    ) -> Check {
        Check {
            game,
            family,
            variant: variant.into(),
            run: Box::new(run),
        }
    }
}

/// Every row, in table order.
fn registry() -> Vec<Check> {
    let mut checks = Vec::new();
    checks.extend(tictactoe::checks());
    checks.extend(mnk::checks());
    checks.extend(ataxx::checks());
    checks.extend(connect4::checks());
    checks.extend(chess::checks());
    checks.extend(dots::checks());
    checks.extend(solvers::checks());
    checks.extend(pressure::checks());
    checks
}

fn row_seed(seed: u64, game: &str, variant: &str) -> u64 {
    // FNV-1a over the names: stable across runs and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in game.bytes().chain([0]).chain(variant.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Runs the selected rows, prints the table; `Ok(false)` on any mismatch.
pub(crate) fn run(opts: &Options) -> Result<bool> {
    let data = data_dir(opts.data.as_ref());
    if let Some(d) = &opts.data
        && !d.is_dir()
    {
        bail!("--data {}: not a directory", d.display());
    }
    let checks: Vec<Check> = registry()
        .into_iter()
        .filter(|c| {
            opts.game
                .as_ref()
                .is_none_or(|g| c.game.contains(g.as_str()))
        })
        .filter(|c| {
            opts.variant
                .as_ref()
                .is_none_or(|v| c.variant.contains(v.as_str()))
        })
        .collect();
    if checks.is_empty() {
        bail!("no verify row matches the --game/--variant filters");
    }
    if opts.list {
        for c in &checks {
            println!("{:<14} {:<9} {}", c.game, c.family.label(), c.variant);
        }
        return Ok(true);
    }
    let mode = if opts.quick {
        "quick"
    } else if opts.deep {
        "deep"
    } else {
        "full"
    };
    println!("gametree verify ({mode} mode, seed {})", opts.seed);
    let header = format!(
        "| {:<13} | {:<8} | {:<52} | {:>9} | {:>9} | {:>10} | {:>7} |",
        "game", "family", "variant", "compared", "agree", "mismatches", "seconds"
    );
    println!("{header}");
    println!(
        "|{}|{}|{}|{}|{}|{}|{}|",
        "-".repeat(15),
        "-".repeat(10),
        "-".repeat(54),
        "-".repeat(11),
        "-".repeat(11),
        "-".repeat(12),
        "-".repeat(9)
    );
    let started = Instant::now();
    let mut failures = String::new();
    let mut total_mismatches = 0usize;
    let mut skipped: Vec<(&Check, Skip)> = Vec::new();
    let mut times = progress::Times::load(mode);
    let live = progress::Live::new(checks.len());
    for (row, c) in checks.iter().enumerate() {
        let key = format!("{} | {}", c.game, c.variant);
        live.start(
            row,
            c.game,
            &c.variant,
            times.last(&key),
            times.left(&checks[row..], |c| format!("{} | {}", c.game, c.variant)),
        );
        let seed = row_seed(opts.seed, c.game, &c.variant);
        let ctx = Ctx {
            quick: opts.quick,
            deep: opts.deep,
            seed,
            game_seed: row_seed(opts.seed, c.game, ""),
            data: data.clone(),
        };
        let t0 = Instant::now();
        let tally = (c.run)(&ctx);
        let secs = t0.elapsed().as_secs_f64();
        live.finish();
        times.record(&key, t0.elapsed());
        if let Some(skip) = &tally.skipped {
            let reason = if skip.missing_data {
                "missing data (see below)"
            } else {
                skip.reason.as_str()
            };
            skipped.push((c, skip.clone()));
            println!(
                "| {:<13} | {:<8} | {:<52} | {:>9} | {:>9} | {:>10} | {:>7.2} |  skipped: {reason}",
                c.game,
                c.family.label(),
                c.variant,
                "-",
                "-",
                "-",
                secs
            );
            continue;
        }
        println!(
            "| {:<13} | {:<8} | {:<52} | {:>9} | {:>9} | {:>10} | {:>7.2} |{}",
            c.game,
            c.family.label(),
            c.variant,
            tally.positions,
            tally.agreements,
            tally.mismatches.len(),
            secs,
            tally
                .note
                .as_ref()
                .map_or(String::new(), |n| format!("  {n}"))
        );
        total_mismatches += tally.mismatches.len();
        for m in tally.mismatches.iter().take(5) {
            let _ = writeln!(
                failures,
                "MISMATCH {} / {}: seed {} (row seed {seed:#x}), position `{}`, depth {}: expected {}, got {}",
                c.game,
                c.variant,
                opts.seed,
                m.position,
                m.depth.map_or("to end".to_string(), |d| d.to_string()),
                m.expected,
                m.got
            );
        }
        if tally.mismatches.is_empty() && tally.positions == 0 {
            let _ = writeln!(
                failures,
                "EMPTY ROW {} / {}: compared nothing",
                c.game, c.variant
            );
            total_mismatches += 1;
        }
    }
    times.save();
    println!(
        "{} rows, {} skipped, {} mismatches, {:.1} s",
        checks.len(),
        skipped.len(),
        total_mismatches,
        started.elapsed().as_secs_f64()
    );
    let missing: Vec<&(&Check, Skip)> = skipped.iter().filter(|(_, s)| s.missing_data).collect();
    if !skipped.is_empty() {
        println!("\nSkipped rows, by reason:");
        let mut reasons: Vec<(&str, Vec<&Check>)> = Vec::new();
        for (c, s) in &skipped {
            match reasons.iter_mut().find(|(r, _)| *r == s.reason) {
                Some((_, rows)) => rows.push(c),
                None => reasons.push((&s.reason, vec![c])),
            }
        }
        for (reason, rows) in reasons {
            let (first, rest) = (rows[0], rows.len() - 1);
            let more = if rest > 0 {
                format!(" and {rest} more")
            } else {
                String::new()
            };
            println!("  {reason}: {} / {}{more}", first.game, first.variant);
        }
    }
    if !missing.is_empty() {
        println!(
            "{} rows need data that is not here: {CONNECT4_DATA}",
            missing.len()
        );
        if opts.strict {
            let _ = writeln!(
                failures,
                "--strict: {} rows skipped for lack of data",
                missing.len()
            );
        }
    }
    if failures.is_empty() {
        Ok(true)
    } else {
        eprint!("{failures}");
        Ok(false)
    }
}
