//! A memory request the machine cannot grant is a clear error with exit
//! code 2, never an abort: every table goes through a fallible allocation.
//! (200 GiB: more than the machines this runs on have, within the table's
//! largest layout.)

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

/// The machine's physical memory in bytes, where the system tells it.
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_build_over_the_machines_memory_is_refused_before_it_starts() {
    // `chess:5` states a bound of about 50 GiB on two threads: any machine
    // of less than 40 GiB must refuse it without --max-memory. (On a larger
    // machine the build would start: nothing to check there.)
    let Some(total) = physical_memory() else {
        eprintln!("no /proc/meminfo: the default budget does not apply");
        return;
    };
    if total >= 40 << 30 {
        eprintln!("{total} bytes of memory: chess:5 fits, not run");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gametree-membound-{}", std::process::id()));
    Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["tb", "build", "chess:5", "--threads", "2", "--out"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(contains("memory bound:"))
        .stderr(contains("more than this machine has"));
    // Nothing built: the directory was not even created.
    assert!(!dir.exists(), "{} was written", dir.display());
}
