//! `gametree analyse`: the searcher's iterative deepening, one UCI-style
//! line per finished iteration.

use std::sync::atomic::Ordering;
use std::time::Duration;

use gametree_alphabeta::{AlphaBeta, Config, MAX_PLY};
use gametree_game::{Event, Limits, Oracle, Request, Score, Solver};

use crate::error::{CliError, Result};
use crate::games::{CliGame, Spec};
use crate::input::{Source, for_each_position};
use crate::output::{Record, Value};
use crate::progress;

/// Time budget when neither `--depth` nor `--time-ms` is given.
const DEFAULT_TIME_MS: u64 = 2000;

/// The options of one `analyse` run.
#[derive(Debug)]
pub(crate) struct Options {
    /// Depths 1 to this.
    pub(crate) depth: Option<u32>,
    /// Or deepen for this long.
    pub(crate) time_ms: Option<u64>,
    /// Lazy SMP threads.
    pub(crate) threads: usize,
    /// Table size.
    pub(crate) tt_bytes: usize,
    /// JSON lines.
    pub(crate) json: bool,
    /// Endgame databases to probe below the root (`--tables`).
    pub(crate) tables: Option<std::path::PathBuf>,
    /// Quiescence search at the horizon; `None`: the game's default
    /// ([`CliGame::QUIESCENCE`]).
    pub(crate) quiescence: Option<bool>,
}

/// A score the UCI way: `cp N` or `mate M` (M in moves of the side to
/// move, negative when it is mated), and the JSON `mate` field.
pub(crate) fn uci_score(score: Score) -> (String, Option<i64>) {
    match (score.outcome(), score.plies_to_end()) {
        (Some(gametree_game::Outcome::Win), Some(p)) => {
            let m = i64::from(p.div_ceil(2));
            (format!("mate {m}"), Some(m))
        }
        (Some(gametree_game::Outcome::Loss), Some(p)) => {
            let m = -i64::from(p.div_ceil(2));
            (format!("mate {m}"), Some(m))
        }
        _ => (format!("cp {}", score.get()), None),
    }
}

/// Builds the analysis searcher: the default configuration (iterative
/// deepening from depth 1), with quiescence search when `quiescence` says
/// so.
pub(crate) fn searcher<G: CliGame>(
    threads: usize,
    tt_bytes: usize,
    quiescence: bool,
) -> Result<AlphaBeta<G>> {
    let config = Config::default()
        .quiescence(quiescence)
        .memory(tt_bytes)
        .threads(threads);
    AlphaBeta::new(config).map_err(|e| CliError::input(format!("--tt {tt_bytes} bytes: {e}")))
}

/// Runs `analyse` over the positions of `arg`.
pub(crate) fn run<S: Spec>(spec: &S, arg: &str, opts: &Options) -> Result<()> {
    let quiescence = opts.quiescence.unwrap_or(S::G::QUIESCENCE);
    let mut s = searcher::<S::G>(opts.threads, opts.tt_bytes, quiescence)?;
    let oracle = opts.tables.as_deref().map(S::G::oracle).transpose()?;
    let oracle = oracle.as_deref();
    for_each_position(spec, arg, |mut g, text, source| {
        s.clear();
        if source == Source::Stdin && !opts.json {
            println!("position {text}");
        }
        analyse_one(&mut s, &mut g, oracle, opts, text, source);
        Ok(())
    })
}

fn analyse_one<G: CliGame>(
    s: &mut AlphaBeta<G>,
    g: &mut G,
    oracle: Option<&dyn Oracle<G>>,
    opts: &Options,
    text: &str,
    source: Source,
) {
    if let Some(o) = g.outcome() {
        if opts.json {
            let mut r = Record::new();
            if source == Source::Stdin {
                r.str("position", text);
            }
            r.str("game_over", o);
            println!("{}", r.json());
        } else {
            println!("info string game over: {o} for the side to move");
            println!("bestmove (none)");
        }
        return;
    }
    // Depths 1 to `--depth`, or to the deepest within the time: a depth
    // limit in both cases, so that the search goes on past a decisive
    // value that is not proven yet (and stops below at a proven one).
    let mut limits = match (opts.depth, opts.time_ms) {
        // `main` checked it: 1 to MAX_PLY - 1.
        (Some(d), _) => Limits::depth(d),
        (None, t) => Limits::depth(MAX_PLY as u32 - 1)
            .with_time(Duration::from_millis(t.unwrap_or(DEFAULT_TIME_MS))),
    };
    let cancel = limits.cancel_flag();
    // On a terminal, once a depth takes a while: which one, and how long.
    let pb = progress::spinner("analysing: depth 1");
    let mut print = |e: &Event<'_, G::Move>| {
        let Event::Iteration {
            depth,
            value,
            line,
            nodes,
            elapsed,
        } = *e
        else {
            return;
        };
        let ms = elapsed.as_millis();
        let nps = (u128::from(nodes) * 1000 / ms.max(1)) as u64;
        let pv: Vec<String> = line.iter().map(ToString::to_string).collect();
        let (score_text, mate) = uci_score(value);
        if opts.json {
            let mut r = Record::new();
            if source == Source::Stdin {
                r.str("position", text);
            }
            r.int("depth", depth)
                .int("score", value.get())
                .push("mate", mate.map_or(Value::Null, Value::Int))
                .int("nodes", nodes)
                .int("nps", nps)
                .int("time_ms", ms)
                .push("pv", Value::List(pv));
            pb.suspend(|| println!("{}", r.json()));
        } else {
            pb.suspend(|| {
                println!(
                    "info depth {depth} score {score_text} nodes {nodes} nps {nps} time {ms} pv {}",
                    pv.join(" ")
                );
            });
        }
        // A proven result does not change with more depth.
        if value.plies_to_end().is_some_and(|p| p <= depth) {
            cancel.store(true, Ordering::Relaxed);
        }
        pb.set_message(format!("analysing: depth {}", depth + 1));
    };
    let mut request = Request::new(&limits).events(&mut print);
    if let Some(o) = oracle {
        request = request.oracle(o);
    }
    let report = s.search(g, &mut request);
    let best = report.best.or_else(|| report.line.first().copied());
    pb.finish_and_clear();
    if !opts.json {
        match best {
            Some(m) => println!("bestmove {m}"),
            None => println!("bestmove (none)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_scores() {
        assert_eq!(uci_score(Score::win_in(1)), ("mate 1".into(), Some(1)));
        assert_eq!(uci_score(Score::win_in(3)), ("mate 2".into(), Some(2)));
        assert_eq!(uci_score(Score::loss_in(2)), ("mate -1".into(), Some(-1)));
        assert_eq!(uci_score(Score::DRAW), ("cp 0".into(), None));
        assert_eq!(uci_score(Score::heuristic(35)).1, None);
    }
}
