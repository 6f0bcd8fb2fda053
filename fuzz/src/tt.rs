//! The transposition tables against a `HashMap` model.
//!
//! The table is built with [`Config::verification`] (exact-depth probes,
//! full 64-bit keys), so there are no false hits: every hit must be exactly
//! the last entry stored for its key, with its value converted by
//! `gametree_game::Score` (the reference for the decisive-score convention), and
//! `usable` exactly when the depths are equal. A table may lose entries
//! (replacement), so a miss is allowed, except right after a store that the
//! table did not reject, and for every key after `clear`.

use std::collections::{HashMap, HashSet};

use arbitrary::Arbitrary;
use gametree_game::Score;
use gametree_ttable::{Bound, Config, Entry, Replacement, SharedTable, Table, TranspositionTable};

/// A value a search at some ply can produce.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Value {
    /// A heuristic value (reduced into the heuristic range).
    Heuristic(i16),
    /// A win this many plies after the storing node.
    Win(u8),
    /// A loss this many plies after the storing node.
    Loss(u8),
}

/// One operation on the table.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Op {
    /// `store(keys[key], ply, entry)`.
    Store {
        /// Index into the key list.
        key: u8,
        /// Ply of the storing node.
        ply: u8,
        /// Remaining depth.
        depth: u8,
        /// The value.
        value: Value,
        /// Bound selector (modulo 3).
        bound: u8,
        /// Best-move code (`Some(u16::MAX)` means none).
        best_move: Option<u16>,
    },
    /// `probe(keys[key], depth, ply)`.
    Probe {
        /// Index into the key list.
        key: u8,
        /// Requested depth.
        depth: u8,
        /// Ply of the probing node.
        ply: u8,
    },
    /// `new_generation()`.
    NewGeneration,
    /// `clear()`.
    Clear,
}

/// A whole fuzz case: which table, its size, the keys and the operations.
#[derive(Arbitrary, Clone, Debug)]
pub struct Script {
    /// Replacement policy selector (modulo 4).
    pub replacement: u8,
    /// Test [`SharedTable`] instead of [`TranspositionTable`].
    pub shared: bool,
    /// Size in buckets, `1 + buckets % 4` (small, so entries collide).
    pub buckets: u8,
    /// The keys (at least one is added); operations index them modulo the length.
    pub keys: Vec<u64>,
    /// The operations.
    pub ops: Vec<Op>,
}

fn replacement(selector: u8) -> Replacement {
    match selector % 4 {
        0 => Replacement::Always,
        1 => Replacement::DepthPreferred,
        2 => Replacement::TwoTier,
        _ => Replacement::DepthMinusAge,
    }
}

fn bound(selector: u8) -> Bound {
    match selector % 3 {
        0 => Bound::Upper,
        1 => Bound::Lower,
        _ => Bound::Exact,
    }
}

/// The root-relative value `value` stands for at `ply`.
fn root_value(value: Value, ply: u32) -> i32 {
    match value {
        Value::Heuristic(v) => Score::heuristic(i32::from(v)).get(),
        Value::Win(d) => Score::win_in(ply + u32::from(d)).get(),
        Value::Loss(d) => Score::loss_in(ply + u32::from(d)).get(),
    }
}

/// What the model knows of a key: the last entry stored (value kept
/// node-relative) and every move ever stored for it.
#[derive(Default)]
struct Expected {
    last: Option<(Entry, i32)>,
    moves: HashSet<u16>,
}

fn check_hit(hit: &gametree_ttable::Hit, exp: &Expected, key: u64, depth: u8, ply: u32) {
    let Some((last, node_value)) = exp.last else {
        panic!("hit for key {key:#x}, which the model does not hold");
    };
    let want = Score::new(node_value).to_root_relative(ply).get();
    assert_eq!(hit.entry.value, want, "value of key {key:#x} at ply {ply}");
    assert_eq!(hit.entry.depth, last.depth, "depth of key {key:#x}");
    assert_eq!(hit.entry.bound, last.bound, "bound of key {key:#x}");
    match last.best_move {
        Some(m) => assert_eq!(hit.entry.best_move, Some(m), "move of key {key:#x}"),
        None => assert!(
            hit.entry.best_move.is_none_or(|m| exp.moves.contains(&m)),
            "key {key:#x} has a move never stored for it"
        ),
    }
    assert_eq!(hit.usable, last.depth == depth, "usable flag (exact depth)");
}

/// Runs `script` on a table and on the model.
///
/// # Panics
///
/// On any disagreement.
pub fn run(script: &Script) {
    let config = Config::verification().replacement(replacement(script.replacement));
    let bytes = (1 + usize::from(script.buckets % 4)) * gametree_ttable::BUCKET_BYTES;
    if script.shared {
        let table = SharedTable::with_config(bytes, config).expect("valid size and config");
        run_on(&mut &table, config, script);
    } else {
        let mut table =
            TranspositionTable::with_config(bytes, config).expect("valid size and config");
        run_on(&mut table, config, script);
    }
}

fn run_on<T: Table>(table: &mut T, config: Config, script: &Script) {
    let mut keys = script.keys.clone();
    keys.push(0x9e37_79b9_7f4a_7c15);
    keys.truncate(64);
    let mut model: HashMap<u64, Expected> = HashMap::new();
    for op in &script.ops {
        match *op {
            Op::Store {
                key,
                ply,
                depth,
                value,
                bound: b,
                best_move,
            } => {
                let key = keys[usize::from(key) % keys.len()];
                let ply = u32::from(ply);
                let best_move = best_move.filter(|&m| m != gametree_ttable::NO_MOVE);
                let entry = Entry {
                    best_move,
                    value: root_value(value, ply),
                    depth,
                    bound: bound(b),
                };
                let rejected = table.stats().rejected;
                table.store(key, ply, entry);
                let e = model.entry(key).or_default();
                if let Some(m) = best_move {
                    e.moves.insert(m);
                }
                if table.stats().rejected > rejected {
                    assert_eq!(
                        config.get_replacement(),
                        Replacement::DepthPreferred,
                        "only depth-preferred replacement refuses stores"
                    );
                    e.last = None;
                    assert!(
                        table.probe(key, depth, 0).is_none(),
                        "a refused store left its key in the table"
                    );
                    continue;
                }
                let node_value = Score::new(entry.value).to_node_relative(ply).get();
                e.last = Some((entry, node_value));
                let hit = table
                    .probe(key, depth, ply)
                    .unwrap_or_else(|| panic!("key {key:#x} missing right after its store"));
                check_hit(&hit, e, key, depth, ply);
                if best_move.is_none()
                    && let Some(m) = hit.entry.best_move
                {
                    // The table kept the old move: later hits must show it.
                    e.last = Some((
                        Entry {
                            best_move: Some(m),
                            ..entry
                        },
                        node_value,
                    ));
                }
            }
            Op::Probe { key, depth, ply } => {
                let key = keys[usize::from(key) % keys.len()];
                if let Some(hit) = table.probe(key, depth, u32::from(ply)) {
                    let exp = model.get(&key).unwrap_or_else(|| {
                        panic!("hit for key {key:#x}, never stored");
                    });
                    check_hit(&hit, exp, key, depth, u32::from(ply));
                }
            }
            Op::NewGeneration => table.new_generation(),
            Op::Clear => {
                table.clear();
                model.clear();
                for &k in &keys {
                    assert!(table.probe(k, 0, 0).is_none(), "key {k:#x} survived clear");
                }
            }
        }
        assert!(table.hashfull() <= 1000, "hashfull above 1000");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    #[test]
    fn seeded_scripts_agree_with_the_model() {
        let mut rng = SplitMix(7);
        for _ in 0..300 {
            let bytes = rng.bytes(600);
            crate::with_arbitrary(&bytes, |s: Script| run(&s));
        }
    }
}
