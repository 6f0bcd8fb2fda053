//! Writes the Rust code of the user guide `docs/implement-a-game.md` to
//! `$OUT_DIR/implement_a_game.rs`, which `tests/guide.rs` includes, so that
//! `cargo test` compiles the guide's examples and runs its tests.
//!
//! The guide says how its code is meant to be used: its Rust blocks, all
//! but the last, make up one test file, in order; the last is a fuzz
//! target for a cargo-fuzz project of the reader's own. So this script
//! takes every block fenced with ```` ```rust ```` but the last, and
//! refuses a guide whose last Rust block is not the fuzz target (a block
//! added after it would be left out without a word).

use std::fmt::Write as _;
use std::path::Path;

const GUIDE: &str = "../docs/implement-a-game.md";

fn main() {
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join(GUIDE);
    println!("cargo::rerun-if-changed={}", guide.display());
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = Path::new(&out_dir).join("implement_a_game.rs");
    // A copy made by `cargo package` (it writes `Cargo.toml.orig`) has no
    // docs directory beside it: nothing to compile there. In the
    // repository a missing guide is an error.
    let packaged = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("Cargo.toml.orig")
        .exists();
    if packaged && !guide.exists() {
        std::fs::write(&path, "// The guide is not part of the package.\n")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let text =
        std::fs::read_to_string(&guide).unwrap_or_else(|e| panic!("{}: {e}", guide.display()));
    let blocks = rust_blocks(&text);
    let Some(((_, fuzz_target), file)) = blocks.split_last() else {
        panic!("{GUIDE}: no ```rust block");
    };
    assert!(
        fuzz_target.contains("fuzz_target!"),
        "{GUIDE}: the last ```rust block is not the fuzz target; the blocks before it \
         make up the guide's test file (tests/build.rs)"
    );
    let mut out = String::new();
    for (line, code) in file {
        writeln!(out, "// {GUIDE}, the block that starts on line {line}").unwrap();
        out.push_str(code);
    }
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The ```` ```rust ```` blocks of a Markdown text: the 1-based line of
/// each opening fence and the code up to the closing one.
fn rust_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match open.as_mut() {
            None if fence && line.trim() == "```rust" => open = Some((i + 1, String::new())),
            None => {}
            Some(_) if fence => blocks.extend(open.take()),
            Some((_, code)) => {
                code.push_str(line);
                code.push('\n');
            }
        }
    }
    assert!(open.is_none(), "{GUIDE}: a ```rust block is never closed");
    blocks
}
