//! The material keys the tablebase finds endings by.

use super::*;
use crate::{pawn_endings, pawnless_endings};

fn sig(s: &str) -> Signature {
    s.parse().unwrap()
}

/// Every ending of up to 5 pieces: distinct keys for distinct endings,
/// the key of the colours exchanged by [`flipped_key`], and the key of
/// its positions ([`Placement::material`], [`position_key`]) equal to its
/// own.
#[test]
fn material_keys_tell_endings_apart_and_match_their_positions() {
    let mut all: Vec<Signature> = Vec::new();
    for men in 2..=5 {
        for s in pawnless_endings(men).into_iter().chain(pawn_endings(men)) {
            all.push(s.flipped());
            all.push(s);
        }
    }
    let mut keys: HashMap<u64, Signature> = HashMap::new();
    for s in &all {
        let key = signature_key(s);
        assert_eq!(flipped_key(key), signature_key(&s.flipped()), "{s}");
        assert_eq!(flipped_key(flipped_key(key)), key, "{s}");
        if let Some(other) = keys.insert(key, s.clone()) {
            assert_eq!(&other, s, "one key for two endings");
        }
        // A position of the ending, from an index of its space.
        let position = match Space::of(s) {
            Space::Pawnless(space) => (0..space.size())
                .find_map(|i| space.endgame().position(i))
                .unwrap(),
            Space::Pawns(space) => (0..space.size()).find_map(|i| space.position(i)).unwrap(),
        };
        assert_eq!(position_key(&position), key, "{s}: {position}");
        if let Some(p) = Placement::from_position(&position) {
            assert_eq!(p.material(), key, "{s}: {position}");
        }
    }
    // Both colours of each asymmetric ending, the symmetric ones once.
    let symmetric = all.iter().filter(|s| s.flipped() == **s).count();
    assert_eq!(keys.len(), all.len() - symmetric / 2);
}

#[test]
fn an_ending_is_found_by_its_key_and_replaced_in_place() {
    let mut tablebase = Tablebase::new();
    tablebase
        .build(&[sig("KRvK"), sig("KQvK")], &BuildOptions::default())
        .unwrap();
    assert_eq!(tablebase.slot_of(&sig("KRvK")), Some(0));
    assert_eq!(tablebase.slot_of(&sig("KQvK")), Some(1));
    assert_eq!(tablebase.slot_of(&sig("KvKR")), None);
    assert!(tablebase.covers(&sig("KvKR")));
    // Replaced: the new table comes last, the keys follow.
    let krk = tablebase.remove(&sig("KRvK")).unwrap();
    assert_eq!(tablebase.slot_of(&sig("KQvK")), Some(0));
    assert!(tablebase.insert(krk).unwrap().is_none());
    assert_eq!(tablebase.slot_of(&sig("KRvK")), Some(1));
    let again = tablebase.table(&sig("KRvK")).unwrap().clone();
    assert!(tablebase.insert(again).unwrap().is_some());
    assert_eq!(tablebase.len(), 2);
    assert_eq!(tablebase.by_key.len(), 2);
}
