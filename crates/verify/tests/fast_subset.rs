//! `cargo test` runs the fast part of the quick verification table: every
//! quick row of the equivalence, published-number and oracle families (all
//! games), and tic-tac-toe's solver rows. The whole table is
//! `cargo xtask verify --quick` (CI) and `cargo xtask verify`.

use gametree_verify::{Family, Mode, Options, Output, run};

fn quiet(mode: Mode) -> Options {
    let mut o = Options::new(mode);
    o.output = Output::Quiet;
    o
}

#[test]
fn quick_rows_of_three_families_pass() {
    let mut o = quiet(Mode::Quick);
    o.families = vec![Family::Equivalence, Family::Published, Family::Oracles];
    let rows = gametree_verify::list(&o).len();
    assert!(rows > 100, "{rows} rows");
    let s = run(&o).expect("rows selected");
    assert_eq!(s.rows, rows);
    assert!(s.passed(), "{:?}", s.failures);
    // Rows skip for lack of the published data sets, or because they are
    // long rows of the deep run (one here); never most of the table.
    assert!(s.skipped - s.missing_data <= 1, "{s:?}");
}

#[test]
fn quick_solver_rows_of_tictactoe_pass() {
    let mut o = quiet(Mode::Quick);
    o.game = Some("tictactoe".into());
    o.families = vec![Family::Solvers];
    let s = run(&o).expect("rows selected");
    assert!(s.rows > 10, "{} rows", s.rows);
    assert!(s.passed(), "{:?}", s.failures);
    assert_eq!(s.skipped, 0);
}

#[test]
fn filters_that_match_nothing_are_an_error() {
    let mut o = quiet(Mode::Quick);
    o.game = Some("no such game".into());
    assert!(gametree_verify::list(&o).is_empty());
    assert!(run(&o).is_err());
}

#[test]
fn missing_data_is_listed_and_fails_a_strict_run() {
    let mut o = quiet(Mode::Quick);
    o.game = Some("connect4".into());
    o.variant = Some("Test_L3_R1 exact".into());
    o.data = std::env::temp_dir().join("gametree-verify-no-data-here");
    let s = run(&o).expect("rows selected");
    assert_eq!((s.rows, s.skipped, s.missing_data), (1, 1, 1), "{s:?}");
    assert!(s.passed(), "missing data alone is not a failure");
    o.strict = true;
    let s = run(&o).expect("rows selected");
    assert!(!s.passed() && s.strict_failed, "{s:?}");
}
