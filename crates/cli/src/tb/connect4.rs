//! Connect Four databases of small boards: every reachable position, a
//! position and its mirror image once.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use gametree_game::{Game, IndexSpace, Outcome};
use gametree_games_connect4::{Board as Connect4, BoardIndex as Connect4Index, Size};
use gametree_retrograde::{Event, Generator, Label, Method, Table, Value};
use indicatif::ProgressBar;

use super::{CONNECT4_SCHEME, Probe, line, report_event, table_path};
use crate::error::{CliError, Result};
use crate::progress;

fn connect4_label(size: Size) -> Label {
    Label::new("connect4", size.to_string(), CONNECT4_SCHEME)
}

pub(super) fn connect4_name(size: Size) -> String {
    format!("connect4-{size}")
}

/// The mirror-reduced index space of a board, or a one-line error when the
/// board is too large for a database.
pub(super) fn connect4_space(size: Size) -> Result<Connect4Index> {
    Connect4Index::symmetric(size).map_err(|e| {
        CliError::unavailable(format!(
            "connect4:{size}: no database ({e}; 4x4, 5x4 and 4x5 fit)"
        ))
    })
}

pub(super) fn build_connect4(
    space: &Connect4Index,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    let size = space.board_size();
    let report = |e: &Event<'_, _>| report_event(pb, e);
    let mut generator = Generator::new(space)
        .label(connect4_label(size))
        .threads(threads);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    generator
        .build(Method::Backward)
        .map_err(|e| CliError::input(format!("building the connect4:{size} database: {e}")))
}

/// The database of `size`: read from `dir` when it holds one, else built
/// (with a progress bar when `verbose`), and kept for the process.
pub(super) fn connect4_table(
    size: Size,
    dir: Option<&Path>,
    threads: usize,
    verbose: bool,
) -> Result<&'static (Connect4Index, Table)> {
    static TABLES: OnceLock<Mutex<HashMap<Size, &'static (Connect4Index, Table)>>> =
        OnceLock::new();
    let tables = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut tables = tables
        .lock()
        .map_err(|_| CliError::input("database cache poisoned"))?;
    if let Some(&t) = tables.get(&size) {
        return Ok(t);
    }
    let space = connect4_space(size)?;
    let path = dir.map(|d| table_path(d, &connect4_name(size)));
    let table = match &path {
        Some(path) if path.exists() => Table::read(path, &connect4_label(size))
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?,
        _ => {
            let pb = verbose.then(|| progress::bar(0, format!("building connect4:{size}")));
            let table = build_connect4(&space, threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            table
        }
    };
    if table.len() != space.size() {
        return Err(CliError::input(format!(
            "the connect4:{size} database has {} entries, {} expected",
            table.len(),
            space.size()
        )));
    }
    // One table per board size for the life of the process.
    let entry: &'static (Connect4Index, Table) = Box::leak(Box::new((space, table)));
    tables.insert(size, entry);
    Ok(entry)
}

fn connect4_value(space: &Connect4Index, table: &Table, b: &Connect4) -> Option<Value> {
    match b.outcome() {
        Some(Outcome::Loss) => Some(Value::Loss(0)),
        Some(Outcome::Draw) => Some(Value::Draw),
        Some(Outcome::Win) => Some(Value::Win(0)),
        None => table.get(space.index_of(b)?),
    }
}

/// The Connect Four database's answer for `b` (built in memory, or read
/// from `dir` when it holds the file).
pub(crate) fn probe_connect4(
    b: &Connect4,
    threads: usize,
    dir: Option<&Path>,
) -> Result<Probe<gametree_games_connect4::Column>> {
    let (space, table) = connect4_table(b.size(), dir, threads, progress::enabled())?;
    let mut probe = line(b, |p| connect4_value(space, table, p))?;
    probe.positions = space.positions();
    Ok(probe)
}
