//! The compressed format of `gametree_retrograde::compressed` on chess
//! tables: KQvKR (and its sub-endings KQvK and KRvK) written compressed,
//! probed block by block, equal to the raw table on every index; and the
//! `ENDING.gtbz` files of `Tablebase::save_compressed`, probed by position
//! through a `Tablebase` (a block at a time), read whole, and read by a
//! build to resume.

use std::path::Path;

use gametree_chess_tables::{
    BuildOptions, Error, Held, Signature, Tablebase, Written, compressed_table_file,
    find_table_file, is_compressed, label, table_file,
};
use gametree_game::Game;
use gametree_games_chess::Position;
use gametree_retrograde::compressed::{self, CompressedTable};
use gametree_retrograde::{Label, LoadError};
use rand_core::Rng;
use rand_pcg::Pcg64;

#[test]
fn compressed_kqvkr_equals_the_raw_table_on_every_index() {
    let mut tables = Tablebase::new();
    let kqvkr: Signature = "KQvKR".parse().unwrap();
    tables.build(&[kqvkr], &BuildOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("chess-compressed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ending in ["KQvK", "KRvK", "KQvKR"] {
        let signature: Signature = ending.parse().unwrap();
        let (_, table) = tables.get(&signature).unwrap();
        assert_eq!(table.label(), &label(&signature));
        let path = dir.join(format!("{ending}.rtbz"));
        compressed::write(table, &path).unwrap();
        let probe = CompressedTable::open(&path, &label(&signature)).unwrap();
        for i in 0..table.len() {
            assert_eq!(probe.get(i).unwrap(), table.get(i), "{ending} index {i}");
        }
        assert_eq!(&probe.to_table().unwrap(), table);
        let raw = table.codes().len() as u64;
        eprintln!(
            "{ending}: {raw} bytes raw, {} compressed ({:.2}x), {} blocks decoded",
            probe.file_len(),
            raw as f64 / probe.file_len() as f64,
            probe.blocks_decoded()
        );
        // Under half the raw size for every one of them.
        assert!(probe.file_len() * 2 < raw, "{ending}");
        // Another ending's label is refused.
        let other = Label::new("chess", "KRvKQ", label(&signature).scheme);
        assert!(matches!(
            CompressedTable::open(&path, &other),
            Err(LoadError::WrongMaterial { .. })
        ));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions of random games from `fens`: captures and promotions lead
/// into the sub-endings, and each ending is met with both colours.
fn random_walks(fens: &[&str], plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Pcg64::new(u128::from(seed), 7);
    let mut out = Vec::new();
    for fen in fens {
        for _ in 0..40 {
            let mut p: Position = fen.parse().unwrap();
            for _ in 0..plies {
                out.push(p.clone());
                let mut moves = <Position as Game>::Moves::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                p.make(m);
            }
        }
    }
    out
}

/// Every table of `tables` written compressed into `dir`.
fn write_all(tables: &Tablebase, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for (s, _) in tables.tables() {
        let path = compressed_table_file(dir, s);
        assert!(tables.save_compressed(s, &path).unwrap());
        assert!(is_compressed(&path));
    }
}

#[test]
fn compressed_files_probe_and_load_as_the_tables_written() {
    let mut tables = Tablebase::new();
    let endings: Vec<Signature> = ["KQvKR", "KPvK"].map(|s| s.parse().unwrap()).into();
    tables.build(&endings, &BuildOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("chess-gtbz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_all(&tables, &dir);

    let mut disk = Tablebase::new();
    for (s, _) in tables.tables() {
        disk.add_file(s, compressed_table_file(&dir, s)).unwrap();
        assert!(disk.covers(s) && disk.covers(&s.flipped()));
    }
    assert_eq!(disk.len(), tables.len());
    // The same, added by directory.
    let mut by_dir = Tablebase::new();
    assert_eq!(by_dir.add_directory(&dir).unwrap(), tables.len());
    // Random games in KQvKR (captures into KQvK and KvKR) and KPvK
    // (promotions into KQvK, KRvK, ...), White's or Black's material.
    let positions = random_walks(
        &[
            "8/8/3k4/8/2r5/8/1Q6/K7 w - - 0 1",
            "k7/1q6/8/2R5/8/3K4/8/8 b - - 0 1",
            "8/8/8/3k4/8/8/4P3/4K3 w - - 0 1",
            "4k3/4p3/8/8/8/8/8/3K4 b - - 0 1",
        ],
        60,
        11,
    );
    let mut seen = std::collections::BTreeSet::new();
    for p in &positions {
        let expected = tables.probe(p).unwrap();
        assert!(expected.is_some(), "{p}");
        assert_eq!(disk.probe(p).unwrap(), expected, "{p}");
        assert_eq!(by_dir.probe(p).unwrap(), expected, "{p}");
        seen.insert(Signature::of(p).unwrap().to_string());
    }
    for p in positions.iter().step_by(37) {
        assert_eq!(
            disk.best_move(p).unwrap(),
            tables.best_move(p).unwrap(),
            "{p}"
        );
    }
    // Opened when first probed; KQvK probed more than once per 1,024 of
    // its positions (40 probes): decoded whole.
    assert!(disk.held(&"KQvKR".parse().unwrap()).is_some());
    assert_eq!(disk.held(&"KQvK".parse().unwrap()), Some(Held::Whole));
    // The walks met the sub-endings with both colours.
    for ending in ["KQvKR", "KRvKQ", "KQvK", "KvKQ", "KPvK", "KvKP", "KvK"] {
        assert!(seen.contains(ending), "{ending}: {seen:?}");
    }
    // An ending without a file: unknown.
    let kbbk: Position = "8/8/8/4k3/8/8/8/KBB5 w - - 0 1".parse().unwrap();
    assert_eq!(disk.probe(&kbbk).unwrap(), None);
    // Removed, a file's ending has no table to give back.
    assert!(disk.remove(&"KPvK".parse().unwrap()).is_none());
    assert!(!disk.covers(&"KPvK".parse().unwrap()));
    let kpk: Position = "8/8/8/3k4/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(disk.probe(&kpk).unwrap(), None);

    // Read back whole, each file equals the table written.
    for (s, table) in tables.tables() {
        let mut one = Tablebase::new();
        one.load(s, &compressed_table_file(&dir, s)).unwrap();
        assert_eq!(one.table(s).unwrap(), table, "{s}");
    }
    // Another ending's file is refused, by both.
    let kqvkr: Signature = "KQvKR".parse().unwrap();
    let krvkq = kqvkr.flipped();
    let wrong = compressed_table_file(&dir, &kqvkr);
    assert!(matches!(
        disk.add_file(&krvkq, &wrong),
        Err(Error::Load {
            source: LoadError::WrongMaterial { .. },
            ..
        })
    ));
    assert!(matches!(
        Tablebase::new().load(&krvkq, &wrong),
        Err(Error::Load { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_into_a_directory_of_compressed_files_reads_them() {
    let mut tables = Tablebase::new();
    let kqvkr: Signature = "KQvKR".parse().unwrap();
    tables
        .build(std::slice::from_ref(&kqvkr), &BuildOptions::default())
        .unwrap();
    let dir = std::env::temp_dir().join(format!("chess-gtbz-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_all(&tables, &dir);
    let done = std::sync::Mutex::new(Vec::new());
    let plan = Tablebase::new()
        .build_into(
            std::slice::from_ref(&kqvkr),
            &dir,
            &BuildOptions::default(),
            &|s, path, w| {
                assert!(is_compressed(path), "{}", path.display());
                done.lock().unwrap().push((s.to_string(), w));
            },
        )
        .unwrap();
    let done = done.into_inner().unwrap();
    assert_eq!(done.len(), plan.len());
    assert!(done.iter().all(|(_, w)| *w == Written::Loaded), "{done:?}");
    // No raw file was written: nothing was built.
    assert!(!table_file(&dir, &kqvkr).exists());
    assert_eq!(
        find_table_file(&dir, &kqvkr.flipped()),
        Some((kqvkr.clone(), compressed_table_file(&dir, &kqvkr)))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupted_block_is_an_error_never_a_wrong_value() {
    let mut tables = Tablebase::new();
    let kqvkr: Signature = "KQvKR".parse().unwrap();
    tables
        .build(std::slice::from_ref(&kqvkr), &BuildOptions::default())
        .unwrap();
    let dir = std::env::temp_dir().join(format!("chess-gtbz-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_all(&tables, &dir);
    let path = compressed_table_file(&dir, &kqvkr);
    let mut disk = Tablebase::new();
    disk.add_file(&kqvkr, &path).unwrap();
    // The second half of the file is block data (header, priors and
    // block index come first): changed after the file was opened.
    let mut bytes = std::fs::read(&path).unwrap();
    let half = bytes.len() / 2;
    for b in &mut bytes[half..] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let positions = random_walks(&["8/8/3k4/8/2r5/8/1Q6/K7 w - - 0 1"], 10, 5);
    let mut errors = 0;
    for p in positions
        .iter()
        .filter(|p| Signature::of(p) == Some(kqvkr.clone()))
    {
        match disk.probe(p) {
            Ok(v) => assert_eq!(v, tables.probe(p).unwrap(), "{p}"),
            Err(Error::Load { ending, .. }) => {
                assert_eq!(ending, kqvkr);
                errors += 1;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(errors > 0);
    // Read whole, the file is refused.
    assert!(Tablebase::new().load(&kqvkr, &path).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_written_compressed_equals_the_build_in_memory_and_resumes() {
    let endings: Vec<Signature> = ["KQvKR", "KPvK"].map(|s| s.parse().unwrap()).into();
    let mut memory = Tablebase::new();
    memory.build(&endings, &BuildOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("chess-gtbz-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = BuildOptions {
        threads: 2,
        progress: None,
        ..BuildOptions::default()
    };
    let reports = std::sync::Mutex::new(Vec::new());
    let record = |s: &Signature, path: &Path, w: Written| {
        assert!(is_compressed(path), "{}", path.display());
        reports.lock().unwrap().push((s.to_string(), w));
    };
    let plan = Tablebase::new()
        .build_into_compressed(&endings, &dir, &options, &record)
        .unwrap();
    assert_eq!(plan.len(), memory.len());
    // Every table written compressed, none raw, each equal to its build.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.iter().all(|n| n.ends_with(".gtbz")), "{names:?}");
    assert_eq!(names.len(), plan.len());
    for (s, table) in memory.tables() {
        let mut one = Tablebase::new();
        one.load(s, &compressed_table_file(&dir, s)).unwrap();
        assert_eq!(one.table(s).unwrap(), table, "{s}");
    }
    let built = std::mem::take(&mut *reports.lock().unwrap());
    assert!(
        built.iter().all(|(_, w)| matches!(w, Written::Built(_))),
        "{built:?}"
    );
    // Run again: every file read, nothing built.
    Tablebase::new()
        .build_into_compressed(&endings, &dir, &options, &record)
        .unwrap();
    let again = std::mem::take(&mut *reports.lock().unwrap());
    assert_eq!(again.len(), plan.len());
    assert!(
        again.iter().all(|(_, w)| *w == Written::Loaded),
        "{again:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
