//! `tb compress`: the chess tables of a directory written compressed
//! (`ENDING.gtbz` beside `ENDING.gtb`), each checked by decoding it back.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use gametree_chess_tables::{Signature, Tablebase, compressed_table_file};
use gametree_retrograde::compressed::CompressedTable;

use super::build::human;
use crate::error::{CliError, Result};

/// One ending's file, compressed.
struct Done {
    ending: Signature,
    raw: u64,
    compressed: u64,
    seconds: f64,
    /// The raw file, when it was removed.
    removed: Option<PathBuf>,
}

/// The raw chess table files (`ENDING.gtb`) of `dir`, small tables first
/// (the first lines come at once).
fn raw_files(dir: &Path) -> Result<Vec<(Signature, PathBuf)>> {
    let mut files = super::chess_files(dir, false, "--dir")?;
    files.sort_by_key(|(s, _)| (gametree_chess_tables::table_bytes(s), s.to_string()));
    Ok(files)
}

/// Compresses one ending's raw file into its `.gtbz` file, then reads that
/// file back whole and checks it equals the raw table; with `remove_raw`,
/// then removes the raw file.
fn compress_one(ending: &Signature, path: &Path, dir: &Path, remove_raw: bool) -> Result<Done> {
    let start = Instant::now();
    let fail = |e: &dyn std::fmt::Display| CliError::input(format!("{}: {e}", path.display()));
    let raw = std::fs::metadata(path).map_err(|e| fail(&e))?.len();
    let mut tables = Tablebase::new();
    tables
        .load(ending, path)
        .map_err(|e| super::table_error(path, &e))?;
    let out = compressed_table_file(dir, ending);
    tables
        .save_compressed(ending, &out)
        .map_err(|e| CliError::input(format!("{}: {e}", out.display())))?;
    let table = tables
        .table(ending)
        .ok_or_else(|| CliError::input(format!("{ending}: no table read")))?;
    let check = CompressedTable::open(&out, table.label())
        .and_then(|c| Ok((c.file_len(), c.to_table()?)))
        .map_err(|e| CliError::input(format!("{}: reading it back: {e}", out.display())))?;
    if &check.1 != table {
        // Never leave a file that does not decode to the table.
        let _ = std::fs::remove_file(&out);
        return Err(CliError::input(format!(
            "{}: decodes to another table than {} (removed; please report this)",
            out.display(),
            path.display()
        )));
    }
    let removed = if remove_raw {
        std::fs::remove_file(path).map_err(|e| fail(&e))?;
        Some(path.to_path_buf())
    } else {
        None
    };
    Ok(Done {
        ending: ending.clone(),
        raw,
        compressed: check.0,
        seconds: start.elapsed().as_secs_f64(),
        removed,
    })
}

/// `tb compress`: every raw chess table of `dir` without a compressed file
/// is compressed (on `threads` threads, an ending each), checked, and
/// with `remove_raw` its raw file removed; one line per ending, then the
/// totals.
pub(crate) fn compress(dir: &str, threads: usize, remove_raw: bool, json: bool) -> Result<()> {
    let dir = super::existing_dir(dir)?;
    let files = raw_files(dir)?;
    let (skip, todo): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|(s, _)| compressed_table_file(dir, s).exists());
    if todo.is_empty() && skip.is_empty() {
        eprintln!(
            "{}: no chess table (ENDING.gtb) to compress; build some with `gametree tb build chess:4 --out {}`",
            dir.display(),
            dir.display()
        );
    }
    for (s, raw) in &skip {
        eprintln!(
            "{}: there already, not rewritten{}",
            compressed_table_file(dir, s).display(),
            if remove_raw {
                format!(" ({} kept: not checked against it)", raw.display())
            } else {
                String::new()
            }
        );
    }
    // Each ending at work holds its raw table, its compressed bytes (under
    // the table's size) and the table decoded back.
    let mut largest: Vec<u64> = todo
        .iter()
        .map(|(s, _)| gametree_chess_tables::table_bytes(s))
        .collect();
    largest.sort_unstable_by(|a, b| b.cmp(a));
    let bound: u64 = largest.iter().take(threads.max(1)).map(|b| b * 3).sum();
    if !todo.is_empty() {
        eprintln!(
            "memory bound: {} ({bound} bytes) on {} thread(s): per ending at work, its raw table, its compressed bytes and the table decoded back",
            human(bound),
            threads.clamp(1, todo.len())
        );
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Result<Done>>> = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, todo.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((ending, path)) = todo.get(i) else {
                        break;
                    };
                    let done = compress_one(ending, path, dir, remove_raw);
                    if let Ok(d) = &done {
                        eprintln!(
                            "{}: {} -> {} ({:.2}x) in {:.1} s, checked{}",
                            compressed_table_file(dir, &d.ending).display(),
                            human(d.raw),
                            human(d.compressed),
                            d.raw as f64 / d.compressed.max(1) as f64,
                            d.seconds,
                            if d.removed.is_some() {
                                ", raw file removed"
                            } else {
                                ""
                            }
                        );
                    }
                    let failed = done.is_err();
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(done);
                    if failed {
                        // The others finish the ending they are on.
                        next.store(todo.len(), Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    let mut done = Vec::new();
    for r in results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        done.push(r?);
    }
    done.sort_by_key(|d| d.ending.to_string());
    let raw: u64 = done.iter().map(|d| d.raw).sum();
    let compressed: u64 = done.iter().map(|d| d.compressed).sum();
    let seconds = start.elapsed().as_secs_f64();
    // The raw files removed by this run (none without --remove-raw, nor
    // for the endings whose compressed file was there already).
    let removed: Vec<String> = done
        .iter()
        .filter_map(|d| d.removed.as_ref())
        .map(|p| crate::output::json_string(&p.display().to_string()))
        .collect();
    if json {
        let endings: Vec<String> = done
            .iter()
            .map(|d| {
                format!(
                    "{{\"ending\":\"{}\",\"raw_bytes\":{},\"compressed_bytes\":{},\"seconds\":{:.3},\"raw_removed\":{}}}",
                    d.ending,
                    d.raw,
                    d.compressed,
                    d.seconds,
                    d.removed.is_some()
                )
            })
            .collect();
        println!(
            "{{\"dir\":{},\"compressed\":[{}],\"skipped\":{},\"raw_bytes\":{raw},\"compressed_bytes\":{compressed},\"seconds\":{seconds:.3},\"raw_removed\":{},\"removed_files\":[{}]}}",
            crate::output::json_string(&dir.display().to_string()),
            endings.join(","),
            skip.len(),
            !removed.is_empty(),
            removed.join(",")
        );
    } else {
        println!(
            "{} table(s) compressed ({} already were): {} -> {} ({:.2}x) in {seconds:.1} s{}",
            done.len(),
            skip.len(),
            human(raw),
            human(compressed),
            raw as f64 / compressed.max(1) as f64,
            if remove_raw {
                format!(", {} raw file(s) removed", removed.len())
            } else {
                String::new()
            }
        );
    }
    Ok(())
}
