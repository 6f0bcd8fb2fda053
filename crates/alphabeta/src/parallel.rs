//! Lazy SMP: helper threads search the same root with their own move
//! ordering tables and share one lockless table; the main thread reports.
//! Half of the helpers start each iteration one ply deeper, so that the
//! threads desynchronise and fill the table with different subtrees.

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use gametree_game::{Game, Limits, Progress};
use gametree_ttable::{SharedTable, TranspositionTable};

use crate::Report;
use crate::order::Heuristics;
use crate::searcher::AlphaBeta;
use crate::worker::{Mode, Worker};

/// Searches `game` with `config.threads` threads over `shared`.
#[allow(clippy::too_many_arguments)] // one call site, the searcher's `run`
pub(crate) fn run<G>(
    searcher: &mut AlphaBeta<G>,
    game: &mut G,
    limits: &Limits,
    mode: Mode,
    shared: &SharedTable,
    stop: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&Progress),
) -> Report<G::Move>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let config = searcher.config;
    let uses = searcher.uses;
    let helpers = config.threads - 1;
    let oracle = searcher.oracle.clone();
    let oracle = oracle.as_deref();
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers);
        for i in 0..helpers {
            let mut g = game.clone();
            handles.push(scope.spawn(move || {
                let mut h = Heuristics::new(&config, &uses);
                let mut w: Worker<'_, G, TranspositionTable> = Worker::new(
                    &config,
                    uses,
                    None,
                    Some(shared),
                    &mut h,
                    limits,
                    stop,
                    start,
                );
                w.helper = Some(i + 1);
                w.oracle = oracle;
                let r = w.iterate(&mut g, mode);
                r.stats.nodes
            }));
        }
        let mut main: Worker<'_, G, TranspositionTable> = Worker::new(
            &config,
            uses,
            None,
            Some(shared),
            &mut searcher.heuristics,
            limits,
            stop,
            start,
        );
        main.progress = Some(progress);
        main.oracle = oracle;
        let mut report = main.iterate(game, mode);
        stop.store(true, AtomicOrdering::Relaxed);
        let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        report.stats.nodes += helper_nodes;
        report.nodes = report.stats.nodes;
        report
    })
}
