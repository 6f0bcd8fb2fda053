//! Consistency oracles every [`Game`] must pass.
//!
//! They live here, in library code, so that unit tests, `cargo xtask verify`
//! (from a seed) and the fuzz targets (from fuzzer bytes) run exactly the
//! same checks. Inputs are valid by construction: a playout is driven by a
//! stream of numbers, each reduced modulo the number of legal moves.
//!
//! [`knowledge`] runs the cheap checks of everything a game declares in
//! [`Game::KNOWLEDGE`] on one position, and [`sampled_knowledge`] runs them
//! on a sample of the positions a search visits: the searchers of the
//! workspace call it in debug builds, so that a wrong declaration fails
//! loudly in the tests of the game that makes it.

use alloc::format;
use alloc::string::String;
use core::fmt;

use crate::{Game, MoveBuffer, Outcome};

mod knowledge;

pub use knowledge::{knowledge, sampled_knowledge};

/// Which invariant broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// The incremental hash differs from the hash computed from scratch.
    HashMismatch,
    /// `unmake` did not restore the position (or its hash) exactly.
    UnmakeMismatch,
    /// A generated move was listed twice.
    DuplicateMove,
    /// A generated move was refused by `is_legal`/`try_make`, or a
    /// non-generated one accepted.
    LegalityMismatch,
    /// `try_make` refused a move but changed the position anyway.
    RefusalChangedPosition,
    /// Forcing knowledge ([`Game::winning_move`],
    /// [`Game::non_losing_moves`]) disagrees with a two-ply brute-force
    /// search, or a move of a game with forcing knowledge does not pass the
    /// turn, or its outcome is a win for the side to move.
    ForcingMismatch,
    /// [`Game::quiet_hints`] differs from [`Game::move_hint`].
    HintMismatch,
    /// [`Game::cannot_win`] claims a player cannot win where an exhaustive
    /// search finds a win for it, or [`Game::cannot_draw`] claims it loses
    /// where the search finds a draw or a win (or where `cannot_win` does
    /// not say it cannot win).
    WinBoundMismatch,
    /// [`Game::table_move`] is not its own inverse.
    TableMoveMismatch,
    /// [`Game::table_key_after`] differs from the child's
    /// [`Game::table_key`].
    TableKeyMismatch,
    /// [`Game::remaining_plies`] promised the game would be over within
    /// fewer plies than a line of play lasted.
    LengthBoundMismatch,
    /// [`Game::evaluate`] returned a decisive score (beyond
    /// [`Score::MAX_HEURISTIC`](crate::Score::MAX_HEURISTIC)).
    EvaluationMismatch,
    /// [`Game::generate_tactical`] does not list exactly the generated
    /// moves that [`Game::move_hint`] calls tactical.
    TacticsMismatch,
    /// [`Game::move_number`] is not below [`Game::MOVE_NUMBERS`], or
    /// (with [`Knowledge::move_numbers`](crate::Knowledge::move_numbers))
    /// gives two moves of one position the same number.
    MoveNumberMismatch,
    /// [`Game::proof_hints`] gave a number below 1.
    ProofHintMismatch,
    /// [`Game::threat_moves`] listed a move that is not legal.
    ThreatMismatch,
}

impl FailureKind {
    /// The item of [`Knowledge`](crate::Knowledge) (as its `Display`
    /// names it: `forcing`, `win bounds`, ...) whose declaration the
    /// failure contradicts; `None` for a failure of the rules (hash,
    /// make/unmake, legality).
    #[must_use]
    pub const fn knowledge_item(self) -> Option<&'static str> {
        Some(match self {
            FailureKind::ForcingMismatch => "forcing",
            FailureKind::HintMismatch => "order hints",
            FailureKind::WinBoundMismatch => "win bounds",
            FailureKind::LengthBoundMismatch => "length bound",
            FailureKind::EvaluationMismatch => "evaluation",
            FailureKind::TacticsMismatch => "tactics",
            FailureKind::MoveNumberMismatch => "move numbers",
            FailureKind::ProofHintMismatch => "proof hints",
            FailureKind::ThreatMismatch => "threats",
            FailureKind::HashMismatch
            | FailureKind::UnmakeMismatch
            | FailureKind::DuplicateMove
            | FailureKind::LegalityMismatch
            | FailureKind::RefusalChangedPosition
            | FailureKind::TableMoveMismatch
            | FailureKind::TableKeyMismatch => return None,
        })
    }
}

/// A broken invariant: what, where (ply of the playout) and details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    kind: FailureKind,
    ply: usize,
    detail: String,
}

impl Failure {
    fn new(kind: FailureKind, ply: usize, detail: String) -> Self {
        Failure { kind, ply, detail }
    }
    /// Which invariant broke.
    pub fn kind(&self) -> FailureKind {
        self.kind
    }
    /// The ply of the playout where it broke (0 = the start position).
    pub fn ply(&self) -> usize {
        self.ply
    }
    /// The position and move involved, in `Debug` form.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at ply {}: {}", self.kind, self.ply, self.detail)
    }
}

impl core::error::Error for Failure {}

/// How a failure names a position: by its `Debug` form where the caller
/// has one (the public oracles require it), otherwise (a searcher's
/// position, whose type need not be `Debug`) by its hash, side to move and
/// legal moves.
struct Shown<'a, G> {
    game: &'a G,
    debug: Option<fn(&G, &mut fmt::Formatter<'_>) -> fmt::Result>,
}

impl<G> Clone for Shown<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Shown<'_, G> {}

impl<'a, G: fmt::Debug> Shown<'a, G> {
    fn debug(game: &'a G) -> Self {
        Shown {
            game,
            debug: Some(<G as fmt::Debug>::fmt),
        }
    }
}

impl<'a, G> Shown<'a, G> {
    fn opaque(game: &'a G) -> Self {
        Shown { game, debug: None }
    }
}

impl<G: Game> fmt::Display for Shown<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(debug) = self.debug {
            return debug(self.game, f);
        }
        let g = self.game;
        write!(
            f,
            "the position with hash {:#018x} ({} to move, moves [",
            g.hash(),
            g.side_to_move()
        )?;
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        for (i, m) in moves.as_slice().iter().enumerate() {
            if i == 24 {
                write!(f, ", ... {} in all", moves.len())?;
                break;
            }
            write!(f, "{}{m}", if i == 0 { "" } else { ", " })?;
        }
        f.write_str("])")
    }
}

/// Checks one position: its hash, its batched move hints
/// ([`Game::quiet_hints`] = [`Game::move_hint`]), and for every generated
/// move that it is unique, legal, that [`Game::table_move`] maps it back
/// to itself when applied twice, that [`Game::table_key_after`] (where the
/// game gives it) is the child's table key, and that make/unmake restores
/// the position, hash and table key.
///
/// # Errors
///
/// The first broken invariant, with `ply` as given.
pub fn position<G>(game: &G, ply: usize) -> Result<(), Failure>
where
    G: Game + Eq + fmt::Debug,
{
    if game.hash() != game.recompute_hash() {
        return Err(Failure::new(
            FailureKind::HashMismatch,
            ply,
            format!(
                "incremental {:#x} != from scratch {:#x} in {game:?}",
                game.hash(),
                game.recompute_hash()
            ),
        ));
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let list = moves.as_slice();
    hints(game, list, ply, Shown::debug(game))?;
    let mut scratch = game.clone();
    for (i, &m) in list.iter().enumerate() {
        if list[..i].contains(&m) {
            return Err(Failure::new(
                FailureKind::DuplicateMove,
                ply,
                format!("move {m} generated twice in {game:?}"),
            ));
        }
        if !game.is_legal(m) {
            return Err(Failure::new(
                FailureKind::LegalityMismatch,
                ply,
                format!("generated move {m} refused by is_legal in {game:?}"),
            ));
        }
        let stored = game.table_move(m);
        if game.table_move(stored) != m {
            return Err(Failure::new(
                FailureKind::TableMoveMismatch,
                ply,
                format!(
                    "table_move({m}) = {stored}, table_move({stored}) = {} in {game:?}",
                    game.table_move(stored)
                ),
            ));
        }
        let after = game.table_key_after(m);
        let undo = scratch.make(m);
        if let Some(key) = after
            && key != scratch.table_key()
        {
            return Err(Failure::new(
                FailureKind::TableKeyMismatch,
                ply,
                format!(
                    "table_key_after({m}) = {key:#x}, the child's table key {:#x}, in {game:?}",
                    scratch.table_key()
                ),
            ));
        }
        if scratch.hash() != scratch.recompute_hash() {
            return Err(Failure::new(
                FailureKind::HashMismatch,
                ply + 1,
                format!(
                    "after {m}: incremental {:#x} != from scratch {:#x} in {scratch:?}",
                    scratch.hash(),
                    scratch.recompute_hash()
                ),
            ));
        }
        scratch.unmake(m, undo);
        if scratch != *game
            || scratch.hash() != game.hash()
            || scratch.table_key() != game.table_key()
        {
            return Err(Failure::new(
                FailureKind::UnmakeMismatch,
                ply,
                format!("make/unmake {m} turned {game:?} into {scratch:?}"),
            ));
        }
    }
    Ok(())
}

/// [`Game::quiet_hints`] against [`Game::move_hint`] on `list`, in slices
/// of every length (an override may treat short lists apart).
fn hints<G: Game>(
    game: &G,
    list: &[G::Move],
    ply: usize,
    shown: Shown<'_, G>,
) -> Result<(), Failure> {
    let mut out = [0i32; 64];
    for start in [0, list.len() / 2] {
        let part = &list[start.min(list.len())..];
        let part = &part[..part.len().min(out.len())];
        out[..part.len()].fill(i32::MIN);
        game.quiet_hints(part, &mut out);
        for (i, &m) in part.iter().enumerate() {
            let single = game.move_hint(m).quiet();
            if out[i] != single {
                return Err(Failure::new(
                    FailureKind::HintMismatch,
                    ply,
                    format!(
                        "quiet_hints gives {} for {m}, move_hint {single}, in {shown}",
                        out[i]
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Plays a random game from `start`, choosing each move as the next number
/// of `choices` modulo the number of legal moves, and runs [`position`] on
/// every position reached. Stops when the game is over, when there are no
/// moves, after `max_plies` moves, or when `choices` runs out. Returns the
/// number of moves played.
///
/// # Errors
///
/// The first broken invariant.
pub fn playout<G, I>(start: &G, choices: &mut I, max_plies: usize) -> Result<usize, Failure>
where
    G: Game + Eq + fmt::Debug,
    I: Iterator<Item = u64>,
{
    let mut game = start.clone();
    let mut moves = G::Moves::default();
    for ply in 0..=max_plies {
        position(&game, ply)?;
        if ply == max_plies || game.outcome().is_some() {
            return Ok(ply);
        }
        game.generate(&mut moves);
        if moves.is_empty() {
            return Ok(ply);
        }
        let Some(choice) = choices.next() else {
            return Ok(ply);
        };
        let m = moves.as_slice()[(choice % moves.len() as u64) as usize];
        game.make(m);
    }
    Ok(max_plies)
}

/// `try_make(candidate)` must succeed exactly when `candidate` is generated,
/// and a refusal must leave the position unchanged. Fuzzers feed arbitrary
/// candidate moves here.
///
/// # Errors
///
/// [`FailureKind::LegalityMismatch`] or
/// [`FailureKind::RefusalChangedPosition`].
pub fn try_make_agrees<G>(game: &G, candidate: G::Move) -> Result<(), Failure>
where
    G: Game + Eq + fmt::Debug,
{
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let generated = moves.as_slice().contains(&candidate);
    let mut scratch = game.clone();
    match scratch.try_make(candidate) {
        Ok(undo) if generated => {
            scratch.unmake(candidate, undo);
            Ok(())
        }
        Ok(_) => Err(Failure::new(
            FailureKind::LegalityMismatch,
            0,
            format!("try_make accepted non-generated move {candidate:?} in {game:?}"),
        )),
        Err(_) if generated => Err(Failure::new(
            FailureKind::LegalityMismatch,
            0,
            format!("try_make refused generated move {candidate} in {game:?}"),
        )),
        Err(_) if scratch != *game => Err(Failure::new(
            FailureKind::RefusalChangedPosition,
            0,
            format!("refusing {candidate:?} changed {game:?} into {scratch:?}"),
        )),
        Err(_) => Ok(()),
    }
}

/// Does playing `m` end the game with the mover winning?
fn wins_at_once<G: Game>(game: &G, m: G::Move) -> bool {
    let mut g = game.clone();
    g.make(m);
    g.outcome() == Some(Outcome::Loss)
}

/// Forcing knowledge against brute force, for a game that declares it
/// ([`Knowledge::forcing`](crate::Knowledge::forcing); nothing to check
/// otherwise): `winning_move` is `Some` exactly when a generated move wins
/// at once (and then is such a move), `non_losing_moves` lists exactly the
/// generated moves after which no reply wins at once, every move passes the
/// turn, the outcome is never a win for the side to move, and (with
/// [`Knowledge::threats`](crate::Knowledge::threats)) every threat move is
/// legal.
///
/// # Errors
///
/// [`FailureKind::ForcingMismatch`].
pub fn forcing<G>(game: &G) -> Result<(), Failure>
where
    G: Game + fmt::Debug,
{
    forcing_in(game, Shown::debug(game), true)
}

/// [`forcing`], naming the position as `shown` does; the threat moves are
/// checked only with `threats` (the knowledge oracle checks them apart).
fn forcing_in<G: Game>(game: &G, shown: Shown<'_, G>, threats: bool) -> Result<(), Failure> {
    if !G::KNOWLEDGE.has_forcing() {
        return Ok(());
    }
    if game.outcome() == Some(Outcome::Win) {
        return Err(Failure::new(
            FailureKind::ForcingMismatch,
            0,
            format!("a game with forcing knowledge ended with a win for the side to move: {shown}"),
        ));
    }
    if game.outcome().is_some() {
        return Ok(());
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    for &m in moves.as_slice() {
        let mut child = game.clone();
        child.make(m);
        if child.side_to_move() == game.side_to_move() {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!(
                    "{m} does not pass the turn in {shown} (forcing knowledge needs alternating turns)"
                ),
            ));
        }
    }
    if threats && G::KNOWLEDGE.has_threats() {
        let mut threats = G::Moves::default();
        game.threat_moves(&mut threats);
        if let Some(m) = threats
            .as_slice()
            .iter()
            .find(|m| !moves.as_slice().contains(m))
        {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!("threat_moves lists {m}, not a legal move in {shown}"),
            ));
        }
    }
    let winning = moves.as_slice().iter().any(|&m| wins_at_once(game, m));
    match game.winning_move() {
        Some(m) if !moves.as_slice().contains(&m) || !wins_at_once(game, m) => {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!("winning_move {m} does not win at once in {shown}"),
            ));
        }
        None if winning => {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!("winning_move missed an immediate win in {shown}"),
            ));
        }
        Some(_) => return Ok(()),
        None => {}
    }
    let mut listed = G::Moves::default();
    game.non_losing_moves(&mut listed);
    let mut replies = G::Moves::default();
    for &m in moves.as_slice() {
        let mut child = game.clone();
        child.make(m);
        // No move wins here, so `outcome_unless_won` applies to every child.
        if child.outcome_unless_won() != child.outcome() {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!(
                    "after {m}, which does not win, outcome_unless_won is {:?} and outcome {:?} in {shown}",
                    child.outcome_unless_won(),
                    child.outcome()
                ),
            ));
        }
        let loses = child.outcome().is_none() && {
            child.generate(&mut replies);
            replies.as_slice().iter().any(|&r| wins_at_once(&child, r))
        };
        if loses == listed.as_slice().contains(&m) {
            return Err(Failure::new(
                FailureKind::ForcingMismatch,
                0,
                format!(
                    "non_losing_moves {} {m} wrongly in {shown}",
                    if loses { "lists" } else { "omits" }
                ),
            ));
        }
    }
    if listed
        .as_slice()
        .iter()
        .any(|m| !moves.as_slice().contains(m))
    {
        return Err(Failure::new(
            FailureKind::ForcingMismatch,
            0,
            format!("non_losing_moves lists an illegal move in {shown}"),
        ));
    }
    Ok(())
}

/// The exact win/draw/loss value of `game` for its side to move, by plain
/// negamax to the end of the game (no pruning, no knowledge; any turn
/// order). Exponential: for positions close to the end.
pub fn exhaustive_value<G: Game>(game: &mut G) -> Outcome {
    if let Some(o) = game.outcome() {
        return o;
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let side = game.side_to_move();
    let mut best = Outcome::Loss;
    for &m in moves.as_slice() {
        let undo = game.make(m);
        let v = exhaustive_value(game);
        let v = if game.side_to_move() == side {
            v
        } else {
            v.flip()
        };
        game.unmake(m, undo);
        if v > best {
            best = v;
            if best == Outcome::Win {
                break;
            }
        }
    }
    best
}

/// [`Game::cannot_win`] and [`Game::cannot_draw`] against
/// [`exhaustive_value`], for a game that declares win bounds
/// ([`Knowledge::win_bounds`](crate::Knowledge::win_bounds); nothing to
/// check otherwise): when it says that the side to move cannot win, the
/// exact value must not be a win, and when it says that the side to move
/// cannot draw, the value must be a loss; the same for the opponent, the
/// other way round. Exponential in the number of moves left: call it on
/// positions close to the end.
///
/// # Errors
///
/// [`FailureKind::WinBoundMismatch`].
pub fn win_bounds<G>(game: &G) -> Result<(), Failure>
where
    G: Game + fmt::Debug,
{
    win_bounds_in(game, Shown::debug(game), |g| {
        Some(exhaustive_value(&mut g.clone()))
    })
}

/// [`win_bounds`] with the value found by `value` (`None`: not known, no
/// claim checked), naming the position as `shown` does.
fn win_bounds_in<G: Game>(
    game: &G,
    shown: Shown<'_, G>,
    value: impl FnOnce(&G) -> Option<Outcome>,
) -> Result<(), Failure> {
    if !G::KNOWLEDGE.has_win_bounds() || game.outcome().is_some() {
        return Ok(());
    }
    let side = game.side_to_move();
    let (us, them) = (game.cannot_win(side), game.cannot_win(side.opponent()));
    let (us_lose, them_lose) = (game.cannot_draw(side), game.cannot_draw(side.opponent()));
    if !(us || them || us_lose || them_lose) {
        return Ok(());
    }
    if (us_lose && !us) || (them_lose && !them) {
        return Err(Failure::new(
            FailureKind::WinBoundMismatch,
            0,
            format!(
                "cannot_draw claims a player loses but cannot_win does not say it cannot win in {shown}"
            ),
        ));
    }
    let (claim, value) = match value(game) {
        Some(v @ Outcome::Win) if us => ("cannot_win claims the side to move cannot win", v),
        Some(v @ Outcome::Loss) if them => ("cannot_win claims the opponent cannot win", v),
        Some(v @ (Outcome::Win | Outcome::Draw)) if us_lose => {
            ("cannot_draw claims the side to move loses", v)
        }
        Some(v @ (Outcome::Loss | Outcome::Draw)) if them_lose => {
            ("cannot_draw claims the opponent loses", v)
        }
        _ => return Ok(()),
    };
    Err(Failure::new(
        FailureKind::WinBoundMismatch,
        0,
        format!("{claim}, but the value is a {value} for the side to move in {shown}"),
    ))
}
