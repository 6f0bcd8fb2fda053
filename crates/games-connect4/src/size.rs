//! Board sizes: `width × height` with `width · (height + 1) ≤ 64`.

use std::fmt;
use std::str::FromStr;

/// The dimensions of a Connect Four board.
///
/// The bitboard gives every column `height + 1` bits (the extra bit is an
/// always-empty sentinel row that stops alignments from wrapping into the
/// next column), so a size is valid when `width ≥ 1`, `height ≥ 1` and
/// `width · (height + 1) ≤ 64`. The standard board is 7 wide × 6 high
/// ([`Size::STANDARD`], the [`Default`]).
///
/// A size prints and parses as `WxH`:
///
/// ```
/// use gametree_games_connect4::Size;
/// let s: Size = "5x4".parse()?;
/// assert_eq!((s.width(), s.height()), (5, 4));
/// assert_eq!(s.to_string(), "5x4");
/// assert!("9x7".parse::<Size>().is_err()); // 9 · 8 = 72 bits
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    width: u8,
    height: u8,
}

impl Size {
    /// The standard 7 × 6 board.
    pub const STANDARD: Size = Size {
        width: 7,
        height: 6,
    };

    /// The largest width any valid size can have (32 columns of height 1).
    pub const MAX_WIDTH: usize = 32;

    /// A board `width` columns wide and `height` rows high.
    ///
    /// # Errors
    ///
    /// [`SizeError`] when a dimension is zero or the board does not fit the
    /// 64-bit bitboard (`width · (height + 1) > 64`).
    pub const fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        if width == 0 || height == 0 {
            return Err(SizeError {
                kind: SizeErrorKind::Zero { width, height },
            });
        }
        // Written to avoid overflow for huge inputs.
        if width > 64 || height > 63 || width * (height + 1) > 64 {
            return Err(SizeError {
                kind: SizeErrorKind::TooLarge { width, height },
            });
        }
        Ok(Size {
            width: width as u8,
            height: height as u8,
        })
    }

    /// The number of columns.
    #[inline]
    #[must_use]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// The number of rows.
    #[inline]
    #[must_use]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// The number of cells, `width · height` (also the longest game, in plies).
    #[inline]
    #[must_use]
    pub const fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// The bits one column takes in the bitboard: `height + 1`.
    #[inline]
    #[must_use]
    pub const fn stride(self) -> u32 {
        self.height as u32 + 1
    }

    /// The bitboard with one bit set at the bottom cell of every column.
    #[inline]
    #[must_use]
    pub const fn bottom_mask(self) -> u64 {
        let mut m = 0u64;
        let mut c = 0;
        while c < self.width() {
            m |= 1 << (c as u32 * self.stride());
            c += 1;
        }
        m
    }

    /// The bitboard of every playable cell (sentinel bits excluded).
    #[inline]
    #[must_use]
    pub const fn board_mask(self) -> u64 {
        self.bottom_mask().wrapping_mul((1u64 << self.height) - 1)
    }

    /// The bits of column `col` (0-based).
    ///
    /// # Panics
    ///
    /// In debug builds, if `col >= width`.
    #[inline]
    #[must_use]
    pub const fn column_mask(self, col: usize) -> u64 {
        debug_assert!(col < self.width());
        ((1u64 << self.height) - 1) << (col as u32 * self.stride())
    }

    /// The bit of the cell in column `col`, row `row` (both 0-based, row 0
    /// at the bottom).
    ///
    /// # Panics
    ///
    /// In debug builds, if the cell is off the board.
    #[inline]
    #[must_use]
    pub const fn cell(self, col: usize, row: usize) -> u64 {
        debug_assert!(col < self.width() && row < self.height());
        1u64 << (col as u32 * self.stride() + row as u32)
    }

    /// The Pons score of a win whose winning stone is ply `n` of the game
    /// (the first stone is ply 1): `(width · height + 2 − n) div 2`, the
    /// number of cells the winner still had unplayed, plus one.
    ///
    /// On 7 × 6 a win with the winner's 4th stone (ply 7 or 8) scores 18 and
    /// a win on the last ply (42) scores 1.
    ///
    /// ```
    /// use gametree_games_connect4::Size;
    /// assert_eq!(Size::STANDARD.pons_score_of_win_on_ply(7), 18);
    /// assert_eq!(Size::STANDARD.pons_score_of_win_on_ply(41), 1);
    /// assert_eq!(Size::STANDARD.pons_score_of_win_on_ply(42), 1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn pons_score_of_win_on_ply(self, n: u32) -> i32 {
        (self.cells() as i32 + 2 - n as i32) / 2
    }

    /// The largest Pons score on this board: a win with the first player's
    /// 4th stone, `(cells + 1) div 2 − 3`.
    #[inline]
    #[must_use]
    pub const fn max_pons_score(self) -> i32 {
        (self.cells() as i32 + 1) / 2 - 3
    }

    /// The smallest Pons score on this board: a loss to the second player's
    /// 4th stone, `−(cells div 2) + 3`.
    #[inline]
    #[must_use]
    pub const fn min_pons_score(self) -> i32 {
        -(self.cells() as i32) / 2 + 3
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::STANDARD
    }
}

impl fmt::Display for Size {
    /// `WxH`, e.g. `7x6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Parses `WxH` (`x` or `X` or `×` between two decimal numbers).
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let syntax = || SizeError {
            kind: SizeErrorKind::Syntax,
        };
        let (w, h) = s.split_once(['x', 'X', '×']).ok_or_else(syntax)?;
        let num = |t: &str| -> Result<usize, SizeError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Saturate absurdly long numbers: they are too large anyway.
            Ok(t.parse::<usize>().unwrap_or(usize::MAX))
        };
        Size::new(num(w)?, num(h)?)
    }
}

/// A board size that is not valid: a zero dimension, a board that does not
/// fit 64 bits, or (when parsing) text that is not `WxH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    kind: SizeErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum SizeErrorKind {
    Zero { width: usize, height: usize },
    TooLarge { width: usize, height: usize },
    Syntax,
}

impl SizeError {
    /// Was a dimension zero?
    #[must_use]
    pub fn is_zero(&self) -> bool {
        matches!(self.kind, SizeErrorKind::Zero { .. })
    }

    /// Did the board not fit the bitboard (`width · (height + 1) > 64`)?
    #[must_use]
    pub fn is_too_large(&self) -> bool {
        matches!(self.kind, SizeErrorKind::TooLarge { .. })
    }

    /// Was the text not of the form `WxH`?
    #[must_use]
    pub fn is_syntax(&self) -> bool {
        matches!(self.kind, SizeErrorKind::Syntax)
    }
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            SizeErrorKind::Zero { width, height } => {
                write!(f, "board size {width}x{height} has a zero dimension")
            }
            SizeErrorKind::TooLarge { width, height } => write!(
                f,
                "board size {width}x{height} does not fit a 64-bit bitboard \
                 (width * (height + 1) must be at most 64)"
            ),
            SizeErrorKind::Syntax => f.write_str("board size must be written WxH, e.g. 7x6"),
        }
    }
}

impl std::error::Error for SizeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert!(Size::new(0, 6).unwrap_err().is_zero());
        assert!(Size::new(7, 0).unwrap_err().is_zero());
        assert!(Size::new(8, 8).unwrap_err().is_too_large());
        assert!(
            Size::new(usize::MAX, usize::MAX)
                .unwrap_err()
                .is_too_large()
        );
        assert!(Size::new(1, 64).unwrap_err().is_too_large());
        assert!(Size::new(1, 63).is_ok());
        assert!(Size::new(32, 1).is_ok());
        assert!(Size::new(33, 1).unwrap_err().is_too_large());
        assert!(Size::new(8, 7).is_ok());
        for w in 1..=64 {
            for h in 1..=64 {
                assert_eq!(Size::new(w, h).is_ok(), w * (h + 1) <= 64, "{w}x{h}");
            }
        }
    }

    #[test]
    fn masks() {
        let s = Size::STANDARD;
        assert_eq!(s.board_mask().count_ones(), 42);
        assert_eq!(s.bottom_mask().count_ones(), 7);
        let mut all = 0;
        for c in 0..7 {
            assert_eq!(s.column_mask(c).count_ones(), 6);
            all |= s.column_mask(c);
            for r in 0..6 {
                assert_ne!(s.cell(c, r) & s.column_mask(c), 0);
            }
        }
        assert_eq!(all, s.board_mask());
        let big = Size::new(1, 63).unwrap();
        assert_eq!(big.board_mask(), (1 << 63) - 1);
        let wide = Size::new(32, 1).unwrap();
        assert_eq!(wide.board_mask(), 0x5555_5555_5555_5555);
    }

    #[test]
    fn parse() {
        assert_eq!("7x6".parse::<Size>(), Ok(Size::STANDARD));
        assert_eq!("4X5".parse::<Size>(), Size::new(4, 5));
        assert!("7".parse::<Size>().unwrap_err().is_syntax());
        assert!("7x".parse::<Size>().unwrap_err().is_syntax());
        assert!("x6".parse::<Size>().unwrap_err().is_syntax());
        assert!("+7x6".parse::<Size>().unwrap_err().is_syntax());
        assert!("7x6x".parse::<Size>().unwrap_err().is_syntax());
        assert!("0x6".parse::<Size>().unwrap_err().is_zero());
        assert!(
            "99999999999999999999999x6"
                .parse::<Size>()
                .unwrap_err()
                .is_too_large()
        );
        for w in 1..=32 {
            for h in 1..=63 {
                if let Ok(s) = Size::new(w, h) {
                    assert_eq!(s.to_string().parse::<Size>(), Ok(s));
                }
            }
        }
    }

    #[test]
    fn pons_range() {
        let s = Size::STANDARD;
        assert_eq!(s.max_pons_score(), 18);
        assert_eq!(s.min_pons_score(), -18);
        assert_eq!(s.pons_score_of_win_on_ply(7), 18);
        assert_eq!(s.pons_score_of_win_on_ply(8), 18);
    }
}
