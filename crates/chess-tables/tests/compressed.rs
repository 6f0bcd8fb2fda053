//! The compressed format of `gametree_retrograde::compressed` on chess
//! tables: KQvKR (and its sub-endings KQvK and KRvK) written compressed,
//! probed block by block, equal to the raw table on every index.

use gametree_chess_tables::{BuildOptions, Signature, Tables, label};
use gametree_retrograde::compressed::{self, CompressedTable};
use gametree_retrograde::{Label, LoadError};

#[test]
fn compressed_kqvkr_equals_the_raw_table_on_every_index() {
    let mut tables = Tables::new();
    let kqvkr: Signature = "KQvKR".parse().unwrap();
    tables.build(&[kqvkr], &BuildOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("chess-compressed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ending in ["KQvK", "KRvK", "KQvKR"] {
        let signature: Signature = ending.parse().unwrap();
        let (_, table) = tables.get(&signature).unwrap();
        assert_eq!(table.label(), &label(&signature));
        let path = dir.join(format!("{ending}.rtbz"));
        compressed::write(table, &path).unwrap();
        let probe = CompressedTable::open(&path, &label(&signature)).unwrap();
        for i in 0..table.len() {
            assert_eq!(probe.get(i).unwrap(), table.get(i), "{ending} index {i}");
        }
        assert_eq!(&probe.to_table().unwrap(), table);
        let raw = table.codes().len() as u64;
        eprintln!(
            "{ending}: {raw} bytes raw, {} compressed ({:.2}x), {} blocks decoded",
            probe.file_len(),
            raw as f64 / probe.file_len() as f64,
            probe.blocks_decoded()
        );
        // Under half the raw size for every one of them.
        assert!(probe.file_len() * 2 < raw, "{ending}");
        // Another ending's label is refused.
        let other = Label::new("chess", "KRvKQ", label(&signature).scheme);
        assert!(matches!(
            CompressedTable::open(&path, &other),
            Err(LoadError::WrongMaterial { .. })
        ));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
