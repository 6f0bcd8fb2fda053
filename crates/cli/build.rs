//! Sets `cfg(pons_data)` when Pascal Pons's Connect Four test sets are
//! present (`$GAMETREE_DATA/connect4/Test_L3_R1`, by default
//! `../shared/data` beside the repository), so that the tests needing them
//! are reported as ignored, with the reason, when they are not.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-env-changed=GAMETREE_DATA");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(pons_data)");
    let root = std::env::var_os("GAMETREE_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    let dir = root.join("connect4");
    if dir.join("Test_L3_R1").is_file() {
        println!("cargo::rerun-if-changed={}", dir.display());
        println!("cargo::rustc-cfg=pons_data");
    }
}
