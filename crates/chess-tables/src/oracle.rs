//! The tablebase as an [`Oracle`] for the searchers.

use gametree_game::{Oracle, Score};
use gametree_games_chess::Position;
use gametree_retrograde::Value;

use crate::Tablebase;

/// The tablebase answers every position of an ending it holds (colours
/// exchanged too) without castling rights, with its distance to mate:
/// `AlphaBeta` (the request's `oracle`) and df-pn (`solve_with_oracle`) then stop
/// at such positions below the root instead of searching them. A table in
/// a file is read when a probe first needs it; a file that cannot be
/// read leaves its positions unknown (`None`: searched instead), the
/// error kept for [`Tablebase::take_error`].
///
/// As every published database does, the tables ignore the fifty-move
/// rule and the history of the game: a search that probes them values a
/// position by best play from it, whatever its move counter says.
///
/// ```
/// use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
/// use gametree_chess_tables::{BuildOptions, Tablebase};
/// use gametree_games_chess::Position;
///
/// let mut tables = Tablebase::new();
/// tables.build(&["KRvK".parse()?], &BuildOptions::default())?;
///
/// let mut searcher = AlphaBeta::<Position>::new(Config::default())?;
/// // One ply of search, then the tables; the line is played out to mate.
/// let mut p: Position = "8/8/8/4k3/8/8/8/R6K w - - 0 1".parse()?;
/// let limits = Limits::none();
/// let mut request = Request::new(&limits).find(Find::Score).oracle(&tables);
/// let solved = searcher.solve(&mut p, &mut request);
/// let score = solved.score.expect("solved");
/// assert_eq!(Some(score), tables.probe(&p)?.map(|v| v.to_score()));
/// assert_eq!(solved.line.len() as u32, score.plies_to_end().unwrap());
/// assert!(solved.stats.nodes < 1_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Oracle<Position> for Tablebase {
    fn probe(&self, position: &Position) -> Option<Score> {
        self.kept(Tablebase::probe(self, position))
            .map(Value::to_score)
    }
}
