//! The collision study: how often does a probe of a key that was never
//! stored find an entry anyway ("false hit"), with `k` verification bits?
//!
//! A table is filled with random keys until every slot is occupied; then
//! fresh random keys are probed. Each probe compares the key's `k` check
//! bits against the `s` candidate slots of its bucket (8 in the compact
//! layout, 4 in the wide one), so in theory a false hit happens with
//! probability `1 - (1 - 2^-k)^s` if the stored check values were
//! independent. They are not quite: a store whose check bits match a slot on
//! its search path overwrites that slot (it is taken for the same key), so
//! the values on a path are distinct, and if a full bucket's `s` values were
//! all distinct the rate would be `s / 2^k` (while `s <= 2^k`); with linear
//! probing from the key's home slot the search stops at the first empty slot
//! while the bucket fills, so some buckets hold a value twice and the rate
//! lies between the two. Both are printed; they differ only for small `k`.
//!
//! Run: `cargo run --release -p gametree-ttable --example collisions [probes] [MiB]`
//! (defaults: 100000000 probes per k on a 16 MiB table).

use gametree_ttable::{Bound, Config, Entry, Table, TranspositionTable};

/// SplitMix64: a fast, well-mixed stream of 64-bit keys.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let probes: u64 = args.next().map_or(Ok(100_000_000), |a| a.parse())?;
    let mib: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    println!(
        "{probes} probes of never-stored random keys per row, {mib} MiB table, every slot full"
    );
    println!();
    println!(
        "| k bits | layout | slots probed s | false hits | measured rate | s/2^k | 1-(1-2^-k)^s | expected hits (s/2^k) |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    let mut rates = Vec::new();
    for k in [8u32, 16, 20, 24, 32, 64] {
        let mut tt = TranspositionTable::with_config(mib << 20, Config::new().check_bits(k))?;
        let slots: i32 = if k <= 16 { 8 } else { 4 };
        let mut fill = SplitMix(k.into());
        let entry = Entry {
            best_move: Some(1),
            value: 0,
            depth: 1,
            bound: Bound::Exact,
        };
        // With depth-minus-age replacement a store fills an empty slot of the
        // bucket first; 8x capacity leaves none empty (checked below).
        for _ in 0..8 * tt.capacity() {
            tt.store(fill.next(), 0, entry);
        }
        assert_eq!(tt.hashfull(), 1000, "table not full");
        let mut fresh = SplitMix(0xDEAD_BEEF ^ u64::from(k) << 32);
        let mut false_hits = 0u64;
        for _ in 0..probes {
            if tt.probe(fresh.next(), 0, 0).is_some() {
                false_hits += 1;
            }
        }
        // 1 - (1 - 2^-k)^s, computed without cancellation for large k.
        let theory = -(f64::from(slots) * (-2f64.powi(-(k as i32))).ln_1p()).exp_m1();
        let distinct = f64::from(slots) * 2f64.powi(-(k as i32));
        let measured = false_hits as f64 / probes as f64;
        let layout = if k <= 16 { "compact 8 B" } else { "wide 16 B" };
        println!(
            "| {k} | {layout} | {slots} | {false_hits} | {measured:.3e} | {distinct:.3e} | {theory:.3e} | {:.3} |",
            distinct * probes as f64
        );
        rates.push((k, distinct));
    }
    println!();
    println!("Mean probes between false hits, and time between them at 10 million probes/s:");
    for (k, p) in rates {
        let secs = 1.0 / p / 1e7;
        println!(
            "  k = {k:2}: one per {:.3e} probes = {}",
            1.0 / p,
            human(secs)
        );
    }
    Ok(())
}

fn human(secs: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else if secs < 3600.0 {
        format!("{secs:.1} s")
    } else if secs < YEAR {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.2e} years", secs / YEAR)
    }
}
