//! Builds all 24 3- and 4-man pawnless chess endings by the indexed backward
//! method and prints the time of each build and a checksum of each table
//! (to compare two versions of the generator bit for bit), then the total
//! CPU and wall-clock time and a checksum of all 24.
//!
//! ```text
//! cargo run --release -p gametree-chess-tables --example all24 -- [threads] [one-at-a-time [phases]]
//! ```
//!
//! By default the endings are built with `gametree_retrograde::schedule`: each one
//! once its sub-endings exist, several at a time on one thread each (an
//! ending that is alone to be ready gets every free thread); the total wall
//! time is that of the whole schedule. With `one-at-a-time`, the endings are
//! built one after another, each on all `threads`, and the wall time is the
//! sum of the builds' (as before `schedule` existed). With `phases` as well,
//! also prints the CPU time of each build's first pass (up to
//! the level-0 `Event::Level`); progress reporting makes the levels count their
//! positions, which adds a little to the total.
//!
//! Each ending's captures are valued through the tables of its sub-endings
//! built before it (looked up as they are, then with the colours exchanged:
//! `KvKR` in `KRvK`), as `cargo xtask bench retrograde` does. The CPU time
//! is the process's (user + system, all threads, from `/proc/self/stat`, in
//! 10 ms ticks). Scheduled, it and the wall-clock time are taken around the
//! whole schedule, and each build's start and end are printed. One at a
//! time, both are taken around each build and summed, so that the totals
//! leave out what happens between builds (the checksums).

use gametree_chess_tables::{FastEndgame, Placement, Signature, pawnless_endings, sub_endings};
use gametree_game::IndexSpace;
use gametree_retrograde::{Generator, Resolve, Table, Value};

/// The tables of an ending's sub-endings, probed as they are, then colours
/// exchanged (`KvKR` in `KRvK`).
struct Built<'a>(Vec<&'a (FastEndgame, Table)>);

impl Resolve<Placement> for Built<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        let lookup = |q: &Placement| {
            let material = q.material();
            let (s, t) = self.0.iter().find(|(s, _)| s.material() == material)?;
            t.get(s.index_of(q)?)
        };
        lookup(p).or_else(|| lookup(&p.flipped()))
    }

    /// Built tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

/// Builds the 24 endings with `gametree_retrograde::schedule` on `threads` threads;
/// returns the tables in the order of `endings`.
fn scheduled(
    endings: &[Signature],
    threads: usize,
) -> Result<Vec<(FastEndgame, Table)>, Box<dyn std::error::Error>> {
    let names: Vec<String> = endings.iter().map(ToString::to_string).collect();
    // Jobs: the 3-man endings, then the 4-man ones, biggest space first
    // within each (a ready job with a lower number starts first).
    let mut order: Vec<usize> = (0..endings.len()).collect();
    let sizes: Vec<u64> = names
        .iter()
        .map(|m| FastEndgame::new(m).map(|s| s.size()))
        .collect::<Result<_, _>>()?;
    order.sort_by_key(|&e| (endings[e].piece_count(), u64::MAX - sizes[e]));
    let needs: Vec<Vec<usize>> = order
        .iter()
        .map(|&e| {
            sub_endings(&endings[e], true)
                .iter()
                .filter_map(|sub| order.iter().position(|&o| endings[o] == *sub))
                .collect()
        })
        .collect();
    let clock = std::time::Instant::now();
    let built = gametree_retrograde::schedule(
        &needs,
        threads,
        |job| -> Result<_, Box<dyn std::error::Error + Send + Sync>> {
            let e = order[job.index()];
            let space = FastEndgame::new(&names[e])?;
            let resolver = Built(
                needs[job.index()]
                    .iter()
                    .filter_map(|&j| job.finished(j))
                    .collect(),
            );
            let start = clock.elapsed().as_secs_f64();
            let table = Generator::new(&space)
                .resolver(&resolver)
                .threads(job.threads())
                .backward_indexed()?;
            let end = clock.elapsed().as_secs_f64();
            println!(
                "{:6} {:>9} positions, {} thread(s), from {start:5.2} s to {end:5.2} s",
                names[e],
                table.counts().positions(),
                job.threads()
            );
            Ok((space, table))
        },
    )
    .map_err(|e| e.to_string())?;
    // Back in the order of `endings`.
    let mut out: Vec<Option<(FastEndgame, Table)>> = (0..endings.len()).map(|_| None).collect();
    for (job, t) in built.into_iter().enumerate() {
        out[order[job]] = Some(t);
    }
    Ok(out.into_iter().flatten().collect())
}

/// Process CPU time (user + system) in seconds.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

/// FNV-1a over the table's codes.
fn checksum(table: &Table) -> u64 {
    table
        .codes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let threads: usize = std::env::args().nth(1).map_or(Ok(1), |t| t.parse())?;
    let one_at_a_time = std::env::args()
        .nth(2)
        .is_some_and(|a| a == "one-at-a-time");
    let phases = std::env::args().nth(3).is_some_and(|a| a == "phases");
    let endings: Vec<Signature> = pawnless_endings(3)
        .into_iter()
        .chain(pawnless_endings(4))
        .collect();
    if !one_at_a_time {
        let (cpu, start) = (cpu_seconds(), std::time::Instant::now());
        let tables = scheduled(&endings, threads)?;
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        let mut all = 0xcbf2_9ce4_8422_2325u64;
        for (space, table) in &tables {
            let sum = checksum(table);
            println!("{:6} checksum {sum:016x}", space.endgame().signature());
            all = (all ^ sum).wrapping_mul(0x0000_0100_0000_01b3);
        }
        println!(
            "all 24: {cpu:.2} s CPU, {wall:.2} s wall, {threads} thread(s), scheduled, checksum {all:016x}"
        );
        return Ok(());
    }
    let mut built: Vec<(FastEndgame, Table)> = Vec::new();
    let mut total = 0.0;
    let mut total_wall = 0.0;
    let mut all = 0xcbf2_9ce4_8422_2325u64;
    // The 3- and 4-man pawnless endings, smallest first.
    for signature in endings {
        let material = signature.to_string();
        let space = FastEndgame::new(&material)?;
        // Only the endings a capture leads to, as `cargo xtask bench
        // retrograde` does (the resolver tries each table in turn).
        let subs: Vec<String> = sub_endings(&signature, true)
            .iter()
            .map(ToString::to_string)
            .collect();
        let resolver = Built(
            built
                .iter()
                .filter(|(s, _)| subs.contains(&s.endgame().signature().to_string()))
                .collect(),
        );
        let cpu = cpu_seconds();
        let start = std::time::Instant::now();
        let first = std::sync::Mutex::new(f64::NAN);
        let initialised = |e: &gametree_retrograde::Event<'_, _>| {
            if let gametree_retrograde::Event::Level { level: 0, .. } = e
                && let Ok(mut f) = first.lock()
            {
                *f = cpu_seconds() - cpu;
            }
        };
        let mut generator = Generator::new(&space).resolver(&resolver).threads(threads);
        if phases {
            generator = generator.progress(&initialised);
        }
        let table = generator.backward_indexed()?;
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        let first = first.into_inner().unwrap_or(f64::NAN);
        total += cpu;
        total_wall += wall;
        let sum = checksum(&table);
        all = (all ^ sum).wrapping_mul(0x0000_0100_0000_01b3);
        let first = if phases {
            format!(" (first pass {first:5.2} s)")
        } else {
            String::new()
        };
        println!(
            "{material:6} {:>9} positions {cpu:6.2} s CPU {wall:6.2} s wall{first}  checksum {sum:016x}",
            table.counts().positions()
        );
        built.push((space, table));
    }
    println!(
        "all 24: {total:.2} s CPU, {total_wall:.2} s wall, {threads} thread(s), one at a time, checksum {all:016x}"
    );
    Ok(())
}
