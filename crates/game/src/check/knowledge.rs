//! The knowledge oracle: cheap checks of everything a game declares in
//! [`Game::KNOWLEDGE`], on one position ([`knowledge`]) or on a sample of
//! the positions a search visits ([`sampled_knowledge`], which the
//! searchers of the workspace call in debug builds).

use alloc::format;
use alloc::string::String;
use core::fmt::{self, Write as _};

use super::{Failure, FailureKind, Shown, forcing_in, hints, win_bounds_in};
use crate::{Game, MoveBuffer, Outcome, Score};

/// [`sampled_knowledge`] checks a search's first position, those whose
/// number is a power of two from `SAMPLE_DEEPER` on, and one in
/// `SAMPLE_EVERY`.
const SAMPLE_DEEPER: u64 = 16;
/// See [`SAMPLE_DEEPER`].
const SAMPLE_EVERY: u64 = 4096;
/// The most positions the win-bound probe expands.
const WIN_BOUND_POSITIONS: u32 = 32;
/// The deepest the win-bound probe searches: a win in one or three plies,
/// a loss in two.
const WIN_BOUND_DEPTH: u32 = 3;
/// The longest length bound the playout probe tests (a longer one is not
/// played out).
const LENGTH_PLAYOUT_PLIES: u32 = 512;
/// The lines of play the length-bound probe plays from a position.
const LENGTH_PLAYOUTS: u64 = 2;

/// Checks, on one position, every item `G` declares in
/// [`Game::KNOWLEDGE`] against the rules, as far as a few cheap probes
/// can:
///
/// * forcing: [`forcing`](super::forcing) (a two-ply search);
/// * threats: every threat move is legal;
/// * evaluation: [`Game::evaluate`] is not a decisive score;
/// * tactics: [`Game::generate_tactical`] lists exactly the generated
///   moves that [`Game::move_hint`] calls tactical;
/// * order hints: [`Game::quiet_hints`] writes what [`Game::move_hint`]
///   gives;
/// * move numbers: every generated move's number is below
///   [`Game::MOVE_NUMBERS`] (at most 65,535), and no two share one (that
///   part only when declared);
/// * proof hints: both numbers are at least 1;
/// * length bound: two lines of play (moves chosen from the position's
///   hash) end within [`Game::remaining_plies`] plies;
/// * win bounds: each [`Game::cannot_win`] claim against a search of at
///   most 32 positions and 3 plies ([`win_bounds`](super::win_bounds)
///   searches to the end), which refutes a claim when it proves a win in
///   one or three plies, or a loss in two, for the player said not to win.
///
/// The rules themselves (hash, make/unmake, legality) are
/// [`position`](super::position)'s business. A passing position proves
/// little on its own; run it on many positions, as the searchers'
/// [`sampled_knowledge`] does.
///
/// ```
/// use arrayvec::ArrayVec;
/// use gametree_game::check::{FailureKind, knowledge};
/// use gametree_game::{Game, Knowledge, Outcome, Player};
///
/// /// Take one or two stones; the last stone wins. It claims a length
/// /// bound of `stones / 2` plies, too short when only ones are taken.
/// #[derive(Clone, Debug)]
/// struct Nim(u32, Player);
///
/// impl Game for Nim {
///     type Move = u32;
///     type Undo = ();
///     type Moves = ArrayVec<u32, 2>;
///     fn side_to_move(&self) -> Player { self.1 }
///     fn generate(&self, out: &mut Self::Moves) {
///         out.clear();
///         out.extend((1..=2).filter(|&t| t <= self.0));
///     }
///     fn make(&mut self, m: u32) { self.0 -= m; self.1 = self.1.opponent(); }
///     fn unmake(&mut self, m: u32, _: ()) { self.0 += m; self.1 = self.1.opponent(); }
///     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
///     fn hash(&self) -> u64 { u64::from(self.0) << 1 | self.1.index() as u64 }
///     const KNOWLEDGE: Knowledge = Knowledge::NONE.length_bound();
///     fn remaining_plies(&self) -> Option<u32> { Some(self.0 / 2) }
/// }
///
/// let failure = knowledge(&Nim(9, Player::First)).unwrap_err();
/// assert_eq!(failure.kind(), FailureKind::LengthBoundMismatch);
/// assert_eq!(failure.kind().knowledge_item(), Some("length bound"));
/// ```
///
/// # Errors
///
/// The first failure found, of a kind whose
/// [`knowledge_item`](FailureKind::knowledge_item) names the item.
pub fn knowledge<G>(game: &G) -> Result<(), Failure>
where
    G: Game + fmt::Debug,
{
    probes(game, Shown::debug(game))
}

/// [`knowledge`] on a sample of the positions a search visits, panicking
/// on the first failure with a message that names the knowledge item, the
/// position (its hash, side to move and moves: a searcher's position need
/// not be `Debug`) and what the rules say. `visited` counts the positions
/// the search has visited, this one included. Checked are the first (the
/// root: every position a test suite solves), the 16th, 32nd, 64th, ...
/// (powers of two: ever deeper into a depth-first search, ever further
/// along a best-first one) and one in 4,096, so that a test suite of many
/// small searches slows down little: a search of a few nodes checks one
/// position, one of a million nodes about 260.
///
/// The searchers of the workspace (`AlphaBeta`, the proof-number and
/// conspiracy-number solvers, threat-space search) call it at every node
/// in debug builds (`cfg(debug_assertions)`), so that a game whose
/// [`Game::KNOWLEDGE`] promises more than it keeps (forcing knowledge in a
/// game that keeps the turn, a length bound that is too short) fails in
/// its own tests instead of getting wrong values; release builds never
/// call it.
///
/// # Panics
///
/// When [`knowledge`] fails on a sampled position.
#[track_caller]
pub fn sampled_knowledge<G: Game>(game: &G, visited: u64) {
    if !is_sampled(visited) {
        return;
    }
    if let Err(failure) = probes(game, Shown::opaque(game)) {
        panic!(
            "Game::KNOWLEDGE of {} declares {}, but the rules disagree: {} \
             (found by gametree_game::check::knowledge, which debug builds of the searchers \
             run on a sample of the positions they visit; a search that trusts this \
             declaration gives wrong values: fix the method or drop the item)",
            core::any::type_name::<G>(),
            failure.kind().knowledge_item().unwrap_or("knowledge"),
            failure.detail()
        );
    }
}

/// Is the `visited`-th position of a search among those checked?
const fn is_sampled(visited: u64) -> bool {
    visited == 1
        || (visited >= SAMPLE_DEEPER && visited.is_power_of_two())
        || visited.is_multiple_of(SAMPLE_EVERY)
}

/// Every probe of a declared item, in order of cost.
fn probes<G: Game>(game: &G, shown: Shown<'_, G>) -> Result<(), Failure> {
    let k = G::KNOWLEDGE;
    if k.has_forcing() {
        forcing_in(game, shown, false)?;
    }
    if game.outcome().is_some() {
        // The other items are only asked about positions that are not over.
        return Ok(());
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let list = moves.as_slice();
    if k.has_threats() {
        threats(game, list, shown)?;
    }
    if k.has_evaluation() {
        evaluation(game, shown)?;
    }
    if k.has_tactics() {
        tactics(game, list, shown)?;
    }
    if k.has_order_hints() {
        hints(game, list, 0, shown)?;
    }
    move_numbers(list, shown)?;
    if k.has_proof_hints() {
        proof_hints(game, shown)?;
    }
    if k.has_length_bound() {
        length_bound(game, shown)?;
    }
    if k.has_win_bounds() {
        win_bounds_in(game, shown, |g| {
            value_within(g, WIN_BOUND_POSITIONS, WIN_BOUND_DEPTH)
        })?;
    }
    Ok(())
}

fn fail(kind: FailureKind, detail: String) -> Result<(), Failure> {
    Err(Failure::new(kind, 0, detail))
}

/// Every threat move is legal.
fn threats<G: Game>(game: &G, list: &[G::Move], shown: Shown<'_, G>) -> Result<(), Failure> {
    let mut threats = G::Moves::default();
    game.threat_moves(&mut threats);
    match threats.as_slice().iter().find(|m| !list.contains(m)) {
        Some(m) => fail(
            FailureKind::ThreatMismatch,
            format!("threat_moves lists {m}, not a legal move in {shown}"),
        ),
        None => Ok(()),
    }
}

/// The evaluation is heuristic.
fn evaluation<G: Game>(game: &G, shown: Shown<'_, G>) -> Result<(), Failure> {
    let v = game.evaluate();
    if v.get().abs() > Score::MAX_HEURISTIC {
        return fail(
            FailureKind::EvaluationMismatch,
            format!(
                "evaluate gives {v}, beyond Score::MAX_HEURISTIC (build it with Score::heuristic), in {shown}"
            ),
        );
    }
    Ok(())
}

/// `generate_tactical` lists exactly the tactical moves.
fn tactics<G: Game>(game: &G, list: &[G::Move], shown: Shown<'_, G>) -> Result<(), Failure> {
    let mut tactical = G::Moves::default();
    game.generate_tactical(&mut tactical);
    let tactical = tactical.as_slice();
    for (i, &m) in tactical.iter().enumerate() {
        let wrong = if !list.contains(&m) {
            "which is not a legal move"
        } else if !game.move_hint(m).is_tactical() {
            "which move_hint calls quiet"
        } else if tactical[..i].contains(&m) {
            "twice"
        } else {
            continue;
        };
        return fail(
            FailureKind::TacticsMismatch,
            format!("generate_tactical lists {m}, {wrong}, in {shown}"),
        );
    }
    match list
        .iter()
        .find(|&&m| game.move_hint(m).is_tactical() && !tactical.contains(&m))
    {
        Some(m) => fail(
            FailureKind::TacticsMismatch,
            format!("generate_tactical omits {m}, which move_hint calls tactical, in {shown}"),
        ),
        None => Ok(()),
    }
}

/// Move numbers in range, and one-to-one where declared.
fn move_numbers<G: Game>(list: &[G::Move], shown: Shown<'_, G>) -> Result<(), Failure> {
    if G::MOVE_NUMBERS > usize::from(u16::MAX) {
        return fail(
            FailureKind::MoveNumberMismatch,
            format!(
                "MOVE_NUMBERS is {}, above the largest allowed, 65,535",
                G::MOVE_NUMBERS
            ),
        );
    }
    for (i, &m) in list.iter().enumerate() {
        let n = G::move_number(m);
        if n >= G::MOVE_NUMBERS {
            return fail(
                FailureKind::MoveNumberMismatch,
                format!(
                    "move_number({m}) is {n}, not below MOVE_NUMBERS ({}), in {shown}",
                    G::MOVE_NUMBERS
                ),
            );
        }
        if G::KNOWLEDGE.has_move_numbers()
            && let Some(other) = list[..i].iter().find(|&&o| G::move_number(o) == n)
        {
            return fail(
                FailureKind::MoveNumberMismatch,
                format!("moves {other} and {m} share the move number {n} in {shown}"),
            );
        }
    }
    Ok(())
}

/// Proof and disproof hints of at least 1.
fn proof_hints<G: Game>(game: &G, shown: Shown<'_, G>) -> Result<(), Failure> {
    let (p, d) = game.proof_hints();
    if p == 0 || d == 0 {
        return fail(
            FailureKind::ProofHintMismatch,
            format!("proof_hints gives ({p}, {d}); each must be at least 1, in {shown}"),
        );
    }
    Ok(())
}

/// A few lines of play, their moves chosen from the position's hash, end
/// within the promised number of plies.
fn length_bound<G: Game>(game: &G, shown: Shown<'_, G>) -> Result<(), Failure> {
    let Some(bound) = game.remaining_plies() else {
        return Ok(());
    };
    if bound > LENGTH_PLAYOUT_PLIES {
        return Ok(());
    }
    let mut moves = G::Moves::default();
    let longer = (0..LENGTH_PLAYOUTS).find_map(|i| {
        let seed = game.hash() ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut line = game.clone();
        if play_line(&mut line, seed, bound, |_| {}) < bound || line.outcome().is_some() {
            return None;
        }
        line.generate(&mut moves);
        (!moves.is_empty()).then_some(seed)
    });
    let Some(seed) = longer else {
        return Ok(());
    };
    let mut played = String::new();
    play_line(&mut game.clone(), seed, bound, |m| {
        let _ = write!(played, "{}{m}", if played.is_empty() { " " } else { ", " });
    });
    fail(
        FailureKind::LengthBoundMismatch,
        format!(
            "remaining_plies promises the game ends within {bound} plies, but after{} it goes on ({} legal moves), from {shown}",
            if bound == 0 {
                String::from(" no move")
            } else {
                format!(" the {bound} plies{played}")
            },
            moves.len()
        ),
    )
}

/// Plays up to `plies` moves from `game`, each chosen by a xorshift stream
/// seeded with `seed`, stopping when the game is over or has no moves;
/// calls `on_move` with each move. Returns the number of moves played.
fn play_line<G: Game>(
    game: &mut G,
    seed: u64,
    plies: u32,
    mut on_move: impl FnMut(G::Move),
) -> u32 {
    let mut x = seed | 1;
    let mut moves = G::Moves::default();
    for played in 0..plies {
        if game.outcome().is_some() {
            return played;
        }
        game.generate(&mut moves);
        if moves.is_empty() {
            return played;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = moves.as_slice()[(x % moves.len() as u64) as usize];
        on_move(m);
        game.make(m);
    }
    plies
}

/// The value of `game` for its side to move where a search of at most
/// `positions` expansions and `depth` plies proves it (iterative
/// deepening), `None` otherwise. Any turn order.
fn value_within<G: Game>(game: &G, positions: u32, depth: u32) -> Option<Outcome> {
    let mut g = game.clone();
    let mut left = positions;
    for d in 1..=depth {
        if let Some(v) = proven(&mut g, d, &mut left) {
            return Some(v);
        }
        if left == 0 {
            break;
        }
    }
    None
}

/// The value of `g` if the search of `depth` plies proves it: a win as
/// soon as one move wins, a draw or a loss once every move is known.
fn proven<G: Game>(g: &mut G, depth: u32, left: &mut u32) -> Option<Outcome> {
    if let Some(o) = g.outcome() {
        return Some(o);
    }
    if depth == 0 || *left == 0 {
        return None;
    }
    *left -= 1;
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let side = g.side_to_move();
    let (mut best, mut known) = (Outcome::Loss, true);
    for &m in moves.as_slice() {
        let undo = g.make(m);
        let v = proven(g, depth - 1, left).map(|v| {
            if g.side_to_move() == side {
                v
            } else {
                v.flip()
            }
        });
        g.unmake(m, undo);
        match v {
            Some(Outcome::Win) => return Some(Outcome::Win),
            Some(v) => best = best.max(v),
            None => known = false,
        }
    }
    known.then_some(best)
}
