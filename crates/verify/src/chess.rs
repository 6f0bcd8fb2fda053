//! Chess rows: the Chess Programming Wiki perft table, every alpha-beta
//! variant equals negamax, quiescence equals its full-width reference on
//! 4-5-man positions (from the starting position the reference does not
//! finish in minutes), the solver's distances to mate equal retrograde
//! databases', the oracles.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::Limits;
use gametree_games_chess::Position;

use super::common::{oracle_playouts, random_positions, rng, searcher_rows};
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
        Family::Equivalence,
        "quiescence = negamax_quiescence (4-5-man positions)",
        |ctx| {
            let mut t = Tally::default();
            let mut r = rng(ctx.seed);
            let mut positions = Vec::new();
            for material in ["KQvKR", "KRvKN", "KQvKQ", "KRNvKB", "KQBvKR"] {
                let Ok(space) = gametree_chess_tables::Endgame::new(material) else {
                    t.compare(material, None, "an index".to_string(), "none".to_string());
                    continue;
                };
                let n = gametree_game::IndexSpace::size(&space);
                let mut found = 0;
                while found < ctx.pick(6, 60) {
                    let i = rand_core::Rng::next_u64(&mut r) % n;
                    if let Some(p) = gametree_game::IndexSpace::position(&space, i) {
                        positions.push(p);
                        found += 1;
                    }
                }
            }
            let configs = [
                Config::plain().quiescence(true),
                Config::default()
                    .tt(
                        gametree_alphabeta::TtUse::Cutoffs,
                        gametree_ttable::ProbePolicy::ExactDepth,
                    )
                    .quiescence(true)
                    .tactical_ordering(true),
                Config::default()
                    .algorithm(gametree_alphabeta::Algorithm::Mtdf)
                    .tt(
                        gametree_alphabeta::TtUse::Cutoffs,
                        gametree_ttable::ProbePolicy::ExactDepth,
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
                        let got = s.search(&mut p.clone(), &Limits::depth(depth)).value;
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
    use gametree_chess_tables::{BuildOptions, Tables, Wdl, pawnless_endings};
    let mut t = Tally::default();
    let published = match crate::data::syzygy_3_4_men() {
        Ok(p) => p,
        Err(e) => return Tally::corpus_error(&e),
    };
    let endings: Vec<_> = (3..=men).flat_map(pawnless_endings).collect();
    let mut tables = Tables::new();
    if let Err(e) = tables.build(&endings, &BuildOptions::default()) {
        t.compare("build", None, "the tables".to_string(), e.to_string());
        return t;
    }
    let show = |w: Wdl, b: Wdl| {
        format!(
            "wtm {}/{}/{} btm {}/{}/{}",
            w.wins, w.draws, w.losses, b.wins, b.draws, b.losses
        )
    };
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

/// Solves `samples` positions of a pawnless `material` drawn at random from
/// its retrograde table with the alpha-beta solver (transposition table on,
/// normal probe policy, chess's repetition draws in play) and compares the
/// value, distance to mate included, with the table's.
fn dtm_equals_solver(material: &str, samples: usize, seed: u64, t: &mut Tally) {
    let space = match gametree_chess_tables::Endgame::new(material) {
        Ok(space) => space,
        Err(e) => {
            t.compare(material, None, "an index".to_string(), e.to_string());
            return;
        }
    };
    let table = match gametree_retrograde::Generator::new(&space).backward() {
        Ok(table) => table,
        Err(e) => {
            t.compare(material, None, "a table".to_string(), e.to_string());
            return;
        }
    };
    let mut solver =
        AlphaBeta::<Position>::new(Config::default().tt_bytes(16 << 20)).expect("16 MiB table");
    let mut r = rng(seed);
    let n = gametree_game::IndexSpace::size(&space);
    let mut done = 0;
    while done < samples {
        let i = rand_core::Rng::next_u64(&mut r) % n;
        let (Some(value), Some(mut p)) =
            (table.get(i), gametree_game::IndexSpace::position(&space, i))
        else {
            continue;
        };
        done += 1;
        solver.clear();
        let report = solver.solve(&mut p, &Limits::none());
        t.compare(
            &p,
            None,
            value.to_score().to_string(),
            report.value.to_string(),
        );
    }
}
