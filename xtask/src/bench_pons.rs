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
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::bench_peer::{Batch, Program, alternate, median, wrong};

/// Pons's `c4solver` in the empty directory `cwd`: it prints `moves score`
/// a line, the score last.
fn pons_program(pons: &Path, cwd: &Path) -> Program {
    let (pons, cwd) = (pons.to_path_buf(), cwd.to_path_buf());
    Program {
        command: Box::new(move || {
            let mut cmd = Command::new(&pons);
            cmd.current_dir(&cwd);
            cmd
        }),
        parse: |line| {
            let score = line.split_whitespace().last().unwrap_or("").parse();
            Ok((
                score.with_context(|| format!("no score in {line:?}"))?,
                None,
            ))
        },
        empty_board: "",
    }
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
    let ours = crate::bench_peer::build_ours()?;
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
    let mut runs: Vec<Batch> = crate::bench_peer::pons_sets(dir, sets, limit)?;
    if let Some((count, seed)) = generated {
        runs.push(crate::bench_peer::generated(count, seed));
    }
    let (ours_program, pons_program) = (
        crate::bench_peer::ours(&ours, &[]),
        pons_program(&pons, &cwd),
    );
    for batch in &runs {
        let (name, n) = (&batch.name, batch.lines.len());
        let (ours_runs, pons_runs) = alternate(&ours_program, &pons_program, batch, rounds)?;
        let ours_scores = &ours_runs.last().expect("a round").scores;
        let pons_scores = &pons_runs.last().expect("a round").scores;
        // A generated set has no file of scores: Pons's are the reference
        // (and he counts as never wrong there).
        let reference = batch.expected.as_ref().unwrap_or(pons_scores);
        let (ours_wrong, pons_wrong) =
            (wrong(ours_scores, reference), wrong(pons_scores, reference));
        let o = median(ours_runs.iter().map(|r| r.wall).collect());
        let p = median(pons_runs.iter().map(|r| r.wall).collect());
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
        let input: String = batch.lines[..m].iter().map(|l| format!("{l}\n")).collect();
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
