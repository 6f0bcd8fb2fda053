//! `cargo xtask bench connect4 --pons PATH`: the `gametree` command-line
//! solver (the path users get: `gametree solve connect4 -`) against Pascal
//! Pons's `c4solver`, whole processes on the same positions, in alternating
//! rounds; every score of both checked against the set's file.
//!
//! The peer is not in the repository: build it from its public source
//! (github.com/PascalPons/connect4: `make c4solver`, a C++11 compiler). It
//! runs without its opening book (it looks for `7x6.book` in its working
//! directory, which here is an empty temporary one), as ours has none.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gametree_verify::data::pons::TestSet;

/// One whole-process run: its wall time and the scores it printed, in order.
fn run_one(cmd: &mut Command, input: &str) -> Result<(Duration, Vec<i64>)> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("running {cmd:?}"))?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())?;
    let out = child.wait_with_output()?;
    let took = start.elapsed();
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", out.status);
    }
    // Both print one line per position whose last number is the score
    // (ours: `--json`'s "score" field; Pons: `moves score`).
    let text = String::from_utf8_lossy(&out.stdout);
    let scores = text
        .lines()
        .map(|l| {
            if let Some(rest) = l.split("\"score\": ").nth(1) {
                rest.split([',', '}']).next().unwrap_or("").trim().parse()
            } else {
                l.split_whitespace().last().unwrap_or("").parse()
            }
            .with_context(|| format!("no score in {l:?}"))
        })
        .collect::<Result<Vec<i64>>>()?;
    Ok((took, scores))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs the comparison on every set of `dir` whose name contains one of the
/// comma-separated `sets`,
/// the first `limit` positions of each, `rounds` alternating rounds; every
/// move's score of the first `all_moves` positions of each.
pub(crate) fn run(
    pons: &Path,
    dir: &Path,
    sets: Option<&str>,
    limit: Option<usize>,
    rounds: usize,
    generated: Option<(usize, u64)>,
    all_moves_limit: usize,
) -> Result<()> {
    if !pons.is_file() {
        bail!(
            "--pons {}: no such file (build c4solver from github.com/PascalPons/connect4 with `make c4solver`)",
            pons.display()
        );
    }
    let pons = pons.canonicalize()?;
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-q", "-p", "gametree-cli"])
        .current_dir(crate::project_root())
        .status()?;
    if !status.success() {
        bail!("building gametree failed");
    }
    // The binary the build above wrote (under $CARGO_TARGET_DIR when set).
    let ours: PathBuf = crate::target_dir().join("release/gametree");
    let cwd = std::env::temp_dir().join(format!("gametree-pons-{}", std::process::id()));
    std::fs::create_dir_all(&cwd)?;
    println!(
        "Connect Four: `gametree solve connect4 - --json` against Pons's c4solver (no opening book), whole processes, {rounds} alternating rounds, medians"
    );
    println!(
        "| set | positions | gametree s | Pons s | gametree / Pons | gametree µs per position | Pons µs per position | wrong (gametree, Pons) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut all_moves: Vec<(String, usize, (usize, usize))> = Vec::new();
    // (name, move strings, scores: `None` for a generated set, whose
    // reference is Pons's own output)
    let mut runs: Vec<(String, Vec<String>, Option<Vec<i64>>)> = Vec::new();
    for set in TestSet::ALL {
        // `--sets L1_R2,L1_R3:100`: a set's own limit after a colon.
        let mut chosen = None;
        for spec in sets.unwrap_or("").split(',') {
            let (name, own) = match spec.split_once(':') {
                Some((name, n)) => (
                    name,
                    Some(n.parse::<usize>().with_context(|| {
                        format!("--sets {spec:?}: the limit after ':' is not a number")
                    })?),
                ),
                None => (spec, None),
            };
            if sets.is_none() || set.file_name().contains(name) {
                chosen = Some(own.or(limit));
                break;
            }
        }
        let Some(own_limit) = chosen else {
            continue;
        };
        let positions = set
            .load(dir)
            .with_context(|| format!("loading {}", set.file_name()))?;
        let n = own_limit.unwrap_or(usize::MAX).min(positions.len());
        runs.push((
            set.file_name().to_string(),
            positions[..n].iter().map(|p| p.moves.clone()).collect(),
            Some(positions[..n].iter().map(|p| i64::from(p.score)).collect()),
        ));
    }
    if let Some((count, seed)) = generated {
        runs.push((
            format!("generated 8-12 plies (seed {seed})"),
            generate(count, seed),
            None,
        ));
    }
    for (name, lines, expected) in &runs {
        let n = lines.len();
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let (mut ours_t, mut pons_t) = (Vec::new(), Vec::new());
        let (mut ours_scores, mut pons_scores) = (Vec::new(), Vec::new());
        for round in 0..rounds.max(1) {
            let mut run_ours = || -> Result<()> {
                let mut cmd = Command::new(&ours);
                cmd.args(["solve", "connect4", "-", "--json"]);
                let (t, scores) = run_one(&mut cmd, &input)?;
                ours_t.push(t);
                ours_scores = scores;
                Ok(())
            };
            let mut run_pons = || -> Result<()> {
                let mut cmd = Command::new(&pons);
                cmd.current_dir(&cwd);
                let (t, scores) = run_one(&mut cmd, &input)?;
                pons_t.push(t);
                pons_scores = scores;
                Ok(())
            };
            if round % 2 == 0 {
                run_ours()?;
                run_pons()?;
            } else {
                run_pons()?;
                run_ours()?;
            }
        }
        // A generated set has no file of scores: Pons's are the reference
        // (and he counts as never wrong there).
        let reference = expected.as_ref().unwrap_or(&pons_scores);
        let (ours_wrong, pons_wrong) = (
            wrong(&ours_scores, reference),
            wrong(&pons_scores, reference),
        );
        let (o, p) = (median(ours_t), median(pons_t));
        println!(
            "| {name} | {n} | {:.3} | {:.3} | {:.2} | {:.1} | {:.1} | {ours_wrong}, {pons_wrong} |",
            o.as_secs_f64(),
            p.as_secs_f64(),
            o.as_secs_f64() / p.as_secs_f64(),
            o.as_secs_f64() * 1e6 / n as f64,
            p.as_secs_f64() * 1e6 / n as f64,
        );
        if ours_wrong > 0 {
            bail!("gametree got {ours_wrong} scores wrong on {name}");
        }
        let m = all_moves_limit.min(n);
        let input: String = input.lines().take(m).map(|l| format!("{l}\n")).collect();
        all_moves.push((
            name.clone(),
            m,
            all_moves_differ(&ours, &pons, &cwd, &input)?,
        ));
    }
    println!();
    println!(
        "Every move's score (`gametree solve --all-moves` against `c4solver -a`), the first {all_moves_limit} positions of each set:"
    );
    println!("| set | positions | moves compared | differences |");
    println!("|---|---:|---:|---:|");
    for (name, m, (compared, differ)) in &all_moves {
        println!("| {name} | {m} | {compared} | {differ} |");
    }
    let _ = std::fs::remove_dir_all(&cwd);
    if all_moves.iter().any(|(_, _, (_, d))| *d > 0) {
        bail!("some move scores differ from Pons's analysis");
    }
    Ok(())
}

/// `count` distinct positions of 8 to 12 plies (uniformly), reached by
/// seeded random play from the empty 7 x 6 board, none over and none where
/// the side to move connects four at once, in Pons's notation.
fn generate(count: usize, seed: u64) -> Vec<String> {
    use gametree_game::Game;
    use gametree_games_connect4::Board;
    use rand_core::Rng;
    let mut rng = gametree_verify::rng(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut moves = <Board as Game>::Moves::default();
    while out.len() < count {
        let plies = 8 + rng.next_u64() % 5;
        let mut b = Board::standard();
        for _ in 0..plies {
            if b.outcome().is_some() {
                break;
            }
            b.generate(&mut moves);
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            b.make(m);
        }
        if b.plies() as u64 == plies
            && b.outcome().is_none()
            && b.winning_move().is_none()
            && seen.insert(b.key())
        {
            out.push(b.to_string());
        }
    }
    out
}

/// Every move's score of each position of `input`: ours (`--all-moves`)
/// against Pons's (`-a`, a score per column, -1000 for a full one). Returns
/// (moves compared, differences).
fn all_moves_differ(ours: &Path, pons: &Path, cwd: &Path, input: &str) -> Result<(usize, usize)> {
    let output = |cmd: &mut Command| -> Result<String> {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(input.as_bytes())?;
        Ok(String::from_utf8_lossy(&child.wait_with_output()?.stdout).into_owned())
    };
    let mine =
        output(Command::new(ours).args(["solve", "connect4", "-", "--json", "--all-moves"]))?;
    let theirs = output(Command::new(pons).arg("-a").current_dir(cwd))?;
    let (mut compared, mut differ) = (0, 0);
    for (line, peer) in mine.lines().zip(theirs.lines()) {
        let peer: Vec<i64> = peer
            .split_whitespace()
            .skip(1)
            .map(|t| t.parse().unwrap_or(-1000))
            .collect();
        let moves = line.split("\"moves\": [").nth(1).unwrap_or("");
        let mut seen = 0;
        for m in moves.split("{\"move\": \"").skip(1) {
            let col: usize = m[..1].parse::<usize>().unwrap_or(0);
            let score: Option<i64> = m
                .split("\"score\": ")
                .nth(1)
                .and_then(|r| r.split(['}', ',']).next())
                .and_then(|t| t.trim().parse().ok());
            compared += 1;
            seen += 1;
            if col == 0 || peer.get(col - 1).copied() != score {
                differ += 1;
            }
        }
        // Columns Pons can play that we did not list.
        differ += peer.iter().filter(|&&s| s != -1000).count().abs_diff(seen);
    }
    Ok((compared, differ))
}

/// How many of `got` differ from `expected` (a missing line counts).
fn wrong(got: &[i64], expected: &[i64]) -> usize {
    expected.len().abs_diff(got.len()) + got.iter().zip(expected).filter(|(g, e)| g != e).count()
}
