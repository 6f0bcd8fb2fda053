//! Unit tests of the compressed format: round trips on random codes at
//! many lengths and block sizes, and the reserved code refused.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::*;

fn label() -> Label {
    Label::new("test", "random", "codes-v1")
}

/// Codes of every kind: uniform over the 255 codes a table may hold,
/// runs of a few values with noise, one value throughout.
fn arrays(rng: &mut Pcg64, len: usize) -> Vec<Vec<u8>> {
    let uniform = (0..len).map(|_| (rng.next_u32() % 255) as u8).collect();
    let mut runs = Vec::with_capacity(len);
    let mut v = 0u8;
    for _ in 0..len {
        let r = rng.next_u32();
        if r.is_multiple_of(16) {
            v = [0, 1, 2, 3, 20, 21, 200, 254][(r >> 8) as usize % 8];
        }
        runs.push(if r % 97 == 1 {
            (r >> 16) as u8 % 255
        } else {
            v
        });
    }
    vec![uniform, runs, vec![254; len]]
}

#[test]
fn random_code_arrays_round_trip() {
    let mut rng = Pcg64::seed_from_u64(33);
    for len in [0, 1, 63, 64, 65, 255, 256, 257, 1000, 70_000] {
        for codes in arrays(&mut rng, len) {
            let table = Table::from_codes(label(), codes);
            for block_log2 in [MIN_BLOCK_LOG2, 8, DEFAULT_BLOCK_LOG2] {
                let bytes = to_bytes_with(&table, block_log2);
                let back = from_bytes(&bytes, &label()).unwrap();
                assert_eq!(back.codes(), table.codes(), "{len} {block_log2}");
                // Index by index, through the block decoder alone.
                let layout = parse(&bytes[..], &label()).unwrap();
                let mut model = Model::with_priors(&layout.priors);
                let mut buf = Vec::new();
                for b in 0..layout.index.len() {
                    layout.block(&bytes[..], b, &mut model, &mut buf).unwrap();
                    let start = b << block_log2;
                    assert_eq!(&buf[..], &table.codes()[start..start + buf.len()]);
                }
            }
        }
    }
}

#[test]
fn one_value_costs_little_and_noise_costs_about_its_entropy() {
    // One value: a few bytes per block beyond its 16 in the block index.
    let flat = Table::from_codes(label(), vec![7; 1 << 20]);
    let blocks = (1 << 20) >> DEFAULT_BLOCK_LOG2;
    assert!(to_bytes(&flat).len() < 32 * blocks + 256);
    let mut rng = Pcg64::seed_from_u64(1);
    let noise: Vec<u8> = (0..1 << 16).map(|_| (rng.next_u32() % 255) as u8).collect();
    let noise = Table::from_codes(label(), noise);
    // Close to log2(255) bits per code: the cost of learning 256
    // trees from 16 384 codes per block is under 15%.
    let n = to_bytes_with(&noise, 14).len();
    assert!(n < (1 << 16) * 115 / 100, "{n}");
    // Blocks of 2 048 learn less each, and priors cannot help codes with
    // no structure: under 30% (deterministic: 83 747 bytes).
    let n = to_bytes(&noise).len();
    assert!(n < (1 << 16) * 130 / 100, "{n}");
}

#[test]
fn a_block_with_a_reserved_code_is_refused() {
    // Written by hand (a table never holds code 255), checksum valid.
    let mut model = Model::new();
    let block = encode_block(&[0, 255, 0], &mut model);
    let mut out = vec![0; 3];
    assert!(matches!(
        decode_block(&block, &mut model, &mut out),
        Err(LoadError::Corrupted("reserved value code in a block"))
    ));
}

/// Version 1 files (no priors: every block starts at one half) are still
/// read; the same table written now has priors and is not larger.
#[test]
fn version_1_files_are_read() {
    let mut rng = Pcg64::seed_from_u64(5);
    let codes = arrays(&mut rng, 70_000).swap_remove(1);
    let table = Table::from_codes(label(), codes);
    let mut model = Model::new();
    let blocks: Vec<Vec<u8>> = table
        .codes()
        .chunks(1 << 8)
        .map(|c| encode_block(c, &mut model))
        .collect();
    let mut v1 = header(&table, 8, VERSION_1, &[], &blocks);
    for b in &blocks {
        v1.extend_from_slice(b);
    }
    assert_eq!(Header::read(&v1[..]).unwrap().version(), 1);
    assert_eq!(from_bytes(&v1, &label()).unwrap(), table);
    let v2 = to_bytes_with(&table, 8);
    assert_eq!(Header::read(&v2[..]).unwrap().version(), VERSION);
    assert!(parse(&v2[..], &label()).unwrap().priors.len() > 10);
    assert!(v2.len() < v1.len(), "{} against {}", v2.len(), v1.len());
}

/// The stored priors round-trip, and bytes that are not priors are
/// refused: a gap past the model, a value of 0, a number or a prior cut
/// short, a number longer than any cell needs.
#[test]
fn priors_round_trip_and_bad_ones_are_refused() {
    use super::coder::{CELLS, decode_priors, encode_priors};
    let priors = vec![
        (0, 1),
        (1, 255),
        (127, 128),
        (128, 7),
        (20_000, 9),
        (CELLS as u32 - 1, 3),
    ];
    let bytes = encode_priors(&priors);
    assert_eq!(bytes[..4], [0, 1, 0, 255]); // gaps 0 and 0
    assert_eq!(decode_priors(&bytes).unwrap(), priors);
    assert_eq!(decode_priors(&[]).unwrap(), vec![]);
    assert_eq!(CELLS, 0x12000);
    for bad in [
        &[0x80, 0xC0, 0x04, 3][..],             // cell 0x12000, past the last
        &[0x80, 0x80, 0x80, 0x80, 0x01, 5][..], // more than 21 bits
        &[5, 0][..],                            // value 0
        &[5][..],                               // no value
        &[0x85][..],                            // number cut short
    ] {
        assert!(
            matches!(decode_priors(bad), Err(LoadError::Corrupted(_))),
            "{bad:?}"
        );
    }
}
