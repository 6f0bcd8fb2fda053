//! Every input is answered or refused in words: standard input read as
//! bytes, a line at a time (a line that is not UTF-8 is an error with its
//! number, the others answered, each error printed once, a summary at the
//! end, long lines cut in messages); options that would be adjusted or
//! ignored silently are refused or come with a note; memory sizes are
//! checked against the machine.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

/// Runs `args` with `stdin`; returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: impl Into<Vec<u8>>) -> (i32, String, String) {
    let out = gametree()
        .args(args)
        .write_stdin(stdin.into())
        .output()
        .expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
    )
}

/// The lines of `stderr` that report an error.
fn error_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("error:")).collect()
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_others_are_answered() {
    let (code, out, err) = run(
        &["solve", "dots:2x2", "-", "--json"],
        &b"a1- b1- a1|\n\xff\xfe\na1-\n"[..],
    );
    assert_eq!(code, 2, "{err}");
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let positions: Vec<&str> = answers
        .iter()
        .map(|a| a["position"].as_str().expect("a position"))
        .collect();
    assert_eq!(positions, ["a1- b1- a1|", "a1-"], "{out}");
    for a in &answers {
        assert!(a["value"].is_string(), "{a}");
    }
    let errors = error_lines(&err);
    assert_eq!(errors.len(), 1, "each error once: {err}");
    assert!(errors[0].starts_with("error: line 2: not UTF-8"), "{err}");
    assert!(errors[0].contains("0xFF"), "{err}");
    assert_eq!(
        err.lines().last(),
        Some("standard input: 3 lines: 2 answered, 1 error"),
        "{err}"
    );
}

#[test]
fn each_bad_line_is_printed_once_and_the_summary_counts_them() {
    let (code, out, err) = run(
        &["solve", "tictactoe", "-"],
        "bad\r\nXO.......\r\n\nXX.OO....\nworse\n",
    );
    assert_eq!(code, 2, "{err}");
    // Windows line ends are read as the same lines.
    let answered: Vec<&str> = out.lines().collect();
    assert_eq!(answered.len(), 2, "{out}");
    assert!(answered[0].starts_with("position: XO.......; value: win"));
    assert!(answered[1].starts_with("position: XX.OO....; value: win"));
    let errors = error_lines(&err);
    assert_eq!(errors.len(), 3, "{err}");
    for (error, line) in errors.iter().zip([1, 3, 5]) {
        assert!(error.starts_with(&format!("error: line {line}: ")), "{err}");
    }
    assert_eq!(
        err.lines().last(),
        Some("standard input: 5 lines: 2 answered, 3 errors"),
        "{err}"
    );
    // A batch without errors: exit code 0 and the summary alone.
    let (code, out, err) = run(&["solve", "tictactoe", "-"], "XO.......\n.........");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert_eq!(err.trim(), "standard input: 2 lines: 2 answered");
}

#[test]
fn a_long_bad_line_is_cut_in_its_message() {
    let long = "x".repeat(100_000);
    let (code, out, err) = run(
        &["solve", "tictactoe", "-"],
        format!(".........\n{long}\nXO.......\n"),
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.len() < 1_000, "{} bytes of errors", err.len());
    let errors = error_lines(&err);
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].starts_with("error: line 2: "), "{err}");
    assert!(errors[0].contains("(100000 characters)"), "{err}");
    assert!(errors[0].contains(&"x".repeat(80)), "{err}");
    assert!(!errors[0].contains(&"x".repeat(81)), "{err}");
    // Not UTF-8 and long: cut too.
    let mut bytes = vec![b'a'; 50_000];
    bytes.push(0xff);
    bytes.push(b'\n');
    let (code, _, err) = run(&["perft", "connect4", "-", "1"], bytes);
    assert_eq!(code, 2, "{err}");
    assert!(err.len() < 1_000, "{} bytes of errors", err.len());
    assert!(
        err.contains("line 1: not UTF-8 text: byte 50001 of 50001"),
        "{err}"
    );
    // And as an argument.
    gametree()
        .args(["solve", "tictactoe", &long])
        .assert()
        .code(2)
        .stderr(contains("(100000 characters)"))
        .stderr(predicate::function(|e: &str| e.len() < 1_000));
}

#[test]
fn every_command_reading_lines_goes_on_after_a_bad_one() {
    let (code, out, err) = run(&["perft", "connect4:4x4", "-", "2"], &b"\xc3\n11\n"[..]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.trim(), "16", "{out}");
    assert_eq!(error_lines(&err).len(), 1, "{err}");
    assert!(err.contains("error: line 1: not UTF-8"), "{err}");
    let (code, out, err) = run(
        &["analyse", "tictactoe", "-", "--depth", "2", "--json"],
        &b"\xff\nXO.......\n"[..],
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.lines().count() >= 1, "{out}");
    assert!(
        out.lines()
            .all(|l| l.contains("\"position\": \"XO.......\"")),
        "{out}"
    );
    assert!(
        err.ends_with("standard input: 2 lines: 1 answered, 1 error\n"),
        "{err}"
    );
}

#[test]
fn depths_outside_the_searcher_are_refused() {
    for (args, option) in [
        (
            &["analyse", "chess", "startpos", "--depth", "0"][..],
            "--depth 0",
        ),
        (
            &["analyse", "chess", "startpos", "--depth", "100000"][..],
            "--depth 100000",
        ),
        (
            &["analyse", "chess", "startpos", "--time-ms", "0"][..],
            "--time-ms 0",
        ),
        (
            &["play", "tictactoe", "--engine-depth", "0"][..],
            "--engine-depth 0",
        ),
        (
            &["play", "tictactoe", "--engine-depth", "256"][..],
            "--engine-depth 256",
        ),
        (
            &["play", "tictactoe", "--engine-time-ms", "0"][..],
            "--engine-time-ms 0",
        ),
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with(&format!("error: {option}: ")),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // The deepest depth allowed runs (and stops once the value is proven).
    let (code, out, err) = run(&["analyse", "tictactoe", "XO.......", "--depth", "255"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score mate "), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{out}"
    );
}

/// The machine's memory in bytes, where `/proc/meminfo` tells it.
fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn memory_beyond_the_machine_is_refused_for_every_algorithm() {
    let Some(total) = machine_memory() else {
        // Nothing to check against: the sizes are taken as given.
        return;
    };
    let gib = total.div_ceil(1 << 30) + 1;
    if gib > 1024 {
        return; // Beyond the largest size the tool takes (1T).
    }
    // A decimal size, above the machine by half a GiB or more.
    let size = format!("{gib}.5G");
    let said = format!("--tt {gib}.5 GiB is more than this machine's ");
    for algo in ["alphabeta", "pns", "pn2", "dfpn", "cns"] {
        let (code, out, err) = run(
            &["solve", "tictactoe", "", "--algo", algo, "--tt", &size],
            "",
        );
        assert_eq!(code, 2, "{algo}: {err}");
        assert!(out.is_empty(), "{algo}: {out}");
        assert!(err.starts_with(&format!("error: {said}")), "{algo}: {err}");
    }
    for args in [
        &["analyse", "tictactoe", "", "--depth", "1", "--tt", &size][..],
        &["play", "tictactoe", "--tt", &size][..],
    ] {
        let (code, _, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {said}")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn decimal_sizes_are_read_and_bad_ones_named() {
    // 1.5G is 1.5 GiB: within the tree bound of PNS, which allocates as it
    // goes.
    let (code, out, err) = run(
        &[
            "solve",
            "tictactoe",
            "XO.......",
            "--algo",
            "pns",
            "--tt",
            "1.5G",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: win"), "{out}");
    // 1.5T is read as 1.5 TiB, over the largest size taken.
    for (size, why) in [
        ("1.5T", "more than 1T"),
        ("1.5X", "unknown unit \"X\""),
        ("1.5.2G", "more than one decimal point"),
        ("0.0G", "at least one byte"),
    ] {
        let (code, _, err) = run(&["solve", "tictactoe", "", "--tt", size], "");
        assert_eq!(code, 2, "{size}: {err}");
        assert!(
            err.starts_with(&format!("error: bad size {size:?}: ")),
            "{err}"
        );
        assert!(err.contains(why), "{size}: {err}");
    }
}

#[test]
fn options_a_solver_does_not_use_are_refused_or_noted() {
    // --weak: the proof-number searches give the same answer, with a note.
    for algo in ["pns", "pn2", "dfpn", "cns"] {
        let (code, weak, err) = run(
            &[
                "solve",
                "tictactoe",
                "XO.......",
                "--algo",
                algo,
                "--weak",
                "--json",
            ],
            "",
        );
        assert_eq!(code, 0, "{algo}: {err}");
        assert!(
            err.starts_with(&format!("note: --weak: --algo {algo} finds win/draw/loss")),
            "{algo}: {err}"
        );
        let (_, strong, err) = run(
            &["solve", "tictactoe", "XO.......", "--algo", algo, "--json"],
            "",
        );
        assert!(err.is_empty(), "{algo}: {err}");
        let fields = |text: &str| {
            let v: serde_json::Value = serde_json::from_str(text).expect("JSON");
            (v["value"].clone(), v["best"].clone(), v["nodes"].clone())
        };
        assert_eq!(fields(&weak), fields(&strong), "{algo}");
    }
    // Alpha-beta's weak solve is its own search: no note.
    let (code, out, err) = run(&["solve", "tictactoe", "XO.......", "--weak"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("score: -"), "{out}");
    // Options that would be ignored are refused.
    for (args, said) in [
        (
            &["solve", "tictactoe", "", "--algo", "pns", "--threads", "2"][..],
            "--threads 2: --algo pns searches on one thread",
        ),
        (
            &[
                "solve",
                "tictactoe",
                "",
                "--algo",
                "retrograde",
                "--tt",
                "64M",
            ][..],
            "--tt: --algo retrograde does not use it",
        ),
        (
            &[
                "solve",
                "tictactoe",
                "",
                "--algo",
                "retrograde",
                "--time-ms",
                "100",
            ][..],
            "--time-ms: --algo retrograde builds the whole database",
        ),
        (
            &[
                "solve",
                "tictactoe",
                "",
                "--algo",
                "retrograde",
                "--max-nodes",
                "100",
            ][..],
            "--max-nodes: --algo retrograde builds the whole database",
        ),
        (
            &["solve", "tictactoe", "", "--algo", "retrograde", "--proof"][..],
            "--proof needs a search as its oracle, not --algo retrograde",
        ),
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with(&format!("error: {said}")),
            "{args:?}: {err}"
        );
    }
    // The help says what --weak does with each solver.
    gametree()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(contains("only leave the score"));
}

#[test]
fn a_hint_is_a_hint_and_the_engine_plays_once() {
    let (code, out, err) = run(
        &["play", "tictactoe", "--engine-depth", "9"],
        &b"hint\n\xff\nboard\n4\n"[..],
    );
    assert_eq!(code, 0, "{err}");
    let hint = out
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .unwrap_or_else(|| panic!("no hint: {out}"));
    let square: u32 = hint
        .split_whitespace()
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no move in the hint: {hint}"));
    assert!(square < 9, "{hint}");
    assert!(hint.contains("(score "), "{hint}");
    // The engine played after the human's move only, never for the hint.
    assert_eq!(out.matches("engine plays").count(), 1, "{out}");
    // A line that is not UTF-8 is answered and the game goes on.
    assert!(out.contains("not UTF-8 text"), "{out}");
}

#[test]
fn a_very_large_perft_is_announced_before_counting() {
    // The note comes first; the count itself would not finish, so the
    // process is stopped once the note is read.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("gametree"))
        .args(["perft", "chess", "startpos", "30"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut first = String::new();
    let read = BufReader::new(child.stderr.take().expect("piped")).read_line(&mut first);
    let _ = child.kill();
    let _ = child.wait();
    read.expect("reads");
    assert!(
        first.starts_with("note: perft 30 of this position may count about 10^"),
        "{first}"
    );
    // Small counts run without a word.
    let (code, out, err) = run(&["perft", "chess", "startpos", "3"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "8902");
    assert!(err.is_empty(), "{err}");
    // A depth the game's length bounds is not announced: tic-tac-toe ends
    // within 9 plies, so no line reaches ply 100.
    let (code, out, err) = run(&["perft", "tictactoe", "", "100"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "0");
    assert!(err.is_empty(), "{err}");
}
