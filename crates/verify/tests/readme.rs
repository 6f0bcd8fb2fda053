//! The root README states how many rows the verification table has; this
//! test fails when the registry and the README drift apart.

use gametree_verify::{Mode, Options, list};

#[test]
fn the_readme_states_the_number_of_verify_rows() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let marker = "prints one row per check (";
    let at = readme
        .find(marker)
        .expect("the README says how many rows `cargo xtask verify` prints");
    let rest = &readme[at + marker.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    assert!(
        rest[digits.len()..].starts_with(" rows"),
        "the README's row count is not a number of rows: {:?}",
        &rest[..rest.len().min(30)]
    );
    let stated: usize = digits.parse().expect("a number");
    let rows = list(&Options::new(Mode::Full)).len();
    assert_eq!(
        stated, rows,
        "README.md says {stated} verify rows, the registry has {rows}: update the README"
    );
}
