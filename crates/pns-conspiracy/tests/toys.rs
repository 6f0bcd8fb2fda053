//! Every solver against a plain negamax on small toy games: Nim-like take
//! games with known values, seeded random game DAGs with draws and
//! transpositions, and a cyclic game.

use arrayvec::ArrayVec;
use gametree_game::{
    Event, Game, Knowledge, Limits, MoveBuffer, Outcome, Player, Request, Score, Solver, Use,
};
use gametree_pns_conspiracy::ProofConfig;
use gametree_pns_conspiracy::{
    Answer, Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, PnsConfig, Question, SecondLevel,
    Stop, ValueSet, agree, verify,
};

/// A subtraction game: take 1..=`max_take` stones; taking the last stone wins.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Take {
    stones: u32,
    max_take: u32,
    to_move: Player,
}

impl Game for Take {
    type Move = u32;
    type Undo = ();
    type Moves = ArrayVec<u32, 8>;
    fn side_to_move(&self) -> Player {
        self.to_move
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        for t in 1..=self.max_take.min(self.stones) {
            out.push(t);
        }
    }
    fn make(&mut self, m: u32) {
        self.stones -= m;
        self.to_move = self.to_move.opponent();
    }
    fn unmake(&mut self, m: u32, (): ()) {
        self.stones += m;
        self.to_move = self.to_move.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Loss)
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | self.to_move.index() as u64
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A seeded random game DAG: a position is `(state, depth)`; children are
/// `(f(state, move), depth + 1)` with `states` distinct states per level,
/// so lines transpose. Terminal at `max_depth` or at random, with a random
/// win, draw or loss.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RandomDag {
    seed: u64,
    state: u64,
    depth: u32,
    max_depth: u32,
    states: u64,
    cyclic: bool,
    trail: Vec<u64>,
}

impl RandomDag {
    fn new(seed: u64, max_depth: u32, states: u64, cyclic: bool) -> RandomDag {
        RandomDag {
            seed,
            state: 0,
            depth: 0,
            max_depth,
            states,
            cyclic,
            trail: Vec::new(),
        }
    }
    fn key(&self) -> u64 {
        if self.cyclic {
            // No depth: positions repeat (side to move is the parity of the state).
            mix(self.seed ^ self.state)
        } else {
            mix(self.seed ^ self.state ^ u64::from(self.depth) << 40)
        }
    }
}

impl Game for RandomDag {
    type Move = u8;
    type Undo = u64;
    type Moves = ArrayVec<u8, 4>;
    fn side_to_move(&self) -> Player {
        let parity = if self.cyclic {
            self.state & 1
        } else {
            u64::from(self.depth & 1)
        };
        if parity == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        for m in 0..(1 + self.key() % 3) as u8 + 1 {
            out.push(m);
        }
    }
    fn make(&mut self, m: u8) -> u64 {
        let old = self.state;
        self.trail.push(old);
        let h = mix(self.key() ^ (u64::from(m) * 0x9e37));
        // Keep the parity rule in cyclic games: a move flips the parity.
        let next = h % self.states;
        self.state = if self.cyclic {
            (next & !1) | ((old & 1) ^ 1)
        } else {
            next
        };
        self.depth += 1;
        old
    }
    fn unmake(&mut self, _: u8, old: u64) {
        self.trail.pop();
        self.state = old;
        self.depth -= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        let k = self.key();
        if (!self.cyclic && self.depth >= self.max_depth) || k.is_multiple_of(7) {
            Some(match (k >> 8) % 3 {
                0 => Outcome::Win,
                1 => Outcome::Draw,
                _ => Outcome::Loss,
            })
        } else {
            None
        }
    }
    fn hash(&self) -> u64 {
        self.key()
    }
    fn recompute_hash(&self) -> u64 {
        self.key()
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE.evaluation().proof_hints();

    fn evaluate(&self) -> Score {
        Score::heuristic((self.key() % 5) as i32 - 2)
    }

    /// Arbitrary hints: they change the effort, never the answer.
    fn proof_hints(&self) -> (u32, u32) {
        (
            1 + (self.key() % 4) as u32,
            1 + (self.key() >> 4) as u32 % 4,
        )
    }
}

/// The reference: exhaustive negamax, no pruning, no table; a position
/// repeating one on the current line is a draw.
fn negamax<G: Game>(game: &mut G, line: &mut Vec<u64>) -> Outcome {
    if let Some(o) = game.outcome() {
        return o;
    }
    if line.contains(&game.hash()) {
        return Outcome::Draw;
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    if moves.is_empty() {
        return Outcome::Draw;
    }
    line.push(game.hash());
    let mut best = Outcome::Loss;
    for &m in moves.as_slice() {
        let u = game.make(m);
        let v = negamax(game, line).flip();
        game.unmake(m, u);
        best = best.max(v);
    }
    line.pop();
    best
}

/// Depth-limited negamax with the leaf scores conspiracy-number search uses.
fn negamax_depth<G: Game>(game: &mut G, depth: u32, ply: u32) -> Score {
    if let Some(o) = game.outcome() {
        return Score::terminal(o, ply);
    }
    if ply >= depth {
        return game.evaluate();
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    let mut best = -Score::INFINITY;
    for &m in moves.as_slice() {
        let u = game.make(m);
        best = best.max(-negamax_depth(game, depth, ply + 1));
        game.unmake(m, u);
    }
    best
}

#[test]
fn take_games_have_their_known_values() {
    for max_take in 1..=4 {
        for stones in 0..=25 {
            let mut g = Take {
                stones,
                max_take,
                to_move: Player::Second,
            };
            // Known: lost for the side to move exactly on multiples of max_take + 1.
            let known = if stones % (max_take + 1) == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            assert_eq!(negamax(&mut g, &mut Vec::new()), known);
            let stats = agree::solvers_agree(&mut g, known, &Limits::none())
                .unwrap_or_else(|e| panic!("take {max_take}, {stones} stones: {e}"));
            assert!(stones == 0 || stats.verified_nodes > 0);
            let before = g.clone();
            let r =
                Pns::default().search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
            assert_eq!(g, before, "the game is restored");
            if known == Outcome::Win {
                assert_eq!(r.best, Some(stones % (max_take + 1)));
            }
        }
    }
}

#[test]
fn random_dags_agree_with_negamax() {
    for seed in 0..300u64 {
        let mut g = RandomDag::new(seed, 8, 40, false);
        let expected = negamax(&mut g, &mut Vec::new());
        agree::solvers_agree(&mut g, expected, &Limits::none())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(g.state, 0);
        assert_eq!(g.depth, 0);
    }
}

#[test]
fn random_dags_depth_limited_cns_is_negamax() {
    for seed in 0..200u64 {
        let mut g = RandomDag::new(seed, 9, 60, false);
        for depth in 0..=4 {
            let expected = negamax_depth(&mut g, depth, 0);
            agree::cns_matches_negamax(&mut g, depth, -2..=2, expected, &Limits::none())
                .unwrap_or_else(|e| panic!("seed {seed} depth {depth}: {e}"));
        }
    }
}

#[test]
fn tiny_table_and_epsilons_stay_correct() {
    let mut replaced = 0;
    for seed in 0..150u64 {
        let mut g = RandomDag::new(seed, 10, 200, false);
        let expected = negamax(&mut g, &mut Vec::new());
        for (bytes, eps) in [(96, 0.0), (100, 0.25), (4096, 1.0), (1 << 20, 0.0)] {
            let mut dfpn = DfPn::new(
                DfPnConfig::new()
                    .proof(ProofConfig::new().memory(bytes))
                    .epsilon(eps),
            )
            .unwrap();
            let s = dfpn.solve(&mut g, &mut Request::new(&Limits::none()));
            assert_eq!(
                s.outcome,
                Some(expected),
                "seed {seed}, {bytes} bytes, ε {eps}"
            );
            replaced += dfpn
                .search(&mut g, Question::Win, &mut Request::new(&Limits::none()))
                .stats
                .table_replacements;
            for q in [Question::Win, Question::AtLeastDraw] {
                let (r, proof) = dfpn.prove(&mut g, q, &mut Request::new(&Limits::none()));
                let proof = proof.expect("answered");
                verify(&mut g, &proof).unwrap_or_else(|e| panic!("seed {seed} {q:?}: {e}"));
                assert_eq!(
                    r.answer == Answer::Proven,
                    proof.claim().prover == g.side_to_move()
                );
            }
        }
    }
    assert!(replaced > 0, "the small tables were exercised");
}

#[test]
fn hints_change_effort_not_answers() {
    let mut efforts = std::collections::HashSet::new();
    for seed in 0..100u64 {
        let mut g = RandomDag::new(seed, 8, 50, false);
        let expected = negamax(&mut g, &mut Vec::new());
        let win = expected == Outcome::Win;
        for hints in [true, false] {
            let second = [None, Some(SecondLevel::default())];
            for second in second {
                let config = PnsConfig::new()
                    .proof(ProofConfig::new().proof_hints(Use::from(hints)))
                    .second_level(second);
                let r = Pns::new(config).unwrap().search(
                    &mut g,
                    Question::Win,
                    &mut Request::new(&Limits::none()),
                );
                assert_eq!(r.answer == Answer::Proven, win, "seed {seed}");
                efforts.insert((seed, hints, r.stats.nodes));
            }
            let mut dfpn = DfPn::new(
                DfPnConfig::new().proof(ProofConfig::new().proof_hints(Use::from(hints))),
            )
            .unwrap();
            let r = dfpn.search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
            assert_eq!(r.answer == Answer::Proven, win, "seed {seed}");
        }
    }
    assert!(efforts.len() > 200, "the hints changed some node counts");
}

#[test]
fn cyclic_games_every_solver_matches_the_path_rule() {
    let (mut answered, mut unknown) = (0, 0);
    for seed in 0..300u64 {
        let mut g = RandomDag::new(seed, 0, 24, true);
        let expected = negamax(&mut g, &mut Vec::new());
        // PNS works on a tree, so its repetition rule is exactly the reference's.
        let s = Pns::default().solve(&mut g, &mut Request::new(&Limits::none()));
        assert_eq!(s.outcome, Some(expected), "seed {seed}");
        let s = Pns::pn2().solve(&mut g, &mut Request::new(&Limits::none()));
        assert_eq!(s.outcome, Some(expected), "seed {seed}");
        // df-pn shares results between paths through its table: only the
        // graph-history rule (a result that rests on a repetition above its
        // node is never stored) keeps it equal to the reference. A table of
        // one bucket also loses results all the time. An answer may be
        // unknown at the node limit, never wrong.
        for config in [
            DfPnConfig::new(),
            DfPnConfig::new()
                .epsilon(0.0)
                .proof(ProofConfig::new().proof_hints(Use::Off)),
            DfPnConfig::new().proof(ProofConfig::new().memory(96)),
        ] {
            for q in [Question::Win, Question::AtLeastDraw] {
                let limits = Limits::none().with_nodes(100_000);
                let r = DfPn::new(config)
                    .unwrap()
                    .search(&mut g, q, &mut Request::new(&limits));
                if matches!(r.answer, Answer::Unknown(_)) {
                    unknown += 1;
                    continue;
                }
                let yes = expected >= q.target();
                let want = if yes {
                    Answer::Proven
                } else {
                    Answer::Disproven
                };
                assert_eq!(r.answer, want, "seed {seed} {q:?} {config:?}");
                answered += 1;
            }
        }
    }
    assert!(
        unknown * 50 < answered,
        "{unknown} unknown, {answered} answered"
    );
}

#[test]
fn limits_stop_every_search() {
    let mut g = RandomDag::new(7, 14, 100_000, false);
    let nodes = Limits::none().with_nodes(10);
    let r = Pns::default().search(&mut g, Question::Win, &mut Request::new(&nodes));
    if !matches!(r.answer, Answer::Proven | Answer::Disproven) {
        assert_eq!(r.answer, Answer::Unknown(Stop::Nodes));
        assert!(r.stats.nodes <= 10);
    }
    let mut limits = Limits::none();
    limits
        .cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    for r in [
        Pns::default().search(&mut g, Question::Win, &mut Request::new(&limits)),
        Pns::pn2().search(&mut g, Question::Win, &mut Request::new(&limits)),
        DfPn::new(DfPnConfig::new()).unwrap().search(
            &mut g,
            Question::Win,
            &mut Request::new(&limits),
        ),
    ] {
        assert_eq!(r.answer, Answer::Unknown(Stop::Cancelled));
    }
    let r = Conspiracy::new(ConspiracyConfig::new())
        .unwrap()
        .search(&mut g, &mut Request::new(&limits))
        .unwrap();
    assert_eq!(r.stopped, Some(Stop::Cancelled));
    let timed = Limits::none().with_time(std::time::Duration::ZERO);
    let r = DfPn::new(DfPnConfig::new()).unwrap().search(
        &mut g,
        Question::Win,
        &mut Request::new(&timed),
    );
    assert_eq!(r.answer, Answer::Unknown(Stop::Time));
    let mut small = Pns::new(PnsConfig::new().proof(ProofConfig::new().memory(4096))).unwrap();
    let r = small.search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
    assert_eq!(r.answer, Answer::Unknown(Stop::Memory));
    let mut small = Pns::new(
        PnsConfig::new()
            .proof(ProofConfig::new().memory(4096))
            .second_level(Some(SecondLevel::default())),
    )
    .unwrap();
    let r = small.search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
    assert_eq!(r.answer, Answer::Unknown(Stop::Memory));
    let r = Conspiracy::new(ConspiracyConfig::new().memory(4096))
        .unwrap()
        .search(&mut g, &mut Request::new(&Limits::none()))
        .unwrap();
    assert_eq!(r.stopped, Some(Stop::Memory));
    assert_eq!(
        (g.state, g.depth),
        (0, 0),
        "the game is restored after a stop"
    );
}

#[test]
fn progress_is_reported() {
    let mut g = RandomDag::new(3, 12, 5_000, false);
    let none = Limits::none();
    let mut calls = 0;
    let mut other = 0;
    let mut pns =
        Pns::new(PnsConfig::new().proof(ProofConfig::new().progress_interval(5))).unwrap();
    let mut sink = |e: &Event<'_, u8>| match e {
        Event::Nodes(p) => {
            calls += 1;
            assert!(p.nodes.is_multiple_of(5) && p.stored > 0);
        }
        _ => other += 1,
    };
    let r = pns.search(
        &mut g,
        Question::Win,
        &mut Request::new(&none).events(&mut sink),
    );
    assert_eq!(calls, r.stats.nodes / 5);
    assert_eq!(other, 0, "a search sends node counts only");
    let mut calls = 0;
    let mut dfpn =
        DfPn::new(DfPnConfig::new().proof(ProofConfig::new().progress_interval(5))).unwrap();
    let mut sink = |e: &Event<'_, u8>| {
        if let Event::Nodes(_) = e {
            calls += 1;
        }
    };
    let r = dfpn.search(
        &mut g,
        Question::Win,
        &mut Request::new(&none).events(&mut sink),
    );
    assert_eq!(calls, r.stats.nodes / 5);
    let mut calls = 0;
    let mut cns = Conspiracy::new(ConspiracyConfig::new().progress_interval(5)).unwrap();
    let mut sink = |e: &Event<'_, u8>| {
        if let Event::Nodes(p) = e {
            calls += 1;
            assert!(p.nodes.is_multiple_of(5) && p.stored > 0);
        }
    };
    let r = cns
        .search(&mut g, &mut Request::new(&none).events(&mut sink))
        .unwrap();
    assert_eq!(calls, r.stats.nodes / 5);
}

/// `Solver::solve` of every searcher sends the node counts of its searches
/// and ends with one `Event::Done` that carries the solution's totals.
#[test]
fn solve_ends_with_done() {
    let none = Limits::none();
    let proof = ProofConfig::new().progress_interval(3);
    let solvers: Vec<(&str, Box<dyn Solver<RandomDag>>)> = vec![
        (
            "pns",
            Box::new(Pns::new(PnsConfig::new().proof(proof)).unwrap()),
        ),
        (
            "dfpn",
            Box::new(DfPn::new(DfPnConfig::new().proof(proof)).unwrap()),
        ),
        (
            "cns",
            Box::new(Conspiracy::new(ConspiracyConfig::new().progress_interval(3)).unwrap()),
        ),
    ];
    for (name, mut solver) in solvers {
        let mut g = RandomDag::new(5, 10, 2_000, false);
        let mut events = Vec::new();
        let mut sink = |e: &Event<'_, u8>| {
            events.push(match e {
                Event::Nodes(p) => (false, p.nodes),
                Event::Done { nodes, .. } => (true, *nodes),
                _ => panic!("{name}: an iteration event"),
            });
        };
        let solution = solver.solve(&mut g, &mut Request::new(&none).events(&mut sink));
        assert!(solution.outcome.is_some(), "{name}");
        let (last, rest) = events.split_last().expect("events");
        assert_eq!(*last, (true, solution.stats.nodes), "{name}");
        assert!(!rest.is_empty() && rest.iter().all(|e| !e.0), "{name}");
    }
}

#[test]
fn cns_ranges_shrink_with_the_threshold() {
    for seed in 0..60u64 {
        let mut g = RandomDag::new(seed, 9, 80, false);
        let depth = 5;
        let values = ValueSet::depth_limited(-2..=2, depth);
        let exact = negamax_depth(&mut g, depth, 0);
        for ct in [1, 2, 3, 5, gametree_pns_conspiracy::INFINITE] {
            let config = ConspiracyConfig::new().values(values.clone()).threshold(ct);
            let r = Conspiracy::new(config)
                .unwrap()
                .search(&mut g, &mut Request::new(&Limits::depth(depth)))
                .unwrap();
            let i = |s| r.values.binary_search(&s).unwrap();
            let (lo, v, hi) = (i(r.low), i(r.value), i(r.high));
            assert!(lo <= v && v <= hi);
            assert_eq!((r.up[v], r.down[v]), (0, 0));
            // Outside the range the numbers reach the threshold; inside they do not.
            assert!(hi + 1 >= r.values.len() || r.up[hi + 1] >= ct);
            assert!(lo == 0 || r.down[lo - 1] >= ct);
            assert!((lo..=hi).all(|j| r.up[j] < ct && r.down[j] < ct));
            assert!(r.low <= exact && exact <= r.high || ct < gametree_pns_conspiracy::INFINITE);
            assert_eq!(r.stopped, None);
            if ct == gametree_pns_conspiracy::INFINITE {
                assert_eq!(r.value, exact);
            }
        }
    }
}

#[test]
fn cns_rejects_bad_value_sets() {
    let bad = [
        vec![],
        vec![Score::new(1), Score::new(-1)],
        vec![Score::new(-1), Score::new(2)],
    ];
    for v in bad {
        let c = Conspiracy::new(ConspiracyConfig::new().values(ValueSet::Scores(v)));
        assert_eq!(c.unwrap_err(), gametree_pns_conspiracy::Error::BadValueSet);
    }
    // Evaluations outside the set are an error, not a wrong answer.
    let mut c = Conspiracy::new(ConspiracyConfig::new().values(ValueSet::depth_limited(-1..=1, 3)))
        .unwrap();
    let seeds_failing = (0..20u64)
        .filter(|&s| {
            let mut g = RandomDag::new(s, 6, 30, false);
            c.search(&mut g, &mut Request::new(&Limits::depth(3)))
                .is_err()
        })
        .count();
    assert!(seeds_failing > 0);
}
