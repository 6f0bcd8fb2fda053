//! Dots-and-Boxes rows: a player who completes a box moves again, so these
//! rows check that every searcher decides a value's sign by the side to
//! move. The reference is the crate's brute force (dynamic programming over
//! the sets of drawn lines, `gametree_games_dots::check`), independent of every
//! searcher; the published values are Berlekamp's 2x2 first-player win and
//! David Wilson's 3x3 second-player win by 3.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Limits, Outcome, Solver};
use gametree_games_dots::{Dots, Size, check as reference, exact_score};
use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, ProofConfig};

use super::common::{oracle_playouts, random_positions, reachable, rng, searcher_rows};
use super::{Check, Family, Tally};

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).expect("a valid size")
}

fn outcome_of(score: i32) -> Outcome {
    match score.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// Positions of `size` with `drawn` lines drawn at random, not over.
fn random_dots(size: Size, count: usize, drawn: std::ops::Range<u32>, seed: u64) -> Vec<Dots> {
    let mut r = rng(seed);
    random_positions(&Dots::new(size), &mut r, count * 4, drawn.end)
        .into_iter()
        .filter(|p| {
            let d = size.lines() as u32 - p.lines_left();
            drawn.contains(&d)
        })
        .take(count)
        .collect()
}

/// Every solver's value of each position against the brute force: the
/// exact box difference by alpha-beta (through targets), the win/draw/loss
/// of the target-0 game by the others.
fn agree(
    positions: &[Dots],
    future: &[i8],
    others: &mut [(&'static str, Box<dyn Solver<Dots>>)],
) -> Tally {
    let mut t = Tally::default();
    let mut ab = AlphaBeta::<Dots>::new(Config::default()).expect("default table");
    let limits = Limits::none().with_nodes(50_000_000);
    for p in positions {
        let expected = reference::exact_score(p, future);
        let got = exact_score(&mut ab, p, &limits).map_or("stopped".into(), |v| v.to_string());
        if !t.compare(p, None, expected.to_string(), got) {
            continue;
        }
        for (name, s) in others.iter_mut() {
            let got = s
                .solve(&mut p.clone(), &mut gametree_game::Request::new(&limits))
                .outcome
                .map_or("stopped".to_string(), |o| o.to_string());
            t.compare(
                p,
                None,
                format!("{} ({name})", outcome_of(expected)),
                format!("{got} ({name})"),
            );
        }
    }
    t
}

fn proof_solvers() -> Vec<(&'static str, Box<dyn Solver<Dots>>)> {
    vec![
        ("pns", Box::new(Pns::default())),
        ("pn2", Box::new(Pns::pn2())),
        (
            "df-pn",
            Box::new(
                DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 20)))
                    .expect("1 MiB table"),
            ),
        ),
        (
            "cns",
            Box::new(Conspiracy::new(ConspiracyConfig::new()).expect("outcomes")),
        ),
    ]
}

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "dots",
            Family::Published,
            "1x1 -1, 2x2 +2 (Berlekamp), 3x3 -3 (Wilson): brute force and alpha-beta",
            |ctx| {
                let mut t = Tally::default();
                let boards = match crate::data::dots() {
                    Ok(boards) => boards,
                    Err(e) => return Tally::corpus_error(&e),
                };
                let mut ab = AlphaBeta::<Dots>::new(Config::default().memory(64 << 20))
                    .expect("64 MiB table");
                for v in boards {
                    let (w, h, published) = (v.width, v.height, v.score);
                    let Ok(s) = Size::new(w, h) else {
                        t.compare(
                            format!("{w}x{h}"),
                            None,
                            "a size".to_string(),
                            "none".into(),
                        );
                        continue;
                    };
                    let Some(future) = reference::future_values(s) else {
                        t.compare(s, None, "a brute force".to_string(), "too large".into());
                        continue;
                    };
                    let empty = Dots::new(s);
                    let name = format!("{s} brute force");
                    t.compare(
                        name,
                        None,
                        published,
                        reference::exact_score(&empty, &future),
                    );
                    if w * h < 9 || !ctx.quick {
                        let got = exact_score(&mut ab, &empty, &Limits::none());
                        let got = got.map_or("stopped".into(), |v| v.to_string());
                        t.compare(format!("{s} alpha-beta"), None, published.to_string(), got);
                    }
                }
                t
            },
        ),
        Check::new(
            "dots",
            Family::Published,
            "every board up to 3x3 boxes: alpha-beta = brute force, WxH = HxW",
            |_| {
                let mut t = Tally::default();
                let mut ab = AlphaBeta::<Dots>::new(Config::default()).expect("default table");
                for (w, h) in [(1, 2), (1, 3), (2, 3), (2, 1), (3, 1), (3, 2)] {
                    let s = size(w, h);
                    let future = reference::future_values(s).expect("small board");
                    let empty = Dots::new(s);
                    let expected = reference::exact_score(&empty, &future);
                    let got = exact_score(&mut ab, &empty, &Limits::none());
                    let got = got.map_or("stopped".into(), |v| v.to_string());
                    t.compare(s, None, expected.to_string(), got);
                    let transposed = reference::future_values(size(h, w)).expect("small board");
                    t.compare(
                        format!("{s} transposed"),
                        None,
                        expected,
                        reference::exact_score(&Dots::new(size(h, w)), &transposed),
                    );
                }
                t
            },
        ),
        Check::new(
            "dots",
            Family::Solvers,
            "every 2x2 position: alpha-beta exact, PNS, PN2, df-pn, CNS = brute force",
            |ctx| {
                let s = size(2, 2);
                let future = reference::future_values(s).expect("small board");
                let (all, _) = reachable(&Dots::new(s));
                let positions: Vec<Dots> = all.into_iter().step_by(ctx.pick(7, 1)).collect();
                agree(&positions, &future, &mut proof_solvers())
            },
        ),
        Check::new(
            "dots",
            Family::Solvers,
            "random 3x3 positions (12-20 lines drawn): alpha-beta exact, PNS, PN2, df-pn, CNS = brute force",
            |ctx| {
                let s = size(3, 3);
                let future = reference::future_values(s).expect("3x3 fits");
                let positions = random_dots(s, ctx.pick(100, 1000), 12..21, ctx.seed);
                agree(&positions, &future, &mut proof_solvers())
            },
        ),
        Check::new(
            "dots",
            Family::Oracles,
            "make/unmake, hash, legality on playouts (2x2, 3x3, 5x5, 1x21)",
            |ctx| {
                let mut t = Tally::default();
                for (i, (w, h)) in [(2, 2), (3, 3), (5, 5), (1, 21)].into_iter().enumerate() {
                    let r = oracle_playouts(
                        &Dots::new(size(w, h)),
                        ctx.seed + i as u64,
                        ctx.pick(50, 500),
                        64,
                    );
                    t.positions += r.positions;
                    t.agreements += r.agreements;
                    t.mismatches.extend(r.mismatches);
                }
                t
            },
        ),
    ];
    rows.extend(searcher_rows(
        "dots",
        |ctx| {
            // At most 8 lines left, so that negamax reaches the end at the
            // deepest depths; 2x2 and 3x3 boards.
            let mut ps = random_dots(size(2, 2), ctx.pick(40, 300), 4..12, ctx.game_seed);
            ps.extend(random_dots(
                size(3, 3),
                ctx.pick(40, 300),
                16..24,
                ctx.game_seed + 1,
            ));
            ps
        },
        // Every depth to the end (8 lines at most).
        |ctx, _| 1..=ctx.pick(6, 8),
        |s| s,
    ));
    rows
}
