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
//!
//! With `--endings five` (or a comma-separated list of 5-man pawnless
//! endings, `--endings KQQvKQ,KRvKNN`), it times those endings instead,
//! each on all threads: ours (the indexed backward method, as the KQRvKR
//! row) against `rtbgen -g`, which of the two runs first alternating from
//! ending to ending and from round to round; the sub-tables (the 24) are
//! built untimed first by both. It prints each ending's times and ratio,
//! the totals, and the median of the endings' ratios. `five` is all 60
//! 5-man pawnless endings (well over an hour on two cores).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gametree_chess_tables::{FastEndgame, Signature, pawnless_endings};
use gametree_retrograde::Table;

use crate::bench_retrograde::{
    Build, all_24, all_24_in_turn, all_24_scheduled, tablebase_of, timed_build,
};

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
            // A 5-man ending probes its sub-endings' tables there.
            .env("RTBPATH", &self.tables)
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

/// The 5-man pawnless endings of `--endings`: `five` (or `5`) for all 60,
/// else a comma-separated list.
fn five_man(list: &str) -> Result<Vec<Signature>> {
    if matches!(list.trim(), "five" | "5") {
        return Ok(pawnless_endings(5));
    }
    let mut out: Vec<Signature> = Vec::new();
    for text in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let sig: Signature = text
            .parse()
            .with_context(|| format!("--endings: bad ending {text:?}"))?;
        if sig.piece_count() != 5 || sig.has_pawns() {
            bail!("--endings: {sig} is not a 5-man pawnless ending");
        }
        if !out.contains(&sig) {
            out.push(sig);
        }
    }
    if out.is_empty() {
        bail!("--endings: no ending (expected `five` or a list such as KQQvKQ,KRvKNN)");
    }
    Ok(out)
}

/// `--endings`: each 5-man ending of `endings` on every thread, ours and
/// `rtbgen -g`, in `rounds` rounds; per ending, the one that runs first
/// alternates.
fn run_five(syzygy: &Rtbgen, endings: &[Signature], rounds: usize, root: &Path) -> Result<()> {
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let names: Vec<String> = endings.iter().map(ToString::to_string).collect();
    let subs: Vec<String> = all_24().iter().map(ToString::to_string).collect();
    println!(
        "Syzygy's rtbgen ({}) against ours; {} 5-man endings, {rounds} round(s), {threads} thread(s).",
        syzygy.binary.display(),
        names.len()
    );
    let start = Instant::now();
    syzygy.build_tables(&subs, threads)?;
    let (have, _, _) = all_24_scheduled(threads)?;
    println!(
        "The 24 3- and 4-man sub-tables built by both in {:.1} s (untimed setup, in {}).",
        start.elapsed().as_secs_f64(),
        root.display()
    );
    let resolver = tablebase_of(&have)?;
    let mut rows: Vec<Row> = names.iter().map(|n| Row::new(n.clone())).collect();
    for round in 0..rounds {
        for (i, row) in rows.iter_mut().enumerate() {
            let name = &names[i];
            let ours = || -> Result<f64> {
                Ok(timed_build(name, &resolver, Build::Indexed, threads)?.wall)
            };
            if (round + i) % 2 == 1 {
                row.ours.push(ours()?);
                row.syzygy.push(syzygy.generate(name, threads)?);
            } else {
                row.syzygy.push(syzygy.generate(name, threads)?);
                row.ours.push(ours()?);
            }
            eprintln!(
                "round {}, {name}: rtbgen {:.2} s, ours {:.2} s ({:.0} s elapsed)",
                round + 1,
                row.syzygy[round],
                row.ours[round],
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!();
    println!("| ending | rtbgen -g (s) | ours, DTM (s) | ours / rtbgen, per round | median |");
    println!("|---|---|---|---|---:|");
    for row in &rows {
        let ratios = row.ratios();
        println!(
            "| {} | {} | {} | {} | {:.3} |",
            row.what,
            list(&row.syzygy, 2),
            list(&row.ours, 2),
            list(&ratios, 3),
            median(&ratios)
        );
    }
    let mut total = Row::new(format!("total, {} endings", rows.len()));
    for round in 0..rounds {
        total
            .syzygy
            .push(rows.iter().map(|r| r.syzygy[round]).sum());
        total.ours.push(rows.iter().map(|r| r.ours[round]).sum());
    }
    let ratios = total.ratios();
    println!(
        "| {} | {} | {} | {} | {:.3} |",
        total.what,
        list(&total.syzygy, 1),
        list(&total.ours, 1),
        list(&ratios, 3),
        median(&ratios)
    );
    let per_ending: Vec<f64> = rows.iter().map(|r| median(&r.ratios())).collect();
    let faster = per_ending.iter().filter(|&&r| r < 1.0).count();
    println!();
    println!(
        "Median of the endings' ratios (ours / rtbgen): {:.3}; ours faster on {faster} of {} endings.",
        median(&per_ending),
        per_ending.len()
    );
    Ok(())
}

/// Runs the bench: `rounds` alternating rounds; `quick` leaves KQRvKR out;
/// `endings` (`--endings`) times 5-man endings instead ([`run_five`]).
pub(crate) fn run(
    rtbgen: Option<&Path>,
    rounds: usize,
    quick: bool,
    endings: Option<&str>,
) -> Result<()> {
    let Some(binary) = rtbgen else {
        bail!(
            "bench syzygy needs --rtbgen PATH, the Syzygy generator's `rtbgen` \
             (built from github.com/syzygy1/tb's src/; see crates/retrograde/README.md)"
        );
    };
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let five = endings.map(five_man).transpose()?;
    let all = std::thread::available_parallelism().map_or(2, usize::from);
    let thread_counts: Vec<usize> = if all > 1 { vec![1, all] } else { vec![1] };
    let root = std::env::temp_dir().join(format!("gametree-syzygy-{}", std::process::id()));
    let syzygy = Rtbgen::new(binary, &root)?;
    if let Some(endings) = five {
        let result = run_five(&syzygy, &endings, rounds, &root);
        if let Err(e) = std::fs::remove_dir_all(&root) {
            eprintln!("warning: could not remove {}: {e}", root.display());
        }
        return result;
    }
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
            let resolver = tablebase_of(have)?;
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
    fn five_man_lists() {
        assert_eq!(five_man("five").unwrap().len(), 60);
        let some = five_man("KQQvKQ, KRvKNN,KQQvKQ").unwrap();
        let names: Vec<String> = some.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["KQQvKQ", "KRvKNN"]);
        for bad in ["KQvK", "KRPvKR", "KQQvKQQ", "", "KXvK"] {
            assert!(five_man(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_binary_is_a_clear_error() {
        let root =
            std::env::temp_dir().join(format!("gametree-syzygy-test-{}", std::process::id()));
        let Err(e) = Rtbgen::new(Path::new("/nonexistent/rtbgen"), &root) else {
            panic!("a missing binary was accepted");
        };
        assert!(format!("{e:#}").contains("no such file"), "{e:#}");
        let Err(e) = run(None, 1, true, None) else {
            panic!("no --rtbgen was accepted");
        };
        assert!(format!("{e:#}").contains("--rtbgen"), "{e:#}");
    }
}
