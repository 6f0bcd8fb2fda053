//! Tic-tac-toe databases: every value equals plain negamax's, both methods
//! agree, symmetric and plain indexing agree, moves leaving a space are
//! valued through a sub-database, faulty predecessor generators are caught.

mod common;

use std::sync::Mutex;

use common::{Faulty, Slice, solve};
use gametree_game::IndexSpace;
use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::verify::{self, PredecessorFault, VerifyError};
use gametree_retrograde::{BuildError, Event, Generator, Method, Table, TableProbe, Value};

/// The published tic-tac-toe counts (the corpus of `gametree-data`).
fn published() -> &'static gametree_data::TicTacToeFigures {
    gametree_data::tictactoe().unwrap()
}

/// The published number of positions of `space`: reachable positions, or
/// their classes under the 8 symmetries.
fn positions(space: &BoardIndex) -> u64 {
    if space.is_symmetric() {
        published().positions_up_to_symmetry
    } else {
        published().reachable_positions
    }
}

fn build(space: &BoardIndex, method: Method) -> Table {
    Generator::new(space)
        .build(method)
        .expect("tic-tac-toe builds")
}

#[test]
fn every_value_equals_negamax() {
    for space in [BoardIndex::plain(), BoardIndex::symmetric()] {
        for method in [Method::ForwardSweeps, Method::Backward] {
            let table = build(&space, method);
            let n = verify::agrees_with_search(&space, &table, 0..space.size(), solve)
                .unwrap_or_else(|e| panic!("{method}, {space:?}: {e}"));
            assert_eq!(n, positions(&space));
        }
    }
}

#[test]
fn methods_agree_on_both_spaces() {
    for space in [BoardIndex::plain(), BoardIndex::symmetric()] {
        let (table, compared) =
            verify::methods_agree(&space, &gametree_retrograde::NoExits).unwrap();
        assert_eq!(compared, 19_683);
        assert_eq!(table.counts().positions(), positions(&space));
        assert_eq!(table.counts().invalid, 19_683 - table.counts().positions());
    }
}

#[test]
fn published_counts_and_values() {
    let sym = build(&BoardIndex::symmetric(), Method::Backward);
    let plain = build(&BoardIndex::plain(), Method::ForwardSweeps);
    // Terminal positions: 958, of which 16 full-board draws (plain) and
    // 138 = 91 + 44 + 3 up to symmetry. Lost terminal positions are the
    // ones at distance 0.
    let terminal = published().terminal_up_to_symmetry;
    assert_eq!(sym.histogram()[0], terminal.x_wins + terminal.o_wins);
    assert_eq!(plain.histogram()[0], published().terminal_positions - 16);
    // The empty board is a draw.
    let sym_space = BoardIndex::symmetric();
    let probe = TableProbe::new(&sym_space, &sym).unwrap();
    assert_eq!(
        probe.probe(&TicTacToe::new()).map(Value::outcome),
        Some(published().empty_board)
    );
    let b: TicTacToe = "XX.OO....".parse().unwrap();
    assert_eq!(probe.probe(&b), Some(Value::Win(1)));
    let b: TicTacToe = "X...O...X".parse().unwrap();
    assert_eq!(probe.probe(&b), Some(Value::Draw));
    // Plain and symmetric tables agree on every reachable position.
    let plain_space = BoardIndex::plain();
    let plain_probe = TableProbe::new(&plain_space, &plain).unwrap();
    for i in 0..plain_space.size() {
        if let Some(p) = plain_space.position(i) {
            assert_eq!(plain_probe.probe(&p), probe.probe(&p), "{p}");
        }
    }
    // Counts by side to move add up.
    let x_to_move = plain.counts_where(|i| {
        plain_space
            .position(i)
            .is_some_and(|p| gametree_game::Game::side_to_move(&p) == gametree_game::Player::First)
    });
    let by_marks = &published().reachable_by_marks;
    let even_marks: u64 = by_marks.iter().step_by(2).sum();
    assert_eq!(x_to_move.positions(), even_marks);
    // The longest win is reported with an index where negamax confirms it.
    let (d, at) = plain.counts().longest_win.unwrap();
    let mut p = plain_space.position(at).unwrap();
    assert_eq!(solve(&mut p), Value::Win(d));
}

#[test]
fn thread_counts_give_identical_tables() {
    let space = BoardIndex::plain();
    for method in [Method::ForwardSweeps, Method::Backward] {
        let one = Generator::new(&space).threads(1).build(method).unwrap();
        let two = Generator::new(&space).threads(2).build(method).unwrap();
        assert_eq!(one, two);
    }
}

#[test]
fn progress_reports_memory_first_and_levels_in_order() {
    let space = BoardIndex::plain();
    let events = Mutex::new(Vec::new());
    let record = |e: &Event<'_, _>| events.lock().unwrap().push(e.detached());
    let generator = Generator::new(&space).progress(&record);
    let expected = generator.memory(Method::Backward);
    assert_eq!(expected.bytes_per_index, 2);
    assert!(expected.total_bytes >= 2 * 19_683);
    generator.backward().unwrap();
    let events = events.into_inner().unwrap();
    assert!(matches!(
        events[0],
        Event::Start { bytes, positions: 19_683, .. } if bytes == expected.total_bytes
    ));
    let reachable = published().reachable_positions;
    assert!(matches!(events[1], Event::Level { level: 0, valid, .. } if valid == reachable));
    assert!(matches!(events.last(), Some(Event::Done { .. })));
    let levels: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Level { level, .. } => Some(*level),
            _ => None,
        })
        .collect();
    assert_eq!(levels, (0..levels.len() as u32).collect::<Vec<_>>());
    let Some(Event::Level {
        total: total_decided,
        valid,
        ..
    }) = events.iter().rev().nth(1)
    else {
        panic!("no level before done");
    };
    assert_eq!(*valid, reachable);
    assert_eq!(
        *total_decided,
        reachable - build(&space, Method::Backward).counts().draws
    );
    // Each level reports the positions it decided (level 0: the
    // classification).
    let first = events.iter().find_map(|e| match e {
        Event::Level {
            level: 0, decided, ..
        } => Some(*decided),
        _ => None,
    });
    let by_levels: u64 = events
        .iter()
        .filter_map(|e| match e {
            Event::Level { level, decided, .. } if *level > 0 => Some(*decided),
            _ => None,
        })
        .sum();
    assert_eq!(first.map(|f| f + by_levels), Some(*total_decided));
    assert!(matches!(
        events.last(),
        Some(Event::Done { nodes, .. }) if nodes == total_decided
    ));
    assert!(by_levels > 0);
}

#[test]
fn the_verify_row_passes() {
    let space = BoardIndex::symmetric();
    let (_, report) = verify::database(&space, &gametree_retrograde::NoExits).unwrap();
    assert_eq!(report.indices, 19_683);
    assert_eq!(report.positions, positions(&space));
    assert_eq!(report.counts.positions(), positions(&space));
    let broken = Faulty {
        inner: space,
        drop: 3,
        spurious: false,
    };
    assert!(verify::database(&broken, &gametree_retrograde::NoExits).is_err());
}

#[test]
fn predecessor_generators_are_exact() {
    for space in [BoardIndex::plain(), BoardIndex::symmetric()] {
        let n = verify::check_predecessors(&space, 0..space.size()).unwrap();
        assert_eq!(n, positions(&space));
    }
}

#[test]
fn faulty_predecessors_are_caught() {
    let missing = Faulty {
        inner: BoardIndex::symmetric(),
        drop: 2,
        spurious: false,
    };
    assert!(matches!(
        verify::check_predecessors(&missing, 0..missing.size()),
        Err(PredecessorFault::Missing { .. })
    ));
    assert!(matches!(
        verify::methods_agree(&missing, &gametree_retrograde::NoExits),
        Err(VerifyError::Disagree(_))
    ));
    let spurious = Faulty {
        inner: BoardIndex::symmetric(),
        drop: 0,
        spurious: true,
    };
    assert!(matches!(
        verify::check_predecessors(&spurious, 0..spurious.size()),
        Err(PredecessorFault::Spurious { parent: 0, .. })
    ));
    assert!(matches!(
        Generator::new(&spurious).backward(),
        Err(BuildError::InconsistentPredecessors { .. })
    ));
}

/// The symmetric space split in two: boards with five marks or more, and
/// boards with fewer (whose moves into five marks leave their space).
type Marks = Slice<BoardIndex, fn(&TicTacToe) -> u32>;

fn split_at_five_marks() -> (Marks, Marks) {
    let marks: fn(&TicTacToe) -> u32 = TicTacToe::marks;
    let slice = |range| Slice {
        inner: BoardIndex::symmetric(),
        layer: marks,
        range,
    };
    (slice(5..10), slice(0..5))
}

/// Boards with at least five marks form one database; boards with fewer
/// form another, whose moves into five marks are valued by probing the
/// first: the chess pattern of captures into smaller endings.
#[test]
fn moves_leaving_the_space_are_resolved_by_a_sub_database() {
    let (late, early) = split_at_five_marks();
    let (late_table, _) = verify::methods_agree(&late, &gametree_retrograde::NoExits).unwrap();
    // Without a resolver, the early space cannot be built.
    assert!(matches!(
        Generator::new(&early).forward(),
        Err(BuildError::Unresolved { .. })
    ));
    assert!(matches!(
        Generator::new(&early).backward(),
        Err(BuildError::Unresolved { .. })
    ));
    let sub = TableProbe::new(&late, &late_table).unwrap();
    let (early_table, _) = verify::methods_agree(&early, &sub).unwrap();
    let whole = build(&BoardIndex::symmetric(), Method::Backward);
    for i in 0..whole.len() {
        let part = if early.position(i).is_some() {
            early_table.get(i)
        } else {
            late_table.get(i)
        };
        assert_eq!(part, whole.get(i), "index {i}");
    }
    // A resolver answering with an impossible value is refused.
    let liar = |_: &TicTacToe| Some(Value::Win(2));
    assert!(matches!(
        Generator::new(&early).resolver(&liar).forward(),
        Err(BuildError::BadResolvedValue { .. })
    ));
}

#[test]
fn wdl_table_matches_the_distance_table() {
    let table = build(&BoardIndex::plain(), Method::Backward);
    let wdl = table.to_wdl();
    assert_eq!(wdl.len(), table.len());
    assert_eq!(wdl.bits().len(), (table.len() as usize).div_ceil(4));
    for i in 0..table.len() + 3 {
        assert_eq!(wdl.get(i), table.get(i).map(Value::outcome), "index {i}");
    }
    let (a, b) = (wdl.counts(), table.counts());
    assert_eq!(
        (a.wins, a.draws, a.losses, a.invalid),
        (b.wins, b.draws, b.losses, b.invalid)
    );
}

/// The generic enumerated space gives the same values as the closed-form
/// index, position by position.
#[test]
fn reachable_space_agrees_with_the_board_index() {
    let key = |b: &TicTacToe| {
        let c = b.canonical();
        u64::from(c.x_mask()) << 16 | u64::from(c.o_mask())
    };
    let reachable = gametree_retrograde::Reachable::new(TicTacToe::new(), key).unwrap();
    assert_eq!(reachable.positions(), published().positions_up_to_symmetry);
    let (table, _) = verify::methods_agree(&reachable, &gametree_retrograde::NoExits).unwrap();
    let space = BoardIndex::symmetric();
    let reference = build(&space, Method::Backward);
    let probe = TableProbe::new(&space, &reference).unwrap();
    for i in 0..reachable.size() {
        let p = reachable.position(i).unwrap();
        assert_eq!(table.get(i), probe.probe(&p), "{p}");
    }
}

/// A table as a [`Solver`](gametree_game::Solver): on every position, the value
/// equals negamax's, and the line is a line of best play that ends the game
/// at the stated distance with the stated result. Split into two spaces,
/// the early one solves through its exits into the late one, and without
/// them says out of scope.
#[test]
fn a_table_solves_every_position_with_a_line_to_the_end() {
    use gametree_game::{Game, Limits, Outcome, Solver, Stop};
    let space = BoardIndex::plain();
    let table = build(&space, Method::Backward);
    let mut db = TableProbe::new(&space, &table).unwrap();
    let mut solved = 0;
    for i in 0..space.size() {
        let Some(mut p) = space.position(i) else {
            continue;
        };
        let s = db.solve(&mut p, &mut gametree_game::Request::new(&Limits::none()));
        let expected = solve(&mut p);
        assert_eq!(s.score, Some(expected.to_score()), "{p:?}");
        assert_eq!(s.outcome, Some(expected.outcome()));
        assert_eq!(s.stopped, None);
        // Replay the line: each move keeps the value (from the mover's side).
        let mut q = p;
        let mut v = expected;
        for &m in &s.line {
            q.make(m);
            let child = solve(&mut { q });
            assert_eq!(child.parent(), v, "{p:?}: line {:?}", s.line);
            v = child;
        }
        match expected.plies() {
            Some(n) => {
                assert_eq!(s.line.len(), usize::from(n), "{p:?}");
                // Whoever is to move at the end has lost.
                assert_eq!(q.outcome(), Some(Outcome::Loss), "{p:?}");
            }
            None => assert!(
                q.outcome() == Some(Outcome::Draw)
                    || s.line.len() == gametree_retrograde::DRAWN_LINE
            ),
        }
        assert_eq!(s.best, s.line.first().copied());
        solved += 1;
    }
    assert_eq!(solved as u64, published().reachable_positions);

    // Early positions through exits into the late table.
    let (late, early) = split_at_five_marks();
    let late_table = Generator::new(&late).build(Method::Backward).unwrap();
    let sub = TableProbe::new(&late, &late_table).unwrap();
    let early_table = Generator::new(&early)
        .resolver(&sub)
        .build(Method::Backward)
        .unwrap();
    let mut alone = TableProbe::new(&early, &early_table).unwrap();
    let start = TicTacToe::new();
    let s = alone.solve(
        &mut { start },
        &mut gametree_game::Request::new(&Limits::none()),
    );
    // Without exits the value is known but the line stops where it would
    // leave the space (after the fourth mark).
    assert_eq!(
        (s.outcome, s.stopped, s.line.len()),
        (Some(Outcome::Draw), None, 4)
    );
    let mut with_exits = TableProbe::new(&early, &early_table).unwrap().exits(&sub);
    let s = with_exits.solve(
        &mut { start },
        &mut gametree_game::Request::new(&Limits::none()),
    );
    assert_eq!((s.outcome, s.stopped), (Some(Outcome::Draw), None));
    assert_eq!(s.line.len(), 9, "a drawn tic-tac-toe line fills the board");
    // A position in neither space.
    let mut late_only = TableProbe::new(&late, &late_table).unwrap();
    let s = late_only.solve(
        &mut { start },
        &mut gametree_game::Request::new(&Limits::none()),
    );
    assert_eq!((s.outcome, s.stopped), (None, Some(Stop::OutOfScope)));
}

/// Builds honour the node, time and cancel limits, by every method, and
/// stop with the reason.
#[test]
fn builds_stop_at_their_limits() {
    use gametree_game::{Limits, Stop};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let space = BoardIndex::plain();
    let cancelled = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::none()
    };
    let cases = [
        (
            Limits {
                nodes: Some(100),
                ..Limits::none()
            },
            Stop::Nodes,
        ),
        (
            Limits {
                time: Some(Duration::ZERO),
                ..Limits::none()
            },
            Stop::Time,
        ),
        (cancelled, Stop::Cancelled),
    ];
    for (limits, why) in cases {
        let g = Generator::new(&space).limits(limits.clone());
        assert_eq!(g.forward().unwrap_err(), BuildError::Stopped(why));
        assert_eq!(g.backward().unwrap_err(), BuildError::Stopped(why));
    }
    // Generous limits change nothing.
    let roomy = Limits {
        nodes: Some(1 << 40),
        time: Some(Duration::from_secs(3600)),
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..Limits::none()
    };
    let table = Generator::new(&space).limits(roomy).backward().unwrap();
    assert_eq!(
        gametree_retrograde::compare(&table, &build(&space, Method::Backward)),
        Ok(19_683)
    );
}
