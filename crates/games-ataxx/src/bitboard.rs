//! 7×7 bitboards in the low 49 bits of a `u64` (bit `rank * 7 + file`).

/// Every square of the board.
pub(crate) const ALL: u64 = (1 << 49) - 1;

const FILE_A: u64 = {
    let mut m = 0;
    let mut r = 0;
    while r < 7 {
        m |= 1 << (r * 7);
        r += 1;
    }
    m
};
const FILE_G: u64 = FILE_A << 6;
const NOT_A: u64 = ALL & !FILE_A;
const NOT_G: u64 = ALL & !FILE_G;

/// The squares at distance at most 1 from a square of `bb` (`bb` included).
#[inline]
pub(crate) const fn dilate(bb: u64) -> u64 {
    let h = bb | ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_G);
    (h | (h << 7) | (h >> 7)) & ALL
}

/// The 16 `(file, rank)` offsets at Chebyshev distance exactly 2, in the
/// order used by move indices.
pub(crate) const JUMP_DIRS: [(i8, i8); 16] = {
    let mut dirs = [(0i8, 0i8); 16];
    let mut n = 0;
    let mut dr = -2i8;
    while dr <= 2 {
        let mut df = -2i8;
        while df <= 2 {
            if df == -2 || df == 2 || dr == -2 || dr == 2 {
                dirs[n] = (df, dr);
                n += 1;
            }
            df += 1;
        }
        dr += 1;
    }
    dirs
};

/// The position of the offset from `from` to `to` (at distance 2) in [`JUMP_DIRS`].
#[inline]
pub(crate) const fn jump_dir(from: u8, to: u8) -> usize {
    let df = (to % 7) as i8 - (from % 7) as i8;
    let dr = (to / 7) as i8 - (from / 7) as i8;
    // Row dr = -2 and 2 hold 5 entries each, rows -1..1 two each.
    match dr {
        -2 => (df + 2) as usize,
        2 => 11 + (df + 2) as usize,
        _ => 5 + 2 * (dr + 1) as usize + if df > 0 { 1 } else { 0 },
    }
}

/// Neighbours (distance exactly 1) of each square.
pub(crate) const SINGLES: [u64; 49] = {
    let mut t = [0; 49];
    let mut s = 0;
    while s < 49 {
        t[s] = dilate(1 << s) & !(1 << s);
        s += 1;
    }
    t
};

/// Squares at distance exactly 2 of each square.
pub(crate) const JUMPS: [u64; 49] = {
    let mut t = [0; 49];
    let mut s = 0;
    while s < 49 {
        t[s] = dilate(dilate(1 << s)) & !dilate(1 << s);
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_coordinates() {
        for a in 0..49u8 {
            for b in 0..49u8 {
                let (fa, ra, fb, rb) = (a % 7, a / 7, b % 7, b / 7);
                let d = fa.abs_diff(fb).max(ra.abs_diff(rb));
                assert_eq!(SINGLES[a as usize] >> b & 1 == 1, d == 1);
                assert_eq!(JUMPS[a as usize] >> b & 1 == 1, d == 2);
                if d == 2 {
                    let (df, dr) = JUMP_DIRS[jump_dir(a, b)];
                    assert_eq!((fa as i8 + df, ra as i8 + dr), (fb as i8, rb as i8));
                }
            }
        }
    }
}
