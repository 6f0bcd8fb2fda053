//! `Tablebase::build_into` on two threads: endings that do not depend on
//! each other are built at the same time, and the files written are the
//! bytes a one-thread build writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use gametree_chess_tables::{BuildOptions, Signature, Tablebase, Written, table_file};
use gametree_retrograde::Event;

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess-tables-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file of `dir` by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

#[test]
fn two_threads_write_the_bytes_of_one() {
    // Five 3-man endings, pawnless 4-man ones, and KNvKP, whose
    // promotions lead to KNvKQ ... KNvKN: builds run side by side on
    // one thread each, and alone on two (KNvKP, last).
    let endings = [sig("KQvKR"), sig("KRvKN"), sig("KBNvK"), sig("KNvKP")];
    let mut written = Vec::new();
    for threads in [1, 2] {
        let dir = scratch(&format!("threads{threads}"));
        let built = Mutex::new(Vec::new());
        let done = |s: &Signature, p: &Path, w: Written| {
            assert_eq!(p, table_file(p.parent().unwrap(), s));
            assert!(matches!(w, Written::Built(_)), "{s}: {w:?}");
            built.lock().unwrap().push(s.clone());
        };
        let options = BuildOptions {
            threads,
            progress: None,
            ..BuildOptions::default()
        };
        let plan = Tablebase::new()
            .build_into(&endings, &dir, &options, &done)
            .unwrap();
        assert_eq!(built.into_inner().unwrap().len(), plan.len());
        let got = files(&dir);
        assert_eq!(got.len(), plan.len(), "{:?}", got.keys());
        written.push(got);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(written[0].len() >= 12, "{:?}", written[0].keys());
    assert_eq!(
        written[0].keys().collect::<Vec<_>>(),
        written[1].keys().collect::<Vec<_>>()
    );
    for (name, one) in &written[0] {
        let two = &written[1][name];
        let first = one.iter().zip(two).position(|(a, b)| a != b);
        assert!(
            one.len() == two.len() && first.is_none(),
            "{name}: {} and {} bytes, first difference at {first:?}",
            one.len(),
            two.len()
        );
    }
}

#[test]
fn independent_endings_are_built_at_the_same_time() {
    // KQvKR needs KQvK and KRvK, KRvKN needs KRvK and KNvK: once the
    // 3-man tables are written the two are built at once, one thread
    // each. Each waits (up to a minute) at its start for the other: one
    // build after the other would not see it.
    let dir = scratch("together");
    let pair = [sig("KQvKR"), sig("KRvKN")];
    let started = Mutex::new(Vec::new());
    let both = Condvar::new();
    let saw = Mutex::new(Vec::new());
    let progress = |s: &Signature, e: &Event<'_, _>| {
        if !matches!(e, Event::Start { .. }) || !pair.contains(s) {
            return;
        }
        let mut names = started.lock().unwrap();
        names.push(s.clone());
        both.notify_all();
        let (names, _) = both
            .wait_timeout_while(names, Duration::from_secs(60), |n| n.len() < 2)
            .unwrap();
        saw.lock().unwrap().push((s.to_string(), names.len()));
    };
    let options = BuildOptions {
        threads: 2,
        progress: Some(&progress),
        ..BuildOptions::default()
    };
    Tablebase::new()
        .build_into(&pair, &dir, &options, &|_, _, _| {})
        .unwrap();
    let mut saw = saw.into_inner().unwrap();
    saw.sort();
    assert_eq!(
        saw,
        [("KQvKR".to_string(), 2), ("KRvKN".to_string(), 2)],
        "each build saw the other start"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
