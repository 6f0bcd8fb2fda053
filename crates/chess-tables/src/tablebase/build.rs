//! Building: the plan of a build, the builds of endings (the indexed
//! backward method, over [`FastEndgame`] without pawns and
//! [`PawnEndgame`] with them), their resolvers, and the memory a build
//! takes.

use std::time::Instant;

use gametree_game::{Game, IndexMoves, IndexSpace, Limits, Stop};
use gametree_games_chess::{Move, Position, Role};
use gametree_retrograde::{BuildError, BuildSink, Event, Generator, Method, Resolve, Table, Value};

use super::{
    BuildOptions, MAX_BUILD_PIECES, MAX_PAWN_BUILD_PIECES, Progress, Slot, Source, Space,
    Tablebase, label,
};
use crate::exits::{flipped, reachable_endings, successor_endings};
use crate::{Endgame, Error, FastEndgame, PawnEndgame, Placement, Signature, flip_position};

/// A table built, with its space.
pub(super) enum Built {
    Pawnless(Box<(FastEndgame, Table)>),
    Pawns(Box<(PawnEndgame, Table)>),
}

impl Built {
    pub(super) fn pawnless(&self) -> Option<(&FastEndgame, &Table)> {
        match self {
            Built::Pawnless(e) => Some((&e.0, &e.1)),
            Built::Pawns(_) => None,
        }
    }

    pub(super) fn pawns(&self) -> Option<(&PawnEndgame, &Table)> {
        match self {
            Built::Pawns(e) => Some((&e.0, &e.1)),
            Built::Pawnless(_) => None,
        }
    }

    pub(super) fn len(&self) -> u64 {
        match self {
            Built::Pawnless(e) => e.1.len(),
            Built::Pawns(e) => e.1.len(),
        }
    }

    pub(super) fn into_table(self) -> Table {
        match self {
            Built::Pawnless(e) => e.1,
            Built::Pawns(e) => e.1,
        }
    }

    /// The table as an ending of a [`Tablebase`], in memory.
    fn into_slot(self) -> Slot {
        let (ending, space, table) = match self {
            Built::Pawnless(e) => {
                let (space, table) = *e;
                (
                    space.endgame().signature().clone(),
                    Space::Pawnless(space),
                    table,
                )
            }
            Built::Pawns(e) => {
                let (space, table) = *e;
                (
                    space.signature().clone(),
                    Space::Pawns(Box::new(space)),
                    table,
                )
            }
        };
        Slot {
            ending,
            space,
            source: Source::Memory(table),
        }
    }
}

/// The tables a build values its exits in, borrowed: the tables of its
/// direct captures and promotions (a handful), so a resolve compares the
/// material keys of a few pawnless tables and the signatures of a few
/// with pawns.
pub(super) struct Exits<'a> {
    pub(super) pawnless: Vec<(&'a FastEndgame, &'a Table)>,
    pub(super) pawns: Vec<(&'a PawnEndgame, &'a Table)>,
}

impl Exits<'_> {
    /// The value of `p` in the table of its material, else of the colours
    /// exchanged.
    fn placement(&self, p: &Placement) -> Option<Value> {
        let find = |q: &Placement| {
            let material = q.material();
            let (space, table) = self
                .pawnless
                .iter()
                .find(|(s, _)| s.material() == material)?;
            space.index_of(q).and_then(|i| table.get(i))
        };
        find(p).or_else(|| find(&p.flipped()))
    }

    /// The value of `position` (pawnless or with pawns) in the table of
    /// its material, else of the colours exchanged; two bare kings a draw.
    fn position(&self, position: &Position) -> Option<Value> {
        if let Some(p) = Placement::from_position(position) {
            if p.pieces().count() == 2 {
                return Some(Value::Draw);
            }
            return self.placement(&p);
        }
        let find = |q: &Position| {
            let signature = Signature::of(q)?;
            let (space, table) = self
                .pawns
                .iter()
                .find(|(s, _)| *s.signature() == signature)?;
            space.index_of(q).and_then(|i| table.get(i))
        };
        find(position).or_else(|| find(&flip_position(position)?))
    }
}

impl Resolve<Placement> for Exits<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        self.placement(p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

impl Resolve<Position> for Exits<'_> {
    fn resolve(&self, p: &Position) -> Option<Value> {
        self.position(p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

/// The limits of a call that builds ([`BuildOptions::limits`]), from its
/// start.
pub(super) struct Deadline<'a> {
    limits: Option<&'a Limits>,
    start: Instant,
}

impl<'a> Deadline<'a> {
    pub(super) fn new(options: &BuildOptions<'a>) -> Self {
        Deadline {
            limits: options.limits,
            start: Instant::now(),
        }
    }

    /// The limits of `ending`'s build, starting now: the time left of the
    /// call's, its cancel flag and node limit; [`Error::Stopped`] when the
    /// call is to stop before it.
    pub(super) fn job(&self, ending: &Signature) -> Result<Limits, Error> {
        let Some(l) = self.limits else {
            return Ok(Limits::none());
        };
        let stopped = |stop| Error::Stopped {
            ending: ending.clone(),
            stop,
        };
        if l.is_cancelled() {
            return Err(stopped(Stop::Cancelled));
        }
        let mut out = Limits::none();
        if let Some(time) = l.time {
            match time.checked_sub(self.start.elapsed()) {
                Some(left) if !left.is_zero() => out.time = Some(left),
                _ => return Err(stopped(Stop::Time)),
            }
        }
        out.nodes = l.nodes;
        out.cancel.clone_from(&l.cancel);
        Ok(out)
    }
}

/// [`Error::TooManyPieces`] when `ending` is larger than
/// [`MAX_BUILD_PIECES`] (or [`MAX_PAWN_BUILD_PIECES`] with pawns).
pub(super) fn check_buildable(ending: &Signature) -> Result<(), Error> {
    let most = if ending.has_pawns() {
        MAX_PAWN_BUILD_PIECES
    } else {
        MAX_BUILD_PIECES
    };
    if ending.piece_count() > most {
        return Err(Error::TooManyPieces {
            ending: ending.clone(),
            pieces: ending.piece_count(),
        });
    }
    Ok(())
}

/// Builds one ending's table, its exits valued in `pawnless` and `pawns`:
/// the indexed backward method, over [`PawnEndgame`] with pawns and
/// [`FastEndgame`] without.
pub(super) fn build_ending(
    ending: &Signature,
    exits: &Exits<'_>,
    threads: usize,
    progress: Option<&Progress<'_>>,
    limits: Limits,
) -> Result<Built, Error> {
    let report = |e: &Event<'_, Move>| {
        if let Some(p) = progress {
            p(ending, e);
        }
    };
    let report: Option<&BuildSink<'_, Move>> = progress.is_some().then_some(&report);
    if let Some(space) = pawn_space_of(ending) {
        let table = indexed(ending, &space, exits, threads, report, limits)?;
        return Ok(Built::Pawns(Box::new((space, table))));
    }
    let space = space_of(ending);
    let table = indexed(ending, &space, exits, threads, report, limits)?;
    Ok(Built::Pawnless(Box::new((space, table))))
}

/// One space's table by the indexed backward method, its exits valued by
/// `resolver`.
fn indexed<S: IndexMoves + Sync>(
    ending: &Signature,
    space: &S,
    resolver: &(dyn Resolve<S::Game> + Sync),
    threads: usize,
    report: Option<&BuildSink<'_, Move>>,
    limits: Limits,
) -> Result<Table, Error> {
    // The space's positions may be another type than `Position`; a build's
    // events carry no move.
    let forward = |e: &Event<'_, <S::Game as Game>::Move>| {
        if let Some(report) = report {
            report(&e.without_line());
        }
    };
    let mut generator = Generator::new(space)
        .label(label(ending))
        .resolver(resolver)
        .threads(threads)
        .limits(limits);
    if report.is_some() {
        generator = generator.progress(&forward);
    }
    generator.backward_indexed().map_err(|source| match source {
        BuildError::Stopped(stop) => Error::Stopped {
            ending: ending.clone(),
            stop,
        },
        source => Error::Build {
            ending: ending.clone(),
            source,
        },
    })
}

/// The index space of a pawnless ending.
pub(super) fn space_of(signature: &Signature) -> FastEndgame {
    FastEndgame::from_endgame(Endgame::from_signature(signature.clone()))
}

/// The index space of an ending with pawns, or `None` for a pawnless one.
pub(super) fn pawn_space_of(signature: &Signature) -> Option<PawnEndgame> {
    PawnEndgame::from_signature(signature.clone()).ok()
}

/// The memory a build of `ending` on `threads` threads takes, its table
/// included: [`Generator::memory`] of its method.
pub(super) fn build_bytes(ending: &Signature, threads: usize) -> u64 {
    match pawn_space_of(ending) {
        Some(space) => {
            Generator::new(&space)
                .threads(threads)
                .memory(Method::BackwardIndexed)
                .total_bytes
        }
        None => {
            let space = space_of(ending);
            Generator::new(&space)
                .threads(threads)
                .memory(Method::BackwardIndexed)
                .total_bytes
        }
    }
}

/// The size of an ending's index space.
pub(super) fn space_size(signature: &Signature) -> u64 {
    match pawn_space_of(signature) {
        Some(space) => space.size(),
        None => space_of(signature).size(),
    }
}

impl Tablebase {
    /// The pawnless tables in memory for good, with their spaces.
    pub(super) fn memory_pawnless(&self) -> impl Iterator<Item = (&FastEndgame, &Table)> {
        self.slots.iter().filter_map(Slot::pawnless)
    }

    /// The tables with pawns in memory for good, with their spaces.
    pub(super) fn memory_pawns(&self) -> impl Iterator<Item = (&PawnEndgame, &Table)> {
        self.slots.iter().filter_map(Slot::pawns)
    }

    /// The endings [`build`](Self::build) would build for `endings`, in an
    /// order where each comes after the endings its moves out of it lead
    /// to (captures, promotions): those of `endings` and of every ending
    /// a sequence of such moves leads to (down to three pieces) that have
    /// no table in memory yet, colours exchanged or not (builds value
    /// their exits in the tables in memory; the files of
    /// [`add_directory`](Self::add_directory) are probed, not built upon:
    /// [`build_into`](Self::build_into) builds into a directory reading
    /// what it holds), an ending with only Black
    /// pieces written with the colours exchanged (`KvKP` as `KPvK`);
    /// fewest pieces first, then fewest pawns, then biggest space first
    /// (which [`build`](Self::build) starts first when it can), then in
    /// the order met: `endings` first, so that each keeps its colours
    /// even when another leads to it with the colours exchanged.
    #[must_use]
    pub fn plan(&self, endings: &[Signature]) -> Vec<Signature> {
        let mut out: Vec<Signature> = Vec::new();
        // The endings asked for first, so that each keeps its colours
        // when another leads to it with the colours exchanged.
        let all = endings
            .iter()
            .cloned()
            .chain(endings.iter().flat_map(reachable_endings))
            .filter(|s| s.piece_count() > 2);
        for s in all {
            let flip = flipped(&s);
            if !self.covers_in_memory(&s) && !out.contains(&s) && !out.contains(&flip) {
                out.push(s);
            }
        }
        let mut keyed: Vec<(usize, usize, u64, Signature)> = out
            .into_iter()
            .map(|s| {
                let pawns = s.pieces().filter(|p| p.role == Role::Pawn);
                (s.piece_count(), pawns.count(), u64::MAX - space_size(&s), s)
            })
            .collect();
        keyed.sort_by_key(|k| (k.0, k.1, k.2));
        keyed.into_iter().map(|k| k.3).collect()
    }

    /// An upper bound, in bytes, on the memory [`build`](Self::build)
    /// would use for `endings` on `threads` threads (0: every core): the
    /// tables here and every table of the [`plan`](Self::plan), which are
    /// all kept, plus the working memory beyond its table
    /// ([`Generator::memory`]: move counters, level mask, open set) of the
    /// `threads` biggest builds of the plan, which may run at once.
    ///
    /// ```
    /// use gametree_chess_tables::Tablebase;
    ///
    /// // KQRvKR and its five sub-endings, on two threads: about 536 MiB,
    /// // most of it KQRvKR's build (520 MiB, its table of 231 MiB
    /// // included); the 4-man tables take 3.6 MiB each.
    /// let tables = Tablebase::new();
    /// let kqrkr: gametree_chess_tables::Signature = "KQRvKR".parse()?;
    /// assert_eq!(tables.plan(&[kqrkr.clone()]).len(), 6);
    /// let bytes = tables.memory(&[kqrkr], 2);
    /// assert!(bytes > 530 << 20 && bytes < 540 << 20, "{bytes}");
    /// # Ok::<(), gametree_chess_tables::SignatureError>(())
    /// ```
    #[must_use]
    pub fn memory(&self, endings: &[Signature], threads: usize) -> u64 {
        let plan = self.plan(endings);
        let held: u64 = self.tables().map(|(_, t)| t.len()).sum();
        let mut extra: Vec<u64> = Vec::with_capacity(plan.len());
        let mut tables = 0;
        for ending in &plan {
            let (size, working) = match pawn_space_of(ending) {
                Some(space) => (
                    space.size(),
                    Generator::new(&space).threads(1).memory(Method::Backward),
                ),
                None => {
                    let space = space_of(ending);
                    (
                        space.size(),
                        Generator::new(&space).threads(1).memory(Method::Backward),
                    )
                }
            };
            tables += size;
            extra.push(working.total_bytes.saturating_sub(size));
        }
        extra.sort_unstable_by(|a, b| b.cmp(a));
        let at_once = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        held + tables + extra.iter().take(at_once).sum::<u64>()
    }

    /// Builds the tables of `endings` and of every ending their captures
    /// lead to (down to three pieces) that are not here yet, with the
    /// colours as given unless the colours exchanged are here already;
    /// adds them and returns their signatures, in the order of
    /// [`plan`](Self::plan). Endings that do not depend on each other are
    /// built at the same time ([`BuildOptions::threads`]).
    ///
    /// # Errors
    ///
    /// [`Error::TooManyPieces`] (nothing is built) when an ending to build
    /// has more than [`MAX_BUILD_PIECES`] pieces; [`Error::Build`] when a
    /// build fails, [`Error::Stopped`] when a limit of
    /// [`BuildOptions::limits`] stops it (the first to fail or stop; no
    /// table of this call is kept).
    ///
    /// # Panics
    ///
    /// When a progress callback panics (after the builds running then
    /// have finished).
    pub fn build(
        &mut self,
        endings: &[Signature],
        options: &BuildOptions<'_>,
    ) -> Result<Vec<Signature>, Error> {
        let plan = self.plan(endings);
        for ending in &plan {
            check_buildable(ending)?;
        }
        // For each job, the jobs of its direct captures and promotions
        // (all earlier in the plan); the others are here already.
        let needs: Vec<Vec<usize>> = plan
            .iter()
            .map(|s| {
                successor_endings(s)
                    .iter()
                    .filter_map(|c| {
                        let f = flipped(c);
                        plan.iter().position(|p| *p == *c || *p == f)
                    })
                    .collect()
            })
            .collect();
        let threads = match options.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let deadline = Deadline::new(options);
        let built = gametree_retrograde::schedule(&needs, threads, |job| {
            let limits = deadline.job(&plan[job.index()])?;
            let finished = || needs[job.index()].iter().filter_map(|&j| job.finished(j));
            let exits = Exits {
                pawnless: self
                    .memory_pawnless()
                    .chain(finished().filter_map(Built::pawnless))
                    .collect(),
                pawns: self
                    .memory_pawns()
                    .chain(finished().filter_map(Built::pawns))
                    .collect(),
            };
            build_ending(
                &plan[job.index()],
                &exits,
                job.threads(),
                options.progress,
                limits,
            )
        })
        .map_err(|e| match e {
            gametree_retrograde::ScheduleError::Build { error, .. } => error,
            // Every job needs only earlier ones, all of them jobs.
            other => unreachable!("a plan is acyclic: {other:?}"),
        })?;
        for b in built {
            self.put(b.into_slot());
        }
        Ok(plan)
    }

    /// Builds the table of `ending` alone, on `options.threads` threads,
    /// its captures and promotions valued in the tables here, and returns
    /// it without keeping it (to write it and drop it, say). Unlike
    /// [`build`](Self::build), it plans nothing: the endings it leads to
    /// must be here ([`successor_endings`], colours exchanged or not).
    ///
    /// # Errors
    ///
    /// [`Error::TooManyPieces`] as for [`build`](Self::build);
    /// [`Error::Build`] when the build fails, in particular
    /// (`BuildError::Unresolved`) when a table it needs is missing;
    /// [`Error::Stopped`] when a limit of [`BuildOptions::limits`] stops it.
    pub fn build_table(
        &self,
        ending: &Signature,
        options: &BuildOptions<'_>,
    ) -> Result<Table, Error> {
        check_buildable(ending)?;
        let threads = match options.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let limits = Deadline::new(options).job(ending)?;
        let exits = Exits {
            pawnless: self.memory_pawnless().collect(),
            pawns: self.memory_pawns().collect(),
        };
        Ok(build_ending(ending, &exits, threads, options.progress, limits)?.into_table())
    }
}
