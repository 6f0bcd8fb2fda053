//! `cargo xtask bench retrograde`: generation time and memory of chess
//! pawnless endgame databases (`gametree_chess_tables::FastEndgame`, distance to mate
//! in plies, one byte per position).
//!
//! For KQvK, KRvK, KBNvK and KQvKR: each method (Thompson's backward method
//! over index-level moves, `Generator::backward_indexed`, and the generic
//! one over `IndexSpace` + `Predecessors`; forward sweeps on the 3-man
//! endings, and on the 4-man ones unless `--quick`) on one thread and on
//! all threads, with wall time, CPU time
//! (user + system of the whole process, from `/proc/self/stat`, so that the
//! figure does not depend on the load of a shared machine), the memory the
//! generator states before it starts, and the peak resident set of the build
//! (`VmHWM`, reset through `/proc/self/clear_refs` before each build). The
//! sub-endings a capture leads to are built first, untimed. Every build of an
//! ending must give the same table (checked index by index).
//!
//! Then "all 24 3-4-man endings" (the 4 three-man and the 20 four-man
//! pawnless endings with the stronger side White), built in order by the
//! backward method, each capture valued through the smaller tables (colours
//! flipped when needed): one total for the indexed method on one thread and
//! on all threads, and for the generic method on one thread; all 24 tables
//! must be equal across the runs.
//!
//! `GAMETREE_BENCH_FIVE=KQRvKR` (any pawnless 5-man signatures, separated by
//! commas) also builds those, after their sub-endings, by the indexed method
//! on one thread and on all threads.

use std::time::Instant;

use anyhow::{Result, bail};
use gametree_chess_tables::{
    BuildOptions, FastEndgame, Placement, Signature, Tablebase, pawnless_endings,
};
use gametree_retrograde::{Generator, Method, Resolve, Table};

/// Process CPU time (user + system, all threads) in seconds.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name: state is field 3, utime 14, stime 15.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        // USER_HZ is 100 on Linux.
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

/// Resets the peak resident set (`VmHWM`) of this process, if allowed.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident set in bytes since the last reset.
fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0))
}

/// Every ending a sequence of captures leads to (colours exchanged when
/// only Black has pieces, bare kings excluded), smallest first, `material`
/// excluded.
fn sub_endings(material: &str) -> Result<Vec<String>> {
    let signature: gametree_chess_tables::Signature = material.parse()?;
    Ok(gametree_chess_tables::sub_endings(&signature, true)
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// One timed build.
pub(crate) struct Run {
    pub(crate) wall: f64,
    cpu: f64,
    stated: u64,
    peak: Option<u64>,
    table: Table,
}

/// How an ending is built.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Build {
    /// `Generator::backward_indexed` (`gametree_game::IndexMoves`).
    Indexed,
    /// `Generator::build` by this method, over `IndexSpace` and
    /// `Predecessors`.
    Generic(Method),
}

impl Build {
    fn name(self) -> &'static str {
        match self {
            Build::Indexed | Build::Generic(Method::BackwardIndexed) => "backward, indexed",
            Build::Generic(Method::Backward) => "backward, generic",
            Build::Generic(Method::ForwardSweeps) => "forward sweeps",
        }
    }
}

pub(crate) fn timed_build(
    material: &str,
    subs: &(dyn Resolve<Placement> + Sync),
    build: Build,
    threads: usize,
) -> Result<Run> {
    let signature: Signature = material.parse()?;
    let space = FastEndgame::new(material)?;
    let generator = Generator::new(&space)
        .label(gametree_chess_tables::label(&signature))
        .resolver(subs)
        .threads(threads);
    let method = match build {
        Build::Indexed => Method::Backward,
        Build::Generic(m) => m,
    };
    let stated = generator.memory(method).total_bytes;
    reset_peak();
    let (cpu0, start) = (cpu_seconds(), Instant::now());
    let table = match build {
        Build::Indexed => generator.backward_indexed()?,
        Build::Generic(m) => generator.build(m)?,
    };
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    Ok(Run {
        wall,
        cpu,
        stated,
        peak: peak_bytes(),
        table,
    })
}

/// Builds the endings the captures of `material` lead to that `have`
/// lacks (`gametree_chess_tables::Tablebase::build`: indexed backward, several at a
/// time on `threads` threads).
fn build_subs(material: &str, threads: usize, have: &mut Tablebase) -> Result<()> {
    let subs: Vec<Signature> = sub_endings(material)?
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    have.build(
        &subs,
        &BuildOptions {
            threads,
            progress: None,
            ..BuildOptions::default()
        },
    )?;
    Ok(())
}

/// The 4 three-man and the 20 four-man pawnless endings, smallest first
/// (`pawnless_endings` order): the endings of "all 24".
pub(crate) fn all_24() -> Vec<Signature> {
    pawnless_endings(3)
        .into_iter()
        .chain(pawnless_endings(4))
        .collect()
}

/// A tablebase of copies of `tables` (the resolver of a build over them).
pub(crate) fn tablebase_of(tables: &[(FastEndgame, Table)]) -> Result<Tablebase> {
    let mut out = Tablebase::new();
    for (_, table) in tables {
        out.insert(table.clone())?;
    }
    Ok(out)
}

/// The 24 tables (in the order of `pawnless_endings`), and the wall and
/// CPU time (s) they took.
pub(crate) type Timed24 = (Vec<(FastEndgame, Table)>, f64, f64);

/// The 3- and 4-man pawnless endings, smallest first, each built after its
/// sub-endings, one at a time on `threads` threads: the tables, in that
/// order, and the sums of the builds' wall and CPU times.
pub(crate) fn all_24_in_turn(build: Build, threads: usize) -> Result<Timed24> {
    let mut have: Vec<(FastEndgame, Table)> = Vec::new();
    // The tables built so far, copied (untimed): captures are valued in
    // them by material.
    let mut subs = Tablebase::new();
    let (mut wall, mut cpu) = (0.0, 0.0);
    for signature in all_24() {
        let material = &signature.to_string();
        let run = timed_build(material, &subs, build, threads)?;
        wall += run.wall;
        cpu += run.cpu;
        subs.insert(run.table.clone())?;
        have.push((FastEndgame::new(material)?, run.table));
    }
    Ok((have, wall, cpu))
}

/// The endings of [`all_24_in_turn`] built by `gametree_chess_tables::Tablebase::build`
/// on `threads` threads (indexed backward method, `gametree_retrograde::schedule`:
/// each ending once its sub-endings exist, several at a time): the tables
/// in the same order, and the wall and CPU time of the whole build.
pub(crate) fn all_24_scheduled(threads: usize) -> Result<Timed24> {
    let endings = all_24();
    let mut tables = Tablebase::new();
    let (cpu0, start) = (cpu_seconds(), Instant::now());
    tables.build(
        &endings,
        &BuildOptions {
            threads,
            progress: None,
            ..BuildOptions::default()
        },
    )?;
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
    let mut have = Vec::new();
    for ending in &endings {
        let Some(table) = tables.remove(ending) else {
            bail!("{ending}: not built");
        };
        have.push((FastEndgame::new(&ending.to_string())?, table));
    }
    Ok((have, wall, cpu))
}

/// Runs the bench; `quick` skips the forward sweeps on the 4-man endings.
pub(crate) fn run(quick: bool) -> Result<()> {
    let all = std::thread::available_parallelism().map_or(2, usize::from);
    let thread_counts: Vec<usize> = if all > 1 { vec![1, all] } else { vec![1] };
    println!(
        "Chess pawnless endgame databases (gametree_chess_tables::FastEndgame, DTM in plies, 1 byte per index); \
         CPU = user + system time of the process; peak = VmHWM of the build."
    );
    println!();
    println!(
        "| ending | positions | method | threads | wall (s) | CPU (s) | stated memory (MiB) | peak RSS (MiB) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    // Warm-up, untimed (the chess crate's attack tables are built on first
    // use); that the fast space equals the position-based one is a row of
    // `cargo xtask verify`.
    build_subs("KQvKR", all, &mut Tablebase::new())?;
    let mut built = Tablebase::new();
    for material in ["KQvK", "KRvK", "KBNvK", "KQvKR"] {
        build_subs(material, all, &mut built)?;
        let subs = &built;
        let three_man = material.len() == 4;
        let builds: &[Build] = if three_man || !quick {
            &[
                Build::Indexed,
                Build::Generic(Method::Backward),
                Build::Generic(Method::ForwardSweeps),
            ]
        } else {
            &[Build::Indexed, Build::Generic(Method::Backward)]
        };
        let mut first: Option<Table> = None;
        for &build in builds {
            for &threads in &thread_counts {
                let run = timed_build(material, subs, build, threads)?;
                let counts = run.table.counts();
                println!(
                    "| {material} | {} | {} | {threads} | {:.3} | {:.2} | {} | {} |",
                    counts.positions(),
                    build.name(),
                    run.wall,
                    run.cpu,
                    mib(run.stated),
                    run.peak.map_or("?".to_string(), mib),
                );
                match &first {
                    None => first = Some(run.table),
                    Some(t) => {
                        if let Err(d) = gametree_retrograde::compare(t, &run.table) {
                            bail!("{material}: builds disagree: {d}");
                        }
                    }
                }
            }
        }
        if let Some(t) = first
            && !built.covers(&material.parse()?)
        {
            built.insert(t)?;
        }
    }
    println!();
    println!("| all 24 3-4-man endings | positions | method | threads | wall (s) | CPU (s) |");
    println!("|---|---|---|---|---|---|");
    // The indexed build on every thread count, one ending at a time; on all
    // threads again, scheduled (`gametree_retrograde::schedule`: each ending once its
    // sub-endings exist, several at a time); then the generic one on a
    // single thread (the figure before `IndexMoves`). Every table of every
    // run must equal the first run's.
    let mut runs: Vec<(Build, usize, bool)> = thread_counts
        .iter()
        .map(|&t| (Build::Indexed, t, false))
        .collect();
    if all > 1 {
        runs.push((Build::Indexed, all, true));
    }
    runs.push((Build::Generic(Method::Backward), 1, false));
    let mut reference: Option<Vec<(FastEndgame, Table)>> = None;
    for (build, threads, scheduled) in runs {
        let (have, wall, cpu) = if scheduled {
            all_24_scheduled(threads)?
        } else {
            all_24_in_turn(build, threads)?
        };
        let positions: u64 = have.iter().map(|(_, t)| t.counts().positions()).sum();
        let how = if scheduled {
            "backward, indexed, scheduled"
        } else {
            build.name()
        };
        println!("| 24 endings | {positions} | {how} | {threads} | {wall:.2} | {cpu:.2} |");
        if let Some(t) = have
            .iter()
            .find(|(s, _)| s.endgame().signature().to_string() == "KQvKR")
        {
            let kqkr = built.get(&"KQvKR".parse()?);
            if let Some((_, other)) = kqkr
                && let Err(d) = gametree_retrograde::compare(&t.1, other)
            {
                bail!("KQvKR: the two builds disagree: {d}");
            }
        }
        match &reference {
            None => reference = Some(have),
            Some(first) => {
                for ((space, a), (_, b)) in first.iter().zip(&have) {
                    if let Err(d) = gametree_retrograde::compare(a, b) {
                        bail!("{}: builds disagree: {d}", space.endgame().signature());
                    }
                }
            }
        }
    }
    println!("(all 24 tables equal across these runs, index by index)");
    // Not counted in the peak memory of the 5-man builds.
    drop(reference);
    if let Ok(five) = std::env::var("GAMETREE_BENCH_FIVE") {
        println!();
        println!(
            "| ending | positions | method | threads | wall (s) | CPU (s) | stated memory (MiB) | peak RSS (MiB) |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        for material in five.split(',').map(str::trim).filter(|m| !m.is_empty()) {
            build_subs(material, all, &mut built)?;
            for &threads in &thread_counts {
                let run = timed_build(material, &built, Build::Indexed, threads)?;
                println!(
                    "| {material} | {} | {} | {threads} | {:.2} | {:.2} | {} | {} |",
                    run.table.counts().positions(),
                    Build::Indexed.name(),
                    run.wall,
                    run.cpu,
                    mib(run.stated),
                    run.peak.map_or("?".to_string(), mib),
                );
            }
        }
    }
    Ok(())
}
