//! Lazy SMP: helper threads search the same root as the main thread with
//! their own move ordering tables and share its lockless table. Searching
//! to a depth, half of the helpers start each iteration one ply deeper, so
//! that the threads desynchronise and fill the table with different
//! subtrees. Solving (to the end), every thread's completed value is
//! exact: the first thread to finish stops the others and gives the
//! result; near the root a thread puts off the moves another thread is
//! searching ([`Busy`]), so that the threads spread over siblings instead
//! of searching one subtree side by side. The main thread reports
//! progress and finished iterations, and completes the line.

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use gametree_game::{Event, Game, Limits, Oracle};
use gametree_ttable::SharedTable;

use crate::Report;
use crate::busy::Busy;
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
    oracle: Option<&dyn Oracle<G>>,
    events: &mut dyn FnMut(&Event<'_, G::Move>),
) -> Report<G::Move>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let config = searcher.config;
    let uses = searcher.uses;
    let helpers = config.threads - 1;
    // Solving, every thread's completed search is exact: the first to
    // finish stops the others and its value is the result.
    let solving = mode == Mode::ToEnd;
    let busy = Busy::new();
    let busy = &busy;
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers);
        for i in 0..helpers {
            let mut g = game.clone();
            handles.push(scope.spawn(move || {
                let mut h = Heuristics::new(&config, &uses);
                let mut w: Worker<'_, G, &SharedTable> =
                    Worker::new(&config, uses, Some(shared), &mut h, limits, stop, start);
                w.helper = Some(i + 1);
                w.oracle = oracle;
                w.busy = Some(busy);
                let r = w.iterate(&mut g, mode);
                if solving && r.completed && r.stopped.is_none() {
                    stop.store(true, AtomicOrdering::Relaxed);
                }
                r
            }));
        }
        let mut main: Worker<'_, G, &SharedTable> = Worker::new(
            &config,
            uses,
            Some(shared),
            &mut searcher.heuristics,
            limits,
            stop,
            start,
        );
        main.events = Some(events);
        main.oracle = oracle;
        main.busy = Some(busy);
        // The line is completed below, once the threads are done.
        let complete_line = config.complete_line;
        main.config.complete_line = false;
        let mut report = main.iterate(game, mode);
        stop.store(true, AtomicOrdering::Relaxed);
        let mut found = None;
        for h in handles {
            let Ok(r) = h.join() else { continue };
            report.stats.nodes += r.stats.nodes;
            if found.is_none() && r.completed && r.stopped.is_none() {
                found = Some(r);
            }
        }
        let main_done = report.completed && report.stopped.is_none();
        if solving
            && !main_done
            && let Some(r) = found
        {
            // A helper solved it first (the main thread was stopped by it).
            report.value = r.value;
            report.best = r.best;
            report.line = r.line;
            report.outcome = r.outcome;
            report.depth = r.depth;
            report.completed = true;
            report.stopped = None;
        }
        if complete_line && report.completed && report.stopped.is_none() {
            stop.store(false, AtomicOrdering::Relaxed);
            main.stopped = false;
            main.stop_reason = None;
            let before = main.stats.nodes;
            main.complete_line(game, report.value, &mut report.line);
            if report.best.is_none() {
                report.best = report.line.first().copied();
            }
            report.stats.nodes += main.stats.nodes - before;
        }
        report.elapsed = start.elapsed();
        report
    })
}
