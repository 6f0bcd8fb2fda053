//! Compressed database files: arbitrary bytes are refused with a typed
//! error or decode to a table, never a panic; what decodes, written again,
//! decodes to the same table; genuine files decode to the table written.
//!
//! As for the raw files ([`crate::retro`]), a case may start from a genuine
//! compressed file, edit, cut or extend it, and then recompute the header
//! checksum, every block's checksum and the block index checksum from the
//! layout documented in `gametree_retrograde::compressed` ([`repair`]), so
//! that edits reach the priors, the block index and the block decoder.

use std::sync::LazyLock;

use arbitrary::Arbitrary;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::compressed::{self, VERSION};
use gametree_retrograde::format::checksum;
use gametree_retrograde::{Generator, Label, Table};

/// The label of the genuine tic-tac-toe file.
fn tictactoe() -> Label {
    Label::new("tictactoe", "all", "canonical-base3-v1")
}

/// The genuine files and their tables: the pile database of
/// [`crate::retro`] in one block of 64 indices, and tic-tac-toe over every
/// board (19 683 indices) in blocks of 64, with priors.
pub static FILES: LazyLock<[(Label, Table, Vec<u8>); 2]> = LazyLock::new(|| {
    let pile = Generator::new(&crate::retro::Piles)
        .label(crate::retro::label())
        .threads(1)
        .forward()
        .expect("the pile database builds");
    let board = Generator::new(&BoardIndex::plain())
        .label(tictactoe())
        .threads(1)
        .backward()
        .expect("the tic-tac-toe database builds");
    let file = |t: &Table| compressed::to_bytes_with(t, 6);
    [
        (crate::retro::label(), pile.clone(), file(&pile)),
        (tictactoe(), board.clone(), file(&board)),
    ]
});

/// Bytes of the header before the names.
const FIXED: usize = 60;

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// Rewrites the header checksum, every block's checksum (for blocks whose
/// offsets are in order and inside the bytes) and the block index checksum
/// so that they match the bytes, as far as the layout fits in `bytes`.
pub fn repair(bytes: &mut [u8]) {
    if bytes.len() < FIXED {
        return;
    }
    let mut at = FIXED;
    for _ in 0..3 {
        let Some(n) = bytes.get(at..at + 2) else {
            return;
        };
        at += 2 + usize::from(u16::from_le_bytes([n[0], n[1]]));
    }
    if u16::from_le_bytes([bytes[8], bytes[9]]) == VERSION {
        let Some(n) = bytes.get(at..at + 4) else {
            return;
        };
        at += 4 + u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize;
    }
    if bytes.len() < at + 8 {
        return;
    }
    let sum = checksum(&bytes[..at]);
    bytes[at..at + 8].copy_from_slice(&sum.to_le_bytes());
    let index = at + 8;
    let Some(blocks) = u64_at(bytes, 52).and_then(|b| usize::try_from(b).ok()) else {
        return;
    };
    let Some(data) = blocks
        .checked_mul(16)
        .and_then(|n| n.checked_add(index + 8))
        .filter(|&d| d <= bytes.len())
    else {
        return;
    };
    let mut start = 0usize;
    for k in 0..blocks {
        let entry = index + 16 * k;
        let Some(end) = u64_at(bytes, entry).and_then(|e| usize::try_from(e).ok()) else {
            break;
        };
        if end < start || data.saturating_add(end) > bytes.len() {
            break;
        }
        let sum = checksum(&bytes[data + start..data + end]);
        bytes[entry + 8..entry + 16].copy_from_slice(&sum.to_le_bytes());
        start = end;
    }
    let sum = checksum(&bytes[index..data - 8]);
    bytes[data - 8..data].copy_from_slice(&sum.to_le_bytes());
}

/// A fuzz case.
#[derive(Arbitrary, Clone, Debug)]
pub struct Case {
    /// 0: `raw` only; 1: the pile file; 2: the tic-tac-toe file (modulo 3).
    pub source: u8,
    /// Bytes appended to the source (all of the input for `source` 0).
    pub raw: Vec<u8>,
    /// Byte edits `(offset, xor)`, offsets modulo the length.
    pub edits: Vec<(u16, u8)>,
    /// Cut the bytes to this length (if shorter).
    pub cut: Option<u16>,
    /// Recompute the checksums after editing.
    pub repair: bool,
}

/// Builds the bytes of `case`.
pub fn bytes(case: &Case) -> Vec<u8> {
    let base = match case.source % 3 {
        0 => Vec::new(),
        s => FILES[usize::from(s - 1)].2.clone(),
    };
    let repair: fn(&mut [u8]) = repair;
    crate::edited(
        base,
        &case.raw,
        &case.edits,
        case.cut,
        case.repair.then_some(repair),
    )
}

/// Decodes `bytes` as a compressed file of `expected`.
///
/// # Panics
///
/// When a decoded table, written again (blocks of the same size), does
/// not decode to the same table.
pub fn load(bytes: &[u8], expected: &Label) {
    if let Ok(t) = compressed::from_bytes(bytes, expected) {
        let again = compressed::to_bytes_with(&t, u32::from(bytes[10]));
        assert_eq!(
            compressed::from_bytes(&again, expected).ok(),
            Some(t),
            "a decoded table, written again, decodes differently"
        );
    }
}

/// Runs a case: a genuine file decodes to its table unedited, and
/// anything decodes or is refused without a panic (see [`load`]).
///
/// # Panics
///
/// When a genuine file does not decode to its table, or [`load`] panics.
pub fn run(case: &Case) {
    let b = bytes(case);
    let source = usize::from(case.source % 3);
    let expected = match source {
        0 => crate::retro::label(),
        s => FILES[s - 1].0.clone(),
    };
    if source > 0 {
        let full = FILES[source - 1].2.len();
        let pristine = case.raw.is_empty()
            && case.edits.iter().all(|&(_, x)| x == 0)
            && case.cut.is_none_or(|c| usize::from(c) >= full);
        if pristine {
            assert_eq!(
                compressed::from_bytes(&b, &expected).ok().as_ref(),
                Some(&FILES[source - 1].1)
            );
        }
    }
    load(&b, &expected);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    #[test]
    fn genuine_files_decode_and_repair_is_a_no_op_on_them() {
        for (label, table, file) in FILES.iter() {
            let mut b = file.clone();
            repair(&mut b);
            assert_eq!(&b, file);
            assert_eq!(
                compressed::from_bytes(file, label).ok().as_ref(),
                Some(table)
            );
        }
    }

    /// Edits anywhere in the tic-tac-toe file, checksums repaired: the
    /// priors, the block index and the blocks are all reached, and each
    /// edit is either refused or decodes without a panic.
    #[test]
    fn repaired_edits_are_refused_or_decode() {
        let (label, table, file) = &FILES[1];
        let mut refused = 0;
        for at in (0..file.len()).step_by(11) {
            let mut b = file.clone();
            b[at] ^= 0x41;
            repair(&mut b);
            match compressed::from_bytes(&b, label) {
                Ok(t) => {
                    assert!(at >= FIXED, "byte {at} of the fixed header accepted");
                    assert_eq!(t.len(), table.len());
                }
                Err(_) => refused += 1,
            }
            load(&b, label);
        }
        assert!(refused > 0);
    }

    #[test]
    fn seeded_cases_never_panic() {
        let mut rng = SplitMix(7);
        for _ in 0..500 {
            let bytes = rng.bytes(64);
            crate::with_arbitrary(&bytes, |c: Case| run(&c));
        }
    }
}
