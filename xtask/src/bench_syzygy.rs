//! `cargo xtask bench syzygy --rtbgen PATH`: the retrograde generator's
//! chess builds against the Syzygy generator's table-building phase, in
//! the same run.
//!
//! The peer is the Syzygy generator (`rtbgen` of github.com/syzygy1/tb,
//! WDL + DTZ, compression excluded). A machine's speed drifts by more than
//! the gaps being measured, so this bench times both generators in
//! alternating rounds and reports the ratios, which is what to read.
//!
//! `rtbgen` is not part of this repository (nor built by it): build it from
//! its own sources and pass the binary's path (the retrograde README says
//! how). It is run as a separate process: first every ending in full
//! (untimed, in a scratch directory, so that each 4-man ending finds the
//! `.rtbw` files of its sub-endings through `RTBWDIR`), then, timed,
//! `rtbgen -g -t T ENDING` (`-g`: generate and print the statistics, no
//! compression, no files), wall clock from start to exit of the process
//! (so its start-up and its reading of the sub-tables count: well under
//! 0.01 s on a 3-man ending).
//!
//! Ours: the indexed backward method over `FastEndgame`, distance to mate,
//! each ending after its sub-endings, wall clock of the build alone (as
//! `cargo xtask bench retrograde`). Per round, on one thread and on all
//! threads: the 24 3-4-man pawnless endings one after another (each
//! generator's sum over the endings; ours also scheduled several at a time,
//! which `rtbgen` has no counterpart for), and, unless `--quick`, KQRvKR
//! (whose sub-endings are among the 24). The order of the two generators
//! alternates from round to round.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gametree_chess_tables::{FastEndgame, SubTables};
use gametree_retrograde::Table;

use crate::bench_retrograde::{Build, all_24, all_24_in_turn, all_24_scheduled, timed_build};

/// The 5-man ending of the targets; its sub-endings are 4-man ones.
const FIVE: &str = "KQRvKR";

/// The Syzygy generator and its scratch directories.
struct Rtbgen {
    binary: PathBuf,
    /// Full tables of the 24 endings (`RTBWDIR`).
    tables: PathBuf,
    /// Working directory of the timed runs (they write nothing, but a
    /// failed run must not leave files among the tables).
    work: PathBuf,
}

impl Rtbgen {
    /// Checks the binary and creates the scratch directories under `root`.
    fn new(binary: &Path, root: &Path) -> Result<Rtbgen> {
        let binary = binary
            .canonicalize()
            .with_context(|| format!("--rtbgen {}: no such file", binary.display()))?;
        let tables = root.join("tables");
        let work = root.join("work");
        for dir in [&tables, &work] {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        Ok(Rtbgen {
            binary,
            tables,
            work,
        })
    }

    /// Runs `rtbgen [args] ending` in `dir`; returns the wall-clock time.
    fn run(&self, dir: &Path, args: &[&str], ending: &str) -> Result<f64> {
        let start = Instant::now();
        let output = Command::new(&self.binary)
            .args(args)
            .arg(ending)
            .current_dir(dir)
            .env("RTBWDIR", &self.tables)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .with_context(|| format!("cannot run {}", self.binary.display()))?;
        let wall = start.elapsed().as_secs_f64();
        if !output.status.success() {
            bail!(
                "{} {} {ending} failed ({}): {}",
                self.binary.display(),
                args.join(" "),
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        Ok(wall)
    }

    /// Builds the full tables (WDL and DTZ files) of `endings`, in order.
    fn build_tables(&self, endings: &[String], threads: usize) -> Result<()> {
        let t = threads.to_string();
        for ending in endings {
            self.run(&self.tables, &["-t", &t], ending)?;
            if !self.tables.join(format!("{ending}.rtbw")).is_file() {
                bail!("rtbgen {ending} wrote no {ending}.rtbw");
            }
        }
        Ok(())
    }

    /// The table-building phase of `ending` on `threads` threads (`-g`).
    fn generate(&self, ending: &str, threads: usize) -> Result<f64> {
        self.run(&self.work, &["-g", "-t", &threads.to_string()], ending)
    }
}

/// The median of `xs` (the mean of the middle two for an even count);
/// `NaN` when empty.
fn median(xs: &[f64]) -> f64 {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        f64::midpoint(v[n / 2 - 1], v[n / 2])
    }
}

/// One measurement per round: what is built, by whom, and its times.
struct Row {
    what: String,
    ours: Vec<f64>,
    syzygy: Vec<f64>,
}

impl Row {
    fn new(what: String) -> Row {
        Row {
            what,
            ours: Vec::new(),
            syzygy: Vec::new(),
        }
    }

    /// Ours over Syzygy's, round by round.
    fn ratios(&self) -> Vec<f64> {
        self.ours
            .iter()
            .zip(&self.syzygy)
            .map(|(a, b)| a / b)
            .collect()
    }
}

fn list(xs: &[f64], digits: usize) -> String {
    xs.iter()
        .map(|x| format!("{x:.digits$}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs the bench: `rounds` alternating rounds; `quick` leaves KQRvKR out.
pub(crate) fn run(rtbgen: Option<&Path>, rounds: usize, quick: bool) -> Result<()> {
    let Some(binary) = rtbgen else {
        bail!(
            "bench syzygy needs --rtbgen PATH, the Syzygy generator's `rtbgen` \
             (built from github.com/syzygy1/tb's src/; see crates/retrograde/README.md)"
        );
    };
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let all = std::thread::available_parallelism().map_or(2, usize::from);
    let thread_counts: Vec<usize> = if all > 1 { vec![1, all] } else { vec![1] };
    let root = std::env::temp_dir().join(format!("gametree-syzygy-{}", std::process::id()));
    let syzygy = Rtbgen::new(binary, &root)?;
    let names: Vec<String> = all_24().iter().map(ToString::to_string).collect();
    println!(
        "Syzygy's rtbgen ({}) against ours; {} endings, {rounds} round(s), threads {thread_counts:?}.",
        syzygy.binary.display(),
        names.len()
    );
    let start = Instant::now();
    syzygy.build_tables(&names, all)?;
    println!(
        "rtbgen's full tables of the {} endings built in {:.1} s (untimed setup, in {}).",
        names.len(),
        start.elapsed().as_secs_f64(),
        root.display()
    );
    let mut rows: Vec<Row> = Vec::new();
    for &t in &thread_counts {
        rows.push(Row::new(format!(
            "24 endings, {t} thread(s), one at a time"
        )));
    }
    if all > 1 {
        rows.push(Row::new(format!(
            "24 endings, {all} threads, ours scheduled"
        )));
    }
    if !quick {
        for &t in &thread_counts {
            rows.push(Row::new(format!("{FIVE}, {t} thread(s)")));
        }
    }
    // The sub-tables of our 5-man build: the 24 of the first round.
    let mut subs: Option<Vec<(FastEndgame, Table)>> = None;
    for round in 0..rounds {
        let ours_first = round % 2 == 1;
        let mut k = 0;
        let measure = |row: &mut Row,
                       ours: &mut dyn FnMut() -> Result<f64>,
                       theirs: &mut dyn FnMut() -> Result<f64>|
         -> Result<()> {
            if ours_first {
                row.ours.push(ours()?);
                row.syzygy.push(theirs()?);
            } else {
                row.syzygy.push(theirs()?);
                row.ours.push(ours()?);
            }
            Ok(())
        };
        for &t in &thread_counts {
            measure(
                &mut rows[k],
                &mut || {
                    let (have, wall, _) = all_24_in_turn(Build::Indexed, t)?;
                    subs.get_or_insert(have);
                    Ok(wall)
                },
                &mut || names.iter().map(|e| syzygy.generate(e, t)).sum(),
            )?;
            k += 1;
        }
        if all > 1 {
            // rtbgen has no scheduler: its figure is the one-at-a-time sum.
            let theirs = rows[k - 1].syzygy[round];
            measure(
                &mut rows[k],
                &mut || Ok(all_24_scheduled(all)?.1),
                &mut || Ok(theirs),
            )?;
            k += 1;
        }
        if !quick {
            let Some(have) = subs.as_ref() else {
                bail!("the 24 endings were not built");
            };
            let resolver = SubTables::new(have.iter());
            for &t in &thread_counts {
                measure(
                    &mut rows[k],
                    &mut || Ok(timed_build(FIVE, &resolver, Build::Indexed, t)?.wall),
                    &mut || syzygy.generate(FIVE, t),
                )?;
                k += 1;
            }
        }
        println!(
            "round {} done ({} first), {:.0} s elapsed",
            round + 1,
            if ours_first { "ours" } else { "rtbgen" },
            start.elapsed().as_secs_f64()
        );
    }
    println!();
    println!(
        "| build | rtbgen -g (s) | ours, DTM (s) | ours / rtbgen, per round | median | ours faster |"
    );
    println!("|---|---|---|---|---:|---:|");
    for row in &rows {
        let ratios = row.ratios();
        let faster = ratios.iter().filter(|&&r| r < 1.0).count();
        println!(
            "| {} | {} | {} | {} | {:.3} | {faster} of {} |",
            row.what,
            list(&row.syzygy, 2),
            list(&row.ours, 2),
            list(&ratios, 3),
            median(&ratios),
            ratios.len()
        );
    }
    if let Err(e) = std::fs::remove_dir_all(&root) {
        eprintln!("warning: could not remove {}: {e}", root.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(median(&[f64::NAN, 5.0]), 5.0);
    }

    #[test]
    fn ratios_pair_rounds() {
        let row = Row {
            what: String::new(),
            ours: vec![1.0, 3.0],
            syzygy: vec![2.0, 2.0],
        };
        assert_eq!(row.ratios(), vec![0.5, 1.5]);
    }

    #[test]
    fn a_missing_binary_is_a_clear_error() {
        let root =
            std::env::temp_dir().join(format!("gametree-syzygy-test-{}", std::process::id()));
        let Err(e) = Rtbgen::new(Path::new("/nonexistent/rtbgen"), &root) else {
            panic!("a missing binary was accepted");
        };
        assert!(format!("{e:#}").contains("no such file"), "{e:#}");
        let Err(e) = run(None, 1, true) else {
            panic!("no --rtbgen was accepted");
        };
        assert!(format!("{e:#}").contains("--rtbgen"), "{e:#}");
    }
}
