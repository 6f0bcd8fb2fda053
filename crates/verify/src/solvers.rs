//! Family 2 across crates: proof-number and conspiracy-number search,
//! retrograde databases and the alpha-beta solver agree.

use gametree_alphabeta::{AlphaBeta, Config, negamax};
use gametree_game::{Find, Limits, Outcome};
use gametree_games_connect4::{Board, Size};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;
use gametree_retrograde::NoExits;

use super::common::{random_positions, reachable, rng, score_text, solve_for};
use super::data::pons::TestSet;
use super::{Check, Family, Skip, Tally};

fn outcome_str(o: Outcome) -> String {
    o.to_string()
}

/// Every proof-number solver and CNS on each position, against the
/// outcome the alpha-beta solver finds.
fn pns_rows<G>(positions: &[G], mut reference: impl FnMut(&mut G) -> Outcome) -> Tally
where
    G: gametree_game::Game + std::fmt::Display,
{
    let mut t = Tally::default();
    let limits = Limits::none().with_nodes(20_000_000);
    for p in positions {
        let expected = reference(&mut p.clone());
        let got = match gametree_pns_conspiracy::agree::solvers_agree(
            &mut p.clone(),
            expected,
            &limits,
        ) {
            Ok(_) => outcome_str(expected),
            Err(e) => e.to_string(),
        };
        t.compare(p, None, outcome_str(expected), got);
    }
    t
}

fn ab_outcome<G>(searcher: &mut AlphaBeta<G>, g: &mut G) -> Outcome
where
    G: gametree_game::Game + Send,
    G::Move: Send + Sync,
{
    solve_for(searcher, g, &Limits::none(), Find::Outcome)
        .outcome
        .expect("no limit")
}

/// A Connect Four database built by retrograde analysis over the mirrored
/// `BoardIndex` against `AlphaBeta::solve`: with `full`, through
/// `gametree_retrograde::verify::database` (both methods agree index by index,
/// un-moves invert moves, every value follows from its successors'), else
/// by the backward method alone; the empty board must be a draw; then every
/// position (`sample == None`) or a seeded sample compared, distance
/// included.
fn connect4_database(w: usize, h: usize, full: bool, sample: Option<usize>, seed: u64) -> Tally {
    use gametree_game::IndexSpace;
    use gametree_retrograde::Value;
    let mut t = Tally::default();
    let name = format!("{w}x{h}");
    let built = Size::new(w, h).map_err(|e| e.to_string()).and_then(|size| {
        gametree_games_connect4::BoardIndex::symmetric(size)
            .map(|space| (size, space))
            .map_err(|e| e.to_string())
    });
    let (size, space) = match built {
        Ok(built) => built,
        Err(e) => {
            t.compare(&name, None, "an index space".to_string(), e);
            return t;
        }
    };
    let built = if full {
        gametree_retrograde::verify::database(&space, &NoExits)
            .map(|(table, _)| table)
            .map_err(|e| e.to_string())
    } else {
        gametree_retrograde::Generator::new(&space)
            .backward()
            .map_err(|e| e.to_string())
    };
    let table = match built {
        Ok(table) => table,
        Err(e) => {
            t.compare(&name, None, "a database".to_string(), e);
            return t;
        }
    };
    let empty = Board::new(size);
    let at_empty = space.index_of(&empty).and_then(|i| table.get(i));
    t.compare(
        format!("{name} empty board"),
        None,
        format!("{:?}", Some(Value::Draw)),
        format!("{at_empty:?}"),
    );
    let valid: Vec<u64> = (0..space.size()).filter(|&i| space.is_valid(i)).collect();
    let picked: Vec<u64> = match sample {
        None => valid,
        Some(n) => {
            let mut r = rng(seed);
            (0..n)
                .map(|_| valid[(rand_core::Rng::next_u64(&mut r) % valid.len() as u64) as usize])
                .collect()
        }
    };
    let mut ab = AlphaBeta::<Board>::new(Config::default()).expect("default table");
    for i in picked {
        let Some(mut b) = space.position(i) else {
            t.compare(
                format!("{name} index {i}"),
                None,
                "a position".to_string(),
                "none".to_string(),
            );
            continue;
        };
        let solved = solve_for(&mut ab, &mut b, &Limits::none(), Find::Score);
        let expected = table
            .get(i)
            .map_or("invalid".to_string(), |v| v.to_score().to_string());
        t.compare(b, None, expected, score_text(solved.score));
    }
    t
}

pub(crate) fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "connect4",
            Family::Solvers,
            "retrograde 4x4 (mirror index) = AlphaBeta::solve, every position",
            |ctx| connect4_database(4, 4, true, None, ctx.seed),
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "retrograde 5x4 = AlphaBeta::solve (quick: backward only, sample)",
            |ctx| connect4_database(5, 4, !ctx.quick, Some(ctx.pick(30, 400)), ctx.seed),
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "PNS, PN2, df-pn, CNS = alpha-beta (all positions)",
            |ctx| {
                let (all, _) = reachable(&TicTacToe::new());
                let step = ctx.pick(5, 1);
                let ps: Vec<_> = all
                    .into_iter()
                    .filter(|p| gametree_game::Game::outcome(p).is_none())
                    .step_by(step)
                    .collect();
                let mut s =
                    AlphaBeta::<TicTacToe>::new(Config::default().memory(1 << 20)).expect("table");
                pns_rows(&ps, |g| ab_outcome(&mut s, g))
            },
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "PNS, PN2, df-pn, CNS: 3,3,3 4,4,3",
            |_| {
                let ps: Vec<Mnk> = [(3, 3, 3), (4, 4, 3)]
                    .iter()
                    .map(|&(m, n, k)| Mnk::new(m, n, k).expect("size"))
                    .collect();
                let mut s =
                    AlphaBeta::<Mnk>::new(Config::default().memory(16 << 20)).expect("table");
                pns_rows(&ps, |g| ab_outcome(&mut s, g))
            },
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "PN2, df-pn: 4,4,4 (full; PNS, CNS: their trees outgrow memory)",
            |ctx| {
                if !ctx.deep {
                    return Tally::skip("long row: --deep only");
                }
                let g = Mnk::new(4, 4, 4).expect("size");
                let mut s =
                    AlphaBeta::<Mnk>::new(Config::default().memory(16 << 20)).expect("table");
                let expected = ab_outcome(&mut s, &mut g.clone());
                let limits = Limits::none().with_nodes(1_000_000_000);
                let got = match gametree_pns_conspiracy::agree::bounded_solvers_agree(
                    &mut g.clone(),
                    expected,
                    &limits,
                    16 << 20,
                ) {
                    Ok(_) => outcome_str(expected),
                    Err(e) => e.to_string(),
                };
                let mut t = Tally::default();
                t.compare(&g, None, outcome_str(expected), got);
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "PNS, PN2, df-pn, CNS: 4x4 random positions",
            |ctx| {
                let start = Board::new(Size::new(4, 4).expect("size"));
                let ps = random_positions(&start, &mut rng(ctx.seed), ctx.pick(10, 100), 8);
                let mut s =
                    AlphaBeta::<Board>::new(Config::default().memory(16 << 20)).expect("table");
                pns_rows(&ps, |g| ab_outcome(&mut s, g))
            },
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "PNS, PN2, df-pn, CNS: Test_L3_R1 (w/d/l)",
            |ctx| {
                let dir = ctx.data.join("connect4");
                let set = match TestSet::L3_R1.load_with(&dir, crate::pons_board) {
                    Ok(set) => set,
                    Err(e) => {
                        return Skip::data(format_args!("cannot load Test_L3_R1: {e}")).into();
                    }
                };
                let n = ctx.pick(100, 1000);
                let mut t = Tally::default();
                let limits = Limits::none().with_nodes(20_000_000);
                for p in set.iter().take(n) {
                    let expected = match p.score.signum() {
                        1 => Outcome::Win,
                        0 => Outcome::Draw,
                        _ => Outcome::Loss,
                    };
                    let got = match gametree_pns_conspiracy::agree::solvers_agree(
                        &mut p.board.clone(),
                        expected,
                        &limits,
                    ) {
                        Ok(_) => outcome_str(expected),
                        Err(e) => e.to_string(),
                    };
                    t.compare(&p.moves, None, outcome_str(expected), got);
                }
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "CNS depth-limited = negamax(d)",
            |ctx| {
                let (all, _) = reachable(&TicTacToe::new());
                let mut t = Tally::default();
                let limits = Limits::none();
                for p in all
                    .iter()
                    .filter(|p| gametree_game::Game::outcome(*p).is_none())
                    .step_by(ctx.pick(7, 1))
                {
                    for d in 1..=3 {
                        let expected = negamax(&mut p.clone(), d).value;
                        let got = match gametree_pns_conspiracy::agree::cns_matches_negamax(
                            &mut p.clone(),
                            d,
                            -8..=8,
                            expected,
                            &limits,
                        ) {
                            Ok(_) => expected.to_string(),
                            Err(e) => e.to_string(),
                        };
                        t.compare(p, Some(d), expected.to_string(), got);
                    }
                }
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "retrograde: both methods, un-moves, consistency",
            |_| {
                let mut t = Tally::default();
                for (name, space) in [
                    (
                        "plain",
                        gametree_games_tictactoe::index::BoardIndex::plain(),
                    ),
                    (
                        "symmetric",
                        gametree_games_tictactoe::index::BoardIndex::symmetric(),
                    ),
                ] {
                    let got = match gametree_retrograde::verify::database(&space, &NoExits) {
                        Ok((_, report)) => format!("{} positions", report.positions),
                        Err(e) => e.to_string(),
                    };
                    let expected = match crate::data::tictactoe() {
                        Ok(p) if name == "plain" => format!("{} positions", p.reachable_positions),
                        Ok(p) => format!("{} positions", p.positions_up_to_symmetry),
                        Err(e) => e.to_string(),
                    };
                    t.compare(name, None, expected, got);
                }
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "retrograde values = alpha-beta solve (all positions)",
            |_| {
                let space = gametree_games_tictactoe::index::BoardIndex::plain();
                let mut t = Tally::default();
                let table = match gametree_retrograde::Generator::new(&space).backward() {
                    Ok(table) => table,
                    Err(e) => {
                        t.compare("build", None, "a table".to_string(), e.to_string());
                        return t;
                    }
                };
                let (all, _) = reachable(&TicTacToe::new());
                for p in &all {
                    let Some(i) = gametree_game::IndexSpace::index_of(&space, p) else {
                        t.compare(p, None, "an index".to_string(), "none".to_string());
                        continue;
                    };
                    let expected = gametree_alphabeta::alpha_beta_solve(&mut p.clone()).value;
                    let got = table
                        .get(i)
                        .map_or("invalid".to_string(), |v| v.to_score().to_string());
                    t.compare(p, None, expected.to_string(), got);
                }
                t
            },
        ),
    ]
}
