//! Runs the `gametree` binary on every subcommand, the error paths included.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

/// The value of a `key: value` line of the output.
fn field(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
        .to_owned()
}

/// The Syzygy generator's published statistics of `ending` (the corpus of
/// `gametree-verify`), as `tb stats --json` prints them.
fn syzygy_json(ending: &str) -> (String, String) {
    let stats = gametree_verify::data::syzygy_3_4_men().unwrap();
    let e = stats.iter().find(|e| e.ending == ending).unwrap();
    let json = |key: &str, w: gametree_verify::data::WinDrawLoss| {
        format!("\"{key}\": {}", wdl_json([w.wins, w.draws, w.losses]))
    };
    (json("wtm", e.wtm), json("btm", e.btm))
}

/// The same for an ending with pawns.
fn syzygy_json_pawns(ending: &str) -> (String, String) {
    let stats = gametree_verify::data::syzygy_3_4_men_pawns().unwrap();
    let e = stats.iter().find(|e| e.ending == ending).unwrap();
    let json = |key: &str, w: gametree_verify::data::WinDrawLoss| {
        format!("\"{key}\": {}", wdl_json([w.wins, w.draws, w.losses]))
    };
    (json("wtm", e.wtm), json("btm", e.btm))
}

/// The published perft count of the position `id` of `table` at `depth`.
fn published_perft(table: &[gametree_verify::data::PerftPosition], id: &str, depth: u32) -> String {
    let row = table.iter().find(|p| p.id == id).unwrap();
    row.nodes(depth).unwrap().to_string()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn solve_tictactoe_every_algorithm_agrees() {
    for algo in ["alphabeta", "pns", "pn2", "dfpn", "cns", "retrograde"] {
        let out = stdout(gametree().args(["solve", "tictactoe", "", "--algo", algo]));
        assert_eq!(field(&out, "value"), "draw", "{algo}");
        // X has a forced win after O's edge reply.
        let out = stdout(gametree().args(["solve", "tictactoe", "XO.......", "--algo", algo]));
        assert_eq!(field(&out, "value"), "win", "{algo}");
        for key in ["score", "best", "pv", "nodes", "time_ms"] {
            field(&out, key);
        }
    }
    // The exact scores agree between alpha-beta and the database.
    let ab = stdout(gametree().args(["solve", "tictactoe", "XO......."]));
    let tb = stdout(gametree().args(["solve", "tictactoe", "XO.......", "--algo", "retrograde"]));
    assert_eq!(field(&ab, "score"), field(&tb, "score"));
    // `--threads 0` is every core (the workspace's one meaning of 0), for
    // alpha-beta's Lazy SMP and the database's build alike.
    for algo in ["alphabeta", "retrograde"] {
        let all = stdout(gametree().args([
            "solve",
            "tictactoe",
            "XO.......",
            "--algo",
            algo,
            "--threads",
            "0",
        ]));
        assert_eq!(field(&all, "score"), field(&ab, "score"), "{algo}");
    }
}

#[test]
fn solve_connect4_matches_pons_scores() {
    // Lines of Pons's Test_L3_R1 with his published scores (position score).
    let lines = "2252576253462244111563365343671351441 -1\n\
                 7422341735647741166133573473242566 1\n\
                 23163416124767223154467471272416755633 0\n";
    let out = stdout(
        gametree()
            .args(["solve", "connect4", "-", "--json"])
            .write_stdin(lines),
    );
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 3);
    for (line, json) in lines.lines().zip(&got) {
        let (moves, score) = line.split_once(' ').unwrap();
        assert!(
            json.contains(&format!("\"position\": \"{moves}\"")),
            "{json}"
        );
        assert!(json.contains(&format!("\"score\": {score},")), "{json}");
    }
}

#[test]
fn solve_weak_and_json_schema() {
    let out = stdout(gametree().args(["solve", "mnk:3,3,3", "b2", "--weak", "--json"]));
    assert!(
        out.starts_with("{\"value\": \"draw\", \"score\": null, \"best\": "),
        "{out}"
    );
    for key in ["\"pv\": [", "\"nodes\": ", "\"time_ms\": "] {
        assert!(out.contains(key), "{out}");
    }
    // Small Connect Four by df-pn with a table size.
    let out =
        stdout(gametree().args(["solve", "connect4:4x4", "", "--algo", "dfpn", "--tt", "8M"]));
    assert_eq!(field(&out, "value"), "draw");
}

#[test]
fn solve_chess_ending_by_database() {
    let out = stdout(gametree().args([
        "solve",
        "chess",
        "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1",
        "--algo",
        "retrograde",
    ]));
    assert_eq!(field(&out, "value"), "win");
    let pv = field(&out, "pv");
    // A mate: the line has an odd number of plies, the winner's last.
    assert_eq!(pv.split(' ').count() % 2, 1, "{pv}");
}

#[test]
fn solve_limits_give_up_cleanly() {
    let out = gametree()
        .args(["solve", "connect4", "", "--max-nodes", "2000"])
        .assert()
        .code(2)
        .stderr(contains("limit"))
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&text, "value"), "-");
    gametree()
        .args([
            "solve",
            "connect4",
            "",
            "--algo",
            "dfpn",
            "--time-ms",
            "50",
            "--json",
        ])
        .assert()
        .code(2)
        .stdout(contains("\"value\": null"));
}

#[test]
fn bad_inputs_are_one_line_errors_with_exit_code_2() {
    let cases: &[&[&str]] = &[
        &["solve", "go", ""],
        &["solve", "connect4", "48"],
        &["solve", "connect4:0x4", ""],
        &["solve", "mnk:3,3", ""],
        &["solve", "chess", "not a fen"],
        &["solve", "tictactoe", "XXX", "--tt", "12Q"],
        &["solve", "tictactoe", "", "--tt", "0"],
        &["solve", "tictactoe", "", "--threads", "257"],
        &["solve", "tictactoe", "", "--algo", "magic"],
        &["solve", "connect4", "", "--algo", "retrograde"],
        &["analyse", "ataxx", "xyz", "--depth", "2"],
        &["perft", "chess", "startpos", "deep"],
        &["tb", "stats", "KRPPvKR"],
        &["tb", "build", "connect4:9x9"],
        &["tb", "build", "connect4:0x4"],
        &["tb", "build", "connect4:6x4"],
        &["tb", "stats", "connect4"],
        &["tb", "stats", "connect4:4x"],
        &["tb", "probe", "11111", "--game", "connect4:4x4"],
        &["tb", "probe", "", "--game", "connect4:0x4"],
        &["tb", "probe", "1", "--game", "hex"],
        &["tb", "probe", "not a position"],
        &["play", "hex"],
        &["solve"],
    ];
    for args in cases {
        let out = gametree().args(*args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Named problems.
    gametree()
        .args(["solve", "go", ""])
        .assert()
        .stderr(contains("unknown game \"go\""));
    gametree()
        .args(["solve", "connect4", "4448"])
        .assert()
        .stderr(contains("column 8"));
}

#[test]
fn stdin_positions_answer_one_line_each_and_report_bad_lines() {
    let out = gametree()
        .args(["solve", "tictactoe", "-"])
        .write_stdin("XO.......\nbad\n.........\n")
        .assert()
        .code(2)
        .stderr(contains("line 2"))
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("position: XO.......; value: win; "));
    assert!(lines[1].contains("value: draw"));
}

/// A blank or whitespace line is an error for that line (not the start
/// position, which on Connect Four would start an endless batch); the other
/// lines are answered and the exit code is 2.
#[test]
fn blank_stdin_lines_are_errors_and_the_batch_goes_on() {
    let out = gametree()
        .args(["solve", "connect4:4x4", "-"])
        .write_stdin("2323\n\n   \n232\n")
        .assert()
        .code(2)
        .stderr(contains("line 2: blank line"))
        .stderr(contains("line 3: blank line"))
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("position: 2323;"), "{text}");
    assert!(lines[1].starts_with("position: 232;"), "{text}");
}

/// A size that does not fit says "too large" with the maximum, not "not a
/// number"; a missing database directory is an error, never created by
/// `tb stats` or `tb probe`.
#[test]
fn sizes_and_directories_get_clear_errors() {
    gametree()
        .args(["solve", "mnk:1000000,1000000,5", ""])
        .assert()
        .code(2)
        .stderr(contains("1000000 is too large (max 19"));
    gametree()
        .args(["solve", "mnk:x,3,3", ""])
        .assert()
        .code(2)
        .stderr(contains("\"x\" is not a number"));
    let missing = std::env::temp_dir().join(format!("gametree-no-dir-{}", std::process::id()));
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["tb", "probe", "XX.OO....", "--dir", missing],
        vec!["tb", "stats", "tictactoe", "--dir", missing],
    ] {
        gametree()
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains("no such directory"));
        assert!(
            !std::path::Path::new(missing).exists(),
            "{args:?} created it"
        );
    }
}

#[test]
fn perft_counts_are_the_last_line() {
    // Published counts (the corpus of `gametree-verify`), and two that
    // are easily counted: 7^4 and 9 x 8.
    let data = gametree_verify::data::tictactoe().unwrap();
    let chess = gametree_verify::data::chess_perft().unwrap();
    let ataxx = gametree_verify::data::ataxx_perft().unwrap();
    let cases = [
        (
            vec!["perft", "tictactoe", "", "9"],
            data.full_board_games.to_string(),
        ),
        (
            vec!["perft", "chess", "startpos", "3"],
            published_perft(chess, "initial", 3),
        ),
        (vec!["perft", "connect4", "", "4"], "2401".to_string()),
        (
            vec!["perft", "ataxx", "startpos", "2"],
            published_perft(ataxx, "startpos", 2),
        ),
        (vec!["perft", "mnk:3,3,3", "", "2"], "72".to_string()),
    ];
    for (args, want) in cases {
        let out = stdout(gametree().args(&args));
        assert_eq!(out.lines().last(), Some(want.as_str()), "{args:?}");
    }
    let out = stdout(gametree().args(["perft", "chess", "startpos", "2", "--divide"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(lines[20], published_perft(chess, "initial", 2));
}

#[test]
fn analyse_prints_one_line_per_depth() {
    let out = stdout(gametree().args(["analyse", "chess", "startpos", "--depth", "3"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} score cp ", i + 1)),
            "{l}"
        );
        assert!(
            l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "),
            "{l}"
        );
    }
    assert!(lines[3].starts_with("bestmove "));
    // A mate in one is found at depth 1 and stops the deepening.
    let out = stdout(gametree().args([
        "analyse",
        "chess",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--depth",
        "5",
        "--json",
    ]));
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains("\"mate\": 1") && out.contains("\"pv\": [\"a1a8\"]"),
        "{out}"
    );
    let out = stdout(gametree().args(["analyse", "connect4", "", "--time-ms", "200"]));
    assert!(out.lines().last().unwrap().starts_with("bestmove "));
}

/// Chess analysis searches captures past the horizon by default: at depth 1
/// the queen does not take a pawn defended by a pawn, which a search
/// without quiescence (`--quiescence false`) does, seeing only the pawn.
#[test]
fn chess_analysis_uses_quiescence() {
    let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
    let best = |extra: &[&str]| {
        let mut args = vec!["analyse", "chess", fen, "--depth", "1"];
        args.extend_from_slice(extra);
        let out = stdout(gametree().args(&args));
        out.lines().last().unwrap().to_string()
    };
    assert_ne!(best(&[]), "bestmove d1d5");
    assert_ne!(best(&["--quiescence", "true"]), "bestmove d1d5");
    assert_eq!(best(&["--quiescence", "false"]), "bestmove d1d5");
}

#[test]
fn tb_build_stats_probe() {
    let dir = std::env::temp_dir().join(format!("gametree-cli-test-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = stdout(gametree().args(["tb", "build", "tictactoe", "--out", d]));
    assert!(out.trim_end().ends_with("tictactoe.gtb"));
    // The Syzygy generator's published KQvK statistics, and the longest
    // mate (in 10: 19 plies).
    let out = stdout(gametree().args(["tb", "stats", "KQvK", "--dir", d, "--json"]));
    assert!(
        out.starts_with("{\"material\": \"KQvK\", \"counted\": "),
        "{out}"
    );
    let (wtm, btm) = syzygy_json("KQvK");
    assert!(out.contains(&format!("{wtm}, {btm}")), "{out}");
    let mate = gametree_verify::data::chess_endgames()
        .unwrap()
        .longest_mate("KQvK")
        .unwrap()
        .plies();
    assert!(
        out.contains(&format!("\"longest_win_plies\": {mate}")),
        "{out}"
    );
    assert!(dir.join("KQvK.gtb").exists());
    let out =
        stdout(gametree().args(["tb", "probe", "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1", "--dir", d]));
    assert_eq!(field(&out, "value"), "loss");
    let out = stdout(gametree().args(["tb", "probe", "XX.OO....", "--dir", d]));
    assert_eq!(field(&out, "value"), "win");
    assert_eq!(field(&out, "distance"), "1");
    assert_eq!(field(&out, "best"), "2");
    // A corrupted file is refused with a one-line error.
    std::fs::write(dir.join("KQvK.gtb"), b"not a database").unwrap();
    gametree()
        .args(["tb", "stats", "KQvK", "--dir", d])
        .assert()
        .code(2)
        .stderr(contains("KQvK.gtb"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tb build chess:N` builds every ending of N pieces (and what they
/// capture into), one line per ending; the KRvK it writes holds the
/// Syzygy generator's published statistics; on two threads (two endings
/// at a time) it writes the same files. N outside 3 to 5 is refused.
#[test]
fn tb_build_every_ending_of_three_pieces() {
    let dir = std::env::temp_dir().join(format!("gametree-cli-all3-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = stdout(gametree().args(["tb", "build", "chess:3", "--out", d]));
    let files: Vec<&str> = out.lines().collect();
    assert_eq!(files.len(), 5, "{out}");
    for (file, name) in files.iter().zip(["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]) {
        assert!(file.ends_with(&format!("{name}.gtb")), "{file}");
        assert!(dir.join(format!("{name}.gtb")).exists());
    }
    let out = stdout(gametree().args(["tb", "stats", "KRvK", "--dir", d, "--json"]));
    let (wtm, _) = syzygy_json("KRvK");
    assert!(
        out.starts_with("{\"material\": \"KRvK\", \"counted\": ") && out.contains(&wtm),
        "{out}"
    );
    // With pawns: the published KPvK statistics.
    let out = stdout(gametree().args(["tb", "stats", "KPvK", "--dir", d, "--json"]));
    let (wtm, btm) = syzygy_json_pawns("KPvK");
    assert!(out.contains(&wtm) && out.contains(&btm), "{out}");
    let two = dir.join("two");
    let t = two.to_str().unwrap();
    let out = stdout(gametree().args(["tb", "build", "chess:3", "--out", t, "--threads", "2"]));
    assert_eq!(out.lines().count(), 5, "{out}");
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
        let file = format!("{name}.gtb");
        assert_eq!(
            std::fs::read(dir.join(&file)).unwrap(),
            std::fs::read(two.join(&file)).unwrap(),
            "{file}"
        );
    }
    for bad in ["chess:2", "chess:6", "chess:x"] {
        gametree()
            .args(["tb", "build", bad, "--out", d])
            .assert()
            .code(2)
            .stderr(contains("chess:N"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Win/draw/loss counts by side to move: (first, second) player to move.
fn counts_by_side(
    space: &impl gametree_game::IndexSpace<Game = gametree_games_connect4::Board>,
    table: &gametree_retrograde::Table,
) -> [[u64; 3]; 2] {
    let mut out = [[0u64; 3]; 2];
    for i in 0..space.size() {
        let (Some(v), Some(b)) = (table.get(i), space.position(i)) else {
            continue;
        };
        let k = match v {
            gametree_retrograde::Value::Win(_) => 0,
            gametree_retrograde::Value::Draw => 1,
            gametree_retrograde::Value::Loss(_) => 2,
        };
        out[b.plies() % 2][k] += 1;
    }
    out
}

fn wdl_json(c: [u64; 3]) -> String {
    format!(
        "{{\"win\": {}, \"draw\": {}, \"loss\": {}}}",
        c[0], c[1], c[2]
    )
}

#[test]
fn tb_connect4_build_stats_probe() {
    use gametree_games_connect4::{Board, Size};
    use gametree_retrograde::{Generator, Method, Reachable};

    let dir = std::env::temp_dir().join(format!("gametree-cli-c4-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = stdout(gametree().args(["tb", "build", "connect4:4x4", "--out", d]));
    assert!(out.trim_end().ends_with("connect4-4x4.gtb"), "{out}");
    assert!(dir.join("connect4-4x4.gtb").exists());
    // The statistics against an independent numbering of the same
    // positions (breadth-first enumeration, by forward sweeps): classes
    // under mirror symmetry, and every position.
    let size = Size::new(4, 4).unwrap();
    let classes = Reachable::new(Board::new(size), Board::symmetric_key).unwrap();
    let all = Reachable::new(Board::new(size), Board::key).unwrap();
    let sym = counts_by_side(
        &classes,
        &Generator::new(&classes)
            .build(Method::ForwardSweeps)
            .unwrap(),
    );
    let raw = counts_by_side(
        &all,
        &Generator::new(&all).build(Method::ForwardSweeps).unwrap(),
    );
    let out = stdout(gametree().args(["tb", "stats", "connect4:4x4", "--dir", d, "--json"]));
    let expected = format!(
        "{{\"material\": \"connect4:4x4\", \"wtm\": {}, \"btm\": {}, \"raw_wtm\": {}, \"raw_btm\": {}, ",
        wdl_json(sym[0]),
        wdl_json(sym[1]),
        wdl_json(raw[0]),
        wdl_json(raw[1])
    );
    assert!(out.starts_with(&expected), "{out}\n{expected}");
    assert!(out.contains("\"longest_win_plies\": 13"), "{out}");
    // Probes: the empty board is a draw (Tromp, from the corpus of
    // `gametree-verify`); three in a column wins.
    let out = stdout(gametree().args(["tb", "probe", "", "--game", "connect4:4x4", "--dir", d]));
    let published = gametree_verify::data::connect4()
        .unwrap()
        .board(4, 4)
        .unwrap()
        .value;
    assert_eq!(field(&out, "value"), published.to_string());
    let out = stdout(gametree().args([
        "tb",
        "probe",
        "121212",
        "--game",
        "connect4:4x4",
        "--dir",
        d,
    ]));
    assert_eq!(field(&out, "value"), "win");
    assert_eq!(field(&out, "distance"), "1");
    assert_eq!(field(&out, "best"), "1");
    // A finished game: the side to move has lost.
    let out = stdout(gametree().args([
        "tb",
        "probe",
        "1212121",
        "--game",
        "connect4:4x4",
        "--dir",
        d,
    ]));
    assert_eq!(field(&out, "value"), "loss");
    assert_eq!(field(&out, "distance"), "0");
    // The database and alpha-beta give the same exact score.
    for pos in ["", "2", "23", "2323", "1"] {
        let ab = stdout(gametree().args(["solve", "connect4:4x4", pos]));
        let tb = stdout(gametree().args(["solve", "connect4:4x4", pos, "--algo", "retrograde"]));
        assert_eq!(field(&ab, "value"), field(&tb, "value"), "{pos:?}");
        assert_eq!(field(&ab, "score"), field(&tb, "score"), "{pos:?}");
    }
    // Another game's file under the Connect Four name is refused.
    stdout(gametree().args(["tb", "build", "tictactoe", "--out", d]));
    std::fs::copy(dir.join("tictactoe.gtb"), dir.join("connect4-4x4.gtb")).unwrap();
    gametree()
        .args(["tb", "stats", "connect4:4x4", "--dir", d])
        .assert()
        .code(2)
        .stderr(contains("connect4-4x4.gtb"));
    std::fs::write(dir.join("connect4-4x4.gtb"), b"GTRETRO").unwrap();
    gametree()
        .args(["tb", "probe", "", "--game", "connect4:4x4", "--dir", d])
        .assert()
        .code(2)
        .stderr(contains("truncated"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_a_game_with_errors_and_undo() {
    let out = gametree()
        .args(["play", "tictactoe", "--engine-depth", "9"])
        .write_stdin("9\nfoo\nmoves\n4\nundo\n4\n4\n")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("bad move \"9\""), "{text}");
    assert!(text.contains("bad move \"foo\""), "{text}");
    assert!(text.contains("legal moves: 0 1 2 3 4 5 6 7 8"), "{text}");
    assert_eq!(text.matches("engine plays").count(), 2, "{text}");
    assert!(text.contains("illegal move \"4\""), "{text}");
    // The engine moving first, played to the end: X never loses.
    let out = gametree()
        .args(["play", "tictactoe", "--engine-first", "--engine-depth", "9"])
        .write_stdin("0\n1\n2\n3\n5\n6\n7\n8\n")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("game over"), "{text}");
    assert!(!text.contains("you win"), "{text}");
}

#[test]
fn verify_passes_and_help_names_the_full_run() {
    gametree()
        .args(["verify", "--game", "tictactoe"])
        .assert()
        .success()
        .stdout(contains(" 0 mismatches"));
    gametree()
        .args(["verify", "--help"])
        .assert()
        .success()
        .stdout(contains("cargo xtask verify"));
    gametree()
        .args(["verify", "--game", "no-such-game"])
        .assert()
        .code(2);
    for sub in ["solve", "analyse", "perft", "play", "tb"] {
        gametree()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(contains("Example").or(contains("Commands")));
    }
}
