//! Chess databases: endings of up to 5 pieces, with and without pawns,
//! each with the endings its captures and promotions
//! lead to (`gametree_chess_tables`).

use std::path::Path;
use std::sync::{Mutex, OnceLock};

use gametree_chess_tables::{
    BuildOptions, Endgame, FastEndgame, MAX_PAWN_BUILD_PIECES, Signature, Tables, successor_endings,
};
use gametree_game::{Game, Outcome};
use gametree_games_chess::Position as Chess;
use gametree_retrograde::{Event, Generator, Table, Value};
use indicatif::ProgressBar;

use super::{MAX_CHESS_PIECES, Probe, line, report_event, table_path};
use crate::error::{CliError, Result};
use crate::progress;

/// Built or loaded chess databases by material, each with its index space
/// (`FastEndgame`: the `Endgame` numbering over piece lists, which the
/// indexed backward method builds over). The tables (a
/// `gametree_chess_tables::Tables`) are the resolver of each new build: a capture
/// is valued in the table of its material.
#[derive(Debug, Default)]
pub(super) struct ChessTables {
    pub(super) tables: Tables,
}

impl ChessTables {
    /// The value of a chess position from the tables (or from the rules
    /// when the game is over).
    fn value(&self, p: &Chess) -> Option<Value> {
        match p.outcome() {
            Some(Outcome::Loss) => return Some(Value::Loss(0)),
            Some(Outcome::Draw) => return Some(Value::Draw),
            Some(Outcome::Win) => return Some(Value::Win(0)),
            None => {}
        }
        self.tables.probe(p)
    }

    /// Makes sure the database of `sig` and of every ending it captures
    /// into is present: loaded from `dir` when there, else built (and
    /// written to `dir` when given). An ending in which only Black has
    /// pieces (`KvKR`) is kept as its colour exchange (`KRvK`), the name
    /// `tb build chess:N` gives it: one file per ending.
    pub(super) fn ensure(
        &mut self,
        sig: &Signature,
        dir: Option<&Path>,
        threads: usize,
        verbose: bool,
    ) -> Result<()> {
        let white: Signature;
        let sig = if sig.to_string().starts_with("Kv") && sig.piece_count() > 2 {
            white = sig.flipped();
            &white
        } else {
            sig
        };
        let name = sig.to_string();
        if self.tables.table(sig).is_some() {
            return Ok(());
        }
        check_size(sig)?;
        for sub in successor_endings(sig) {
            self.ensure_covered(&sub, dir, threads, verbose)?;
        }
        if let Some(dir) = dir {
            let path = table_path(dir, &name);
            if path.exists() {
                let table = Table::read(&path, &gametree_chess_tables::label(sig))
                    .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
                self.keep(table)?;
                return Ok(());
            }
        }
        let pb = verbose.then(|| progress::bar(0, format!("building {name}")));
        let table = build_chess(sig, &self.tables, threads, pb.as_ref())?;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, &name);
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        }
        self.keep(table)
    }

    /// Makes sure `sig` or `sig` with the colours exchanged (either
    /// values its positions) is present, as `ensure` does for `sig`.
    pub(super) fn ensure_covered(
        &mut self,
        sig: &Signature,
        dir: Option<&Path>,
        threads: usize,
        verbose: bool,
    ) -> Result<()> {
        if self.tables.covers(sig) {
            return Ok(());
        }
        self.ensure(sig, dir, threads, verbose)
    }

    /// Adds a table labelled with `gametree_chess_tables::label`.
    fn keep(&mut self, table: Table) -> Result<()> {
        self.tables
            .insert(table)
            .map_err(|e| CliError::input(e.to_string()))?;
        Ok(())
    }
}

/// Builds the table of `sig` by the indexed backward method on `threads`
/// threads, its captures valued in `tables`, reporting to `pb` (cleared at
/// the end).
pub(super) fn build_chess(
    sig: &Signature,
    tables: &Tables,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    if sig.has_pawns() {
        return build_pawns(sig, tables, threads, pb);
    }
    let space = FastEndgame::from_endgame(Endgame::from_signature(sig.clone()));
    let report = |e: &Event| report_event(pb, e);
    let mut generator = Generator::new(&space)
        .label(gametree_chess_tables::label(sig))
        .threads(threads)
        .resolver(tables);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    let table = generator
        .backward_indexed()
        .map_err(|e| CliError::input(format!("building {sig}: {e}")))?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(table)
}

/// Builds the table of an ending with pawns (whose sub-endings are in
/// `tables`) by the indexed backward method over `PawnEndgame`.
fn build_pawns(
    sig: &Signature,
    tables: &Tables,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    let report = |_: &Signature, e: &Event| report_event(pb, e);
    let options = BuildOptions {
        threads,
        progress: pb
            .is_some()
            .then_some(&report as &gametree_chess_tables::Progress<'_>),
    };
    let table = tables
        .build_table(sig, &options)
        .map_err(|e| CliError::input(format!("building {sig}: {e}")))?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(table)
}

/// Refuses endings too large to build here.
pub(super) fn check_size(sig: &Signature) -> Result<()> {
    if sig.piece_count() > MAX_CHESS_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        )));
    }
    if sig.has_pawns() && sig.piece_count() > MAX_PAWN_BUILD_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases with pawns of more than {MAX_PAWN_BUILD_PIECES} pieces are not available (time)"
        )));
    }
    Ok(())
}

fn chess_tables() -> &'static Mutex<ChessTables> {
    static TABLES: OnceLock<Mutex<ChessTables>> = OnceLock::new();
    TABLES.get_or_init(|| Mutex::new(ChessTables::default()))
}

/// The chess databases' answer for `p`, building the tables it needs (in
/// memory, or loaded from and kept in `dir`).
pub(crate) fn probe_chess(
    p: &Chess,
    threads: usize,
    dir: Option<&Path>,
) -> Result<Probe<gametree_games_chess::Move>> {
    let sig = chess_signature(p)?;
    let mut tables = chess_tables()
        .lock()
        .map_err(|_| CliError::input("database cache poisoned"))?;
    tables.ensure(&sig, dir, threads, progress::enabled())?;
    let mut probe = line(p, |q| tables.value(q))?;
    probe.positions = tables.tables.tables().map(|(_, t)| t.len()).sum();
    Ok(probe)
}

fn chess_signature(p: &Chess) -> Result<Signature> {
    if p.castling_rights() != 0 {
        return Err(CliError::input(
            "the position has castling rights; databases cover positions without them",
        ));
    }
    let sig = Signature::of(p).ok_or_else(|| {
        CliError::unavailable(format!(
            "databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        ))
    })?;
    check_size(&sig)?;
    Ok(sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_chess_tables::captures;

    #[test]
    fn capture_targets() {
        let s: Signature = "KQvKR".parse().unwrap();
        let subs: Vec<String> = captures(&s).iter().map(ToString::to_string).collect();
        assert_eq!(subs, ["KvKR", "KQvK"]);
        let kqk: Signature = "KQvK".parse().unwrap();
        assert!(captures(&kqk).is_empty());
        let kbb: Signature = "KBBvK".parse().unwrap();
        assert_eq!(captures(&kbb).len(), 1);
    }
}
