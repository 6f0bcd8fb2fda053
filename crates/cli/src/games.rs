//! The games the tool knows: names, positions in each game's text format,
//! moves, boards, and each game's own score convention.

use std::fmt::Write as _;

use gametree_game::{Game, Limits, MoveBuffer, Outcome, Player, Score, Solver};
use gametree_games_ataxx::Position as Ataxx;
use gametree_games_chess::Position as Chess;
use gametree_games_connect4::{Board as Connect4, Column, Size};
use gametree_games_dots::{Dots, Size as DotsSize};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;

use crate::error::{CliError, Result};

/// A game name given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameKind {
    /// `tictactoe`.
    TicTacToe,
    /// `connect4` or `connect4:WxH`.
    Connect4(Size),
    /// `mnk:M,N,K`.
    Mnk(u8, u8, u8),
    /// `ataxx`.
    Ataxx,
    /// `chess`.
    Chess,
    /// `dots` (3x3 boxes) or `dots:WxH`.
    Dots(DotsSize),
}

/// The names accepted, for error messages and help.
pub(crate) const GAME_NAMES: &str =
    "tictactoe, connect4, connect4:WxH, mnk:M,N,K, ataxx, chess, dots, dots:WxH";

impl GameKind {
    /// Parses a game name.
    pub(crate) fn parse(name: &str) -> Result<GameKind> {
        let lower = name.trim().to_ascii_lowercase();
        let unknown = || {
            CliError::input(format!(
                "unknown game {name:?} (expected one of: {GAME_NAMES})"
            ))
        };
        match lower.as_str() {
            "tictactoe" | "tic-tac-toe" => return Ok(GameKind::TicTacToe),
            "connect4" => return Ok(GameKind::Connect4(Size::STANDARD)),
            "ataxx" => return Ok(GameKind::Ataxx),
            "chess" => return Ok(GameKind::Chess),
            "dots" => return Ok(GameKind::Dots(DotsSize::STANDARD)),
            _ => {}
        }
        if let Some(size) = lower.strip_prefix("dots:") {
            let size: DotsSize = size.parse().map_err(|e| {
                CliError::input(format!("bad Dots-and-Boxes size in {name:?}: {e}"))
            })?;
            return Ok(GameKind::Dots(size));
        }
        if let Some(size) = lower.strip_prefix("connect4:") {
            let size: Size = size
                .parse()
                .map_err(|e| CliError::input(format!("bad Connect Four size in {name:?}: {e}")))?;
            return Ok(GameKind::Connect4(size));
        }
        if let Some(mnk) = lower.strip_prefix("mnk:") {
            let bad = |why: &str| CliError::input(format!("bad m,n,k game {name:?}: {why}"));
            let parts: Vec<&str> = mnk.split(',').collect();
            if parts.len() != 3 {
                return Err(bad("expected three numbers M,N,K such as mnk:15,15,5"));
            }
            let mut v = [0u8; 3];
            for (slot, p) in v.iter_mut().zip(&parts) {
                let p = p.trim();
                // Any run of digits is a number; one too large for a board
                // says so (the game states its own range below).
                *slot = match p.parse::<u8>() {
                    Ok(x) => x,
                    Err(_) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
                        return Err(bad(&format!(
                            "{p} is too large (max {} per dimension)",
                            gametree_games_mnk::MAX_SIDE
                        )));
                    }
                    Err(_) => return Err(bad(&format!("{p:?} is not a number"))),
                };
            }
            // Validate through the game itself.
            Mnk::new(v[0], v[1], v[2]).map_err(|e| bad(&e.to_string()))?;
            return Ok(GameKind::Mnk(v[0], v[1], v[2]));
        }
        Err(unknown())
    }

    /// The canonical name.
    pub(crate) fn name(self) -> String {
        match self {
            GameKind::TicTacToe => "tictactoe".into(),
            GameKind::Connect4(s) if s == Size::STANDARD => "connect4".into(),
            GameKind::Connect4(s) => format!("connect4:{s}"),
            GameKind::Mnk(m, n, k) => format!("mnk:{m},{n},{k}"),
            GameKind::Ataxx => "ataxx".into(),
            GameKind::Chess => "chess".into(),
            GameKind::Dots(s) if s == DotsSize::STANDARD => "dots".into(),
            GameKind::Dots(s) => format!("dots:{s}"),
        }
    }
}

/// Runs `$body` with `$spec` bound to the [`Spec`] of `$kind`.
macro_rules! with_spec {
    ($kind:expr, $spec:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::TicTacToe => {
                let $spec = &$crate::games::TicTacToeSpec;
                $body
            }
            $crate::games::GameKind::Connect4(size) => {
                let $spec = &$crate::games::Connect4Spec(size);
                $body
            }
            $crate::games::GameKind::Mnk(m, n, k) => {
                let $spec = &$crate::games::MnkSpec(m, n, k);
                $body
            }
            $crate::games::GameKind::Ataxx => {
                let $spec = &$crate::games::AtaxxSpec;
                $body
            }
            $crate::games::GameKind::Chess => {
                let $spec = &$crate::games::ChessSpec;
                $body
            }
            $crate::games::GameKind::Dots(size) => {
                let $spec = &$crate::games::DotsSpec(size);
                $body
            }
        }
    };
}
pub(crate) use with_spec;

/// What the tool needs of a game beyond the library traits.
pub(crate) trait CliGame: Send + 'static + Game<Move: Send + Sync> {
    /// Parses one move, checking that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move>;
    /// The board drawn as text (several lines, ending with a newline).
    fn board(&self) -> String;
    /// The position in the game's text format.
    fn text(&self) -> String;
    /// The game's own score for an exact search score (side to move's
    /// view), when it has a convention: Connect Four uses Pons's.
    fn exact_score(&self, score: Score) -> Option<i64> {
        Some(i64::from(score.get()))
    }
    /// The game's own exact score found with `solver` when it is not a
    /// function of the search's score (Dots-and-Boxes: the final box
    /// difference, by a search over targets), with the best move and the
    /// line that achieve **that** score, from the same solves; `None` to use
    /// [`exact_score`](Self::exact_score) of the solver's own score.
    fn solved_exact(
        &self,
        solver: &mut dyn Solver<Self>,
        limits: &Limits,
    ) -> Option<Exact<Self::Move>> {
        let _ = (solver, limits);
        None
    }
    /// How moves are written, for help and errors.
    fn move_syntax(&self) -> &'static str;
    /// The default table of alpha-beta and df-pn when a run of `solve`
    /// starts from this position (kept for the run's later positions
    /// unless one of them wants a larger table; `--tt` replaces it).
    fn solve_table_bytes(&self) -> usize {
        crate::solve::TABLE_BYTES
    }
    /// Does analysis search the captures past the horizon (quiescence
    /// search) unless told otherwise? On for chess, where the material
    /// balance a ply after the horizon is often a piece away from the
    /// evaluation at it (the score then swings between odd and even
    /// depths).
    const QUIESCENCE: bool = false;
    /// Perft, by the game's fastest counter (the generic one by default).
    fn fast_perft(&mut self, depth: u32) -> u64 {
        gametree_game::perft(self, depth)
    }
    /// The value of this position from the game's endgame database, built
    /// in memory (retrograde analysis), with a best move.
    ///
    /// # Errors
    ///
    /// Not available for games without a database; positions outside it.
    fn retrograde(&self, threads: usize) -> Result<crate::tb::Probe<Self::Move>> {
        let _ = threads;
        Err(CliError::unavailable(
            "retrograde analysis is not available for this game yet (tictactoe, connect4:WxH up to 5x4 or 4x5, and chess endings with up to 5 pieces have databases)",
        ))
    }
    /// The endgame databases in `dir`, for searches to probe below their
    /// root (`--tables`).
    ///
    /// # Errors
    ///
    /// Not available for games without databases on disk; a directory
    /// that cannot be read or holds a refused table.
    fn oracle(dir: &std::path::Path) -> Result<std::sync::Arc<dyn gametree_game::Oracle<Self>>> {
        let _ = dir;
        Err(CliError::unavailable(
            "--tables is available for chess only (a directory written by `gametree tb build`)",
        ))
    }
    /// Who is to move, in the game's words.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }
}

/// A game's own exact score with a move and a line that achieve it
/// ([`CliGame::solved_exact`]).
#[derive(Debug)]
pub(crate) struct Exact<M> {
    /// Win, draw or loss for the side to move (`None`: a limit stopped a
    /// solve).
    pub(crate) outcome: Option<Outcome>,
    /// The game's exact score for the side to move.
    pub(crate) score: Option<i64>,
    /// A move that achieves `score`.
    pub(crate) best: Option<M>,
    /// The line from `best` on, every move keeping the score.
    pub(crate) pv: Vec<M>,
    /// Nodes of every solve.
    pub(crate) nodes: u64,
}

/// How to make positions of one game.
pub(crate) trait Spec {
    /// The game.
    type G: CliGame;
    /// The empty or starting position.
    fn start(&self) -> Self::G;
    /// Parses a position in the game's text format (`""` and `startpos`
    /// are the start).
    fn parse_text(&self, text: &str) -> Result<Self::G>;
    /// Parses a command-line position.
    fn position(&self, text: &str) -> Result<Self::G> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("startpos") {
            Ok(self.start())
        } else {
            self.parse_text(t)
        }
    }
}

/// The legal moves as text, at most `max` of them.
pub(crate) fn legal_moves_text<G: Game>(g: &G, max: usize) -> String {
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let mut s = String::new();
    for (i, m) in moves.as_slice().iter().enumerate() {
        if i == max {
            s.push_str(" ...");
            break;
        }
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{m}");
    }
    s
}

fn illegal<G: Game>(g: &G, text: &str) -> CliError {
    if g.outcome().is_some() {
        CliError::input(format!("move {text:?}: the game is over"))
    } else {
        CliError::input(format!(
            "illegal move {text:?} (legal: {})",
            legal_moves_text(g, 40)
        ))
    }
}

fn checked<G: Game>(g: &G, text: &str, m: G::Move) -> Result<G::Move> {
    if g.is_legal(m) {
        Ok(m)
    } else {
        Err(illegal(g, text))
    }
}

// ---------------------------------------------------------------- tic-tac-toe

/// Tic-tac-toe.
#[derive(Debug)]
pub(crate) struct TicTacToeSpec;

impl Spec for TicTacToeSpec {
    type G = TicTacToe;
    fn start(&self) -> TicTacToe {
        TicTacToe::new()
    }
    fn parse_text(&self, text: &str) -> Result<TicTacToe> {
        text.parse()
            .map_err(|e| CliError::input(format!("bad tic-tac-toe position {text:?}: {e}")))
    }
}

impl CliGame for TicTacToe {
    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        let m = text
            .trim()
            .parse()
            .map_err(|_| CliError::input(format!("bad move {text:?}: {}", self.move_syntax())))?;
        checked(self, text, m)
    }
    fn board(&self) -> String {
        let mut s = String::new();
        let t = self.to_string();
        for (row, chunk) in t.as_bytes().chunks(3).enumerate() {
            for (col, &c) in chunk.iter().enumerate() {
                let cell = if c == b'.' {
                    char::from(b'0' + (row * 3 + col) as u8)
                } else {
                    char::from(c)
                };
                let _ = write!(s, " {cell}");
            }
            s.push('\n');
        }
        s
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn retrograde(&self, threads: usize) -> Result<crate::tb::Probe<Self::Move>> {
        crate::tb::probe_tictactoe(self, threads)
    }
    fn move_syntax(&self) -> &'static str {
        "a square number 0-8, rows from the top"
    }
}

// ---------------------------------------------------------------- Connect Four

/// Connect Four on a board of the given size.
#[derive(Debug)]
pub(crate) struct Connect4Spec(pub(crate) Size);

impl Spec for Connect4Spec {
    type G = Connect4;
    fn start(&self) -> Connect4 {
        Connect4::new(self.0)
    }
    fn parse_text(&self, text: &str) -> Result<Connect4> {
        Connect4::from_moves(self.0, text)
            .map_err(|e| CliError::input(format!("bad Connect Four position {text:?}: {e}")))
    }
}

impl CliGame for Connect4 {
    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        let t = text.trim();
        let mut chars = t.chars();
        let col = match (chars.next(), chars.next()) {
            (Some(c), None) => Column::from_char(c),
            _ => None,
        };
        let col = col
            .filter(|c| c.index() < self.size().width())
            .ok_or_else(|| {
                CliError::input(format!(
                    "bad move {text:?}: {} (1-{} here)",
                    self.move_syntax(),
                    Column::new(self.size().width() - 1).map_or('?', Column::to_char)
                ))
            })?;
        if self.can_play(col) || self.outcome().is_some() {
            checked(self, text, col)
        } else {
            Err(CliError::input(format!(
                "move {text:?}: column {t} is full"
            )))
        }
    }
    fn board(&self) -> String {
        format!("{self:#}")
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn exact_score(&self, score: Score) -> Option<i64> {
        self.pons_score(score).map(i64::from)
    }
    fn fast_perft(&mut self, depth: u32) -> u64 {
        gametree_games_connect4::perft_bitboard(self, depth)
    }
    fn retrograde(&self, threads: usize) -> Result<crate::tb::Probe<Self::Move>> {
        crate::tb::probe_connect4(self, threads, None)
    }
    fn move_syntax(&self) -> &'static str {
        "a column number from 1 (columns after 9 are a, b, ...)"
    }
    /// By the empty cells of the (first) position, whose tree the table
    /// must hold: from 28 empty cells on a board of 42 cells or more (the
    /// standard board's first 14 plies), 128 MiB; below 28 empty cells,
    /// 16 MiB, which a smaller tree does not outgrow and which costs less
    /// to touch; else 64 MiB. Measured on the standard board with the
    /// solved layout, whole runs of Pons's sets: from the opening
    /// (Test_L1_R3, Test_L1_R2) 128 MiB takes about a quarter less time
    /// than 64 MiB (and 16 MiB more than either on Test_L1_R2); in the
    /// middle game (Test_L2_R2, 15-27 stones) 16 MiB is a little faster
    /// than 64 and 128 MiB, and near the end (Test_L3_R1, 29-41 stones)
    /// several times faster.
    fn solve_table_bytes(&self) -> usize {
        let empty = self.empty_cells();
        if empty < 28 {
            16 << 20
        } else if self.size().cells() >= 42 {
            128 << 20
        } else {
            crate::solve::TABLE_BYTES
        }
    }
}

// ---------------------------------------------------------------- m,n,k

/// An m,n,k-game.
#[derive(Debug)]
pub(crate) struct MnkSpec(pub(crate) u8, pub(crate) u8, pub(crate) u8);

impl Spec for MnkSpec {
    type G = Mnk;
    fn start(&self) -> Mnk {
        Mnk::new(self.0, self.1, self.2).expect("validated when the name was parsed")
    }
    fn parse_text(&self, text: &str) -> Result<Mnk> {
        let bad = |e: &dyn std::fmt::Display| {
            CliError::input(format!("bad m,n,k position {text:?}: {e}"))
        };
        let first = text.split_ascii_whitespace().next().unwrap_or("");
        let full = if first.contains(',') {
            text.to_owned()
        } else {
            format!("{},{},{} {text}", self.0, self.1, self.2)
        };
        let g: Mnk = full.parse().map_err(|e| bad(&e))?;
        if (g.m(), g.n(), g.k()) != (self.0, self.1, self.2) {
            return Err(bad(&format!(
                "the position is for mnk:{},{},{}, not mnk:{},{},{}",
                g.m(),
                g.n(),
                g.k(),
                self.0,
                self.1,
                self.2
            )));
        }
        Ok(g)
    }
}

impl CliGame for Mnk {
    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        let m: gametree_games_mnk::Move = text
            .trim()
            .parse()
            .map_err(|_| CliError::input(format!("bad move {text:?}: {}", self.move_syntax())))?;
        if !self.on_board(m) {
            return Err(CliError::input(format!("move {text:?} is off the board")));
        }
        if self.stone(m).is_some() {
            return Err(CliError::input(format!(
                "move {text:?}: the square is taken"
            )));
        }
        checked(self, text, m)
    }
    fn board(&self) -> String {
        let mut s = String::new();
        for row in (0..self.n()).rev() {
            let _ = write!(s, "{:>2} ", row + 1);
            for col in 0..self.m() {
                let mv = gametree_games_mnk::Move::new(col, row).expect("on the board");
                s.push(match self.stone(mv) {
                    Some(Player::First) => 'x',
                    Some(Player::Second) => 'o',
                    None => '.',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("   ");
        for col in 0..self.m() {
            s.push(char::from(b'a' + col));
            s.push(' ');
        }
        s.push('\n');
        s
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "a column letter and a row number such as b2"
    }
}

// ---------------------------------------------------------------- Ataxx

/// Ataxx.
#[derive(Debug)]
pub(crate) struct AtaxxSpec;

impl Spec for AtaxxSpec {
    type G = Ataxx;
    fn start(&self) -> Ataxx {
        Ataxx::startpos()
    }
    fn parse_text(&self, text: &str) -> Result<Ataxx> {
        Ataxx::from_fen(text).map_err(|e| CliError::input(format!("bad Ataxx FEN {text:?}: {e}")))
    }
}

impl CliGame for Ataxx {
    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        let m: gametree_games_ataxx::Move = text
            .trim()
            .parse()
            .map_err(|e| CliError::input(format!("bad move {text:?}: {e}")))?;
        checked(self, text, m)
    }
    fn board(&self) -> String {
        let mut s = String::new();
        for (i, line) in self.board_string().lines().enumerate() {
            let _ = write!(s, "{} ", 7 - i);
            for c in line.chars() {
                s.push(c);
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("  a b c d e f g\n");
        s
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn fast_perft(&mut self, depth: u32) -> u64 {
        gametree_games_ataxx::perft(self, depth)
    }
    fn move_syntax(&self) -> &'static str {
        "a destination (b2) to clone, origin and destination (a1c3) to jump, 0000 to pass"
    }
}

// ---------------------------------------------------------------- chess

/// Chess.
#[derive(Debug)]
pub(crate) struct ChessSpec;

impl Spec for ChessSpec {
    type G = Chess;
    fn start(&self) -> Chess {
        Chess::startpos()
    }
    fn parse_text(&self, text: &str) -> Result<Chess> {
        text.parse()
            .map_err(|e| CliError::input(format!("bad chess FEN {text:?}: {e}")))
    }
}

impl CliGame for Chess {
    const QUIESCENCE: bool = true;

    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        if self.outcome().is_some() {
            return Err(illegal(self, text));
        }
        match self.parse_uci(text.trim()) {
            Ok(m) => Ok(m),
            Err(e) if e.kind() == gametree_games_chess::UciErrorKind::Illegal => {
                Err(illegal(self, text))
            }
            Err(e) => Err(CliError::input(format!("{e} ({})", self.move_syntax()))),
        }
    }
    fn board(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            let _ = write!(s, "{} ", rank + 1);
            for file in 0..8u8 {
                let sq =
                    gametree_games_chess::Square::from_coords(file, rank).expect("on the board");
                s.push(self.piece_at(sq).map_or('.', |p| p.char()));
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("  a b c d e f g h\n");
        s
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn fast_perft(&mut self, depth: u32) -> u64 {
        self.perft(depth)
    }
    fn retrograde(&self, threads: usize) -> Result<crate::tb::Probe<Self::Move>> {
        crate::tb::probe_chess(self, threads, None)
    }
    fn oracle(dir: &std::path::Path) -> Result<std::sync::Arc<dyn gametree_game::Oracle<Self>>> {
        crate::oracle::chess_tables(dir)
    }
    fn move_syntax(&self) -> &'static str {
        "UCI notation such as e2e4 or e7e8q"
    }
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "White",
            Player::Second => "Black",
        }
    }
}

// ---------------------------------------------------------------- Dots-and-Boxes

/// Dots-and-Boxes on a board of the given size.
#[derive(Debug)]
pub(crate) struct DotsSpec(pub(crate) DotsSize);

impl Spec for DotsSpec {
    type G = Dots;
    fn start(&self) -> Dots {
        Dots::new(self.0)
    }
    fn parse_text(&self, text: &str) -> Result<Dots> {
        Dots::from_moves(self.0, text)
            .map_err(|e| CliError::input(format!("bad Dots-and-Boxes position {text:?}: {e}")))
    }
}

impl CliGame for Dots {
    fn parse_move(&self, text: &str) -> Result<Self::Move> {
        if self.outcome().is_some() {
            return Err(illegal(self, text));
        }
        self.parse_move(text)
            .map_err(|e| CliError::input(format!("bad move {text:?}: {e}")))
    }
    fn board(&self) -> String {
        format!(
            "{}first player's box difference: {:+}\n",
            self.pretty(),
            self.box_difference()
        )
    }
    fn text(&self) -> String {
        self.to_string()
    }
    /// No score from the search alone: the box difference needs targets.
    fn exact_score(&self, _: Score) -> Option<i64> {
        None
    }
    /// The exact box difference, best move and line of
    /// [`gametree_games_dots::exact_solve`]; the outcome compares the
    /// score with the position's target.
    fn solved_exact(
        &self,
        solver: &mut dyn Solver<Self>,
        limits: &Limits,
    ) -> Option<Exact<Self::Move>> {
        let s = gametree_games_dots::exact_solve(solver, self, limits);
        let target = match self.side_to_move() {
            Player::First => self.target(),
            Player::Second => -self.target(),
        };
        Some(Exact {
            outcome: s.score.map(|v| match (v - target).signum() {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            }),
            score: s.score.map(i64::from),
            best: s.best,
            pv: s.line,
            nodes: s.nodes,
        })
    }
    fn move_syntax(&self) -> &'static str {
        "a dot and a direction: a1- (the line to the right of a1) or a1| (the line up)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for name in [
            "tictactoe",
            "connect4",
            "connect4:4x4",
            "mnk:15,15,5",
            "ataxx",
            "chess",
            "dots",
            "dots:2x3",
        ] {
            assert_eq!(GameKind::parse(name).unwrap().name(), name);
        }
        for bad in [
            "go",
            "connect4:0x4",
            "connect4:99x99",
            "mnk:3,3",
            "mnk:0,3,3",
            "mnk:a,b,c",
            "dots:0x2",
            "dots:9x9",
        ] {
            assert!(GameKind::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn start_positions_round_trip() {
        fn check<S: Spec>(spec: &S) {
            let start = spec.position("").unwrap();
            assert_eq!(spec.position("startpos").unwrap().hash(), start.hash());
            let again = spec.position(&start.text());
            if !start.text().is_empty() {
                assert_eq!(again.unwrap().hash(), start.hash());
            }
        }
        for name in [
            "tictactoe",
            "connect4",
            "mnk:4,4,3",
            "ataxx",
            "chess",
            "dots:2x2",
        ] {
            with_spec!(GameKind::parse(name).unwrap(), s => check(s));
        }
    }
}
