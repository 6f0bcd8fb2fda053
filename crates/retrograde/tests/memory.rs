//! Spaces and files too large for memory: every build method and every
//! loader answers with a typed error ([`BuildError::Memory`],
//! [`BuildError::TooLarge`], [`LoadError::Truncated`],
//! [`LoadError::Corrupted`]) instead of aborting the process, and before
//! looking at a single position.

use std::sync::Mutex;

use gametree_game::{IndexMoves, IndexSpace, Outcome, Predecessors};
use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::format::checksum;
use gametree_retrograde::{
    BuildError, Event, Generator, Label, LoadError, Method, Table, WdlTable,
};

/// A space of `size` indices that must never be looked at: every method
/// fails the test if called, so a build must stop before its first pass.
struct Huge {
    size: u64,
}

impl IndexSpace for Huge {
    type Game = TicTacToe;
    fn size(&self) -> u64 {
        self.size
    }
    fn position(&self, index: u64) -> Option<TicTacToe> {
        panic!("position({index}) asked of a space too large to build")
    }
    fn index_of(&self, _: &TicTacToe) -> Option<u64> {
        panic!("index_of asked of a space too large to build")
    }
}

impl Predecessors for Huge {
    fn predecessors(&self, _: &TicTacToe, _: &mut dyn FnMut(u64)) {
        panic!("predecessors asked of a space too large to build")
    }
}

impl IndexMoves for Huge {
    fn successor_indices(
        &self,
        index: u64,
        _: impl FnMut(u64),
        _: impl FnMut(&TicTacToe),
    ) -> Option<Option<Outcome>> {
        panic!("successor_indices({index}) asked of a space too large to build")
    }
    fn predecessor_indices(&self, index: u64, _: impl FnMut(u64)) {
        panic!("predecessor_indices({index}) asked of a space too large to build")
    }
}

/// Every way to build a table over `space`, by name.
fn every_build(generator: &Generator<'_, Huge>) -> Vec<(&'static str, BuildError)> {
    let runs: [(&str, Result<Table, BuildError>); 8] = [
        ("forward", generator.forward()),
        ("backward", generator.backward()),
        ("backward_indexed", generator.backward_indexed()),
        (
            "build(ForwardSweeps)",
            generator.build(Method::ForwardSweeps),
        ),
        ("build(Backward)", generator.build(Method::Backward)),
        (
            "build_indexed(ForwardSweeps)",
            generator.build_indexed(Method::ForwardSweeps),
        ),
        (
            "build_indexed(Backward)",
            generator.build_indexed(Method::Backward),
        ),
        (
            "build_indexed(BackwardIndexed)",
            generator.build_indexed(Method::BackwardIndexed),
        ),
    ];
    runs.into_iter()
        .map(|(name, result)| match result {
            Ok(table) => panic!("{name}: built a table of {} indices", table.len()),
            Err(e) => (name, e),
        })
        .collect()
}

/// 2^50 indices: a petabyte, beyond any machine's address space (47 or 48
/// bits of user addresses), so the first array cannot be allocated even
/// where the system overcommits memory.
#[test]
fn a_space_of_a_petabyte_is_a_memory_error_from_every_build_method() {
    let space = Huge { size: 1 << 50 };
    let events = Mutex::new(Vec::new());
    // A build's events carry no line: their `Debug` text says it all.
    let record = |e: &Event<'_, _>| {
        let kept = match *e {
            Event::Start {
                positions, bytes, ..
            } => Ok((positions, bytes)),
            _ => Err(format!("{e:?}")),
        };
        events.lock().unwrap().push(kept);
    };
    let generator = Generator::new(&space).threads(1).progress(&record);
    for (name, e) in every_build(&generator) {
        // The values, one byte per index, are the first array allocated.
        assert_eq!(e, BuildError::Memory { bytes: 1 << 50 }, "{name}");
        assert_eq!(
            e.to_string(),
            "cannot allocate 1125899906842624 bytes for the build"
        );
    }
    // Each build announced itself, then stopped before classifying.
    let events = events.into_inner().unwrap();
    assert_eq!(events.len(), 8);
    for event in &events {
        match event {
            Ok((positions, bytes)) => {
                assert_eq!(*positions, 1 << 50);
                assert!(*bytes >= 1 << 50);
            }
            Err(other) => panic!("an event after the allocation failed: {other}"),
        }
    }
}

/// `u64::MAX` indices: the estimate saturates instead of overflowing, and
/// the build is refused (on a 64-bit target the size fits a `usize` but
/// no allocation of that many bytes can be asked for).
#[test]
fn the_largest_space_is_refused_with_a_typed_error_and_a_saturated_estimate() {
    let space = Huge { size: u64::MAX };
    let generator = Generator::new(&space).threads(1);
    for method in [
        Method::ForwardSweeps,
        Method::Backward,
        Method::BackwardIndexed,
    ] {
        assert_eq!(generator.memory(method).total_bytes, u64::MAX, "{method}");
    }
    for (name, e) in every_build(&generator) {
        if cfg!(target_pointer_width = "64") {
            assert_eq!(e, BuildError::Memory { bytes: u64::MAX }, "{name}");
        } else {
            assert_eq!(e, BuildError::TooLarge { size: u64::MAX }, "{name}");
        }
    }
}

/// The space half of the address range, `isize::MAX` bytes of values.
#[test]
fn a_space_of_half_the_address_range_is_a_memory_error() {
    let space = Huge { size: u64::MAX / 2 };
    let generator = Generator::new(&space).threads(1);
    for (name, e) in every_build(&generator) {
        assert!(
            matches!(e, BuildError::Memory { bytes } if bytes == u64::MAX / 2)
                || matches!(e, BuildError::TooLarge { size } if size == u64::MAX / 2),
            "{name}: {e:?}"
        );
    }
}

fn label() -> Label {
    Label::new("tictactoe", "all", "canonical-base3-v1")
}

fn table() -> Table {
    Generator::new(&BoardIndex::symmetric())
        .label(label())
        .backward()
        .unwrap()
}

/// Where the header checksum is: after the fixed fields (68 bytes) and the
/// three names.
fn header_checksum_at(file: &[u8]) -> usize {
    let mut at = 68;
    for _ in 0..3 {
        at += 2 + usize::from(u16::from_le_bytes([file[at], file[at + 1]]));
    }
    at
}

/// `file` with its size (offset 12) and payload length (offset 52) set as
/// given, and its header checksum made right again: a well-formed header
/// announcing another size.
fn announcing(file: &[u8], size: u64, payload: u64) -> Vec<u8> {
    let mut file = file.to_vec();
    file[12..20].copy_from_slice(&size.to_le_bytes());
    file[52..60].copy_from_slice(&payload.to_le_bytes());
    let at = header_checksum_at(&file);
    let sum = checksum(&file[..at]);
    file[at..at + 8].copy_from_slice(&sum.to_le_bytes());
    file
}

#[test]
fn a_header_announcing_a_huge_table_is_refused_before_allocating() {
    let t = table();
    let file = t.to_bytes();
    let header_end = (header_checksum_at(&file) + 8) as u64;
    let found = file.len() as u64;
    // The genuine file loads, and the payload starts at `header_end`.
    assert_eq!(Table::from_bytes(&file, &label()).unwrap(), t);
    assert_eq!(found - header_end, t.len());

    // A petabyte of distances: more than the file holds.
    let huge = announcing(&file, 1 << 50, 1 << 50);
    let expected = header_end + (1 << 50);
    assert!(matches!(
        Table::from_bytes(&huge, &label()),
        Err(LoadError::Truncated { expected: e, found: f }) if e == expected && f == found
    ));
    // Read from a file: the same refusal.
    let dir = std::env::temp_dir().join(format!("retrograde-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.rtb");
    std::fs::write(&path, &huge).unwrap();
    assert!(matches!(
        Table::read(&path, &label()),
        Err(LoadError::Truncated { expected: e, found: f }) if e == expected && f == found
    ));

    // The largest size: the payload's end overflows.
    let largest = announcing(&file, u64::MAX, u64::MAX);
    assert!(matches!(
        Table::from_bytes(&largest, &label()),
        Err(LoadError::Corrupted("payload length too large"))
    ));
    // A payload length that is not the size's.
    let disagreeing = announcing(&file, 1 << 50, t.len());
    assert!(matches!(
        Table::from_bytes(&disagreeing, &label()),
        Err(LoadError::Corrupted(
            "payload length disagrees with the size"
        ))
    ));

    // Two bits per index: 2^52 indices in 2^50 bytes.
    let wdl = t.to_wdl();
    let wfile = wdl.to_bytes();
    assert_eq!(WdlTable::from_bytes(&wfile, &label()).unwrap(), wdl);
    let whuge = announcing(&wfile, 1 << 52, 1 << 50);
    let wexpected = (header_checksum_at(&wfile) + 8) as u64 + (1 << 50);
    assert!(matches!(
        WdlTable::from_bytes(&whuge, &label()),
        Err(LoadError::Truncated { expected: e, .. }) if e == wexpected
    ));
    let wpath = dir.join("huge.wdl");
    std::fs::write(&wpath, &whuge).unwrap();
    assert!(matches!(
        WdlTable::read(&wpath, &label()),
        Err(LoadError::Truncated { expected: e, .. }) if e == wexpected
    ));
    let wlargest = announcing(&wfile, u64::MAX, u64::MAX.div_ceil(4));
    assert!(matches!(
        WdlTable::from_bytes(&wlargest, &label()),
        Err(LoadError::Truncated { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fallible copies give what the plain ones give, and a written file
/// (streamed, not copied) is byte for byte [`Table::to_bytes`].
#[test]
fn fallible_copies_and_streamed_writes_match_the_plain_ones() {
    let t = table();
    assert_eq!(t.try_to_bytes().unwrap(), t.to_bytes());
    let wdl = t.try_to_wdl().unwrap();
    assert_eq!(wdl, t.to_wdl());
    assert_eq!(wdl.try_to_bytes().unwrap(), wdl.to_bytes());
    let dir = std::env::temp_dir().join(format!("retrograde-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.rtb");
    t.write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), t.to_bytes());
    assert_eq!(Table::read(&path, &label()).unwrap(), t);
    let wpath = dir.join("t.wdl");
    wdl.write(&wpath).unwrap();
    assert_eq!(std::fs::read(&wpath).unwrap(), wdl.to_bytes());
    assert_eq!(WdlTable::read(&wpath, &label()).unwrap(), wdl);
    std::fs::remove_dir_all(&dir).unwrap();
}
