//! `cargo xtask bench tb-compress [--endings KQvK,KRvK,KQvKR] [--tables DIR]`:
//! chess distance-to-mate tables in the raw format and in the compressed
//! format of `gametree_retrograde::compressed`: sizes, compression time and
//! probe speed, against published compressed DTM sizes.
//!
//! Each ending's raw table is loaded from `DIR/<ending>.rtb` when that file
//! exists, else built (with its sub-endings) and written there; `DIR`
//! defaults to a scratch directory under the system's temporary directory.
//! The compressed file is written next to it (`<ending>.rtbz`), decoded
//! whole and compared with the raw table, and probed at uniformly random
//! indices, every answer checked against the raw table:
//!
//! * warm, no block cache: every probe reads (from the OS page cache: the
//!   file was just written) and decodes one block;
//! * warm, a cache of 4 decoded blocks;
//! * cold, no block cache: before each probe the file's pages are dropped
//!   from the OS page cache (`posix_fadvise(POSIX_FADV_DONTNEED)` after an
//!   `fsync`), so every probe reads its block from the disk;
//! * fresh: a newly opened reader (header and block index read and
//!   checked) and its first probe, the page cache warm.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gametree_chess_tables::{BuildOptions, Signature, Tablebase, label};
use gametree_retrograde::Table;
use gametree_retrograde::compressed::{self, CompressedTable};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The endings measured when `--endings` is not given.
const DEFAULT_ENDINGS: &str = "KQvK,KRvK,KQvKR";

/// Random probes per warm measurement (fewer if they take over 3 s).
const PROBES: usize = 200_000;
/// Fresh readers opened per ending.
const OPENS: usize = 200;
/// Cold probes per ending (fewer if they take over 3 s).
const COLD: usize = 500;

/// Probes `probe` at `indices`, the file at `path` dropped from the OS page
/// cache before each (stopping after 3 s), each answer checked against
/// `table`; returns probes per second.
fn cold_probes_per_second(
    probe: &CompressedTable,
    path: &Path,
    table: &Table,
    indices: &[u64],
) -> Result<f64> {
    let file = std::fs::File::open(path)?;
    file.sync_all()?;
    let mut elapsed = std::time::Duration::ZERO;
    let mut done = 0usize;
    for &i in indices.iter().take(COLD) {
        rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed)
            .with_context(|| format!("dropping {} from the page cache", path.display()))?;
        let start = Instant::now();
        let v = probe.get(i)?;
        elapsed += start.elapsed();
        if v != table.get(i) {
            bail!("{}: index {i} differs from the raw table", table.label());
        }
        done += 1;
        if elapsed.as_secs_f64() > 3.0 {
            break;
        }
    }
    Ok(done as f64 / elapsed.as_secs_f64())
}

/// Published compressed DTM sizes of every 3- to 5-man ending (Nalimov's
/// `.emd` files, Gaviota's `.gtb.cp4` files up to 4 men), with their
/// sources in the file's header.
const PUBLISHED: &str = include_str!("../data/published-dtm-sizes.tsv");
const NALIMOV_URL: &str = "https://github.com/gentoo-mirror/ulm/blob/0e01a5b0c96d00268a04b6d80bb843b19e2c47b7/games-board/tablebase-nalimov/Manifest";
const GAVIOTA_URL: &str = "https://github.com/niklasf/python-chess/tree/b6851dd714be216c7f3c66a253456951d2671f6e/data/gaviota";

/// One ending's published sizes in bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Published {
    /// Nalimov's two files (both sides to move).
    pub(crate) nalimov: u64,
    /// Gaviota's `.gtb.cp4` file, up to 4 men.
    pub(crate) gaviota: Option<u64>,
}

/// Every ending of the published sizes, in the data file's order.
pub(crate) fn published_all() -> Result<Vec<(Signature, Published)>> {
    let mut out = Vec::new();
    for line in PUBLISHED.lines() {
        if line.starts_with('#') || line.starts_with("ending\t") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let [name, _men, _w, _b, sum, gaviota] = f[..] else {
            bail!("published sizes: bad line {line:?}");
        };
        // Nalimov's names: `kqrkr` is KQRvKR.
        let Some(second) = name.get(1..).and_then(|n| n.find('k')) else {
            bail!("published sizes: bad ending {name:?}");
        };
        let ending: Signature = format!(
            "{}v{}",
            name[..=second].to_uppercase(),
            name[second + 1..].to_uppercase()
        )
        .parse()
        .with_context(|| format!("published sizes: ending {name:?}"))?;
        let gaviota = if gaviota.is_empty() {
            None
        } else {
            Some(gaviota.parse()?)
        };
        out.push((
            ending,
            Published {
                nalimov: sum.parse()?,
                gaviota,
            },
        ));
    }
    Ok(out)
}

/// The published sizes of `ending` (or of the colours exchanged: one
/// file holds both).
pub(crate) fn published(ending: &Signature) -> Result<Option<Published>> {
    let flipped = ending.flipped();
    Ok(published_all()?
        .into_iter()
        .find(|(s, _)| s == ending || *s == flipped)
        .map(|(_, p)| p))
}

/// The published columns of a row: Nalimov's KiB and ratio, Gaviota's.
pub(crate) fn published_cells(ours: u64, p: Option<Published>) -> String {
    let ratio = |theirs: u64| format!("{:.2}", ours as f64 / theirs as f64);
    match p {
        Some(p) => format!(
            "{} | {} | {} | {}",
            kib(p.nalimov),
            ratio(p.nalimov),
            p.gaviota.map_or_else(|| "—".to_owned(), kib),
            p.gaviota.map_or_else(|| "—".to_owned(), ratio)
        ),
        None => "not found | — | — | —".to_owned(),
    }
}

/// Where the published sizes come from.
pub(crate) fn published_sources() -> String {
    format!(
        "Nalimov: the `.nbw.emd` and `.nbb.emd` files (both sides to move, summed), exact sizes from the Manifest of the Gentoo package of the 3-4-5-man set, {NALIMOV_URL}. Gaviota: the `.gtb.cp4` files (LZMA, both sides in one file), 3- and 4-man only (no per-file size of the 5-man ones is published; their total is about 6.5 GiB), from {GAVIOTA_URL}. Data: `xtask/data/published-dtm-sizes.tsv`."
    )
}

pub(crate) fn kib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1024.0)
}

/// The raw table of every ending in `endings`, from `dir` or built.
fn tables(endings: &[Signature], dir: &Path) -> Result<Tablebase> {
    let mut tables = Tablebase::new();
    let mut missing = Vec::new();
    for s in endings {
        let path = dir.join(format!("{s}.rtb"));
        if path.is_file() {
            tables
                .load(s, &path)
                .with_context(|| format!("loading {}", path.display()))?;
            println!("{s}: raw table loaded from {}", path.display());
        } else {
            missing.push(s.clone());
        }
    }
    if !missing.is_empty() {
        let start = Instant::now();
        let built = tables.build(&missing, &BuildOptions::default())?;
        println!(
            "built {} in {:.1} s (with their sub-endings: {})",
            missing
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            start.elapsed().as_secs_f64(),
            built
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        for s in &missing {
            tables.save(s, &dir.join(format!("{s}.rtb")))?;
        }
    }
    Ok(tables)
}

/// Probes `probe` at `indices` (stopping after 3 s), each answer checked
/// against `table`; returns probes per second.
fn probes_per_second(probe: &CompressedTable, table: &Table, indices: &[u64]) -> Result<f64> {
    let start = Instant::now();
    let mut done = 0usize;
    for chunk in indices.chunks(1000) {
        for &i in chunk {
            if probe.get(i)? != table.get(i) {
                bail!("{}: index {i} differs from the raw table", table.label());
            }
        }
        done += chunk.len();
        if start.elapsed().as_secs_f64() > 3.0 {
            break;
        }
    }
    Ok(done as f64 / start.elapsed().as_secs_f64())
}

/// One ending's row.
struct Row {
    ending: String,
    indices: u64,
    raw: u64,
    compressed: u64,
    compress_s: f64,
    decode_s: f64,
    raw_probes: f64,
    uncached: f64,
    cached: f64,
    cold: f64,
    fresh_us: f64,
}

fn measure(s: &Signature, table: &Table, dir: &Path, seed: u64) -> Result<Row> {
    let raw_path = dir.join(format!("{s}.rtb"));
    let path = dir.join(format!("{s}.rtbz"));
    let start = Instant::now();
    compressed::write(table, &path)?;
    let compress_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let whole = CompressedTable::open(&path, &label(s))?.to_table()?;
    let decode_s = start.elapsed().as_secs_f64();
    if &whole != table {
        bail!("{s}: the decoded table differs from the raw one");
    }
    drop(whole);
    let mut rng = Pcg64::seed_from_u64(seed);
    let indices: Vec<u64> = (0..PROBES).map(|_| rng.next_u64() % table.len()).collect();
    // The raw table in memory, as the baseline.
    let start = Instant::now();
    let mut sum = 0u64;
    for &i in &indices {
        sum += table
            .get(i)
            .map_or(0, |v| u64::from(v.plies().unwrap_or(1)));
    }
    let raw_probes = indices.len() as f64 / start.elapsed().as_secs_f64();
    std::hint::black_box(sum);
    let uncached = CompressedTable::open(&path, &label(s))?.with_cache(0);
    let uncached = probes_per_second(&uncached, table, &indices)?;
    let cached = CompressedTable::open(&path, &label(s))?.with_cache(4);
    let cached = probes_per_second(&cached, table, &indices)?;
    let cold = CompressedTable::open(&path, &label(s))?.with_cache(0);
    let cold = cold_probes_per_second(&cold, &path, table, &indices)?;
    let start = Instant::now();
    for &i in indices.iter().take(OPENS) {
        let probe = CompressedTable::open(&path, &label(s))?;
        if probe.get(i)? != table.get(i) {
            bail!("{s}: index {i} differs from the raw table");
        }
    }
    let fresh_us = start.elapsed().as_secs_f64() * 1e6 / OPENS.min(indices.len()) as f64;
    Ok(Row {
        ending: s.to_string(),
        indices: table.len(),
        raw: std::fs::metadata(&raw_path)?.len(),
        compressed: std::fs::metadata(&path)?.len(),
        compress_s,
        decode_s,
        raw_probes,
        uncached,
        cached,
        cold,
        fresh_us,
    })
}

/// Runs the bench.
pub(crate) fn run(endings: Option<&str>, dir: Option<&Path>, seed: u64) -> Result<()> {
    let endings: Vec<Signature> = endings
        .unwrap_or(DEFAULT_ENDINGS)
        .split(',')
        .map(|e| e.trim().parse().with_context(|| format!("ending {e:?}")))
        .collect::<Result<_>>()?;
    let dir: PathBuf = dir.map_or_else(
        || std::env::temp_dir().join("gametree-tb-compress"),
        Path::to_path_buf,
    );
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    println!(
        "Raw (one byte per index) and compressed (blocks of {} indices) chess DTM tables in {}.",
        1u64 << compressed::DEFAULT_BLOCK_LOG2,
        dir.display()
    );
    let tables = tables(&endings, &dir)?;
    let mut rows = Vec::new();
    for s in &endings {
        let Some((_, table)) = tables.get(s) else {
            bail!("{s}: no table");
        };
        rows.push(measure(s, table, &dir, seed)?);
    }
    println!();
    println!(
        "| ending | indices | raw KiB | compressed KiB | ratio | compress s | decode all s | raw in memory probes/s | no block cache probes/s | 4-block cache probes/s | cold probes/s | fresh open + 1st probe µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
            r.ending,
            r.indices,
            kib(r.raw),
            kib(r.compressed),
            r.raw as f64 / r.compressed as f64,
            r.compress_s,
            r.decode_s,
            r.raw_probes,
            r.uncached,
            r.cached,
            r.cold,
            r.fresh_us
        );
    }
    println!();
    // Rayon's pool: RAYON_NUM_THREADS when set, else every processor.
    let threads = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    println!(
        "Probes at {PROBES} uniformly random indices (seed {seed}; at most 3 s each), every answer checked against the raw table. Warm: the file in the OS page cache. Cold: the first {COLD} of those indices (at most 3 s), the file dropped from the page cache before each probe (`posix_fadvise` DONTNEED), so each reads its block from the disk. Compression and whole-table decoding use {threads} thread(s)."
    );
    println!();
    println!("Published compressed DTM sizes:");
    println!();
    println!(
        "| ending | ours KiB | Nalimov .emd KiB | ours / Nalimov | Gaviota .gtb.cp4 KiB | ours / Gaviota |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for r in &rows {
        let s: Signature = r.ending.parse()?;
        let p = published(&s)?;
        println!(
            "| {} | {} | {} |",
            r.ending,
            kib(r.compressed),
            published_cells(r.compressed, p)
        );
    }
    println!();
    println!("{}", published_sources());
    Ok(())
}
