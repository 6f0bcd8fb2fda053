//! Attack tables: knight, king and pawn tables computed at compile time;
//! rook and bishop attacks through magic bitboards whose magic numbers this
//! crate found itself: a search drawing candidates from a xorshift generator
//! with a fixed seed. The numbers it finds are stored as constants, so that
//! no program pays for the search at start-up; a test checks that the
//! search still finds exactly them.
//!
//! Public for code that works on bitboards of its own (the endgame
//! generators of `gametree-chess-tables`): the knight and king tables
//! ([`KNIGHT`], [`KING`]), slider attacks through the magic tables
//! ([`tables`]: [`Tables::rook`], [`Tables::bishop`], [`Tables::between`],
//! [`Tables::line`]) or without them ([`sparse_rook`], [`sparse_bishop`]).
//! A square is a number from `0` (a1) to `63` (h8), rank by rank
//! (`rank × 8 + file`); a [`Bitboard`] has bit `i` set for square `i`.
//!
//! ```
//! use gametree_games_chess::attacks::{KING, KNIGHT, sparse_rook, tables};
//!
//! assert_eq!(KNIGHT[0], 1 << 10 | 1 << 17); // a1: c2 and b3
//! assert_eq!(KING[63].count_ones(), 3);
//! // A rook on a1 with a blocker on a4: a2, a3, a4 and the first rank.
//! let occ = 1u64 << 24;
//! assert_eq!(tables().rook(0, occ), sparse_rook(0, occ));
//! assert_eq!(tables().rook(0, occ).count_ones(), 3 + 7);
//! assert_eq!(tables().between(0, 63).count_ones(), 6); // b2 .. g7
//! ```

use std::sync::LazyLock;

/// A set of squares, bit `i` for square `i` (a1 = 0, h1 = 7, a8 = 56).
pub type Bitboard = u64;

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

/// The squares a knight on each square attacks.
pub const KNIGHT: [Bitboard; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// The squares a king on each square attacks.
pub const KING: [Bitboard; 64] = step_table(&[
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

/// The rook magics, one per square (a1 = 0), as [`find_magic`] finds them
/// from the fixed seed (checked by a test).
const ROOK_MAGICS: [u64; 64] = [
    0x2080_0020_8040_0010,
    0x00C0_0020_0140_1000,
    0x2100_1100_0840_2002,
    0x0880_0800_8104_1000,
    0x0200_0200_2004_1008,
    0x2300_0400_0801_0012,
    0x0C00_2830_0400_8201,
    0x0180_0100_0040_7A80,
    0x0168_8000_8040_0020,
    0x0010_4000_4020_1000,
    0x1001_0020_0100_1048,
    0x1001_0024_0810_0100,
    0x0801_0004_0801_0012,
    0x4001_0002_0900_0400,
    0x08A2_0004_C802_0001,
    0x2002_8011_4500_2280,
    0x0080_8600_2100_4200,
    0x0010_00C0_0940_2002,
    0x00B0_0020_0400_2800,
    0x100A_8080_1002_0800,
    0x8101_0100_0800_0410,
    0x0244_0080_0200_0480,
    0x0000_0400_1081_0208,
    0x2000_0200_0044_8534,
    0x4104_4004_8000_8033,
    0x0000_8101_0020_4000,
    0x0440_4309_0020_0010,
    0x4600_2409_0010_0100,
    0x0060_0800_8004_0080,
    0x0001_0003_0008_0400,
    0x0004_0844_0001_1002,
    0x0023_0402_0000_8041,
    0x0580_0500_4300_2080,
    0x0400_8040_0280_2008,
    0x0001_0020_0100_4010,
    0x1000_2009_0100_1000,
    0x4410_8008_0180_0C00,
    0xA012_0038_0600_1004,
    0x0020_1001_0400_8802,
    0x0004_8084_0200_0041,
    0x0010_4001_7089_8000,
    0x0080_5000_2000_4004,
    0x1040_4080_1202_0020,
    0x8010_0400_0800_4040,
    0x2001_0801_0011_0004,
    0x0000_0200_0400_8080,
    0x0021_0108_1004_0002,
    0x0800_008C_4302_0024,
    0x0000_8000_2100_5100,
    0x0070_2010_4000_8080,
    0x0000_D042_8200_6A00,
    0x0010_0144_0008_0240,
    0x0001_0801_1005_0100,
    0x0012_0008_1024_0600,
    0x0402_0008_0104_0200,
    0x0281_0010_8A00_4100,
    0x0050_8003_0010_2045,
    0x8208_2100_4012_0882,
    0x8010_6001_0118_3441,
    0x020B_0009_1000_6045,
    0x0241_0010_0248_0005,
    0x0081_0004_0088_0241,
    0x0000_0090_0802_4124,
    0x0048_1229_8041_0402,
];

/// The bishop magics, one per square (a1 = 0), as [`find_magic`] finds them
/// from the fixed seed (checked by a test).
const BISHOP_MAGICS: [u64; 64] = [
    0x0848_0208_2204_0013,
    0x8010_A400_8582_1200,
    0x0008_0084_3084_0822,
    0x0808_0481_0804_0000,
    0x1304_0421_0000_8104,
    0x5001_0120_1020_4023,
    0x8104_8801_B820_0420,
    0x200A_0080_8401_2000,
    0x0040_1020_0104_2084,
    0x840A_5050_4242_8020,
    0x0000_7001_0220_2920,
    0x4410_1C0C_1080_0002,
    0x0040_0404_2200_0000,
    0x0180_0208_0209_0202,
    0x4020_0208_1104_1202,
    0x0001_0430_8C04_2000,
    0x4140_6610_0242_4400,
    0x0028_0120_0801_0460,
    0x0188_0621_0200_2A00,
    0x0014_0048_4010_2008,
    0x0105_0002_9040_0002,
    0x8001_0222_0041_0400,
    0x104A_0419_1801_3446,
    0x008A_0000_8200_8238,
    0x04A0_0600_0810_0430,
    0x0008_2200_0882_0801,
    0x2508_0412_0800_5010,
    0x4008_0802_0020_2020,
    0x2441_0010_1300_4000,
    0x0030_0080_6040_7000,
    0x4008_1080_0042_0800,
    0x0012_0210_5029_0100,
    0x0210_0804_8220_0500,
    0xCC01_1120_4810_0480,
    0x0020_4028_0650_0440,
    0x0004_8E00_8058_0080,
    0x0040_1020_2002_0080,
    0x0028_0104_4008_0807,
    0x4601_0411_0800_8800,
    0x8040_810E_0410_4200,
    0x9012_1011_0400_088A,
    0xA003_0802_1208_1050,
    0x00C1_0040_4840_1004,
    0x9000_00A0_1440_0800,
    0x0008_0210_4040_5401,
    0x4020_0082_0600_2090,
    0x0004_1904_2403_0100,
    0x0424_008A_0202_6250,
    0x8004_0882_5090_0040,
    0x1C00_4300_88A0_4200,
    0x0001_0200_9404_0001,
    0x8040_2100_2088_0061,
    0x2010_0404_5044_2032,
    0x0800_8408_5004_4001,
    0x0004_0408_0214_0004,
    0x0004_080A_0422_2020,
    0x8088_8021_1002_2000,
    0x1081_A104_1611_4400,
    0x0205_010A_2406_0820,
    0x0000_0007_2041_1080,
    0x1008_0002_0843_0400,
    0x580C_0260_2881_0840,
    0x8020_2044_1020_A110,
    0x12C0_0224_0102_0018,
];

/// The lines through each square, the square itself left out: its file,
/// its diagonal (a1–h8 direction) and its anti-diagonal (a8–h1
/// direction).
#[derive(Clone, Copy)]
struct Lines {
    file: Bitboard,
    diagonal: Bitboard,
    anti: Bitboard,
}

const LINES: [Lines; 64] = {
    let mut out = [Lines {
        file: 0,
        diagonal: 0,
        anti: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (g, s) = ((other % 8) as i32, (other / 8) as i32);
            if other != sq {
                let b = 1u64 << other;
                if g == f {
                    out[sq].file |= b;
                }
                if g - f == s - r {
                    out[sq].diagonal |= b;
                }
                if g - f == r - s {
                    out[sq].anti |= b;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    out
};

/// `RANK_ATTACKS[file][inner]`: the squares a rook on `file` of the first
/// rank attacks along it when `inner` holds the occupancy of files b–g
/// (bit 0: b).
const RANK_ATTACKS: [[u8; 64]; 8] = {
    let mut out = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occ = (inner << 1) as u32;
            let mut attacks = 0u32;
            let mut f = file + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            let mut f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            out[file][inner] = attacks as u8;
            inner += 1;
        }
        file += 1;
    }
    out
};

/// Slider attacks along `line` (a line through `sq` with one square per
/// rank, `sq` left out) by hyperbola quintessence: subtracting twice the
/// slider's bit from the occupied squares of the line flips the bits up
/// to the first blocker above it; the same on the byte-reversed board
/// finds the first blocker below.
#[inline(always)]
fn line_attacks(sq: usize, occ: Bitboard, line: Bitboard) -> Bitboard {
    let o = occ & line;
    let s = 1u64 << sq;
    let up = o.wrapping_sub(s.wrapping_mul(2));
    let down = o
        .swap_bytes()
        .wrapping_sub(s.swap_bytes().wrapping_mul(2))
        .swap_bytes();
    (up ^ down) & line
}

/// Rook attacks along the rank of `sq`.
#[inline(always)]
fn rank_attacks(sq: usize, occ: Bitboard) -> Bitboard {
    let shift = sq & 56;
    let inner = (occ >> (shift + 1)) & 63;
    u64::from(RANK_ATTACKS[sq & 7][inner as usize]) << shift
}

/// The squares a rook on `sq` attacks given the occupancy `occ`, computed
/// without the magic table: the file by hyperbola quintessence, the rank
/// from a 512-byte table. A few more
/// instructions than [`Tables::rook`], but the data stays in the
/// first-level cache: faster where the magic table (860 KB) competes for
/// the cache with other large arrays, as in the endgame generators,
/// slower in a full-board perft (measured). Needs no [`tables`]. Only
/// the low six bits of `sq` are read.
#[inline(always)]
pub fn sparse_rook(sq: usize, occ: Bitboard) -> Bitboard {
    let sq = sq & 63;
    line_attacks(sq, occ, LINES[sq].file) | rank_attacks(sq, occ)
}

/// The squares a bishop on `sq` attacks given the occupancy `occ`, without
/// the magic table (see [`sparse_rook`]): both diagonals by hyperbola
/// quintessence. Only the low six bits of `sq` are read.
#[inline(always)]
pub fn sparse_bishop(sq: usize, occ: Bitboard) -> Bitboard {
    let sq = sq & 63;
    let l = &LINES[sq];
    line_attacks(sq, occ, l.diagonal) | line_attacks(sq, occ, l.anti)
}

#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// The slider tables, built on first use ([`tables`]): magic-bitboard
/// rook and bishop attacks, and the squares between and through two
/// squares.
#[derive(Debug)]
pub struct Tables {
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

/// The subsets of `sq`'s relevant mask with their attack sets.
fn occupancies(sq: usize, dirs: &[(i8, i8); 4]) -> (Bitboard, Vec<u64>, Vec<Bitboard>) {
    let mask = relevant_mask(sq, dirs);
    let size = 1usize << mask.count_ones();
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
    (mask, occs, refs)
}

/// Builds `sq`'s table with a known `magic`, appended to `attacks`; `None`
/// (and `attacks` untouched) if the magic maps two different attack sets
/// to one slot.
fn with_magic(
    sq: usize,
    dirs: &[(i8, i8); 4],
    magic: u64,
    attacks: &mut Vec<Bitboard>,
) -> Option<Magic> {
    let (mask, occs, refs) = occupancies(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let mut table: Vec<Option<Bitboard>> = vec![None; 1usize << bits];
    for (&occ, &att) in occs.iter().zip(&refs) {
        let slot = &mut table[(occ.wrapping_mul(magic) >> shift) as usize];
        match *slot {
            Some(other) if other != att => return None,
            _ => *slot = Some(att),
        }
    }
    let offset = attacks.len();
    attacks.extend(table.iter().map(|a| a.unwrap_or(0)));
    Some(Magic {
        mask,
        magic,
        shift,
        offset,
    })
}

/// Finds a magic for one square by trial and error and writes its table at
/// `attacks[offset..]`.
fn find_magic(
    sq: usize,
    dirs: &[(i8, i8); 4],
    rng: &mut XorShift,
    attacks: &mut Vec<Bitboard>,
) -> Magic {
    let (mask, occs, refs) = occupancies(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
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
        // The stored magics (a search at every start-up cost 0.3 s); the
        // search stays as the fallback should a stored one ever fail.
        for (sq, m) in rook.iter_mut().enumerate() {
            *m = with_magic(sq, &ROOK_DIRS, ROOK_MAGICS[sq], &mut attacks)
                .unwrap_or_else(|| find_magic(sq, &ROOK_DIRS, &mut rng, &mut attacks));
        }
        for (sq, m) in bishop.iter_mut().enumerate() {
            *m = with_magic(sq, &BISHOP_DIRS, BISHOP_MAGICS[sq], &mut attacks)
                .unwrap_or_else(|| find_magic(sq, &BISHOP_DIRS, &mut rng, &mut attacks));
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

    /// The squares a rook on `sq` attacks given the occupancy `occ`
    /// (the first blocker on each ray included, whatever its colour).
    /// Only the low six bits of `sq` are read.
    #[inline(always)]
    #[must_use]
    pub fn rook(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let m = &self.rook[sq & 63];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    /// The squares a bishop on `sq` attacks given the occupancy `occ`
    /// (see [`rook`](Self::rook)).
    #[inline(always)]
    #[must_use]
    pub fn bishop(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let m = &self.bishop[sq & 63];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    /// The squares strictly between `a` and `b` when they share a rank,
    /// file or diagonal, else none. Only the low six bits of each square
    /// are read.
    #[inline(always)]
    #[must_use]
    pub fn between(&self, a: usize, b: usize) -> Bitboard {
        self.between[(a & 63) * 64 + (b & 63)]
    }

    /// The whole rank, file or diagonal through `a` and `b` (both
    /// included) when they share one, else none. Only the low six bits
    /// of each square are read.
    #[inline(always)]
    #[must_use]
    pub fn line(&self, a: usize, b: usize) -> Bitboard {
        self.line[(a & 63) * 64 + (b & 63)]
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The slider tables (built on first use, about 1 MB).
#[inline(always)]
#[must_use]
pub fn tables() -> &'static Tables {
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

    /// The table-free attacks equal ray walking on random occupancies
    /// (dense and sparse, with and without the slider's own square) and on
    /// every occupancy of the slider's own rank and file.
    #[test]
    fn sparse_attacks_agree_with_ray_walking() {
        let mut rng = XorShift(6789);
        for sq in 0..64 {
            let check = |occ: u64| {
                assert_eq!(sparse_rook(sq, occ), slow_slider(sq, occ, &ROOK_DIRS));
                assert_eq!(sparse_bishop(sq, occ), slow_slider(sq, occ, &BISHOP_DIRS));
            };
            for _ in 0..200 {
                let dense = rng.next() & rng.next();
                check(dense);
                check(dense ^ (1 << sq));
                check(dense & rng.next() & rng.next());
            }
            let (file, rank) = (sq % 8, sq / 8);
            for bits in 0..256u64 {
                let mut along_rank = 0;
                let mut along_file = 0;
                for k in 0..8 {
                    if bits >> k & 1 != 0 {
                        along_rank |= 1 << (rank * 8 + k);
                        along_file |= 1 << (k * 8 + file);
                    }
                }
                check(along_rank);
                check(along_file);
            }
        }
    }

    /// The stored magics are the ones the seeded search finds, and each is
    /// valid on its own.
    #[test]
    fn stored_magics_are_the_searched_ones() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut searched = Vec::new();
        let mut stored = Vec::new();
        for (dirs, magics) in [(&ROOK_DIRS, &ROOK_MAGICS), (&BISHOP_DIRS, &BISHOP_MAGICS)] {
            for (sq, &magic) in magics.iter().enumerate() {
                assert_eq!(find_magic(sq, dirs, &mut rng, &mut searched).magic, magic);
                assert!(with_magic(sq, dirs, magic, &mut stored).is_some());
            }
        }
        // A bad magic is refused, not used.
        assert!(with_magic(0, &ROOK_DIRS, 1, &mut Vec::new()).is_none());
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
