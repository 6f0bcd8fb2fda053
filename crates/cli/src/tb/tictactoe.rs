//! The tic-tac-toe database: every reachable position, built in memory.

use std::sync::OnceLock;

use gametree_game::{Game, IndexSpace, Outcome};
use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::{Event, Generator, Label, Method, Table, Value};
use indicatif::ProgressBar;

use super::{Probe, TICTACTOE_SCHEME, line, report_event};
use crate::error::{CliError, Result};

pub(super) fn tictactoe_label() -> Label {
    Label::new("tictactoe", "all", TICTACTOE_SCHEME)
}

pub(super) fn build_tictactoe(threads: usize, pb: Option<&ProgressBar>) -> Result<Table> {
    let space = BoardIndex::plain();
    let report = |e: &Event<'_, _>| report_event(pb, e);
    let mut generator = Generator::new(&space)
        .label(tictactoe_label())
        .threads(threads);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    generator
        .build(Method::Backward)
        .map_err(|e| CliError::input(format!("building the tic-tac-toe database: {e}")))
}

fn tictactoe_table(threads: usize) -> Result<&'static Table> {
    static TABLE: OnceLock<Table> = OnceLock::new();
    if let Some(t) = TABLE.get() {
        return Ok(t);
    }
    let t = build_tictactoe(threads, None)?;
    Ok(TABLE.get_or_init(|| t))
}

fn tictactoe_value(table: &Table, g: &TicTacToe) -> Option<Value> {
    match g.outcome() {
        Some(Outcome::Loss) => Some(Value::Loss(0)),
        Some(Outcome::Draw) => Some(Value::Draw),
        Some(Outcome::Win) => Some(Value::Win(0)),
        None => table.get(BoardIndex::plain().index_of(g)?),
    }
}

/// The tic-tac-toe database's answer for `g`.
pub(crate) fn probe_tictactoe(
    g: &TicTacToe,
    threads: usize,
) -> Result<Probe<gametree_games_tictactoe::Square>> {
    let table = tictactoe_table(threads)?;
    let mut probe = line(g, |p| tictactoe_value(table, p))?;
    probe.positions = table.counts().positions();
    Ok(probe)
}
