//! `tb stats`: win/draw/loss counts for each side to move and the longest
//! win.

use gametree_chess_tables::{Wdl, pawn_statistics, statistics};
use gametree_game::{Game, IndexSpace, Player};
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::{Counts, Table};

use super::chess::{Builds, Directory};
use super::connect4::connect4_table;
use super::tictactoe::{build_tictactoe, tictactoe_label};
use super::{Material, existing_dir, parse_material, table_path};
use crate::error::{CliError, Result};
use crate::output::{Record, Value as Out};
use crate::progress;

/// What a chess ending's `wtm`/`btm` and `raw_wtm`/`raw_btm` count.
const CHESS_COUNTED: &str = "wtm/btm: Syzygy convention (positions up to the 8 symmetries, \
     like pieces told apart); raw_wtm/raw_btm: index entries (like pieces not told apart)";

/// The same for an ending with pawns.
const CHESS_PAWNS_COUNTED: &str = "wtm/btm: Syzygy convention (positions without an en-passant \
     capture, up to the reflection between the d- and e-files, like pieces told apart); \
     raw_wtm/raw_btm: index entries (like pieces not told apart)";

fn wdl(c: &Counts) -> Out {
    let mut r = Record::new();
    r.int("win", c.wins)
        .int("draw", c.draws)
        .int("loss", c.losses);
    Out::Object(r)
}

fn chess_wdl(c: Wdl) -> Out {
    let mut r = Record::new();
    r.int("win", c.wins)
        .int("draw", c.draws)
        .int("loss", c.losses);
    Out::Object(r)
}

/// `tb stats`.
pub(crate) fn stats(material: &str, dir: &str, json: bool) -> Result<()> {
    let dir = existing_dir(dir)?;
    let mut r = Record::new();
    match parse_material(material)? {
        Material::TicTacToe => {
            let path = table_path(dir, "tictactoe");
            let table = if path.exists() {
                Table::read(&path, &tictactoe_label())
                    .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?
            } else {
                build_tictactoe(1, None)?
            };
            let space = BoardIndex::plain();
            let side = |i: u64| space.position(i).map(|p| p.side_to_move());
            let first = table.counts_where(|i| side(i) == Some(Player::First));
            let second = table.counts_where(|i| side(i) == Some(Player::Second));
            let all = table.counts();
            r.str("material", "tictactoe")
                .push("wtm", wdl(&first))
                .push("btm", wdl(&second))
                .push("raw_wtm", wdl(&first))
                .push("raw_btm", wdl(&second));
            longest(&mut r, all.longest_win, |i| {
                space.position(i).map(|p| p.to_string())
            });
        }
        Material::Connect4(size) => {
            let (space, table) = connect4_table(size, Some(dir), 1, progress::enabled())?;
            // Classes (a position and its mirror image once) by side to
            // move, then every position (mirror images counted apart).
            let first = |i: u64| space.stones(i).is_some_and(|n| n % 2 == 0);
            let second = |i: u64| space.stones(i).is_some_and(|n| n % 2 == 1);
            let wtm = table.counts_where(first);
            let btm = table.counts_where(second);
            let raw_wtm = table.counts_where(|i| first(i) && space.class_size(i) == Some(2));
            let raw_btm = table.counts_where(|i| second(i) && space.class_size(i) == Some(2));
            r.str("material", format!("connect4:{size}"))
                .push("wtm", wdl(&wtm))
                .push("btm", wdl(&btm))
                .push("raw_wtm", wdl_sum(&wtm, &raw_wtm))
                .push("raw_btm", wdl_sum(&btm, &raw_btm));
            longest(&mut r, table.counts().longest_win, |i| {
                space.position(i).map(|p| p.to_string())
            });
        }
        Material::Chess(sig) => {
            if sig.to_string().starts_with("Kv") && sig.piece_count() > 2 {
                // Its table is the colour exchange's (`tb build` keeps one
                // file per ending, named with White's pieces).
                return Err(CliError::input(format!(
                    "{sig}: only Black has pieces; ask for {} (the same ending, colours exchanged)",
                    sig.flipped()
                )));
            }
            // The statistics read this ending's table alone (built into
            // `dir` first, as `tb build` builds it, when its file is not
            // there), never the tables it leads to.
            let mut tables = Directory::new(dir, 1, Builds::All);
            tables.read_exact(&sig)?;
            let tables = tables.tablebase();
            let no_table = || CliError::input(format!("{sig}: no table"));
            let (s, counted, fen): (_, _, Box<dyn Fn(u64) -> Option<String>>) = if sig.has_pawns() {
                let (space, table) = tables.get_pawns(&sig).ok_or_else(no_table)?;
                let s =
                    pawn_statistics(space, table).map_err(|e| CliError::input(e.to_string()))?;
                let fen = |i| space.position(i).map(|p| p.to_string());
                (s, CHESS_PAWNS_COUNTED, Box::new(fen))
            } else {
                let (space, table) = tables.get(&sig).ok_or_else(no_table)?;
                let s = statistics(space, table).map_err(|e| CliError::input(e.to_string()))?;
                let fen = |i| space.endgame().position(i).map(|p| p.to_string());
                (s, CHESS_COUNTED, Box::new(fen))
            };
            r.str("material", sig.to_string())
                .str("counted", counted)
                .push("wtm", chess_wdl(s.white))
                .push("btm", chess_wdl(s.black))
                .push("raw_wtm", chess_wdl(s.raw_white))
                .push("raw_btm", chess_wdl(s.raw_black));
            // The longest win for either side to move (White's first on a
            // tie: the smaller index).
            let win = match (s.longest_white_win, s.longest_black_win) {
                (Some(w), Some(b)) if b.0 > w.0 => Some(b),
                (None, b) => b,
                (w, _) => w,
            };
            longest(&mut r, win, fen);
        }
    }
    if json {
        println!("{}", r.json());
    } else {
        print!("{}", r.lines());
    }
    Ok(())
}

/// `a + b`, class by class (every class once, plus a second time for the
/// classes in `b`).
fn wdl_sum(a: &Counts, b: &Counts) -> Out {
    let mut r = Record::new();
    r.int("win", a.wins + b.wins)
        .int("draw", a.draws + b.draws)
        .int("loss", a.losses + b.losses);
    Out::Object(r)
}

fn longest(r: &mut Record, win: Option<(u16, u64)>, fen: impl Fn(u64) -> Option<String>) {
    match win {
        Some((plies, index)) => {
            r.int("longest_win_plies", plies);
            r.push("longest_win_fen", fen(index).map_or(Out::Null, Out::Str));
        }
        None => {
            r.int("longest_win_plies", 0);
            r.push("longest_win_fen", Out::Null);
        }
    }
}
