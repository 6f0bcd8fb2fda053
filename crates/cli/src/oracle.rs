//! `--tables DIR`: endgame databases that `solve` and `analyse` probe at
//! the leaves of their searches.

use std::path::Path;
use std::sync::Arc;

use gametree_chess_tables::{Held, Load, LoadEvent, Tablebase, is_compressed};
use gametree_game::{Oracle, Score};
use gametree_games_chess::Position;
use gametree_retrograde::Value;

use crate::error::{CliError, Result};

/// Without a figure of the machine's memory, the tables kept in memory at
/// once take at most this much.
const DEFAULT_BUDGET: u64 = 4 << 30;

/// The chess tables in `dir` (the `ENDING.gtb` files that `gametree tb
/// build ... --out DIR` writes, or the `ENDING.gtbz` files of `gametree
/// tb compress`), in a [`Tablebase`]: each read when a probe first needs
/// it. An ending with a raw file is read whole (fastest for a search's
/// many probes); one with only a compressed file is probed a block at a
/// time, only its block index kept in memory, until it has been probed
/// once per 1,024 of its positions: its table is then decoded whole, when
/// it fits in the budget.
///
/// Memory stays bounded: the tables read are kept while they fit in a
/// budget, half the machine's physical memory (4 GiB where the system
/// does not tell it), and at least the largest table of the directory;
/// reading one more beyond it first drops the tables probed least
/// recently. The budget and the largest table are stated on standard
/// error; with `GAMETREE_TB_TRACE` set, each table read too.
///
/// Each file's header is checked when the oracle is made (a raw file's
/// length too: `Tablebase::add_directory`), and the rest (a raw file's
/// payload checksum; a compressed file's block index, then each block)
/// when a probe first reads it. A file refused then (damaged in its
/// payload, or changed since) is an error the search cannot return: it is
/// said on standard error, in the words `tb probe` and `tb stats` use,
/// and the program exits with status 2.
///
/// # Errors
///
/// `dir` is not a readable directory, holds no table, or a table file is
/// refused (not a table, truncated, corrupted, another format version or
/// another ending's).
pub(crate) fn chess_tables(dir: &Path) -> Result<Arc<dyn Oracle<Position>>> {
    let mut tablebase = Tablebase::new();
    if std::env::var_os(crate::tb::TRACE_VAR).is_some() {
        tablebase.set_listener(trace);
    }
    let n = tablebase
        .add_directory(dir)
        .map_err(|e| crate::tb::add_directory_error(dir, "--tables", &e))?;
    if n == 0 {
        return Err(CliError::input(format!(
            "--tables {}: no chess table (ENDING.gtb or ENDING.gtbz) in this directory; build some with `gametree tb build chess:4 --out {}`",
            dir.display(),
            dir.display()
        )));
    }
    let largest = tablebase.largest_read();
    let budget = crate::tb::physical_memory()
        .map_or(DEFAULT_BUDGET, |total| total / 2)
        .max(largest);
    tablebase.set_memory_budget(budget);
    let names: Vec<String> = tablebase
        .files()
        .map(|(s, p)| {
            if is_compressed(p) {
                format!("{s}.gtbz")
            } else {
                s.to_string()
            }
        })
        .collect();
    eprintln!(
        "tables: {} in {} ({}), each read when first probed (a .gtbz file opened, not read); at most {} MiB \
         kept in memory (the largest table: {} MiB)",
        names.len(),
        dir.display(),
        names.join(" "),
        budget >> 20,
        largest.div_ceil(1 << 20)
    );
    Ok(Arc::new(Exiting(tablebase)))
}

/// The endings in memory, space-separated (`.gtbz` for a compressed file
/// probed a block at a time), as the trace says them.
pub(crate) fn names(in_memory: &[(gametree_chess_tables::Signature, Held)]) -> String {
    let names: Vec<String> = in_memory
        .iter()
        .map(|(s, held)| match held {
            Held::Whole => s.to_string(),
            Held::Blocks => format!("{s}.gtbz"),
        })
        .collect();
    names.join(" ")
}

/// Says a table read, opened, decoded or dropped on standard error, with
/// the tables then in memory (`GAMETREE_TB_TRACE`).
pub(crate) fn trace(e: &LoadEvent<'_>) {
    let ending = e.ending;
    let what = match e.load {
        Load::Read => format!("read {ending}"),
        Load::Opened => format!("opened {ending}.gtbz"),
        Load::Decoded => format!("decoded {ending}.gtbz whole"),
        Load::Dropped => format!("dropped {ending}"),
        _ => format!("{:?} {ending}", e.load),
    };
    eprintln!("tables: {what}; in memory: {}", names(e.in_memory));
}

/// Ends the program on a table refused while a search probes it (an
/// error the search cannot return), as `main` ends it on an error:
/// `error: MESSAGE` on standard error, exit status 2.
fn fail(e: &CliError) -> ! {
    eprintln!("error: {e}");
    std::process::exit(i32::from(e.exit_code()));
}

/// The tablebase as the searches' oracle, a file refused while a search
/// probes it ending the program ([`fail`]).
struct Exiting(Tablebase);

impl Oracle<Position> for Exiting {
    fn probe(&self, position: &Position) -> Option<Score> {
        match self.0.probe(position) {
            Ok(v) => v.map(Value::to_score),
            Err(e) => fail(&crate::tb::tablebase_error(&self.0, &e)),
        }
    }
}
