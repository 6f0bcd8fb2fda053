//! `--tables DIR`: endgame databases that `solve` and `analyse` probe at
//! the leaves of their searches.

use std::path::Path;
use std::sync::Arc;

use gametree_chess_tables::{Signature, Tables};
use gametree_game::Oracle;
use gametree_games_chess::Position;

use crate::error::{CliError, Result};

/// Every chess table in `dir` (the `ENDING.gtb` files that
/// `gametree tb build ... --out DIR` writes), loaded and checked.
///
/// # Errors
///
/// `dir` is not a readable directory, holds no table, or a table file is
/// refused (truncated, corrupt, another version or ending).
pub(crate) fn chess_tables(dir: &Path) -> Result<Arc<dyn Oracle<Position>>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| CliError::input(format!("--tables {}: {e}", dir.display())))?;
    let mut tables = Tables::new();
    let mut names = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| CliError::input(format!("--tables {}: {e}", dir.display())))?
            .path();
        if path.extension().and_then(|e| e.to_str()) != Some("gtb") {
            continue;
        }
        let Some(signature) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<Signature>().ok())
        else {
            continue;
        };
        tables
            .load(&signature, &path)
            .map_err(|e| CliError::input(format!("--tables: {}: {e}", path.display())))?;
        names.push(signature.to_string());
    }
    if names.is_empty() {
        return Err(CliError::input(format!(
            "--tables {}: no chess table (ENDING.gtb) in this directory; build some with `gametree tb build chess:4 --out {}`",
            dir.display(),
            dir.display()
        )));
    }
    names.sort();
    eprintln!(
        "tables: {} loaded from {} ({})",
        names.len(),
        dir.display(),
        names.join(" ")
    );
    Ok(Arc::new(tables))
}
