//! Database loading: arbitrary bytes are refused with a typed error or
//! loaded, never a panic; what loads re-encodes to the same bytes.
//!
//! Random bytes almost never get past the checksums, so a case may start
//! from a genuine file (a small database of a subtraction game, one-byte or
//! two-bit encoding), edit, cut or extend it, and then recompute the
//! checksums and the payload length from the layout documented in
//! `gametree_retrograde::format` ([`repair`]); the decoder's later checks (sizes,
//! counts, codes, padding, labels) are then reached.

use std::sync::LazyLock;

use arbitrary::Arbitrary;
use arrayvec::ArrayVec;
use gametree_game::{Game, IndexSpace, Outcome, Player};
use gametree_retrograde::format::checksum;
use gametree_retrograde::{Generator, Label, Table, WdlTable};

/// A pile of stones; the player to move takes one to three, taking the
/// last one wins. Small enough that its database has 44 entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pile {
    stones: u64,
    to_move: Player,
}

impl Game for Pile {
    type Move = u64;
    type Undo = ();
    type Moves = ArrayVec<u64, 3>;
    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        out.extend(1..=self.stones.min(3));
    }
    fn make(&mut self, m: u64) {
        self.stones -= m;
        self.to_move = self.to_move.opponent();
    }
    fn unmake(&mut self, m: u64, (): ()) {
        self.stones += m;
        self.to_move = self.to_move.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        self.stones
    }
    fn recompute_hash(&self) -> u64 {
        self.stones
    }
}

/// Piles of 0 to 40 stones; indices 41 to 43 stand for no position, so
/// that the file holds invalid codes too.
pub struct Piles;

impl IndexSpace for Piles {
    type Game = Pile;
    fn size(&self) -> u64 {
        44
    }
    fn position(&self, i: u64) -> Option<Pile> {
        (i < 41).then_some(Pile {
            stones: i,
            to_move: Player::First,
        })
    }
    fn index_of(&self, p: &Pile) -> Option<u64> {
        (p.stones < 41).then_some(p.stones)
    }
}

/// The label of the genuine files.
pub fn label() -> Label {
    Label::new("pile", "0-40", "stones-v1")
}

/// The genuine files: one-byte and two-bit encodings.
pub static FILES: LazyLock<[Vec<u8>; 2]> = LazyLock::new(|| {
    let table = Generator::new(&Piles)
        .label(label())
        .threads(1)
        .forward()
        .expect("the pile database builds");
    [table.to_bytes(), table.to_wdl().to_bytes()]
});

const FIXED: usize = 68;

/// Rewrites the payload length (offset 52), the payload checksum (offset
/// 60) and the header checksum (after the three names) so that they match
/// the bytes, as far as the names fit in `bytes`.
pub fn repair(bytes: &mut [u8]) {
    if bytes.len() < FIXED {
        return;
    }
    let mut at = FIXED;
    for _ in 0..3 {
        if bytes.len() < at + 2 {
            return;
        }
        at += 2 + usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    }
    if bytes.len() < at + 8 {
        return;
    }
    let header_end = at + 8;
    let payload_len = (bytes.len() - header_end) as u64;
    bytes[52..60].copy_from_slice(&payload_len.to_le_bytes());
    let sum = checksum(&bytes[header_end..]);
    bytes[60..68].copy_from_slice(&sum.to_le_bytes());
    let sum = checksum(&bytes[..at]);
    bytes[at..header_end].copy_from_slice(&sum.to_le_bytes());
}

/// The three names of a header, read leniently (for the label to expect).
fn names(bytes: &[u8]) -> Option<Label> {
    let mut at = FIXED;
    let mut out: Vec<String> = Vec::new();
    for _ in 0..3 {
        let len = usize::from(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
        let name = bytes.get(at + 2..at + 2 + len)?;
        out.push(String::from_utf8_lossy(name).into_owned());
        at += 2 + len;
    }
    Some(Label::new(out[0].clone(), out[1].clone(), out[2].clone()))
}

/// A fuzz case.
#[derive(Arbitrary, Clone, Debug)]
pub struct Case {
    /// 0: `raw` only; 1: the one-byte file; 2: the two-bit file (modulo 3).
    pub source: u8,
    /// Bytes appended to the source (all of the input for `source` 0).
    pub raw: Vec<u8>,
    /// Byte edits `(offset, xor)`, offsets modulo the length.
    pub edits: Vec<(u16, u8)>,
    /// Cut the bytes to this length (if shorter).
    pub cut: Option<u16>,
    /// Recompute lengths and checksums after editing.
    pub repair: bool,
    /// Expect the label read from the file (else the genuine label).
    pub own_label: bool,
}

/// Builds the bytes of `case`.
pub fn bytes(case: &Case) -> Vec<u8> {
    let base = match case.source % 3 {
        0 => Vec::new(),
        s => FILES[usize::from(s - 1)].clone(),
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

/// Loads `bytes` as both encodings, expecting `expected`.
///
/// # Panics
///
/// When a loaded table does not re-encode to the same bytes (up to the
/// reserved byte 11, which the reader does not check, and the header
/// checksum covering it), or its re-encoding does not load back to the same
/// table.
pub fn load(bytes: &[u8], expected: &Label) {
    // The writer always writes 0 into the reserved byte 11; the reader
    // does not check it (only the header checksum covers it).
    let mut canonical = bytes.to_vec();
    if canonical.len() > 11 {
        canonical[11] = 0;
        repair(&mut canonical);
    }
    if let Ok(t) = Table::from_bytes(bytes, expected) {
        let again = t.to_bytes();
        assert_eq!(
            again, canonical,
            "a loaded one-byte table re-encodes differently"
        );
        assert_eq!(Table::from_bytes(&again, expected).ok(), Some(t));
    }
    if let Ok(t) = WdlTable::from_bytes(bytes, expected) {
        let again = t.to_bytes();
        assert_eq!(
            again, canonical,
            "a loaded two-bit table re-encodes differently"
        );
        assert_eq!(WdlTable::from_bytes(&again, expected).ok(), Some(t));
    }
}

/// Runs a case: the genuine files load unedited, and anything loads or is
/// refused without a panic (see [`load`]).
///
/// # Panics
///
/// When a genuine file is refused or [`load`] panics.
pub fn run(case: &Case) {
    let b = bytes(case);
    let expected = if case.own_label {
        names(&b).unwrap_or_else(label)
    } else {
        label()
    };
    let full = match case.source % 3 {
        0 => 0,
        s => FILES[usize::from(s - 1)].len(),
    };
    let pristine = case.raw.is_empty()
        && case.edits.iter().all(|&(_, x)| x == 0)
        && case.cut.is_none_or(|c| usize::from(c) >= full);
    match case.source % 3 {
        1 if pristine => assert!(Table::from_bytes(&b, &expected).is_ok()),
        2 if pristine => assert!(WdlTable::from_bytes(&b, &expected).is_ok()),
        _ => {}
    }
    load(&b, &expected);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    #[test]
    fn genuine_files_load_and_repair_is_a_no_op_on_them() {
        for f in FILES.iter() {
            let mut b = f.clone();
            repair(&mut b);
            assert_eq!(&b, f);
        }
        assert!(Table::from_bytes(&FILES[0], &label()).is_ok());
        assert!(WdlTable::from_bytes(&FILES[1], &label()).is_ok());
    }

    /// Found by the fuzzer (an oracle bug, kept as a regression input in
    /// `fuzz/regressions/retrograde_load/`): a genuine file with the
    /// reserved byte 11 set and the header checksum recomputed loads, and
    /// re-encodes with byte 11 zero and hence another header checksum.
    #[test]
    fn reserved_byte_is_ignored_by_the_reader() {
        let mut b = FILES[0].clone();
        b[11] = 0x5a;
        repair(&mut b);
        assert!(Table::from_bytes(&b, &label()).is_ok());
        load(&b, &label());
    }

    #[test]
    fn seeded_cases_never_panic() {
        let mut rng = SplitMix(5);
        for _ in 0..500 {
            let bytes = rng.bytes(64);
            crate::with_arbitrary(&bytes, |c: Case| run(&c));
        }
    }
}
