//! m,n,k rows: 3,3,3 is tic-tac-toe, the known solved values, every
//! alpha-beta variant equals negamax on random positions, the oracles.

use gametree_alphabeta::{AlphaBeta, Config, alpha_beta_solve};
use gametree_game::{Find, Limits, Outcome, Solver, Use, perft};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::ProofConfig;

use super::common::{
    forcing_playouts, oracle_playouts, random_positions, reachable, rng, score_text, searcher_rows,
    solve_for, solvers_agree,
};
use super::{Check, Ctx, Family, Tally};

fn fmt_outcome(o: Option<Outcome>) -> String {
    o.map_or_else(|| "unknown".to_string(), |o| o.to_string())
}

fn mnk(m: u8, n: u8, k: u8) -> Mnk {
    Mnk::new(m, n, k).expect("valid size")
}

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "mnk",
            Family::Published,
            "3,3,3 = tic-tac-toe: positions per ply, perft 0..9",
            |_| {
                let mut t = Tally::default();
                let (_, a) = reachable(&mnk(3, 3, 3));
                let (_, b) = reachable(&TicTacToe::new());
                t.compare(
                    "reachable per ply",
                    None,
                    format!("{b:?}"),
                    format!("{a:?}"),
                );
                for d in 0..=9 {
                    t.compare(
                        "perft",
                        Some(d),
                        perft(&mut TicTacToe::new(), d),
                        perft(&mut mnk(3, 3, 3), d),
                    );
                }
                t
            },
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "3,3,3 every position: AlphaBeta = alpha-beta solve",
            |_| {
                let (all, _) = reachable(&mnk(3, 3, 3));
                let mut s =
                    AlphaBeta::<Mnk>::new(Config::default().memory(4 << 20)).expect("table");
                solvers_agree(
                    &all,
                    |g| alpha_beta_solve(g).value.to_string(),
                    |g| score_text(solve_for(&mut s, g, &Limits::none(), Find::Score).score),
                )
            },
        ),
        Check::new(
            "mnk",
            Family::Published,
            "the corpus's values (3,3,3 to 6,6,5; solve + weak)",
            |_| {
                let mut t = Tally::default();
                let games = match crate::data::mnk() {
                    Ok(games) => games,
                    Err(e) => return Tally::corpus_error(&e),
                };
                for v in games {
                    let expected = v.value;
                    let Ok(g) = Mnk::new(v.m, v.n, v.k) else {
                        let name = format!("{},{},{}", v.m, v.n, v.k);
                        t.compare(name, None, "a size".to_string(), "none".into());
                        continue;
                    };
                    let mut s =
                        AlphaBeta::<Mnk>::new(Config::default().memory(16 << 20)).expect("table");
                    let strong = solve_for(&mut s, &mut g.clone(), &Limits::none(), Find::Score);
                    t.compare(&g, None, format!("{expected}"), fmt_outcome(strong.outcome));
                    let weak = solve_for(&mut s, &mut g.clone(), &Limits::none(), Find::Outcome);
                    t.compare(&g, None, format!("{expected}"), fmt_outcome(weak.outcome));
                }
                t
            },
        ),
        Check::new(
            "mnk",
            Family::Oracles,
            "make/unmake, hash, legality: 3,3,3 7,7,4 15,15,5 19,19,5",
            |ctx| {
                let mut t = Tally::default();
                for (i, g) in [mnk(3, 3, 3), mnk(7, 7, 4), mnk(15, 15, 5), mnk(19, 19, 5)]
                    .iter()
                    .enumerate()
                {
                    let r = oracle_playouts(g, ctx.seed + i as u64, ctx.pick(50, 500), 60);
                    t.positions += r.positions;
                    t.agreements += r.agreements;
                    t.mismatches.extend(r.mismatches);
                }
                t
            },
        ),
        Check::new(
            "mnk",
            Family::Oracles,
            "Forcing = 2-ply brute force on playouts",
            |ctx| {
                let mut t = forcing_playouts(&mnk(5, 5, 4), ctx.seed, ctx.pick(50, 500), 25);
                let r = forcing_playouts(&mnk(9, 9, 5), ctx.seed + 1, ctx.pick(10, 100), 40);
                t.positions += r.positions;
                t.agreements += r.agreements;
                t.mismatches.extend(r.mismatches);
                t
            },
        ),
    ];
    rows.extend(win_bound_rows());
    rows.extend(threat_rows());
    rows.extend(searcher_rows(
        "mnk 5,5,4",
        |ctx| {
            random_positions(
                &mnk(5, 5, 4),
                &mut rng(ctx.game_seed),
                ctx.pick(100, 1000),
                12,
            )
        },
        |ctx, _| 1..=ctx.pick3(3, 3, 4),
        |s| s,
    ));
    rows
}

/// Random positions of `m,n,k` with at least `min` and at most `max`
/// stones, not over.
fn positions_between(m: u8, n: u8, k: u8, seed: u64, count: usize, min: u32, max: u32) -> Vec<Mnk> {
    random_positions(&mnk(m, n, k), &mut rng(seed), count * 4, max)
        .into_iter()
        .filter(|g| g.stones_played() >= min)
        .take(count)
        .collect()
}

/// The win bounds (`Game::cannot_win`, the Erdős–Selfridge potential):
/// sound against exhaustive search, and no solver's value changes with
/// them.
fn win_bound_rows() -> Vec<Check> {
    use gametree_game::{Request, Solver};
    use gametree_pns_conspiracy::{DfPn, DfPnConfig, Pns, PnsConfig};
    vec![
        Check::new(
            "mnk",
            Family::Oracles,
            "Win bounds = exhaustive search (3,3,3 to 5,5,5, 5-9 squares left)",
            |ctx| {
                let mut t = Tally::default();
                let sizes = [
                    (3, 3, 3),
                    (4, 4, 3),
                    (4, 4, 4),
                    (5, 4, 4),
                    (5, 5, 4),
                    (6, 4, 4),
                    (5, 5, 5),
                ];
                for (i, &(m, n, k)) in sizes.iter().enumerate() {
                    let cells = u32::from(m) * u32::from(n);
                    let ps = positions_between(
                        m,
                        n,
                        k,
                        ctx.seed + i as u64,
                        ctx.pick(20, 200),
                        cells - 9,
                        cells - 5,
                    );
                    for g in ps {
                        let got = gametree_game::check::win_bounds(&g)
                            .map_or_else(|e| e.to_string(), |()| "sound".into());
                        t.compare(&g, None, "sound".to_string(), got);
                    }
                }
                t
            },
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "win bounds on = off: AlphaBeta solve and weak, df-pn, PN2 (5,5,4 after 9-13 plies)",
            |ctx| {
                let ps = positions_between(5, 5, 4, ctx.seed, ctx.pick(30, 300), 9, 13);
                let mut off =
                    AlphaBeta::<Mnk>::new(Config::default().win_bounds(Use::Off)).expect("table");
                let mut on =
                    AlphaBeta::<Mnk>::new(Config::default().win_bounds(Use::On)).expect("table");
                let mut dfpn =
                    DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(4 << 20)))
                        .expect("table");
                let mut pn2 = Pns::new(PnsConfig::new().second_level(Some(Default::default())))
                    .expect("config");
                let mut t = Tally::default();
                for g in &ps {
                    let exact = solve_for(&mut off, &mut g.clone(), &Limits::none(), Find::Score);
                    let expected =
                        format!("{} {}", score_text(exact.score), fmt_outcome(exact.outcome));
                    let got = solve_for(&mut on, &mut g.clone(), &Limits::none(), Find::Score);
                    t.compare(
                        g,
                        None,
                        expected,
                        format!("{} {}", score_text(got.score), fmt_outcome(got.outcome)),
                    );
                    let expected = fmt_outcome(exact.outcome);
                    t.compare(
                        g,
                        None,
                        expected.clone(),
                        fmt_outcome(
                            solve_for(&mut on, &mut g.clone(), &Limits::none(), Find::Outcome)
                                .outcome,
                        ),
                    );
                    t.compare(
                        g,
                        None,
                        expected.clone(),
                        fmt_outcome(
                            dfpn.solve(&mut g.clone(), &mut Request::new(&Limits::none()))
                                .outcome,
                        ),
                    );
                    t.compare(
                        g,
                        None,
                        expected,
                        fmt_outcome(
                            pn2.solve(&mut g.clone(), &mut Request::new(&Limits::none()))
                                .outcome,
                        ),
                    );
                }
                t
            },
        ),
    ]
}

/// Threat-space search (`gametree_threats`): every win it reports is a real
/// win within its plies, and alpha-beta's, df-pn's and PN2's values (and
/// the proof-number searches' proofs) do not change with it.
fn threat_rows() -> Vec<Check> {
    vec![
        Check::new(
            "mnk",
            Family::Solvers,
            "threat-space search on = off: df-pn and PN2 value = alpha-beta, their proofs verify (5,5,4 6,6,4 7,7,5 after 8-14, 14-20, 24-32 plies)",
            threat_search_keeps_proof_numbers,
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "threat-space search on = off: AlphaBeta solve (exact score) and weak (5,5,4 6,6,4 7,7,4 7,7,5 after 6-12, 10-18, 12-20, 22-30 plies)",
            threat_search_keeps_alpha_beta,
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "threat-space search wins = alpha-beta: a win within the sequence's plies (4,4,3 to 7,7,5)",
            threat_wins_are_wins,
        ),
    ]
}

/// Row: df-pn and PN2 with threat-space search on and off give alpha-beta's
/// value, and their proofs verify.
fn threat_search_keeps_proof_numbers(ctx: &Ctx) -> Tally {
    use gametree_game::{Request, Solver};
    use gametree_pns_conspiracy::{
        Answer, DfPn, DfPnConfig, Pns, PnsConfig, Question, Strategy, Trust, verify_with,
    };
    let mut ab = AlphaBeta::<Mnk>::new(Config::default().threats(Use::Off)).expect("table");
    let proof = ProofConfig::new().memory(4 << 20);
    let on = DfPnConfig::new().proof(proof.threats(Use::Auto));
    let mut on = DfPn::new(on).expect("table");
    let off = DfPnConfig::new().proof(proof.threats(Use::Off));
    let mut off = DfPn::new(off).expect("table");
    let pn2 = PnsConfig::new().second_level(Some(Default::default()));
    let pn2_on = pn2.proof(ProofConfig::new().threats(Use::Auto));
    let mut pn2_on = Pns::new(pn2_on).expect("config");
    let pn2_off = pn2.proof(ProofConfig::new().threats(Use::Off));
    let mut pn2_off = Pns::new(pn2_off).expect("config");
    let limits = Limits::none().with_nodes(2_000_000);
    let mut t = Tally::default();
    let boards = [(5, 5, 4, 8, 14), (6, 6, 4, 14, 20), (7, 7, 5, 24, 32)];
    for (i, &(m, n, k, min, max)) in boards.iter().enumerate() {
        let seed = ctx.seed.wrapping_add(i as u64);
        for g in positions_between(m, n, k, seed, ctx.pick(8, 60), min, max) {
            let expected =
                solve_for(&mut ab, &mut g.clone(), &Limits::none(), Find::Outcome).outcome;
            let expected = fmt_outcome(expected);
            for dfpn in [&mut on, &mut off] {
                Solver::<Mnk>::clear(dfpn);
                let got = dfpn
                    .solve(&mut g.clone(), &mut Request::new(&limits))
                    .outcome;
                t.compare(&g, None, expected.clone(), fmt_outcome(got));
            }
            for pn2 in [&mut pn2_on, &mut pn2_off] {
                let got = pn2
                    .solve(&mut g.clone(), &mut Request::new(&limits))
                    .outcome;
                t.compare(&g, None, expected.clone(), fmt_outcome(got));
            }
            // The proofs of the first player's question, written
            // with threat-space search, replayed by the verifier.
            Solver::<Mnk>::clear(&mut on);
            let question = if expected == "win" {
                Question::Win
            } else {
                Question::AtLeastDraw
            };
            let check = |answer: Answer, proof: Option<Strategy<_>>| match (answer, proof) {
                (Answer::Unknown(_), _) => "unknown".to_string(),
                (_, None) => "no proof".to_string(),
                (_, Some(s)) => verify_with(&mut g.clone(), &s, Trust::WinBounds)
                    .map_or_else(|e| e.to_string(), |_| "verified".to_string()),
            };
            let (report, proof) = on.prove(&mut g.clone(), question, &mut Request::new(&limits));
            t.compare(
                &g,
                None,
                "verified".to_string(),
                check(report.answer, proof),
            );
            let (report, proof) =
                pn2_on.prove(&mut g.clone(), question, &mut Request::new(&limits));
            t.compare(
                &g,
                None,
                "verified".to_string(),
                check(report.answer, proof),
            );
        }
    }
    t
}

/// Row: alpha-beta's exact and weak solves give the same values with
/// threat-space search on and off.
fn threat_search_keeps_alpha_beta(ctx: &Ctx) -> Tally {
    let mut off = AlphaBeta::<Mnk>::new(Config::default().threats(Use::Off)).expect("table");
    let mut on = AlphaBeta::<Mnk>::new(Config::default().threats(Use::On)).expect("table");
    let mut t = Tally::default();
    let boards = [
        (5, 5, 4, 6, 12),
        (6, 6, 4, 10, 18),
        (7, 7, 4, 12, 20),
        (7, 7, 5, 22, 30),
    ];
    for (i, &(m, n, k, min, max)) in boards.iter().enumerate() {
        let seed = ctx.seed.wrapping_add(200 + i as u64);
        for g in positions_between(m, n, k, seed, ctx.pick(25, 250), min, max) {
            let exact = solve_for(&mut off, &mut g.clone(), &Limits::none(), Find::Score);
            let got = solve_for(&mut on, &mut g.clone(), &Limits::none(), Find::Score);
            t.compare(&g, None, score_text(exact.score), score_text(got.score));
            let weak = solve_for(&mut on, &mut g.clone(), &Limits::none(), Find::Outcome);
            t.compare(
                &g,
                None,
                fmt_outcome(exact.outcome),
                fmt_outcome(weak.outcome),
            );
        }
    }
    t
}

/// Row: every win threat-space search reports is a win within its plies.
fn threat_wins_are_wins(ctx: &Ctx) -> Tally {
    let mut ab = AlphaBeta::<Mnk>::new(Config::default().threats(Use::Off)).expect("table");
    let mut search =
        gametree_threats::ThreatSearch::new(Default::default()).expect("default limits");
    let mut t = Tally::default();
    for (i, &(m, n, k, min)) in [(4, 4, 3, 1), (5, 5, 4, 6), (6, 6, 4, 10), (7, 7, 5, 20)]
        .iter()
        .enumerate()
    {
        let seed = ctx.seed.wrapping_add(100 + i as u64);
        for mut g in positions_between(m, n, k, seed, ctx.pick(100, 1000), min, 60) {
            let Some(win) = search.find_win(&mut g) else {
                continue;
            };
            ab.clear();
            let exact = solve_for(&mut ab, &mut g.clone(), &Limits::none(), Find::Score).score;
            let within = gametree_game::Score::win_in(win.plies);
            let got = if exact.is_some_and(|v| v >= within) {
                format!("a win within {} plies", win.plies)
            } else {
                score_text(exact)
            };
            t.compare(
                &g,
                Some(win.plies),
                format!("a win within {} plies", win.plies),
                got,
            );
        }
    }
    t
}
