//! `gametree verify`: the project's verification table, through
//! `gametree_verify` (the registry `cargo xtask verify` runs too).

use std::path::PathBuf;

use gametree_verify::{Mode, Options, Output};

use crate::error::{CliError, Result};

/// What `gametree verify` was asked.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) mode: Mode,
    pub(crate) game: Option<String>,
    pub(crate) variant: Option<String>,
    pub(crate) data: Option<PathBuf>,
    pub(crate) strict: bool,
    pub(crate) json: bool,
    pub(crate) list: bool,
}

/// Runs (or lists) the rows; a mismatch, or missing data under `--strict`,
/// is an error with exit code 1.
pub(crate) fn run(req: &Request) -> Result<()> {
    let mut o = Options::new(req.mode);
    o.game.clone_from(&req.game);
    o.variant.clone_from(&req.variant);
    if let Some(d) = &req.data {
        if !d.is_dir() {
            return Err(CliError::input(format!(
                "--data {}: no such directory",
                d.display()
            )));
        }
        o.data.clone_from(d);
    }
    o.strict = req.strict;
    o.output = if req.json {
        Output::Json
    } else {
        Output::Table
    };
    if req.list {
        let rows = gametree_verify::list(&o);
        if rows.is_empty() {
            return Err(CliError::input("no row matches --game/--variant"));
        }
        for r in rows {
            println!("{:<14} {:<9} {}", r.game, r.family.label(), r.variant);
        }
        return Ok(());
    }
    let summary = gametree_verify::run(&o).map_err(|e| CliError::input(e.to_string()))?;
    if summary.passed() {
        Ok(())
    } else {
        Err(CliError::mismatch(format!(
            "{} mismatches{}",
            summary.mismatches,
            if summary.strict_failed {
                format!(", {} rows without their data", summary.missing_data)
            } else {
                String::new()
            }
        )))
    }
}
