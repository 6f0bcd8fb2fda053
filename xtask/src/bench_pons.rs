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
/// the first `limit` positions of each, `rounds` alternating rounds.
pub(crate) fn run(
    pons: &Path,
    dir: &Path,
    sets: Option<&str>,
    limit: Option<usize>,
    rounds: usize,
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
    let ours: PathBuf = crate::project_root().join("target/release/gametree");
    let cwd = std::env::temp_dir().join(format!("gametree-pons-{}", std::process::id()));
    std::fs::create_dir_all(&cwd)?;
    println!(
        "Connect Four: `gametree solve connect4 - --json` against Pons's c4solver (no opening book), whole processes, {rounds} alternating rounds, medians"
    );
    println!(
        "| set | positions | gametree s | Pons s | gametree / Pons | gametree µs per position | Pons µs per position | wrong (gametree, Pons) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut all_moves: Vec<(&str, usize, (usize, usize))> = Vec::new();
    for set in TestSet::ALL {
        if sets.is_some_and(|s| !s.split(',').any(|s| set.file_name().contains(s))) {
            continue;
        }
        let positions = set
            .load(dir)
            .with_context(|| format!("loading {}", set.file_name()))?;
        let n = limit.unwrap_or(usize::MAX).min(positions.len());
        let input: String = positions[..n]
            .iter()
            .map(|p| format!("{}\n", p.moves))
            .collect();
        let expected: Vec<i64> = positions[..n].iter().map(|p| i64::from(p.score)).collect();
        let (mut ours_t, mut pons_t) = (Vec::new(), Vec::new());
        let (mut ours_wrong, mut pons_wrong) = (0, 0);
        for round in 0..rounds.max(1) {
            let mut run_ours = || -> Result<()> {
                let mut cmd = Command::new(&ours);
                cmd.args(["solve", "connect4", "-", "--json"]);
                let (t, scores) = run_one(&mut cmd, &input)?;
                ours_t.push(t);
                ours_wrong = wrong(&scores, &expected);
                Ok(())
            };
            let mut run_pons = || -> Result<()> {
                let mut cmd = Command::new(&pons);
                cmd.current_dir(&cwd);
                let (t, scores) = run_one(&mut cmd, &input)?;
                pons_t.push(t);
                pons_wrong = wrong(&scores, &expected);
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
        let (o, p) = (median(ours_t), median(pons_t));
        println!(
            "| {} | {n} | {:.3} | {:.3} | {:.2} | {:.1} | {:.1} | {ours_wrong}, {pons_wrong} |",
            set.file_name(),
            o.as_secs_f64(),
            p.as_secs_f64(),
            o.as_secs_f64() / p.as_secs_f64(),
            o.as_secs_f64() * 1e6 / n as f64,
            p.as_secs_f64() * 1e6 / n as f64,
        );
        if ours_wrong > 0 {
            bail!(
                "gametree got {ours_wrong} scores wrong on {}",
                set.file_name()
            );
        }
        let m = ALL_MOVES.min(n);
        let input: String = input.lines().take(m).map(|l| format!("{l}\n")).collect();
        all_moves.push((
            set.file_name(),
            m,
            all_moves_differ(&ours, &pons, &cwd, &input)?,
        ));
    }
    println!();
    println!(
        "Every move's score (`gametree solve --all-moves` against `c4solver -a`), the first {ALL_MOVES} positions of each set:"
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

/// Positions per set whose every move is compared with Pons's analysis.
const ALL_MOVES: usize = 50;

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
