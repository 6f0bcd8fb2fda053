//! `gametree analyse`: iterative deepening, one UCI-style line per depth.

use std::time::{Duration, Instant};

use gametree_alphabeta::{AlphaBeta, Config, MAX_PLY};
use gametree_game::{Limits, Score};

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

/// Builds the analysis searcher: the default configuration without its
/// own iterative deepening (this module deepens), with quiescence search
/// when `quiescence` says so.
pub(crate) fn searcher<G: CliGame>(
    threads: usize,
    tt_bytes: usize,
    quiescence: bool,
) -> Result<AlphaBeta<G>> {
    let config = Config::default()
        .iterative_deepening(false)
        .quiescence(quiescence)
        .memory(tt_bytes)
        .threads(threads);
    AlphaBeta::new(config).map_err(|e| CliError::input(format!("--tt {tt_bytes} bytes: {e}")))
}

/// Runs `analyse` over the positions of `arg`.
pub(crate) fn run<S: Spec>(spec: &S, arg: &str, opts: &Options) -> Result<()> {
    let quiescence = opts.quiescence.unwrap_or(S::G::QUIESCENCE);
    let mut s = searcher::<S::G>(opts.threads, opts.tt_bytes, quiescence)?;
    if let Some(dir) = &opts.tables {
        s.set_oracle(Some(S::G::oracle(dir)?));
    }
    for_each_position(spec, arg, |mut g, text, source| {
        s.clear();
        if source == Source::Stdin && !opts.json {
            println!("position {text}");
        }
        analyse_one(&mut s, &mut g, opts, text, source);
        Ok(())
    })
}

fn analyse_one<G: CliGame>(
    s: &mut AlphaBeta<G>,
    g: &mut G,
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
    let start = Instant::now();
    let (max_depth, deadline) = match (opts.depth, opts.time_ms) {
        // `main` checked it: 1 to MAX_PLY - 1.
        (Some(d), _) => (d, None),
        (None, t) => (
            MAX_PLY as u32 - 1,
            Some(start + Duration::from_millis(t.unwrap_or(DEFAULT_TIME_MS))),
        ),
    };
    let mut nodes = 0u64;
    let mut best = None;
    // On a terminal, once a depth takes a while: which one, and how long.
    let pb = progress::spinner("analysing: depth 1");
    for depth in 1..=max_depth {
        pb.set_message(format!("analysing: depth {depth}"));
        let mut limits = Limits::depth(depth);
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            limits = limits.with_time(left);
        }
        let report = s.search(g, &limits);
        nodes += report.nodes;
        if !report.completed || report.stopped.is_some() {
            break;
        }
        let elapsed = start.elapsed();
        let ms = elapsed.as_millis();
        let nps = (u128::from(nodes) * 1000 / ms.max(1)) as u64;
        let pv: Vec<String> = report.pv.iter().map(ToString::to_string).collect();
        let (score_text, mate) = uci_score(report.value);
        if report.best.is_some() {
            best = report.best;
        }
        if opts.json {
            let mut r = Record::new();
            if source == Source::Stdin {
                r.str("position", text);
            }
            r.int("depth", depth)
                .int("score", report.value.get())
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
        if let Some(p) = report.value.plies_to_end()
            && p <= depth
        {
            break;
        }
    }
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
