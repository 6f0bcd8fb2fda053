//! Ataxx rows: the published perft table, every alpha-beta variant equals
//! negamax on random positions, the oracles.

use gametree_game::perft;
use gametree_games_ataxx::Position;

use super::common::{oracle_playouts, random_positions, rng, searcher_rows};
use super::{Check, Family, Tally};

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "ataxx",
            Family::Published,
            "perft table (libataxx), quick: rows <= 5M nodes",
            |ctx| {
                let limit = ctx.pick(5_000_000, u64::MAX);
                let mut t = Tally::default();
                let table = match crate::data::ataxx_perft() {
                    Ok(table) => table,
                    Err(e) => return Tally::corpus_error(&e),
                };
                for row in table {
                    let fen = row.fen.as_str();
                    let p: Position = match fen.parse() {
                        Ok(p) => p,
                        Err(e) => {
                            t.compare(fen, None, "a position".to_string(), e.to_string());
                            continue;
                        }
                    };
                    for &(d, expected) in &row.counts {
                        if expected > limit {
                            break;
                        }
                        t.compare(fen, Some(d), expected, gametree_games_ataxx::perft(&p, d));
                    }
                }
                t
            },
        ),
        Check::new(
            "ataxx",
            Family::Published,
            "start position perft(6) = 141,865,520",
            |_| {
                let mut t = Tally::default();
                let start = Position::startpos().to_string();
                let published = crate::data::ataxx_perft()
                    .map_err(|e| e.to_string())
                    .and_then(|table| {
                        table
                            .iter()
                            .find(|row| row.fen == start)
                            .and_then(|row| row.nodes(6))
                            .ok_or_else(|| format!("no published perft(6) of {start}"))
                    });
                let counted = gametree_games_ataxx::perft(&Position::startpos(), 6);
                match published {
                    Ok(expected) => t.compare("startpos", Some(6), expected, counted),
                    Err(e) => t.compare("startpos", Some(6), e, counted.to_string()),
                };
                t
            },
        ),
        Check::new(
            "ataxx",
            Family::Published,
            "generic gametree_game::perft = bulk perft (random positions)",
            |ctx| {
                let mut t = Tally::default();
                let ps = random_positions(
                    &Position::startpos(),
                    &mut rng(ctx.seed),
                    ctx.pick(10, 50),
                    40,
                );
                for p in &ps {
                    let d = 3;
                    t.compare(
                        p,
                        Some(d),
                        gametree_games_ataxx::perft(p, d),
                        perft(&mut p.clone(), d),
                    );
                }
                t
            },
        ),
        Check::new(
            "ataxx",
            Family::Oracles,
            "make/unmake, hash, legality on playouts",
            |ctx| {
                let start = Position::startpos();
                let blocked: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".parse().expect("FEN");
                let mut t = oracle_playouts(&start, ctx.seed, ctx.pick(20, 200), 200);
                let r = oracle_playouts(&blocked, ctx.seed + 1, ctx.pick(20, 200), 200);
                t.positions += r.positions;
                t.agreements += r.agreements;
                t.mismatches.extend(r.mismatches);
                t
            },
        ),
    ];
    rows.extend(searcher_rows(
        "ataxx",
        |ctx| {
            random_positions(
                &Position::startpos(),
                &mut rng(ctx.game_seed),
                ctx.pick(100, 1000),
                30,
            )
        },
        // depth 4 on the first 150 positions with --deep
        |ctx, i| 1..=if ctx.deep && i < 150 { 4 } else { 3 },
        |s| s,
    ));
    rows
}
