//! The corpus of published numbers of gametree: every count and value from
//! the literature that the workspace reproduces (perft tables, position
//! counts, solved games, endgame statistics), kept once as TOML files in
//! this crate's `data/` directory, one file per game or source, each value
//! with its source in a comment, and read through typed accessors.
//!
//! This crate is the bottom floor of the workspace's tests: it depends on
//! `gametree-game` (for [`Outcome`] and [`Score`]), `serde` and `toml` only,
//! so a crate that checks its numbers against the literature builds nothing
//! else. The verification table (`gametree-verify`) reads the same corpus.
//!
//! | file | accessor | what |
//! |---|---|---|
//! | `tictactoe.toml` | [`tictactoe`] | counts of positions and games, solved positions |
//! | `connect4.toml` | [`connect4`] | positions per ply (OEIS A212693), small boards (Tromp), Pons's sets ([`pons`]) |
//! | `mnk.toml` | [`mnk`] | values of small m,n,k-games (3,3,3 to 6,6,5), each with its source |
//! | `dots.toml` | [`dots`] | Dots-and-Boxes values up to 3 × 3 boxes (Berlekamp, Wilson) |
//! | `ataxx-perft.toml` | [`ataxx_perft`] | libataxx's perft table |
//! | `chess-perft.toml` | [`chess_perft`] | the Chess Programming Wiki's perft table |
//! | `syzygy-3-4-men.toml` | [`syzygy_3_4_men`] | the Syzygy generator's statistics of the 3- and 4-man pawnless endings |
//! | `syzygy-3-4-men-pawns.toml` | [`syzygy_3_4_men_pawns`] | the same for the 3- and 4-man endings with pawns |
//! | `chess-endgames.toml` | [`chess_endgames`] | raw KQvK counts, longest mates |
//!
//! The files are compiled into the crate ([`FILES`]), so it works wherever
//! it is built. Each accessor parses its file on first use and returns the
//! same `&'static` value afterwards; a file that does not parse is a
//! [`CorpusError`], never a panic.
//!
//! ```
//! let ttt = gametree_data::tictactoe()?;
//! assert_eq!(ttt.positions_up_to_symmetry, 765); // OEIS A008907
//! let a212693 = &gametree_data::connect4()?.positions_per_ply;
//! assert_eq!(a212693[4], 1_120);
//! let initial = &gametree_data::chess_perft()?[0];
//! assert_eq!(initial.nodes(3), Some(8_902));
//! # Ok::<(), gametree_data::CorpusError>(())
//! ```
//!
//! # Data that is not in the repository
//!
//! Pascal Pons's Connect Four test sets are too large to ship and are not
//! ours to redistribute; [`pons::TestSet`] loads them from the data
//! directory, [`default_data_dir`] (`$GAMETREE_DATA`, else `shared/data`
//! beside the checkout), and [`CONNECT4_DATA`] says where to get them.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gametree_game::{Outcome, Score};
use serde::Deserialize;

pub mod pons;

/// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The data directory, for the data sets that are not in the repository
/// (Pons's Connect Four test sets in its `connect4/` folder): the
/// environment variable `GAMETREE_DATA` when it is set, else `shared/data`
/// in the directory that holds the checkout this crate was built from
/// (`<checkout>/../shared/data`).
///
/// This is the one rule of the workspace: the verification table, the
/// tests, the build scripts that look for Pons's sets and `cargo xtask`
/// all call this function (the command-line options `--data DIR` override
/// it).
///
/// ```
/// let dir = gametree_data::default_data_dir();
/// assert!(dir.ends_with("shared/data") || std::env::var_os("GAMETREE_DATA").is_some());
/// ```
#[must_use]
pub fn default_data_dir() -> PathBuf {
    std::env::var_os("GAMETREE_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    )
}

/// What the data directory holds, and where to get it: said by every test
/// or verify row that skips for lack of it.
pub const CONNECT4_DATA: &str = "Pascal Pons's Connect Four test sets (Test_L3_R1, Test_L2_R1, Test_L2_R2, Test_L1_R1, Test_L1_R2, Test_L1_R3: one position and its score per line), from the test protocol page of his blog, http://blog.gamesolver.org/solving-connect-four/02-test-protocol/; put them in DIR/connect4 and set GAMETREE_DATA=DIR or pass --data DIR";

/// Every corpus file compiled into the crate: its name in `data/` and its
/// text.
pub const FILES: [(&str, &str); 9] = [
    (TICTACTOE, include_str!("../data/tictactoe.toml")),
    (CONNECT4, include_str!("../data/connect4.toml")),
    (MNK, include_str!("../data/mnk.toml")),
    (DOTS, include_str!("../data/dots.toml")),
    (ATAXX_PERFT, include_str!("../data/ataxx-perft.toml")),
    (CHESS_PERFT, include_str!("../data/chess-perft.toml")),
    (SYZYGY, include_str!("../data/syzygy-3-4-men.toml")),
    (
        SYZYGY_PAWNS,
        include_str!("../data/syzygy-3-4-men-pawns.toml"),
    ),
    (CHESS_ENDGAMES, include_str!("../data/chess-endgames.toml")),
];

const TICTACTOE: &str = "tictactoe.toml";
const CONNECT4: &str = "connect4.toml";
const MNK: &str = "mnk.toml";
const DOTS: &str = "dots.toml";
const ATAXX_PERFT: &str = "ataxx-perft.toml";
const CHESS_PERFT: &str = "chess-perft.toml";
const SYZYGY: &str = "syzygy-3-4-men.toml";
const SYZYGY_PAWNS: &str = "syzygy-3-4-men-pawns.toml";
const CHESS_ENDGAMES: &str = "chess-endgames.toml";

/// A corpus file that does not parse or holds a value of the wrong form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusError {
    file: &'static str,
    message: String,
}

impl CorpusError {
    fn new(file: &'static str, message: impl Into<String>) -> CorpusError {
        CorpusError {
            file,
            message: message.into(),
        }
    }

    /// The file concerned, e.g. `connect4.toml`.
    #[must_use]
    pub fn file(&self) -> &'static str {
        self.file
    }
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corpus file data/{}: {}", self.file, self.message)
    }
}

impl std::error::Error for CorpusError {}

/// The text of corpus file `name`.
fn text(name: &'static str) -> Result<&'static str, CorpusError> {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, t)| t)
        .ok_or_else(|| CorpusError::new(name, "not in the corpus"))
}

/// Parses corpus file `name` as `R`.
fn parse<R: for<'de> Deserialize<'de>>(name: &'static str) -> Result<R, CorpusError> {
    toml::from_str(text(name)?).map_err(|e| CorpusError::new(name, e.to_string()))
}

/// The value in `cell`, computed by `load` on first use.
fn cached<T>(
    cell: &'static OnceLock<Result<T, CorpusError>>,
    load: fn() -> Result<T, CorpusError>,
) -> Result<&'static T, CorpusError>
where
    T: Send + Sync,
{
    cell.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// `win`, `draw` or `loss`.
fn outcome(file: &'static str, text: &str) -> Result<Outcome, CorpusError> {
    match text {
        "win" => Ok(Outcome::Win),
        "draw" => Ok(Outcome::Draw),
        "loss" => Ok(Outcome::Loss),
        _ => Err(CorpusError::new(
            file,
            format!("value {text:?} is not win, draw or loss"),
        )),
    }
}

/// `draw`, `win in N` or `loss in N` (N in plies).
fn score(file: &'static str, text: &str) -> Result<Score, CorpusError> {
    let bad = || {
        CorpusError::new(
            file,
            format!("value {text:?} is not draw, win in N or loss in N"),
        )
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["draw"] => Ok(Score::DRAW),
        ["win", "in", n] => n.parse().map(Score::win_in).map_err(|_| bad()),
        ["loss", "in", n] => n.parse().map(Score::loss_in).map_err(|_| bad()),
        _ => Err(bad()),
    }
}

// ---------------------------------------------------------------------------
// Tic-tac-toe

/// Counts split by result: won by X (the first player), won by O, drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct Split {
    /// Won by X, who moves first.
    pub x_wins: u64,
    /// Won by O.
    pub o_wins: u64,
    /// Drawn.
    pub draws: u64,
}

impl Split {
    /// The three counts added.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }
}

/// A position with its game-theoretic value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedCase {
    /// What the case shows.
    pub name: String,
    /// The position, in the game's text notation.
    pub position: String,
    /// Its value for the side to move, with the distance to the end.
    pub value: Score,
}

/// `tictactoe.toml`: the published tic-tac-toe counts and solved positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToeFigures {
    /// Reachable positions, the empty board included (5,478).
    pub reachable_positions: u64,
    /// Reachable positions by number of marks, 0 to 9.
    pub reachable_by_marks: Vec<u64>,
    /// Reachable positions where the game is over (958).
    pub terminal_positions: u64,
    /// Positions up to the 8 symmetries (765, OEIS A008907).
    pub positions_up_to_symmetry: u64,
    /// Terminal positions up to symmetry, by result (91 + 44 + 3).
    pub terminal_up_to_symmetry: Split,
    /// Complete games, by result (255,168 in all, OEIS A061526).
    pub games: Split,
    /// Games that fill the board: perft(9) (127,872).
    pub full_board_games: u64,
    /// The value of the empty board (a draw).
    pub empty_board: Outcome,
    /// Positions with their values, for every solver to reproduce.
    pub cases: Vec<SolvedCase>,
}

/// The figures of `tictactoe.toml`.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn tictactoe() -> Result<&'static TicTacToeFigures, CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Counts {
        reachable_positions: u64,
        reachable_by_marks: Vec<u64>,
        terminal_positions: u64,
        positions_up_to_symmetry: u64,
        terminal_up_to_symmetry: Split,
        games: Split,
        full_board_games: u64,
        empty_board: String,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Case {
        name: String,
        position: String,
        value: String,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        counts: Counts,
        case: Vec<Case>,
    }
    fn load() -> Result<TicTacToeFigures, CorpusError> {
        let f: File = parse(TICTACTOE)?;
        let c = f.counts;
        Ok(TicTacToeFigures {
            reachable_positions: c.reachable_positions,
            reachable_by_marks: c.reachable_by_marks,
            terminal_positions: c.terminal_positions,
            positions_up_to_symmetry: c.positions_up_to_symmetry,
            terminal_up_to_symmetry: c.terminal_up_to_symmetry,
            games: c.games,
            full_board_games: c.full_board_games,
            empty_board: outcome(TICTACTOE, &c.empty_board)?,
            cases: f
                .case
                .into_iter()
                .map(|c| {
                    Ok(SolvedCase {
                        value: score(TICTACTOE, &c.value)?,
                        name: c.name,
                        position: c.position,
                    })
                })
                .collect::<Result<_, CorpusError>>()?,
        })
    }
    static CELL: OnceLock<Result<TicTacToeFigures, CorpusError>> = OnceLock::new();
    cached(&CELL, load)
}

// ---------------------------------------------------------------------------
// Connect Four

/// The value of an empty Connect Four board for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardValue {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The result with best play, for the first player.
    pub value: Outcome,
}

/// One of Pascal Pons's benchmark sets and his final solver's published
/// figures on it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PonsFigures {
    /// The file name, e.g. `Test_L3_R1`.
    pub file: String,
    /// Stage and rating, e.g. `end-easy`.
    pub description: String,
    /// Mean number of explored nodes per position (deterministic,
    /// machine-independent).
    pub mean_nodes: f64,
    /// Mean time per position in microseconds (his machine).
    pub mean_time_us: f64,
}

/// `connect4.toml`: position counts, solved board sizes and Pons's
/// published figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Connect4Figures {
    /// OEIS A212693: the number of legal 7 × 6 positions after `n` plies,
    /// for `n` in `0..27` (a finished game's position counts but is not
    /// extended).
    pub positions_per_ply: Vec<u64>,
    /// Empty boards of small sizes with their values (John Tromp).
    pub boards: Vec<BoardValue>,
    /// Pons's six benchmark sets, easiest first as in his table.
    pub pons_sets: Vec<PonsFigures>,
}

impl Connect4Figures {
    /// Pons's figures for the set in file `file` (e.g. `Test_L3_R1`).
    #[must_use]
    pub fn pons_set(&self, file: &str) -> Option<&PonsFigures> {
        self.pons_sets.iter().find(|s| s.file == file)
    }

    /// The published value of the empty `width` × `height` board, if the
    /// corpus has it.
    #[must_use]
    pub fn board(&self, width: usize, height: usize) -> Option<&BoardValue> {
        self.boards
            .iter()
            .find(|b| (b.width, b.height) == (width, height))
    }
}

/// The figures of `connect4.toml`.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn connect4() -> Result<&'static Connect4Figures, CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Board {
        width: usize,
        height: usize,
        value: String,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        positions_per_ply: Vec<u64>,
        board: Vec<Board>,
        pons_set: Vec<PonsFigures>,
    }
    fn load() -> Result<Connect4Figures, CorpusError> {
        let f: File = parse(CONNECT4)?;
        Ok(Connect4Figures {
            positions_per_ply: f.positions_per_ply,
            boards: f
                .board
                .into_iter()
                .map(|b| {
                    Ok(BoardValue {
                        width: b.width,
                        height: b.height,
                        value: outcome(CONNECT4, &b.value)?,
                    })
                })
                .collect::<Result<_, CorpusError>>()?,
            pons_sets: f.pons_set,
        })
    }
    static CELL: OnceLock<Result<Connect4Figures, CorpusError>> = OnceLock::new();
    cached(&CELL, load)
}

// ---------------------------------------------------------------------------
// m,n,k-games

/// The value of an empty m,n,k board for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MnkValue {
    /// Columns.
    pub m: u8,
    /// Rows.
    pub n: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// The result with best play, for the first player.
    pub value: Outcome,
    /// Where the value is published (a short citation), or that no source
    /// was found.
    pub source: &'static str,
}

/// The values of `mnk.toml`.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn mnk() -> Result<&'static [MnkValue], CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Game {
        m: u8,
        n: u8,
        k: u8,
        value: String,
        source: String,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        game: Vec<Game>,
    }
    fn load() -> Result<Vec<MnkValue>, CorpusError> {
        let f: File = parse(MNK)?;
        f.game
            .into_iter()
            .map(|g| {
                Ok(MnkValue {
                    m: g.m,
                    n: g.n,
                    k: g.k,
                    value: outcome(MNK, &g.value)?,
                    source: Box::leak(g.source.into_boxed_str()),
                })
            })
            .collect()
    }
    static CELL: OnceLock<Result<Vec<MnkValue>, CorpusError>> = OnceLock::new();
    cached(&CELL, load).map(Vec::as_slice)
}

// ---------------------------------------------------------------------------
// Dots-and-Boxes

/// The first player's final box difference with best play from an empty
/// Dots-and-Boxes board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DotsValue {
    /// Boxes per row.
    pub width: usize,
    /// Rows of boxes.
    pub height: usize,
    /// The first player's boxes minus the second player's (negative: the
    /// second player wins).
    pub score: i32,
}

/// The values of `dots.toml`.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn dots() -> Result<&'static [DotsValue], CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        board: Vec<DotsValue>,
    }
    fn load() -> Result<Vec<DotsValue>, CorpusError> {
        parse::<File>(DOTS).map(|f| f.board)
    }
    static CELL: OnceLock<Result<Vec<DotsValue>, CorpusError>> = OnceLock::new();
    cached(&CELL, load).map(Vec::as_slice)
}

// ---------------------------------------------------------------------------
// Perft tables

/// A position of a perft table with its published node counts.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerftPosition {
    /// Its name (`initial`, `kiwipete`, `startpos`, …).
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// `(depth, nodes)`: the number of leaves of the legal-move tree at
    /// that depth, by increasing depth.
    #[serde(rename = "perft")]
    pub counts: Vec<(u32, u64)>,
}

impl PerftPosition {
    /// The published count at `depth`, if the table has one.
    #[must_use]
    pub fn nodes(&self, depth: u32) -> Option<u64> {
        self.counts
            .iter()
            .find(|&&(d, _)| d == depth)
            .map(|&(_, n)| n)
    }
}

/// The positions of a perft file, checked: ids unique and depths
/// increasing.
fn perft_file(name: &'static str) -> Result<Vec<PerftPosition>, CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        position: Vec<PerftPosition>,
    }
    let f: File = parse(name)?;
    for (i, p) in f.position.iter().enumerate() {
        if f.position[..i].iter().any(|q| q.id == p.id) {
            return Err(CorpusError::new(name, format!("id {:?} twice", p.id)));
        }
        if p.counts.is_empty() || p.counts.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(CorpusError::new(
                name,
                format!("position {:?}: depths missing or not increasing", p.id),
            ));
        }
    }
    Ok(f.position)
}

/// libataxx's perft table (`ataxx-perft.toml`), depths from 0.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn ataxx_perft() -> Result<&'static [PerftPosition], CorpusError> {
    static CELL: OnceLock<Result<Vec<PerftPosition>, CorpusError>> = OnceLock::new();
    cached(&CELL, || perft_file(ATAXX_PERFT)).map(Vec::as_slice)
}

/// The Chess Programming Wiki's perft table (`chess-perft.toml`), depths
/// from 1.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn chess_perft() -> Result<&'static [PerftPosition], CorpusError> {
    static CELL: OnceLock<Result<Vec<PerftPosition>, CorpusError>> = OnceLock::new();
    cached(&CELL, || perft_file(CHESS_PERFT)).map(Vec::as_slice)
}

// ---------------------------------------------------------------------------
// Chess endgames

/// Positions won, drawn and lost by the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinDrawLoss {
    /// Won by the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost by the side to move.
    pub losses: u64,
}

impl From<[u64; 3]> for WinDrawLoss {
    /// `[wins, draws, losses]`.
    fn from([wins, draws, losses]: [u64; 3]) -> WinDrawLoss {
        WinDrawLoss {
            wins,
            draws,
            losses,
        }
    }
}

/// The Syzygy generator's statistics of one ending: positions up to the 8
/// symmetries with like pieces told apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingStats {
    /// The ending, e.g. `KQvK`.
    pub ending: String,
    /// With White to move.
    pub wtm: WinDrawLoss,
    /// With Black to move.
    pub btm: WinDrawLoss,
}

/// The Syzygy statistics of the 24 pawnless endings of 3 and 4 pieces
/// (`syzygy-3-4-men.toml`), 3 pieces first.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn syzygy_3_4_men() -> Result<&'static [EndingStats], CorpusError> {
    static CELL: OnceLock<Result<Vec<EndingStats>, CorpusError>> = OnceLock::new();
    cached(&CELL, || ending_stats(SYZYGY)).map(Vec::as_slice)
}

/// The Syzygy statistics of the 11 endings of 3 and 4 pieces with pawns
/// (`syzygy-3-4-men-pawns.toml`), 3 pieces first: positions without an
/// en-passant capture, up to the reflection between the d- and e-files,
/// like pieces told apart.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn syzygy_3_4_men_pawns() -> Result<&'static [EndingStats], CorpusError> {
    static CELL: OnceLock<Result<Vec<EndingStats>, CorpusError>> = OnceLock::new();
    cached(&CELL, || ending_stats(SYZYGY_PAWNS)).map(Vec::as_slice)
}

/// Reads a file of [`EndingStats`].
fn ending_stats(name: &'static str) -> Result<Vec<EndingStats>, CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Ending {
        name: String,
        wtm: [u64; 3],
        btm: [u64; 3],
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        ending: Vec<Ending>,
    }
    let f: File = parse(name)?;
    Ok(f.ending
        .into_iter()
        .map(|e| EndingStats {
            ending: e.name,
            wtm: e.wtm.into(),
            btm: e.btm.into(),
        })
        .collect())
}

/// KQvK counted without symmetry reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCounts {
    /// Legal placements with White to move.
    pub wtm: u64,
    /// Legal placements with Black to move.
    pub btm: u64,
    /// Drawn positions, both sides to move.
    pub draws: u64,
}

/// The longest mate of an ending.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongestMate {
    /// The ending, e.g. `KQvKR`, the winning side first.
    pub ending: String,
    /// The mate in moves of the winning side, with the winning side to
    /// move.
    pub moves: u32,
}

impl LongestMate {
    /// The mate as a win in plies: `2 · moves − 1`.
    #[must_use]
    pub fn plies(&self) -> u32 {
        (2 * self.moves).saturating_sub(1)
    }
}

/// `chess-endgames.toml`: raw KQvK counts and longest mates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessEndgames {
    /// KQvK without symmetry reduction.
    pub kqvk_raw: RawCounts,
    /// Longest mates of some pawnless endings.
    pub longest_mates: Vec<LongestMate>,
}

impl ChessEndgames {
    /// The longest mate of `ending` (e.g. `KQvK`), if the corpus has it.
    #[must_use]
    pub fn longest_mate(&self, ending: &str) -> Option<&LongestMate> {
        self.longest_mates.iter().find(|m| m.ending == ending)
    }
}

/// The figures of `chess-endgames.toml`.
///
/// # Errors
///
/// [`CorpusError`] when the file does not parse.
pub fn chess_endgames() -> Result<&'static ChessEndgames, CorpusError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        kqvk_raw: RawCounts,
        longest_mate: Vec<LongestMate>,
    }
    fn load() -> Result<ChessEndgames, CorpusError> {
        let f: File = parse(CHESS_ENDGAMES)?;
        Ok(ChessEndgames {
            kqvk_raw: f.kqvk_raw,
            longest_mates: f.longest_mate,
        })
    }
    static CELL: OnceLock<Result<ChessEndgames, CorpusError>> = OnceLock::new();
    cached(&CELL, load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses() {
        let ttt = tictactoe().unwrap();
        assert_eq!(ttt.reachable_by_marks.iter().sum::<u64>(), 5_478);
        assert_eq!(ttt.games.total(), 255_168);
        assert_eq!(ttt.terminal_up_to_symmetry.total(), 138);
        assert_eq!(ttt.cases[0].value, Score::DRAW);
        assert!(ttt.cases.len() >= 5);
        let c4 = connect4().unwrap();
        assert_eq!(c4.positions_per_ply.len(), 27);
        assert_eq!(c4.boards.len(), 4);
        assert_eq!(c4.pons_sets.len(), 6);
        let mnk = mnk().unwrap();
        assert_eq!(mnk.len(), 6);
        assert!(mnk.iter().all(|g| !g.source.is_empty()));
        assert_eq!(dots().unwrap()[2].score, -3);
        let ataxx = ataxx_perft().unwrap();
        assert_eq!(ataxx[0].nodes(6), Some(141_865_520));
        assert_eq!(ataxx.len(), 4);
        let chess = chess_perft().unwrap();
        assert_eq!(chess.len(), 7);
        assert_eq!(chess[1].id, "kiwipete");
        assert_eq!(chess[1].nodes(1), Some(48));
        assert_eq!(chess[1].nodes(9), None);
        assert_eq!(syzygy_3_4_men().unwrap().len(), 24);
        assert_eq!(syzygy_3_4_men_pawns().unwrap().len(), 11);
        let endgames = chess_endgames().unwrap();
        assert_eq!(
            endgames.longest_mate("KQvKR").map(LongestMate::plies),
            Some(69)
        );
        assert_eq!(FILES.len(), 9);
    }

    #[test]
    fn values() {
        assert_eq!(outcome("x", "win"), Ok(Outcome::Win));
        assert!(outcome("x", "won").is_err());
        assert_eq!(score("x", "win in 5"), Ok(Score::win_in(5)));
        assert_eq!(score("x", " loss  in 0 "), Ok(Score::loss_in(0)));
        let e = score("x.toml", "win in five").unwrap_err();
        assert_eq!(e.file(), "x.toml");
        assert!(e.to_string().contains("win in five"), "{e}");
        assert!(score("x", "draw in 3").is_err());
        assert!(text("nothing.toml").is_err());
    }
}
