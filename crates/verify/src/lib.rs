//! The verification table of gametree: every pruned search equals plain
//! negamax, every solver agrees on the game-theoretic value, every published
//! number (perft counts, solved values, Pons's Connect Four scores, the
//! Syzygy statistics) is reproduced, and the make/unmake, hash and legality
//! oracles hold, game by game. One registry of rows, run by
//! `cargo xtask verify` in a checkout and by `gametree verify` from the
//! command-line tool; `cargo test` runs a fast subset.
//!
//! A row is a function from a context (mode, seed, data directory) to a
//! tally (positions compared, agreements, mismatches, or a reason to skip).
//! Each game registers its rows in its own module.
//!
//! The published numbers live once, in the corpus of the crate
//! `gametree-data` (re-exported here as [`data`]): one TOML file per game
//! or source, compiled in, each value with its source. The rows, the
//! workspace's tests and its benchmarks read them through its accessors;
//! [`data::pons`] loads Pascal Pons's Connect Four test sets, which are not
//! in the repository, and [`pons_board`] replays their lines.
//!
//! ```no_run
//! use gametree_verify::{Mode, Options, run};
//!
//! let summary = run(&Options::new(Mode::Quick))?;
//! assert!(summary.passed());
//! # Ok::<(), anyhow::Error>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};

mod ataxx;
mod chess;
mod chess_builds;
mod chess_oracle;
mod common;
mod connect4;
mod dots;
mod mnk;
mod pressure;
mod printed;
mod progress;
mod solvers;
mod tictactoe;

pub use common::{random_positions, rng};
pub use connect4::pons_board;
/// The corpus of published numbers (the crate `gametree-data`), read by
/// the rows.
pub use gametree_data as data;
pub use gametree_data::{CONNECT4_DATA, default_data_dir};

/// The README's examples are compiled (and the runnable ones run) as
/// doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// How much each row does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every row, fewer positions and shallower depths (CI's subset, about
    /// two minutes on two cores).
    Quick,
    /// Every row at full size, the long rows excepted.
    Full,
    /// The full run plus the long rows (Pons's hardest set, m,n,k 4,4,4 by
    /// the proof-number searches, depth 4 on m,n,k 5,5,4 and Ataxx).
    Deep,
}

impl Mode {
    /// `quick`, `full` or `deep`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
            Mode::Deep => "deep",
        }
    }
}

/// How results are printed on standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Output {
    /// A Markdown table, a summary and the skipped rows by reason.
    Table,
    /// One JSON object per row.
    Json,
    /// Nothing (the caller reads the [`Summary`]).
    Quiet,
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// How much each row does.
    pub mode: Mode,
    /// Seed of the random positions (every mismatch prints the seed that
    /// reproduces it).
    pub seed: u64,
    /// Only the rows of games whose name contains this text.
    pub game: Option<String>,
    /// Only the rows of variants whose name contains this text.
    pub variant: Option<String>,
    /// Only the rows of these families (all when empty).
    pub families: Vec<Family>,
    /// Directory holding the published data sets ([`CONNECT4_DATA`] says
    /// what goes in it); rows that need a missing file are skipped.
    pub data: PathBuf,
    /// A row skipped for lack of data fails the run.
    pub strict: bool,
    /// How results are printed.
    pub output: Output,
    /// Where each row's time is kept between runs, to estimate the next
    /// (the live line on a terminal); `None` keeps nothing.
    pub times: Option<PathBuf>,
}

impl Options {
    /// Every row in `mode`, the default seed, data from
    /// [`default_data_dir`], a table on standard output.
    #[must_use]
    pub fn new(mode: Mode) -> Options {
        Options {
            mode,
            seed: DEFAULT_SEED,
            game: None,
            variant: None,
            families: Vec::new(),
            data: default_data_dir(),
            strict: false,
            output: Output::Table,
            times: None,
        }
    }
}

/// The seed of the published tables.
pub const DEFAULT_SEED: u64 = 20_261_202;

/// One row of the registry, as [`list`] names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The game (or `ttable`, `retrograde`, … for a component).
    pub game: &'static str,
    /// The family of the check.
    pub family: Family,
    /// What the row compares.
    pub variant: String,
}

/// What a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Rows run (skipped ones included).
    pub rows: usize,
    /// Rows skipped (for any reason).
    pub skipped: usize,
    /// Rows skipped for lack of data.
    pub missing_data: usize,
    /// Disagreements (and rows that compared nothing).
    pub mismatches: usize,
    /// Each failure, one line each (at most five per row).
    pub failures: Vec<String>,
    /// `--strict` and data were missing.
    pub strict_failed: bool,
}

impl Summary {
    /// No mismatch, and no missing data under [`Options::strict`].
    #[must_use]
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && !self.strict_failed
    }
}

/// The four families of checks: equivalence with negamax, solver agreement,
/// published numbers, oracles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
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
    /// The family's column in the table: `1 equal`, `2 solve`, `3 publ.`,
    /// `4 oracle`.
    #[must_use]
    pub const fn label(self) -> &'static str {
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

    /// A row whose published numbers could not be read: one mismatch naming
    /// the corpus file and the error.
    pub(crate) fn corpus_error(e: &data::CorpusError) -> Tally {
        let mut t = Tally::default();
        t.compare(e.file(), None, "a readable file".to_string(), e.to_string());
        t
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
    checks.extend(chess_builds::checks());
    checks.extend(dots::checks());
    checks.extend(solvers::checks());
    checks.extend(printed::checks());
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

/// The rows `opts` selects (its game, variant and family filters).
fn selected(opts: &Options) -> Vec<Check> {
    registry()
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
        .filter(|c| opts.families.is_empty() || opts.families.contains(&c.family))
        .collect()
}

/// The rows `opts` selects, without running them.
#[must_use]
pub fn list(opts: &Options) -> Vec<Row> {
    selected(opts)
        .into_iter()
        .map(|c| Row {
            game: c.game,
            family: c.family,
            variant: c.variant,
        })
        .collect()
}

/// Runs the rows `opts` selects and prints them as [`Options::output`]
/// says (with a live line per running row on a terminal).
///
/// # Errors
///
/// When no row matches the filters. Mismatches are not errors: they are in
/// the [`Summary`].
pub fn run(opts: &Options) -> Result<Summary> {
    let checks = selected(opts);
    if checks.is_empty() {
        bail!("no verify row matches the game/variant/family filters");
    }
    let mode = opts.mode.name();
    let table = opts.output == Output::Table;
    if table {
        println!("gametree verify ({mode} mode, seed {})", opts.seed);
        println!(
            "| {:<13} | {:<8} | {:<52} | {:>9} | {:>9} | {:>10} | {:>7} |",
            "game", "family", "variant", "compared", "agree", "mismatches", "seconds"
        );
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
    }
    let started = Instant::now();
    let mut summary = Summary {
        rows: checks.len(),
        ..Summary::default()
    };
    let mut skipped: Vec<(&Check, Skip)> = Vec::new();
    let mut times = progress::Times::load(opts.times.clone());
    let live = progress::Live::new(checks.len());
    for (row, c) in checks.iter().enumerate() {
        let key = format!("{mode} | {} | {}", c.game, c.variant);
        live.start(
            row,
            c.game,
            &c.variant,
            times.last(&key),
            times.left(&checks[row..], |c| {
                format!("{mode} | {} | {}", c.game, c.variant)
            }),
        );
        let seed = row_seed(opts.seed, c.game, &c.variant);
        let ctx = Ctx {
            quick: opts.mode == Mode::Quick,
            deep: opts.mode == Mode::Deep,
            seed,
            game_seed: row_seed(opts.seed, c.game, ""),
            data: opts.data.clone(),
        };
        let t0 = Instant::now();
        let tally = (c.run)(&ctx);
        let secs = t0.elapsed().as_secs_f64();
        live.finish();
        times.record(&key, t0.elapsed());
        print_row(opts.output, c, &tally, secs);
        if let Some(skip) = &tally.skipped {
            skipped.push((c, skip.clone()));
            continue;
        }
        summary.mismatches += tally.mismatches.len();
        for m in tally.mismatches.iter().take(5) {
            summary.failures.push(format!(
                "MISMATCH {} / {}: seed {} (row seed {seed:#x}), position `{}`, depth {}: expected {}, got {}",
                c.game,
                c.variant,
                opts.seed,
                m.position,
                m.depth.map_or("to end".to_string(), |d| d.to_string()),
                m.expected,
                m.got
            ));
        }
        if tally.mismatches.is_empty() && tally.positions == 0 {
            summary.failures.push(format!(
                "EMPTY ROW {} / {}: compared nothing",
                c.game, c.variant
            ));
            summary.mismatches += 1;
        }
    }
    times.save();
    summary.skipped = skipped.len();
    summary.missing_data = skipped.iter().filter(|(_, s)| s.missing_data).count();
    if summary.missing_data > 0 && opts.strict {
        summary.strict_failed = true;
        summary.failures.push(format!(
            "strict: {} rows skipped for lack of data",
            summary.missing_data
        ));
    }
    if table {
        println!(
            "{} rows, {} skipped, {} mismatches, {:.1} s",
            summary.rows,
            summary.skipped,
            summary.mismatches,
            started.elapsed().as_secs_f64()
        );
        print_skipped(&skipped);
        if summary.missing_data > 0 {
            println!(
                "{} rows need data that is not here: {CONNECT4_DATA}",
                summary.missing_data
            );
        }
    }
    if opts.output != Output::Quiet {
        for f in &summary.failures {
            eprintln!("{f}");
        }
    }
    Ok(summary)
}

/// One row's result, as `output` says.
fn print_row(output: Output, c: &Check, tally: &Tally, secs: f64) {
    match output {
        Output::Quiet => {}
        Output::Json => {
            let mut line = String::from("{");
            let _ = write!(
                line,
                "\"game\": {}, \"family\": {}, \"variant\": {}, \"seconds\": {secs:.3}",
                json_string(c.game),
                json_string(c.family.label()),
                json_string(&c.variant)
            );
            match &tally.skipped {
                Some(s) => {
                    let _ = write!(
                        line,
                        ", \"skipped\": {}, \"missing_data\": {}",
                        json_string(&s.reason),
                        s.missing_data
                    );
                }
                None => {
                    let _ = write!(
                        line,
                        ", \"compared\": {}, \"agree\": {}, \"mismatches\": {}",
                        tally.positions,
                        tally.agreements,
                        tally.mismatches.len()
                    );
                }
            }
            line.push('}');
            println!("{line}");
        }
        Output::Table => match &tally.skipped {
            Some(skip) => {
                let reason = if skip.missing_data {
                    "missing data (see below)"
                } else {
                    skip.reason.as_str()
                };
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
            }
            None => println!(
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
            ),
        },
    }
}

/// The skipped rows, grouped by reason.
fn print_skipped(skipped: &[(&Check, Skip)]) {
    if skipped.is_empty() {
        return;
    }
    println!("\nSkipped rows, by reason:");
    let mut reasons: Vec<(&str, Vec<&Check>)> = Vec::new();
    for (c, s) in skipped {
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

/// A JSON string literal.
fn json_string(t: &str) -> String {
    let mut s = String::with_capacity(t.len() + 2);
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
