//! `gametree solve`: the game-theoretic value of positions.

use std::time::Instant;

use alphabeta::{AlphaBeta, Config};
use game::{Limits, Outcome};
use pns_conspiracy::{
    Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns, PnsConfig, SecondLevel, Solution,
};

use crate::error::{CliError, Result, parse_size};
use crate::games::{CliGame, GameKind, Spec};
use crate::input::{Source, for_each_position};
use crate::output::{Record, Value};
use crate::{Algo, check_threads, progress};

/// Default memory bound of the best-first searches (PNS, PN², CNS).
const TREE_BYTES: usize = 1 << 30;
/// Default table of alpha-beta and df-pn.
const TABLE_BYTES: usize = 16 << 20;

/// The options of one `solve` run.
#[derive(Debug)]
pub(crate) struct Options {
    algo: Algo,
    weak: bool,
    tt: Option<usize>,
    threads: usize,
    json: bool,
    /// Node and time limits per position.
    pub(crate) limits: Limits,
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
        Ok(Options {
            algo,
            weak,
            tt: tt.map(parse_size).transpose()?,
            threads: check_threads(threads)?,
            json,
            limits: Limits::none(),
        })
    }
}

/// What a solver found.
#[derive(Debug)]
pub(crate) struct Solved<M> {
    /// Win, draw or loss for the side to move (`None`: a limit stopped it).
    pub(crate) outcome: Option<Outcome>,
    /// The game's exact score, when the solver finds distances.
    pub(crate) score: Option<i64>,
    /// A best move.
    pub(crate) best: Option<M>,
    /// The principal variation.
    pub(crate) pv: Vec<M>,
    /// Nodes searched.
    pub(crate) nodes: u64,
}

/// Runs `solve` over the positions of `arg`.
pub(crate) fn run<S: Spec>(spec: &S, kind: GameKind, arg: &str, opts: &Options) -> Result<()> {
    let mut searcher: Option<AlphaBeta<S::G>> = None;
    for_each_position(spec, arg, |mut g, text, source| {
        let start = Instant::now();
        let pb = progress::spinner(format!("solving {} {text}", kind.name()));
        let solved = solve_one(&mut g, opts, &mut searcher);
        pb.finish_and_clear();
        let solved = solved?;
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
        r.push("score", solved.score.map_or(Value::Null, Value::Int));
        r.push(
            "best",
            solved
                .best
                .map_or(Value::Null, |m| Value::Str(m.to_string())),
        );
        r.push(
            "pv",
            Value::List(solved.pv.iter().map(ToString::to_string).collect()),
        );
        r.int("nodes", solved.nodes);
        r.int("time_ms", start.elapsed().as_millis());
        if opts.json {
            println!("{}", r.json());
        } else if source == Source::Stdin {
            println!("{}", r.line());
        } else {
            print!("{}", r.lines());
        }
        if solved.outcome.is_none() {
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
    searcher: &mut Option<AlphaBeta<G>>,
) -> Result<Solved<G::Move>> {
    if let Some(o) = g.outcome() {
        let score = match o {
            Outcome::Win => None,
            Outcome::Draw => Some(game::Score::DRAW),
            Outcome::Loss => Some(game::Score::loss_in(0)),
        };
        return Ok(Solved {
            outcome: Some(o),
            score: if opts.weak {
                None
            } else {
                score.and_then(|s| g.exact_score(s))
            },
            best: None,
            pv: Vec::new(),
            nodes: 0,
        });
    }
    let limits = &opts.limits;
    let tree_bytes = opts.tt.unwrap_or(TREE_BYTES);
    let table_bytes = opts.tt.unwrap_or(TABLE_BYTES);
    match opts.algo {
        Algo::Alphabeta => {
            if searcher.is_none() {
                let config = Config::default()
                    .tt_bytes(table_bytes)
                    .threads(opts.threads);
                let s = AlphaBeta::new(config)
                    .map_err(|e| CliError::input(format!("--tt {table_bytes} bytes: {e}")))?;
                *searcher = Some(s.with_tactics());
            }
            let s = searcher.as_mut().expect("just built");
            s.clear();
            let report = if opts.weak {
                s.solve_weak(g, limits)
            } else {
                s.solve(g, limits)
            };
            let outcome = report.outcome.or_else(|| {
                if report.completed {
                    report.value.outcome()
                } else {
                    None
                }
            });
            let score = if opts.weak || outcome.is_none() {
                None
            } else {
                g.exact_score(report.value)
            };
            Ok(Solved {
                outcome,
                score,
                best: report.best,
                pv: report.pv,
                nodes: report.nodes,
            })
        }
        Algo::Pns => Ok(from_solution(
            Pns::new(PnsConfig::new().with_memory(tree_bytes)).solve(g, limits),
        )),
        Algo::Pn2 => Ok(from_solution(
            Pns::new(
                PnsConfig::new()
                    .with_second_level(SecondLevel::default())
                    .with_memory(tree_bytes),
            )
            .solve(g, limits),
        )),
        Algo::Dfpn => Ok(from_solution(
            DfPn::new(DfPnConfig::new().with_table_bytes(table_bytes)).solve(g, limits),
        )),
        Algo::Cns => {
            let report = Conspiracy::new(ConspiracyConfig::new().with_memory(tree_bytes))
                .search(g, limits)
                .map_err(|e| CliError::input(format!("conspiracy-number search: {e}")))?;
            let outcome = report.outcome();
            Ok(Solved {
                outcome,
                score: None,
                best: report.best_move,
                pv: report.best_move.into_iter().collect(),
                nodes: report.nodes,
            })
        }
        Algo::Retrograde => {
            let probe = g.retrograde(opts.threads)?;
            let score = probe.value.map(|v| v.to_score());
            Ok(Solved {
                outcome: probe.value.map(|v| v.outcome()),
                score: if opts.weak {
                    None
                } else {
                    score.and_then(|s| g.exact_score(s))
                },
                best: probe.best,
                pv: probe.pv,
                nodes: probe.positions,
            })
        }
    }
}

/// A proof-number solution as a [`Solved`]: the best move of the search
/// that proved the answer (none for a loss, where every move loses).
fn from_solution<M: Copy>(s: Solution<M>) -> Solved<M> {
    let best = match s.outcome {
        Some(Outcome::Win) => s.win.best_move,
        Some(Outcome::Draw) => s.draw.as_ref().and_then(|d| d.best_move),
        _ => None,
    };
    Solved {
        outcome: s.outcome,
        score: None,
        best,
        pv: best.into_iter().collect(),
        nodes: s.nodes(),
    }
}
