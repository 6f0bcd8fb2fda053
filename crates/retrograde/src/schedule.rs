//! Building several databases that depend on one another, several at a
//! time ([`schedule`]).
//!
//! A chess ending is valued through the tables of the endings its captures
//! lead to, so a set of endings is built in an order where every ending
//! comes after its sub-endings. Endings that do not depend on each other
//! (the twenty 4-man pawnless endings, once the 3-man ones exist) can be
//! built at the same time, each on fewer threads. On a machine with two
//! cores this beats building one ending at a time on both: a build's
//! threads wait for each other at the end of every level, and two builds
//! do not.

use std::fmt;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

/// One job of a [`schedule`], as its `build` closure sees it.
#[derive(Debug)]
pub struct Job<'a, T> {
    index: usize,
    threads: usize,
    done: &'a [OnceLock<T>],
}

impl<'a, T> Job<'a, T> {
    /// The job's number: its position in the `needs` list given to
    /// [`schedule`].
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// How many threads this job may use (at least 1): 1 while other jobs
    /// are waiting to start, else every thread no other job is using.
    /// Pass it to [`Generator::threads`](crate::Generator::threads).
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The result of job `job` if it has finished: always `Some` for the
    /// jobs this one needs, and `None` for a job that has not finished
    /// (or does not exist).
    #[must_use]
    pub fn finished(&self, job: usize) -> Option<&'a T> {
        self.done.get(job)?.get()
    }
}

/// Why a [`schedule`] did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScheduleError<E> {
    /// Job `job` needs job `needs`, and there is no such job.
    UnknownJob {
        /// The job whose list is wrong.
        job: usize,
        /// The number in its list that names no job.
        needs: usize,
    },
    /// These jobs (in increasing order) need each other, directly or not,
    /// or need such a job: none of them can start. Nothing was built.
    Cycle {
        /// The jobs that could never start.
        jobs: Vec<usize>,
    },
    /// Job `job` returned an error. The jobs already running were let
    /// finish and their results dropped; no other job was started.
    Build {
        /// The job that failed (the first one, if several did).
        job: usize,
        /// Its error.
        error: E,
    },
}

impl<E: fmt::Display> fmt::Display for ScheduleError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::UnknownJob { job, needs } => {
                write!(f, "job {job} needs job {needs}, which does not exist")
            }
            ScheduleError::Cycle { jobs } => {
                write!(f, "jobs {jobs:?} depend on each other in a cycle")
            }
            ScheduleError::Build { job, error } => write!(f, "job {job} failed: {error}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ScheduleError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScheduleError::Build { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// What the workers share, under the mutex.
struct State<E> {
    /// Jobs whose needs are all finished, not yet started, in increasing
    /// order (taken from the front).
    ready: std::collections::BTreeSet<usize>,
    /// For each job, how many of its needs have not finished.
    waiting: Vec<usize>,
    /// Threads no running job uses.
    free: usize,
    /// Jobs finished or running.
    started: usize,
    /// Jobs finished.
    finished: usize,
    /// The first error, which stops every worker once it is idle.
    failed: Option<(usize, E)>,
    /// A worker panicked in `build`.
    panicked: bool,
}

/// Sets `panicked` and wakes the other workers if a worker unwinds while
/// running a job, so that they stop instead of waiting for it forever.
struct PanicGuard<'a, E> {
    state: &'a Mutex<State<E>>,
    wake: &'a Condvar,
}

impl<E> Drop for PanicGuard<'_, E> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.state).panicked = true;
            self.wake.notify_all();
        }
    }
}

fn lock<E>(state: &Mutex<State<E>>) -> MutexGuard<'_, State<E>> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `build` once for each job `0..needs.len()`, job `i` only after
/// every job listed in `needs[i]` has finished, on up to `threads` threads
/// ([`gametree_game::ALL_CORES`], 0, for every core), and returns the
/// results in job order.
///
/// A job is started as soon as its needs are finished and a thread is
/// free, the lowest-numbered ready job first (so list the longest jobs
/// first among equals for the best balance). A job started while no other
/// job is ready gets every free thread ([`Job::threads`]); otherwise one.
/// `build` reads the results of the jobs it needs with
/// [`Job::finished`].
///
/// # Errors
///
/// [`ScheduleError::UnknownJob`] or [`ScheduleError::Cycle`] when `needs`
/// does not describe an acyclic graph of jobs (checked before anything is
/// built); [`ScheduleError::Build`] with the first error `build` returns,
/// after which no new job is started.
///
/// # Panics
///
/// If `build` panics, the panic is propagated once the jobs running at
/// that moment have finished; no new job is started.
///
/// # Example
///
/// Three jobs: 0 and 1 need nothing, 2 needs both.
///
/// ```
/// use gametree_retrograde::{ScheduleError, schedule};
///
/// let needs = vec![vec![], vec![], vec![0, 1]];
/// let sums = schedule(&needs, 2, |job| {
///     let mine = job.index() as u64 + 1;
///     // The results of this job's needs are there to use.
///     let below: u64 = needs[job.index()]
///         .iter()
///         .map(|&j| *job.finished(j).unwrap())
///         .sum();
///     Ok::<_, String>(mine + below)
/// })?;
/// assert_eq!(sums, [1, 2, 6]);
///
/// let cycle = vec![vec![1], vec![0], vec![]];
/// let refused = schedule(&cycle, 2, |_| Ok::<u64, String>(0));
/// assert_eq!(refused, Err(ScheduleError::Cycle { jobs: vec![0, 1] }));
/// # Ok::<(), ScheduleError<String>>(())
/// ```
pub fn schedule<T, E, F>(
    needs: &[Vec<usize>],
    threads: usize,
    build: F,
) -> Result<Vec<T>, ScheduleError<E>>
where
    T: Send + Sync,
    E: Send,
    F: Fn(&Job<'_, T>) -> Result<T, E> + Sync,
{
    let count = needs.len();
    // The jobs waiting for each job, and Kahn's check that all can start.
    let mut unlocks: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut waiting = vec![0usize; count];
    for (job, list) in needs.iter().enumerate() {
        for &n in list {
            if n >= count {
                return Err(ScheduleError::UnknownJob { job, needs: n });
            }
            unlocks[n].push(job);
            waiting[job] += 1;
        }
    }
    let mut left = waiting.clone();
    let mut order: Vec<usize> = (0..count).filter(|&j| left[j] == 0).collect();
    let mut k = 0;
    while k < order.len() {
        for &j in &unlocks[order[k]] {
            left[j] -= 1;
            if left[j] == 0 {
                order.push(j);
            }
        }
        k += 1;
    }
    if order.len() < count {
        let jobs = (0..count).filter(|&j| left[j] > 0).collect();
        return Err(ScheduleError::Cycle { jobs });
    }
    let threads = match threads {
        gametree_game::ALL_CORES => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let done: Vec<OnceLock<T>> = (0..count).map(|_| OnceLock::new()).collect();
    let state = Mutex::new(State {
        ready: (0..count).filter(|&j| waiting[j] == 0).collect(),
        waiting,
        free: threads,
        started: 0,
        finished: 0,
        failed: None,
        panicked: false,
    });
    let wake = Condvar::new();
    let worker = || {
        let mut s = lock(&state);
        loop {
            if s.failed.is_some() || s.panicked || s.started == count {
                break;
            }
            let next = if s.free > 0 {
                s.ready.pop_first()
            } else {
                None
            };
            let Some(index) = next else {
                s = wake.wait(s).unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            let share = if s.ready.is_empty() { s.free } else { 1 };
            s.free -= share;
            s.started += 1;
            drop(s);
            let guard = PanicGuard {
                state: &state,
                wake: &wake,
            };
            let job = Job {
                index,
                threads: share,
                done: &done,
            };
            let result = build(&job);
            drop(guard);
            s = lock(&state);
            s.free += share;
            match result {
                Ok(value) => {
                    // Each job runs once: the cell is empty.
                    let _ = done[index].set(value);
                    s.finished += 1;
                    for &j in &unlocks[index] {
                        s.waiting[j] -= 1;
                        if s.waiting[j] == 0 {
                            s.ready.insert(j);
                        }
                    }
                }
                Err(error) => {
                    if s.failed.is_none() {
                        s.failed = Some((index, error));
                    }
                }
            }
            wake.notify_all();
        }
        // Wake the others: the schedule is over, or a job may have become
        // ready for an idle worker.
        wake.notify_all();
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(count.max(1)) {
            scope.spawn(worker);
        }
        worker();
    });
    let s = state.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some((job, error)) = s.failed {
        return Err(ScheduleError::Build { job, error });
    }
    debug_assert_eq!(s.finished, count);
    Ok(done
        .into_iter()
        .map(|cell| cell.into_inner().expect("every job finished"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    /// A job's result: its number mixed with its needs' results, in order.
    fn mix(index: usize, below: impl Iterator<Item = u64>) -> u64 {
        below.fold(index as u64 + 1, |h, b| {
            (h ^ b).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    /// Random graphs: every job needs some lower-numbered or
    /// higher-numbered jobs, the numbers shuffled so that the order of
    /// the list is not a valid order.
    fn random_needs(rng: &mut rand_pcg::Pcg64, count: usize) -> Vec<Vec<usize>> {
        let mut rank: Vec<usize> = (0..count).collect();
        for i in (1..count).rev() {
            rank.swap(i, rng.next_u64() as usize % (i + 1));
        }
        // `rank[a] < rank[b]` orders the jobs; a job needs only jobs of a
        // lower rank.
        (0..count)
            .map(|job| {
                (0..count)
                    .filter(|&o| rank[o] < rank[job] && rng.next_u64().is_multiple_of(4))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn results_equal_a_sequential_build_and_needs_come_first() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for count in [0, 1, 2, 7, 40] {
            let needs = random_needs(&mut rng, count);
            // Sequentially, in an order found by repeated passes.
            let mut expected: Vec<Option<u64>> = vec![None; count];
            while expected.iter().any(Option::is_none) {
                for job in 0..count {
                    if expected[job].is_none() && needs[job].iter().all(|&n| expected[n].is_some())
                    {
                        expected[job] =
                            Some(mix(job, needs[job].iter().map(|&n| expected[n].unwrap())));
                    }
                }
            }
            let expected: Vec<u64> = expected.into_iter().flatten().collect();
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            for threads in [0, 1, 2, 3] {
                let early = AtomicBool::new(false);
                let cap = if threads == 0 { cores } else { threads };
                let got = schedule(&needs, threads, |job| {
                    let i = job.index();
                    assert!(job.threads() >= 1 && job.threads() <= cap);
                    let below: Vec<u64> = needs[i]
                        .iter()
                        .map(|&n| {
                            job.finished(n).copied().unwrap_or_else(|| {
                                early.store(true, Ordering::Relaxed);
                                0
                            })
                        })
                        .collect();
                    Ok::<_, ()>(mix(i, below.into_iter()))
                });
                assert!(
                    !early.load(Ordering::Relaxed),
                    "{count} jobs, {threads} threads"
                );
                assert_eq!(got, Ok(expected.clone()), "{count} jobs, {threads} threads");
            }
        }
    }

    #[test]
    fn independent_jobs_run_at_the_same_time() {
        // Each of two jobs waits (up to a minute) for the other to start.
        let started = Mutex::new(0usize);
        let both = Condvar::new();
        let needs = vec![vec![], vec![]];
        let saw = schedule(&needs, 2, |job| {
            assert_eq!(job.threads(), 1);
            let mut n = started.lock().unwrap();
            *n += 1;
            both.notify_all();
            let (n, _) = both
                .wait_timeout_while(n, Duration::from_secs(60), |n| *n < 2)
                .unwrap();
            Ok::<_, ()>(*n == 2)
        });
        assert_eq!(saw, Ok(vec![true, true]));
    }

    #[test]
    fn a_job_alone_gets_every_free_thread() {
        // A chain: each job is alone when it starts.
        let chain = vec![vec![], vec![0], vec![1]];
        let shares = schedule(&chain, 3, |job| Ok::<_, ()>(job.threads()));
        assert_eq!(shares, Ok(vec![3, 3, 3]));
        // One thread: one each, whatever the graph.
        let shares = schedule(&[vec![], vec![], vec![0, 1]], 1, |job| {
            Ok::<_, ()>(job.threads())
        });
        assert_eq!(shares, Ok(vec![1, 1, 1]));
    }

    #[test]
    fn bad_graphs_are_refused_before_anything_runs() {
        let ran = AtomicUsize::new(0);
        let build = |_: &Job<'_, ()>| {
            ran.fetch_add(1, Ordering::Relaxed);
            Ok::<(), ()>(())
        };
        assert_eq!(
            schedule(&[vec![], vec![0, 5]], 2, build),
            Err(ScheduleError::UnknownJob { job: 1, needs: 5 })
        );
        assert_eq!(
            schedule(&[vec![0]], 2, build),
            Err(ScheduleError::Cycle { jobs: vec![0] })
        );
        // 1 and 2 form the cycle; 3 needs 2; 0 could run but is not run.
        assert_eq!(
            schedule(&[vec![], vec![2], vec![1], vec![2, 0]], 2, build),
            Err(ScheduleError::Cycle {
                jobs: vec![1, 2, 3]
            })
        );
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        let e = ScheduleError::<String>::Cycle { jobs: vec![1, 2] };
        assert_eq!(e.to_string(), "jobs [1, 2] depend on each other in a cycle");
    }

    #[test]
    fn an_error_stops_the_jobs_that_have_not_started() {
        // 0 fails; 1 and 2 need it; 3 needs nothing but comes after it.
        let needs = vec![vec![], vec![0], vec![1], vec![]];
        for threads in [1, 2] {
            let ran = Mutex::new(Vec::new());
            let result = schedule(&needs, threads, |job| {
                ran.lock().unwrap().push(job.index());
                if job.index() == 0 {
                    Err(format!("job {} is broken", job.index()))
                } else {
                    Ok(())
                }
            });
            assert_eq!(
                result,
                Err(ScheduleError::Build {
                    job: 0,
                    error: "job 0 is broken".to_string()
                })
            );
            let ran = ran.into_inner().unwrap();
            assert!(!ran.contains(&1) && !ran.contains(&2), "{ran:?}");
            if threads == 1 {
                assert_eq!(ran, [0]);
            }
        }
        let e = ScheduleError::Build {
            job: 4,
            error: std::fmt::Error,
        };
        assert_eq!(
            e.to_string(),
            "job 4 failed: an error occurred when formatting an argument"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn a_panic_in_a_job_is_propagated_without_hanging() {
        let needs = vec![vec![], vec![], vec![0, 1]];
        for threads in [1, 2] {
            let result = std::panic::catch_unwind(|| {
                schedule(&needs, threads, |job| {
                    assert_ne!(job.index(), 1, "job 1 panics");
                    Ok::<_, ()>(())
                })
            });
            assert!(result.is_err());
        }
    }
}
