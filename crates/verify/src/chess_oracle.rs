//! Searches that probe the chess tables at their leaves
//! ([`gametree_game::Oracle`]) give the tables' values: alpha-beta with the
//! tables below the root, alpha-beta with the tables two plies below it,
//! df-pn with the tables, on random positions of each ending.

use gametree_pns_conspiracy::ProofConfig;
use std::sync::Arc;

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_chess_tables::{BuildOptions, Endgame, PawnEndgame, Signature, Tablebase};
use gametree_game::{Find, Game, IndexSpace, Limits, Oracle, Player, Request, Score, Solver};
use gametree_games_chess::Position;
use gametree_pns_conspiracy::{DfPn, DfPnConfig};
use gametree_retrograde::Value;

use super::Tally;
use super::common::{rng, score_text};

/// The index space of an ending, with or without pawns.
enum Space {
    Pawnless(Endgame),
    Pawns(Box<PawnEndgame>),
}

impl Space {
    fn new(signature: &Signature) -> Result<Space, String> {
        let name = signature.to_string();
        if signature.has_pawns() {
            PawnEndgame::new(&name)
                .map(|s| Space::Pawns(Box::new(s)))
                .map_err(|e| e.to_string())
        } else {
            Endgame::new(&name)
                .map(Space::Pawnless)
                .map_err(|e| e.to_string())
        }
    }

    fn size(&self) -> u64 {
        match self {
            Space::Pawnless(s) => s.size(),
            Space::Pawns(s) => s.size(),
        }
    }

    fn position(&self, i: u64) -> Option<Position> {
        match self {
            Space::Pawnless(s) => s.position(i),
            Space::Pawns(s) => s.position(i),
        }
    }
}

/// The tables, answering only positions whose side to move is `side`: a
/// search from a root with `side` to move then stops two plies below it,
/// not one.
struct OneSide {
    tables: Arc<Tablebase>,
    side: Player,
}

impl Oracle<Position> for OneSide {
    fn probe(&self, position: &Position) -> Option<Score> {
        if position.side_to_move() == self.side {
            Oracle::probe(&*self.tables, position)
        } else {
            None
        }
    }
}

/// What the searches say about one position, as a line to compare with
/// what the tables say.
fn summary(
    value: Option<Score>,
    deep: Option<Score>,
    dfpn: Option<gametree_game::Outcome>,
    line: &str,
) -> String {
    let shown = dfpn.map_or("unknown".to_string(), |o| o.to_string());
    let (value, deep) = (score_text(value), score_text(deep));
    format!("alpha-beta {value}, two plies {deep}, df-pn {shown}, line {line}")
}

/// Builds `endings` (and what they capture and promote into), then, on
/// `samples` positions of each drawn at random from its index space (not
/// finished, no castling), compares with the tables' value: alpha-beta's
/// solve with the tables as its oracle (the value, distance included; its
/// principal variation played out ends in mate after exactly that many
/// plies, or is a draw), the same with the tables answering two plies
/// below the root only, and df-pn's win/draw/loss with the tables. An
/// ending whose positions are all over by the rules (KBvK, KNvK) has none
/// to sample.
pub(crate) fn search_with_tables(endings: &[&str], samples: usize, seed: u64) -> Tally {
    let mut t = Tally::default();
    let mut signatures = Vec::new();
    for &e in endings {
        match e.parse::<Signature>() {
            Ok(s) => signatures.push(s),
            Err(err) => {
                t.compare(e, None, "an ending".to_string(), err.to_string());
            }
        }
    }
    let mut tables = Tablebase::new();
    if let Err(e) = tables.build(&signatures, &BuildOptions::default()) {
        t.compare("build", None, "the tables".to_string(), e.to_string());
        return t;
    }
    let tables = Arc::new(tables);
    let config = Config::default().memory(1 << 20);
    let mut shallow = AlphaBeta::<Position>::new(config).expect("1 MiB table");
    let mut deep = AlphaBeta::<Position>::new(config.complete_line(false)).expect("1 MiB table");
    let mut dfpn = DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 20)))
        .expect("1 MiB table");
    let none = Limits::none();
    let mut r = rng(seed);
    for signature in &signatures {
        let space = match Space::new(signature) {
            Ok(space) => space,
            Err(e) => {
                t.compare(signature, None, "an index".to_string(), e);
                continue;
            }
        };
        let size = space.size();
        let mut done = 0;
        // Every position of some endings is over (KBvK, KNvK: a dead
        // position is a draw by the rules): a bounded number of draws.
        let mut draws = 0;
        while done < samples && draws < 100 * samples {
            draws += 1;
            let i = rand_core::Rng::next_u64(&mut r) % size;
            let Some(mut p) = space.position(i) else {
                continue;
            };
            if p.outcome().is_some() {
                continue;
            }
            let Some(value) = tables.probe(&p).ok().flatten() else {
                t.compare(&p, None, "a value".to_string(), "none".to_string());
                done += 1;
                continue;
            };
            done += 1;
            let score = value.to_score();
            shallow.clear();
            let exact = Request::new(&none).find(Find::Score);
            let solved = shallow.solve(&mut p, &mut exact.oracle(&*tables));
            deep.clear();
            let two_plies = OneSide {
                tables: tables.clone(),
                side: p.side_to_move(),
            };
            let exact = Request::new(&none).find(Find::Score);
            let deep_solved = deep.solve(&mut p, &mut exact.oracle(&two_plies));
            gametree_game::Solver::<Position>::clear(&mut dfpn);
            let mut request = Request::new(&none).oracle(&*tables);
            let proved = gametree_game::Solver::solve(&mut dfpn, &mut p, &mut request);
            let expected = summary(Some(score), Some(score), score.outcome(), &line_end(value));
            let got = summary(
                solved.score,
                deep_solved.score,
                proved.outcome,
                &played_out(&p, &solved.line),
            );
            t.compare(&p, None, expected, got);
        }
    }
    t
}

/// How a principal variation of a position of `value` ends.
fn line_end(value: Value) -> String {
    match value {
        Value::Win(d) | Value::Loss(d) => format!("mate after {d} plies"),
        Value::Draw => "not mate".to_string(),
    }
}

/// Plays `pv` from `p`: "mate after n plies" when it ends in checkmate
/// (a position lost for its side to move), "not mate" otherwise, or the
/// first illegal move.
fn played_out(p: &Position, pv: &[<Position as Game>::Move]) -> String {
    let mut q = p.clone();
    for &m in pv {
        if q.try_make(m).is_err() {
            return format!("illegal move {m}");
        }
    }
    match q.outcome() {
        Some(gametree_game::Outcome::Loss) => format!("mate after {} plies", pv.len()),
        _ => "not mate".to_string(),
    }
}
