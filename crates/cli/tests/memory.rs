//! A memory request the machine cannot grant is a clear error with exit
//! code 2, never an abort: every table goes through a fallible allocation.
//! (200 GiB: more than the machines this runs on have, within the table's
//! largest layout.) A build of tables states its memory bound before it
//! starts, and one over `--max-memory` is refused with nothing written.

use assert_cmd::Command;
use predicates::str::contains;

#[test]
fn tables_too_large_for_the_machine_are_refused() {
    for algo in ["alphabeta", "dfpn"] {
        Command::cargo_bin("gametree")
            .expect("the binary is built")
            .args([
                "solve",
                "connect4:4x4",
                "startpos",
                "--algo",
                algo,
                "--tt",
                "200G",
            ])
            .assert()
            .code(2)
            .stderr(contains("could not allocate"));
    }
    Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["analyse", "connect4", "", "--depth", "2", "--tt", "200G"])
        .assert()
        .code(2)
        .stderr(contains("could not allocate"));
}

#[test]
fn sizes_beyond_the_parser_say_the_maximum() {
    Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["solve", "tictactoe", "", "--tt", "2T"])
        .assert()
        .code(2)
        .stderr(contains("more than 1T"));
}

/// The bound `tb build MATERIAL` states (the bytes of its `memory bound:`
/// line), refused by `--max-memory 1M` before anything is built: nothing
/// is written, the directory is not even created.
fn stated_bound(material: &str, threads: &str) -> u64 {
    let dir = std::env::temp_dir().join(format!(
        "gametree-membound-{material}-{threads}-{}",
        std::process::id()
    ));
    let out = Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args([
            "tb",
            "build",
            material,
            "--threads",
            threads,
            "--max-memory",
            "1M",
            "--out",
        ])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(contains("more than --max-memory"))
        .get_output()
        .clone();
    assert!(!dir.exists(), "{} was written", dir.display());
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    let line = err
        .lines()
        .find(|l| l.starts_with("memory bound:"))
        .unwrap_or_else(|| panic!("no bound stated: {err}"));
    let bytes = line
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(" bytes)"))
        .and_then(|(n, _)| n.parse().ok());
    bytes.unwrap_or_else(|| panic!("no bytes in {line:?}"))
}

#[test]
fn every_five_man_ending_fits_in_a_stated_bound() {
    // Each build holds only the tables it probes, never every table its
    // ending leads to (35 GiB for KPPvKP, 49 GiB for chess:5): chess:5
    // states 7.6 GiB on one thread and 14.4 GiB on two, at least two
    // 5-man builds with pawns (1.7 GiB each) and their tables.
    const GIB: u64 = 1 << 30;
    let one = stated_bound("chess:5", "1");
    let two = stated_bound("chess:5", "2");
    assert!(one > 5 * GIB && one < 10 * GIB, "{one}");
    assert!(two > one && two < 20 * GIB, "{two}");
    let kppkp = stated_bound("KPPvKP", "2");
    assert!(kppkp > 2 * GIB && kppkp <= two, "{kppkp}");
    // A pawnless 5-man ending: its build and the 4-man tables it probes.
    let kqrkr = stated_bound("KQRvKR", "2");
    assert!(kqrkr > 500 << 20 && kqrkr < GIB, "{kqrkr}");
}
