//! Cross-checks for `cargo xtask verify` (family 2, "solvers agree"): each
//! function runs this crate's solvers on one position and compares them with
//! a value the caller computed with an independent solver (the alpha-beta
//! solver, retrograde analysis, or a plain negamax), and replays every proof
//! tree with [`verify_with`] (trusting the game's win bounds, which
//! `gametree_game::check::win_bounds` tests separately).

use std::cell::RefCell;
use std::error::Error;
use std::fmt;

use gametree_game::{Game, Limits, Outcome, Request, Score};

use crate::cns::{Conspiracy, ConspiracyConfig, ValueSet};
use crate::common::{Answer, Question, Report};
use crate::dfpn::{DfPn, DfPnConfig};
use crate::options::ProofConfig;
use crate::pns::Pns;
use crate::proof::{Strategy, Trust, verify_with};

/// A solver that disagreed with the reference, or whose proof did not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    solver: &'static str,
    detail: String,
}

impl Disagreement {
    fn new(solver: &'static str, detail: String) -> Disagreement {
        Disagreement { solver, detail }
    }

    /// The solver that failed (`"pns"`, `"pn2"`, `"df-pn"`, `"cns"`).
    #[must_use]
    pub fn solver(&self) -> &'static str {
        self.solver
    }

    /// What it answered or which proof failed, in words.
    #[must_use]
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.solver, self.detail)
    }
}

impl Error for Disagreement {}

/// What [`solvers_agree`] ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgreeStats {
    /// Expansions by PNS, PN², df-pn and CNS, in that order.
    pub nodes: [u64; 4],
    /// Proof-tree positions replayed by the verifier.
    pub verified_nodes: u64,
}

type Prove<'a, G> = dyn Fn(
        &mut G,
        Question,
        &mut Request<'_, G>,
    ) -> (
        Report<<G as Game>::Move>,
        Option<Strategy<<G as Game>::Move>>,
    ) + 'a;

/// Win/draw/loss by two proving searches, each answer's proof tree verified.
fn solve_verified<G: Game>(
    name: &'static str,
    prove: &Prove<'_, G>,
    game: &mut G,
    limits: &Limits,
    stats: &mut AgreeStats,
) -> Result<(Outcome, u64), Disagreement> {
    let mut nodes = 0;
    let mut ask = |q: Question, game: &mut G| -> Result<bool, Disagreement> {
        let (report, strategy) = prove(game, q, &mut Request::new(limits));
        nodes += report.stats.nodes;
        let proven = match report.answer {
            Answer::Proven => true,
            Answer::Disproven => false,
            Answer::Unknown(stop) => {
                return Err(Disagreement::new(name, format!("{q:?}: stopped by {stop}")));
            }
        };
        let strategy =
            strategy.ok_or_else(|| Disagreement::new(name, format!("{q:?}: no proof tree")))?;
        let checked = verify_with(game, &strategy, Trust::WinBounds)
            .map_err(|e| Disagreement::new(name, format!("{q:?}: {e}")))?;
        stats.verified_nodes += checked.nodes;
        Ok(proven)
    };
    let outcome = if ask(Question::Win, game)? {
        Outcome::Win
    } else if ask(Question::AtLeastDraw, game)? {
        Outcome::Draw
    } else {
        Outcome::Loss
    };
    Ok((outcome, nodes))
}

/// Solves `game` (restored afterwards) with PNS, PN², df-pn (a 64 KiB table,
/// small enough to force replacements on larger games) and CNS (threshold ∞
/// over win/draw/loss), and checks that each finds `expected`, the value for
/// the side to move found by an independent solver: [`proof_solvers_agree`]
/// and [`cns_agrees`] together. `limits` bounds each search.
///
/// # Errors
///
/// A [`Disagreement`] naming the first solver that answered differently,
/// stopped on a limit, or produced a proof tree that does not verify.
pub fn solvers_agree<G: Game>(
    game: &mut G,
    expected: Outcome,
    limits: &Limits,
) -> Result<AgreeStats, Disagreement> {
    let mut stats = proof_solvers_agree(game, expected, limits)?;
    stats.nodes[3] = cns_agrees(game, expected, limits)?;
    Ok(stats)
}

/// Solves `game` (restored afterwards) with PNS, PN² and df-pn (a 64 KiB
/// table) by two searches each ("win?", then "at least a draw?"), checks
/// each value against `expected`, and replays the proof tree of every answer
/// (a strategy for the side to move, or for its opponent when disproven)
/// against the game with [`verify_with`].
///
/// # Errors
///
/// A [`Disagreement`] naming the first solver that answered differently,
/// stopped on a limit, or produced a proof tree that does not verify.
pub fn proof_solvers_agree<G: Game>(
    game: &mut G,
    expected: Outcome,
    limits: &Limits,
) -> Result<AgreeStats, Disagreement> {
    let mut stats = AgreeStats::default();
    let pns = RefCell::new(Pns::default());
    let pn2 = RefCell::new(Pns::pn2());
    let dfpn = RefCell::new(
        DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(64 << 10)))
            .expect("a 64 KiB table"),
    );
    each_agrees(
        &[
            (0, "pns", &|g, q, r| pns.borrow_mut().prove(g, q, r)),
            (1, "pn2", &|g, q, r| pn2.borrow_mut().prove(g, q, r)),
            (2, "df-pn", &|g, q, r| dfpn.borrow_mut().prove(g, q, r)),
        ],
        game,
        expected,
        limits,
        &mut stats,
    )?;
    Ok(stats)
}

/// Runs each `(slot in the stats' nodes, name, solver)` through
/// [`solve_verified`] and checks its value against `expected`.
fn each_agrees<G: Game>(
    solvers: &[(usize, &'static str, &Prove<'_, G>)],
    game: &mut G,
    expected: Outcome,
    limits: &Limits,
    stats: &mut AgreeStats,
) -> Result<(), Disagreement> {
    for &(i, name, prove) in solvers {
        let (got, nodes) = solve_verified(name, prove, game, limits, stats)?;
        stats.nodes[i] = nodes;
        if got != expected {
            return Err(Disagreement::new(
                name,
                format!("found {got}, expected {expected}"),
            ));
        }
    }
    Ok(())
}

/// Solves `game` (restored afterwards) with the two proving solvers whose
/// memory does not grow with the proof tree — PN² (the second-level trees
/// are freed after each expansion) and df-pn (a fixed table of
/// `dfpn_table_bytes`) — like [`proof_solvers_agree`]: two searches each,
/// each value checked against `expected`, each proof tree replayed with
/// [`verify_with`]. For positions whose proof tree does not fit in memory as a
/// tree (plain PNS and CNS keep the whole tree; 4,4,4 needs more than
/// 8 GiB of it). Fills `nodes[1]` and `nodes[2]` of the stats.
///
/// # Errors
///
/// A [`Disagreement`] naming the first solver that answered differently,
/// stopped on a limit, or produced a proof tree that does not verify.
pub fn bounded_solvers_agree<G: Game>(
    game: &mut G,
    expected: Outcome,
    limits: &Limits,
    dfpn_table_bytes: usize,
) -> Result<AgreeStats, Disagreement> {
    let mut stats = AgreeStats::default();
    let pn2 = RefCell::new(Pns::pn2());
    let dfpn = DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(dfpn_table_bytes)))
        .map_err(|e| Disagreement::new("df-pn", e.to_string()))?;
    let dfpn = RefCell::new(dfpn);
    each_agrees(
        &[
            (1, "pn2", &|g, q, r| pn2.borrow_mut().prove(g, q, r)),
            (2, "df-pn", &|g, q, r| dfpn.borrow_mut().prove(g, q, r)),
        ],
        game,
        expected,
        limits,
        &mut stats,
    )?;
    Ok(stats)
}

/// Checks that conspiracy-number search with threshold ∞ over win/draw/loss
/// finds `expected` for `game` (restored afterwards); returns its expansions.
///
/// # Errors
///
/// A [`Disagreement`] when it finds another value or stops on a limit.
pub fn cns_agrees<G: Game>(
    game: &mut G,
    expected: Outcome,
    limits: &Limits,
) -> Result<u64, Disagreement> {
    let cns = Conspiracy::new(ConspiracyConfig::new())
        .and_then(|mut c| c.search(game, &mut Request::new(limits)))
        .map_err(|e| Disagreement::new("cns", e.to_string()))?;
    if cns.outcome() != Some(expected) {
        return Err(Disagreement::new(
            "cns",
            format!(
                "found {:?} (range {}..{}), expected {expected}",
                cns.outcome(),
                cns.low,
                cns.high
            ),
        ));
    }
    Ok(cns.stats.nodes)
}

/// Checks that conspiracy-number search with threshold ∞ on the tree cut at
/// `depth` plies (leaves there evaluated and treated as final; finished games
/// scored [`Score::terminal`]`(outcome, ply)`) returns exactly `expected`,
/// the depth-`depth` negamax value computed independently with the same
/// leaf scores. `heuristic` bounds the game's evaluations.
///
/// # Errors
///
/// A [`Disagreement`] when the value differs, the range did not close, or
/// the search failed.
pub fn cns_matches_negamax<G: Game>(
    game: &mut G,
    depth: u32,
    heuristic: std::ops::RangeInclusive<i32>,
    expected: Score,
    limits: &Limits,
) -> Result<u64, Disagreement> {
    let config = ConspiracyConfig::new().values(ValueSet::depth_limited(heuristic, depth));
    let limits = limits.clone().with_depth(depth);
    let report = Conspiracy::new(config)
        .and_then(|mut c| c.search(game, &mut Request::new(&limits)))
        .map_err(|e| Disagreement::new("cns", e.to_string()))?;
    if report.stopped.is_some() || report.low != report.high || report.value != expected {
        return Err(Disagreement::new(
            "cns",
            format!(
                "depth {depth}: value {} range {}..{} stop {:?}, expected {expected}",
                report.value, report.low, report.high, report.stopped
            ),
        ));
    }
    Ok(report.stats.nodes)
}
