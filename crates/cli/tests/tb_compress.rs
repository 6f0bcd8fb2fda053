//! `tb compress` writes each chess table of a directory compressed
//! (`ENDING.gtbz`), and every command that reads a directory of tables
//! answers from the compressed files exactly as from the raw ones: `tb
//! probe` (a block at a time), `tb stats`, `solve --tables`, and `tb
//! build`, which reads them instead of building. A compressed file that
//! changed is refused with an error.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

/// Runs `args` (with the table trace on); standard output and error.
fn run(args: &[&str]) -> (String, String) {
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

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The file names in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Positions in KQvKR (both sides to move), its captures, KPvK and its
/// promotions.
const FENS: [&str; 6] = [
    "8/8/3k4/8/2r5/8/1Q6/K7 w - - 0 1",
    "8/8/3k4/8/2r5/8/1Q6/K7 b - - 0 1",
    "k7/1q6/8/2R5/8/3K4/8/8 w - - 0 1",
    "8/8/8/3k4/8/8/4P3/4K3 w - - 0 1",
    "8/4P3/8/8/8/k7/8/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/KQ6 b - - 0 1",
];

/// What the commands answer from the tables of `d`.
fn answers(d: &str) -> Vec<String> {
    let mut out = Vec::new();
    for fen in FENS {
        let (probe, _) = run(&["tb", "probe", fen, "--dir", d, "--json", "--all-moves"]);
        out.push(probe);
    }
    for ending in ["KQvKR", "KRvKQ", "KPvK"] {
        out.push(run(&["tb", "stats", ending, "--dir", d, "--json"]).0);
    }
    let (solve, _) = run(&["solve", "chess", FENS[0], "--tables", d, "--json"]);
    // All but the time taken.
    let (solve, _) = solve.split_once(", \"time_ms\"").expect("a time");
    out.push(solve.to_owned());
    out
}

#[test]
fn compressed_tables_answer_as_the_raw_ones() {
    let dir = fresh_dir("tb-compress");
    let d = dir.to_str().unwrap();
    for ending in ["KQvKR", "KPvK"] {
        gametree()
            .args(["tb", "build", ending, "--out", d])
            .assert()
            .success();
    }
    let raw_files = files(&dir);
    assert!(
        raw_files.iter().all(|f| f.ends_with(".gtb")),
        "{raw_files:?}"
    );
    let raw = answers(d);
    // `tb stats KRvKQ` wrote KRvKQ's own table.
    let raw_files = files(&dir);

    let (out, _) = run(&["tb", "compress", "--dir", d, "--json"]);
    let n = raw_files.len();
    assert!(out.contains("\"skipped\":0"), "{out}");
    assert_eq!(out.matches("\"ending\":").count(), n, "{out}");
    let mut expected: Vec<String> = raw_files.clone();
    expected.extend(raw_files.iter().map(|f| format!("{f}z")));
    expected.sort();
    assert_eq!(files(&dir), expected);
    // Run again: nothing to do.
    let (out, err) = run(&["tb", "compress", "--dir", d]);
    assert!(out.starts_with("0 table(s) compressed"), "{out}");
    assert_eq!(err.matches("not rewritten").count(), n, "{err}");

    // Both files there: `tb probe` opens the compressed ones.
    let (_, err) = run(&["tb", "probe", FENS[0], "--dir", d]);
    assert!(err.contains("tables: opened KQvKR.gtbz"), "{err}");
    assert!(!err.contains("tables: read"), "{err}");

    // The raw files removed once checked: the same answers.
    let (out, err) = run(&["tb", "compress", "--dir", d, "--remove-raw"]);
    assert!(out.starts_with("0 table(s) compressed"), "{out}{err}");
    for f in &raw_files {
        std::fs::remove_file(dir.join(f)).unwrap();
    }
    assert!(files(&dir).iter().all(|f| f.ends_with(".gtbz")));
    assert_eq!(answers(d), raw);
    // A build finds every file it needs: nothing built, no raw file.
    let (_, err) = run(&["tb", "build", "KQvKR", "--out", d]);
    assert!(!err.contains("built "), "{err}");
    assert!(files(&dir).iter().all(|f| f.ends_with(".gtbz")));

    // A block changed after writing: an error, never another value.
    let path = dir.join("KQvKR.gtbz");
    let mut bytes = std::fs::read(&path).unwrap();
    let half = bytes.len() / 2;
    for b in &mut bytes[half..] {
        *b ^= 0x33;
    }
    std::fs::write(&path, &bytes).unwrap();
    let mut refused = 0;
    for fen in &FENS[..3] {
        let out = gametree()
            .args(["tb", "probe", fen, "--dir", d, "--all-moves"])
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{err}");
        if !out.status.success() {
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains("KQvKR.gtbz"), "{err}");
            refused += 1;
        }
    }
    assert!(refused > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn remove_raw_keeps_only_checked_compressed_files() {
    let dir = fresh_dir("tb-compress-remove");
    let d = dir.to_str().unwrap();
    gametree()
        .args(["tb", "build", "KRvK", "--out", d])
        .assert()
        .success();
    let (out, err) = run(&[
        "tb",
        "compress",
        "--dir",
        d,
        "--remove-raw",
        "--threads",
        "2",
    ]);
    assert!(out.starts_with("1 table(s) compressed"), "{out}");
    assert!(err.contains("checked, raw file removed"), "{err}");
    assert_eq!(files(&dir), ["KRvK.gtbz"]);
    let (probe, _) = run(&["tb", "probe", "8/8/8/4k3/8/8/8/KR6 w - - 0 1", "--dir", d]);
    assert!(probe.contains("win"), "{probe}");
    // An empty directory: nothing to do, said on standard error.
    let empty = fresh_dir("tb-compress-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (out, err) = run(&["tb", "compress", "--dir", empty.to_str().unwrap()]);
    assert!(out.starts_with("0 table(s) compressed"), "{out}");
    assert!(err.contains("no chess table"), "{err}");
    // A directory that is not there: an error.
    gametree()
        .args([
            "tb",
            "compress",
            "--dir",
            dir.join("nope").to_str().unwrap(),
        ])
        .assert()
        .failure();
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn a_build_written_compressed_answers_as_a_raw_one() {
    let raw = fresh_dir("tb-build-raw");
    let packed = fresh_dir("tb-build-packed");
    let (r, p) = (raw.to_str().unwrap(), packed.to_str().unwrap());
    for ending in ["KQvKR", "KPvK"] {
        gametree()
            .args(["tb", "build", ending, "--out", r])
            .assert()
            .success();
        let (out, _) = run(&["tb", "build", ending, "--out", p, "--compress"]);
        assert!(out.trim().ends_with(".gtbz"), "{out}");
    }
    let names = files(&packed);
    assert!(names.iter().all(|f| f.ends_with(".gtbz")), "{names:?}");
    let raw_names: Vec<String> = files(&raw).iter().map(|f| format!("{f}z")).collect();
    assert_eq!(names, raw_names);
    // `tb stats KRvKQ` builds that ending's own table into each directory.
    assert_eq!(answers(p), answers(r));
    // Run again: every file read, none built.
    let (_, err) = run(&["tb", "build", "KQvKR", "--out", p, "--compress"]);
    assert!(!err.contains("built "), "{err}");
    // Tic-tac-toe and Connect Four tables are written raw only.
    gametree()
        .args(["tb", "build", "tictactoe", "--out", p, "--compress"])
        .assert()
        .failure()
        .code(2);
    std::fs::remove_dir_all(&raw).unwrap();
    std::fs::remove_dir_all(&packed).unwrap();
}
