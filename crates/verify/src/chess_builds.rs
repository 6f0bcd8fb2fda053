//! Chess table builds compared with each other: the index-level space
//! against the position-based one, the scheduled build of a set of
//! endings against building them one at a time, and a build into a
//! directory of files ([`Tablebase::build_into`]) against the build in
//! memory, with its resumption from finished files and its refusal of
//! damaged ones.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use anyhow::{Result, bail};
use gametree_chess_tables::{
    BuildOptions, Error, FastEndgame, Placement, Signature, Tablebase, Written, label,
    pawn_endings, pawnless_endings, sub_endings, table_bytes, table_file,
};
use gametree_games_chess::Position;
use gametree_retrograde::{Generator, LoadError, Method, Resolve, Table};

use crate::{Check, Family, Tally};

/// Builds each ending over `FastEndgame` by both
/// methods (which must agree) and by the backward method over index-level
/// moves (`Generator::backward_indexed`), and over the position-based `Endgame` by the
/// backward method, captures valued through the smaller `FastEndgame`
/// tables (built first, colours flipped when needed; the position-based
/// build reaches them through `Placement::from_position`), and compares the
/// tables index by index. Returns the number of indices compared.
pub(crate) fn fast_equals_position_space(materials: &[&str]) -> Result<u64> {
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let mut subs = Tablebase::new();
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

/// `gametree_chess_tables::Tablebase::build` on two threads
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
    let mut scheduled = Tablebase::new();
    let plan = scheduled.build(
        &endings,
        &BuildOptions {
            threads: 2,
            progress: None,
            ..BuildOptions::default()
        },
    )?;
    // The reference: one ending at a time, its captures valued in the
    // tables built before it (a tablebase of them, by material).
    let mut in_turn = Tablebase::new();
    let mut out = Vec::new();
    for ending in &plan {
        let space = FastEndgame::new(&ending.to_string())?;
        let table = Generator::new(&space)
            .label(label(ending))
            .resolver(&in_turn)
            .backward_indexed()?;
        let Some((_, other)) = scheduled.get(ending) else {
            bail!("{ending}: planned but not built");
        };
        match gametree_retrograde::compare(&table, other) {
            Ok(n) => out.push((ending.to_string(), n)),
            Err(d) => bail!("{ending}: scheduled and in-turn builds disagree: {d}"),
        }
        in_turn.insert(table)?;
    }
    Ok(out)
}

/// Builds the endings the captures of `material` lead to that `have`
/// lacks (`gametree_chess_tables::Tablebase::build`: indexed backward, several at a
/// time on `threads` threads).
fn build_subs(material: &str, threads: usize, have: &mut Tablebase) -> Result<()> {
    let signature: Signature = material.parse()?;
    let subs = sub_endings(&signature, true);
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

/// Every 3- and 4-man ending, with and without pawns.
fn every_3_4_man_ending() -> Vec<String> {
    [
        pawnless_endings(3),
        pawn_endings(3),
        pawnless_endings(4),
        pawn_endings(4),
    ]
    .concat()
    .iter()
    .map(ToString::to_string)
    .collect()
}

/// This module's own rows (`crate::chess` lists the others of chess).
pub(crate) fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "chess",
            Family::Solvers,
            "retrograde: build_into (files, 2 threads) = Tablebase::build, index by index; a build resumes from its finished files and refuses damaged ones (KQvKR, KRvKN, KBvKP + subs; full: every 3-4-man ending; deep: + KNNvKN)",
            |ctx| {
                let quick = ["KQvKR", "KRvKN", "KBvKP"].map(String::from).to_vec();
                let full = every_3_4_man_ending();
                let mut deep = full.clone();
                deep.push("KNNvKN".to_string());
                written_equals_in_memory(ctx.pick3(&quick, &full, &deep))
            },
        ),
        Check::new(
            "chess",
            Family::Solvers,
            "compressed files (tb compress) = raw tables: decoded whole, index by index; probed by position (a Tablebase of the .gtbz files: by block, a small table decoded whole once probed often) = the tables built, at 2,000 random indices each (KQvKR, KPvK + subs; full: every 3-4-man ending)",
            |ctx| {
                let quick = ["KQvKR", "KPvK"].map(String::from).to_vec();
                let full = every_3_4_man_ending();
                compressed_equals_raw(ctx.pick(&quick, &full), 2_000, 17)
            },
        ),
    ]
}

/// Builds `endings` (with what they lead to), writes every table
/// compressed, and compares: each file decoded whole with its table, and
/// the probes of a `Tablebase` of the compressed files with those of the
/// tables built, on the positions of
/// `samples` random indices of each table (both colours: a position and
/// its colours exchanged).
fn compressed_equals_raw(endings: &[String], samples: usize, seed: u64) -> Tally {
    use gametree_chess_tables::{PawnEndgame, compressed_table_file};
    use gametree_game::IndexSpace;
    use rand_core::Rng;

    let mut t = Tally::default();
    let run = |t: &mut Tally| -> Result<()> {
        let endings: Vec<Signature> = endings
            .iter()
            .map(|e| e.parse())
            .collect::<std::result::Result<_, _>>()?;
        let mut tables = Tablebase::new();
        tables.build(
            &endings,
            &BuildOptions {
                threads: 2,
                progress: None,
                ..BuildOptions::default()
            },
        )?;
        let dir = Scratch::new()?;
        let mut disk = Tablebase::new();
        for (s, table) in tables.tables() {
            let path = compressed_table_file(&dir.0, s);
            tables.save_compressed(s, &path)?;
            let mut back = Tablebase::new();
            back.load(s, &path)?;
            let same = back.table(s).map_or_else(
                || "no table".to_string(),
                |b| match gametree_retrograde::compare(table, b) {
                    Ok(n) => format!("equal on {n} indices"),
                    Err(d) => d.to_string(),
                },
            );
            t.compare(
                format!("{s} decoded"),
                None,
                format!("equal on {} indices", table.len()),
                same,
            );
            disk.add_file(s, &path)?;
        }
        let mut rng = rand_pcg::Pcg64::new(u128::from(seed), 3);
        let mut positions: Vec<Position> = Vec::new();
        for (_, space, table) in tables.iter() {
            for _ in 0..samples {
                let i = rng.next_u64() % table.len();
                if let Some(p) = space.position(i).and_then(|q| q.to_position()) {
                    positions.push(p);
                }
            }
        }
        for (s, _) in tables.tables().filter(|(s, _)| s.has_pawns()) {
            let Ok(space) = PawnEndgame::from_signature(s.clone()) else {
                continue;
            };
            for _ in 0..samples {
                let i = rng.next_u64() % space.size();
                if let Some(p) = space.position(i) {
                    positions.push(p);
                }
            }
        }
        let (mut agree, mut total) = (0u64, 0u64);
        for p in &positions {
            for q in std::iter::once(p.clone()).chain(gametree_chess_tables::flip_position(p)) {
                let raw = tables.probe(&q)?;
                let packed = disk.probe(&q).map_err(anyhow::Error::from);
                total += 1;
                match packed {
                    Ok(v) if v == raw => agree += 1,
                    Ok(v) => {
                        t.compare(q.to_string(), None, format!("{raw:?}"), format!("{v:?}"));
                    }
                    Err(e) => {
                        t.compare(q.to_string(), None, format!("{raw:?}"), e.to_string());
                    }
                }
            }
        }
        t.compare(
            "probes by position",
            None,
            format!("{total} equal"),
            format!("{agree} equal"),
        );
        Ok(())
    };
    if let Err(e) = run(&mut t) {
        t.compare(
            "compressed files",
            None,
            "written and read".to_string(),
            e.to_string(),
        );
    }
    t
}

/// The endings whose files the resumption check deletes: a 3-man ending
/// that others probe and a 4-man ending asked for (in every mode's
/// plan).
const DELETED: [&str; 2] = ["KRvK", "KQvKR"];

/// A directory of its own under the system's temporary directory,
/// removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "gametree-verify-build-into-{}-{n}",
            std::process::id()
        ));
        // Left by an earlier process that had this id and was killed.
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What each `done` call of a build into a directory said: the ending,
/// the file and whether it was built or read.
#[derive(Default)]
struct Reports(Mutex<Vec<String>>);

impl Reports {
    fn record(&self, ending: &Signature, path: &Path, written: Written) {
        let what = match written {
            Written::Built(_) => "built",
            Written::Loaded => "loaded",
        };
        let file = path.file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(format!("{ending} {what} {file}"));
    }

    /// The reports so far, sorted (the threads report in any order), and
    /// none kept.
    fn take(&self) -> String {
        let mut all = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        all.sort();
        all.join(", ")
    }
}

/// The reports a build of `plan` into a directory should make: each ending
/// once, with its own file, built when `built` says so, else read.
fn expected_reports(plan: &[Signature], built: impl Fn(&Signature) -> bool) -> String {
    let mut all: Vec<String> = plan
        .iter()
        .map(|s| {
            let what = if built(s) { "built" } else { "loaded" };
            format!("{s} {what} {s}.gtb")
        })
        .collect();
    all.sort();
    all.join(", ")
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &Path) -> String {
    let names = std::fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<std::io::Result<Vec<String>>>()
    });
    match names {
        Ok(mut names) => {
            names.sort();
            names.join(", ")
        }
        Err(e) => format!("{}: {e}", dir.display()),
    }
}

/// How a file is damaged.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// A byte of the payload (the middle of the file) flipped.
    Flipped,
    /// The second half cut off.
    Cut,
    /// Replaced by the file of this other ending (of the same size).
    Other(&'static str),
}

impl Damage {
    /// The bytes of a file `original` in `dir`, damaged.
    fn apply(self, original: &[u8], dir: &Path) -> std::io::Result<Vec<u8>> {
        Ok(match self {
            Damage::Flipped => {
                let mut b = original.to_vec();
                let middle = b.len() / 2;
                b[middle] ^= 1;
                b
            }
            Damage::Cut => original[..original.len() / 2].to_vec(),
            Damage::Other(other) => std::fs::read(dir.join(format!("{other}.gtb")))?,
        })
    }

    /// The fault [`outcome`] names for a file damaged so.
    const fn kind(self) -> &'static str {
        match self {
            Damage::Flipped => "corrupted",
            Damage::Cut => "truncated",
            Damage::Other(_) => "wrong material",
        }
    }
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Damage::Flipped => f.write_str("a payload byte flipped"),
            Damage::Cut => f.write_str("cut short"),
            Damage::Other(other) => write!(f, "{other}'s file in its place"),
        }
    }
}

/// A build's result, as the rows compare it: the plan, or the error with
/// the ending and the kind of a file refused.
fn outcome(result: &Result<Vec<Signature>, Error>) -> String {
    match result {
        Ok(plan) => format!("accepted: {} endings", plan.len()),
        Err(Error::Load { ending, source }) => {
            let kind = match source {
                LoadError::Corrupted(_) => "corrupted".to_string(),
                LoadError::Truncated { .. } => "truncated".to_string(),
                LoadError::WrongMaterial { .. } => "wrong material".to_string(),
                other => format!("other: {other}"),
            };
            format!("refused: Error::Load, {ending}, {kind}")
        }
        Err(other) => format!("another error: {other}"),
    }
}

/// Builds `endings` with [`Tablebase::build_into`] into a fresh directory,
/// and compares:
///
/// 1. the plan, the `done` reports (each ending built once, into its own
///    file) and the directory's files with the plan;
/// 2. every file, read back, with the same ending built in memory by
///    [`Tablebase::build`], index by index;
/// 3. after deleting the files of [`DELETED`] (a crash before they were
///    finished, with a stray temporary file of the crashed writer left
///    beside them): a second build rebuilds exactly those, reads every
///    other file, and writes the same bytes as the first;
/// 4. a file with a payload byte flipped (`KQvK`), one cut short
///    (`KRvKN`) and another ending's file under an ending's name (`KBvK`'s
///    as `KNvK`'s): each is refused with [`Error::Load`] naming the
///    ending and the fault, and left as it was (not rebuilt over);
/// 5. the files restored, a last build reads every one and builds none.
fn written_equals_in_memory(endings: &[String]) -> Tally {
    let mut t = Tally::default();
    let endings: Vec<Signature> = match endings.iter().map(|e| e.parse()).collect() {
        Ok(e) => e,
        Err(e) => {
            t.compare("endings", None, "chess endings".to_string(), format!("{e}"));
            return t;
        }
    };
    let scratch = match Scratch::new() {
        Ok(s) => s,
        Err(e) => {
            t.compare(
                "temporary directory",
                None,
                "created".to_string(),
                e.to_string(),
            );
            return t;
        }
    };
    let dir = scratch.0.as_path();
    let options = BuildOptions {
        threads: 2,
        progress: None,
        ..BuildOptions::default()
    };
    let tables = Tablebase::new();
    let reports = Reports::default();
    let done = |s: &Signature, p: &Path, w: Written| reports.record(s, p, w);
    let build = || tables.build_into(&endings, dir, &options, &done);

    // 1. The first build.
    let plan = match build() {
        Ok(plan) => plan,
        Err(e) => {
            t.compare("first build", None, "built".to_string(), e.to_string());
            return t;
        }
    };
    let names = |plan: &[Signature]| {
        plan.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    t.compare(
        "first build: the plan",
        None,
        names(&tables.plan(&endings)),
        names(&plan),
    );
    t.compare(
        "first build: done reports",
        None,
        expected_reports(&plan, |_| true),
        reports.take(),
    );
    let mut files: Vec<String> = plan.iter().map(|s| format!("{s}.gtb")).collect();
    files.sort();
    t.compare(
        "first build: files in the directory",
        None,
        files.join(", "),
        files_in(dir),
    );

    // 2. Every file against the build in memory.
    let mut whole = Tablebase::new();
    match whole.build(&endings, &options) {
        Ok(in_memory) => {
            t.compare(
                "Tablebase::build: the plan",
                None,
                names(&plan),
                names(&in_memory),
            );
        }
        Err(e) => {
            t.compare("Tablebase::build", None, "built".to_string(), e.to_string());
            return t;
        }
    }
    for ending in &plan {
        let expected = format!("equal on {} indices", table_bytes(ending));
        let got = match (
            Table::read(table_file(dir, ending), &label(ending)),
            whole.table(ending),
        ) {
            (Ok(read), Some(built)) => match gametree_retrograde::compare(&read, built) {
                Ok(n) => format!("equal on {n} indices"),
                Err(d) => format!("file and memory differ at {d}"),
            },
            (Err(e), _) => format!("reading the file: {e}"),
            (_, None) => "not built in memory".to_string(),
        };
        t.compare(format!("{ending}: file = memory"), None, expected, got);
    }
    drop(whole);

    // 3. Resumption: the files of DELETED are gone, a stray temporary file
    // beside them.
    let deleted: Vec<Signature> = DELETED.iter().filter_map(|s| s.parse().ok()).collect();
    let mut first_bytes = Vec::new();
    for ending in &deleted {
        let path = table_file(dir, ending);
        let bytes = std::fs::read(&path).and_then(|b| std::fs::remove_file(&path).map(|()| b));
        match bytes {
            Ok(b) => first_bytes.push((ending, b)),
            Err(e) => {
                t.compare(
                    format!("{ending}: deleting its file"),
                    None,
                    "deleted".to_string(),
                    e.to_string(),
                );
                return t;
            }
        }
    }
    let stray = dir.join(format!(
        "{}.gtb.tmp{}",
        deleted[0],
        std::process::id().wrapping_add(1)
    ));
    if let Err(e) = std::fs::write(&stray, b"half a file, its writer killed") {
        t.compare("stray file", None, "written".to_string(), e.to_string());
        return t;
    }
    let resumed = build();
    t.compare(
        "resumed build",
        None,
        outcome(&Ok(plan.clone())),
        outcome(&resumed),
    );
    t.compare(
        "resumed build: done reports",
        None,
        expected_reports(&plan, |s| deleted.contains(s)),
        reports.take(),
    );
    for (ending, first) in &first_bytes {
        let got = match std::fs::read(table_file(dir, ending)) {
            Ok(b) if b == *first => format!("the first build's {} bytes", first.len()),
            Ok(b) => format!("{} bytes, not the first build's", b.len()),
            Err(e) => e.to_string(),
        };
        t.compare(
            format!("{ending}: rebuilt file"),
            None,
            format!("the first build's {} bytes", first.len()),
            got,
        );
    }
    let _ = std::fs::remove_file(&stray);

    // 4. Damaged files.
    for (name, damage) in [
        ("KQvK", Damage::Flipped),
        ("KRvKN", Damage::Cut),
        ("KNvK", Damage::Other("KBvK")),
    ] {
        let Ok(ending) = name.parse::<Signature>() else {
            continue;
        };
        let path = table_file(dir, &ending);
        let damaged = std::fs::read(&path).and_then(|original| {
            let damaged = damage.apply(&original, dir)?;
            std::fs::write(&path, &damaged)?;
            Ok((original, damaged))
        });
        let (original, damaged) = match damaged {
            Ok(d) => d,
            Err(e) => {
                t.compare(
                    format!("{name}.gtb: {damage}"),
                    None,
                    "damaged".to_string(),
                    e.to_string(),
                );
                return t;
            }
        };
        let result = build();
        let kept = match std::fs::read(&path) {
            Ok(after) if after == damaged => "left as it was",
            Ok(_) => "changed",
            Err(_) => "gone",
        };
        reports.take();
        t.compare(
            format!("{name}.gtb: {damage}"),
            None,
            format!(
                "refused: Error::Load, {name}, {}; the file left as it was",
                damage.kind()
            ),
            format!("{}; the file {kept}", outcome(&result)),
        );
        if let Err(e) = std::fs::write(&path, &original) {
            t.compare(
                format!("{name}.gtb: restored"),
                None,
                "written".to_string(),
                e.to_string(),
            );
            return t;
        }
    }

    // 5. Every file restored: read, none built.
    let last = build();
    t.compare(
        "after the damaged files are restored",
        None,
        outcome(&Ok(plan.clone())),
        outcome(&last),
    );
    t.compare(
        "after the damaged files are restored: done reports",
        None,
        expected_reports(&plan, |_| false),
        reports.take(),
    );
    t
}
