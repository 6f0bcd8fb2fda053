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
