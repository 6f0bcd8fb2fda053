//! Chess rows: the Chess Programming Wiki perft table, every alpha-beta
//! variant equals negamax, the oracles. (Quiescence against its full-width
//! reference is checked on tic-tac-toe: on chess the reference did not
//! finish in minutes, see the README.)

use games_chess::Position;

use super::common::{oracle_playouts, random_positions, rng, searcher_rows};
use super::{Check, Family, Tally};

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "chess",
            Family::Published,
            "CPW perft table (quick: rows <= 5M nodes; full: <= 1G)",
            |ctx| {
                let budget = ctx.pick(5_000_000, 1_000_000_000);
                let mut t = Tally::default();
                match games_chess::suite::verify_file(&games_chess::suite::data_path(), budget) {
                    Ok(results) => {
                        for r in results {
                            let got = if r.ok() {
                                r.expected
                            } else {
                                // the count that differs
                                r.generic.filter(|&g| g != r.expected).unwrap_or(r.counted)
                            };
                            t.compare(&r.id, Some(r.depth), r.expected, got);
                        }
                    }
                    Err(e) => {
                        t.compare(
                            "chess-perft.toml",
                            None,
                            "a readable file".to_string(),
                            e.to_string(),
                        );
                    }
                }
                t
            },
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
    rows.extend(searcher_rows(
        "chess",
        |ctx| {
            random_positions(
                &Position::startpos(),
                &mut rng(ctx.seed),
                ctx.pick(8, 100),
                40,
            )
        },
        |ctx| (1..=ctx.pick(3, 4)).collect(),
        |s| s.with_tactics(),
    ));
    rows
}
