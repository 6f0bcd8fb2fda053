//! Damaged tables, missing tables and output directories (issue 54):
//!
//! * the same damage to a table file (cut short, a byte of its data
//!   changed, another format version, a byte of its header changed) is
//!   refused in the same words by every command that reads it: `solve
//!   --tables`, `tb probe`, `tb stats` and `tb build`, for raw (`.gtb`)
//!   and compressed (`.gtbz`) files alike;
//! * `tb probe` builds a missing table of up to 4 pieces, saying what it
//!   builds, and refuses to build a 5-man one without `--build`, naming
//!   the command that builds it;
//! * `tb build --out` names the directories it creates and refuses a file;
//! * `tb compress --remove-raw --json` reports the raw files it removed.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use gametree_retrograde::format::{Header, SIZE_BYTES, VERSION_BYTES};

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `args`: exit code, standard output and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = gametree().args(args).output().expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// Runs `args`, which must succeed: standard output and standard error.
fn ok(args: &[&str]) -> (String, String) {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    (out, err)
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

/// Where a table file's data starts (a raw file's payload, a compressed
/// file's first block), as its header says
/// (`gametree_retrograde::format::Header`, the one reader of headers).
fn data_offset(path: &Path) -> usize {
    let header = Header::read_file(path).expect("an undamaged header");
    usize::try_from(header.data_offset()).expect("in memory")
}

/// The kinds of damage.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// The last bytes cut off.
    Cut,
    /// Bytes of the table's data changed (a raw file's payload; every
    /// block of a compressed file).
    Data,
    /// Another format version.
    Version,
    /// A byte of the header (the number of positions) changed.
    Header,
}

impl Damage {
    const ALL: [Damage; 4] = [Damage::Cut, Damage::Data, Damage::Version, Damage::Header];

    fn apply(self, path: &Path) {
        let data = data_offset(path);
        let mut bytes = std::fs::read(path).unwrap();
        let compressed = path.extension().is_some_and(|e| e == "gtbz");
        match self {
            Damage::Cut => bytes.truncate(bytes.len() - 5),
            Damage::Data if compressed => {
                for b in &mut bytes[data..] {
                    *b ^= 0x5a;
                }
            }
            Damage::Data => {
                let at = bytes.len() - 1000;
                assert!(at > data, "a byte of the payload");
                bytes[at] ^= 0x10;
            }
            Damage::Version => bytes[VERSION_BYTES].copy_from_slice(&9u16.to_le_bytes()),
            Damage::Header => bytes[SIZE_BYTES.start + 1] ^= 0x01,
        }
        std::fs::write(path, bytes).unwrap();
    }

    /// What the message says, after the file's path.
    fn words(self, compressed: bool, len: u64) -> String {
        match self {
            Damage::Cut => format!(
                "truncated database: {} bytes, at least {len} expected",
                len - 5
            ),
            Damage::Data if compressed => "corrupted database: block checksum mismatch".into(),
            Damage::Data => "corrupted database: payload checksum mismatch".into(),
            Damage::Version if compressed => {
                "database format version 9, this build reads versions 1 and 2".into()
            }
            Damage::Version => "database format version 9, this build reads version 1".into(),
            Damage::Header => "corrupted database: header checksum mismatch".into(),
        }
    }
}

/// A KRvKN position, both sides with pieces: every command reads KRvKN's
/// table for it.
const FEN: &str = "8/8/8/4k3/8/2n5/8/KR6 w - - 0 1";

#[test]
fn the_same_damage_is_refused_in_the_same_words_by_every_reader() {
    let raw = fresh_dir("damage-raw");
    let packed = fresh_dir("damage-packed");
    let (r, p) = (raw.to_str().unwrap(), packed.to_str().unwrap());
    ok(&["tb", "build", "KRvKN", "--out", r]);
    ok(&["tb", "build", "KRvKN", "--out", p, "--compress"]);
    let work = fresh_dir("damage-work");
    let w = work.to_str().unwrap();
    let mut checked = 0;
    for (source, file) in [(&raw, "KRvKN.gtb"), (&packed, "KRvKN.gtbz")] {
        let compressed = file.ends_with(".gtbz");
        let path = work.join(file);
        for damage in Damage::ALL {
            copy_dir(source, &work);
            let len = std::fs::metadata(&path).unwrap().len();
            damage.apply(&path);
            let expected = format!(
                "error: {}: {}",
                path.display(),
                damage.words(compressed, len)
            );
            let commands: [&[&str]; 5] = [
                &["solve", "chess", FEN, "--tables", w],
                &["analyse", "chess", FEN, "--tables", w, "--depth", "2"],
                &["tb", "probe", FEN, "--dir", w],
                &["tb", "stats", "KRvKN", "--dir", w],
                &["tb", "build", "KRvKN", "--out", w],
            ];
            for args in commands {
                let (code, _, err) = run(args);
                assert_eq!(code, Some(2), "{damage:?} {file} {args:?}: {err}");
                assert!(!err.contains("panicked"), "{err}");
                let last = err.lines().last().unwrap_or("");
                assert_eq!(last, expected, "{damage:?} {file} {args:?}: {err}");
                checked += 1;
            }
            // Nothing was written over the damaged file.
            assert_ne!(std::fs::metadata(&path).unwrap().len(), 0);
        }
    }
    assert_eq!(checked, 2 * 4 * 5);
    for dir in [&raw, &packed, &work] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_probe_builds_small_tables_and_asks_for_5_man_ones() {
    let dir = fresh_dir("probe-builds");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    // KQRvKR is missing, with everything it leads to: nothing is built,
    // the error says what building takes and how to build it.
    let kqrvkr = "8/8/8/3k4/8/8/2r5/KQR5 w - - 0 1";
    let (code, out, err) = run(&["tb", "probe", kqrvkr, "--dir", d]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    let err = err.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    let lacks = format!(
        "{d} lacks the tables of KQRvKR: building 6 tables (KQvK KRvK KQRvK KQvKR KRvKR KQRvKR) \
         takes 241.9 MiB on disk, up to about "
    );
    let command = format!("`gametree tb build KQRvKR --out {d}`");
    for words in [lacks.as_str(), &command, " of memory", "--build"] {
        assert!(err.contains(words), "{words:?} not in {err}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "built anyway");
    // The same with --all-moves (its moves' endings are probed first).
    let (code, _, _) = run(&["tb", "probe", kqrvkr, "--dir", d, "--all-moves"]);
    assert_eq!(code, Some(2));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "built anyway");
    // A missing 4-man pawnless table is built, said first.
    let kqvkr = "8/8/3k4/8/8/8/2r5/KQ6 w - - 0 1";
    let (out, err) = ok(&["tb", "probe", kqvkr, "--dir", d]);
    assert!(out.starts_with("value: win\n"), "{out}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with(&format!(
            "building 3 tables (KQvK KRvK KQvKR) into {d} (missing there): 3.7 MiB on disk, "
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("built {}", dir.join("KQvKR.gtb").display())),
        "{err}"
    );
    // Now there: read, nothing built or said.
    let (again, err) = ok(&["tb", "probe", kqvkr, "--dir", d]);
    assert_eq!(again, out);
    assert!(err.is_empty(), "{err}");
    // With the 4-man tables there, KQRvKR needs 2 more; --build is
    // accepted where nothing large is missing.
    let (code, _, err) = run(&["tb", "probe", kqrvkr, "--dir", d]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("building 3 tables (KQRvK KRvKR KQRvKR) takes 238.2 MiB on disk"),
        "{err}"
    );
    let (with_flag, _) = ok(&["tb", "probe", kqvkr, "--dir", d, "--build"]);
    assert_eq!(with_flag, out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn build_names_the_directories_it_creates_and_refuses_a_file() {
    let base = fresh_dir("out-dirs");
    let deep = base.join("a").join("b");
    let d = deep.to_str().unwrap();
    let (out, err) = ok(&["tb", "build", "KQvK", "--out", d]);
    assert_eq!(out.trim(), deep.join("KQvK.gtb").to_str().unwrap());
    let created: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("created directory "))
        .collect();
    let expected = [base.clone(), base.join("a"), deep.clone()];
    let expected: Vec<&str> = expected.iter().map(|p| p.to_str().unwrap()).collect();
    assert_eq!(created, expected, "{err}");
    // There now: nothing created, nothing said.
    let (_, err) = ok(&["tb", "build", "KQvK", "--out", d]);
    assert!(!err.contains("created directory"), "{err}");
    // A file given as --out, or on the way to it: refused, nothing built.
    let file = deep.join("KQvK.gtb");
    let f = file.to_str().unwrap();
    for (out, words) in [
        (
            f.to_owned(),
            format!("error: --out {f} is a file, not a directory"),
        ),
        (
            format!("{f}/more"),
            format!("error: --out {f}/more: {f} is a file, not a directory"),
        ),
    ] {
        for material in ["KRvK", "tictactoe", "chess:3"] {
            let (code, _, err) = run(&["tb", "build", material, "--out", &out]);
            assert_eq!(code, Some(2), "{err}");
            assert_eq!(err.trim_end().lines().last(), Some(words.as_str()), "{err}");
            assert!(!err.contains("os error"), "{err}");
        }
    }
    assert!(!deep.join("KRvK.gtb").exists());
    // The same words for --dir.
    let (code, _, err) = run(&["tb", "stats", "KQvK", "--dir", f]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim_end(),
        format!("error: --dir {f} is a file, not a directory")
    );
    std::fs::remove_dir_all(&base).unwrap();
}

/// The `"raw_removed"` and `"removed_files"` of `tb compress --json`.
fn removed(json: &str) -> (String, String) {
    let field = |key: &str| {
        let from = json.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        let rest = &json[from..];
        let end = if rest.starts_with('[') {
            rest.find(']').unwrap() + 1
        } else {
            rest.find([',', '}']).unwrap()
        };
        rest[..end].to_owned()
    };
    (field("raw_removed"), field("removed_files"))
}

#[test]
fn compress_reports_the_raw_files_it_removed() {
    let dir = fresh_dir("compress-removed");
    let d = dir.to_str().unwrap();
    ok(&["tb", "build", "KRvK", "--out", d]);
    let raw = dir.join("KRvK.gtb");
    let args = ["tb", "compress", "--dir", d, "--remove-raw", "--json"];
    let (out, _) = ok(&args);
    assert_eq!(
        removed(&out),
        ("true".into(), format!("[\"{}\"]", raw.display())),
        "{out}"
    );
    assert!(!raw.exists());
    // Nothing left to compress: nothing removed.
    let (out, _) = ok(&args);
    assert_eq!(removed(&out), ("false".into(), "[]".into()), "{out}");
    // A raw file whose compressed file is there already is kept (it was
    // not checked against it), and said so.
    let other = fresh_dir("compress-removed-raw");
    ok(&["tb", "build", "KRvK", "--out", other.to_str().unwrap()]);
    std::fs::copy(other.join("KRvK.gtb"), &raw).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
    let (out, err) = ok(&args);
    assert_eq!(removed(&out), ("false".into(), "[]".into()), "{out}");
    assert!(out.contains("\"skipped\":1"), "{out}");
    assert!(err.contains("kept"), "{err}");
    assert!(raw.exists());
    // The text says it too.
    let (out, _) = ok(&["tb", "compress", "--dir", d, "--remove-raw"]);
    assert!(out.trim_end().ends_with(", 0 raw file(s) removed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
