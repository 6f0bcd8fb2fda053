//! `gametree solve … --proof`: the value comes with a proof tree that the
//! independent verifier accepts; for a draw, each side's; for a win, one
//! that rests on the rules alone.

use assert_cmd::Command;
use serde_json::Value;

fn solve(game: &str, position: &str, extra: &[&str]) -> Value {
    let out = Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["solve", game, position, "--json", "--proof"])
        .args(extra)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_str(String::from_utf8(out).expect("utf-8").trim()).expect("one JSON object")
}

#[test]
fn draws_and_wins_come_with_verified_proofs() {
    // 5,4,4 is a draw: both strategies rest partly on the win bounds.
    for algo in [["--algo", "alphabeta"], ["--algo", "dfpn"]] {
        let v = solve("mnk:5,4,4", "", &algo);
        assert_eq!(v["value"], "draw", "{v}");
        assert_eq!(v["proof"]["verified"], "yes", "{v}");
        assert!(v["proof"]["positions"].as_i64().unwrap() > 100, "{v}");
        assert!(v["proof"]["bound_leaves"].as_i64().unwrap() > 0, "{v}");
    }
    // 4,4,3 is a first-player win: the proof needs no trust at all.
    let v = solve("mnk:4,4,3", "", &["--weak"]);
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["proof"]["bound_leaves"], 0, "{v}");
    // A lost position: the proof is the opponent's win.
    let v = solve("tictactoe", "XO.......", &[]);
    assert_eq!(v["value"], "win", "{v}");
    let v = solve("mnk:3,3,3", "b2 a2", &["--weak"]);
    assert_eq!(v["value"], "win", "{v}");
    let v = solve("mnk:3,3,3", "b2 a2 a1", &["--weak"]);
    assert_eq!(v["value"], "loss", "{v}");
    assert_eq!(v["proof"]["verified"], "yes", "{v}");
}

#[test]
fn a_database_has_no_proof_tree() {
    Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["solve", "tictactoe", "", "--algo", "retrograde", "--proof"])
        .assert()
        .code(2);
}
