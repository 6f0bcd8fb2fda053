//! `gametree tb build` resumes after a crash: a build killed (SIGKILL)
//! after some tables are written leaves only whole tables under their
//! names; the same command run again loads those, builds the rest, and
//! ends with the same tables as a build from scratch. Temporary files of
//! a write cut short are never read.
//!
//! The kill must come before the build ends, whatever the machine's
//! speed: a named pipe under the name of the first table to build
//! (`KQvK.gtb`) makes the build block there forever (a file under a
//! table's name is loaded, and opening a pipe waits for a writer), while
//! its other thread builds and writes the next table, KRvK (the later ones
//! wait: an ending starts once those two places before it are done). The
//! test kills the process once it is written, and removes the pipe.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The plan: the four 3-man pawnless endings, then KPvK (which promotes
/// into them), on two threads.
const PLAN: [&str; 7] = ["tb", "build", "chess:3", "--out", "", "--threads", "2"];
const ENDINGS: [&str; 5] = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"];

fn gametree() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
}

fn build(dir: &Path) -> Command {
    let mut cmd = gametree();
    let mut args = PLAN.map(std::ffi::OsStr::new);
    args[4] = dir.as_os_str();
    cmd.args(args);
    cmd
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("gametree runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn table(dir: &Path, ending: &str) -> PathBuf {
    dir.join(format!("{ending}.gtb"))
}

/// `tb stats ENDING --dir DIR --json`.
fn stats(dir: &Path, ending: &str) -> String {
    let out = run(gametree()
        .args(["tb", "stats", ending, "--dir"])
        .arg(dir)
        .arg("--json"));
    String::from_utf8(out.stdout).unwrap()
}

/// Whether `name` is `NAME.gtb.tmpPID`, a table being written.
fn is_temporary(name: &str) -> bool {
    name.rsplit_once(".gtb.tmp")
        .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

#[test]
fn a_killed_build_resumes_from_its_finished_tables() {
    // From scratch, for comparison.
    let fresh = scratch("fresh");
    let fresh_out = run(&mut build(&fresh));
    let stderr = String::from_utf8_lossy(&fresh_out.stderr);
    assert!(stderr.starts_with("memory bound: "), "{stderr}");

    // Killed: KQvK.gtb is a named pipe, which the build waits on forever.
    let dir = scratch("killed");
    let pipe = table(&dir, "KQvK");
    let made = Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", pipe.display());
    let mut child = build(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gametree starts");
    let start = Instant::now();
    let written = |d: &Path| ENDINGS[1..4].iter().any(|e| table(d, e).exists());
    while !written(&dir) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the build ended ({status}) before a table was written");
        }
        // Not a timing assertion: a guard against a build that hangs.
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "no table written in 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the build was not stopped: {status}");
    std::fs::remove_file(&pipe).unwrap();

    // Under a table's name, only whole tables: each equal to the fresh one.
    let mut finished = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if is_temporary(&name) {
            continue;
        }
        let ending = name.strip_suffix(".gtb").expect("only tables");
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(table(&fresh, ending)).unwrap(),
            "{name} is not the whole table"
        );
        finished.push(ending.to_owned());
    }
    assert!(!finished.is_empty());
    assert!(!finished.iter().any(|e| e == "KQvK" || e == "KPvK"));

    // A write cut short leaves a temporary file; the rerun never reads it.
    let leftover = dir.join("KQvK.gtb.tmp4000000000");
    std::fs::write(&leftover, b"not a table").unwrap();
    let again = run(&mut build(&dir));
    let stderr = String::from_utf8(again.stderr).unwrap();
    assert!(stderr.starts_with("note: "), "{stderr}");
    assert!(stderr.contains("KQvK.gtb.tmp4000000000"), "{stderr}");
    assert!(leftover.exists(), "the leftover was removed");
    // Finished tables loaded, the others built, each once (KPvK's build
    // reads the four it promotes into again, silently).
    for ending in ENDINGS {
        let path = table(&dir, ending).display().to_string();
        let loaded = stderr.matches(&format!("loaded {path}\n")).count();
        let built = stderr.matches(&format!("built {path} in ")).count();
        if finished.iter().any(|e| e == ending) {
            assert_eq!((built, loaded), (0, 1), "{ending}: {stderr}");
        } else {
            assert_eq!((built, loaded), (1, 0), "{ending}: {stderr}");
        }
    }
    assert_eq!(
        String::from_utf8(again.stdout).unwrap(),
        String::from_utf8(fresh_out.stdout)
            .unwrap()
            .replace(fresh.to_str().unwrap(), dir.to_str().unwrap())
    );

    // The same tables as from scratch.
    std::fs::remove_file(&leftover).unwrap();
    for ending in ENDINGS {
        assert_eq!(
            std::fs::read(table(&dir, ending)).unwrap(),
            std::fs::read(table(&fresh, ending)).unwrap(),
            "{ending}"
        );
        assert_eq!(stats(&dir, ending), stats(&fresh, ending), "{ending}");
    }
    for d in [fresh, dir] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
