//! The on-disk format: round trips, atomic writes, and a typed refusal for
//! every kind of bad file (truncated, corrupted, wrong version, wrong
//! encoding, wrong game / material / scheme, not a database at all).

use std::path::PathBuf;

use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::format::{Encoding, FORMAT_VERSION, MAGIC};
use gametree_retrograde::{Generator, Label, LoadError, Table, TableProbe, Value, WdlTable};

fn label() -> Label {
    Label::new("tictactoe", "all", "canonical-base3-v1")
}

fn table() -> Table {
    Generator::new(&BoardIndex::symmetric())
        .label(label())
        .backward()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn round_trip_through_a_file_and_probe() {
    let t = table();
    let dir = temp_dir("round-trip");
    let path = dir.join("tictactoe.rtb");
    t.write(&path).unwrap();
    // Atomic write: only the final file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("tictactoe.rtb")]);
    let back = Table::read(&path, &label()).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.label(), &label());
    let space = BoardIndex::symmetric();
    let probe = TableProbe::new(&space, &back).unwrap();
    assert_eq!(
        probe.probe(&"XX.OO....".parse::<TicTacToe>().unwrap()),
        Some(Value::Win(1))
    );
    // Overwriting replaces the file whole.
    t.write(&path).unwrap();
    assert_eq!(Table::read(&path, &label()).unwrap(), t);
    // The WDL variant too.
    let wdl = t.to_wdl();
    let wpath = dir.join("tictactoe.wdl");
    wdl.write(&wpath).unwrap();
    assert_eq!(WdlTable::read(&wpath, &label()).unwrap(), wdl);
    std::fs::remove_dir_all(&dir).unwrap();
    // A missing file is an I/O error.
    assert!(matches!(
        Table::read(&path, &label()),
        Err(LoadError::Io(_))
    ));
}

#[test]
fn every_truncation_is_refused() {
    let bytes = table().to_bytes();
    for len in 0..bytes.len() {
        match Table::from_bytes(&bytes[..len], &label()) {
            Err(LoadError::Truncated { found, .. }) => assert_eq!(found, len as u64),
            other => panic!("prefix of {len} bytes: {other:?}"),
        }
    }
    let wdl = table().to_wdl().to_bytes();
    for len in [0, 7, 8, 70, wdl.len() - 1] {
        assert!(matches!(
            WdlTable::from_bytes(&wdl[..len], &label()),
            Err(LoadError::Truncated { .. })
        ));
    }
}

#[test]
fn every_flipped_byte_is_refused() {
    let bytes = table().to_bytes();
    let l = label();
    let game_len = 68;
    let material_len = game_len + 2 + l.game.len();
    let scheme_len = material_len + 2 + l.material.len();
    let length_fields = [
        game_len,
        game_len + 1,
        material_len,
        material_len + 1,
        scheme_len,
        scheme_len + 1,
    ];
    for at in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        let result = Table::from_bytes(&bad, &label());
        assert!(result.is_err(), "flipped byte {at} accepted");
        if length_fields.contains(&at) {
            // A name's length: the checksum fails, or the header now seems
            // to run past the end of the file.
            assert!(
                matches!(
                    result,
                    Err(LoadError::Corrupted(_) | LoadError::Truncated { .. })
                ),
                "byte {at}: {result:?}"
            );
        } else if at >= 12 {
            // Past magic, version and encoding, only the checksums can tell.
            assert!(
                matches!(result, Err(LoadError::Corrupted(_))),
                "byte {at}: {result:?}"
            );
        }
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(matches!(
        Table::from_bytes(&trailing, &label()),
        Err(LoadError::Corrupted(_))
    ));
}

#[test]
fn wrong_version_magic_and_encoding_are_refused() {
    let bytes = table().to_bytes();
    let mut newer = bytes.clone();
    newer[8..10].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(
        Table::from_bytes(&newer, &label()),
        Err(LoadError::UnsupportedVersion { found, .. }) if found == FORMAT_VERSION + 1
    ));
    let mut not_ours = bytes.clone();
    not_ours[..8].copy_from_slice(b"PK\x03\x04....");
    assert!(matches!(
        Table::from_bytes(&not_ours, &label()),
        Err(LoadError::BadMagic)
    ));
    assert_eq!(&bytes[..8], &MAGIC);
    let wdl = table().to_wdl().to_bytes();
    assert!(matches!(
        Table::from_bytes(&wdl, &label()),
        Err(LoadError::WrongEncoding {
            expected: Encoding::Distance8,
            found: Some(Encoding::Wdl2)
        })
    ));
    assert!(matches!(
        WdlTable::from_bytes(&bytes, &label()),
        Err(LoadError::WrongEncoding {
            expected: Encoding::Wdl2,
            ..
        })
    ));
}

#[test]
fn wrong_game_material_or_scheme_is_refused() {
    let bytes = table().to_bytes();
    let wrong = |game: &str, material: &str, scheme: &str| {
        Table::from_bytes(&bytes, &Label::new(game, material, scheme)).unwrap_err()
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
    // A table for another space is refused when paired with a space.
    let space = BoardIndex::symmetric();
    let other = Generator::new(&common_small::Tiny)
        .build(gametree_retrograde::Method::Backward)
        .unwrap();
    assert!(TableProbe::new(&space, &other).is_err());
    // Every refusal explains itself.
    for e in [wrong("x", "all", "canonical-base3-v1"), LoadError::BadMagic] {
        assert!(!e.to_string().is_empty());
    }
}

mod common_small {
    //! A one-position space, to make a table of the wrong size.
    use gametree_games_tictactoe::TicTacToe;

    pub(crate) struct Tiny;

    impl gametree_game::IndexSpace for Tiny {
        type Game = TicTacToe;
        fn size(&self) -> u64 {
            1
        }
        fn position(&self, index: u64) -> Option<TicTacToe> {
            (index == 0).then(|| "XXXOO....".parse().unwrap())
        }
        fn index_of(&self, p: &TicTacToe) -> Option<u64> {
            (p.to_string() == "XXXOO....").then_some(0)
        }
    }

    impl gametree_game::Predecessors for Tiny {
        fn predecessors(&self, _: &TicTacToe, _: &mut dyn FnMut(u64)) {}
    }
}

/// `Table::check_header` refuses a file with the words `Table::read`
/// uses, without reading the payload: every truncation, every flipped
/// byte of the header, another version; a flipped payload byte only
/// `read` sees.
#[test]
fn the_header_check_refuses_as_read_does() {
    let t = table();
    let bytes = t.to_bytes();
    let dir = temp_dir("check-header");
    let path = dir.join("t.rtb");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Table::check_header(&path, &label()).unwrap(), t.len());
    let same = |bad: &[u8], what: &str| {
        std::fs::write(&path, bad).unwrap();
        let read = Table::read(&path, &label()).unwrap_err().to_string();
        let header = Table::check_header(&path, &label()).map_err(|e| e.to_string());
        (read, header, what.to_owned())
    };
    // The payload starts after the header checksum.
    let payload_at = bytes.len() - usize::try_from(t.len()).unwrap();
    let mut cases = Vec::new();
    for len in (0..payload_at + 3).chain([bytes.len() - 1]) {
        cases.push(same(&bytes[..len], &format!("cut to {len}")));
    }
    for at in 0..payload_at {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        cases.push(same(&bad, &format!("byte {at} flipped")));
    }
    let mut newer = bytes.clone();
    newer[8..10].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    cases.push(same(&newer, "newer version"));
    let mut longer = bytes.clone();
    longer.push(0);
    cases.push(same(&longer, "a byte added"));
    for (read, header, what) in &cases {
        assert_eq!(header.as_ref(), Err(read), "{what}");
    }
    assert!(
        cases
            .iter()
            .any(|c| c.0.contains("header checksum mismatch"))
    );
    assert!(cases.iter().any(|c| c.0.starts_with("truncated database")));
    assert!(
        cases
            .iter()
            .any(|c| c.0.contains("this build reads version 1"))
    );
    // A flipped payload byte: the header is intact, the payload refused.
    let mut bad = bytes.clone();
    bad[payload_at + 5] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    assert_eq!(Table::check_header(&path, &label()).unwrap(), t.len());
    assert!(matches!(
        Table::read(&path, &label()),
        Err(LoadError::Corrupted("payload checksum mismatch"))
    ));
    // A header longer than the first read (a long name): read whole, cut
    // inside it refused as `read` refuses it.
    let long = Label::new("tictactoe", "m".repeat(6000), "canonical-base3-v1");
    let t = Generator::new(&BoardIndex::symmetric())
        .label(long.clone())
        .backward()
        .unwrap();
    let bytes = t.to_bytes();
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Table::check_header(&path, &long).unwrap(), t.len());
    for len in [4095, 4096, 4097, 5000, 6100] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        let read = Table::read(&path, &long).unwrap_err().to_string();
        let header = Table::check_header(&path, &long).unwrap_err().to_string();
        assert_eq!(header, read, "cut to {len}");
        assert!(read.starts_with("truncated database"), "{read}");
    }
    let mut bad = bytes.clone();
    bad[5000] ^= 1;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(
        Table::check_header(&path, &long),
        Err(LoadError::Corrupted("header checksum mismatch"))
    ));
    // A missing file.
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        Table::check_header(&path, &label()),
        Err(LoadError::Io(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The typed header reader of both formats: what each header says, where
/// the data starts, and every header cut short refused as the readers of
/// the tables refuse it.
#[test]
fn headers_of_both_formats_are_read_typed() {
    use gametree_retrograde::compressed;
    use gametree_retrograde::format::{FileFormat, Header, SIZE_BYTES, VERSION_BYTES};

    let t = table();
    let plain = t.to_bytes();
    let h = Header::read(&plain[..]).unwrap();
    assert_eq!(h.format(), FileFormat::Plain);
    assert_eq!(h.version(), FORMAT_VERSION);
    assert_eq!(h.label(), &label());
    assert_eq!(h.size(), t.len());
    assert_eq!(h.encoding(), Some(Encoding::Distance8));
    assert_eq!(h.counts().wins, t.counts().wins);
    assert_eq!(h.payload_len(), Some(t.len()));
    assert_eq!(h.blocks(), None);
    // The payload right after the header: the table's codes.
    assert_eq!(h.data_offset(), h.len());
    assert_eq!(&plain[h.data_offset() as usize..], t.codes());
    assert_eq!(
        u64::from_le_bytes(plain[SIZE_BYTES].try_into().unwrap()),
        t.len()
    );

    let packed = compressed::to_bytes_with(&t, 8);
    let c = Header::read(&packed[..]).unwrap();
    assert_eq!(c.format(), FileFormat::Compressed);
    assert_eq!(c.version(), compressed::VERSION);
    assert_eq!((c.label(), c.size()), (&label(), t.len()));
    assert_eq!(c.blocks(), Some(t.len().div_ceil(256)));
    assert_eq!(c.block_log2(), Some(8));
    assert_eq!(c.encoding(), None);
    // The blocks after the header and the block index: changing the first
    // block's bytes is found by its checksum, not by the header's.
    let first = c.data_offset() as usize;
    assert!(first > c.len() as usize && first < packed.len());
    let mut bad = packed.clone();
    bad[first] ^= 0xff;
    let e = compressed::from_bytes(&bad, &label()).unwrap_err();
    assert!(e.to_string().contains("block checksum mismatch"), "{e}");

    // Cut short within the header: the error the table readers give.
    for (bytes, len) in [(&plain, h.len()), (&packed, c.len())] {
        for cut in 0..len as usize {
            let e = Header::read(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(e, LoadError::Truncated { found, .. } if found == cut as u64),
                "{cut}: {e}"
            );
            let whole = if bytes == &plain {
                Table::from_bytes(&bytes[..cut], &label()).unwrap_err()
            } else {
                compressed::from_bytes(&bytes[..cut], &label()).unwrap_err()
            };
            if cut >= 8 {
                assert_eq!(e.to_string(), whole.to_string(), "{cut}");
            }
        }
    }
    // Another version, a changed header byte, not a database: typed.
    let mut newer = plain.clone();
    newer[VERSION_BYTES].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(
        Header::read(&newer[..]),
        Err(LoadError::UnsupportedVersion { .. })
    ));
    let mut changed = packed.clone();
    changed[SIZE_BYTES.start] ^= 1;
    assert!(matches!(
        Header::read(&changed[..]),
        Err(LoadError::Corrupted("header checksum mismatch"))
    ));
    assert!(matches!(
        Header::read(&b"not a database at all"[..]),
        Err(LoadError::BadMagic)
    ));
    // Read for one format, the other's file is not a database of it.
    assert!(matches!(
        Header::read_format(&packed[..], FileFormat::Plain),
        Err(LoadError::BadMagic)
    ));
}
