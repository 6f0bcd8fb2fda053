//! Building endings into a directory in little memory
//! ([`Tablebase::build_into`]): each table is written once built and held
//! only while a running build probes it, and the bound on that
//! ([`Tablebase::memory_writing`]) follows the same schedule.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::build::{
    Built, Deadline, Exits, build_bytes, build_ending, check_buildable, pawn_space_of, space_of,
    space_size,
};
use super::compressed::{compressed_table_file, read_table};
use super::{BuildOptions, Tablebase};
use crate::exits::{flipped, successor_endings};
use crate::{Error, Signature};

/// What [`Tablebase::build_into`] did with one ending of its plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Its file (or the file of the colours exchanged) was in the
    /// directory: read and checked, not rebuilt.
    Loaded,
    /// Built and written, in this time.
    Built(Duration),
}

/// The file of an ending's table in `dir`: `dir/<ending>.gtb`.
#[must_use]
pub fn table_file(dir: &Path, ending: &Signature) -> PathBuf {
    dir.join(format!("{ending}.gtb"))
}

/// The bytes of `ending`'s table in memory (a byte per index of its
/// space), which is also about the size of its file: what reading it
/// takes.
///
/// ```
/// use gametree_chess_tables::table_bytes;
///
/// // A 5-man pawnless table: 231 MiB; a 4-man one: 3.6 MiB.
/// let kqrkr = table_bytes(&"KQRvKR".parse()?);
/// assert!(kqrkr > 230 << 20 && kqrkr < 232 << 20, "{kqrkr}");
/// assert!(table_bytes(&"KQvKR".parse()?) < 4 << 20);
/// # Ok::<(), gametree_chess_tables::SignatureError>(())
/// ```
#[must_use]
pub fn table_bytes(ending: &Signature) -> u64 {
    space_size(ending)
}

/// The file in `dir` of `ending`'s table ([`table_file`]), or else of the
/// colours exchanged, or else the compressed file of either
/// ([`compressed_table_file`]), where one exists: the ending of the file
/// and its path. Either values `ending`'s positions, and
/// [`Tablebase::load`] reads either.
#[must_use]
pub fn find_table_file(dir: &Path, ending: &Signature) -> Option<(Signature, PathBuf)> {
    existing_file(dir, ending)
}

/// The file in `dir` of `ending`'s table, or of the colours exchanged,
/// raw files first, where one exists.
fn existing_file(dir: &Path, ending: &Signature) -> Option<(Signature, PathBuf)> {
    let endings = [ending.clone(), flipped(ending)];
    let raw = endings.clone().into_iter().map(|s| {
        let path = table_file(dir, &s);
        (s, path)
    });
    let packed = endings.into_iter().map(|s| {
        let path = compressed_table_file(dir, &s);
        (s, path)
    });
    raw.chain(packed).find(|(_, p)| p.exists())
}

/// The file in `dir` of exactly `ending`'s table, raw or else compressed,
/// where one exists.
fn exact_file(dir: &Path, ending: &Signature) -> Option<PathBuf> {
    [table_file(dir, ending), compressed_table_file(dir, ending)]
        .into_iter()
        .find(|p| p.exists())
}

/// The jobs of a build into a directory: the [`plan`](Tablebase::plan), in
/// its order, and what each job probes.
pub(super) struct Schedule {
    /// The endings, in the order of [`Tablebase::plan`].
    pub(super) plan: Vec<Signature>,
    /// For each job, the jobs whose tables its build probes (its direct
    /// captures and promotions, colours exchanged or not), each once and
    /// in increasing order; the endings it leads to that are not in the
    /// plan are in the [`Tablebase`] already.
    pub(super) probes: Vec<Vec<usize>>,
    /// How many jobs may run at once: job `j` starts only once every job
    /// up to `j - at_once` has finished, so the jobs running when job `i`
    /// is the first unfinished one are among `i .. i + at_once`.
    pub(super) at_once: usize,
}

impl Schedule {
    pub(super) fn new(tables: &Tablebase, endings: &[Signature], threads: usize) -> Self {
        let plan = tables.plan(endings);
        let probes = plan
            .iter()
            .map(|s| {
                let mut jobs: Vec<usize> = successor_endings(s)
                    .iter()
                    .filter_map(|c| {
                        let f = flipped(c);
                        plan.iter().position(|p| *p == *c || *p == f)
                    })
                    .collect();
                jobs.sort_unstable();
                jobs.dedup();
                jobs
            })
            .collect();
        let at_once = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        Schedule {
            plan,
            probes,
            at_once,
        }
    }

    /// The `needs` of [`gametree_retrograde::schedule`]: a job's probes,
    /// and every job `at_once` or more places before it.
    pub(super) fn needs(&self) -> Vec<Vec<usize>> {
        (0..self.plan.len())
            .map(|j| {
                let mut needs: Vec<usize> = (0..(j + 1).saturating_sub(self.at_once)).collect();
                needs.extend(self.probes[j].iter().filter(|&&p| p + self.at_once > j));
                needs.sort_unstable();
                needs.dedup();
                needs
            })
            .collect()
    }

    /// The jobs that may run while job `i` is the first unfinished one:
    /// `i .. i + at_once` (fewer at the end).
    pub(super) fn window(&self, i: usize) -> std::ops::Range<usize> {
        i..(i + self.at_once).min(self.plan.len())
    }

    /// The jobs whose tables are held while the jobs of `window(i)` run:
    /// every table one of them probes, each once.
    pub(super) fn held(&self, i: usize) -> Vec<usize> {
        let mut held: Vec<usize> = self
            .window(i)
            .flat_map(|j| self.probes[j].iter().copied())
            .collect();
        held.sort_unstable();
        held.dedup();
        held
    }

    /// The memory while job `i` is the first unfinished one, beyond the
    /// tables that were there before: the tables held ([`held`](Self::held),
    /// a byte per index), and each job of the window as a build on
    /// `at_once` threads, its table included (a job whose file is there
    /// holds only its table while it is checked).
    pub(super) fn bytes_at(&self, i: usize) -> u64 {
        let held: u64 = self
            .held(i)
            .iter()
            .map(|&j| space_size(&self.plan[j]))
            .sum();
        let builds: u64 = self
            .window(i)
            .map(|j| build_bytes(&self.plan[j], self.at_once))
            .sum();
        held + builds
    }

    /// The largest [`bytes_at`](Self::bytes_at) over the schedule.
    pub(super) fn peak(&self) -> u64 {
        (0..self.plan.len())
            .map(|i| self.bytes_at(i))
            .max()
            .unwrap_or(0)
    }
}

/// The tables a build into a directory holds: each job's table while a
/// running job probes it, with how many running jobs do.
struct Store {
    held: Vec<Option<(Arc<Built>, usize)>>,
    /// Bytes of tables held now, and the most ever held (checked by the
    /// tests against the schedule).
    bytes: u64,
    peak: u64,
}

fn lock(store: &Mutex<Store>) -> MutexGuard<'_, Store> {
    store.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Reads `ending`'s table from `path` (written for `file`: `ending` or
/// the colours exchanged), checked, with its space.
fn read_built(ending: &Signature, file: &Signature, path: &Path) -> Result<Built, Error> {
    let table = read_table(file, path).map_err(|e| match e {
        Error::Load { source, .. } => Error::Load {
            ending: ending.clone(),
            source,
        },
        e => e,
    })?;
    Ok(match pawn_space_of(file) {
        Some(space) => Built::Pawns(Box::new((space, table))),
        None => Built::Pawnless(Box::new((space_of(file), table))),
    })
}

impl Tablebase {
    /// An upper bound, in bytes, on the memory of
    /// [`build_into`](Self::build_into) for `endings` on `threads` threads
    /// (0: every core), known before anything is built: the tables here,
    /// plus the largest, over the schedule, of the tables held and the
    /// builds running. While job `i` of the [`plan`](Self::plan) is the
    /// first unfinished one, the jobs running are among `i .. i +
    /// threads`; each is counted as a build on `threads` threads
    /// ([`Generator::memory`](gametree_retrograde::Generator::memory), its
    /// table included), and the tables held are those these jobs probe
    /// (their direct captures and promotions), a byte per index. A job
    /// whose file is there takes its table only.
    ///
    /// ```
    /// use gametree_chess_tables::{Tablebase, pawnless_endings};
    ///
    /// // All 60 5-man pawnless endings on two threads: two 5-man builds
    /// // at once (520 MiB each, its table of 231 MiB included) and the 3-
    /// // and 4-man tables they probe (3.6 MiB each): about 1.06 GiB.
    /// let bytes = Tablebase::new().memory_writing(&pawnless_endings(5), 2);
    /// assert!(bytes > 1_060 << 20 && bytes < 1_090 << 20, "{bytes}");
    /// // KQRvKR alone: its build and the four 4-man tables it probes.
    /// let one = Tablebase::new().memory_writing(&["KQRvKR".parse()?], 2);
    /// assert!(one > 530 << 20 && one < 540 << 20, "{one}");
    /// // KPPvKP: its promotions lead to 5-man endings with pawns
    /// // (KQPvKP ...), whose promotions lead to others (KQQvKP ...). Only
    /// // the tables a running build probes are held: at worst KQPvKP and
    /// // KRPvKP built at once, 1.3 GiB each, and the 5-man tables their
    /// // promotions lead to (0.75 GiB each): about 14.3 GiB on two
    /// // threads and 7.5 GiB on one, where every table it leads to, kept,
    /// // would take 34 GiB.
    /// let two = Tablebase::new().memory_writing(&["KPPvKP".parse()?], 2);
    /// assert!(two > 14 << 30 && two < 15 << 30, "{two}");
    /// let one = Tablebase::new().memory_writing(&["KPPvKP".parse()?], 1);
    /// assert!(one > 7 << 30 && one < 8 << 30, "{one}");
    /// # Ok::<(), gametree_chess_tables::SignatureError>(())
    /// ```
    #[must_use]
    pub fn memory_writing(&self, endings: &[Signature], threads: usize) -> u64 {
        let held: u64 = self.tables().map(|(_, t)| t.len()).sum();
        held + Schedule::new(self, endings, threads).peak()
    }

    /// Builds the tables of `endings` and of every ending their captures
    /// and promotions lead to that is not here (the [`plan`](Self::plan))
    /// into `dir` ([`table_file`]), without adding them here: each table
    /// is written once built, and held only while a running build probes
    /// it (read back from its file when a later build needs it). An
    /// ending whose file is in `dir` already (or the file of the colours
    /// exchanged) is read and checked instead of built: a build stopped
    /// at any point resumes. At most `options.threads` endings are built
    /// at once, job `j` of the plan once jobs up to `j - threads` have
    /// finished, so that [`memory_writing`](Self::memory_writing) bounds
    /// the memory. `done` is called once per ending with its file, from
    /// the thread that built or read it. Returns the plan.
    ///
    /// # Errors
    ///
    /// [`Error::TooManyPieces`] (nothing is built) when an ending to build
    /// has more than [`MAX_BUILD_PIECES`](super::MAX_BUILD_PIECES) pieces;
    /// [`Error::Load`] or [`Error::Size`] for a file in `dir` that is not
    /// the ending's table; [`Error::Build`] or [`Error::Save`] when a
    /// build or a write fails, [`Error::Stopped`] when a limit of
    /// [`BuildOptions::limits`] stops it (the first error; the tables
    /// written before stay, and a later call resumes from them).
    ///
    /// # Panics
    ///
    /// When a progress or `done` callback panics (after the builds
    /// running then have finished).
    pub fn build_into(
        &self,
        endings: &[Signature],
        dir: &Path,
        options: &BuildOptions<'_>,
        done: &(dyn Fn(&Signature, &Path, Written) + Sync),
    ) -> Result<Vec<Signature>, Error> {
        Ok(self.build_into_counted(endings, dir, options, done)?.0)
    }

    /// [`build_into`](Self::build_into), each table written compressed
    /// ([`compressed_table_file`], `dir/ENDING.gtbz`, as
    /// [`save_compressed`](Self::save_compressed) writes it) instead of
    /// raw: the directory then takes a sixth of the disk (the 60 pawnless
    /// 5-man endings: 2.05 GiB instead of 13.5 GiB). A later build reads a
    /// compressed file whole when it probes its table (every block
    /// decoded and checked: 5 s for a 231 MiB table on one thread,
    /// against 0.2 s for a raw file). Compressing a table takes its
    /// compressed bytes beside it, under the build's own arrays, so
    /// [`memory_writing`](Self::memory_writing) bounds this too.
    ///
    /// ```
    /// use gametree_chess_tables::{BuildOptions, Tablebase, Written, compressed_table_file};
    ///
    /// let dir = std::env::temp_dir().join(format!("gtbz-build-doc-{}", std::process::id()));
    /// let kqvk = "KQvK".parse()?;
    /// let plan = Tablebase::new().build_into_compressed(
    ///     std::slice::from_ref(&kqvk),
    ///     &dir,
    ///     &BuildOptions::default(),
    ///     &|_, _, _| {},
    /// )?;
    /// assert_eq!(plan, [kqvk.clone()]);
    /// assert!(compressed_table_file(&dir, &kqvk).exists());
    /// // Read back whole, or probed by position (`CompressedTablebase`).
    /// let mut tables = Tablebase::new();
    /// tables.load(&kqvk, &compressed_table_file(&dir, &kqvk))?;
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`build_into`](Self::build_into).
    ///
    /// # Panics
    ///
    /// As [`build_into`](Self::build_into).
    pub fn build_into_compressed(
        &self,
        endings: &[Signature],
        dir: &Path,
        options: &BuildOptions<'_>,
        done: &(dyn Fn(&Signature, &Path, Written) + Sync),
    ) -> Result<Vec<Signature>, Error> {
        Ok(self
            .build_into_inner(endings, &[], dir, options, done, true)?
            .0)
    }

    /// Makes sure `dir` holds the table file of `ending` with its colours
    /// as given ([`table_file`], or its [`compressed_table_file`]) and
    /// returns its path: when neither is
    /// there, builds it as [`build_into`](Self::build_into) does (with the
    /// endings it leads to whose files are missing, in the memory
    /// [`memory_writing`](Self::memory_writing) states), even if the file
    /// of the colours exchanged is there. Nothing is kept here: a reader
    /// of one table (its statistics, say) then reads that file alone.
    ///
    /// # Errors
    ///
    /// As [`build_into`](Self::build_into).
    pub fn build_file(
        &self,
        ending: &Signature,
        dir: &Path,
        options: &BuildOptions<'_>,
        done: &(dyn Fn(&Signature, &Path, Written) + Sync),
    ) -> Result<PathBuf, Error> {
        if let Some(path) = exact_file(dir, ending) {
            return Ok(path);
        }
        let endings = std::slice::from_ref(ending);
        self.build_into_inner(endings, endings, dir, options, done, false)?;
        Ok(table_file(dir, ending))
    }

    /// [`build_into`](Self::build_into), and the most bytes of tables held
    /// at once (for the tests).
    fn build_into_counted(
        &self,
        endings: &[Signature],
        dir: &Path,
        options: &BuildOptions<'_>,
        done: &(dyn Fn(&Signature, &Path, Written) + Sync),
    ) -> Result<(Vec<Signature>, u64), Error> {
        self.build_into_inner(endings, &[], dir, options, done, false)
    }

    /// [`build_into_counted`](Self::build_into_counted), where the endings
    /// of `exact` are built under their own names even when the file of
    /// the colours exchanged is there, and the tables are written
    /// compressed when `compress` says so.
    fn build_into_inner(
        &self,
        endings: &[Signature],
        exact: &[Signature],
        dir: &Path,
        options: &BuildOptions<'_>,
        done: &(dyn Fn(&Signature, &Path, Written) + Sync),
        compress: bool,
    ) -> Result<(Vec<Signature>, u64), Error> {
        let schedule = Schedule::new(self, endings, options.threads);
        for ending in &schedule.plan {
            check_buildable(ending)?;
        }
        if !schedule.plan.is_empty() {
            std::fs::create_dir_all(dir).map_err(|source| Error::Save {
                ending: schedule.plan[0].clone(),
                source,
            })?;
        }
        let store = Mutex::new(Store {
            held: (0..schedule.plan.len()).map(|_| None).collect(),
            bytes: 0,
            peak: 0,
        });
        let plan = &schedule.plan;
        let deadline = Deadline::new(options);
        gametree_retrograde::schedule(&schedule.needs(), schedule.at_once, |job| {
            let j = job.index();
            let ending = &plan[j];
            let there = if exact.contains(ending) {
                exact_file(dir, ending).map(|path| (ending.clone(), path))
            } else {
                existing_file(dir, ending)
            };
            if let Some((file, path)) = there {
                drop(read_built(ending, &file, &path)?);
                done(ending, &path, Written::Loaded);
                return Ok(());
            }
            let limits = deadline.job(ending)?;
            let start = Instant::now();
            let probes = &schedule.probes[j];
            // The tables this build probes: held, or read from their files.
            let mut mine: Vec<Arc<Built>> = Vec::with_capacity(probes.len());
            {
                let mut s = lock(&store);
                for &p in probes {
                    if let Some((table, users)) = &mut s.held[p] {
                        *users += 1;
                        mine.push(Arc::clone(table));
                        continue;
                    }
                    let (file, path) = existing_file(dir, &plan[p]).ok_or_else(|| Error::Load {
                        ending: plan[p].clone(),
                        source: gametree_retrograde::LoadError::Io(std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            "no such file (written by this build, then removed)",
                        )),
                    })?;
                    let table = Arc::new(read_built(&plan[p], &file, &path)?);
                    s.bytes += table.len();
                    s.peak = s.peak.max(s.bytes);
                    s.held[p] = Some((Arc::clone(&table), 1));
                    mine.push(table);
                }
            }
            let exits = Exits {
                pawnless: self
                    .memory_pawnless()
                    .chain(mine.iter().filter_map(|b| b.pawnless()))
                    .collect(),
                pawns: self
                    .memory_pawns()
                    .chain(mine.iter().filter_map(|b| b.pawns()))
                    .collect(),
            };
            let built = build_ending(ending, &exits, job.threads(), options.progress, limits);
            drop(exits);
            // Whatever happened, this job no longer probes its tables.
            drop(mine);
            {
                let mut s = lock(&store);
                for &p in probes {
                    let last = match &mut s.held[p] {
                        Some((_, users)) => {
                            *users -= 1;
                            *users == 0
                        }
                        None => false,
                    };
                    if last && let Some((table, _)) = s.held[p].take() {
                        s.bytes -= table.len();
                    }
                }
            }
            let table = built?.into_table();
            let written = if compress {
                let path = compressed_table_file(dir, ending);
                gametree_retrograde::compressed::write(&table, &path).map(|()| path)
            } else {
                let path = table_file(dir, ending);
                table.write(&path).map(|()| path)
            };
            let path = written.map_err(|source| Error::Save {
                ending: ending.clone(),
                source,
            })?;
            drop(table);
            done(ending, &path, Written::Built(start.elapsed()));
            Ok(())
        })
        .map_err(|e| match e {
            gametree_retrograde::ScheduleError::Build { error, .. } => error,
            // Every job needs only earlier ones, all of them jobs.
            other => unreachable!("a plan is acyclic: {other:?}"),
        })?;
        let peak = lock(&store).peak;
        Ok((schedule.plan, peak))
    }
}

#[cfg(test)]
mod tests;
