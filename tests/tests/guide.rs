//! The user guide `docs/implement-a-game.md`, compiled and run. The guide
//! tells its reader to put its Rust blocks, all but the last (a fuzz
//! target), one after the other in one test file; `build.rs` does exactly
//! that, and this file includes the result. An example of the guide that
//! no longer compiles fails the build of this test, and the guide's own
//! tests (the oracles, every search against negamax, the proof-number
//! solvers, the retrograde database) run here.

include!(concat!(env!("OUT_DIR"), "/implement_a_game.rs"));
