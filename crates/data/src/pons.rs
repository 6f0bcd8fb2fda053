//! Pascal Pons's six Connect Four benchmark sets: the files, a loader that
//! checks every line, and his final solver's published figures (from the
//! corpus file `connect4.toml`).
//!
//! Each file `Test_L{stage}_R{rating}` holds 1000 lines `moves score`: a
//! 7 × 6 position as the columns played (`1` to `7`, left to right) and its
//! exact score in Pons's convention (positive when the side to move wins:
//! 22 minus the number of stones the winner has played when the game ends;
//! 0 for a draw). Pons publishes them with his blog *Solving Connect 4: how
//! to build a perfect AI* (blog.gamesolver.org, part 2, "Test protocol");
//! they are not in this repository ([`CONNECT4_DATA`](crate::CONNECT4_DATA)
//! says where to put them).
//!
//! [`TestSet::load`] reads one set from a directory and checks the form of
//! every line: two fields, columns `1` to `7`, at most 42 moves, a score of
//! at most 18 either way. This crate knows no Connect Four rules, so
//! [`TestSet::load_with`] takes the caller's board builder, which replays
//! the moves (refusing an illegal game or a score the position cannot
//! have) and is kept beside each line.
//!
//! ```no_run
//! use gametree_data::pons::TestSet;
//!
//! let dir = gametree_data::default_data_dir().join("connect4");
//! for t in TestSet::L3_R1.load(&dir)?.iter().take(3) {
//!     println!("{} {} ({} plies)", t.moves, t.score, t.moves.len());
//! }
//! println!("Pons's mean nodes: {}", TestSet::L3_R1.published()?.mean_nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use super::{CorpusError, PonsFigures};

/// The largest Pons score on 7 × 6 either way: a win with the winner's
/// fourth stone, `22 − 4`.
pub const MAX_SCORE: i32 = 18;

/// The most moves a 7 × 6 game has.
pub const MAX_MOVES: usize = 42;

/// One of Pons's six benchmark sets (blog.gamesolver.org, "Solving Connect
/// 4", part 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TestSet {
    file: &'static str,
    description: &'static str,
}

impl TestSet {
    /// `Test_L3_R1`: end of game, easy.
    pub const L3_R1: TestSet = TestSet::new("Test_L3_R1", "end-easy");
    /// `Test_L2_R1`: middle of game, easy.
    pub const L2_R1: TestSet = TestSet::new("Test_L2_R1", "middle-easy");
    /// `Test_L2_R2`: middle of game, medium.
    pub const L2_R2: TestSet = TestSet::new("Test_L2_R2", "middle-medium");
    /// `Test_L1_R1`: beginning of game, easy.
    pub const L1_R1: TestSet = TestSet::new("Test_L1_R1", "begin-easy");
    /// `Test_L1_R2`: beginning of game, medium.
    pub const L1_R2: TestSet = TestSet::new("Test_L1_R2", "begin-medium");
    /// `Test_L1_R3`: beginning of game, hard.
    pub const L1_R3: TestSet = TestSet::new("Test_L1_R3", "begin-hard");

    /// The six sets, easiest first as in Pons's table.
    pub const ALL: [TestSet; 6] = [
        TestSet::L3_R1,
        TestSet::L2_R1,
        TestSet::L2_R2,
        TestSet::L1_R1,
        TestSet::L1_R2,
        TestSet::L1_R3,
    ];

    const fn new(file: &'static str, description: &'static str) -> TestSet {
        TestSet { file, description }
    }

    /// The file name, e.g. `Test_L3_R1`.
    #[must_use]
    pub const fn file_name(self) -> &'static str {
        self.file
    }

    /// Stage and rating, e.g. `end-easy`.
    #[must_use]
    pub const fn description(self) -> &'static str {
        self.description
    }

    /// Pons's published figures for his final solver on this set (mean
    /// nodes and mean time per position), from the corpus.
    ///
    /// # Errors
    ///
    /// [`CorpusError`] when `connect4.toml` does not parse or lacks the set.
    pub fn published(self) -> Result<&'static PonsFigures, CorpusError> {
        super::connect4()?
            .pons_set(self.file)
            .ok_or_else(|| CorpusError::new(super::CONNECT4, format!("no set {}", self.file)))
    }

    /// The path of the set's file in directory `dir`.
    #[must_use]
    pub fn path(self, dir: &Path) -> PathBuf {
        dir.join(self.file)
    }

    /// Reads the set's file in directory `dir` and checks the form of every
    /// line ([`parse_test_line`]); the positions are not replayed.
    ///
    /// # Errors
    ///
    /// [`LoadError`] when the file cannot be read or a line is malformed.
    pub fn load(self, dir: &Path) -> Result<Vec<TestPosition>, LoadError> {
        self.load_with(dir, |_, _| Ok::<(), std::convert::Infallible>(()))
    }

    /// Reads the set's file in directory `dir`, checks the form of every
    /// line, and builds each position with `board(moves, score)`, which
    /// refuses a line by returning an error (an illegal game, a score the
    /// position cannot have). The result keeps what `board` built.
    ///
    /// [`parse_lines`] shows a board builder at work; with
    /// `gametree-games-connect4` one is
    /// `|moves, _| Board::from_moves(Size::STANDARD, moves)`.
    ///
    /// # Errors
    ///
    /// [`LoadError`] when the file cannot be read, a line is malformed or
    /// `board` refuses it.
    pub fn load_with<B, E: fmt::Display>(
        self,
        dir: &Path,
        board: impl FnMut(&str, i32) -> Result<B, E>,
    ) -> Result<Vec<TestPosition<B>>, LoadError> {
        load_test_file(&self.path(dir), board)
    }
}

impl fmt::Display for TestSet {
    /// `Test_L3_R1 (end-easy)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.file, self.description)
    }
}

/// One benchmark line: a 7 × 6 position and its exact Pons score, with
/// the board the caller built from it ([`TestSet::load_with`]; `()` for
/// [`TestSet::load`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition<B = ()> {
    /// The moves as written in the file: the columns played, `1` to `7`.
    pub moves: String,
    /// What the caller's board builder made of the moves.
    pub board: B,
    /// The exact Pons score of the position, for the side to move.
    pub score: i32,
    /// The 1-based line number in the file.
    pub line: usize,
}

/// Why a benchmark line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineErrorKind {
    /// The line does not have exactly two whitespace-separated fields.
    FieldCount(usize),
    /// The moves are not columns `1` to `7`, or more than 42 of them.
    Moves(String),
    /// The score is not an integer.
    Score(String),
    /// The score is beyond [`MAX_SCORE`] either way.
    ScoreOutOfRange(i32),
    /// The caller's board builder refused the line (an illegal game, a
    /// score the position cannot have), in its words.
    Position(String),
}

impl fmt::Display for LineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineErrorKind::FieldCount(n) => {
                write!(f, "expected 2 fields `moves score`, found {n}")
            }
            LineErrorKind::Moves(m) => {
                write!(f, "moves {m:?} are not at most 42 columns 1 to 7")
            }
            LineErrorKind::Score(s) => write!(f, "score {s:?} is not an integer"),
            LineErrorKind::ScoreOutOfRange(s) => {
                write!(f, "score {s} is beyond the largest, {MAX_SCORE} either way")
            }
            LineErrorKind::Position(e) => write!(f, "refused: {e}"),
        }
    }
}

impl std::error::Error for LineErrorKind {}

/// Parses one benchmark line `moves score` and checks its form: two
/// fields, the moves at most [`MAX_MOVES`] columns `1` to `7`, the score an
/// integer of at most [`MAX_SCORE`] either way. Whether the moves are a
/// legal game is for a board to say ([`TestSet::load_with`]).
///
/// ```
/// use gametree_data::pons::{LineErrorKind, parse_test_line};
///
/// assert_eq!(parse_test_line("4455 18"), Ok(("4455", 18)));
/// assert_eq!(parse_test_line("4458 0"), Err(LineErrorKind::Moves("4458".into())));
/// assert_eq!(parse_test_line("4455 19"), Err(LineErrorKind::ScoreOutOfRange(19)));
/// ```
///
/// # Errors
///
/// [`LineErrorKind`] saying what is wrong.
pub fn parse_test_line(line: &str) -> Result<(&str, i32), LineErrorKind> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let &[moves, score] = fields.as_slice() else {
        return Err(LineErrorKind::FieldCount(fields.len()));
    };
    if moves.len() > MAX_MOVES || !moves.bytes().all(|c| (b'1'..=b'7').contains(&c)) {
        return Err(LineErrorKind::Moves(moves.to_owned()));
    }
    let score: i32 = score
        .parse()
        .map_err(|_| LineErrorKind::Score(score.to_owned()))?;
    if score.abs() > MAX_SCORE {
        return Err(LineErrorKind::ScoreOutOfRange(score));
    }
    Ok((moves, score))
}

/// A benchmark file that could not be read or has a malformed line.
#[derive(Debug)]
pub struct LoadError {
    path: PathBuf,
    kind: LoadErrorKind,
}

#[derive(Debug)]
enum LoadErrorKind {
    Io(std::io::Error),
    Line { line: usize, kind: LineErrorKind },
}

impl LoadError {
    /// The file concerned.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Was the file missing or unreadable (rather than malformed)?
    #[must_use]
    pub fn is_io(&self) -> bool {
        matches!(self.kind, LoadErrorKind::Io(_))
    }

    /// For a malformed line: its 1-based number and what is wrong.
    #[must_use]
    pub fn line(&self) -> Option<(usize, &LineErrorKind)> {
        match &self.kind {
            LoadErrorKind::Line { line, kind } => Some((*line, kind)),
            LoadErrorKind::Io(_) => None,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            LoadErrorKind::Io(e) => write!(f, "{p}: {e}"),
            LoadErrorKind::Line { line, kind } => write!(f, "{p}:{line}: {kind}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LoadErrorKind::Io(e) => Some(e),
            LoadErrorKind::Line { kind, .. } => Some(kind),
        }
    }
}

/// Reads a benchmark file at `path`, any file of Pons's format: checks
/// every line and builds its board with `board`, as
/// [`TestSet::load_with`] does.
///
/// # Errors
///
/// [`LoadError`] when the file cannot be read, a line is malformed or
/// `board` refuses it.
pub fn load_test_file<B, E: fmt::Display>(
    path: &Path,
    board: impl FnMut(&str, i32) -> Result<B, E>,
) -> Result<Vec<TestPosition<B>>, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError {
        path: path.to_owned(),
        kind: LoadErrorKind::Io(e),
    })?;
    parse_lines(&text, board).map_err(|(line, kind)| LoadError {
        path: path.to_owned(),
        kind: LoadErrorKind::Line { line, kind },
    })
}

/// Parses the text of a benchmark file (blank lines are skipped): checks
/// every line with [`parse_test_line`] and builds its board with `board`.
///
/// ```
/// use gametree_data::pons::{LineErrorKind, parse_lines};
///
/// // A stand-in for a board: the number of stones, refusing a full column.
/// let stones = |moves: &str, _score: i32| match moves.matches('4').count() {
///     0..=6 => Ok(moves.len()),
///     _ => Err("column 4 is full"),
/// };
/// let lines = parse_lines("4455 18\n", stones)?;
/// assert_eq!((lines[0].board, lines[0].score), (4, 18));
/// let (line, error) = parse_lines("4455 18\n4444444 0\n", stones).unwrap_err();
/// assert_eq!(line, 2);
/// assert_eq!(error, LineErrorKind::Position("column 4 is full".into()));
/// # Ok::<(), (usize, LineErrorKind)>(())
/// ```
///
/// # Errors
///
/// The 1-based number of the first malformed or refused line, and why.
pub fn parse_lines<B, E: fmt::Display>(
    text: &str,
    mut board: impl FnMut(&str, i32) -> Result<B, E>,
) -> Result<Vec<TestPosition<B>>, (usize, LineErrorKind)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (moves, score) = parse_test_line(line).map_err(|k| (i + 1, k))?;
        let built =
            board(moves, score).map_err(|e| (i + 1, LineErrorKind::Position(e.to_string())))?;
        out.push(TestPosition {
            moves: moves.to_owned(),
            board: built,
            score,
            line: i + 1,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(parse_test_line("4455 18").map(|(_, s)| s), Ok(18));
        assert_eq!(parse_test_line(" 4455   18 ").map(|(_, s)| s), Ok(18));
        assert_eq!(parse_test_line("4455"), Err(LineErrorKind::FieldCount(1)));
        assert_eq!(
            parse_test_line("4455 1 2"),
            Err(LineErrorKind::FieldCount(3))
        );
        assert_eq!(parse_test_line(""), Err(LineErrorKind::FieldCount(0)));
        assert_eq!(
            parse_test_line("4455 x"),
            Err(LineErrorKind::Score("x".into()))
        );
        assert_eq!(
            parse_test_line("4458 0"),
            Err(LineErrorKind::Moves("4458".into()))
        );
        assert_eq!(
            parse_test_line("4a 0"),
            Err(LineErrorKind::Moves("4a".into()))
        );
        assert!(parse_test_line(&format!("{} 0", "1".repeat(42))).is_ok());
        assert_eq!(
            parse_test_line(&format!("{} 0", "1".repeat(43))),
            Err(LineErrorKind::Moves("1".repeat(43)))
        );
        assert_eq!(
            parse_test_line("4455 19"),
            Err(LineErrorKind::ScoreOutOfRange(19))
        );
        assert_eq!(parse_test_line("4455 -18").map(|(_, s)| s), Ok(-18));
        assert_eq!(
            parse_test_line("4455 -19"),
            Err(LineErrorKind::ScoreOutOfRange(-19))
        );
    }

    #[test]
    fn text_errors_carry_line_numbers() {
        let any = |_: &str, _: i32| Ok::<(), String>(());
        let r = parse_lines("4455 18\n\n44 0\n4x 0\n", any);
        assert_eq!(r.unwrap_err().0, 4);
        let ok = parse_lines("4455 18\n\n44 0\n", any).unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].line, 3);
        assert_eq!(ok[1].moves, "44");
        assert_eq!(ok[1].score, 0);
    }

    #[test]
    fn the_board_builder_sees_every_line_and_may_refuse_one() {
        let mut seen = Vec::new();
        let odd_only = |moves: &str, score: i32| {
            seen.push((moves.to_owned(), score));
            if moves.len() % 2 == 1 {
                Ok(moves.len())
            } else {
                Err(format!("{} plies", moves.len()))
            }
        };
        let (line, kind) = parse_lines("1 3\n123 -2\n12 0\n", odd_only).unwrap_err();
        assert_eq!((line, kind), (3, LineErrorKind::Position("2 plies".into())));
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[1], ("123".to_owned(), -2));
        let built = parse_lines("1 3\n123 -2\n", |m: &str, _| Ok::<_, String>(m.len())).unwrap();
        assert_eq!(built.iter().map(|p| p.board).collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn missing_file_is_io() {
        let e = TestSet::L3_R1
            .load(Path::new("/nonexistent/gametree"))
            .unwrap_err();
        assert!(e.is_io());
        assert!(e.line().is_none());
        assert!(e.to_string().contains("Test_L3_R1"));
    }

    #[test]
    fn every_set_has_its_published_figures() {
        for set in TestSet::ALL {
            let p = set.published().unwrap();
            assert_eq!(
                (p.file.as_str(), p.description.as_str()),
                (set.file_name(), set.description())
            );
            assert!(p.mean_nodes > 0.0 && p.mean_time_us > 0.0, "{set}");
        }
        let sets: Vec<&str> = super::super::connect4()
            .unwrap()
            .pons_sets
            .iter()
            .map(|s| s.file.as_str())
            .collect();
        let all: Vec<&str> = TestSet::ALL.iter().map(|s| s.file_name()).collect();
        assert_eq!(sets, all);
        assert_eq!(TestSet::L2_R1.published().unwrap().mean_nodes, 449.6);
    }
}
