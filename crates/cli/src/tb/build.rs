//! `tb build`: a database written to a directory, or every chess ending
//! of N pieces.

use std::path::Path;

use gametree_chess_tables::{MAX_PAWN_BUILD_PIECES, captures, pawn_endings, pawnless_endings};
use gametree_retrograde::Table;

use super::chess::{ChessTables, build_chess};
use super::connect4::{build_connect4, connect4_name, connect4_space};
use super::tictactoe::build_tictactoe;
use super::{Material, parse_all_chess, parse_material, table_path};
use crate::error::{CliError, Result};
use crate::progress;

/// `tb build chess:N`: every ending of `men` pieces (once up to
/// colour exchange) and the endings they capture into, each written to
/// `dir` (or loaded from it when there). The endings they capture into
/// come first, one at a time on `threads` threads; the endings of `men`
/// pieces, which do not capture into each other, are then built several
/// at a time (`gametree_retrograde::schedule`, one thread each while others wait),
/// and each is dropped from memory once written, so memory holds the
/// smaller endings and one table per thread. Prints each ending's file,
/// in the order of `pawnless_endings`. Then, up to
/// `MAX_PAWN_BUILD_PIECES` pieces, every ending with pawns
/// (`pawn_endings`), one at a time with the endings it needs.
fn build_all_chess(men: usize, dir: &Path, threads: usize) -> Result<()> {
    let endings = pawnless_endings(men);
    let mut tables = ChessTables::default();
    for sig in &endings {
        for sub in captures(sig) {
            tables.ensure(&sub, Some(dir), threads, progress::enabled())?;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
    let bars = indicatif::MultiProgress::new();
    let tables = &tables;
    let needs = vec![Vec::new(); endings.len()];
    let paths = gametree_retrograde::schedule(&needs, threads, |job| {
        let sig = &endings[job.index()];
        let name = sig.to_string();
        let path = table_path(dir, &name);
        if path.exists() {
            // Loaded as `ensure` would: a bad file is an error.
            Table::read(&path, &gametree_chess_tables::label(sig))
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            return Ok(path);
        }
        let pb =
            progress::enabled().then(|| bars.add(progress::bar(0, format!("building {name}"))));
        let table = build_chess(sig, &tables.tables, job.threads(), pb.as_ref())?;
        table
            .write(&path)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        Ok(path)
    })
    .map_err(|e| match e {
        gametree_retrograde::ScheduleError::Build { error, .. } => error,
        other => CliError::input(other.to_string()),
    })?;
    for path in paths {
        println!("{}", path.display());
    }
    // Endings with pawns promote into endings of as many pieces: one at a
    // time, after the pawnless ones, each with what it needs.
    if men <= MAX_PAWN_BUILD_PIECES {
        let mut tables = ChessTables::default();
        for sig in pawn_endings(men) {
            tables.ensure(&sig, Some(dir), threads, progress::enabled())?;
            println!("{}", table_path(dir, &sig.to_string()).display());
        }
    }
    Ok(())
}

/// `tb build`.
pub(crate) fn build(material: &str, out: &str, threads: usize) -> Result<()> {
    let dir = Path::new(out);
    if let Some(men) = parse_all_chess(material) {
        return build_all_chess(men?, dir, threads);
    }
    match parse_material(material)? {
        Material::TicTacToe => {
            let pb = progress::enabled().then(|| progress::bar(0, "building tictactoe"));
            let table = build_tictactoe(threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, "tictactoe");
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Connect4(size) => {
            let space = connect4_space(size)?;
            let pb =
                progress::enabled().then(|| progress::bar(0, format!("building connect4:{size}")));
            let table = build_connect4(&space, threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, &connect4_name(size));
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Chess(sig) => {
            let mut tables = ChessTables::default();
            tables.ensure(&sig, Some(dir), threads, progress::enabled())?;
            println!("{}", table_path(dir, &sig.to_string()).display());
        }
    }
    Ok(())
}
