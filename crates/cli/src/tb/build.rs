//! `tb build`: a database written to a directory, or every chess ending
//! of N pieces; the memory the build may take is stated (and checked
//! against `--max-memory`) before anything is built.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use gametree_chess_tables::{
    BuildOptions, MAX_PAWN_BUILD_PIECES, Signature, Tablebase, Written, compressed_table_file,
    pawn_endings, pawnless_endings, table_file,
};
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::{Event, Generator, Method};

use super::chess::check_size;
use super::connect4::{build_connect4, connect4_name, connect4_space};
use super::tictactoe::build_tictactoe;
use super::{Material, parse_all_chess, parse_material, report_event, table_path};
use crate::error::{CliError, Result};
use crate::progress;

/// Builds `endings` and every ending they lead to (captures, promotions)
/// into `dir` (`Tablebase::build_into`), and prints the files of `endings`
/// in order.
///
/// Each table is written once built and held only while a running build
/// probes it, read back from its file when a later build needs it; at
/// most `threads` endings are built at once, so memory holds what
/// `Tablebase::memory_writing` counts. An ending whose file is in `dir` is
/// read (checked) instead of built.
fn build_written(endings: &[Signature], dir: &Path, threads: usize, compress: bool) -> Result<()> {
    let files = with_progress(dir, threads, true, |options, done| {
        if compress {
            Tablebase::new().build_into_compressed(endings, dir, options, done)
        } else {
            Tablebase::new().build_into(endings, dir, options, done)
        }
    })?
    .1;
    for sig in endings {
        // The plan names each ending asked for as given (or, with only
        // Black's pieces, with the colours exchanged).
        let flip = sig.flipped();
        let path = files
            .iter()
            .find(|(s, _)| s == sig || *s == flip)
            .map_or_else(
                || {
                    if compress {
                        compressed_table_file(dir, sig)
                    } else {
                        table_file(dir, sig)
                    }
                },
                |(_, p)| p.clone(),
            );
        println!("{}", path.display());
    }
    Ok(())
}

/// Runs `build` (a `Tablebase::build_into`-like call, given its options on
/// `threads` threads and its `done` callback) with a progress bar per
/// ending being built (when progress is shown), and a line on standard
/// error per ending built (and per file read, with `note_loaded`).
/// Returns what `build` returns, and each ending's file in the order
/// they were done.
pub(super) fn with_progress<T>(
    dir: &Path,
    threads: usize,
    note_loaded: bool,
    build: impl FnOnce(
        &BuildOptions<'_>,
        &(dyn Fn(&Signature, &Path, Written) + Sync),
    ) -> std::result::Result<T, gametree_chess_tables::Error>,
) -> Result<(T, Vec<(Signature, PathBuf)>)> {
    let bars = indicatif::MultiProgress::new();
    let note = |line: String| {
        if progress::enabled() {
            bars.suspend(|| eprintln!("{line}"));
        } else {
            eprintln!("{line}");
        }
    };
    // A bar per ending being built, from its first event to its end.
    let running: Mutex<Vec<(Signature, indicatif::ProgressBar)>> = Mutex::new(Vec::new());
    let report = |sig: &Signature, e: &Event<'_, _>| {
        let mut running = running.lock().unwrap_or_else(PoisonError::into_inner);
        let at = match running.iter().position(|(s, _)| s == sig) {
            Some(at) => at,
            None => {
                let pb = bars.add(progress::bar(0, format!("building {sig}")));
                running.push((sig.clone(), pb));
                running.len() - 1
            }
        };
        report_event(Some(&running[at].1), e);
    };
    let files: Mutex<Vec<(Signature, PathBuf)>> = Mutex::new(Vec::new());
    let done = |sig: &Signature, path: &Path, what: Written| {
        {
            let mut running = running.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(at) = running.iter().position(|(s, _)| s == sig) {
                running.remove(at).1.finish_and_clear();
            }
        }
        match what {
            Written::Loaded if note_loaded => note(format!("loaded {}", path.display())),
            Written::Loaded => {}
            Written::Built(time) => note(format!(
                "built {} in {:.1} s",
                path.display(),
                time.as_secs_f64()
            )),
        }
        files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((sig.clone(), path.to_path_buf()));
    };
    let options = BuildOptions {
        threads,
        progress: progress::enabled().then_some(&report as &gametree_chess_tables::Progress<'_>),
        ..BuildOptions::default()
    };
    let out = build(&options, &done).map_err(|e| super::dir_error(dir, &e))?;
    let files = files.into_inner().unwrap_or_else(PoisonError::into_inner);
    Ok((out, files))
}

/// The endings of `tb build chess:N`: every pawnless ending of `men`
/// pieces (once up to colour exchange), then, up to
/// `MAX_PAWN_BUILD_PIECES` pieces, every ending with pawns
/// (`pawn_endings`).
fn all_chess(men: usize) -> Vec<Signature> {
    let mut all = pawnless_endings(men);
    if men <= MAX_PAWN_BUILD_PIECES {
        all.extend(pawn_endings(men));
    }
    all
}

/// `tb build chess:N`: the endings of `all_chess`, and the smaller ones
/// they lead to, in one plan (pawnless first, then by number of pawns).
fn build_all_chess(men: usize, dir: &Path, threads: usize, compress: bool) -> Result<()> {
    build_written(&all_chess(men), dir, threads, compress)
}

/// An upper bound on the memory of `tb build chess:N`.
fn all_chess_memory(men: usize, threads: usize) -> u64 {
    Tablebase::new().memory_writing(&all_chess(men), threads)
}

/// `bytes` for people: KiB below a MiB, MiB below a GiB, else GiB.
pub(super) fn human(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)] // a display figure
    let b = bytes as f64;
    if bytes < 1 << 20 {
        format!("{:.1} KiB", b / 1024.0)
    } else if bytes < 1 << 30 {
        format!("{:.1} MiB", b / f64::from(1 << 20))
    } else {
        format!("{:.2} GiB", b / f64::from(1 << 30))
    }
}

/// What the program itself takes beyond the tables and the builds'
/// arrays: code, thread stacks, and memory the allocator keeps after the
/// builds of smaller tables (measured: 6 MiB for a 3-man build, 15 MiB
/// for KQRvKR with its sub-endings, up to 43 MiB for 5-man endings with
/// pawns, KRPvKR; twice that, and some, is allowed).
const PROGRAM_BYTES: u64 = 96 << 20;

/// The memory bound of a build whose tables and arrays take `data`
/// bytes: `data` plus [`PROGRAM_BYTES`].
pub(super) fn memory_bound(data: u64) -> u64 {
    data.saturating_add(PROGRAM_BYTES)
}

/// States the memory bound of the build on standard error (`data`, the
/// tables' and the builds' arrays, plus [`PROGRAM_BYTES`]), and refuses
/// it (nothing built) when it is over `max_memory`, or, without
/// `--max-memory`, over the machine's physical memory (where the system
/// tells it): a build that cannot fit is refused at once rather than
/// killed hours later.
pub(super) fn check_memory(data: u64, threads: usize, max_memory: Option<u64>) -> Result<()> {
    let bound = memory_bound(data);
    eprintln!(
        "memory bound: {} ({bound} bytes) on {threads} thread(s): tables and builds {}, program {}",
        human(bound),
        human(data),
        human(PROGRAM_BYTES)
    );
    match (max_memory, physical_memory()) {
        (Some(max), _) if bound > max => Err(CliError::input(format!(
            "the build may take up to {} of memory, more than --max-memory ({}); nothing built \
             (fewer --threads take less)",
            human(bound),
            human(max)
        ))),
        (None, Some(total)) if bound > total => Err(CliError::input(format!(
            "the build may take up to {} of memory, more than this machine has ({}); nothing \
             built (build fewer endings at once, use fewer --threads, or pass --max-memory to \
             allow it anyway)",
            human(bound),
            human(total)
        ))),
        _ => Ok(()),
    }
}

/// The machine's physical memory in bytes (`MemTotal` of
/// `/proc/meminfo`), or `None` where the system does not tell.
pub(crate) fn physical_memory() -> Option<u64> {
    mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then(|| kib.saturating_mul(1024))
}

/// Files `NAME.gtb.tmpPID` in `dir`: what a build interrupted while
/// writing a table leaves (tables are written to such a file, then
/// renamed). They are never read; a build in progress has one too.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| {
                    n.rsplit_once(".gtb.tmp")
                        .or_else(|| n.rsplit_once(".gtbz.tmp"))
                })
                .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    out.sort();
    out
}

/// The directories of `dir` that are missing, outermost first; an error
/// when the first of its ancestors that exists (or `dir` itself) is not a
/// directory. `option` names the path in errors (`--out`).
fn missing_dirs(dir: &Path, option: &str) -> Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    for path in dir.ancestors() {
        // `a/b` has the ancestors `a/b`, `a` and ``, the working directory.
        if path.as_os_str().is_empty() {
            break;
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => break,
            Ok(_) if path == dir => {
                return Err(CliError::input(format!(
                    "{option} {} is a file, not a directory",
                    dir.display()
                )));
            }
            Ok(_) => {
                return Err(CliError::input(format!(
                    "{option} {}: {} is a file, not a directory",
                    dir.display(),
                    path.display()
                )));
            }
            // Missing, or under a file (found further up).
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                missing.push(path.to_owned());
            }
            Err(e) => {
                return Err(CliError::input(format!(
                    "{option} {}: {}: {e}",
                    dir.display(),
                    path.display()
                )));
            }
        }
    }
    missing.reverse();
    Ok(missing)
}

/// Creates `dir` and its missing parents, naming each on standard error
/// (`created directory PATH`), or refuses as [`missing_dirs`] does.
fn create_dirs(dir: &Path, option: &str) -> Result<()> {
    for path in missing_dirs(dir, option)? {
        match std::fs::create_dir(&path) {
            Ok(()) => eprintln!("created directory {}", path.display()),
            // Made meanwhile (by another build): nothing to say.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => {}
            Err(e) => {
                return Err(CliError::input(format!(
                    "{option} {}: cannot create directory {}: {e}",
                    dir.display(),
                    path.display()
                )));
            }
        }
    }
    Ok(())
}

/// `tb build`.
pub(crate) fn build(
    material: &str,
    out: &str,
    threads: usize,
    max_memory: Option<u64>,
    compress: bool,
) -> Result<()> {
    let dir = Path::new(out);
    // `--out` is checked before anything else is done, and created (its
    // missing directories named) once the build is known to fit.
    missing_dirs(dir, "--out")?;
    for path in leftovers(dir) {
        eprintln!(
            "note: {} is a temporary file of an interrupted (or running) build: never read; \
             remove it when no build is running",
            path.display()
        );
    }
    if let Some(men) = parse_all_chess(material) {
        let men = men?;
        check_memory(all_chess_memory(men, threads), threads, max_memory)?;
        create_dirs(dir, "--out")?;
        return build_all_chess(men, dir, threads, compress);
    }
    let material = parse_material(material)?;
    if compress && !matches!(material, Material::Chess(_)) {
        return Err(CliError::input(
            "--compress: chess tables only (tic-tac-toe and Connect Four tables are written raw)",
        ));
    }
    match material {
        Material::TicTacToe => {
            let bound = Generator::new(&BoardIndex::plain())
                .threads(threads)
                .memory(Method::Backward)
                .total_bytes;
            check_memory(bound, threads, max_memory)?;
            create_dirs(dir, "--out")?;
            let pb = progress::enabled().then(|| progress::bar(0, "building tictactoe"));
            let table = build_tictactoe(threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            let path = table_path(dir, "tictactoe");
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Connect4(size) => {
            let space = connect4_space(size)?;
            let bound = Generator::new(&space)
                .threads(threads)
                .memory(Method::Backward)
                .total_bytes;
            check_memory(bound, threads, max_memory)?;
            create_dirs(dir, "--out")?;
            let pb =
                progress::enabled().then(|| progress::bar(0, format!("building connect4:{size}")));
            let table = build_connect4(&space, threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            let path = table_path(dir, &connect4_name(size));
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Chess(sig) => {
            check_size(&sig)?;
            // An ending with only Black's pieces is built (and named) with
            // the colours exchanged, as `tb build chess:N` names it.
            let sig = if sig.to_string().starts_with("Kv") && sig.piece_count() > 2 {
                sig.flipped()
            } else {
                sig
            };
            check_memory(
                Tablebase::new().memory_writing(std::slice::from_ref(&sig), threads),
                threads,
                max_memory,
            )?;
            create_dirs(dir, "--out")?;
            build_written(std::slice::from_ref(&sig), dir, threads, compress)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_total_reads_meminfo() {
        let text = "MemTotal:       24568312 kB\nMemFree:         1000 kB\n";
        assert_eq!(mem_total(text), Some(24_568_312 * 1024));
        assert_eq!(mem_total("MemFree: 1000 kB\n"), None);
        assert_eq!(mem_total("MemTotal: lots kB\n"), None);
        assert_eq!(mem_total("MemTotal: 1000 MB\n"), None);
    }

    #[test]
    fn sizes_for_people() {
        assert_eq!(human(512 << 20), "512.0 MiB");
        assert_eq!(human(3 << 29), "1.50 GiB");
    }

    #[test]
    fn over_the_budget_is_an_input_error() {
        let e = check_memory(2 << 20, 1, Some(PROGRAM_BYTES + (1 << 20))).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("--max-memory"), "{e}");
        assert!(check_memory(1 << 20, 1, Some(PROGRAM_BYTES + (1 << 20))).is_ok());
        // Without --max-memory the budget is the machine's memory.
        match physical_memory() {
            Some(total) if total < 1 << 40 => {
                let e = check_memory(1 << 40, 1, None).unwrap_err();
                assert_eq!(e.exit_code(), 2);
                assert!(e.to_string().contains("more than this machine has"), "{e}");
            }
            _ => assert!(check_memory(1 << 40, 1, None).is_ok()),
        }
        // An explicit budget replaces it.
        assert!(check_memory(1 << 40, 1, Some(u64::MAX)).is_ok());
    }

    #[test]
    fn out_directories_are_named_or_refused() {
        let base = std::env::temp_dir().join(format!("gametree-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let deep = base.join("a").join("b");
        assert_eq!(
            missing_dirs(&deep, "--out").unwrap(),
            [base.clone(), base.join("a"), deep.clone()]
        );
        create_dirs(&deep, "--out").unwrap();
        assert!(deep.is_dir());
        assert!(missing_dirs(&deep, "--out").unwrap().is_empty());
        // A file where a directory is wanted, or above it.
        let file = base.join("file");
        std::fs::write(&file, b"x").unwrap();
        let e = missing_dirs(&file, "--out").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("--out {} is a file, not a directory", file.display())
        );
        let e = create_dirs(&file.join("c"), "--out").unwrap_err();
        assert!(
            e.to_string()
                .ends_with(&format!("{} is a file, not a directory", file.display())),
            "{e}"
        );
        assert_eq!(e.exit_code(), 2);
        // A relative path with nothing missing.
        assert!(missing_dirs(Path::new("."), "--out").unwrap().is_empty());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn temporary_files_are_found() {
        let dir = std::env::temp_dir().join(format!("gametree-leftovers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["KQvK.gtb", "KQvK.gtb.tmp123", "KRvK.gtb.tmp", "notes.tmp4"] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        assert_eq!(leftovers(&dir), [dir.join("KQvK.gtb.tmp123")]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(leftovers(&dir).is_empty());
    }
}
