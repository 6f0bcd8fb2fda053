//! The printed line of a solved position reaches the end of the game with
//! every solver, the proof-number searches included (they find a first
//! move only; the tool extends the line move by move).

use assert_cmd::Command;
use gametree_game::{Game, Outcome};
use gametree_games_connect4::{Board, Column, Size};

fn field(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
        .to_owned()
}

#[test]
fn connect4_lines_reach_the_end_of_the_game_with_every_solver() {
    let size = Size::new(5, 4).expect("5x4");
    for position in ["2314", "3321", "11223"] {
        for algo in ["alphabeta", "pns", "pn2", "dfpn", "cns"] {
            let out = Command::cargo_bin("gametree")
                .expect("the binary is built")
                .args(["solve", "connect4:5x4", position, "--algo", algo])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            let out = String::from_utf8(out).expect("utf-8");
            let value = field(&out, "value");
            let pv: String = field(&out, "pv").split(' ').collect();
            let mut board = Board::from_moves(size, position).expect("legal");
            let mover = board.side_to_move();
            for c in pv.chars() {
                let col = c.to_digit(10).expect("a column") as usize - 1;
                assert!(
                    board.outcome().is_none(),
                    "{algo} {position}: moves after the end: {pv}"
                );
                let m = Column::new(col).expect("a column");
                assert!(board.is_legal(m), "{algo} {position}: {pv}");
                board.make(m);
            }
            let end = board
                .outcome()
                .unwrap_or_else(|| panic!("{algo} {position}: {pv} stops before the end"));
            let for_mover = if board.side_to_move() == mover {
                end
            } else {
                end.flip()
            };
            let expected = match value.as_str() {
                "win" => Outcome::Win,
                "draw" => Outcome::Draw,
                _ => Outcome::Loss,
            };
            assert_eq!(for_mover, expected, "{algo} {position}: {pv}");
        }
    }
}
