//! `Tablebase` over files: every ending found by material and read when
//! first probed, raw or compressed, giving the values of the tables built
//! in memory; a memory budget that drops the tables probed least
//! recently; a compressed file decoded whole once probed often, when it
//! fits; a damaged file or a missing directory a typed error, never a
//! panic nor another value; probes from several threads reading a file
//! once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use gametree_chess_tables::{
    BuildOptions, Error, Held, Load, Signature, Tablebase, compressed_table_file, table_bytes,
    table_file,
};
use gametree_game::{Game, IndexSpace, Oracle};
use gametree_games_chess::Position;
use gametree_retrograde::format::{Header, VERSION_BYTES};
use gametree_retrograde::{LoadError, Value};

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablebase-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// KQvKR, KRvKN and KPvK built in memory, with every ending they lead to.
fn built() -> Tablebase {
    let mut tables = Tablebase::new();
    tables
        .build(
            &[sig("KQvKR"), sig("KRvKN"), sig("KPvK")],
            &BuildOptions::default(),
        )
        .unwrap();
    tables
}

/// Every table of `tables` written into `dir`: the raw file, or the
/// compressed one when `compressed` picks the ending.
fn write(tables: &Tablebase, dir: &Path, compressed: impl Fn(&Signature) -> bool) {
    for (s, _) in tables.tables() {
        if compressed(s) {
            assert!(
                tables
                    .save_compressed(s, &compressed_table_file(dir, s))
                    .unwrap()
            );
        } else {
            assert!(tables.save(s, &table_file(dir, s)).unwrap());
        }
    }
}

/// Positions of every table of `tables`: every 97th index of each space
/// that stands for a position, the colours exchanged too, and the
/// positions after each legal move of every 7th of them (captures and
/// promotions into other endings).
fn positions(tables: &Tablebase) -> Vec<Position> {
    let mut out = Vec::new();
    let endings: Vec<Signature> = tables.tables().map(|(s, _)| s.clone()).collect();
    for s in &endings {
        let mut found: Vec<Position> = Vec::new();
        if let Some((space, _)) = tables.get(s) {
            found.extend(
                (0..space.size())
                    .step_by(97)
                    .filter_map(|i| space.endgame().position(i)),
            );
        } else {
            let (space, _) = tables.get_pawns(s).unwrap();
            found.extend(
                (0..space.size())
                    .step_by(97)
                    .filter_map(|i| space.position(i)),
            );
        }
        for (k, p) in found.iter().enumerate() {
            if let Some(f) = gametree_chess_tables::flip_position(p) {
                out.push(f);
            }
            if k % 7 == 0 {
                let mut moves = <Position as Game>::Moves::default();
                p.generate(&mut moves);
                for &m in &moves {
                    let mut child = p.clone();
                    child.make(m);
                    out.push(child);
                }
            }
        }
        out.extend(found);
    }
    out
}

#[test]
fn a_directory_of_raw_and_compressed_files_probes_as_the_tables_built() {
    let tables = built();
    // KQvK, KRvK, KBvK, KNvK, KPvK, KQvKR, KRvKN.
    assert_eq!(
        tables.len(),
        7,
        "{:?}",
        tables.endings().collect::<Vec<_>>()
    );
    let dir = fresh_dir("values");
    // KQvKR and KBvK compressed, the others raw.
    write(&tables, &dir, |s| {
        s.to_string() == "KQvKR" || s.to_string() == "KBvK"
    });
    let mut disk = Tablebase::new();
    assert_eq!(disk.add_directory(&dir).unwrap(), tables.len());
    assert_eq!(disk.reads(), 0);
    assert!(disk.in_memory().is_empty());
    let all = positions(&tables);
    assert!(all.len() > 100_000, "{}", all.len());
    let mut known = 0;
    for p in &all {
        let expected = tables.probe(p).unwrap();
        assert_eq!(disk.probe(p).unwrap(), expected, "{p}");
        known += usize::from(expected.is_some());
    }
    assert!(known > all.len() * 9 / 10, "{known} of {}", all.len());
    for p in all.iter().step_by(1009) {
        assert_eq!(
            disk.best_move(p).unwrap(),
            tables.best_move(p).unwrap(),
            "{p}"
        );
        // As an oracle: the same values as scores.
        if p.outcome().is_none() {
            assert_eq!(
                Oracle::probe(&disk, p),
                tables.probe(p).unwrap().map(Value::to_score)
            );
        }
    }
    assert!(disk.take_error().is_none());
    // Every ending read once: the budget is unbounded.
    assert_eq!(disk.in_memory().len(), tables.len());
    assert!(disk.reads() >= tables.len() as u64);
    // Positions of endings not there: unknown; two bare kings: a draw.
    let kbbk: Position = "8/8/8/4k3/8/8/8/KBB5 w - - 0 1".parse().unwrap();
    assert_eq!(disk.probe(&kbbk).unwrap(), None);
    let kk: Position = "8/8/8/4k3/8/8/8/K7 w - - 0 1".parse().unwrap();
    assert_eq!(disk.probe(&kk).unwrap(), Some(Value::Draw));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_ending_is_read_when_first_probed_and_once() {
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KQvK"), sig("KRvK")], &BuildOptions::default())
        .unwrap();
    let dir = fresh_dir("lazy");
    write(&tables, &dir, |_| false);
    let mut disk = Tablebase::new();
    let events = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&events);
    disk.set_listener(move |e| {
        let held: Vec<String> = e.in_memory.iter().map(|(s, _)| s.to_string()).collect();
        log.lock()
            .unwrap()
            .push(format!("{:?} {}: {}", e.load, e.ending, held.join(" ")));
    });
    assert_eq!(disk.add_directory(&dir).unwrap(), 2);
    assert_eq!(
        disk.file(&sig("KQvK")),
        Some(table_file(&dir, &sig("KQvK")).as_path())
    );
    assert_eq!(disk.held(&sig("KQvK")), None);
    assert_eq!(disk.held(&sig("KRvK")), None);
    // Black's rook: KRvK's table, colours exchanged.
    let kkr: Position = "kr6/8/8/8/3K4/8/8/8 w - - 0 1".parse().unwrap();
    assert!(disk.probe(&kkr).unwrap().is_some());
    assert_eq!(disk.held(&sig("KRvK")), Some(Held::Whole));
    assert_eq!(disk.held(&sig("KQvK")), None);
    assert_eq!(disk.reads(), 1);
    assert_eq!(disk.memory_held(), table_bytes(&sig("KRvK")));
    for _ in 0..10 {
        disk.probe(&kkr).unwrap();
    }
    assert_eq!(disk.reads(), 1);
    let kqk: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
    assert!(disk.probe(&kqk).unwrap().is_some());
    assert_eq!(disk.reads(), 2);
    assert_eq!(
        *events.lock().unwrap(),
        ["Read KRvK: KRvK", "Read KQvK: KQvK KRvK"]
    );
    // Dropped on demand, read again when probed again.
    assert_eq!(
        disk.unload_where(|s| s.to_string() == "KRvK"),
        [sig("KRvK")]
    );
    assert_eq!(disk.held(&sig("KRvK")), None);
    assert_eq!(disk.memory_held(), table_bytes(&sig("KQvK")));
    disk.probe(&kkr).unwrap();
    assert_eq!(disk.reads(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tables_are_dropped_beyond_the_budget_least_recently_probed_first() {
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KQvK"), sig("KRvK")], &BuildOptions::default())
        .unwrap();
    let dir = fresh_dir("budget");
    write(&tables, &dir, |_| false);
    let mut disk = Tablebase::new();
    // Room for one table at a time.
    disk.set_memory_budget(table_bytes(&sig("KQvK")));
    disk.add_directory(&dir).unwrap();
    let dropped = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&dropped);
    disk.set_listener(move |e| {
        if e.load == Load::Dropped {
            log.lock().unwrap().push(e.ending.to_string());
        }
    });
    let kqk: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
    let krk: Position = "8/8/8/4k3/8/8/8/KR6 b - - 0 1".parse().unwrap();
    let kkr: Position = "kr6/8/8/8/3K4/8/8/8 w - - 0 1".parse().unwrap();
    for p in [&kqk, &krk, &kkr, &kqk] {
        let expected = tables.probe(p).unwrap();
        assert!(expected.is_some());
        assert_eq!(disk.probe(p).unwrap(), expected, "{p}");
        assert!(disk.memory_held() <= disk.memory_budget());
    }
    assert_eq!(disk.held(&sig("KQvK")), Some(Held::Whole));
    assert_eq!(disk.held(&sig("KRvK")), None);
    assert_eq!(disk.reads(), 3);
    assert_eq!(*dropped.lock().unwrap(), ["KQvK", "KRvK"]);
    // A budget smaller than any table: each is still read, alone.
    disk.set_memory_budget(1);
    assert_eq!(disk.probe(&krk).unwrap(), tables.probe(&krk).unwrap());
    assert_eq!(disk.in_memory(), [(sig("KRvK"), Held::Whole)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_compressed_table_probed_often_is_decoded_whole_within_the_budget() {
    let mut tables = Tablebase::new();
    let kqvk = sig("KQvK");
    tables
        .build(std::slice::from_ref(&kqvk), &BuildOptions::default())
        .unwrap();
    let dir = fresh_dir("decode");
    write(&tables, &dir, |_| true);
    let p: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
    let expected = tables.probe(&p).unwrap();
    assert!(expected.is_some());
    // One probe per 1,024 positions of the table: 40 for KQvK.
    let n = table_bytes(&kqvk) / 1024;
    assert!(n > 10, "{n}");
    // Room for the table: decoded after n probes.
    let mut roomy = Tablebase::new();
    roomy.set_memory_budget(table_bytes(&kqvk));
    roomy.add_directory(&dir).unwrap();
    assert_eq!(roomy.probe(&p).unwrap(), expected);
    assert_eq!(roomy.held(&kqvk), Some(Held::Blocks));
    let index = roomy.memory_held();
    assert!(index > 0 && index * 100 < table_bytes(&kqvk), "{index}");
    for _ in 1..n - 1 {
        assert_eq!(roomy.probe(&p).unwrap(), expected);
    }
    assert_eq!(roomy.held(&kqvk), Some(Held::Blocks));
    assert_eq!(roomy.probe(&p).unwrap(), expected);
    assert_eq!(roomy.held(&kqvk), Some(Held::Whole));
    assert_eq!(roomy.memory_held(), table_bytes(&kqvk));
    assert_eq!(roomy.probe(&p).unwrap(), expected);
    // Room for its block index only: probed a block at a time for good.
    let mut tight = Tablebase::new();
    tight.set_memory_budget(index);
    tight.add_directory(&dir).unwrap();
    for _ in 0..=n {
        assert_eq!(tight.probe(&p).unwrap(), expected);
    }
    assert_eq!(tight.held(&kqvk), Some(Held::Blocks));
    // Both files there: the raw one, or the compressed one by choice.
    write(&tables, &dir, |_| false);
    let mut raw = Tablebase::new();
    raw.add_directory(&dir).unwrap();
    assert_eq!(raw.file(&kqvk), Some(table_file(&dir, &kqvk).as_path()));
    let mut packed = Tablebase::new();
    packed.prefer_compressed(true);
    packed.add_directory(&dir).unwrap();
    assert_eq!(
        packed.file(&kqvk),
        Some(compressed_table_file(&dir, &kqvk).as_path())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Which error a damaged or missing file gives.
fn load_error(e: Error) -> LoadError {
    match e {
        Error::Load { source, .. } => source,
        other => panic!("not a load error: {other}"),
    }
}

#[test]
fn damaged_files_and_missing_directories_are_typed_errors() {
    let mut tables = Tablebase::new();
    let krvk = sig("KRvK");
    tables
        .build(std::slice::from_ref(&krvk), &BuildOptions::default())
        .unwrap();
    let kkr: Position = "kr6/8/8/8/3K4/8/8/8 w - - 0 1".parse().unwrap();
    let missing = std::env::temp_dir().join(format!("tablebase-none-{}", std::process::id()));
    assert!(matches!(
        Tablebase::new().add_directory(&missing),
        Err(Error::Directory { .. })
    ));
    for compressed in [false, true] {
        let dir = fresh_dir(if compressed {
            "damage-gtbz"
        } else {
            "damage-gtb"
        });
        let path = if compressed {
            compressed_table_file(&dir, &krvk)
        } else {
            table_file(&dir, &krvk)
        };
        let write_with = |damage: &dyn Fn(&mut Vec<u8>)| {
            write(&tables, &dir, |_| compressed);
            let mut bytes = std::fs::read(&path).unwrap();
            damage(&mut bytes);
            std::fs::write(&path, &bytes).unwrap();
        };
        // Cut short in its header: refused when added.
        write_with(&|b| b.truncate(30));
        let e = Tablebase::new().add_directory(&dir).unwrap_err();
        assert!(matches!(
            load_error(e),
            LoadError::Truncated { found: 30, .. }
        ));
        // Another format version: refused when added.
        write_with(&|b| b[VERSION_BYTES].copy_from_slice(&9u16.to_le_bytes()));
        let e = Tablebase::new().add_directory(&dir).unwrap_err();
        assert!(matches!(
            load_error(e),
            LoadError::UnsupportedVersion { found: 9, .. }
        ));
        // Another ending's file under this name: refused when added.
        write(&tables, &dir, |_| compressed);
        let name = path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace("KRvK", "KQvK");
        std::fs::rename(&path, dir.join(name)).unwrap();
        let e = Tablebase::new().add_directory(&dir).unwrap_err();
        assert!(matches!(load_error(e), LoadError::WrongMaterial { .. }));
        for f in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(f.unwrap().path()).unwrap();
        }
        // The data changed (from where the header says it starts), the
        // header intact: added, refused when probed (as a probe, an oracle
        // probe and a best move), never a value.
        write_with(&|b| {
            let from = Header::read(&b[..]).unwrap().data_offset() as usize;
            assert!(from > 60 && from < b.len());
            for x in &mut b[from..] {
                *x ^= 0x5a;
            }
        });
        let mut disk = Tablebase::new();
        assert_eq!(disk.add_directory(&dir).unwrap(), 1);
        let e = load_error(disk.probe(&kkr).unwrap_err());
        assert!(matches!(e, LoadError::Corrupted(_)), "{e}");
        assert!(disk.best_move(&kkr).is_err());
        assert_eq!(Oracle::probe(&disk, &kkr), None);
        let kept = disk.take_error().expect("the oracle's error is kept");
        assert!(matches!(load_error(kept), LoadError::Corrupted(_)));
        assert!(disk.take_error().is_none());
        // Cut short in its data: a raw file's length is checked when
        // added, a compressed file's when first probed.
        write_with(&|b| b.truncate(b.len() - 5));
        let mut disk = Tablebase::new();
        let e = if compressed {
            disk.add_directory(&dir).unwrap();
            disk.probe(&kkr).unwrap_err()
        } else {
            disk.add_directory(&dir).unwrap_err()
        };
        assert!(matches!(load_error(e), LoadError::Truncated { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn probes_from_several_threads_read_a_file_once() {
    let mut tables = Tablebase::new();
    tables
        .build(&[sig("KQvKR")], &BuildOptions::default())
        .unwrap();
    let dir = fresh_dir("threads");
    write(&tables, &dir, |s| s.to_string() == "KQvK");
    let mut disk = Tablebase::new();
    disk.add_directory(&dir).unwrap();
    let all = positions(&tables);
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (disk, tables, all) = (&disk, &tables, &all);
            scope.spawn(move || {
                for p in all.iter().skip(t).step_by(3) {
                    assert_eq!(disk.probe(p).unwrap(), tables.probe(p).unwrap(), "{p}");
                }
            });
        }
    });
    // KQvKR, KRvK read once each; KQvK opened once, then decoded whole.
    assert_eq!(disk.held(&sig("KQvK")), Some(Held::Whole));
    assert_eq!(disk.reads(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}
