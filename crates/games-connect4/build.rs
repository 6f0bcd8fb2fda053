//! Sets `cfg(pons_data)` when Pascal Pons's Connect Four test sets are
//! present (`connect4/Test_L3_R1` in `gametree_data::default_data_dir()`:
//! `$GAMETREE_DATA`, else `../shared/data` beside the repository), so that
//! the tests needing them are reported as ignored, with the reason, when
//! they are not.

fn main() {
    println!("cargo::rerun-if-env-changed=GAMETREE_DATA");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(pons_data)");
    let dir = gametree_data::default_data_dir().join("connect4");
    if dir.join("Test_L3_R1").is_file() {
        println!("cargo::rerun-if-changed={}", dir.display());
        println!("cargo::rustc-cfg=pons_data");
    }
}
