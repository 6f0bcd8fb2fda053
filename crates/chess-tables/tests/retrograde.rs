//! Chess pawnless endings built by `gametree_retrograde` over `Endgame` and
//! `FastEndgame` (moved here from the retrograde crate, which depends on no
//! game): KQvK and KRvK
//! reproduce the Syzygy generator's statistics and the raw KQK counts
//! (as published at syzygy-tables.info) and the longest mates (all from the
//! corpus of `gametree-data`), both methods agree, and every value
//! follows from its successors'.

use std::sync::Mutex;

use gametree_chess_tables::{Endgame, FastEndgame, Placement};
use gametree_game::{Game, IndexMoves, IndexSpace, Outcome};
use gametree_games_chess::Position;
use gametree_retrograde::{
    BuildError, Counts, Generator, Label, Method, NoExits, Resolve, Table, TableProbe, Value,
    verify,
};

/// Builds by both methods, checks that they agree, returns the table
/// (built once per material for all the tests).
fn build(material: &'static str) -> (Endgame, Table) {
    static BUILT: Mutex<Vec<(&'static str, Table)>> = Mutex::new(Vec::new());
    let space = Endgame::new(material).unwrap();
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = built.iter().find(|(m, _)| *m == material) {
        return (space, t.clone());
    }
    let (table, n) = verify::methods_agree(&space, &NoExits).unwrap();
    assert_eq!(n, space.size());
    built.push((material, table.clone()));
    (space, table)
}

/// The counts for each side to move: the index puts White to move first.
fn by_side(table: &Table) -> (Counts, Counts) {
    let half = table.len() / 2;
    (
        table.counts_where(|i| i < half),
        table.counts_where(|i| i >= half),
    )
}

fn wdl(c: &Counts) -> (u64, u64, u64) {
    (c.wins, c.draws, c.losses)
}

/// The Syzygy generator's published statistics of `ending`: White to
/// move, Black to move.
fn syzygy(ending: &str) -> ((u64, u64, u64), (u64, u64, u64)) {
    let stats = gametree_data::syzygy_3_4_men().unwrap();
    let e = stats.iter().find(|e| e.ending == ending).unwrap();
    let t = |w: gametree_data::WinDrawLoss| (w.wins, w.draws, w.losses);
    (t(e.wtm), t(e.btm))
}

/// The published longest mate of `ending`, in plies (a mate in N moves is
/// a win in 2N - 1 plies).
fn longest_mate_plies(ending: &str) -> u16 {
    let mate = gametree_data::chess_endgames()
        .unwrap()
        .longest_mate(ending)
        .unwrap();
    u16::try_from(mate.plies()).unwrap()
}

#[test]
fn kqk_matches_syzygy_statistics() {
    let (space, table) = build("KQvK");
    let (white, black) = by_side(&table);
    assert_eq!((wdl(&white), wdl(&black)), syzygy("KQvK"));
    // Longest mate: 10 moves, i.e. a win in 19 plies for White to move (and
    // a loss in 20 for Black to move: one Black move, then that mate).
    let (plies, at) = white.longest_win.unwrap();
    assert_eq!(plies, longest_mate_plies("KQvK"));
    assert_eq!(black.longest_loss.unwrap().0, plies + 1);
    let p = space.position(at).unwrap();
    eprintln!("KQvK longest mate: {p} (mate in {})", plies.div_ceil(2));
    assert_eq!(
        verify::locally_consistent(&space, &table, &NoExits, 0..space.size()),
        Ok(white.positions() + black.positions())
    );
}

#[test]
fn krk_matches_syzygy_statistics() {
    let (space, table) = build("KRvK");
    let (white, black) = by_side(&table);
    assert_eq!((wdl(&white), wdl(&black)), syzygy("KRvK"));
    assert_eq!(white.longest_win.unwrap().0, longest_mate_plies("KRvK")); // mate in 16
    assert!(verify::locally_consistent(&space, &table, &NoExits, 0..space.size()).is_ok());
}

/// FEN of a placement (squares 0 = a1 .. 63 = h8).
fn fen(pieces: &[(usize, char)], white_to_move: bool) -> String {
    let mut board = [None; 64];
    for &(s, c) in pieces {
        board[s] = Some(c);
    }
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if white_to_move {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    out
}

/// Without symmetry reduction: every placement of the three pieces, probed
/// through the symmetric table.
#[test]
fn kqk_raw_counts() {
    let (space, table) = build("KQvK");
    let (mut legal, mut draws) = ([0u64; 2], 0u64);
    for wk in 0..64 {
        for bk in 0..64 {
            for q in 0..64 {
                if wk == bk || wk == q || bk == q {
                    continue;
                }
                for (side, white) in [(0, true), (1, false)] {
                    let text = fen(&[(wk, 'K'), (bk, 'k'), (q, 'Q')], white);
                    let Ok(p) = text.parse::<Position>() else {
                        continue;
                    };
                    let Some(v) = space.index_of(&p).and_then(|i| table.get(i)) else {
                        continue;
                    };
                    legal[side] += 1;
                    if v == Value::Draw {
                        draws += 1;
                    }
                }
            }
        }
    }
    let raw = gametree_data::chess_endgames().unwrap().kqvk_raw;
    assert_eq!(legal, [raw.wtm, raw.btm]);
    assert_eq!(draws, raw.draws);
}

#[test]
fn endgame_predecessors_are_exact_on_a_sample() {
    let space = Endgame::new("KRvK").unwrap();
    // Every 13th index keeps this under a few seconds; the full check is
    // `verify::check_predecessors(&space, 0..space.size())`.
    for start in (0..space.size()).step_by(13 * 64) {
        verify::check_predecessors(&space, start..start + 5).unwrap();
    }
}

#[test]
fn file_round_trip_with_material_check() {
    let (_, built) = build("KQvK");
    let label = Label::new("chess", "KQvK", "games-chess-endgame-462x64^n-v1");
    let table = Generator::new(&Endgame::new("KQvK").unwrap())
        .label(label.clone())
        .build(Method::Backward)
        .unwrap();
    assert_eq!(table.codes(), built.codes());
    let bytes = table.to_bytes();
    assert_eq!(Table::from_bytes(&bytes, &label).unwrap(), table);
    let krk = Label::new("chess", "KRvK", "games-chess-endgame-462x64^n-v1");
    assert!(matches!(
        Table::from_bytes(&bytes, &krk),
        Err(gametree_retrograde::LoadError::WrongMaterial { .. })
    ));
}

/// `FastEndgame` numbers placements exactly as `Endgame` numbers
/// positions: its tables (both methods) equal the position-based ones
/// index by index, and un-moves invert moves on a sample.
#[test]
fn fast_endgame_tables_equal_the_position_based_ones() {
    for material in ["KQvK", "KRvK"] {
        let (_, slow) = build(material);
        let fast = FastEndgame::new(material).unwrap();
        let (table, n) = verify::methods_agree(&fast, &NoExits).unwrap();
        assert_eq!(n, fast.size());
        assert_eq!(gametree_retrograde::compare(&slow, &table), Ok(fast.size()));
        for start in (0..fast.size()).step_by(7 * 64) {
            verify::check_predecessors(&fast, start..start + 5).unwrap();
        }
    }
}

/// The tables of the captures' endings, probed as they are or with the
/// colours exchanged (`KvKR` in `KRvK`).
struct Flipping<'a>(Vec<(&'a FastEndgame, &'a Table)>);

impl Resolve<Placement> for Flipping<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        let lookup = |q: &Placement| {
            self.0
                .iter()
                .find_map(|(s, t)| s.index_of(q).map(|i| t.get(i)))
        };
        lookup(p).or_else(|| lookup(&p.flipped())).flatten()
    }
}

/// KBNvK reproduces the Syzygy statistics (syzygy-tables.info) over the fast
/// space, and KQvKR, through the KQvK and KRvK tables (colours flipped for
/// KvKR), has the longest mate of 35 moves; every KQvKR value follows from
/// its successors' on a sample.
#[test]
fn fast_endgame_kbnk_and_kqkr() {
    let kbnk = FastEndgame::new("KBNvK").unwrap();
    let table = Generator::new(&kbnk).build(Method::Backward).unwrap();
    let (white, black) = by_side(&table);
    assert_eq!((wdl(&white), wdl(&black)), syzygy("KBNvK"));
    assert_eq!(white.longest_win.unwrap().0, longest_mate_plies("KBNvK")); // mate in 33

    let kqk = FastEndgame::new("KQvK").unwrap();
    let krk = FastEndgame::new("KRvK").unwrap();
    let t_kqk = Generator::new(&kqk).build(Method::Backward).unwrap();
    let t_krk = Generator::new(&krk).build(Method::Backward).unwrap();
    let subs = Flipping(vec![(&kqk, &t_kqk), (&krk, &t_krk)]);
    let kqkr = FastEndgame::new("KQvKR").unwrap();
    let table = Generator::new(&kqkr)
        .resolver(&subs)
        .build(Method::Backward)
        .unwrap();
    let (white, _) = by_side(&table);
    assert_eq!(white.longest_win.unwrap().0, longest_mate_plies("KQvKR")); // mate in 35
    let size = kqkr.size();
    for start in (0..size).step_by(size as usize / 16) {
        assert!(verify::locally_consistent(&kqkr, &table, &subs, start..start + 4096).is_ok());
    }
}

/// The backward method over index-level moves (`Generator::backward_indexed`,
/// `gametree_game::IndexMoves` of `FastEndgame`) gives the generic backward method's
/// table index by index: every 3-man ending (no resolver: a capture leaves a
/// bare king or king and minor piece, drawn by material), KBBvK and KNNvK
/// (identical pieces, whose moves re-sort the index), KBNvK, and KQvKR
/// through the KQvK and KRvK tables (colours flipped for KvKR).
#[test]
fn indexed_backward_equals_the_generic_backward_method() {
    let same = |space: &FastEndgame, resolver: &(dyn Resolve<Placement> + Sync)| {
        let generic = Generator::new(space)
            .resolver(resolver)
            .build(Method::Backward)
            .unwrap();
        let indexed = Generator::new(space)
            .resolver(resolver)
            .backward_indexed()
            .unwrap();
        assert_eq!(
            gametree_retrograde::compare(&generic, &indexed),
            Ok(space.size())
        );
        indexed
    };
    let mut three = Vec::new();
    for material in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKQ", "KvKR"] {
        let space = FastEndgame::new(material).unwrap();
        let table = same(&space, &NoExits);
        three.push((space, table));
    }
    for material in ["KBBvK", "KNNvK", "KBNvK"] {
        same(&FastEndgame::new(material).unwrap(), &NoExits);
    }
    let subs = Flipping(three[..2].iter().map(|(s, t)| (s, t)).collect());
    same(&FastEndgame::new("KQvKR").unwrap(), &subs);
    // The indexed build honours limits too: stopped after the level that
    // passes 1,000 decided positions.
    let limits = gametree_game::Limits {
        nodes: Some(1_000),
        ..gametree_game::Limits::none()
    };
    let stopped = Generator::new(&three[0].0)
        .limits(limits)
        .backward_indexed();
    assert_eq!(
        stopped.unwrap_err(),
        gametree_retrograde::BuildError::Stopped(gametree_game::Stop::Nodes)
    );
}

/// `Method::BackwardIndexed` names the indexed generator: on a space with
/// both `Predecessors` and `IndexMoves` (KQvK and KRvK over `FastEndgame`),
/// `build_indexed` runs each of the three methods to the table that
/// `forward()` and `backward()` build, index by index; the indexed build
/// reports itself in its first event, with the memory of the backward
/// method; and `build`, whose space need not have `IndexMoves`, refuses it
/// before starting.
#[test]
fn build_indexed_runs_the_three_methods_to_one_table() {
    for material in ["KQvK", "KRvK"] {
        let space = FastEndgame::new(material).unwrap();
        let generator = Generator::new(&space);
        let forward = generator.forward().unwrap();
        let backward = generator.backward().unwrap();
        assert_eq!(
            gametree_retrograde::compare(&forward, &backward),
            Ok(space.size())
        );
        for method in [
            Method::ForwardSweeps,
            Method::Backward,
            Method::BackwardIndexed,
        ] {
            let table = generator.build_indexed(method).unwrap();
            assert_eq!(
                gametree_retrograde::compare(&forward, &table),
                Ok(space.size()),
                "{material} by {method}"
            );
            assert_eq!(table, backward, "{material} by {method}");
        }
        assert_eq!(
            generator.memory(Method::BackwardIndexed),
            generator.memory(Method::Backward)
        );
    }
    let space = FastEndgame::new("KQvK").unwrap();
    let events = Mutex::new(Vec::new());
    let record = |e: &gametree_retrograde::Event<'_, _>| events.lock().unwrap().push(e.detached());
    let generator = Generator::new(&space).progress(&record);
    let expected = generator.memory(Method::Backward);
    generator.build_indexed(Method::BackwardIndexed).unwrap();
    assert_eq!(
        generator.build(Method::BackwardIndexed),
        Err(BuildError::Unsupported {
            method: Method::BackwardIndexed
        })
    );
    let events = events.into_inner().unwrap();
    let starts: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            gametree_retrograde::Event::Start { bytes, .. } => Some(*bytes),
            _ => None,
        })
        .collect();
    // One build started, with the memory the method states.
    assert_eq!(starts, [expected.total_bytes]);
}

/// A resolver that knows no terminal position: it answers `None` for a
/// stalemate and a wrong draw for a mate, and counts how often it is asked
/// about one.
struct TerminalBlind<'a> {
    inner: Flipping<'a>,
    asked: std::sync::atomic::AtomicU64,
}

impl Resolve<Placement> for TerminalBlind<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        match p.outcome() {
            None => self.inner.resolve(p),
            Some(outcome) => {
                self.asked
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                (outcome == Outcome::Loss).then_some(Value::Draw)
            }
        }
    }
}

/// The KQvK and KRvK tables with their spaces: the sub-endings of KQvKR
/// (up to colours).
fn kqk_and_krk() -> Vec<(FastEndgame, Table)> {
    ["KQvK", "KRvK"]
        .into_iter()
        .map(|m| {
            let space = FastEndgame::new(m).unwrap();
            let table = Generator::new(&space).backward_indexed().unwrap();
            (space, table)
        })
        .collect()
}

/// The game's outcome values a terminal successor whatever the resolver
/// says of it (`Resolve`'s contract): KQvKR through a resolver that does
/// not know mates and stalemates gives the same table, by both methods.
#[test]
fn terminal_exits_are_valued_by_the_game_not_the_resolver() {
    let subs = kqk_and_krk();
    let exact = Flipping(subs.iter().map(|(s, t)| (s, t)).collect());
    let blind = TerminalBlind {
        inner: Flipping(subs.iter().map(|(s, t)| (s, t)).collect()),
        asked: 0.into(),
    };
    let space = FastEndgame::new("KQvKR").unwrap();
    let expected = Generator::new(&space)
        .resolver(&exact)
        .backward_indexed()
        .unwrap();
    for table in [
        Generator::new(&space)
            .resolver(&blind)
            .backward_indexed()
            .unwrap(),
        Generator::new(&space)
            .resolver(&blind)
            .build(Method::Backward)
            .unwrap(),
    ] {
        assert_eq!(
            gametree_retrograde::compare(&expected, &table),
            Ok(space.size())
        );
    }
    assert!(blind.asked.into_inner() > 1_000);
}

/// [`Flipping`] declared exact on terminal positions
/// ([`Resolve::knows_terminals`]), as the tables are.
struct ExactFlipping<'a>(Flipping<'a>);

impl Resolve<Placement> for ExactFlipping<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        self.0.resolve(p)
    }

    fn knows_terminals(&self) -> bool {
        true
    }
}

/// A resolver exact on terminal positions is taken at its word there (the
/// game is not asked), and the tables are the same as when the game is
/// asked, by all three methods. Which resolvers say so.
#[test]
fn a_resolver_that_knows_terminals_gives_the_same_tables() {
    let subs = kqk_and_krk();
    let asking = Flipping(subs.iter().map(|(s, t)| (s, t)).collect());
    let trusted = ExactFlipping(Flipping(subs.iter().map(|(s, t)| (s, t)).collect()));
    assert!(!asking.knows_terminals() && trusted.knows_terminals());
    let space = FastEndgame::new("KQvKR").unwrap();
    let expected = Generator::new(&space)
        .resolver(&asking)
        .backward_indexed()
        .unwrap();
    let generator = Generator::new(&space).resolver(&trusted);
    for table in [
        generator.backward_indexed().unwrap(),
        generator.build(Method::Backward).unwrap(),
        generator.build(Method::ForwardSweeps).unwrap(),
    ] {
        assert_eq!(
            gametree_retrograde::compare(&expected, &table),
            Ok(space.size())
        );
    }
    // Taken at its word: one that calls a mate a draw and says it knows
    // terminal positions makes another table.
    let lying = ExactFlipping(Flipping(subs.iter().map(|(s, t)| (s, t)).collect()));
    let blind = TerminalBlind {
        inner: Flipping(subs.iter().map(|(s, t)| (s, t)).collect()),
        asked: 0.into(),
    };
    let lying_blind = |p: &Placement| match p.outcome() {
        Some(_) => blind.resolve(p),
        None => lying.resolve(p),
    };
    struct Trusted<F>(F);
    impl<F: Fn(&Placement) -> Option<Value>> Resolve<Placement> for Trusted<F> {
        fn resolve(&self, p: &Placement) -> Option<Value> {
            self.0(p)
        }
        fn knows_terminals(&self) -> bool {
            true
        }
    }
    let wrong = Generator::new(&space)
        .resolver(&Trusted(lying_blind))
        .backward_indexed();
    assert!(wrong.map_or(true, |t| {
        gametree_retrograde::compare(&expected, &t).is_err()
    }));
    // Tables know terminal positions, closures are not assumed to, and a
    // list does when all its resolvers do.
    let probes: Vec<TableProbe<'_, FastEndgame>> = subs
        .iter()
        .map(|(s, t)| TableProbe::new(s, t).unwrap())
        .collect();
    assert!(probes.knows_terminals());
    let closure = |_: &Placement| None;
    assert!(!closure.knows_terminals() && ![closure].knows_terminals());
}

/// [`FastEndgame`] whose un-moves of the position with index `at` also
/// report an index out of range.
struct Spurious {
    inner: FastEndgame,
    at: u64,
}

impl IndexSpace for Spurious {
    type Game = Placement;

    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn position(&self, index: u64) -> Option<Placement> {
        self.inner.position(index)
    }

    fn index_of(&self, position: &Placement) -> Option<u64> {
        self.inner.index_of(position)
    }
}

impl IndexMoves for Spurious {
    fn successor_indices(
        &self,
        index: u64,
        inside: impl FnMut(u64),
        exit: impl FnMut(&Placement),
    ) -> Option<Option<Outcome>> {
        self.inner.successor_indices(index, inside, exit)
    }

    fn predecessor_indices(&self, index: u64, mut found: impl FnMut(u64)) {
        self.inner.predecessor_indices(index, &mut found);
        if index == self.at {
            found(self.size());
        }
    }

    fn predecessor_block(&self, first: u64, members: u64, mut found: impl FnMut(u64, u64)) {
        self.inner.predecessor_block(first, members, &mut found);
        if (first..first + 64).contains(&self.at) && members >> (self.at - first) & 1 != 0 {
            found(self.at, self.size());
        }
    }
}

/// A wrong predecessor reported by `predecessor_block` for one member of
/// a block is blamed on that member: a mated position (the first level's
/// frontier) that is not the first of the mates of its block.
#[test]
fn indexed_backward_names_the_frontier_index_of_a_wrong_predecessor() {
    let inner = FastEndgame::new("KQvK").unwrap();
    let mated = |i: u64| {
        inner
            .position(i)
            .is_some_and(|p| p.outcome() == Some(Outcome::Loss))
    };
    let at = (0..inner.size())
        .find(|&i| i % 64 > 0 && mated(i) && (i - i % 64..i).any(mated))
        .unwrap();
    let size = inner.size();
    let space = Spurious { inner, at };
    assert_eq!(
        Generator::new(&space).backward_indexed().map(|_| ()),
        Err(BuildError::InconsistentPredecessors {
            index: at,
            predecessor: size,
        })
    );
}

/// `gametree_retrograde::schedule` builds a set of endings, several at a time and
/// each after the endings its captures lead to, into the same tables as
/// building them one after another.
#[test]
fn scheduled_endings_equal_endings_built_in_turn() {
    // Jobs in an order that is not a build order: each needs those after.
    let endings = ["KQvKR", "KRvKR", "KQvKQ", "KQvK", "KRvK"];
    let needs: Vec<Vec<usize>> = vec![vec![3, 4], vec![4], vec![3], vec![], vec![]];
    let build = |material: &str, subs: &Flipping<'_>, threads: usize| {
        let space = FastEndgame::new(material).unwrap();
        let table = Generator::new(&space)
            .resolver(subs)
            .threads(threads)
            .backward_indexed()
            .unwrap();
        (space, table)
    };
    let mut in_turn: Vec<Option<(FastEndgame, Table)>> = (0..endings.len()).map(|_| None).collect();
    for job in [3, 4, 0, 1, 2] {
        let subs = Flipping(
            needs[job]
                .iter()
                .map(|&j| {
                    let (s, t) = in_turn[j].as_ref().unwrap();
                    (s, t)
                })
                .collect(),
        );
        in_turn[job] = Some(build(endings[job], &subs, 1));
    }
    for threads in [1, 2, 3] {
        let scheduled = gametree_retrograde::schedule(&needs, threads, |job| {
            let subs = Flipping(
                needs[job.index()]
                    .iter()
                    .map(|&j| {
                        let (s, t) = job.finished(j).expect("a need is finished");
                        (s, t)
                    })
                    .collect(),
            );
            Ok::<_, ()>(build(endings[job.index()], &subs, job.threads()))
        })
        .unwrap();
        for (job, (space, table)) in scheduled.iter().enumerate() {
            let (_, expected) = in_turn[job].as_ref().unwrap();
            assert_eq!(
                gametree_retrograde::compare(expected, table),
                Ok(space.size()),
                "{} on {threads} threads",
                endings[job]
            );
        }
    }
}
