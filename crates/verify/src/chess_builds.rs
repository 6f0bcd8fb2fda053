//! Chess table builds compared with each other: the index-level space
//! against the position-based one, and the scheduled build of a set of
//! endings against building them one at a time.

use anyhow::{Result, bail};
use gametree_chess_tables::{
    BuildOptions, FastEndgame, Placement, Signature, SubTables, Tables, sub_endings,
};
use gametree_games_chess::Position;
use gametree_retrograde::{Generator, Method, Resolve, Table};

/// Builds each ending over `FastEndgame` by both
/// methods (which must agree) and by the backward method over index-level
/// moves (`Generator::backward_indexed`), and over the position-based `Endgame` by the
/// backward method, captures valued through the smaller `FastEndgame`
/// tables (built first, colours flipped when needed; the position-based
/// build reaches them through `Placement::from_position`), and compares the
/// tables index by index. Returns the number of indices compared.
pub(crate) fn fast_equals_position_space(materials: &[&str]) -> Result<u64> {
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let mut subs = Tables::new();
    let mut compared = 0;
    for &material in materials {
        build_subs(material, threads, &mut subs)?;
        let fast = FastEndgame::new(material)?;
        let (table, _) = gametree_retrograde::verify::methods_agree(&fast, &subs)?;
        let indexed = Generator::new(&fast).resolver(&subs).backward_indexed()?;
        if let Err(d) = gametree_retrograde::compare(&table, &indexed) {
            bail!("{material}: the indexed backward build disagrees: {d}");
        }
        let resolver = |p: &Position| Placement::from_position(p).and_then(|q| subs.resolve(&q));
        let slow = Generator::new(fast.endgame())
            .resolver(&resolver)
            .build(Method::Backward)?;
        match gametree_retrograde::compare(&table, &slow) {
            Ok(n) => compared += n,
            Err(d) => bail!("{material}: FastEndgame and Endgame disagree: {d}"),
        }
    }
    Ok(compared)
}

/// `gametree_chess_tables::Tables::build` on two threads
/// (endings scheduled several at a time) against the same plan built one
/// ending at a time in plan order, each with `Generator::backward_indexed`
/// and the tables built before it as resolver. Returns, for each ending of
/// the plan, its name and the number of indices on which the two tables
/// are equal, or the first difference as an error.
pub(crate) fn scheduled_equals_in_turn(endings: &[&str]) -> Result<Vec<(String, u64)>> {
    let endings: Vec<Signature> = endings
        .iter()
        .map(|e| e.parse())
        .collect::<Result<_, _>>()?;
    let mut scheduled = Tables::new();
    let plan = scheduled.build(
        &endings,
        &BuildOptions {
            threads: 2,
            progress: None,
        },
    )?;
    let mut in_turn: Vec<(FastEndgame, Table)> = Vec::new();
    let mut out = Vec::new();
    for ending in &plan {
        let space = FastEndgame::new(&ending.to_string())?;
        let table = Generator::new(&space)
            .resolver(&SubTables::new(in_turn.iter()))
            .backward_indexed()?;
        let Some((_, other)) = scheduled.get(ending) else {
            bail!("{ending}: planned but not built");
        };
        match gametree_retrograde::compare(&table, other) {
            Ok(n) => out.push((ending.to_string(), n)),
            Err(d) => bail!("{ending}: scheduled and in-turn builds disagree: {d}"),
        }
        in_turn.push((space, table));
    }
    Ok(out)
}

/// Builds the endings the captures of `material` lead to that `have`
/// lacks (`gametree_chess_tables::Tables::build`: indexed backward, several at a
/// time on `threads` threads).
fn build_subs(material: &str, threads: usize, have: &mut Tables) -> Result<()> {
    let signature: Signature = material.parse()?;
    let subs = sub_endings(&signature, true);
    have.build(
        &subs,
        &BuildOptions {
            threads,
            progress: None,
        },
    )?;
    Ok(())
}
