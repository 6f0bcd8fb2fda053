//! Test helpers: a naive 2-D Connect Four (the brute-force reference) and
//! a small deterministic random generator.
#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

/// The plainest possible Connect Four: a grid of cells, a height per
/// column, and a win check that walks the four directions from every cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    pub width: usize,
    pub height: usize,
    /// `grid[col][row]`: 0 empty, 1 first player, 2 second player.
    pub grid: Vec<Vec<u8>>,
    pub heights: Vec<usize>,
    pub plies: usize,
}

impl Naive {
    pub fn new(width: usize, height: usize) -> Naive {
        Naive {
            width,
            height,
            grid: vec![vec![0; height]; width],
            heights: vec![0; width],
            plies: 0,
        }
    }

    /// 1 or 2: the player to move.
    pub fn to_move(&self) -> u8 {
        if self.plies.is_multiple_of(2) { 1 } else { 2 }
    }

    /// Does `who` have four in a row anywhere?
    pub fn has_four(&self, who: u8) -> bool {
        let dirs: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for c in 0..self.width as i64 {
            for r in 0..self.height as i64 {
                for (dc, dr) in dirs {
                    let ok = (0..4).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        cc >= 0
                            && rr >= 0
                            && cc < self.width as i64
                            && rr < self.height as i64
                            && self.grid[cc as usize][rr as usize] == who
                    });
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn full(&self) -> bool {
        self.plies == self.width * self.height
    }

    /// Somebody connected four, or the board is full.
    pub fn over(&self) -> bool {
        self.has_four(1) || self.has_four(2) || self.full()
    }

    /// Legal columns (0-based, ascending); none when the game is over.
    pub fn moves(&self) -> Vec<usize> {
        if self.over() {
            return vec![];
        }
        (0..self.width)
            .filter(|&c| self.heights[c] < self.height)
            .collect()
    }

    pub fn play(&mut self, c: usize) {
        let p = self.to_move();
        self.grid[c][self.heights[c]] = p;
        self.heights[c] += 1;
        self.plies += 1;
    }

    pub fn undo(&mut self, c: usize) {
        self.heights[c] -= 1;
        self.grid[c][self.heights[c]] = 0;
        self.plies -= 1;
    }

    /// Would `who`, owning the empty cell (c, r), have four in a row?
    pub fn completes_four(&mut self, who: u8, c: usize, r: usize) -> bool {
        assert_eq!(self.grid[c][r], 0);
        self.grid[c][r] = who;
        let four = self.has_four(who);
        self.grid[c][r] = 0;
        four
    }

    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        let mut total = 0;
        for c in moves {
            self.play(c);
            total += self.perft(depth - 1);
            self.undo(c);
        }
        total
    }
}

/// SplitMix64: a tiny deterministic generator for test playouts.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Why a test is ignored: `cfg(pons_data)` (set by the build script) is
/// missing.
pub const NO_PONS_DATA: &str = "needs Pascal Pons's Connect Four test sets (Test_L3_R1 ... from his blog's test protocol, blog.gamesolver.org): set GAMETREE_DATA=DIR with the files in DIR/connect4";

/// The directory of Pons's benchmark files: `$GAMETREE_DATA/connect4` if
/// set, else `../shared/data/connect4` beside the repository
/// (`gametree_data::default_data_dir`).
///
/// # Panics
///
/// When it is missing (the tests that call it are ignored then, unless run
/// with `--include-ignored`).
pub fn data_dir() -> PathBuf {
    let dir = gametree_data::default_data_dir().join("connect4");
    assert!(dir.is_dir(), "{NO_PONS_DATA} (looked in {})", dir.display());
    dir
}

/// The board of a line of Pons's sets ([`TestSet::load_with`]): the moves
/// replayed on 7 × 6 and the score checked against what the position can
/// have.
///
/// [`TestSet::load_with`]: gametree_data::pons::TestSet::load_with
pub fn pons_board(moves: &str, score: i32) -> Result<gametree_games_connect4::Board, String> {
    use gametree_games_connect4::{Board, Size};
    let board = Board::from_moves(Size::STANDARD, moves).map_err(|e| e.to_string())?;
    match board.score_from_pons(score) {
        Some(_) => Ok(board),
        None => Err(format!("score {score} is impossible for this position")),
    }
}

/// The published value of the empty `width` × `height` board for the first
/// player (John Tromp; the corpus, `gametree-data`).
///
/// # Panics
///
/// When the corpus has no value for that size.
pub fn published_value(width: usize, height: usize) -> gametree_game::Outcome {
    let c4 = gametree_data::connect4().unwrap();
    c4.board(width, height)
        .unwrap_or_else(|| panic!("no published value of {width}x{height}"))
        .value
}

/// OEIS A212693: the number of legal 7 × 6 positions after each ply (the
/// corpus, `gametree-data`).
pub fn legal_positions_7x6() -> &'static [u64] {
    &gametree_data::connect4().unwrap().positions_per_ply
}
