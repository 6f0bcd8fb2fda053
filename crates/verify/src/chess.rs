//! Chess rows: the Chess Programming Wiki perft table, every alpha-beta
//! variant equals negamax, quiescence equals its full-width reference on
//! 4-5-man positions (from the starting position the reference does not
//! finish in minutes), the solver's distances to mate equal retrograde
//! databases', the oracles.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Event, Find, Limits, Request, Solver, Use};
use gametree_games_chess::Position;

use super::common::{oracle_playouts, random_positions, rng, score_text, searcher_rows};
use super::{Check, Family, Tally};

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "chess",
            Family::Published,
            "CPW perft table (quick: rows <= 5M nodes; full: <= 1G)",
            |ctx| perft_table(ctx.pick(5_000_000, 1_000_000_000)),
        ),
        Check::new(
            "chess",
            Family::Oracles,
            "make/unmake, hash, legality on playouts",
            |ctx| {
                let start = Position::startpos();
                let kiwipete: Position =
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                        .parse()
                        .expect("Kiwipete FEN");
                let mut t = oracle_playouts(&start, ctx.seed, ctx.pick(20, 200), 120);
                let r = oracle_playouts(&kiwipete, ctx.seed + 1, ctx.pick(20, 200), 120);
                t.positions += r.positions;
                t.agreements += r.agreements;
                t.mismatches.extend(r.mismatches);
                t
            },
        ),
    ];
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "retrograde DTM = AlphaBeta::solve with TT (KQvK, KRvK sample)",
        |ctx| {
            let mut t = Tally::default();
            // (ending, positions): the solver needs about a second per KQvK
            // position and several per KRvK one (mates up to 31 plies).
            let endings: &[(&str, usize)] =
                ctx.pick(&[("KQvK", 40)], &[("KQvK", 150), ("KRvK", 50)]);
            for &(material, samples) in endings {
                dtm_equals_solver(material, samples, ctx.seed, &mut t);
            }
            t
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "df-pn = retrograde DTM: value on the cyclic game; verified mate within exactly DTM plies (KQvK, KRvK, KQvKR sample: draws and DTM <= 15 plies, full: <= 21)",
        |ctx| {
            let mut t = Tally::default();
            // (ending, positions); the positions are draws and mates of at
            // most `reach` plies (df-pn has no chess knowledge to guide it,
            // and its cost grows fast with the distance to mate).
            let endings: &[(&str, usize)] = ctx.pick(
                &[("KQvK", 16), ("KRvK", 8), ("KQvKR", 4)],
                &[("KQvK", 80), ("KRvK", 40), ("KQvKR", 20)],
            );
            let reach = ctx.pick(15, 21);
            for &(material, samples) in endings {
                dfpn_equals_dtm(material, samples, reach, ctx.seed, &mut t);
            }
            t
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Equivalence,
        "quiescence = negamax_quiescence (4-5-man positions)",
        |ctx| {
            let mut t = Tally::default();
            let mut r = rng(ctx.seed);
            let mut positions = Vec::new();
            for material in ["KQvKR", "KRvKN", "KQvKQ", "KRNvKB", "KQBvKR"] {
                let Some(mut sampler) = Sampler::new(material, &mut t) else {
                    continue;
                };
                for _ in 0..ctx.pick(6, 60) {
                    positions.push(sampler.next(&mut r).1);
                }
            }
            let configs = [
                Config::plain().quiescence(true),
                Config::default()
                    .table(
                        gametree_alphabeta::TableConfig::new()
                            .probe_policy(gametree_ttable::ProbePolicy::ExactDepth),
                    )
                    .quiescence(true)
                    .tactical_ordering(Use::On),
                Config::default()
                    .algorithm(gametree_alphabeta::Algorithm::Mtdf)
                    .table(
                        gametree_alphabeta::TableConfig::new()
                            .probe_policy(gametree_ttable::ProbePolicy::ExactDepth),
                    )
                    .quiescence(true),
            ];
            for config in configs {
                let mut s = AlphaBeta::<Position>::new(config).expect("default table");
                for p in &positions {
                    for depth in 1..=ctx.pick(3, 4) {
                        let expected =
                            gametree_alphabeta::negamax_quiescence(&mut p.clone(), depth).value;
                        s.clear();
                        let got = s
                            .search(&mut p.clone(), &mut Request::new(&Limits::depth(depth)))
                            .value;
                        if !t.compare(p, Some(depth), expected, got) {
                            break;
                        }
                    }
                }
            }
            t
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "retrograde: FastEndgame = Endgame, forward = backward (3-man; full: + KBNvK, KQvKR)",
        |ctx| {
            let quick: &[&str] = &["KQvK", "KRvK", "KBvK", "KNvK"];
            let full: &[&str] = &["KQvK", "KRvK", "KBvK", "KNvK", "KBNvK", "KQvKR"];
            let mut t = Tally::default();
            for &material in ctx.pick(quick, full) {
                // Every index of the space must be compared and equal.
                let expected = match gametree_chess_tables::FastEndgame::new(material) {
                    Ok(space) => format!(
                        "equal on {} indices",
                        gametree_game::IndexSpace::size(&space)
                    ),
                    Err(e) => e.to_string(),
                };
                let got = match crate::chess_builds::fast_equals_position_space(&[material]) {
                    Ok(n) => format!("equal on {n} indices"),
                    Err(e) => e.to_string(),
                };
                t.compare(material, None, expected, got);
            }
            t
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "retrograde: scheduled build (chess-tables, 2 threads) = one at a time (KQvKR, KRvKN + subs; full: all 24)",
        |ctx| {
            let quick: &[&str] = &["KQvKR", "KRvKN"];
            let all: Vec<String> = gametree_chess_tables::pawnless_endings(3)
                .iter()
                .chain(&gametree_chess_tables::pawnless_endings(4))
                .map(ToString::to_string)
                .collect();
            let full: Vec<&str> = all.iter().map(String::as_str).collect();
            let mut t = Tally::default();
            match crate::chess_builds::scheduled_equals_in_turn(ctx.pick(quick, &full)) {
                Ok(rows) => {
                    for (ending, n) in rows {
                        let expected = match gametree_chess_tables::FastEndgame::new(&ending) {
                            Ok(space) => {
                                format!("equal on {} indices", gametree_game::IndexSpace::size(&space))
                            }
                            Err(e) => e.to_string(),
                        };
                        t.compare(&ending, None, expected, format!("equal on {n} indices"));
                    }
                }
                Err(e) => {
                    t.compare("build", None, "equal tables".to_string(), e.to_string());
                }
            }
            t
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Published,
        "tb stats = the Syzygy generator's statistics (all 24 3-4-man endings)",
        |_| syzygy_statistics(4),
    ));
    rows.push(Check::new(
        "chess",
        Family::Published,
        "tb stats = the Syzygy generator's statistics, endings with pawns (KPvK, KPPvK; full: all 11 3-4-man)",
        |ctx| syzygy_pawn_statistics(ctx.pick(&["KPvK", "KPPvK"][..], &[][..])),
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "retrograde with pawns: forward sweeps = backward method, index by index (KPvK; full: + KPvKP)",
        |ctx| pawn_forward_equals_backward(ctx.pick(&["KPvK"][..], &["KPvK", "KPvKP"][..])),
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "retrograde with pawns: indexed backward method (tb build) = backward method over positions, index by index (KPvK; full: all 11 3-4-man)",
        |ctx| {
            let all: Vec<String> = gametree_chess_tables::pawn_endings(3)
                .iter()
                .chain(&gametree_chess_tables::pawn_endings(4))
                .map(ToString::to_string)
                .collect();
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            pawn_indexed_equals_backward(ctx.pick(&["KPvK"][..], &all[..]))
        },
    ));
    rows.push(Check::new(
        "chess",
        Family::Solvers,
        "search with the tables as oracle = the tables: alpha-beta (tables 1 or 2 plies below the root, PV played to mate) and df-pn, 1,000 random positions per ending (3-4-man pawnless, KPvK; full: + all 4-man with pawns)",
        |ctx| {
            let mut endings: Vec<String> = gametree_chess_tables::pawnless_endings(3)
                .iter()
                .chain(&gametree_chess_tables::pawnless_endings(4))
                .map(ToString::to_string)
                .collect();
            let pawns = if ctx.quick { 1 } else { usize::MAX };
            endings.extend(
                gametree_chess_tables::pawn_endings(3)
                    .iter()
                    .chain(&gametree_chess_tables::pawn_endings(4))
                    .take(pawns)
                    .map(ToString::to_string),
            );
            let endings: Vec<&str> = endings.iter().map(String::as_str).collect();
            crate::chess_oracle::search_with_tables(&endings, 1000, ctx.game_seed)
        },
    ));
    rows.extend(searcher_rows(
        "chess",
        |ctx| {
            random_positions(
                &Position::startpos(),
                &mut rng(ctx.game_seed),
                ctx.pick(60, 1000),
                40,
            )
        },
        // depth 4 on the first 200 positions of the full set
        |ctx, i| 1..=if !ctx.quick && i < 200 { 4 } else { 3 },
        |s| s,
    ));
    rows
}

/// Builds every pawnless ending of at most `men` pieces and compares its
/// statistics in the Syzygy convention (win/draw/loss for each side to
/// move) with the corpus's `syzygy-3-4-men.toml`: one comparison per
/// ending.
fn syzygy_statistics(men: usize) -> Tally {
    use gametree_chess_tables::{BuildOptions, Tablebase, Wdl, pawnless_endings};
    let mut t = Tally::default();
    let published = match crate::data::syzygy_3_4_men() {
        Ok(p) => p,
        Err(e) => return Tally::corpus_error(&e),
    };
    let endings: Vec<_> = (3..=men).flat_map(pawnless_endings).collect();
    let mut tables = Tablebase::new();
    if let Err(e) = tables.build(&endings, &BuildOptions::default()) {
        t.compare("build", None, "the tables".to_string(), e.to_string());
        return t;
    }
    for ending in &endings {
        let name = ending.to_string();
        let Some(row) = published.iter().find(|r| r.ending == name) else {
            t.compare(
                &name,
                None,
                "a published row".to_string(),
                "none".to_string(),
            );
            continue;
        };
        let expected = show(
            Wdl {
                wins: row.wtm.wins,
                draws: row.wtm.draws,
                losses: row.wtm.losses,
            },
            Wdl {
                wins: row.btm.wins,
                draws: row.btm.draws,
                losses: row.btm.losses,
            },
        );
        let got = tables
            .statistics(ending)
            .map_or_else(|| "no table".to_string(), |s| show(s.white, s.black));
        t.compare(&name, None, expected, got);
    }
    t
}

/// Win/draw/loss counts of both sides to move, as the rows print them.
fn show(w: gametree_chess_tables::Wdl, b: gametree_chess_tables::Wdl) -> String {
    format!(
        "wtm {}/{}/{} btm {}/{}/{}",
        w.wins, w.draws, w.losses, b.wins, b.draws, b.losses
    )
}

/// Builds the endings with pawns `endings` (every published one when
/// empty) with what they need and compares their statistics with the
/// corpus's `syzygy-3-4-men-pawns.toml`: one comparison per ending.
fn syzygy_pawn_statistics(endings: &[&str]) -> Tally {
    use gametree_chess_tables::{BuildOptions, Signature, Tablebase, Wdl};
    let mut t = Tally::default();
    let published = match crate::data::syzygy_3_4_men_pawns() {
        Ok(p) => p,
        Err(e) => return Tally::corpus_error(&e),
    };
    let rows: Vec<_> = published
        .iter()
        .filter(|r| endings.is_empty() || endings.contains(&r.ending.as_str()))
        .collect();
    let sigs: Vec<Signature> = match rows.iter().map(|r| r.ending.parse()).collect() {
        Ok(s) => s,
        Err(e) => {
            t.compare("corpus", None, "endings".to_string(), format!("{e}"));
            return t;
        }
    };
    let mut tables = Tablebase::new();
    if let Err(e) = tables.build(&sigs, &BuildOptions::default()) {
        t.compare("build", None, "the tables".to_string(), e.to_string());
        return t;
    }
    let wdl = |w: crate::data::WinDrawLoss| Wdl {
        wins: w.wins,
        draws: w.draws,
        losses: w.losses,
    };
    for (row, sig) in rows.iter().zip(&sigs) {
        let expected = show(wdl(row.wtm), wdl(row.btm));
        let got = tables
            .statistics(sig)
            .map_or_else(|| "no table".to_string(), |s| show(s.white, s.black));
        t.compare(&row.ending, None, expected, got);
    }
    t
}

/// Builds each ending with pawns by the backward method (`Tablebase::build`)
/// and by forward sweeps over the same sub-tables, and compares the two
/// tables index by index: one comparison per ending.
fn pawn_forward_equals_backward(endings: &[&str]) -> Tally {
    use gametree_chess_tables::{BuildOptions, PawnEndgame, Signature, Tablebase, label};
    use gametree_game::IndexSpace;
    let mut t = Tally::default();
    for &ending in endings {
        let (sig, space) = match (ending.parse::<Signature>(), PawnEndgame::new(ending)) {
            (Ok(sig), Ok(space)) => (sig, space),
            (_, Err(e)) | (Err(e), _) => {
                t.compare(ending, None, "an ending".to_string(), e.to_string());
                continue;
            }
        };
        let expected = format!("equal on {} indices", space.size());
        let mut tables = Tablebase::new();
        let got = match tables.build(std::slice::from_ref(&sig), &BuildOptions::default()) {
            Err(e) => e.to_string(),
            Ok(_) => {
                let built = tables.table(&sig).cloned();
                let forward = gametree_retrograde::Generator::new(&space)
                    .resolver(&tables)
                    .label(label(&sig))
                    .forward();
                match (built, forward) {
                    (Some(built), Ok(forward)) => {
                        match gametree_retrograde::compare(&built, &forward) {
                            Ok(n) => format!("equal on {n} indices"),
                            Err(e) => format!("{e:?}"),
                        }
                    }
                    (None, _) => "no table".to_string(),
                    (_, Err(e)) => e.to_string(),
                }
            }
        };
        t.compare(ending, None, expected, got);
    }
    t
}

/// Builds each ending with pawns by the indexed backward method
/// (`Tablebase::build`, with its sub-endings) and by the backward method over
/// positions on the same sub-tables, and compares the two tables index by
/// index: one comparison per ending.
fn pawn_indexed_equals_backward(endings: &[&str]) -> Tally {
    use gametree_chess_tables::{BuildOptions, PawnEndgame, Signature, Tablebase, label};
    use gametree_game::IndexSpace;
    use gametree_retrograde::{Generator, Method};
    let mut t = Tally::default();
    let mut tables = Tablebase::new();
    for &ending in endings {
        let (sig, space) = match (ending.parse::<Signature>(), PawnEndgame::new(ending)) {
            (Ok(sig), Ok(space)) => (sig, space),
            (_, Err(e)) | (Err(e), _) => {
                t.compare(ending, None, "an ending".to_string(), e.to_string());
                continue;
            }
        };
        let expected = format!("equal on {} indices", space.size());
        let got = match tables.build(std::slice::from_ref(&sig), &BuildOptions::default()) {
            Err(e) => e.to_string(),
            Ok(_) => {
                let built = tables.table(&sig).cloned();
                let slow = Generator::new(&space)
                    .resolver(&tables)
                    .label(label(&sig))
                    .build(Method::Backward);
                match (built, slow) {
                    (Some(built), Ok(slow)) => match gametree_retrograde::compare(&built, &slow) {
                        Ok(n) => format!("equal on {n} indices"),
                        Err(e) => format!("{e:?}"),
                    },
                    (None, _) => "no table".to_string(),
                    (_, Err(e)) => e.to_string(),
                }
            }
        };
        t.compare(ending, None, expected, got);
    }
    t
}

/// Rows of the published perft table of at most this many nodes are also
/// counted with the generic [`gametree_game::perft`] (make/unmake through
/// the `Game` trait), beside the bulk-counting [`Position::perft`].
const GENERIC_BUDGET: u64 = 10_000_000;

/// Every row of the Chess Programming Wiki's perft table (the corpus's
/// `chess-perft.toml`) whose published count is at most `budget` nodes,
/// counted by [`Position::perft`] and, up to [`GENERIC_BUDGET`], by the
/// generic perft too: one comparison per row, with the count that differs
/// when one does.
fn perft_table(budget: u64) -> Tally {
    let mut t = Tally::default();
    let table = match crate::data::chess_perft() {
        Ok(table) => table,
        Err(e) => return Tally::corpus_error(&e),
    };
    for row in table {
        let mut pos: Position = match row.fen.parse() {
            Ok(p) => p,
            Err(e) => {
                t.compare(&row.id, None, "a position".to_string(), e.to_string());
                continue;
            }
        };
        for &(depth, expected) in &row.counts {
            if expected > budget {
                continue;
            }
            let counted = pos.perft(depth);
            let generic =
                (expected <= GENERIC_BUDGET).then(|| gametree_game::perft(&mut pos, depth));
            // the count that differs, if one does
            let got = generic.filter(|&g| g != expected).unwrap_or(counted);
            t.compare(&row.id, Some(depth), expected, got);
        }
    }
    t
}

/// Legal positions of a pawnless ending drawn uniformly at random from its
/// index space (indices that name no legal position are drawn again).
pub(crate) struct Sampler {
    space: gametree_chess_tables::Endgame,
    size: u64,
}

impl Sampler {
    /// The ending named `material`, or `None` after recording the error.
    pub(crate) fn new(material: &str, t: &mut Tally) -> Option<Sampler> {
        match gametree_chess_tables::Endgame::new(material) {
            Ok(space) => Some(Sampler {
                size: gametree_game::IndexSpace::size(&space),
                space,
            }),
            Err(e) => {
                t.compare(material, None, "an index".to_string(), e.to_string());
                None
            }
        }
    }

    /// The next legal position and its index.
    pub(crate) fn next(&mut self, r: &mut impl rand_core::Rng) -> (u64, Position) {
        loop {
            let i = rand_core::Rng::next_u64(r) % self.size;
            if let Some(p) = gametree_game::IndexSpace::position(&self.space, i) {
                return (i, p);
            }
        }
    }
}

/// Solves `samples` positions of a pawnless `material` drawn at random from
/// its retrograde table with the alpha-beta solver (transposition table on,
/// normal probe policy, chess's repetition draws in play) and compares the
/// value, distance to mate included, with the table's: the solve's score,
/// or, for a draw its iterations never prove (the lone king takes the
/// piece, every other move refuted at the horizon rather than by a mate),
/// the value of its last iteration, as the row has always compared; the
/// row's note counts those.
fn dtm_equals_solver(material: &str, samples: usize, seed: u64, t: &mut Tally) {
    let Some(mut sampler) = Sampler::new(material, t) else {
        return;
    };
    let table = match gametree_retrograde::Generator::new(&sampler.space).backward() {
        Ok(table) => table,
        Err(e) => {
            t.compare(material, None, "a table".to_string(), e.to_string());
            return;
        }
    };
    let mut solver =
        AlphaBeta::<Position>::new(Config::default().memory(16 << 20)).expect("16 MiB table");
    let mut r = rng(seed);
    let mut done = 0;
    let mut unproven = 0;
    while done < samples {
        let (i, mut p) = sampler.next(&mut r);
        let Some(value) = table.get(i) else {
            continue;
        };
        done += 1;
        solver.clear();
        // The value of the last finished iteration (the score, once proven).
        let mut last = None;
        let mut sink = |e: &Event<'_, _>| {
            if let Event::Iteration { value, .. } = *e {
                last = Some(value);
            }
        };
        let none = Limits::none();
        let mut request = Request::new(&none).find(Find::Score).events(&mut sink);
        let solved = solver.solve(&mut p, &mut request);
        if solved.score.is_none() && solved.stopped.is_none() {
            unproven += 1;
        }
        t.compare(
            &p,
            None,
            value.to_score().to_string(),
            score_text(solved.score.or(last)),
        );
    }
    if unproven > 0 {
        let note = format!(
            "{material}: {unproven} unproven solves compared by their last iteration's value"
        );
        t.note = Some(match t.note.take() {
            Some(before) => format!("{before}; {note}"),
            None => note,
        });
    }
}

/// A game cut after `left` more plies: a position reached with no plies
/// left is a draw (unless the game ended there), so "can the side to move
/// win?" becomes "can it mate within `left` plies?". The plies left are in
/// the hash, so a table never mixes two horizons, and no position repeats.
#[derive(Clone, Debug)]
struct Horizon<G> {
    game: G,
    left: u32,
}

impl<G: gametree_game::Game> gametree_game::Game for Horizon<G> {
    type Move = G::Move;
    type Undo = G::Undo;
    type Moves = G::Moves;
    fn side_to_move(&self) -> gametree_game::Player {
        self.game.side_to_move()
    }
    fn generate(&self, out: &mut Self::Moves) {
        if self.left == 0 {
            gametree_game::MoveBuffer::clear(out);
        } else {
            self.game.generate(out);
        }
    }
    fn make(&mut self, m: G::Move) -> G::Undo {
        self.left -= 1;
        self.game.make(m)
    }
    fn unmake(&mut self, m: G::Move, undo: G::Undo) {
        self.game.unmake(m, undo);
        self.left += 1;
    }
    fn outcome(&self) -> Option<gametree_game::Outcome> {
        self.game
            .outcome()
            .or((self.left == 0).then_some(gametree_game::Outcome::Draw))
    }
    fn hash(&self) -> u64 {
        self.game.hash() ^ u64::from(self.left).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn outcome_depends_on_history(&self) -> bool {
        self.game.outcome_depends_on_history()
    }
}

/// df-pn on positions drawn at random from a pawnless ending's retrograde
/// table (draws, and wins and losses within `reach` plies): the win/draw/loss that df-pn proves on chess itself (a cyclic
/// game: repetitions, the graph-history rule) equals the table's, and with
/// a horizon df-pn proves the mate within exactly the table's distance,
/// with a proof tree that verifies, and disproves it two plies shorter (a
/// loss likewise: mated within the distance, not within two plies less).
fn dfpn_equals_dtm(material: &str, samples: usize, reach: u32, seed: u64, t: &mut Tally) {
    use gametree_game::{Outcome, Request, Solver};
    use gametree_pns_conspiracy::{Answer, DfPn, DfPnConfig, Question, verify};
    // Positions of the horizon game never repeat (the plies left are in its
    // state), so its proof trees share transpositions and stay small; on
    // chess itself a proof tree is a tree of lines, exponential in the
    // distance to mate.
    use gametree_retrograde::Value;
    // The ending and its sub-endings (captures), by the chess-tables build.
    let Some(mut sampler) = Sampler::new(material, t) else {
        return;
    };
    let signature = match material.parse::<gametree_chess_tables::Signature>() {
        Ok(signature) => signature,
        Err(e) => {
            t.compare(material, None, "an ending".to_string(), e.to_string());
            return;
        }
    };
    let mut tables = gametree_chess_tables::Tablebase::new();
    if let Err(e) = tables.build(
        &[signature],
        &gametree_chess_tables::BuildOptions::default(),
    ) {
        t.compare(material, None, "the tables".to_string(), e.to_string());
        return;
    }
    let limits = Limits::none().with_nodes(2_000_000);
    let mut dfpn = DfPn::new(DfPnConfig::new()).expect("the default table");
    let mut r = rng(seed);
    let mut done = 0;
    while done < samples {
        let (_, mut p) = sampler.next(&mut r);
        let Some(value) = tables.probe(&p).ok().flatten() else {
            continue;
        };
        if gametree_game::Game::outcome(&p).is_some() {
            continue;
        }
        // In scope: draws, and wins and losses within `reach` plies.
        let (question, plies) = match value {
            Value::Win(d) => (Question::Win, u32::from(d)),
            Value::Loss(d) => (Question::AtLeastDraw, u32::from(d)),
            Value::Draw => (Question::Win, 0),
        };
        if plies > reach {
            continue;
        }
        done += 1;
        Solver::<Position>::clear(&mut dfpn);
        let solved = dfpn.solve(&mut p, &mut Request::new(&limits));
        let expected = value.to_score().outcome();
        let shown = |o: Option<Outcome>| o.map_or("unknown".to_string(), |o| o.to_string());
        if !t.compare(&p, None, shown(expected), shown(solved.outcome)) {
            continue;
        }
        if value == Value::Draw {
            continue;
        }
        // Within the distance: the mate (or being mated) is proven; two
        // plies shorter it is not.
        let answer = |left: u32, dfpn: &mut DfPn| {
            Solver::<Horizon<Position>>::clear(dfpn);
            let mut h = Horizon {
                game: p.clone(),
                left,
            };
            let (report, proof) = dfpn.prove(&mut h, question, &mut Request::new(&limits));
            let verified = match proof.map(|s| verify(&mut h, &s)) {
                Some(Ok(_)) => "",
                Some(Err(_)) => " (proof refused)",
                None => " (no proof)",
            };
            let answer = match report.answer {
                Answer::Proven => "proven",
                Answer::Disproven => "disproven",
                Answer::Unknown(_) => "unknown",
            };
            format!("{answer}{verified}")
        };
        // "Win" is proven within `plies` when the mate is there; "at least
        // a draw" is disproven within `plies` when the side is mated there.
        let (inside, outside) = if question == Question::Win {
            ("proven", "disproven")
        } else {
            ("disproven", "proven")
        };
        t.compare(
            &p,
            Some(plies),
            inside.to_string(),
            answer(plies, &mut dfpn),
        );
        if plies >= 2 {
            t.compare(
                &p,
                Some(plies - 2),
                outside.to_string(),
                answer(plies - 2, &mut dfpn),
            );
        }
    }
}
