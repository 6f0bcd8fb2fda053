//! `tb probe`: a position's value, best move and line from its database.

use std::path::Path;

use gametree_game::{Game, MoveBuffer};
use gametree_games_chess::Position as Chess;
use gametree_games_connect4::Board as Connect4;
use gametree_games_tictactoe::TicTacToe;
use gametree_retrograde::Value;

use super::chess::{Builds, Directory};
use super::{Probe, existing_dir, parse_connect4, probe_connect4, probe_tictactoe};
use crate::error::{CliError, Result};
use crate::output::{Record, Value as Out};

/// `tb probe`: `game` is `None` (a tic-tac-toe board or a chess FEN,
/// told apart by their text) or a game name (`tictactoe`, `connect4:WxH`,
/// `chess`). A chess table missing from `dir` is built into it first when
/// it has at most 4 pieces, or any with `build`; the probe is refused
/// otherwise, with the command that builds it.
pub(crate) fn probe(
    position: &str,
    game: Option<&str>,
    dir: &str,
    json: bool,
    all_moves: bool,
    build: bool,
) -> Result<()> {
    existing_dir(dir)?;
    let t = position.trim();
    let mut r = Record::new();
    let game = game.map(str::trim).map(str::to_ascii_lowercase);
    match game.as_deref() {
        None | Some("tictactoe" | "chess") => {}
        Some(g) if g.starts_with("connect4") => {
            let size = parse_connect4(g)?;
            let b = Connect4::from_moves(size, t)
                .map_err(|e| CliError::input(format!("bad Connect Four position {t:?}: {e}")))?;
            let probe = |q: &Connect4| probe_connect4(q, 1, Some(Path::new(dir)));
            fill_probe(&mut r, &probe(&b)?);
            if all_moves {
                r.push("moves", moves(&b, each_value(&b, probe)?)?);
            }
            return print_record(&r, json);
        }
        Some(g) => {
            return Err(CliError::unavailable(format!(
                "{g}: no databases for this game (tictactoe, connect4:WxH, chess)"
            )));
        }
    }
    let tictactoe = match game.as_deref() {
        Some("tictactoe") => true,
        Some(_) => false,
        None => t.chars().count() == 9 && !t.contains('/'),
    };
    if tictactoe {
        let g: TicTacToe = t
            .parse()
            .map_err(|e| CliError::input(format!("bad tic-tac-toe position {t:?}: {e}")))?;
        let probe = |q: &TicTacToe| probe_tictactoe(q, 1);
        fill_probe(&mut r, &probe(&g)?);
        if all_moves {
            r.push("moves", moves(&g, each_value(&g, probe)?)?);
        }
    } else {
        let g: Chess = if t.is_empty() || t == "startpos" {
            Chess::startpos()
        } else {
            t.parse()
                .map_err(|e| CliError::input(format!("bad chess FEN {t:?}: {e}")))?
        };
        // The tables of this ending and of the direct exits its moves
        // reach, read once: the moves' values first, then the line, which
        // starts from the same tables and drops each ending it leaves.
        // A missing table of up to 4 pieces is built at once; a larger
        // one only with `--build`.
        let builds = if build { Builds::All } else { Builds::Quick };
        let mut tables = Directory::new(Path::new(dir), 1, builds);
        let values = if all_moves {
            Some(tables.move_values(&g)?)
        } else {
            None
        };
        fill_probe(&mut r, &tables.probe(&g)?);
        if let Some(values) = values {
            r.push("moves", moves(&g, values)?);
        }
    }
    print_record(&r, json)
}

/// Each legal move of `g` with the value of the position after it
/// (`probe`'s).
fn each_value<G: Game>(
    g: &G,
    mut probe: impl FnMut(&G) -> Result<Probe<G::Move>>,
) -> Result<Vec<(G::Move, Option<Value>)>> {
    let mut list = G::Moves::default();
    g.generate(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.as_slice() {
        let mut child = g.clone();
        child.make(m);
        out.push((m, probe(&child)?.value));
    }
    Ok(out)
}

/// Every legal move of `g` with its value from the databases (`values`:
/// each move with the value of the position after it, in move order),
/// seen from the mover: the sign kept when the mover moves again, one ply
/// further from the end; best first: faster wins, then draws, then slower
/// losses; ties in move order.
fn moves<G: Game>(g: &G, values: Vec<(G::Move, Option<Value>)>) -> Result<Out> {
    let mover = g.side_to_move();
    let mut valued = Vec::with_capacity(values.len());
    for (m, after) in values {
        let mut child = g.clone();
        child.make(m);
        let kept = child.side_to_move() == mover;
        let after =
            after.ok_or_else(|| CliError::input(format!("move {m}: no value in the databases")))?;
        valued.push((m, after.to_score().back_up(kept)));
    }
    valued.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    let records = valued
        .into_iter()
        .map(|(m, score)| {
            let v = Value::from_score(score).unwrap_or(Value::Draw);
            let mut r = Record::new();
            r.str("move", m);
            r.str("value", v.outcome());
            r.push(
                "distance",
                v.plies().map_or(Out::Null, |d| Out::Int(i64::from(d))),
            );
            r
        })
        .collect();
    Ok(Out::Records(records))
}

fn print_record(r: &Record, json: bool) -> Result<()> {
    if json {
        println!("{}", r.json());
    } else {
        print!("{}", r.lines());
    }
    Ok(())
}

fn fill_probe<M: std::fmt::Display>(r: &mut Record, p: &Probe<M>) {
    let v = p.value.unwrap_or(Value::Draw);
    r.str("value", v.outcome());
    r.push(
        "distance",
        v.plies().map_or(Out::Null, |d| Out::Int(i64::from(d))),
    );
    r.push(
        "best",
        p.best
            .as_ref()
            .map_or(Out::Null, |m| Out::Str(m.to_string())),
    );
    r.push(
        "pv",
        Out::List(p.pv.iter().map(ToString::to_string).collect()),
    );
}
