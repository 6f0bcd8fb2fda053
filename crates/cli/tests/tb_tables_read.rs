//! `tb stats` and `tb probe` read from the directory only the tables they
//! need (issue #33): the statistics of an ending read its own table
//! alone; a probe holds the table of the position on its line and those
//! of its direct exits, dropping each ending the line leaves. The
//! expected outputs were printed by the commands before this change,
//! which read (or built) every table the ending leads to.
//!
//! The environment variable `GAMETREE_TB_TRACE` makes the commands say on
//! standard error each table they read and drop, with the endings then
//! in memory.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use gametree_chess_tables::{Signature, successor_endings};

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

/// Runs `args` with the trace on: standard output and error.
fn traced(args: &[&str]) -> (String, String) {
    let out = gametree()
        .env("GAMETREE_TB_TRACE", "1")
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// The endings in memory after each read or drop the trace reports.
fn in_memory(trace: &str) -> Vec<Vec<String>> {
    trace
        .lines()
        .filter(|l| l.starts_with("tables: "))
        .map(|l| {
            let (_, names) = l.split_once("; in memory: ").expect("a trace line");
            names
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .collect()
}

/// The endings read, in order.
fn reads(trace: &str) -> Vec<String> {
    trace
        .lines()
        .filter_map(|l| l.strip_prefix("tables: read "))
        .map(|l| l.split(';').next().unwrap().to_owned())
        .collect()
}

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

/// Is every ending of `held` but one a direct exit (capture, promotion;
/// colours exchanged or not) of that one?
fn an_ending_and_its_exits(held: &[String]) -> bool {
    held.iter().any(|top| {
        let exits = successor_endings(&sig(top));
        held.iter()
            .all(|s| s == top || exits.iter().any(|e| *e == sig(s) || e.flipped() == sig(s)))
    })
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const KQVKR_STATS: &str = r#"{"material": "KQvKR", "counted": "wtm/btm: Syzygy convention (positions up to the 8 symmetries, like pieces told apart); raw_wtm/raw_btm: index entries (like pieces not told apart)", "wtm": {"win": 1108111, "draw": 8963, "loss": 2142}, "btm": {"win": 386313, "draw": 78518, "loss": 883075}, "raw_wtm": {"win": 1108111, "draw": 8963, "loss": 2142}, "raw_btm": {"win": 386313, "draw": 78518, "loss": 883075}, "longest_win_plies": 69, "longest_win_fen": "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"}"#;
const KRVKQ_STATS: &str = r#"{"material": "KRvKQ", "counted": "wtm/btm: Syzygy convention (positions up to the 8 symmetries, like pieces told apart); raw_wtm/raw_btm: index entries (like pieces not told apart)", "wtm": {"win": 386313, "draw": 78518, "loss": 883075}, "btm": {"win": 1108111, "draw": 8963, "loss": 2142}, "raw_wtm": {"win": 386313, "draw": 78518, "loss": 883075}, "raw_btm": {"win": 1108111, "draw": 8963, "loss": 2142}, "longest_win_plies": 69, "longest_win_fen": "8/8/8/8/2R5/8/2K5/k6q b - - 0 1"}"#;
const KPVKP_STATS: &str = r#"{"material": "KPvKP", "counted": "wtm/btm: Syzygy convention (positions without an en-passant capture, up to the reflection between the d- and e-files, like pieces told apart); raw_wtm/raw_btm: index entries (like pieces not told apart)", "wtm": {"win": 1606514, "draw": 1242545, "loss": 868985}, "btm": {"win": 1606514, "draw": 1242545, "loss": 868985}, "raw_wtm": {"win": 1606514, "draw": 1242545, "loss": 868985}, "raw_btm": {"win": 1606514, "draw": 1242545, "loss": 868985}, "longest_win_plies": 65, "longest_win_fen": "3K4/8/4p3/8/8/8/2P5/2k5 w - - 0 1"}"#;

/// Positions and `tb probe --json --all-moves` of each, before the change.
const PROBES: [(&str, &str); 5] = [
    (
        "8/8/8/4k3/8/8/1r6/KQ6 w - - 0 1",
        r#"{"value": "win", "distance": 17, "best": "a1b2", "pv": ["a1b2", "e5f4", "b2c3", "f4e5", "b1g6", "e5f4", "c3d4", "f4f3", "g6e4", "f3f2", "e4g4", "f2e1", "d4e3", "e1f1", "g4g5", "f1e1", "g5g1"], "moves": [{"move": "a1b2", "value": "win", "distance": 17}, {"move": "b1e1", "value": "win", "distance": 21}, {"move": "b1b2", "value": "win", "distance": 21}, {"move": "b1c1", "value": "win", "distance": 65}, {"move": "b1g1", "value": "win", "distance": 65}, {"move": "b1d3", "value": "win", "distance": 67}, {"move": "b1g6", "value": "win", "distance": 67}, {"move": "b1h7", "value": "win", "distance": 67}, {"move": "b1d1", "value": "win", "distance": 67}, {"move": "b1f1", "value": "win", "distance": 67}, {"move": "b1h1", "value": "win", "distance": 69}, {"move": "b1a2", "value": "draw", "distance": null}, {"move": "b1e4", "value": "draw", "distance": null}, {"move": "b1f5", "value": "draw", "distance": null}, {"move": "b1c2", "value": "loss", "distance": 16}]}"#,
    ),
    (
        "8/8/8/4k3/8/8/1r6/KQ6 b - - 0 1",
        r#"{"value": "draw", "distance": null, "best": "b2b1", "pv": ["b2b1", "a1b1"], "moves": [{"move": "b2b1", "value": "draw", "distance": null}, {"move": "b2g2", "value": "loss", "distance": 66}, {"move": "b2d2", "value": "loss", "distance": 22}, {"move": "b2e2", "value": "loss", "distance": 22}, {"move": "b2f2", "value": "loss", "distance": 22}, {"move": "b2h2", "value": "loss", "distance": 22}, {"move": "b2a2", "value": "loss", "distance": 20}, {"move": "b2c2", "value": "loss", "distance": 20}, {"move": "b2b3", "value": "loss", "distance": 20}, {"move": "b2b4", "value": "loss", "distance": 20}, {"move": "b2b5", "value": "loss", "distance": 20}, {"move": "b2b7", "value": "loss", "distance": 20}, {"move": "b2b8", "value": "loss", "distance": 20}, {"move": "e5d4", "value": "loss", "distance": 18}, {"move": "e5f4", "value": "loss", "distance": 18}, {"move": "e5d5", "value": "loss", "distance": 18}, {"move": "e5d6", "value": "loss", "distance": 18}, {"move": "e5e6", "value": "loss", "distance": 18}, {"move": "e5f6", "value": "loss", "distance": 18}, {"move": "b2b6", "value": "loss", "distance": 18}]}"#,
    ),
    (
        "8/8/4k3/8/3p4/8/2P5/4K3 w - - 0 1",
        r#"{"value": "draw", "distance": null, "best": "e1d1", "pv": ["e1d1", "e6d5", "d1c1", "d5c4", "c1b1", "c4c3", "b1c1", "c3b4", "c1b1", "b4a3", "b1a1", "a3a4", "a1b1", "a4a3", "b1a1", "a3a4", "a1b1", "a4a3"], "moves": [{"move": "e1d1", "value": "draw", "distance": null}, {"move": "e1f1", "value": "draw", "distance": null}, {"move": "e1d2", "value": "draw", "distance": null}, {"move": "e1e2", "value": "draw", "distance": null}, {"move": "e1f2", "value": "draw", "distance": null}, {"move": "c2c3", "value": "draw", "distance": null}, {"move": "c2c4", "value": "draw", "distance": null}]}"#,
    ),
    (
        "8/8/4k3/8/3p4/8/2P5/4K3 b - - 0 1",
        r#"{"value": "draw", "distance": null, "best": "e6d5", "pv": ["e6d5", "e1d1", "d5c4", "d1c1", "c4c3", "c1b1", "c3d2", "b1b2", "d2d1", "b2b1", "d1e1", "b1a1", "e1d1", "a1b1", "d1e1", "b1a1", "e1d1", "a1b1"], "moves": [{"move": "e6d5", "value": "draw", "distance": null}, {"move": "e6e5", "value": "draw", "distance": null}, {"move": "e6f5", "value": "draw", "distance": null}, {"move": "e6d6", "value": "draw", "distance": null}, {"move": "e6f6", "value": "draw", "distance": null}, {"move": "e6d7", "value": "draw", "distance": null}, {"move": "e6e7", "value": "draw", "distance": null}, {"move": "e6f7", "value": "draw", "distance": null}, {"move": "d4d3", "value": "draw", "distance": null}]}"#,
    ),
    (
        "8/2P5/8/8/8/2k5/6p1/K7 w - - 0 1",
        r#"{"value": "win", "distance": 23, "best": "c7c8q", "pv": ["c7c8q", "c3d2", "c8g4", "d2e3", "g4g2", "e3f4", "a1b2", "f4e5", "b2c3", "e5f4", "c3d4", "f4f5", "g2c6", "f5f4", "c6e4", "f4g3", "d4e3", "g3h2", "e3f2", "h2h3", "e4a4", "h3h2", "a4h4"], "moves": [{"move": "c7c8q", "value": "win", "distance": 23}, {"move": "c7c8r", "value": "win", "distance": 37}, {"move": "a1a2", "value": "draw", "distance": null}, {"move": "a1b1", "value": "loss", "distance": 6}, {"move": "c7c8b", "value": "loss", "distance": 6}, {"move": "c7c8n", "value": "loss", "distance": 4}]}"#,
    ),
];

#[test]
fn stats_read_the_one_table_of_the_ending() {
    let dir = fresh_dir("tb-one-table");
    let d = dir.to_str().unwrap();
    gametree()
        .args(["tb", "build", "KQvKR", "--out", d])
        .assert()
        .success();
    assert_eq!(files(&dir), ["KQvK.gtb", "KQvKR.gtb", "KRvK.gtb"]);
    // Without the tables it leads to: the statistics come from KQvKR's
    // file alone, and nothing is built.
    std::fs::remove_file(dir.join("KQvK.gtb")).unwrap();
    std::fs::remove_file(dir.join("KRvK.gtb")).unwrap();
    let (out, err) = traced(&["tb", "stats", "KQvKR", "--dir", d, "--json"]);
    assert_eq!(out.trim(), KQVKR_STATS);
    assert_eq!(reads(&err), ["KQvKR"], "{err}");
    assert_eq!(files(&dir), ["KQvKR.gtb"]);
    // KRvKQ, the colours exchanged, is built under its own name (as
    // before), its exits built as `tb build` builds them, then read alone.
    let (out, err) = traced(&["tb", "stats", "KRvKQ", "--dir", d, "--json"]);
    assert_eq!(out.trim(), KRVKQ_STATS);
    assert_eq!(reads(&err), ["KRvKQ"], "{err}");
    assert!(err.contains("memory bound: "), "{err}");
    assert_eq!(
        files(&dir),
        ["KQvK.gtb", "KQvKR.gtb", "KRvK.gtb", "KRvKQ.gtb"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probes_hold_an_ending_and_its_direct_exits_only() {
    let dir = fresh_dir("tb-probe-exits");
    let d = dir.to_str().unwrap();
    for ending in ["KQvKR", "KPvKP"] {
        gametree()
            .args(["tb", "build", ending, "--out", d, "--threads", "2"])
            .assert()
            .success();
    }
    let all = files(&dir).len();
    assert!(all > 15, "{all} files");
    for (fen, expected) in PROBES {
        let (out, err) = traced(&["tb", "probe", fen, "--dir", d, "--json", "--all-moves"]);
        assert_eq!(out.trim(), expected, "{fen}");
        let held = in_memory(&err);
        assert!(!held.is_empty(), "{fen}: no table read: {err}");
        for h in &held {
            assert!(
                an_ending_and_its_exits(h),
                "{fen}: {h:?} held at once\n{err}"
            );
        }
    }
    // A line from KPvKP through a promotion to KQvKP, then to KQvK: each
    // ending is dropped once the line has left it, and fewer tables than
    // the line meets are ever held at once.
    let (fen, _) = PROBES[4];
    let (_, err) = traced(&["tb", "probe", fen, "--dir", d]);
    let dropped: Vec<Signature> = err
        .lines()
        .filter_map(|l| l.strip_prefix("tables: dropped "))
        .flat_map(|l| l.split(';').next().unwrap().split(' '))
        .map(sig)
        .collect();
    for ending in [sig("KPvKP"), sig("KQvKP")] {
        assert!(
            dropped.contains(&ending) || dropped.contains(&ending.flipped()),
            "{ending}\n{err}"
        );
    }
    let most = in_memory(&err).iter().map(Vec::len).max().unwrap();
    assert!(most < reads(&err).len(), "{most}\n{err}");
    // The statistics of KPvKP from its file alone, every other file gone.
    for name in files(&dir) {
        if name != "KPvKP.gtb" {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
    let (out, err) = traced(&["tb", "stats", "KPvKP", "--dir", d, "--json"]);
    assert_eq!(out.trim(), KPVKP_STATS);
    assert_eq!(reads(&err), ["KPvKP"], "{err}");
    assert_eq!(files(&dir), ["KPvKP.gtb"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_with_tables_reads_the_tables_its_probes_need() {
    let dir = fresh_dir("tb-solve-lazy");
    let d = dir.to_str().unwrap();
    for ending in ["KQvKR", "KRvKN", "KPvK"] {
        gametree()
            .args(["tb", "build", ending, "--out", d, "--threads", "2"])
            .assert()
            .success();
    }
    assert_eq!(files(&dir).len(), 7);
    // KRvK below the root: its own table only (the rook taken, two bare
    // kings are a draw without one).
    let (out, err) = traced(&[
        "solve",
        "chess",
        "8/8/8/4k3/8/8/8/R6K w - - 0 1",
        "--tables",
        d,
    ]);
    assert!(out.contains("value: win"), "{out}");
    assert!(err.contains("each read when first probed"), "{err}");
    assert_eq!(reads(&err), ["KRvK"], "{err}");
    // KRvKN: its table and those of the captures the search meets.
    let (_, err) = traced(&[
        "solve",
        "chess",
        "8/8/8/4k3/8/2n5/8/KR6 w - - 0 1",
        "--tables",
        d,
    ]);
    let read = reads(&err);
    assert!(read.contains(&"KRvKN".to_owned()), "{err}");
    for ending in &read {
        assert!(
            ["KRvKN", "KRvK", "KNvK"].contains(&ending.as_str()),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
