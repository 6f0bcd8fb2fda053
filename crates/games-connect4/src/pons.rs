//! Pascal Pons's scoring convention and his six benchmark files.
//!
//! **Score.** From the side to move's view: a win scores
//! `(width · height + 2 − N) div 2` when the winning stone is ply `N` of the
//! game (the first stone is ply 1), i.e. one more than the number of cells
//! the winner had left; a draw scores 0; a loss is the negation of the
//! opponent's win. On 7 × 6 scores range over −18..=18 ([`Size::min_pons_score`],
//! [`Size::max_pons_score`]). See [`Size::pons_score_of_win_on_ply`],
//! [`Board::pons_score`] and [`Board::score_from_pons`].
//!
//! **Benchmarks.** Each file `Test_L{stage}_R{rating}` holds 1000 lines
//! `moves score` (7 × 6); Pons publishes them with his blog *Solving
//! Connect 4: how to build a perfect AI* (blog.gamesolver.org, part 2, "Test
//! protocol"). [`TestSet::load`] reads one from a directory and checks every
//! line: the moves are a legal game, the score an integer in the range
//! possible for the position.
//!
//! ```no_run
//! use gametree_games_connect4::pons::TestSet;
//! // A directory holding Pons's files: Test_L3_R1, Test_L2_R1, ...
//! let dir = std::path::Path::new("connect4");
//! for t in TestSet::L3_R1.load(dir)?.iter().take(3) {
//!     println!("{} {} (ply {})", t.moves, t.score, t.board.plies());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use crate::{Board, NotationError, Size};

/// One of Pons's six benchmark sets (blog.gamesolver.org, "Solving Connect
/// 4", part 2), with its published figures for his final solver (part 12).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestSet {
    file: &'static str,
    description: &'static str,
    mean_nodes: f64,
    mean_time_us: f64,
}

impl TestSet {
    /// `Test_L3_R1`: end of game, easy.
    pub const L3_R1: TestSet = TestSet::new("Test_L3_R1", "end-easy", 51.28, 4.568);
    /// `Test_L2_R1`: middle of game, easy.
    pub const L2_R1: TestSet = TestSet::new("Test_L2_R1", "middle-easy", 449.6, 37.45);
    /// `Test_L2_R2`: middle of game, medium.
    pub const L2_R2: TestSet = TestSet::new("Test_L2_R2", "middle-medium", 39_907.0, 3_212.0);
    /// `Test_L1_R1`: beginning of game, easy.
    pub const L1_R1: TestSet = TestSet::new("Test_L1_R1", "begin-easy", 3_298.0, 254.6);
    /// `Test_L1_R2`: beginning of game, medium.
    pub const L1_R2: TestSet = TestSet::new("Test_L1_R2", "begin-medium", 1_200_785.0, 96_630.0);
    /// `Test_L1_R3`: beginning of game, hard.
    pub const L1_R3: TestSet = TestSet::new("Test_L1_R3", "begin-hard", 65_920_000.0, 5_490_000.0);

    /// The six sets, easiest first as in Pons's table.
    pub const ALL: [TestSet; 6] = [
        TestSet::L3_R1,
        TestSet::L2_R1,
        TestSet::L2_R2,
        TestSet::L1_R1,
        TestSet::L1_R2,
        TestSet::L1_R3,
    ];

    const fn new(
        file: &'static str,
        description: &'static str,
        mean_nodes: f64,
        mean_time_us: f64,
    ) -> TestSet {
        TestSet {
            file,
            description,
            mean_nodes,
            mean_time_us,
        }
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

    /// Pons's published mean number of explored nodes per position for his
    /// final solver (deterministic, machine-independent).
    #[must_use]
    pub const fn published_mean_nodes(self) -> f64 {
        self.mean_nodes
    }

    /// Pons's published mean time per position, in microseconds (his
    /// machine).
    #[must_use]
    pub const fn published_mean_time_us(self) -> f64 {
        self.mean_time_us
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

/// Parses one benchmark line `moves score` (7 × 6).
///
/// ```
/// use gametree_games_connect4::pons::parse_test_line;
/// let (board, score) = parse_test_line("4455 18")?;
/// assert_eq!((board.plies(), score), (4, 18));
/// assert!(parse_test_line("4455 19").is_err()); // no win that fast
/// # Ok::<(), gametree_games_connect4::pons::LineErrorKind>(())
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

impl std::error::Error for LineErrorKind {}

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
    use gametree_game::Score;

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
        assert_eq!(
            parse_test_line("4455 -19"),
            Err(LineErrorKind::ScoreOutOfRange(-19))
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
    fn score_conversions_are_inverse() {
        // Every position of a few games, every Pons score in range.
        for moves in ["", "4", "4455", "2252576253462244111563365343671351441"] {
            let b: Board = moves.parse().unwrap();
            let mut round_trips = 0;
            for pons in -30..=30 {
                if let Some(s) = b.score_from_pons(pons) {
                    assert_eq!(b.pons_score(s), Some(pons), "{moves} {pons}");
                    round_trips += 1;
                }
            }
            assert!(round_trips > 0);
            for d in 0..50 {
                for s in [Score::win_in(d), Score::loss_in(d)] {
                    if let Some(p) = b.pons_score(s) {
                        assert_eq!(b.score_from_pons(p), Some(s), "{moves} {s}");
                    }
                }
            }
        }
        let empty = Board::standard();
        assert_eq!(empty.pons_score(Score::win_in(41)), Some(1));
        assert_eq!(empty.pons_score(Score::win_in(7)), Some(18));
        assert_eq!(empty.pons_score(Score::loss_in(8)), Some(-18));
        assert_eq!(empty.pons_score(Score::win_in(8)), None); // wrong parity
        assert_eq!(empty.pons_score(Score::new(5)), None); // heuristic
        assert_eq!(empty.score_from_pons(19), None);
        assert_eq!(empty.score_from_pons(-18), Some(Score::loss_in(8)));
    }
}
