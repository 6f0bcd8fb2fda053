//! Builds a chess pawnless ending and prints its statistics.
//!
//! ```text
//! cargo run --release -p gametree-chess-tables --example endgame -- KQvK [backward|generic|forward] [threads]
//! ```
//!
//! Builds over `gametree_chess_tables::FastEndgame` (the `Endgame` index over piece
//! lists): `backward` through its index-level moves
//! (`Generator::backward_indexed`), `generic` by the generic backward method
//! (decoding every index and numbering every move's result), `forward` by
//! forward sweeps. Prints the memory needed (before the build), one line per level, the
//! build time, the win/draw/loss counts for each side to move (classes under
//! symmetry, as the index stores them) and the longest mate with its
//! position. The endings a capture leads to are built first (smallest
//! first) and probed through a resolver made of their tables, which picks
//! the table by the capture's material.

use std::time::Instant;

use gametree_chess_tables::{Endgame, FastEndgame, Placement, Signature, sub_endings};
use gametree_game::IndexSpace;
use gametree_retrograde::{Event, Generator, Label, Method, Resolve, Table, TableProbe, Value};

/// A resolver over the tables of the sub-endings: the table of the
/// capture's material (`Placement::material`), probed once. Tables hold
/// the exact value of terminal positions too, so the generator need not
/// ask the game about a drawn or mated capture (as `cargo xtask bench
/// retrograde` and the `all24` example do).
struct ByMaterial<'a>(&'a [TableProbe<'a, FastEndgame>]);

impl Resolve<Placement> for ByMaterial<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        let material = p.material();
        self.0
            .iter()
            .find(|probe| probe.space().material() == material)?
            .probe(p)
    }

    fn knows_terminals(&self) -> bool {
        true
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let material = args.first().map_or("KQvK", String::as_str);
    let (method, indexed) = match args.get(1).map(String::as_str) {
        Some("forward") => (Method::ForwardSweeps, false),
        Some("generic") => (Method::Backward, false),
        _ => (Method::Backward, true),
    };
    let build = |generator: &Generator<'_, FastEndgame>| {
        if indexed {
            generator.backward_indexed()
        } else {
            generator.build(method)
        }
    };
    let threads: usize = args.get(2).map_or(Ok(0), |t| t.parse())?;
    // The sub-endings, quietly, single pass each.
    let mut subs: Vec<(FastEndgame, Table)> = Vec::new();
    let signature: Signature = material.parse()?;
    for sub in sub_endings(&signature, false) {
        let space = FastEndgame::from_endgame(Endgame::from_signature(sub.clone()));
        let probes: Vec<TableProbe<'_, FastEndgame>> = subs
            .iter()
            .map(|(s, t)| TableProbe::new(s, t))
            .collect::<Result<_, _>>()?;
        let table = build(&Generator::new(&space).resolver(&ByMaterial(&probes)))?;
        println!("built {sub}: {}", table.counts());
        drop(probes);
        subs.push((space, table));
    }
    let probes: Vec<TableProbe<'_, FastEndgame>> = subs
        .iter()
        .map(|(s, t)| TableProbe::new(s, t))
        .collect::<Result<_, _>>()?;
    let resolver = ByMaterial(&probes);
    let space = FastEndgame::new(material)?;
    let clock = Instant::now();
    let report = |e: &Event<'_, _>| match e {
        Event::Level {
            level: 0,
            decided,
            valid,
            ..
        } => println!(
            "  initialised at {:.3} s: {valid} positions, {decided} decided",
            clock.elapsed().as_secs_f64()
        ),
        Event::Start {
            positions,
            bytes,
            threads,
        } => {
            let mib = *bytes as f64 / (1024.0 * 1024.0);
            println!("{positions} indices, {threads} threads, memory {mib:.2} MiB");
        }
        Event::Level {
            level,
            decided,
            total,
            valid,
        } if level % 10 == 0 || *decided == 0 || std::env::var_os("ALL_LEVELS").is_some() => {
            println!(
                "  level {level:3} at {:.3} s: {decided} decided, {total}/{valid}",
                clock.elapsed().as_secs_f64()
            );
        }
        _ => {}
    };
    let mut generator = Generator::new(&space)
        .label(Label::new("chess", material, "games-chess-endgame-v1"))
        .resolver(&resolver)
        .progress(&report);
    if threads > 0 {
        generator = generator.threads(threads);
    }
    let start = Instant::now();
    let table = build(&generator)?;
    let elapsed = start.elapsed();
    println!("{material} by {method}: {:.3} s", elapsed.as_secs_f64());
    let half = table.len() / 2;
    for (name, side) in [("white", 0), ("black", 1)] {
        let c = table.counts_where(|i| (i >= half) == (side == 1));
        println!(
            "  {name} to move: {} wins / {} draws / {} losses",
            c.wins, c.draws, c.losses
        );
        if let Some((plies, at)) = c.longest_win {
            let p = space.position(at).ok_or("invalid index")?;
            println!(
                "    longest win {plies} plies (mate in {}): {p}",
                plies.div_ceil(2)
            );
        }
    }
    Ok(())
}
