//! `cargo xtask fuzz [--time SECONDS] [TARGET...]`: runs the cargo-fuzz
//! targets of `fuzz/` one after the other and prints a table of runs,
//! coverage and crashes.
//!
//! Needs a nightly toolchain (`cargo +nightly`) and cargo-fuzz; cargo-fuzz
//! is installed with `cargo install cargo-fuzz --locked` when missing. Each
//! target runs with debug assertions (so overflow checks) and without a
//! sanitizer by default (the code is safe Rust; `--sanitizer address` turns
//! ASan back on). Its corpus grows in `fuzz/corpus/<target>`; the seeds in
//! `fuzz/seeds/<target>` and the kept crash inputs in
//! `fuzz/regressions/<target>` are run first. A crash input is written to
//! `fuzz/artifacts/<target>/` and makes the task fail.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};

/// Options of `cargo xtask fuzz`.
#[derive(clap::Args)]
pub(crate) struct Options {
    /// Seconds per target.
    #[arg(long, default_value_t = 10)]
    time: u64,
    /// libFuzzer's per-input timeout, in seconds.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// Sanitizer passed to cargo-fuzz (`none`, `address`, ...).
    #[arg(long, default_value = "none")]
    sanitizer: String,
    /// Only list the targets.
    #[arg(long)]
    list: bool,
    /// Targets to run (default: all).
    targets: Vec<String>,
}

/// What one run reported.
#[derive(Debug, Default, PartialEq, Eq)]
struct Stats {
    runs: Option<u64>,
    cov: Option<u64>,
    features: Option<u64>,
    corpus: Option<u64>,
    artifact: Option<String>,
}

/// Reads libFuzzer's output: the last `#N ... cov: X ft: Y corp: Z` line,
/// `stat::number_of_executed_units`, and the path of a crash input.
fn parse_stats(output: &str) -> Stats {
    let mut s = Stats::default();
    let field = |words: &[&str], name: &str| {
        let i = words.iter().position(|w| *w == name)?;
        words.get(i + 1)?.split('/').next()?.parse::<u64>().ok()
    };
    for line in output.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(n) = words.first().and_then(|w| w.strip_prefix('#'))
            && let Ok(n) = n.parse::<u64>()
        {
            s.runs = Some(n);
            s.cov = field(&words, "cov:").or(s.cov);
            s.features = field(&words, "ft:").or(s.features);
            s.corpus = field(&words, "corp:").or(s.corpus);
        }
        if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
            s.runs = n.trim().parse().ok().or(s.runs);
        }
        if let Some(rest) = line.split("Test unit written to ").nth(1) {
            s.artifact = Some(rest.trim().to_owned());
        }
    }
    s
}

fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Checks the toolchain and cargo-fuzz, installing cargo-fuzz if missing.
fn prerequisites() -> Result<()> {
    if !succeeds(Command::new("cargo").args(["+nightly", "--version"])) {
        bail!("no nightly toolchain: `rustup toolchain install nightly` first");
    }
    if !succeeds(Command::new("cargo").args(["fuzz", "--version"])) {
        eprintln!("cargo-fuzz missing: running `cargo install cargo-fuzz --locked`");
        let status = Command::new("cargo")
            .args(["install", "cargo-fuzz", "--locked"])
            .status()
            .context("running cargo install")?;
        if !status.success() {
            bail!("cargo install cargo-fuzz failed");
        }
    }
    Ok(())
}

/// The targets of `fuzz/Cargo.toml` (its `[[bin]]` names).
fn all_targets(fuzz: &Path) -> Result<Vec<String>> {
    let manifest =
        std::fs::read_to_string(fuzz.join("Cargo.toml")).context("reading fuzz/Cargo.toml")?;
    let mut targets = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin
            && let Some(v) = line.strip_prefix("name")
            && let Some(v) = v.trim_start().strip_prefix('=')
        {
            targets.push(v.trim().trim_matches('"').to_owned());
        }
    }
    Ok(targets)
}

fn show(n: Option<u64>) -> String {
    n.map_or_else(|| "?".to_owned(), |n| n.to_string())
}

/// Runs the task; `Ok(false)` when a target crashed.
pub(crate) fn run(opts: &Options) -> Result<bool> {
    let root = crate::project_root();
    let fuzz = root.join("fuzz");
    let all = all_targets(&fuzz)?;
    if opts.list {
        for t in &all {
            println!("{t}");
        }
        return Ok(true);
    }
    let targets = if opts.targets.is_empty() {
        all.clone()
    } else {
        opts.targets.clone()
    };
    if let Some(t) = targets.iter().find(|t| !all.contains(t)) {
        bail!("unknown fuzz target {t:?}; targets: {}", all.join(", "));
    }
    prerequisites()?;
    let common = ["+nightly", "fuzz"];
    let flags = ["--debug-assertions", "--sanitizer", opts.sanitizer.as_str()];
    eprintln!("building {} fuzz target(s)", targets.len());
    for t in &targets {
        let status = Command::new("cargo")
            .args(common)
            .arg("build")
            .args(flags)
            .arg(t)
            .current_dir(&root)
            .status()
            .context("running cargo fuzz build")?;
        if !status.success() {
            bail!("cargo fuzz build {t} failed");
        }
    }
    let mut rows = Vec::new();
    let mut ok = true;
    for t in &targets {
        let corpus = fuzz.join("corpus").join(t);
        std::fs::create_dir_all(&corpus).context("creating the corpus directory")?;
        let mut cmd = Command::new("cargo");
        cmd.args(common).arg("run").args(flags).arg(t).arg(&corpus);
        for extra in ["seeds", "regressions"] {
            let dir = fuzz.join(extra).join(t);
            if dir.is_dir() {
                cmd.arg(dir);
            }
        }
        cmd.arg("--")
            .arg(format!("-max_total_time={}", opts.time))
            .arg(format!("-timeout={}", opts.timeout))
            .arg("-print_final_stats=1")
            .current_dir(&root);
        eprintln!("fuzzing {t} for {} s", opts.time);
        let started = Instant::now();
        let out = cmd.output().context("running cargo fuzz run")?;
        let seconds = started.elapsed().as_secs_f64();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let stats = parse_stats(&text);
        let crashed = !out.status.success();
        if crashed {
            ok = false;
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            eprintln!("--- {t} failed; last lines:");
            for line in tail.iter().rev() {
                eprintln!("{line}");
            }
        }
        rows.push((t.clone(), seconds, stats, crashed));
    }
    println!();
    println!(
        "{:<20} {:>8} {:>12} {:>7} {:>7} {:>7}  result",
        "target", "seconds", "runs", "cov", "ft", "corpus"
    );
    for (t, seconds, s, crashed) in &rows {
        let result = if *crashed {
            format!("CRASH {}", s.artifact.as_deref().unwrap_or("(no artifact)"))
        } else {
            "ok".to_owned()
        };
        println!(
            "{t:<20} {seconds:>8.1} {:>12} {:>7} {:>7} {:>7}  {result}",
            show(s.runs),
            show(s.cov),
            show(s.features),
            show(s.corpus)
        );
    }
    let crashes = rows.iter().filter(|r| r.3).count();
    println!("{} target(s), {crashes} crash(es)", rows.len());
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzer_final_stats() {
        let out = "INFO: Seed: 1\n\
            #2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n\
            #4096\tpulse  cov: 50 ft: 60 corp: 7/90b lim: 43 exec/s: 2048 rss: 31Mb\n\
            #52311\tDONE   cov: 57 ft: 71 corp: 9/120b lim: 400 exec/s: 5230 rss: 33Mb\n\
            Done 52311 runs in 11 second(s)\n\
            stat::number_of_executed_units: 52312\n";
        let s = parse_stats(out);
        assert_eq!(
            (s.runs, s.cov, s.features, s.corpus),
            (Some(52312), Some(57), Some(71), Some(9))
        );
        assert_eq!(s.artifact, None);
    }

    #[test]
    fn reads_the_crash_artifact() {
        let out = "#100\tNEW    cov: 5 ft: 5 corp: 2/3b\n\
            thread '<unnamed>' panicked at src/lib.rs:1:1:\n\
            ==1== ERROR: libFuzzer: deadly signal\n\
            artifact_prefix='fuzz/artifacts/t/'; Test unit written to fuzz/artifacts/t/crash-abc\n";
        let s = parse_stats(out);
        assert_eq!(s.artifact.as_deref(), Some("fuzz/artifacts/t/crash-abc"));
        assert_eq!((s.runs, s.cov), (Some(100), Some(5)));
    }

    #[test]
    fn lists_the_targets_of_the_fuzz_manifest() {
        let fuzz = crate::project_root().join("fuzz");
        let targets = all_targets(&fuzz).unwrap();
        assert!(targets.iter().any(|t| t == "tictactoe_playout"));
        for t in &targets {
            assert!(
                fuzz.join("fuzz_targets").join(format!("{t}.rs")).is_file(),
                "{t}"
            );
        }
    }
}
