//! `cargo xtask bench connect4 --steininger PATH`: the `gametree`
//! command-line solver against Christophe Steininger's Connect Four solver
//! (github.com/ChristopheSteininger/c4), whole processes on the same
//! positions in alternating rounds, both with one thread and a table of the
//! same size kept from one position to the next; every score of both
//! checked (against the set's file, else against each other).
//!
//! The peer is not in the repository, and has no front end for Pons's line
//! format: PATH is our driver, `xtask/peers/steininger_driver.cpp`, built
//! against a checkout of his solver by `xtask/peers/build_steininger.sh`
//! (its table size is a compile-time constant: one build per size).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::bench_peer::{Batch, Program, Run, alternate, median, wrong};

/// What to run: the sets, the generated positions, the empty board.
pub(crate) struct Workload<'a> {
    /// Directory of Pons's sets.
    pub(crate) dir: &'a Path,
    /// `--sets`, as for `--pons` (comma-separated, `NAME:LIMIT`); `None`:
    /// every set.
    pub(crate) sets: Option<&'a str>,
    pub(crate) limit: Option<usize>,
    /// (count, seed) of generated 8-12-ply positions.
    pub(crate) generated: Option<(usize, u64)>,
    /// Also the empty 7 x 6 board.
    pub(crate) empty: bool,
    pub(crate) rounds: usize,
}

/// The table size `text` (`64M`, `1G`: powers of 1024) in bytes.
fn table_bytes(text: &str) -> Result<u64> {
    let t = text.trim();
    let (number, shift) = match t.char_indices().last() {
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        _ => bail!("--tt {text:?}: a size in MiB or GiB, e.g. 64M or 1G"),
    };
    let n: u64 = number
        .parse()
        .with_context(|| format!("--tt {text:?}: a whole number of MiB or GiB, e.g. 64M or 1G"))?;
    Ok(n << shift)
}

/// The driver at `path`, checked (by its `--info`) to run one thread with a
/// table within 1 % of `bytes`; returns its program and its table entries.
fn driver(path: &Path, bytes: u64) -> Result<(Program, u64)> {
    let build = "build it with xtask/peers/build_steininger.sh C4_CHECKOUT OUT_DIR \
         (see crates/games-connect4/README.md)";
    if !path.is_file() {
        bail!("--steininger {}: no such file ({build})", path.display());
    }
    let path = path.canonicalize()?;
    let out = Command::new(&path).arg("--info").output()?;
    let info = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = info.split_whitespace().collect();
    let field = |key: &str| -> Option<u64> {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1)?.parse().ok()
    };
    let (Some(entries), Some(his_bytes), Some(threads)) =
        (field("entries"), field("bytes"), field("threads"))
    else {
        bail!(
            "--steininger {}: `--info` printed {info:?}, not our driver's settings ({build})",
            path.display()
        );
    };
    if threads != 1 || his_bytes.abs_diff(bytes) * 100 > bytes {
        bail!(
            "--steininger {}: built with {threads} threads and a {his_bytes}-byte table; --tt asks for one thread and {bytes} bytes ({build}: steininger-64m, steininger-1g)",
            path.display()
        );
    }
    let program = Program {
        command: Box::new(move || Command::new(&path)),
        parse: parse_driver,
        empty_board: "",
    };
    Ok((program, entries))
}

/// A line of the driver: `moves score nodes` (`moves` empty for the empty
/// board).
fn parse_driver(line: &str) -> Result<(i64, Option<u64>)> {
    let mut fields = line.split_whitespace().rev();
    let (Some(nodes), Some(score)) = (fields.next(), fields.next()) else {
        bail!("not `moves score nodes`: {line:?}");
    };
    Ok((
        score
            .parse()
            .with_context(|| format!("no score in {line:?}"))?,
        Some(
            nodes
                .parse()
                .with_context(|| format!("no nodes in {line:?}"))?,
        ),
    ))
}

/// Runs the comparison with tables of `tt` (`64M` or `1G`) on `work`.
pub(crate) fn run(steininger: &Path, tt: &str, work: &Workload<'_>) -> Result<()> {
    let bytes = table_bytes(tt)?;
    let (peer, entries) = driver(steininger, bytes)?;
    let ours = crate::bench_peer::ours(&crate::bench_peer::build_ours()?, &["--tt", tt]);
    let mut batches = crate::bench_peer::pons_sets(work.dir, work.sets, work.limit)?;
    if let Some((count, seed)) = work.generated {
        batches.push(crate::bench_peer::generated(count, seed));
    }
    if work.empty {
        // The empty board's score is Pons's +1: the first player wins with
        // the 41st stone (Allis; Tromp).
        batches.push(Batch {
            name: "empty 7x6 board".to_owned(),
            lines: vec![String::new()],
            expected: Some(vec![1]),
        });
    }
    println!(
        "Connect Four: `gametree solve connect4 - --json --tt {tt}` against Steininger's c4 (our driver, one thread, {entries} table entries), whole processes, tables kept between positions, {} alternating rounds, medians (CPU: user + system, 10 ms ticks)",
        work.rounds.max(1)
    );
    println!(
        "| set | positions | gametree CPU s | Steininger CPU s | CPU ratio | gametree wall s | Steininger wall s | wall ratio | gametree mean nodes | Steininger mean nodes | nodes ratio | wrong (gametree, Steininger) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut failures = Vec::new();
    for batch in &batches {
        let (mine, theirs) = alternate(&ours, &peer, batch, work.rounds)?;
        let (ours_wrong, his_wrong) = row(batch, &mine, &theirs);
        if ours_wrong + his_wrong > 0 {
            failures.push(format!(
                "{}: {ours_wrong} gametree, {his_wrong} Steininger",
                batch.name
            ));
        }
    }
    if !failures.is_empty() {
        bail!("wrong scores: {}", failures.join("; "));
    }
    Ok(())
}

/// Prints the table row of `batch` from both programs' runs; returns the
/// wrong scores of (ours, his): against the set's file, or each other's
/// for generated positions (his the reference).
fn row(batch: &Batch, mine: &[Run], theirs: &[Run]) -> (usize, usize) {
    let n = batch.lines.len();
    let (ours_last, his_last) = (
        mine.last().expect("a round"),
        theirs.last().expect("a round"),
    );
    let reference = batch.expected.as_ref().unwrap_or(&his_last.scores);
    let wrong_counts = (
        wrong(&ours_last.scores, reference),
        wrong(&his_last.scores, reference),
    );
    let secs =
        |runs: &[Run], f: fn(&Run) -> Duration| median(runs.iter().map(f).collect()).as_secs_f64();
    let (oc, hc) = (secs(mine, |r| r.cpu), secs(theirs, |r| r.cpu));
    let (ow, hw) = (secs(mine, |r| r.wall), secs(theirs, |r| r.wall));
    let mean = |r: &Run| r.nodes.map(|k| k as f64 / n.max(1) as f64);
    let (on, hn) = (mean(ours_last), mean(his_last));
    let show = |x: Option<f64>| x.map_or("n/a".to_owned(), |v| format!("{v:.0}"));
    let nodes_ratio = on
        .zip(hn)
        .map_or("n/a".to_owned(), |(a, b)| format!("{:.2}", a / b));
    println!(
        "| {} | {n} | {oc:.2} | {hc:.2} | {} | {ow:.3} | {hw:.3} | {:.2} | {} | {} | {nodes_ratio} | {}, {} |",
        batch.name,
        if hc > 0.0 {
            format!("{:.2}", oc / hc)
        } else {
            "n/a".to_owned()
        },
        ow / hw,
        show(on),
        show(hn),
        wrong_counts.0,
        wrong_counts.1,
    );
    wrong_counts
}

#[cfg(test)]
mod tests {
    use super::{parse_driver, table_bytes};

    #[test]
    fn sizes_and_driver_lines_parse() {
        assert_eq!(table_bytes("64M").unwrap(), 64 << 20);
        assert_eq!(table_bytes("1G").unwrap(), 1 << 30);
        assert!(table_bytes("64").is_err());
        assert_eq!(parse_driver("4453 -3 1200").unwrap(), (-3, Some(1200)));
        assert_eq!(
            parse_driver(" 1 100400000").unwrap(),
            (1, Some(100_400_000))
        );
        assert!(parse_driver("4453").is_err());
    }
}
