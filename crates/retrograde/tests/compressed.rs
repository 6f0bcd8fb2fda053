//! The compressed format: round trips (every index probed equal to the raw
//! table's), atomic writes, and a typed refusal of every kind of bad file
//! (truncated, a byte flipped in the header, the block index or a block,
//! wrong version, wrong label, another format).

use std::path::PathBuf;

use gametree_games_connect4::{Board, Size};
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::compressed::{self, CompressedTable, MAGIC, VERSION};
use gametree_retrograde::{Generator, Label, LoadError, Reachable, Table};

fn label() -> Label {
    Label::new("tictactoe", "all", "canonical-base3-v1")
}

/// Tic-tac-toe over every board (19 683 indices, most of them invalid).
fn table() -> Table {
    Generator::new(&BoardIndex::plain())
        .label(label())
        .backward()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "retrograde-compressed-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Blocks of 256 indices: 77 blocks for tic-tac-toe.
const SMALL: u32 = 8;

/// The length of the header of `bytes`, a file labelled `l` (before the
/// block index), and where its priors start.
fn header_len(bytes: &[u8], l: &Label) -> (usize, usize) {
    let priors = 60 + 6 + l.game.len() + l.material.len() + l.scheme.len();
    let len = u32::from_le_bytes(bytes[priors..priors + 4].try_into().unwrap()) as usize;
    (priors + 4 + len + 8, priors)
}

fn assert_same(probe: &CompressedTable, table: &Table) {
    assert_eq!(probe.len(), table.len());
    for i in 0..table.len() {
        assert_eq!(probe.get(i).unwrap(), table.get(i), "index {i}");
    }
    assert_eq!(probe.get(table.len()).unwrap(), None);
    assert_eq!(probe.get(u64::MAX).unwrap(), None);
}

#[test]
fn round_trip_every_index_through_a_file() {
    let t = table();
    assert!(t.counts().invalid > 0);
    let dir = temp_dir("round-trip");
    for block_log2 in [6, SMALL, compressed::DEFAULT_BLOCK_LOG2] {
        let path = dir.join(format!("tictactoe-{block_log2}.rtbz"));
        compressed::write_with(&t, &path, block_log2).unwrap();
        let probe = CompressedTable::open(&path, &label())
            .unwrap()
            .with_cache(4);
        assert_eq!(probe.block_size(), 1 << block_log2);
        assert_eq!(probe.blocks() as u64, t.len().div_ceil(1 << block_log2));
        assert_eq!(probe.label(), &label());
        let c = t.counts();
        let h = probe.counts();
        assert_eq!(
            (h.invalid, h.wins, h.draws, h.losses),
            (c.invalid, c.wins, c.draws, c.losses)
        );
        assert_same(&probe, &t);
        // The same without a cache (the default): one block decoded per
        // probe.
        let uncached = CompressedTable::open(&path, &label()).unwrap();
        assert_same(&uncached, &t);
        assert_eq!(uncached.blocks_decoded(), t.len());
        assert_eq!(probe.to_table().unwrap(), t);
        // Bytes in memory equal the file.
        let bytes = compressed::to_bytes_with(&t, block_log2);
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(probe.file_len(), bytes.len() as u64);
        assert_eq!(compressed::from_bytes(&bytes, &label()).unwrap(), t);
    }
    // Atomic writes: only the final files are left behind.
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["tictactoe-11.rtbz", "tictactoe-6.rtbz", "tictactoe-8.rtbz"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A missing file is an I/O error.
    assert!(matches!(
        CompressedTable::open(dir.join("none"), &label()),
        Err(LoadError::Io(_))
    ));
}

#[test]
fn round_trip_connect4_4x4() {
    // Connect Four on 4 x 4, every reachable position: a table with no
    // invalid index and distances up to 16 plies.
    let space = Reachable::new(Board::new(Size::new(4, 4).unwrap()), Board::symmetric_key).unwrap();
    let l = Label::new("connect4", "4x4", "reachable-v1");
    let t = Generator::new(&space).label(l.clone()).backward().unwrap();
    let bytes = compressed::to_bytes_with(&t, SMALL);
    assert!(bytes.len() < t.codes().len(), "{} bytes", bytes.len());
    assert_eq!(compressed::from_bytes(&bytes, &l).unwrap(), t);
}

#[test]
fn every_truncation_is_refused() {
    let bytes = compressed::to_bytes_with(&table(), SMALL);
    let dir = temp_dir("truncated");
    let path = dir.join("t.rtbz");
    for len in 0..bytes.len() {
        match compressed::from_bytes(&bytes[..len], &label()) {
            Err(LoadError::Truncated { found, .. }) => assert_eq!(found, len as u64),
            other => panic!("prefix of {len} bytes: {other:?}"),
        }
        if len % 97 == 0 || len + 1 == bytes.len() {
            std::fs::write(&path, &bytes[..len]).unwrap();
            assert!(
                matches!(
                    CompressedTable::open(&path, &label()),
                    Err(LoadError::Truncated { .. })
                ),
                "file of {len} bytes"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_flipped_byte_in_the_header_or_block_index_is_refused() {
    let bytes = compressed::to_bytes_with(&table(), SMALL);
    let (header, priors) = header_len(&bytes, &label());
    assert!(header > priors + 4 + 8, "blocks of 256 indices have priors");
    let index_end = header + 16 * 77 + 8;
    // The names and the priors' length: the checksum fails, or the header
    // now seems to run past the end of the file.
    let lengths = 60..priors + 4;
    for at in 0..index_end {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        let result = compressed::from_bytes(&bad, &label());
        match at {
            0..8 => assert!(matches!(result, Err(LoadError::BadMagic)), "{at}"),
            8..10 => assert!(
                matches!(result, Err(LoadError::UnsupportedVersion { .. })),
                "{at}"
            ),
            _ if lengths.contains(&at) => assert!(
                matches!(
                    result,
                    Err(LoadError::Corrupted(_) | LoadError::Truncated { .. })
                ),
                "byte {at}: {result:?}"
            ),
            _ => assert!(
                matches!(result, Err(LoadError::Corrupted(_))),
                "byte {at}: {result:?}"
            ),
        }
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(matches!(
        compressed::from_bytes(&trailing, &label()),
        Err(LoadError::Corrupted("bytes after the last block"))
    ));
}

#[test]
fn a_flipped_byte_in_a_block_is_refused_when_that_block_is_read() {
    let t = table();
    let bytes = compressed::to_bytes_with(&t, SMALL);
    let data = header_len(&bytes, &label()).0 + 16 * 77 + 8;
    let dir = temp_dir("flipped-block");
    let path = dir.join("t.rtbz");
    for at in (data..bytes.len()).step_by(53).chain([bytes.len() - 1]) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x01;
        assert!(
            matches!(
                compressed::from_bytes(&bad, &label()),
                Err(LoadError::Corrupted("block checksum mismatch"))
            ),
            "byte {at}"
        );
        // The file opens (header and index are sound); the damaged block
        // is refused when probed, the others still answer.
        std::fs::write(&path, &bad).unwrap();
        let probe = CompressedTable::open(&path, &label()).unwrap();
        let mut refused = 0;
        for i in (0..t.len()).step_by(64) {
            match probe.get(i) {
                Ok(v) => assert_eq!(v, t.get(i)),
                Err(LoadError::Corrupted("block checksum mismatch")) => refused += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(refused, 4, "byte {at}: one block of 4 probes refused");
        assert!(probe.to_table().is_err());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_version_label_or_format_is_refused() {
    let t = table();
    let bytes = compressed::to_bytes(&t);
    assert_eq!(&bytes[..8], &MAGIC);
    let mut newer = bytes.clone();
    newer[8..10].copy_from_slice(&(VERSION + 1).to_le_bytes());
    assert!(matches!(
        compressed::from_bytes(&newer, &label()),
        Err(LoadError::UnsupportedVersion { found, .. }) if found == VERSION + 1
    ));
    // The message names the versions read (1, without priors, and 2).
    let message = compressed::from_bytes(&newer, &label())
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        format!(
            "database format version {}, this build reads versions 1 and {VERSION}",
            VERSION + 1
        )
    );
    let wrong = |game: &str, material: &str, scheme: &str| {
        compressed::from_bytes(&bytes, &Label::new(game, material, scheme)).unwrap_err()
    };
    assert!(matches!(
        wrong("connect4", "all", "canonical-base3-v1"),
        LoadError::WrongGame { .. }
    ));
    assert!(matches!(
        wrong("tictactoe", "KQvK", "canonical-base3-v1"),
        LoadError::WrongMaterial { expected, found } if expected == "KQvK" && found == "all"
    ));
    assert!(matches!(
        wrong("tictactoe", "all", "plain-v1"),
        LoadError::WrongScheme { .. }
    ));
    // The raw format is not the compressed one, and the reverse.
    assert!(matches!(
        compressed::from_bytes(&t.to_bytes(), &label()),
        Err(LoadError::BadMagic)
    ));
    assert!(matches!(
        Table::from_bytes(&bytes, &label()),
        Err(LoadError::BadMagic)
    ));
    // Through a file too.
    let dir = temp_dir("label");
    let path = dir.join("t.rtbz");
    compressed::write(&t, &path).unwrap();
    assert!(matches!(
        CompressedTable::open(&path, &Label::new("tictactoe", "all", "x")),
        Err(LoadError::WrongScheme { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
