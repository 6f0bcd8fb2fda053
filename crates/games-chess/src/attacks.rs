//! Attack tables: knight, king and pawn tables computed at compile time;
//! rook and bishop attacks through magic bitboards whose magic numbers this
//! crate searches for itself, once, the first time they are needed.
//!
//! The magic search draws candidates from a xorshift generator with a fixed
//! seed, so every run finds the same magics. On this project's machine it
//! takes a few tens of milliseconds.

use std::sync::LazyLock;

/// A set of squares, bit `i` for square `i` (a1 = 0, h1 = 7, a8 = 56).
pub(crate) type Bitboard = u64;

const fn step_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i8;
        let rank = (sq / 8) as i8;
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let f = file + deltas[i].0;
            let r = rank + deltas[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = bb;
        sq += 1;
    }
    table
}

/// Knight moves from each square.
pub(crate) const KNIGHT: [Bitboard; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// King moves from each square.
pub(crate) const KING: [Bitboard; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

/// Squares attacked by a pawn of each colour standing on each square.
pub(crate) const PAWN: [[Bitboard; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slider attacks by walking the rays: the slow reference the magic tables
/// are built from (and tested against).
pub(crate) fn slow_slider(sq: usize, occ: Bitboard, dirs: &[(i8, i8); 4]) -> Bitboard {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            bb |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    bb
}

/// The relevant-occupancy mask: the rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> Bitboard {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            bb |= 1u64 << (r * 8 + f);
        }
    }
    bb
}

#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// All the lazily built tables.
#[derive(Debug)]
pub(crate) struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bitboard>,
    /// Squares strictly between two squares on a common line, else empty.
    between: Vec<Bitboard>,
    /// The whole line through two squares (both included), else empty.
    line: Vec<Bitboard>,
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for one square by trial and error and writes its table at
/// `attacks[offset..]`.
fn find_magic(
    sq: usize,
    dirs: &[(i8, i8); 4],
    rng: &mut XorShift,
    attacks: &mut Vec<Bitboard>,
) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let mut occs = Vec::with_capacity(size);
    let mut refs = Vec::with_capacity(size);
    // Enumerate the subsets of the mask (Carry-Rippler).
    let mut sub: u64 = 0;
    loop {
        occs.push(sub);
        refs.push(slow_slider(sq, sub, dirs));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut table = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occs.iter().zip(&refs) {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                table[idx] = att;
            } else if table[idx] != att {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = attacks.len();
            attacks.extend_from_slice(&table);
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

impl Tables {
    fn build() -> Tables {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut attacks = Vec::with_capacity(110_000);
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for (sq, m) in rook.iter_mut().enumerate() {
            *m = find_magic(sq, &ROOK_DIRS, &mut rng, &mut attacks);
        }
        for (sq, m) in bishop.iter_mut().enumerate() {
            *m = find_magic(sq, &BISHOP_DIRS, &mut rng, &mut attacks);
        }
        let mut between = vec![0u64; 64 * 64];
        let mut line = vec![0u64; 64 * 64];
        for a in 0..64 {
            for b in 0..64 {
                if a == b {
                    continue;
                }
                let bit_b = 1u64 << b;
                for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                    if slow_slider(a, 0, dirs) & bit_b != 0 {
                        between[a * 64 + b] =
                            slow_slider(a, bit_b, dirs) & slow_slider(b, 1u64 << a, dirs);
                        line[a * 64 + b] = (slow_slider(a, 0, dirs) & slow_slider(b, 0, dirs))
                            | (1u64 << a)
                            | bit_b;
                    }
                }
            }
        }
        Tables {
            rook,
            bishop,
            attacks,
            between,
            line,
        }
    }

    /// Rook attacks from `sq` given the occupancy.
    #[inline(always)]
    pub(crate) fn rook(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let m = &self.rook[sq];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    /// Bishop attacks from `sq` given the occupancy.
    #[inline(always)]
    pub(crate) fn bishop(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let m = &self.bishop[sq];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    /// Squares strictly between `a` and `b` when they share a line.
    #[inline(always)]
    pub(crate) fn between(&self, a: usize, b: usize) -> Bitboard {
        self.between[a * 64 + b]
    }

    /// The full line through `a` and `b` when they share one, else empty.
    #[inline(always)]
    pub(crate) fn line(&self, a: usize, b: usize) -> Bitboard {
        self.line[a * 64 + b]
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The attack tables (built on first use).
#[inline(always)]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_agree_with_ray_walking() {
        let t = tables();
        let mut rng = XorShift(12345);
        for sq in 0..64 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(t.rook(sq, occ), slow_slider(sq, occ, &ROOK_DIRS));
                assert_eq!(t.bishop(sq, occ), slow_slider(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(KNIGHT[0], (1 << 10) | (1 << 17));
        assert_eq!(KING[0].count_ones(), 3);
        assert_eq!(KING[27].count_ones(), 8);
        assert_eq!(PAWN[0][8], 1 << 17);
        assert_eq!(PAWN[1][17], (1 << 8) | (1 << 10));
        let t = tables();
        assert_eq!(t.between(0, 63).count_ones(), 6);
        assert_eq!(t.between(0, 10), 0);
        assert_eq!(t.line(0, 9).count_ones(), 8);
        assert_eq!(t.line(0, 10), 0);
    }
}
