//! `gametree tb`: endgame databases by retrograde analysis — tic-tac-toe
//! (every reachable position), Connect Four on small boards (every
//! reachable position, mirror images merged) and chess endings (pawnless
//! and with pawns, up to 5 pieces).
//!
//! `build.rs`, `stats.rs` and `probe.rs` are the subcommands;
//! `tictactoe.rs`, `connect4.rs` and `chess.rs` hold each game's
//! databases.

use std::path::{Path, PathBuf};

use gametree_chess_tables::Signature;
use gametree_game::{Game, MoveBuffer};
use gametree_games_connect4::Size;
use gametree_retrograde::{Event, Value};
use indicatif::ProgressBar;

use crate::error::{CliError, Result};

mod build;
mod chess;
mod compress;
mod connect4;
mod probe;
mod stats;
mod tictactoe;

pub(crate) use build::{build, physical_memory};
pub(crate) use chess::{TRACE_VAR, probe_chess};
pub(crate) use compress::compress;
pub(crate) use connect4::probe_connect4;
pub(crate) use probe::probe;
pub(crate) use stats::stats;
pub(crate) use tictactoe::probe_tictactoe;

/// The largest chess ending built (pieces, kings included).
const MAX_CHESS_PIECES: usize = 5;
/// The longest line printed by a probe.
const MAX_PV: usize = 200;
/// The index scheme written into the tic-tac-toe database header.
const TICTACTOE_SCHEME: &str = "base3-plain-v1";
/// The index scheme written into Connect Four database headers.
const CONNECT4_SCHEME: &str = "columns-mirror-v1";

/// A position's value from a database, with a best move and line.
#[derive(Debug)]
pub(crate) struct Probe<M> {
    /// The value (`None` never happens for a position inside a database).
    pub(crate) value: Option<Value>,
    /// A best move (none at the end of the game).
    pub(crate) best: Option<M>,
    /// The line of best moves to the end (at most 200 plies).
    pub(crate) pv: Vec<M>,
    /// Positions in the databases consulted.
    pub(crate) positions: u64,
}

// --------------------------------------------------------------- progress

fn report_event<M>(pb: Option<&ProgressBar>, e: &Event<'_, M>) {
    let Some(pb) = pb else { return };
    match *e {
        Event::Start { positions, .. } => {
            pb.set_length(positions);
            pb.set_position(0);
        }
        Event::Level { total, valid, .. } => {
            pb.set_length(valid);
            pb.set_position(total);
        }
        _ => {}
    }
}

// ------------------------------------------------------------- subcommands

/// What `tb` commands accept as material.
enum Material {
    TicTacToe,
    Connect4(Size),
    Chess(Signature),
}

/// `connect4` (7×6) or `connect4:WxH` as a board size.
fn parse_connect4(t: &str) -> Result<Size> {
    let lower = t.to_ascii_lowercase();
    let size = match lower.strip_prefix("connect4") {
        Some("") => Size::STANDARD,
        Some(rest) => {
            let dims = rest.strip_prefix(':').ok_or_else(|| {
                CliError::input(format!("bad game {t:?}: expected connect4 or connect4:WxH"))
            })?;
            dims.parse::<Size>()
                .map_err(|e| CliError::input(format!("bad Connect Four size in {t:?}: {e}")))?
        }
        None => return Err(CliError::input(format!("bad game {t:?}"))),
    };
    connect4_space_check(size)?;
    Ok(size)
}

/// Refuses a board whose database would be too large, before any work.
fn connect4_space_check(size: Size) -> Result<()> {
    let bits = size.stride() * size.width() as u32;
    if bits > gametree_games_connect4::index::MAX_INDEX_BITS {
        return Err(CliError::unavailable(format!(
            "connect4:{size}: no database (2^{bits} indices, at most 2^{}; 4x4, 5x4 and 4x5 fit)",
            gametree_games_connect4::index::MAX_INDEX_BITS
        )));
    }
    Ok(())
}

fn parse_material(text: &str) -> Result<Material> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("tictactoe") {
        return Ok(Material::TicTacToe);
    }
    if t.to_ascii_lowercase().starts_with("connect4") {
        return parse_connect4(t).map(Material::Connect4);
    }
    let sig: Signature = t.parse().map_err(|e| {
        CliError::input(format!(
            "bad material {t:?}: {e} (expected e.g. KQvKR, or tictactoe)"
        ))
    })?;
    if sig.piece_count() > MAX_CHESS_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        )));
    }
    Ok(Material::Chess(sig))
}

/// `chess:N` (N pieces, kings included), when `text` is of that form.
fn parse_all_chess(text: &str) -> Option<Result<usize>> {
    let lower = text.trim().to_ascii_lowercase();
    let rest = lower.strip_prefix("chess:")?;
    Some(match rest.parse::<usize>() {
        Ok(men @ 3..=MAX_CHESS_PIECES) => Ok(men),
        _ => Err(CliError::input(format!(
            "bad material {text:?}: chess:N builds every ending of N pieces, N from 3 to {MAX_CHESS_PIECES}"
        ))),
    })
}

/// Follows best moves by the values of the successors.
fn line<G: Game>(g: &G, value: impl Fn(&G) -> Option<Value>) -> Result<Probe<G::Move>> {
    line_visiting(g, |q| Ok(value(q)), |_| Ok(()))
}

/// [`line()`], where `value` may fail (reading a table) and `visit` is
/// called with each position of the line before the positions after its
/// moves are valued (to drop the tables the rest of the line no longer
/// needs: a line never comes back to an ending it has left).
fn line_visiting<G: Game>(
    g: &G,
    mut value: impl FnMut(&G) -> Result<Option<Value>>,
    mut visit: impl FnMut(&G) -> Result<()>,
) -> Result<Probe<G::Move>> {
    let missing = || CliError::input("the position is not in the database");
    let root = value(g)?.ok_or_else(missing)?;
    let mut pos = g.clone();
    let mut pv = Vec::new();
    while pos.outcome().is_none() && pv.len() < MAX_PV {
        visit(&pos)?;
        let mut moves = G::Moves::default();
        pos.generate(&mut moves);
        let mut best: Option<(G::Move, Value)> = None;
        for &m in moves.as_slice() {
            let mut child = pos.clone();
            child.make(m);
            let v = value(&child)?.ok_or_else(missing)?.parent();
            // `Score` orders faster wins first and slower losses last.
            if best.is_none_or(|(_, b)| v.to_score() > b.to_score()) {
                best = Some((m, v));
            }
        }
        let Some((m, _)) = best else { break };
        pv.push(m);
        pos.make(m);
        if root == Value::Draw && pv.len() >= 20 {
            break;
        }
    }
    Ok(Probe {
        value: Some(root),
        best: pv.first().copied(),
        pv,
        positions: 0,
    })
}

/// The chess table files of `dir` whose extension is `gtb` (raw) or, with
/// `compressed`, `gtbz` too, each with the ending its name says (other
/// files are passed over), in the directory's order; `what` names the
/// directory in errors (`--dir`, `--tables`).
pub(crate) fn chess_files(
    dir: &Path,
    compressed: bool,
    what: &str,
) -> Result<Vec<(Signature, PathBuf)>> {
    let files = gametree_chess_tables::table_files(dir)
        .map_err(|e| CliError::input(format!("{what} {}: {e}", dir.display())))?;
    Ok(files
        .into_iter()
        .filter(|(_, path)| compressed || !gametree_chess_tables::is_compressed(path))
        .collect())
}

fn table_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.gtb"))
}

/// `dir` as a path, when it is an existing directory: `stats` and `probe`
/// keep the tables they build there but never create it (a mistyped
/// `--dir` would otherwise rebuild every table into a new directory).
fn existing_dir(dir: &str) -> Result<&Path> {
    let path = Path::new(dir);
    if path.is_dir() {
        Ok(path)
    } else if path.exists() {
        Err(CliError::input(format!(
            "--dir {dir} is a file, not a directory"
        )))
    } else {
        Err(CliError::input(format!(
            "--dir {dir}: no such directory (create it, or let `gametree tb build ... --out {dir}` create it)"
        )))
    }
}

/// A chess table file refused (damaged, another ending's) or not
/// readable, in the words every command that reads tables uses: `PATH:
/// what is wrong`, the words of `gametree_retrograde::LoadError` for a
/// damaged file (`truncated database: N bytes, at least M expected`,
/// `corrupted database: payload checksum mismatch`, ...), `path` the
/// file read.
pub(crate) fn table_error(path: &Path, e: &gametree_chess_tables::Error) -> CliError {
    match e {
        // The path says the ending.
        gametree_chess_tables::Error::Load { source, .. } => {
            CliError::input(format!("{}: {source}", path.display()))
        }
        _ => CliError::input(format!("{}: {e}", path.display())),
    }
}

/// An error of a probe of `tablebase` (a file refused when first read):
/// the file named as [`table_error`] names it.
pub(crate) fn tablebase_error(
    tablebase: &gametree_chess_tables::Tablebase,
    e: &gametree_chess_tables::Error,
) -> CliError {
    use gametree_chess_tables::Error;
    match e {
        Error::Load { ending, .. } | Error::Size { ending, .. } => match tablebase.file(ending) {
            Some(path) => table_error(path, e),
            None => CliError::input(e.to_string()),
        },
        _ => CliError::input(e.to_string()),
    }
}

/// An error of `Tablebase::add_directory` on `dir` (given as `what`:
/// `--tables`): a directory that cannot be read as `WHAT DIR: error`, a
/// file refused named as [`table_error`] names it (the file of its ending
/// the directory's tables take: raw, else compressed).
pub(crate) fn add_directory_error(
    dir: &Path,
    what: &str,
    e: &gametree_chess_tables::Error,
) -> CliError {
    use gametree_chess_tables::Error;
    match e {
        Error::Directory { source, .. } => {
            CliError::input(format!("{what} {}: {source}", dir.display()))
        }
        Error::Load { ending, .. } | Error::Size { ending, .. } => {
            let raw = gametree_chess_tables::table_file(dir, ending);
            let path = if raw.exists() {
                raw
            } else {
                gametree_chess_tables::compressed_table_file(dir, ending)
            };
            table_error(&path, e)
        }
        _ => CliError::input(e.to_string()),
    }
}

/// An error of a build into `dir` or of a probe of its files: a file
/// refused is named as [`table_error`] names it (the file of its ending
/// there: raw or compressed, its own or the colours exchanged's).
pub(crate) fn dir_error(dir: &Path, e: &gametree_chess_tables::Error) -> CliError {
    match e {
        gametree_chess_tables::Error::Load { ending, .. } => {
            let path = gametree_chess_tables::find_table_file(dir, ending)
                .map_or_else(|| gametree_chess_tables::table_file(dir, ending), |f| f.1);
            table_error(&path, e)
        }
        _ => CliError::input(e.to_string()),
    }
}
