//! `cargo xtask bench tb-sizes --tables DIR`: the compressed chess tables
//! of a directory (the `ENDING.gtbz` files of `gametree tb compress`, for
//! instance after `gametree tb build chess:5`) against the published
//! compressed distance-to-mate files of the same endings: Nalimov's for
//! every 3- to 5-man ending, Gaviota's up to 4 men. Totals per number of
//! pieces, with and without pawns, over the endings both have; then every
//! ending.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gametree_chess_tables::{Signature, compressed_table_file, table_bytes};

use crate::bench_compressed::{Published, kib, published_all, published_cells, published_sources};

/// One ending found in the directory.
struct Found {
    ending: Signature,
    /// The raw table's size (a byte per index, its header aside).
    raw: u64,
    compressed: u64,
    published: Published,
}

/// The compressed file of `ending` (or of the colours exchanged) in `dir`.
fn compressed_size(dir: &Path, ending: &Signature) -> Result<Option<u64>> {
    for s in [ending.clone(), ending.flipped()] {
        let path = compressed_table_file(dir, &s);
        if path.is_file() {
            return Ok(Some(
                std::fs::metadata(&path)
                    .with_context(|| path.display().to_string())?
                    .len(),
            ));
        }
    }
    Ok(None)
}

fn category(s: &Signature) -> String {
    format!(
        "{}-man {}",
        s.piece_count(),
        if s.has_pawns() {
            "with pawns"
        } else {
            "pawnless"
        }
    )
}

/// Runs the bench.
pub(crate) fn run(dir: Option<&Path>) -> Result<()> {
    let Some(dir) = dir else {
        bail!(
            "tb-sizes needs --tables DIR: a directory of compressed tables (gametree tb build chess:5 --out DIR, then gametree tb compress --dir DIR)"
        );
    };
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for (ending, published) in published_all()? {
        match compressed_size(dir, &ending)? {
            Some(compressed) => found.push(Found {
                raw: table_bytes(&ending),
                ending,
                compressed,
                published,
            }),
            None => missing.push(ending.to_string()),
        }
    }
    if found.is_empty() {
        bail!(
            "{}: no compressed table (ENDING.gtbz) of a published ending; run gametree tb compress --dir {}",
            dir.display(),
            dir.display()
        );
    }
    println!(
        "The compressed tables in {} (`gametree tb compress`, blocks of {} positions) against the published compressed DTM files of the same endings: {} of the {} endings of 3 to 5 pieces found{}.",
        dir.display(),
        1u64 << gametree_retrograde::compressed::DEFAULT_BLOCK_LOG2,
        found.len(),
        found.len() + missing.len(),
        match missing.len() {
            0 => String::new(),
            1..=10 => format!(" (missing: {})", missing.join(" ")),
            n => format!(" ({n} missing, {} ...)", missing[..5].join(" ")),
        }
    );
    println!();
    println!(
        "| endings | count | raw MiB | ours MiB | Nalimov MiB | ours / Nalimov | Gaviota MiB | ours / Gaviota |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mib = |b: u64| format!("{:.2}", b as f64 / f64::from(1u32 << 20));
    let mut groups: Vec<String> = found.iter().map(|f| category(&f.ending)).collect();
    groups.sort();
    groups.dedup();
    groups.push("all".to_owned());
    for g in &groups {
        let rows: Vec<&Found> = found
            .iter()
            .filter(|f| g == "all" || category(&f.ending) == *g)
            .collect();
        let raw: u64 = rows.iter().map(|f| f.raw).sum();
        let ours: u64 = rows.iter().map(|f| f.compressed).sum();
        let nalimov: u64 = rows.iter().map(|f| f.published.nalimov).sum();
        let gaviota: Option<u64> = rows.iter().map(|f| f.published.gaviota).sum();
        let (g_mib, g_ratio) = match gaviota {
            Some(b) => (mib(b), format!("{:.2}", ours as f64 / b as f64)),
            None => ("—".to_owned(), "—".to_owned()),
        };
        println!(
            "| {g} | {} | {} | {} | {} | {:.2} | {g_mib} | {g_ratio} |",
            rows.len(),
            mib(raw),
            mib(ours),
            mib(nalimov),
            ours as f64 / nalimov as f64
        );
    }
    let better = found
        .iter()
        .filter(|f| f.compressed < f.published.nalimov)
        .count();
    println!();
    println!(
        "Ours smaller than Nalimov's on {better} of {} endings. Raw: a byte per position of our index (both sides to move), as `gametree tb build` writes it.",
        found.len()
    );
    println!();
    println!("{}", published_sources());
    println!();
    println!("<details><summary>Every ending</summary>");
    println!();
    println!(
        "| ending | raw KiB | ours KiB | Nalimov .emd KiB | ours / Nalimov | Gaviota .gtb.cp4 KiB | ours / Gaviota |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for f in &found {
        println!(
            "| {} | {} | {} | {} |",
            f.ending,
            kib(f.raw),
            kib(f.compressed),
            published_cells(f.compressed, Some(f.published))
        );
    }
    println!();
    println!("</details>");
    Ok(())
}
