//! The perft data file (`data/chess-perft.toml` in this crate): parsing and
//! running its rows up to a node budget.
//!
//! `cargo test` runs the rows whose published count is at most
//! [`TEST_BUDGET`]; `cargo xtask verify` runs [`verify_file`] with a larger
//! budget for the deep rows. Each row is counted twice when cheap (the
//! crate's bulk-counting [`Position::perft`] and the generic
//! [`gametree_game::perft`]), and with the bulk counter only above
//! [`GENERIC_BUDGET`] nodes.

use core::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{FenError, Position};

/// The node budget of the rows `cargo test` runs.
pub const TEST_BUDGET: u64 = 5_000_000;

/// Rows up to this many nodes are also counted with the generic
/// [`gametree_game::perft`] (make/unmake through the [`gametree_game::Game`] trait).
pub const GENERIC_BUDGET: u64 = 10_000_000;

/// One position of the data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// Its name (`initial`, `kiwipete`, ...).
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// `(depth, published node count)` rows.
    pub counts: Vec<(u32, u64)>,
}

/// A data file that does not follow the expected format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    line: usize,
    message: String,
}

impl SuiteError {
    fn new(line: usize, message: impl Into<String>) -> SuiteError {
        SuiteError {
            line,
            message: message.into(),
        }
    }
    /// The 1-based line of the problem (0 when it is not about one line).
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "perft data line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

fn string_value(line: usize, v: &str) -> Result<String, SuiteError> {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .map(str::to_owned)
        .ok_or_else(|| SuiteError::new(line, "expected a quoted string"))
}

/// Parses the data file's TOML subset: `[[position]]` tables with `id`,
/// `fen` and `perft = [[depth, nodes], ...]` (one row per line), and `#`
/// comments.
///
/// # Errors
///
/// A [`SuiteError`] naming the offending line.
pub fn parse(text: &str) -> Result<Vec<PerftEntry>, SuiteError> {
    let mut entries: Vec<PerftEntry> = Vec::new();
    let mut in_array = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if in_array {
            if line == "]" {
                in_array = false;
                continue;
            }
            let inner = line
                .trim_end_matches(',')
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| SuiteError::new(n, "expected [depth, nodes]"))?;
            let mut parts = inner.split(',').map(str::trim);
            let (Some(d), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(SuiteError::new(n, "expected two numbers"));
            };
            let d: u32 = d.parse().map_err(|_| SuiteError::new(n, "bad depth"))?;
            let c: u64 = c
                .parse()
                .map_err(|_| SuiteError::new(n, "bad node count"))?;
            let entry = entries
                .last_mut()
                .ok_or_else(|| SuiteError::new(n, "row outside a position"))?;
            entry.counts.push((d, c));
            continue;
        }
        if line == "[[position]]" {
            entries.push(PerftEntry {
                id: String::new(),
                fen: String::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| SuiteError::new(n, "expected key = value"))?;
        let entry = entries
            .last_mut()
            .ok_or_else(|| SuiteError::new(n, "key outside a [[position]] table"))?;
        match key {
            "id" => entry.id = string_value(n, value)?,
            "fen" => entry.fen = string_value(n, value)?,
            "perft" if value == "[" => in_array = true,
            _ => return Err(SuiteError::new(n, format!("unexpected key {key:?}"))),
        }
    }
    if in_array {
        return Err(SuiteError::new(0, "unterminated perft array"));
    }
    for e in &entries {
        if e.id.is_empty() || e.fen.is_empty() || e.counts.is_empty() {
            return Err(SuiteError::new(
                0,
                format!("incomplete position {:?}", e.id),
            ));
        }
    }
    Ok(entries)
}

/// The result of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftResult {
    /// The position's id.
    pub id: String,
    /// The depth.
    pub depth: u32,
    /// The published count.
    pub expected: u64,
    /// The bulk-counting perft's count.
    pub counted: u64,
    /// The generic `gametree_game::perft` count, when the row was within [`GENERIC_BUDGET`].
    pub generic: Option<u64>,
    /// Wall-clock time of the bulk count.
    pub elapsed: Duration,
}

impl PerftResult {
    /// Do all the counts equal the published one?
    #[must_use]
    pub fn ok(&self) -> bool {
        self.counted == self.expected && self.generic.is_none_or(|g| g == self.expected)
    }
}

/// Why running the data file failed.
#[derive(Debug)]
pub enum RunError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file is malformed.
    Format(SuiteError),
    /// A position's FEN is invalid.
    Fen(String, FenError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Io(e) => write!(f, "reading the perft data: {e}"),
            RunError::Format(e) => e.fmt(f),
            RunError::Fen(id, e) => write!(f, "position {id}: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs every row whose published count is at most `budget` nodes and
/// returns the results (check [`PerftResult::ok`]; nothing panics on a
/// mismatch).
///
/// # Errors
///
/// [`RunError::Fen`] when a position does not parse.
pub fn run(entries: &[PerftEntry], budget: u64) -> Result<Vec<PerftResult>, RunError> {
    let mut out = Vec::new();
    for e in entries {
        let mut pos: Position = e
            .fen
            .parse()
            .map_err(|err| RunError::Fen(e.id.clone(), err))?;
        for &(depth, expected) in &e.counts {
            if expected > budget {
                continue;
            }
            let start = Instant::now();
            let counted = pos.perft(depth);
            let elapsed = start.elapsed();
            let generic =
                (expected <= GENERIC_BUDGET).then(|| gametree_game::perft(&mut pos, depth));
            out.push(PerftResult {
                id: e.id.clone(),
                depth,
                expected,
                counted,
                generic,
                elapsed,
            });
        }
    }
    Ok(out)
}

/// The data file's path (`data/chess-perft.toml` inside this crate's
/// package, so a packaged crate carries it).
#[must_use]
pub fn data_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/chess-perft.toml")
}

/// Reads the data file at `path` and [`run`]s it with `budget`: the entry
/// point for `cargo xtask verify` (e.g. `verify_file(&data_path(), 1 << 30)`
/// counts every row up to about a billion nodes).
///
/// # Errors
///
/// [`RunError`] when the file cannot be read or parsed.
pub fn verify_file(path: &Path, budget: u64) -> Result<Vec<PerftResult>, RunError> {
    let text = std::fs::read_to_string(path).map_err(RunError::Io)?;
    let entries = parse(&text).map_err(RunError::Format)?;
    run(&entries, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cheap_rows_of_the_data_file() {
        let results = verify_file(&data_path(), TEST_BUDGET).unwrap();
        assert!(results.len() >= 30, "only {} rows ran", results.len());
        let ids: std::collections::BTreeSet<_> = results.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), 7);
        for r in &results {
            assert!(r.ok(), "{r:?}");
        }
    }

    #[test]
    fn divide_agrees_with_generic_divide() {
        for fen in [
            crate::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let mut p: Position = fen.parse().unwrap();
            let ours = p.perft_divide(3);
            assert_eq!(ours, gametree_game::perft_divide(&mut p, 3));
            assert_eq!(ours.iter().map(|r| r.1).sum::<u64>(), p.perft(3));
            assert!(p.perft_divide(0).is_empty());
        }
    }

    #[test]
    fn parse_errors() {
        assert!(parse("id = \"x\"").is_err());
        assert_eq!(parse("[[position]]\nid = x").unwrap_err().line(), 2);
        assert!(parse("[[position]]\nid = \"a\"\nfen = \"b\"\nperft = [\n[1, 2]\n").is_err());
        assert!(parse("[[position]]\nid = \"a\"\nfen = \"b\"\nperft = [\n[1, x]\n]").is_err());
        assert!(parse("[[position]]\nid = \"a\"\nfen = \"b\"\n").is_err());
        let ok =
            parse("[[position]] # c\nid = \"a\"\nfen = \"b\"\nperft = [\n  [1, 2],\n]\n").unwrap();
        assert_eq!(ok[0].counts, vec![(1, 2)]);
    }
}
