//! `solve` and `analyse` with `--tables DIR`: searches that probe the
//! endgame tables below their root give the tables' values, with the line
//! played to mate; bad directories and options are one-line errors.

use assert_cmd::Command;
use gametree_game::{Game, Outcome};
use gametree_games_chess::Position;
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

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8")
}

/// Positions of KRvKN and of what it captures into, both sides to move.
const POSITIONS: [&str; 6] = [
    "8/8/8/4k3/8/2n5/8/KR6 w - - 0 1",
    "8/8/8/4k3/8/2n5/8/KR6 b - - 0 1",
    "8/3k4/8/8/2N5/8/1K6/7r b - - 0 1",
    "6k1/8/6K1/8/8/8/1n6/R7 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
];

#[test]
fn solve_and_analyse_with_tables_give_the_tables_values() {
    let dir = std::env::temp_dir().join(format!("gametree-tables-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    stdout(gametree().args(["tb", "build", "KRvKN", "--out", d]));
    // One file per ending, named with the side that has pieces as White.
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["KNvK.gtb", "KRvK.gtb", "KRvKN.gtb"]);
    gametree()
        .args(["tb", "stats", "KvKR", "--dir", d])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("ask for KRvK"));
    let mut decisive = 0;
    for fen in POSITIONS {
        let probe = stdout(gametree().args(["tb", "probe", fen, "--dir", d]));
        let value = field(&probe, "value");
        let solved = stdout(gametree().args(["solve", "chess", fen, "--tables", d]));
        assert_eq!(field(&solved, "value"), value, "{fen}");
        let dfpn =
            stdout(gametree().args(["solve", "chess", fen, "--tables", d, "--algo", "dfpn"]));
        assert_eq!(field(&dfpn, "value"), value, "{fen}");
        if value == "draw" {
            continue;
        }
        decisive += 1;
        // The distance, and a line of that many plies that ends in mate.
        let plies: usize = field(&probe, "distance").parse().unwrap();
        let pv = field(&solved, "pv");
        assert_eq!(pv.split(' ').count(), plies, "{fen}: {pv}");
        let mut p: Position = fen.parse().unwrap();
        for m in pv.split(' ') {
            let m = p.parse_uci(m).unwrap_or_else(|e| panic!("{fen}: {m}: {e}"));
            p.try_make(m).unwrap();
        }
        assert_eq!(p.outcome(), Some(Outcome::Loss), "{fen}: {pv} is not mate");
        // The analysis reports the mate in moves, from the first depth.
        let analysis =
            stdout(gametree().args(["analyse", "chess", fen, "--tables", d, "--depth", "1"]));
        let mate = plies.div_ceil(2) as i64 * if value == "win" { 1 } else { -1 };
        assert!(
            analysis.contains(&format!("score mate {mate} ")),
            "{fen}: {analysis}"
        );
    }
    assert!(decisive >= 3, "{decisive} decisive positions");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_tables_are_one_line_errors() {
    let missing = std::env::temp_dir().join(format!("gametree-no-tables-{}", std::process::id()));
    let m = missing.to_str().unwrap();
    let fen = "8/8/8/4k3/8/2n5/8/KR6 w - - 0 1";
    gametree()
        .args(["solve", "chess", fen, "--tables", m])
        .assert()
        .code(2)
        .stderr(contains("--tables"));
    // An empty directory holds no table.
    let empty = std::env::temp_dir().join(format!("gametree-empty-tables-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let e = empty.to_str().unwrap();
    gametree()
        .args(["analyse", "chess", fen, "--tables", e, "--depth", "1"])
        .assert()
        .code(2)
        .stderr(contains("no chess table"));
    // A corrupt table is named.
    std::fs::write(empty.join("KRvKN.gtb"), b"not a table").unwrap();
    gametree()
        .args(["solve", "chess", fen, "--tables", e])
        .assert()
        .code(2)
        .stderr(contains("KRvKN.gtb"));
    // Only alpha-beta and df-pn probe; only chess has tables on disk.
    gametree()
        .args(["solve", "chess", fen, "--tables", e, "--algo", "pns"])
        .assert()
        .code(2)
        .stderr(contains("--algo alphabeta"));
    gametree()
        .args(["solve", "tictactoe", "", "--tables", e])
        .assert()
        .failure()
        .stderr(contains("chess only"));
    let _ = std::fs::remove_dir_all(&empty);
}
