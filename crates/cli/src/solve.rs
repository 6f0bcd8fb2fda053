//! `gametree solve`: the game-theoretic value of positions.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{
    Find, Limits, MoveBuffer, Oracle, Outcome, Request, Score, Solution, Solver, solve_with_line,
};
use gametree_pns_conspiracy::{
    Claim, Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, PnsConfig, ProofConfig,
    SecondLevel, Trust, build_strategy, verify_with,
};

use crate::error::{CliError, Result, parse_size};
use crate::games::{CliGame, GameKind, Spec};
use crate::input::{Source, for_each_position};
use crate::output::{Record, Value};
use crate::{Algo, check_threads, progress};

/// Default memory bound of the best-first searches (PNS, PN², CNS).
const TREE_BYTES: usize = 1 << 30;
/// Default table of alpha-beta and df-pn: 64 MiB (a game may choose
/// another size, [`CliGame::solve_table_bytes`]).
pub(crate) const TABLE_BYTES: usize = 64 << 20;

/// The longest line the proof-number searches extend, move by move, in a
/// game without a bound on its length (a winner without distances could go
/// round in circles).
const LINE_PLIES: usize = 100;

/// The options of one `solve` run.
#[derive(Debug)]
pub(crate) struct Options {
    algo: Algo,
    weak: bool,
    tt: Option<usize>,
    threads: usize,
    json: bool,
    /// Solve every legal move too.
    pub(crate) all_moves: bool,
    /// Build and verify the proof tree of the value.
    pub(crate) proof: bool,
    /// Node and time limits per position (and per move with `all_moves`).
    pub(crate) limits: Limits,
    /// Endgame databases to probe below the root (`--tables`).
    pub(crate) tables: Option<std::path::PathBuf>,
}

impl Options {
    /// Checks the options.
    pub(crate) fn new(
        algo: Algo,
        weak: bool,
        tt: Option<&str>,
        threads: usize,
        json: bool,
    ) -> Result<Options> {
        let threads = check_threads(threads)?;
        let searches = matches!(algo, Algo::Pns | Algo::Pn2 | Algo::Dfpn | Algo::Cns);
        if searches && threads > 1 {
            return Err(CliError::input(format!(
                "--threads {threads}: --algo {} searches on one thread (more threads: alphabeta, retrograde)",
                algo.name()
            )));
        }
        if algo == Algo::Retrograde && tt.is_some() {
            return Err(CliError::input(
                "--tt: --algo retrograde does not use it (the database has the game's size)",
            ));
        }
        let tt = tt
            .map(|t| parse_size(t).and_then(|b| crate::error::check_memory("--tt", b)))
            .transpose()?;
        if weak && algo != Algo::Alphabeta {
            let what = if searches {
                "finds win/draw/loss with the same search"
            } else {
                "builds the same database"
            };
            eprintln!(
                "note: --weak: --algo {} {what} either way; --weak only leaves the score (and any search for it) out",
                algo.name()
            );
        }
        Ok(Options {
            algo,
            weak,
            tt,
            threads,
            json,
            all_moves: false,
            proof: false,
            limits: Limits::none(),
            tables: None,
        })
    }
}

/// What a solver found: its [`Solution`] (whose `score` is the search's
/// exact score, side to move's view, when the solver finds distances and
/// the run is not `--weak`), and the game's score.
#[derive(Debug)]
struct Answer<M> {
    solution: Solution<M>,
    /// The game's exact score (side to move's view).
    score: Option<i64>,
    /// Is `score` the game's own (not a function of the solution's)?
    custom: bool,
    /// What the output must say beside the answer (a score printed
    /// without a move that achieves it).
    note: Option<String>,
}

/// The solver of one run, built once: its table is kept from one position
/// to the next (results are exact either way; only node counts depend on
/// what the table keeps).
enum Engine<G: CliGame> {
    /// Alpha-beta, which finds the exact score and its whole line (or,
    /// with `--weak`, the outcome alone), and the oracle its requests carry
    /// (`--tables`).
    AlphaBeta(Box<AlphaBeta<G>>, Option<Arc<dyn Oracle<G>>>),
    /// A proof-number or conspiracy-number solver, and the oracle its
    /// requests carry (df-pn with `--tables`).
    Other(Box<dyn Solver<G>>, Option<Arc<dyn Oracle<G>>>),
    /// The game's database, built for each position.
    Retrograde,
}

impl<G: CliGame> Engine<G> {
    /// The solver `opts` asks for.
    fn new(opts: &Options, default_table: usize) -> Result<Engine<G>> {
        let tree_bytes = opts.tt.unwrap_or(TREE_BYTES);
        let table_bytes = opts.tt.unwrap_or(default_table);
        let memory = |e: gametree_pns_conspiracy::Error| CliError::input(format!("--tt: {e}"));
        let oracle = match &opts.tables {
            Some(dir) => {
                if !matches!(opts.algo, Algo::Alphabeta | Algo::Dfpn) {
                    return Err(CliError::input(
                        "--tables works with --algo alphabeta (the default) or dfpn",
                    ));
                }
                Some(G::oracle(dir)?)
            }
            None => None,
        };
        Ok(match opts.algo {
            Algo::Alphabeta => {
                let config = Config::default().memory(table_bytes).threads(opts.threads);
                let s = AlphaBeta::new(config)
                    .map_err(|e| CliError::input(format!("--tt {table_bytes} bytes: {e}")))?;
                // Alpha-beta consults the tables through its requests' oracle.
                Engine::AlphaBeta(Box::new(s), oracle)
            }
            Algo::Pns => Engine::Other(
                Box::new(
                    Pns::new(PnsConfig::new().proof(ProofConfig::new().memory(tree_bytes)))
                        .map_err(memory)?,
                ),
                None,
            ),
            Algo::Pn2 => Engine::Other(
                Box::new(
                    Pns::new(
                        PnsConfig::new()
                            .second_level(Some(SecondLevel::default()))
                            .proof(ProofConfig::new().memory(tree_bytes)),
                    )
                    .map_err(memory)?,
                ),
                None,
            ),
            // df-pn consults the tables through its requests' oracle.
            Algo::Dfpn => Engine::Other(
                Box::new(
                    DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(table_bytes)))
                        .map_err(memory)?,
                ),
                oracle,
            ),
            Algo::Cns => Engine::Other(
                Box::new(
                    Conspiracy::new(ConspiracyConfig::new().memory(tree_bytes)).map_err(memory)?,
                ),
                None,
            ),
            Algo::Retrograde => Engine::Retrograde,
        })
    }
}

/// A request within `limits` that carries `oracle`, if any.
fn request<'a, G: CliGame>(
    limits: &'a Limits,
    oracle: &'a Option<Arc<dyn Oracle<G>>>,
) -> Request<'a, G> {
    let request = Request::new(limits);
    match oracle {
        Some(o) => request.oracle(&**o),
        None => request,
    }
}

/// Runs `solve` over the positions of `arg`.
pub(crate) fn run<S: Spec>(spec: &S, kind: GameKind, arg: &str, opts: &Options) -> Result<()> {
    // One engine (and its table) for the run, sized for the first position
    // (or by `--tt`) and rebuilt only when a later position wants a larger
    // table: at most one rebuild per size the game chooses, where
    // rebuilding whenever consecutive positions choose different sizes
    // cost more system time than the better size saved, and keeping the
    // first size left an opening searched after an ending with the
    // ending's small table.
    let mut engine: Option<(usize, Engine<S::G>)> = None;
    for_each_position(spec, arg, |mut g, text, source| {
        let start = Instant::now();
        let want = g.solve_table_bytes();
        let grow = match &engine {
            None => true,
            Some((built, _)) => opts.tt.is_none() && want > *built,
        };
        if grow {
            engine = None; // Frees the old table before the new one.
            engine = Some((want, Engine::new(opts, want)?));
        }
        let (_, engine) = engine.as_mut().expect("just built");
        let pb = progress::spinner(format!("solving {} {text}", kind.name()));
        let solved = solve_one(&mut g, opts, engine);
        pb.finish_and_clear();
        let Answer {
            solution: solved,
            score,
            note,
            ..
        } = solved?;
        let mut r = Record::new();
        if source == Source::Stdin {
            r.str("position", text);
        }
        r.push(
            "value",
            solved
                .outcome
                .map_or(Value::Null, |o| Value::Str(o.to_string())),
        );
        r.push("score", score.map_or(Value::Null, Value::Int));
        r.push(
            "best",
            solved
                .best
                .map_or(Value::Null, |m| Value::Str(m.to_string())),
        );
        r.push(
            "pv",
            Value::List(solved.line.iter().map(ToString::to_string).collect()),
        );
        if let Some(note) = &note {
            r.str("note", note);
        }
        let mut stopped = solved.outcome.is_none();
        let mut nodes = solved.stats.nodes;
        if opts.all_moves {
            let moves = solve_moves(&mut g, opts, engine)?;
            stopped |= moves.iter().any(|m| m.outcome.is_none());
            nodes += moves.iter().map(|m| m.nodes).sum::<u64>();
            r.push(
                "moves",
                Value::Records(moves.iter().map(MoveValue::record).collect()),
            );
        }
        if opts.proof
            && let Some(outcome) = solved.outcome
        {
            let proof = prove(&mut g, outcome, opts, engine)?;
            let mut p = Record::new();
            p.int("positions", proof.positions);
            p.int("bound_leaves", proof.bound_leaves);
            p.push("verified", Value::Str("yes".into()));
            r.push("proof", Value::Object(p));
        }
        r.int("nodes", nodes);
        r.int("time_ms", start.elapsed().as_millis());
        if opts.json {
            println!("{}", r.json());
        } else if source == Source::Stdin {
            println!("{}", r.line());
        } else {
            print!("{}", r.lines());
        }
        if stopped {
            return Err(CliError::input(
                "the solver stopped before finding the value (a limit was reached)",
            ));
        }
        Ok(())
    })
}

fn solve_one<G: CliGame>(
    g: &mut G,
    opts: &Options,
    engine: &mut Engine<G>,
) -> Result<Answer<G::Move>> {
    if let Some(o) = g.outcome() {
        let raw = (!opts.weak).then(|| Score::terminal(o, 0));
        let (score, custom) = if opts.weak {
            (None, false)
        } else {
            game_score(g, engine, raw, &opts.limits)
        };
        return Ok(Answer {
            solution: Solution {
                score: raw,
                ..Solution::terminal(o)
            },
            score,
            custom,
            note: None,
        });
    }
    let limits = &opts.limits;
    if !opts.weak
        && let Some(exact) = solved_exact(g, engine, limits)
    {
        // The game's own score: the move and the line come from the same
        // solves (never from another solve of the win/draw/loss question,
        // whose best move may achieve another score).
        let note = (exact.score.is_some() && exact.best.is_none()).then(|| {
            "no move was found for this score (a limit stopped the solve that finds it)".to_string()
        });
        return Ok(Answer {
            solution: Solution {
                outcome: exact.outcome,
                best: exact.best,
                line: exact.pv,
                stats: gametree_game::Stats::nodes(exact.nodes),
                ..Solution::default()
            },
            score: exact.score,
            custom: true,
            note,
        });
    }
    let solution = match engine {
        Engine::AlphaBeta(s, oracle) => {
            let find = if opts.weak {
                Find::Outcome
            } else {
                Find::Score
            };
            s.solve(g, &mut request(limits, oracle).find(find))
        }
        // The proof-number searches return the first move only: the line
        // goes on, move by move, with the same solver.
        Engine::Other(s, oracle) => {
            solve_with_line(s.as_mut(), g, &mut request(limits, oracle), LINE_PLIES)
        }
        Engine::Retrograde => {
            let probe = g.retrograde(opts.threads)?;
            let raw = probe.value.map(|v| v.to_score()).filter(|_| !opts.weak);
            return Ok(Answer {
                solution: Solution {
                    outcome: probe.value.map(|v| v.outcome()),
                    score: raw,
                    best: probe.best,
                    line: probe.pv,
                    stats: gametree_game::Stats::nodes(probe.positions),
                    ..Solution::default()
                },
                score: raw.and_then(|s| g.exact_score(s)),
                custom: false,
                note: None,
            });
        }
    };
    let raw = solution.score.filter(|_| !opts.weak);
    Ok(Answer {
        score: raw.and_then(|s| g.exact_score(s)),
        solution: Solution {
            score: raw,
            ..solution
        },
        custom: false,
        note: None,
    })
}

/// The size of a verified proof (both strategies of a draw together).
struct Proof {
    positions: u64,
    bound_leaves: u64,
}

/// Writes the proof tree(s) of `outcome` at `g` with the run's solver as
/// oracle (a weak solve of each position it asks about) and checks them
/// with the verifier, trusting the game's win bounds at the leaves that
/// rest on them.
fn prove<G: CliGame>(
    g: &mut G,
    outcome: Outcome,
    opts: &Options,
    engine: &mut Engine<G>,
) -> Result<Proof> {
    if matches!(engine, Engine::Retrograde) {
        return Err(CliError::input(
            "--proof needs a search as its oracle, not --algo retrograde",
        ));
    }
    let side = g.side_to_move();
    let claims: &[(gametree_game::Player, Outcome)] = match outcome {
        Outcome::Win => &[(side, Outcome::Win)],
        Outcome::Loss => &[(side.opponent(), Outcome::Win)],
        Outcome::Draw => &[(side, Outcome::Draw), (side.opponent(), Outcome::Draw)],
    };
    let limits = opts.limits.clone();
    let mut oracle = |p: &mut G| -> Option<Outcome> {
        match engine {
            Engine::AlphaBeta(s, oracle) => {
                let mut weak = request(&limits, oracle).find(Find::Outcome);
                s.solve(p, &mut weak).outcome
            }
            Engine::Other(s, oracle) => s.solve(p, &mut request(&limits, oracle)).outcome,
            Engine::Retrograde => None,
        }
    };
    let mut proof = Proof {
        positions: 0,
        bound_leaves: 0,
    };
    for &(prover, at_least) in claims {
        let claim = Claim { prover, at_least };
        let strategy = build_strategy(g, claim, Trust::WinBounds, PROOF_POSITIONS, &mut oracle)
            .map_err(|e| CliError::input(format!("--proof ({claim}): {e}")))?;
        let stats = verify_with(g, &strategy, Trust::WinBounds).map_err(|e| {
            CliError::input(format!("--proof ({claim}): the verifier refused it: {e}"))
        })?;
        proof.positions += strategy.len() as u64;
        proof.bound_leaves += stats.bound_leaves;
    }
    Ok(proof)
}

/// The largest proof tree `--proof` writes.
const PROOF_POSITIONS: usize = 50_000_000;

/// The game's own exact solve of `g` ([`CliGame::solved_exact`]) with the
/// run's solver; `None` for games whose score is a function of the
/// search's, and with `--algo retrograde`.
fn solved_exact<G: CliGame>(
    g: &G,
    engine: &mut Engine<G>,
    limits: &Limits,
) -> Option<crate::games::Exact<G::Move>> {
    match engine {
        Engine::AlphaBeta(s, _) => g.solved_exact(s.as_mut(), limits),
        Engine::Other(s, _) => g.solved_exact(s.as_mut(), limits),
        Engine::Retrograde => None,
    }
}

/// The game's score of a position where the game is over: its own solved
/// score when it has one (`true`), else its convention for the search's
/// exact score.
fn game_score<G: CliGame>(
    g: &G,
    engine: &mut Engine<G>,
    score: Option<Score>,
    limits: &Limits,
) -> (Option<i64>, bool) {
    match solved_exact(g, engine, limits) {
        Some(exact) => (exact.score, true),
        None => (score.and_then(|s| g.exact_score(s)), false),
    }
}

/// The value of one legal move for the side to move.
#[derive(Debug)]
struct MoveValue<M> {
    mv: M,
    outcome: Option<Outcome>,
    score: Option<i64>,
    nodes: u64,
}

impl<M: std::fmt::Display> MoveValue<M> {
    fn record(&self) -> Record {
        let mut r = Record::new();
        r.str("move", &self.mv);
        r.push(
            "value",
            self.outcome
                .map_or(Value::Null, |o| Value::Str(o.to_string())),
        );
        r.push("score", self.score.map_or(Value::Null, Value::Int));
        r
    }
}

/// The run's solver as a [`Solver`], for [`gametree_game::solve_moves`]:
/// each solve is [`solve_one`], whose game score is kept by the position's
/// hash (the library's solutions carry the search's score only) and whose
/// first error is kept for the caller.
struct RunSolver<'a, G: CliGame> {
    opts: &'a Options,
    engine: &'a mut Engine<G>,
    /// The game score of each position solved, and whether it is the
    /// game's own ([`Answer::custom`]).
    scores: HashMap<u64, (Option<i64>, bool)>,
    /// The first error of a solve.
    error: Option<CliError>,
    /// Solves so far and in all, for the progress line.
    done: usize,
    count: usize,
}

impl<G: CliGame> Solver<G> for RunSolver<'_, G> {
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        self.done += 1;
        let pb = progress::spinner(format!("solving move {} of {}", self.done, self.count));
        let answer = solve_one(game, self.opts, self.engine);
        pb.finish_and_clear();
        match answer {
            Ok(a) => {
                self.scores.insert(game.hash(), (a.score, a.custom));
                request.finish(a.solution)
            }
            Err(e) => {
                self.error.get_or_insert(e);
                request.finish(Solution::default())
            }
        }
    }
}

/// Solves every legal move of `g` (restored afterwards) with
/// [`gametree_game::solve_moves`]: the position after it, seen from the
/// mover, best first: wins, draws, losses, unsolved; within one value the
/// higher game score first; ties in move order.
fn solve_moves<G: CliGame>(
    g: &mut G,
    opts: &Options,
    engine: &mut Engine<G>,
) -> Result<Vec<MoveValue<G::Move>>> {
    let mut list = G::Moves::default();
    g.generate(&mut list);
    let mut run = RunSolver {
        opts,
        engine,
        scores: HashMap::new(),
        error: None,
        done: 0,
        count: list.len(),
    };
    let solved = gametree_game::solve_moves(&mut run, g, &mut Request::new(&opts.limits));
    if let Some(e) = run.error.take() {
        return Err(e);
    }
    let mover = g.side_to_move();
    let mut out = Vec::with_capacity(solved.len());
    for s in solved {
        let m = s.best.expect("solve_moves names each move");
        // The game's own score of the position after the move; a finished
        // game, which the library values without the solver, is solved
        // here (for the game's own score of it).
        let undo = g.make(m);
        let kept = g.side_to_move() == mover;
        let (after, custom) = match run.scores.get(&g.hash()) {
            Some(&found) => found,
            None => {
                let answer = solve_one(g, opts, run.engine);
                answer.map(|a| (a.score, a.custom)).unwrap_or((None, false))
            }
        };
        g.unmake(m, undo);
        let score = if custom {
            after.map(|v| if kept { v } else { -v })
        } else {
            s.score
                .filter(|_| !opts.weak)
                .and_then(|v| g.exact_score(v))
        };
        out.push(MoveValue {
            mv: m,
            outcome: s.outcome,
            score: score.filter(|_| s.outcome.is_some()),
            nodes: s.stats.nodes,
        });
    }
    // The library orders by the search's score; the game's own score may
    // order otherwise within an outcome, and ties keep the move order.
    let index = |m: G::Move| list.as_slice().iter().position(|&x| x == m);
    let rank = |v: &MoveValue<G::Move>| {
        let o = match v.outcome {
            Some(Outcome::Win) => 3,
            Some(Outcome::Draw) => 2,
            Some(Outcome::Loss) => 1,
            None => 0,
        };
        (std::cmp::Reverse((o, v.score)), index(v.mv))
    };
    out.sort_by_key(rank);
    Ok(out)
}
