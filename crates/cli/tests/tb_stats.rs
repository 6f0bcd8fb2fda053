//! `gametree tb stats --json` on every chess ending of 3 and 4 pieces,
//! with and without pawns, equals the Syzygy generator's published
//! statistics (the corpus of `gametree-verify`), and the text output
//! labels the two ways of counting.

use assert_cmd::Command;

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8")
}

/// The published figures: `(ending, [White to move: win, draw, loss],
/// [Black to move: ...])`.
fn published() -> Vec<(String, [u64; 3], [u64; 3])> {
    let counts = |w: gametree_verify::data::WinDrawLoss| [w.wins, w.draws, w.losses];
    gametree_verify::data::syzygy_3_4_men()
        .unwrap()
        .iter()
        .map(|e| (e.ending.clone(), counts(e.wtm), counts(e.btm)))
        .collect()
}

/// The same for the 3- and 4-man endings with pawns.
fn published_with_pawns() -> Vec<(String, [u64; 3], [u64; 3])> {
    let counts = |w: gametree_verify::data::WinDrawLoss| [w.wins, w.draws, w.losses];
    gametree_verify::data::syzygy_3_4_men_pawns()
        .unwrap()
        .iter()
        .map(|e| (e.ending.clone(), counts(e.wtm), counts(e.btm)))
        .collect()
}

fn wdl_json(key: &str, c: [u64; 3]) -> String {
    format!(
        "\"{key}\": {{\"win\": {}, \"draw\": {}, \"loss\": {}}}",
        c[0], c[1], c[2]
    )
}

#[test]
fn tb_stats_json_equals_the_syzygy_statistics_of_every_3_and_4_man_ending() {
    // `tb build chess:4` builds the 20 pawnless endings and the 10 with
    // pawns (KPvK comes with them); `tb stats` reads each from the files.
    let dir = std::env::temp_dir().join(format!("gametree-cli-syzygy-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = stdout(gametree().args(["tb", "build", "chess:4", "--out", d, "--threads", "2"]));
    // 20 pawnless endings, then the 10 with pawns.
    assert_eq!(out.lines().count(), 30, "{out}");
    let rows = published();
    assert_eq!(rows.len(), 24);
    let pawns = published_with_pawns();
    assert_eq!(pawns.len(), 11);
    for (ending, wtm, btm) in rows.iter().chain(&pawns) {
        let out = stdout(gametree().args(["tb", "stats", ending, "--dir", d, "--json"]));
        let expected = format!("{}, {}", wdl_json("wtm", *wtm), wdl_json("btm", *btm));
        assert!(
            out.contains(&expected),
            "{ending}: {out}\nexpected {expected}"
        );
    }
    // Text: both ways of counting, labelled; KBBvK's index counts each
    // class of positions with the bishops unordered once, so its counts
    // differ from Syzygy's.
    let out = stdout(gametree().args(["tb", "stats", "KBBvK", "--dir", d]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("counted: wtm/btm: Syzygy convention"),
        "{out}"
    );
    let (_, kbbk, _) = rows.iter().find(|(e, _, _)| e == "KBBvK").unwrap();
    assert_eq!(
        lines[2],
        format!(
            "wtm: win: {}; draw: {}; loss: {}",
            kbbk[0], kbbk[1], kbbk[2]
        ),
        "{out}"
    );
    let raw = lines[4].strip_prefix("raw_wtm: ").unwrap();
    assert!(
        raw.starts_with("win: ") && raw != &lines[2]["wtm: ".len()..],
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
