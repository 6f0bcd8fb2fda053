//! Pascal Pons's six Connect Four benchmark sets: the files, a loader that
//! checks every line, and his final solver's published figures (from the
//! corpus file `connect4.toml`).
//!
//! Each file `Test_L{stage}_R{rating}` holds 1000 lines `moves score`
//! (7 × 6; moves in Pons's notation, the score in his convention, see
//! [`Board::pons_score`]). Pons publishes them with his blog *Solving
//! Connect 4: how to build a perfect AI* (blog.gamesolver.org, part 2,
//! "Test protocol"); they are not in this repository
//! ([`CONNECT4_DATA`](crate::CONNECT4_DATA) says where to put them).
//! [`TestSet::load`] reads one from a directory and checks every line: the
//! moves are a legal game, the score an integer in the range possible for
//! the position.
//!
//! ```no_run
//! use gametree_verify::data::pons::TestSet;
//!
//! let dir = gametree_verify::default_data_dir().join("connect4");
//! for t in TestSet::L3_R1.load(&dir)?.iter().take(3) {
//!     println!("{} {} (ply {})", t.moves, t.score, t.board.plies());
//! }
//! println!("Pons's mean nodes: {}", TestSet::L3_R1.published()?.mean_nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use gametree_games_connect4::{Board, NotationError, Size};

use super::{CorpusError, PonsFigures};

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

    /// Reads and checks the set's file in directory `dir`.
    ///
    /// # Errors
    ///
    /// [`LoadError`] when the file cannot be read or a line is malformed.
    pub fn load(self, dir: &Path) -> Result<Vec<TestPosition>, LoadError> {
        load_test_file(&dir.join(self.file))
    }
}

impl fmt::Display for TestSet {
    /// `Test_L3_R1 (end-easy)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.file, self.description)
    }
}

/// One benchmark line: a 7 × 6 position and its exact Pons score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition {
    /// The moves as written in the file (Pons's notation).
    pub moves: String,
    /// The position they reach.
    pub board: Board,
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
    /// The moves are not a legal game.
    Moves(NotationError),
    /// The score is not an integer.
    Score(String),
    /// The score cannot be the result of the position (too large for the
    /// cells left, or a win on a ply of the wrong parity).
    ScoreOutOfRange(i32),
}

impl fmt::Display for LineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineErrorKind::FieldCount(n) => {
                write!(f, "expected 2 fields `moves score`, found {n}")
            }
            LineErrorKind::Moves(e) => write!(f, "bad moves: {e}"),
            LineErrorKind::Score(s) => write!(f, "score {s:?} is not an integer"),
            LineErrorKind::ScoreOutOfRange(s) => {
                write!(f, "score {s} is impossible for this position")
            }
        }
    }
}

impl std::error::Error for LineErrorKind {}

/// Parses one benchmark line `moves score` (7 × 6).
///
/// ```
/// use gametree_verify::data::pons::parse_test_line;
/// let (board, score) = parse_test_line("4455 18")?;
/// assert_eq!((board.plies(), score), (4, 18));
/// assert!(parse_test_line("4455 19").is_err()); // no win that fast
/// # Ok::<(), gametree_verify::data::pons::LineErrorKind>(())
/// ```
///
/// # Errors
///
/// [`LineErrorKind`] saying what is wrong.
pub fn parse_test_line(line: &str) -> Result<(Board, i32), LineErrorKind> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let &[moves, score] = fields.as_slice() else {
        return Err(LineErrorKind::FieldCount(fields.len()));
    };
    let board = Board::from_moves(Size::STANDARD, moves).map_err(LineErrorKind::Moves)?;
    let score: i32 = score
        .parse()
        .map_err(|_| LineErrorKind::Score(score.to_owned()))?;
    if board.score_from_pons(score).is_none() {
        return Err(LineErrorKind::ScoreOutOfRange(score));
    }
    Ok((board, score))
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

/// Reads a benchmark file (`moves score` per line; blank lines are
/// skipped) and checks every line with [`parse_test_line`].
///
/// # Errors
///
/// [`LoadError`] when the file cannot be read or at the first malformed
/// line.
pub fn load_test_file(path: &Path) -> Result<Vec<TestPosition>, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError {
        path: path.to_owned(),
        kind: LoadErrorKind::Io(e),
    })?;
    parse_test_text(&text).map_err(|(line, kind)| LoadError {
        path: path.to_owned(),
        kind: LoadErrorKind::Line { line, kind },
    })
}

/// Parses the text of a benchmark file.
fn parse_test_text(text: &str) -> Result<Vec<TestPosition>, (usize, LineErrorKind)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (board, score) = parse_test_line(line).map_err(|k| (i + 1, k))?;
        out.push(TestPosition {
            moves: line.split_whitespace().next().unwrap_or("").to_owned(),
            board,
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
        assert!(matches!(
            parse_test_line("4458 0"),
            Err(LineErrorKind::Moves(_))
        ));
        assert_eq!(
            parse_test_line("4455 19"),
            Err(LineErrorKind::ScoreOutOfRange(19))
        );
        // The second player's earliest win is with its 4th stone (ply 8).
        assert_eq!(parse_test_line("4455 -18").map(|(_, s)| s), Ok(-18));
        assert_eq!(
            parse_test_line("4455 -19"),
            Err(LineErrorKind::ScoreOutOfRange(-19))
        );
    }

    #[test]
    fn text_errors_carry_line_numbers() {
        let r = parse_test_text("4455 18\n\n44 0\n4x 0\n");
        assert_eq!(r.unwrap_err().0, 4);
        let ok = parse_test_text("4455 18\n\n44 0\n").unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].line, 3);
        assert_eq!(ok[1].moves, "44");
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
