//! Builds all 24 3- and 4-man pawnless chess endings by the indexed backward
//! method and prints the CPU and wall-clock time of each build and a
//! checksum of each table (to compare two versions of the generator bit for
//! bit).
//!
//! ```text
//! cargo run --release -p gametree-retrograde --example all24 -- [threads] [phases]
//! ```
//!
//! With `phases`, also prints the CPU time of each build's first pass (up to
//! `Event::Initialised`); progress reporting makes the levels count their
//! positions, which adds a little to the total.
//!
//! Each ending's captures are valued through the tables of its sub-endings
//! built before it (looked up as they are, then with the colours exchanged:
//! `KvKR` in `KRvK`), as `cargo xtask bench retrograde` does. The CPU time
//! is the process's (user + system, all threads, from `/proc/self/stat`, in
//! 10 ms ticks), taken around each build; the wall-clock time is taken
//! around each build too, so that its total leaves out what happens between
//! builds (the sub-tables copied, the checksums).

use game::IndexSpace;
use games_chess::{FastEndgame, Placement, pawnless_endings};
use retrograde::{Generator, Resolve, Table, Value};

/// The tables built so far, probed as they are, then colours exchanged.
struct Built(Vec<(FastEndgame, Table)>);

impl Resolve<Placement> for Built {
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
    let phases = std::env::args().nth(2).is_some_and(|a| a == "phases");
    let mut built = Built(Vec::new());
    let mut total = 0.0;
    let mut total_wall = 0.0;
    let mut all = 0xcbf2_9ce4_8422_2325u64;
    // The 3- and 4-man pawnless endings, smallest first.
    for signature in pawnless_endings(3).into_iter().chain(pawnless_endings(4)) {
        let material = signature.to_string();
        let space = FastEndgame::new(&material)?;
        // Only the endings a capture leads to, as `cargo xtask bench
        // retrograde` does (the resolver tries each table in turn).
        let subs: Vec<String> = games_chess::sub_endings(&signature, true)
            .iter()
            .map(ToString::to_string)
            .collect();
        let resolver = Built(
            built
                .0
                .iter()
                .filter(|(s, _)| subs.contains(&s.endgame().signature().to_string()))
                .cloned()
                .collect(),
        );
        let cpu = cpu_seconds();
        let start = std::time::Instant::now();
        let first = std::sync::Mutex::new(f64::NAN);
        let initialised = |e: &retrograde::Event| {
            if let retrograde::Event::Initialised { .. } = e
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
        built.0.push((space, table));
    }
    println!(
        "all 24: {total:.2} s CPU, {total_wall:.2} s wall, {threads} thread(s), checksum {all:016x}"
    );
    Ok(())
}
