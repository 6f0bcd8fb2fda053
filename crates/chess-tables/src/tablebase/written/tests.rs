use super::*;
use crate::{label, pawn_endings, pawnless_endings};
use gametree_retrograde::Table;

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

/// Every 5-man ending, as `gametree tb build chess:5` builds them.
fn chess5() -> Vec<Signature> {
    let mut all = pawnless_endings(5);
    all.extend(pawn_endings(5));
    all
}

#[test]
fn each_job_probes_its_direct_exits_built_before_it() {
    for threads in [1, 2, 3] {
        let s = Schedule::new(&Tablebase::new(), &[sig("KPPvKP"), sig("KQvKR")], threads);
        assert_eq!(
            s.plan,
            Tablebase::new().plan(&[sig("KPPvKP"), sig("KQvKR")])
        );
        for (j, ending) in s.plan.iter().enumerate() {
            // Exactly the plan's jobs of its captures and promotions.
            let mut want: Vec<usize> = successor_endings(ending)
                .iter()
                .map(|c| {
                    s.plan
                        .iter()
                        .position(|p| *p == *c || *p == flipped(c))
                        .unwrap_or_else(|| panic!("{c} (from {ending}) is planned"))
                })
                .collect();
            want.sort_unstable();
            want.dedup();
            assert_eq!(s.probes[j], want, "{ending}");
            assert!(
                want.iter().all(|&p| p < j),
                "{ending} comes after its exits"
            );
            // A job starts after its exits and after every job `threads`
            // or more places before it, and needs nothing later.
            let needs = &s.needs()[j];
            assert!(want.iter().all(|p| needs.contains(p)), "{ending}");
            assert!((0..(j + 1).saturating_sub(threads)).all(|p| needs.contains(&p)));
            assert!(needs.iter().all(|&p| p < j));
        }
    }
}

#[test]
fn held_tables_are_what_the_running_window_probes() {
    let s = Schedule::new(&Tablebase::new(), &[sig("KPPvKP")], 2);
    let n = s.plan.len();
    let last = s.plan.iter().position(|p| *p == sig("KPPvKP")).unwrap();
    assert_eq!(last, n - 1, "the ending asked for comes last");
    // KPPvKP's own build holds exactly its direct exits' tables, not the
    // endings those lead to (KQQvKP, met through KQPvKP).
    let alone: Vec<Signature> = s.held(n - 1).iter().map(|&j| s.plan[j].clone()).collect();
    let mut direct: Vec<Signature> = successor_endings(&sig("KPPvKP"))
        .iter()
        .map(|c| {
            s.plan
                .iter()
                .find(|p| **p == *c || **p == flipped(c))
                .unwrap()
                .clone()
        })
        .collect();
    direct.dedup();
    assert_eq!(alone.len(), direct.len());
    assert!(direct.iter().all(|d| alone.contains(d)));
    assert!(!alone.contains(&sig("KQQvKP")));
    assert!(s.plan.contains(&sig("KQQvKP")));
    // The window before: KPPvKP and the job before it.
    let pair = s.held(n - 2);
    assert!(s.probes[n - 2].iter().all(|p| pair.contains(p)));
    assert!(s.probes[n - 1].iter().all(|p| pair.contains(p)));
}

#[test]
fn bounds_fit_this_kind_of_machine() {
    const GIB: u64 = 1 << 30;
    for threads in [1, 2] {
        let tables = Tablebase::new();
        let all = chess5();
        let s = Schedule::new(&tables, &all, threads);
        let biggest = s
            .plan
            .iter()
            .map(|e| build_bytes(e, threads))
            .max()
            .unwrap();
        for endings in [vec![sig("KPPvKP")], vec![sig("KQPvKP")], all] {
            let bound = tables.memory_writing(&endings, threads);
            // Every table the plan leads to, kept (the old way): far more.
            let every: u64 = tables.plan(&endings).iter().map(space_size).sum();
            assert!(bound < 20 * GIB, "{endings:?} on {threads}: {bound}");
            assert!(bound < every, "{bound} < {every}");
            let own = build_bytes(&endings[0], threads);
            assert!(bound > own, "{bound} > {own}");
        }
        // chess:5 holds the biggest build at some point, and `threads` at
        // once: its bound is at least `threads` big builds.
        let bound = tables.memory_writing(&chess5(), threads);
        assert!(bound >= biggest, "{bound} >= {biggest}");
        assert!(bound > biggest * (threads as u64) / 2);
    }
}

#[test]
fn tables_held_count_in_the_bound() {
    // The tables here count in full; a plan of nothing costs nothing.
    let mut tables = Tablebase::new();
    assert_eq!(tables.memory_writing(&[], 2), 0);
    tables
        .build(&[sig("KRvK")], &BuildOptions::default())
        .unwrap();
    assert_eq!(tables.memory_writing(&[], 2), space_size(&sig("KRvK")));
    assert_eq!(
        tables.memory_writing(&[sig("KRvK")], 2),
        space_size(&sig("KRvK"))
    );
    // The bound is the peak over the window starts.
    let s = Schedule::new(&Tablebase::new(), &[sig("KQvKR")], 1);
    let last = s.plan.len() - 1;
    assert_eq!(s.window(last), last..last + 1);
    let peak = s.peak();
    assert_eq!(Tablebase::new().memory_writing(&[sig("KQvKR")], 1), peak);
    assert!((0..=last).all(|i| s.bytes_at(i) <= peak));
    assert_eq!(
        s.bytes_at(last),
        build_bytes(&sig("KQvKR"), 1)
            + s.held(last)
                .iter()
                .map(|&j| space_size(&s.plan[j]))
                .sum::<u64>()
    );
}

/// The most bytes of tables the schedule of `endings` holds at once.
fn stated_held(endings: &[Signature], threads: usize) -> u64 {
    let s = Schedule::new(&Tablebase::new(), endings, threads);
    (0..s.plan.len())
        .map(|i| {
            s.held(i)
                .iter()
                .map(|&j| space_size(&s.plan[j]))
                .sum::<u64>()
        })
        .max()
        .unwrap()
}

#[test]
fn tables_no_build_probes_are_dropped() {
    // One at a time: KQvKR probes KQvK and KRvK, then KRvKN probes KRvK
    // and KNvK; the three are never held together.
    let dir = std::env::temp_dir().join(format!("chess-tables-drop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let endings = [sig("KQvKR"), sig("KRvKN")];
    let options = BuildOptions {
        threads: 1,
        progress: None,
        ..BuildOptions::default()
    };
    let (plan, peak) = Tablebase::new()
        .build_into_counted(&endings, &dir, &options, &|_, _, _| {})
        .unwrap();
    assert_eq!(plan.len(), 5);
    let three = space_size(&sig("KQvK"));
    assert_eq!(stated_held(&endings, 1), 2 * three);
    assert_eq!(peak, 2 * three);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_into_a_directory_holds_what_it_states_and_resumes() {
    let dir = std::env::temp_dir().join(format!("chess-tables-into-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let endings = [sig("KQvKR"), sig("KPvK"), sig("KRvKN")];
    let options = BuildOptions {
        threads: 2,
        progress: None,
        ..BuildOptions::default()
    };
    let log = Mutex::new(Vec::new());
    let done = |s: &Signature, p: &Path, w: Written| {
        assert_eq!(p, table_file(&dir, s));
        log.lock().unwrap().push((s.clone(), w));
    };
    let tables = Tablebase::new();
    let (plan, peak) = tables
        .build_into_counted(&endings, &dir, &options, &done)
        .unwrap();
    assert_eq!(plan, tables.plan(&endings));
    let log = std::mem::take(&mut *log.lock().unwrap());
    assert_eq!(log.len(), plan.len());
    assert!(log.iter().all(|(_, w)| matches!(w, Written::Built(_))));
    // The tables held at once never exceed the schedule's figure.
    let stated = stated_held(&endings, 2);
    assert!(peak > 0 && peak <= stated, "{peak} <= {stated}");
    // The same bytes as tables built in memory.
    let mut whole = Tablebase::new();
    whole.build(&endings, &BuildOptions::default()).unwrap();
    for ending in &plan {
        let read = Table::read(table_file(&dir, ending), &label(ending)).unwrap();
        assert!(read == *whole.table(ending).unwrap(), "{ending}");
    }
    // Again: every file is read, nothing is built.
    let again = Mutex::new(Vec::new());
    let done = |s: &Signature, _: &Path, w: Written| again.lock().unwrap().push((s.clone(), w));
    tables.build_into(&endings, &dir, &options, &done).unwrap();
    let again = again.into_inner().unwrap();
    assert_eq!(again.len(), plan.len());
    assert!(again.iter().all(|(_, w)| *w == Written::Loaded));
    // A damaged file is refused, not rebuilt over.
    let path = table_file(&dir, &sig("KRvK"));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = tables
        .build_into(&endings, &dir, &options, &|_, _, _| {})
        .unwrap_err();
    assert!(matches!(err, Error::Load { .. }), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_exit_is_read_from_its_file_with_the_colours_exchanged() {
    // A directory where KRvK was written as KvKR (the colours exchanged):
    // it is read, not rebuilt.
    let dir = std::env::temp_dir().join(format!("chess-tables-flip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut small = Tablebase::new();
    small
        .build(&[sig("KvKR")], &BuildOptions::default())
        .unwrap();
    assert!(
        small
            .save(&sig("KvKR"), &table_file(&dir, &sig("KvKR")))
            .unwrap()
    );
    let log = Mutex::new(Vec::new());
    let done = |s: &Signature, p: &Path, w: Written| {
        log.lock()
            .unwrap()
            .push((s.to_string(), p.to_path_buf(), w));
    };
    Tablebase::new()
        .build_into(&[sig("KRvKN")], &dir, &BuildOptions::default(), &done)
        .unwrap();
    let log = log.into_inner().unwrap();
    let krk = log.iter().find(|(s, _, _)| s == "KRvK").unwrap();
    assert_eq!(krk.1, table_file(&dir, &sig("KvKR")));
    assert_eq!(krk.2, Written::Loaded);
    assert!(!table_file(&dir, &sig("KRvK")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_is_built_with_its_own_colours_even_beside_the_colours_exchanged() {
    // KQvKR and its exits are there; KRvKQ (the same ending, colours
    // exchanged) is built under its own name, its exits read, not rebuilt.
    let dir = std::env::temp_dir().join(format!("chess-tables-exact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = Tablebase::new();
    let options = BuildOptions {
        threads: 1,
        progress: None,
        ..BuildOptions::default()
    };
    let path = tables
        .build_file(&sig("KQvKR"), &dir, &options, &|_, _, _| {})
        .unwrap();
    assert_eq!(path, table_file(&dir, &sig("KQvKR")));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    let log = Mutex::new(Vec::new());
    let done = |s: &Signature, _: &Path, w: Written| log.lock().unwrap().push((s.to_string(), w));
    let path = tables
        .build_file(&sig("KRvKQ"), &dir, &options, &done)
        .unwrap();
    assert_eq!(path, table_file(&dir, &sig("KRvKQ")));
    let log = log.into_inner().unwrap();
    assert_eq!(log.len(), 3, "{log:?}");
    for (s, w) in &log {
        assert_eq!(matches!(w, Written::Built(_)), s == "KRvKQ", "{s}: {w:?}");
    }
    let mut whole = Tablebase::new();
    whole
        .build(&[sig("KRvKQ")], &BuildOptions::default())
        .unwrap();
    let read = Table::read(&path, &label(&sig("KRvKQ"))).unwrap();
    assert!(read == *whole.table(&sig("KRvKQ")).unwrap());
    // There now: nothing is built or read.
    let again = Mutex::new(0);
    tables
        .build_file(&sig("KRvKQ"), &dir, &options, &|_, _, _| {
            *again.lock().unwrap() += 1;
        })
        .unwrap();
    assert_eq!(*again.lock().unwrap(), 0);
    assert_eq!(
        find_table_file(&dir, &sig("KvKQ")),
        Some((sig("KQvK"), table_file(&dir, &sig("KQvK"))))
    );
    assert_eq!(find_table_file(&dir, &sig("KBvK")), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
