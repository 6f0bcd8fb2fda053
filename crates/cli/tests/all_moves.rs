//! `gametree solve … --all-moves`: every move's value and score agree with
//! the value and score of the position after it, solved on its own (negated
//! when the turn passes, kept when the mover moves again), and the best
//! move's with the position's.

use assert_cmd::Command;
use gametree_verify::data::pons::TestSet;
use serde_json::Value;

/// One solved position with its moves: (value, score, [(move, value, score)]).
type Solved = (String, Option<i64>, Vec<(String, String, Option<i64>)>);

/// Solves `positions` (one per line on standard input) with `extra` flags.
fn solve(game: &str, positions: &[String], extra: &[&str]) -> Vec<Value> {
    let out = Command::cargo_bin("gametree")
        .expect("the binary is built")
        .args(["solve", game, "-", "--json"])
        .args(extra)
        .write_stdin(positions.join("\n") + "\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("utf-8");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), positions.len(), "{text}");
    lines
}

fn parse(v: &Value) -> Solved {
    let moves = v["moves"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|m| {
                    (
                        m["move"].as_str().expect("move").to_owned(),
                        m["value"].as_str().unwrap_or("-").to_owned(),
                        m["score"].as_i64(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (
        v["value"].as_str().unwrap_or("-").to_owned(),
        v["score"].as_i64(),
        moves,
    )
}

fn flip(value: &str) -> &str {
    match value {
        "win" => "loss",
        "loss" => "win",
        other => other,
    }
}

fn rank(value: &str) -> i32 {
    match value {
        "win" => 2,
        "draw" => 1,
        _ => 0,
    }
}

/// Checks `--all-moves` on `positions` of `game`, whose children are
/// written `child(position, move)`, and whose turn passes after a move
/// unless `kept(position, child)`. Returns how many moves were checked and
/// how many kept the turn.
fn check(
    game: &str,
    positions: &[String],
    child: impl Fn(&str, &str) -> String,
    kept: impl Fn(&str, &str) -> bool,
) -> (usize, usize) {
    let parents: Vec<Solved> = solve(game, positions, &["--all-moves"])
        .iter()
        .map(parse)
        .collect();
    let mut children = Vec::new();
    for (p, (_, _, moves)) in positions.iter().zip(&parents) {
        for (m, _, _) in moves {
            children.push(child(p, m));
        }
    }
    let solved: Vec<Solved> = solve(game, &children, &[]).iter().map(parse).collect();
    let mut next = solved.iter();
    let (mut checked, mut kept_turns) = (0, 0);
    for (p, parent) in positions.iter().zip(&parents) {
        let (value, score, moves) = parent;
        assert!(!moves.is_empty(), "{game} {p}: no moves");
        // Best first, and the best is the position's value and score.
        assert_eq!((&moves[0].1, moves[0].2), (value, *score), "{game} {p}");
        for w in moves.windows(2) {
            assert!(
                (rank(&w[0].1), w[0].2) >= (rank(&w[1].1), w[1].2),
                "{game} {p}: not best first: {moves:?}"
            );
        }
        for (m, mv_value, mv_score) in moves {
            let after = next.next().expect("one child per move");
            let (a_value, a_score, _) = after;
            if kept(p, &child(p, m)) {
                kept_turns += 1;
                assert_eq!(
                    (mv_value.as_str(), *mv_score),
                    (a_value.as_str(), *a_score),
                    "{game} {p} then {m}"
                );
            } else {
                assert_eq!(
                    (mv_value.as_str(), *mv_score),
                    (flip(a_value), a_score.map(|s| -s)),
                    "{game} {p} then {m}"
                );
            }
            checked += 1;
        }
    }
    (checked, kept_turns)
}

/// A few Connect Four positions: every prefix of a played-out game, from
/// 20 plies on (solved in milliseconds each).
fn connect4_positions() -> Vec<String> {
    let game = "4453432222336655577115617";
    (20..game.len()).map(|n| game[..n].to_owned()).collect()
}

#[test]
fn connect4_moves_agree_with_the_positions_after_them() {
    let positions = connect4_positions();
    let (n, _) = check(
        "connect4",
        &positions,
        |p, m| format!("{p}{m}"),
        |_, _| false,
    );
    assert!(n > 20, "{n}");
    // A small board, from the empty one.
    let small: Vec<String> = ["startpos", "1", "23", "2314"].map(String::from).to_vec();
    let child = |p: &str, m: &str| p.replace("startpos", "") + m;
    check("connect4:5x4", &small, child, |_, _| false);
}

#[test]
fn dots_moves_keep_the_sign_when_the_turn_is_kept() {
    use gametree_game::Game;
    use gametree_games_dots::{Dots, Size};
    // Dots-and-Boxes 2x2, where completing a box moves again; positions
    // are move lists.
    let size = Size::new(2, 2).expect("2x2");
    let to_move = |text: &str| {
        Dots::from_moves(size, text.trim_start_matches("startpos"))
            .expect("legal moves")
            .side_to_move()
    };
    let positions: Vec<String> = ["startpos", "a1-", "a1- a1| b1|", "a1- a1| b1| a2-"]
        .map(String::from)
        .to_vec();
    let (n, kept) = check(
        "dots:2x2",
        &positions,
        |p, m| {
            if p == "startpos" {
                m.to_owned()
            } else {
                format!("{p} {m}")
            }
        },
        |p, c| to_move(p) == to_move(c),
    );
    assert!(n > 20, "{n}");
    assert!(kept > 0, "no move completed a box");
}

/// Pons's set `set`: (moves, score) per line, from
/// `$GAMETREE_DATA/connect4` (`gametree_verify::default_data_dir`).
fn pons_set(set: TestSet) -> Vec<(String, i64)> {
    let dir = gametree_verify::default_data_dir().join("connect4");
    set.load(&dir)
        .unwrap_or_else(|e| panic!("{e} (set GAMETREE_DATA)"))
        .into_iter()
        .map(|p| (p.moves, i64::from(p.score)))
        .collect()
}

#[test]
#[cfg_attr(
    not(pons_data),
    ignore = "needs Pascal Pons's Connect Four test sets (blog.gamesolver.org, test protocol): set GAMETREE_DATA=DIR with DIR/connect4/Test_L3_R1 ..."
)]
fn connect4_moves_on_pons_positions() {
    // 100 positions: the first 50 of the end-game set and of the middle-game
    // set; each position's score is also checked against the file.
    let mut set = pons_set(TestSet::L3_R1);
    set.truncate(50);
    set.extend(pons_set(TestSet::L2_R1).into_iter().take(50));
    let positions: Vec<String> = set.iter().map(|(m, _)| m.clone()).collect();
    let solved = solve("connect4", &positions, &[]);
    for ((moves, score), v) in set.iter().zip(&solved) {
        assert_eq!(v["score"].as_i64(), Some(*score), "{moves}");
    }
    let (n, _) = check(
        "connect4",
        &positions,
        |p, m| format!("{p}{m}"),
        |_, _| false,
    );
    assert!(n >= 300, "{n}");
}

/// `tb probe --all-moves` on KQvK and KRvK positions: each move's value and
/// distance is the database's value of the position after it, one ply
/// further and seen from the mover; and alpha-beta's `solve --all-moves`
/// gives every move the same score (`32000 - distance` for a win).
#[test]
fn database_moves_agree_with_the_positions_after_them_and_with_alpha_beta() {
    use gametree_games_chess::Position;
    let dir = std::env::temp_dir().join(format!("gametree-all-moves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let d = dir.to_str().expect("utf-8");
    let probe = |fen: &str, all: bool| -> Value {
        let mut cmd = Command::cargo_bin("gametree").expect("the binary is built");
        cmd.args(["tb", "probe", fen, "--dir", d, "--json"]);
        if all {
            cmd.arg("--all-moves");
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        serde_json::from_slice(&out).expect("one JSON object")
    };
    let mut checked = 0;
    for fen in [
        "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1",
        "7k/8/5K2/8/8/8/8/R7 w - - 0 1",
    ] {
        let all = probe(fen, true);
        let moves = all["moves"].as_array().expect("moves");
        assert_eq!(moves[0]["value"], all["value"], "{fen}");
        assert_eq!(moves[0]["distance"], all["distance"], "{fen}");
        let position: Position = fen.parse().expect("a FEN");
        for m in moves {
            let uci = m["move"].as_str().expect("a move");
            let mut child = position.clone();
            let mv = child.parse_uci(uci).expect("a legal move");
            gametree_game::Game::make(&mut child, mv);
            let after = probe(&child.to_string(), false);
            let value = after["value"].as_str().expect("value");
            assert_eq!(m["value"].as_str(), Some(flip(value)), "{fen} {uci}");
            assert_eq!(
                m["distance"].as_i64(),
                after["distance"].as_i64().map(|d| d + 1),
                "{fen} {uci}"
            );
            checked += 1;
        }
        // Alpha-beta's every-move scores: the same values and distances on
        // every decisive move. (Alpha-beta does not prove draws in chess,
        // where positions repeat: those moves stay unsolved, and the run
        // exits with code 2.)
        let out = Command::cargo_bin("gametree")
            .expect("the binary is built")
            .args(["solve", "chess", fen, "--json", "--all-moves"])
            .output()
            .expect("runs");
        let ab: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let (_, _, ab_moves) = parse(&ab);
        assert_eq!(ab_moves.len(), moves.len(), "{fen}");
        for m in moves {
            let (ab_move, ab_value, ab_score) = ab_moves
                .iter()
                .find(|(mv, _, _)| Some(mv.as_str()) == m["move"].as_str())
                .expect("the same moves");
            let expected = match (m["value"].as_str(), m["distance"].as_i64()) {
                (Some("win"), Some(d)) => 32_000 - d,
                (Some("loss"), Some(d)) => d - 32_000,
                _ => continue,
            };
            assert_eq!(
                (ab_value.as_str(), *ab_score),
                (m["value"].as_str().expect("value"), Some(expected)),
                "{fen}: {ab_move} against {m}"
            );
        }
    }
    assert!(checked > 40, "{checked}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The printed best move is one of the moves listed with the printed value
/// and score, with every algorithm: on these two positions the best move
/// once came from a win/draw/loss solve and achieved another box
/// difference (`b2-` gives -4 where the score is -2; `c1-` leaves +3 where
/// the score is +7).
#[test]
fn dots_best_move_achieves_the_printed_score() {
    let cases = [
        ("dots:2x2", "a1- b1- a1|", -2),
        (
            "dots:3x3",
            "b2| c4- a1- a4- a2| c2| b1- b4- b2- c3- b3- a3|",
            7,
        ),
    ];
    for algo in ["alphabeta", "dfpn", "pns", "pn2"] {
        for (game, position, score) in cases {
            let solved = solve(
                game,
                &[position.to_owned()],
                &["--all-moves", "--algo", algo],
            );
            let v = &solved[0];
            assert_eq!(v["score"].as_i64(), Some(score), "{algo} {game} {position}");
            let best = v["best"].as_str().expect("a best move");
            let pv = v["pv"].as_array().expect("a line");
            assert_eq!(
                pv[0].as_str(),
                Some(best),
                "{algo}: the line starts with best"
            );
            let listed = v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .find(|m| m["move"].as_str() == Some(best))
                .expect("the best move is listed");
            assert_eq!(
                (listed["value"].as_str(), listed["score"].as_i64()),
                (v["value"].as_str(), Some(score)),
                "{algo} {game} {position}: best {best}"
            );
        }
    }
}
