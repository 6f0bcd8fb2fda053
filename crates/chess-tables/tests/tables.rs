//! `Tablebase` against tables built directly with `retrograde`, the
//! published KQvKR figure, probing with the colours exchanged, and every
//! error.

use std::sync::Mutex;

use gametree_chess_tables::{
    BuildOptions, Error, FastEndgame, MAX_BUILD_PIECES, Placement, Signature, Tablebase, label,
};
use gametree_game::IndexSpace;
use gametree_games_chess::Position;
use gametree_retrograde::{Event, Generator, Label, Table, TableProbe, Value};

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

fn names(s: &[Signature]) -> Vec<String> {
    s.iter().map(ToString::to_string).collect()
}

/// The reference: each ending built on its own with `retrograde`, in the
/// given order, captures valued by `TableProbe`s over the tables built
/// before it, as they are or with the colours exchanged.
fn reference(endings: &[&str]) -> Vec<(FastEndgame, Table)> {
    let mut out: Vec<(FastEndgame, Table)> = Vec::new();
    for &m in endings {
        let space = FastEndgame::new(m).unwrap();
        let probes: Vec<TableProbe<'_, FastEndgame>> = out
            .iter()
            .map(|(s, t)| TableProbe::new(s, t).unwrap())
            .collect();
        let resolver = |p: &Placement| {
            let find = |q: &Placement| probes.iter().find_map(|probe| probe.probe(q));
            find(p).or_else(|| find(&p.flipped()))
        };
        let table = Generator::new(&space)
            .resolver(&resolver)
            .backward_indexed()
            .unwrap();
        drop(probes);
        out.push((space, table));
    }
    out
}

#[test]
fn a_scheduled_set_equals_tables_built_one_by_one() {
    let expected = reference(&["KQvK", "KRvK", "KBvK", "KNvK", "KQvKR", "KRvKN", "KBNvK"]);
    for threads in [1, 2] {
        let mut tables = Tablebase::new();
        let options = BuildOptions {
            threads,
            progress: None,
            ..BuildOptions::default()
        };
        let built = tables
            .build(&[sig("KQvKR"), sig("KRvKN"), sig("KBNvK")], &options)
            .unwrap();
        // Three pieces first, then four (spaces of one size: in the
        // order the endings were met).
        assert_eq!(
            names(&built),
            ["KQvK", "KRvK", "KNvK", "KBvK", "KQvKR", "KRvKN", "KBNvK"]
        );
        assert_eq!(tables.len(), 7);
        for (space, table) in &expected {
            let (_, got) = tables.get(space.endgame().signature()).unwrap();
            assert_eq!(gametree_retrograde::compare(table, got), Ok(space.size()));
        }
        // Nothing left to build.
        assert!(tables.build(&[sig("KQvKR")], &options).unwrap().is_empty());
    }
}

#[test]
fn kqvkr_longest_mate_and_probing_with_colours_exchanged() {
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KQvKR")], &BuildOptions::default())
        .unwrap();
    assert_eq!(
        names(&tables.iter().map(|(s, _, _)| s.clone()).collect::<Vec<_>>()),
        ["KQvK", "KRvK", "KQvKR"]
    );
    let (space, table) = tables.get(&sig("KQvKR")).unwrap();
    // The longest KQvKR win is a mate in 35 (69 plies), as published for
    // distance-to-mate tables (e.g. the Nalimov tables; the corpus of
    // `gametree-data`).
    let (plies, index) = table.counts().longest_win.unwrap();
    let published = gametree_data::chess_endgames()
        .unwrap()
        .longest_mate("KQvKR")
        .unwrap()
        .plies();
    assert_eq!(u32::from(plies), published);
    let p = space.position(index).unwrap();
    assert_eq!(tables.probe_placement(&p).unwrap(), Some(Value::Win(plies)));
    assert_eq!(
        tables.probe_placement(&p.flipped()).unwrap(),
        Some(Value::Win(plies))
    );
    // Through positions: KRvKQ is probed in KQvKR.
    let white: Position = "8/8/8/8/2k5/8/1r6/QK6 w - - 0 1".parse().unwrap();
    let black: Position = "qk6/1R6/8/2K5/8/8/8/8 b - - 0 1".parse().unwrap();
    let v = tables.probe(&white).unwrap();
    assert!(v.is_some());
    assert_eq!(tables.probe(&black).unwrap(), v);
    // KvKQ is KQvK; two kings are a draw; pawns and missing endings: None.
    assert!(tables.covers(&sig("KvKQ")) && tables.covers(&sig("KRvKQ")));
    assert!(!tables.covers(&sig("KBvK")) && tables.plan(&[sig("KvKQ")]).is_empty());
    let kings: Position = "8/8/8/8/2k5/8/8/1K6 w - - 0 1".parse().unwrap();
    assert_eq!(tables.probe(&kings).unwrap(), Some(Value::Draw));
    let pawn: Position = "8/8/8/8/2k5/8/P7/1K6 w - - 0 1".parse().unwrap();
    assert_eq!(tables.probe(&pawn).unwrap(), None);
    let bishop: Position = "8/8/8/8/2k5/8/8/BK6 w - - 0 1".parse().unwrap();
    assert_eq!(tables.probe(&bishop).unwrap(), None);
}

#[test]
fn progress_reports_every_build() {
    let done = Mutex::new(Vec::new());
    let progress = |s: &Signature, e: &Event<'_, _>| {
        if let Event::Done { .. } = e {
            done.lock().unwrap().push(s.to_string());
        }
    };
    let mut tables = Tablebase::new();
    let built = tables
        .build(
            &[sig("KRvKB")],
            &BuildOptions {
                threads: 2,
                progress: Some(&progress),
                ..BuildOptions::default()
            },
        )
        .unwrap();
    let mut done = done.into_inner().unwrap();
    done.sort();
    let mut built = names(&built);
    built.sort();
    assert_eq!(done, built);
    assert_eq!(done, ["KBvK", "KRvK", "KRvKB"]);
}

#[test]
fn too_many_pieces_builds_nothing() {
    let mut tables = Tablebase::new();
    let six = sig("KQRvKRN");
    assert_eq!(six.piece_count(), MAX_BUILD_PIECES + 1);
    let e = tables
        .build(&[sig("KQvK"), six], &BuildOptions::default())
        .unwrap_err();
    assert!(
        matches!(&e, Error::TooManyPieces { ending, pieces: 6 } if ending.to_string() == "KQRvKRN"),
        "{e}"
    );
    assert!(e.to_string().contains("at most 5"));
    assert!(tables.is_empty());
}

#[test]
fn files_round_trip_and_wrong_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("chess-tables-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KRvK")], &BuildOptions::default())
        .unwrap();
    let path = dir.join("KRvK.gtb");
    assert!(tables.save(&sig("KRvK"), &path).unwrap());
    assert!(!tables.save(&sig("KQvK"), &dir.join("KQvK.gtb")).unwrap());
    let mut loaded = Tablebase::new();
    loaded.load(&sig("KRvK"), &path).unwrap();
    let (_, a) = tables.get(&sig("KRvK")).unwrap();
    let (space, b) = loaded.get(&sig("KRvK")).unwrap();
    assert_eq!(gametree_retrograde::compare(a, b), Ok(space.size()));
    // Another ending's file, a truncated one, a missing one.
    let e = loaded.load(&sig("KQvK"), &path).unwrap_err();
    assert!(matches!(&e, Error::Load { .. }), "{e}");
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.join("cut.gtb");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(
        loaded.load(&sig("KRvK"), &cut),
        Err(Error::Load { .. })
    ));
    assert!(matches!(
        loaded.load(&sig("KRvK"), &dir.join("none.gtb")),
        Err(Error::Load { .. })
    ));
    // Saving where no file can be written.
    assert!(matches!(
        tables.save(&sig("KRvK"), &cut.join("below-a-file.gtb")),
        Err(Error::Save { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
    // Inserting: a table's label names its ending, and must be a chess
    // ending's in this scheme, of the right size.
    let (space, table) = reference(&["KQvK"]).pop().unwrap();
    assert!(matches!(
        loaded.insert(table.clone()),
        Err(Error::Label { .. })
    ));
    let relabelled = Generator::new(&space)
        .label(label(&sig("KQvK")))
        .backward_indexed()
        .unwrap();
    assert_eq!(loaded.insert(relabelled.clone()).unwrap(), None);
    assert!(loaded.insert(relabelled).unwrap().is_some());
    let wrong_size = Generator::new(&space)
        .label(Label::new("chess", "KQvKR", gametree_chess_tables::SCHEME))
        .backward_indexed()
        .unwrap();
    assert!(matches!(loaded.insert(wrong_size), Err(Error::Size { .. })));
    assert_eq!(loaded.len(), 2);
    assert_eq!(
        loaded.remove(&sig("KQvK")).map(|t| t.len()),
        Some(space.size())
    );
    assert_eq!(loaded.len(), 1);
}

/// The memory bound counts the tables kept and the working memory of the
/// builds that may run at once.
#[test]
fn memory_bound() {
    let kqkr = [sig("KQvKR")];
    let mut tables = Tablebase::new();
    let size = |m: &str| FastEndgame::new(m).unwrap().size();
    let working = |m: &str| {
        let space = FastEndgame::new(m).unwrap();
        Generator::new(&space)
            .threads(1)
            .memory(gametree_retrograde::Method::Backward)
            .total_bytes
    };
    // KQvK, KRvK, KQvKR: one thread runs one build at a time, so the
    // biggest working memory (KQvKR's) counts once; two threads add the
    // next biggest (a 3-man one).
    let tables_only = size("KQvK") + size("KRvK") + size("KQvKR");
    let one = tables.memory(&kqkr, 1);
    assert_eq!(one, tables_only + working("KQvKR") - size("KQvKR"));
    let two = tables.memory(&kqkr, 2);
    assert_eq!(two, one + working("KQvK") - size("KQvK"));
    // Once built, nothing more is needed than the tables held.
    tables.build(&kqkr, &BuildOptions::default()).unwrap();
    assert_eq!(tables.memory(&kqkr, 2), tables_only);
}

/// Best moves from KQvKR's longest win mate in exactly the stated number
/// of plies (69), each ply one closer, whatever the defender plays (here: its best move,
/// the slowest loss); from a drawn position they keep the draw.
#[test]
fn best_moves_mate_in_the_stated_number_of_plies() {
    use gametree_game::{Game, Outcome};
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KQvKR")], &BuildOptions::default())
        .unwrap();
    let (space, table) = tables.get(&sig("KQvKR")).unwrap();
    let (stated, index) = table.counts().longest_win.unwrap();
    let start: Position = space.endgame().position(index).unwrap();
    let mut p = start.clone();
    let mut plies = 0u16;
    while let Some((m, v)) = tables.best_move(&p).unwrap() {
        assert_eq!(v.plies(), Some(stated - plies), "ply {plies}: {p}");
        p.make(m);
        plies += 1;
    }
    assert_eq!(plies, stated);
    assert_eq!(p.outcome(), Some(Outcome::Loss), "{p}");
    assert_eq!(tables.probe(&p).unwrap(), Some(Value::Loss(0)));
    // A drawn position: the best move keeps it drawn.
    let drawn = (0..space.size())
        .step_by(997)
        .find(|&i| table.get(i) == Some(Value::Draw) && space.endgame().position(i).is_some())
        .unwrap();
    let p = space.endgame().position(drawn).unwrap();
    let (m, v) = tables.best_move(&p).unwrap().unwrap();
    assert_eq!(v, Value::Draw);
    let mut q = p.clone();
    q.make(m);
    assert_eq!(tables.probe(&q).unwrap(), Some(Value::Draw));
    // No table for the position: no answer.
    let bishop: Position = "8/8/8/8/2k5/8/8/BK6 w - - 0 1".parse().unwrap();
    assert_eq!(tables.best_move(&bishop).unwrap(), None);
}

/// Builds stop on their limits with `Error::Stopped`: a cancel flag raised
/// before or during the call, a time limit spent; nothing of the call is
/// kept in memory, and a build into a directory keeps the files it
/// finished and resumes from them.
#[test]
fn builds_stop_on_their_limits() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use gametree_chess_tables::{Written, table_file};
    use gametree_game::{Limits, Stop};

    let stopped = |r: Result<Vec<Signature>, Error>| match r {
        Err(Error::Stopped { ending, stop }) => (ending.to_string(), stop),
        other => panic!("not stopped: {other:?}"),
    };
    // Cancelled before the call: nothing built.
    let cancel = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    let options = BuildOptions {
        limits: Some(&limits),
        ..BuildOptions::default()
    };
    let mut tables = Tablebase::new();
    let (_, stop) = stopped(tables.build(&[sig("KQvKR")], &options));
    assert_eq!(stop, Stop::Cancelled);
    assert!(tables.is_empty());
    assert!(matches!(
        tables.build_table(&sig("KQvK"), &options),
        Err(Error::Stopped {
            stop: Stop::Cancelled,
            ..
        })
    ));
    // No time left: the same, for the time limit.
    let spent = Limits::default().with_time(Duration::ZERO);
    let options = BuildOptions {
        limits: Some(&spent),
        ..BuildOptions::default()
    };
    let (_, stop) = stopped(tables.build(&[sig("KQvKR")], &options));
    assert_eq!(stop, Stop::Time);
    assert!(tables.is_empty());
    // Raised while KQvKR builds (its 3-man endings done): KQvKR stops,
    // and none of the call's tables is kept.
    cancel.store(false, Ordering::Relaxed);
    let progress = |s: &Signature, e: &Event<'_, _>| {
        if s.to_string() == "KQvKR" && matches!(e, Event::Start { .. }) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let options = BuildOptions {
        threads: 1,
        progress: Some(&progress),
        limits: Some(&limits),
    };
    let (ending, stop) = stopped(tables.build(&[sig("KQvKR")], &options));
    assert_eq!((ending.as_str(), stop), ("KQvKR", Stop::Cancelled));
    assert!(tables.is_empty());
    // Into a directory: the 3-man files finished stay, KQvKR's is not
    // written; without limits, the build resumes from them.
    let dir = std::env::temp_dir().join(format!("tables-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    cancel.store(false, Ordering::Relaxed);
    let r = tables.build_into(&[sig("KQvKR")], &dir, &options, &|_, _, _| {});
    assert_eq!(stopped(r).0, "KQvKR");
    assert!(table_file(&dir, &sig("KQvK")).exists());
    assert!(table_file(&dir, &sig("KRvK")).exists());
    assert!(!table_file(&dir, &sig("KQvKR")).exists());
    let written = Mutex::new(Vec::new());
    tables
        .build_into(
            &[sig("KQvKR")],
            &dir,
            &BuildOptions::default(),
            &|s, _, w| {
                written
                    .lock()
                    .unwrap()
                    .push((s.to_string(), w == Written::Loaded));
            },
        )
        .unwrap();
    let mut written = written.into_inner().unwrap();
    written.sort();
    assert_eq!(
        written,
        [
            ("KQvK".to_string(), true),
            ("KQvKR".to_string(), false),
            ("KRvK".to_string(), true)
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
