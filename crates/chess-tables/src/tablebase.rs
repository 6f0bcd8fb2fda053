//! [`Tables`]: a set of endgame tables, planned, built, saved, loaded and
//! probed together.

use std::fmt;
use std::path::Path;

use gametree_game::{Game, IndexSpace};
use gametree_games_chess::{Move, Position};
use gametree_retrograde::{Event, Generator, Label, Method, Resolve, Table, Value};

use crate::exits::{flipped, reachable_endings, successor_endings};

mod build;
mod compressed;
mod written;
use crate::{
    Error, FastEndgame, PawnEndgame, Placement, Signature, Statistics, flip_position,
    pawn_statistics, statistics,
};
use build::{build_ending, check_buildable, pawn_space_of, space_of, space_size};
pub use compressed::{
    COMPRESSED_EXTENSION, CompressedTables, check_table_file, compressed_table_file, is_compressed,
};
pub use written::{Written, find_table_file, table_bytes, table_file};

/// The largest endings [`Tables::build`] builds, kings included: building
/// a 5-man table takes about 2.25 bytes per index (KQRvKR: 520 MiB, as
/// [`Generator::memory`] states); a 6-man one would take 64 times as much,
/// about 32 GiB.
pub const MAX_BUILD_PIECES: usize = 5;

/// The largest endings with pawns [`Tables::build`] builds, kings
/// included: as the pawnless ones, by the indexed backward method over
/// [`PawnEndgame`]'s index-level moves.
pub const MAX_PAWN_BUILD_PIECES: usize = 5;

/// The index scheme's name in a table's file [`Label`]: the numbering of
/// [`Endgame`](crate::Endgame) (462 king placements, then each non-king
/// piece's square).
pub const SCHEME: &str = "pawnless-462-v1";

/// The index scheme's name in the [`Label`] of a table with pawns: the
/// numbering of [`PawnEndgame`] (kings, the leading pawn on the files a–d,
/// then each other piece's square; en-passant regions after).
pub const PAWN_SCHEME: &str = "pawns-lr-ep-v1";

/// The [`Label`] of an ending's table file: game `chess`, the signature
/// as the material, [`SCHEME`] (or [`PAWN_SCHEME`] for an ending with
/// pawns).
#[must_use]
pub fn label(signature: &Signature) -> Label {
    let scheme = if signature.has_pawns() {
        PAWN_SCHEME
    } else {
        SCHEME
    };
    Label::new("chess", signature.to_string(), scheme)
}

/// An ending's index space and table.
type Entry = (FastEndgame, Table);

/// An ending with pawns: its index space and table.
type PawnEntry = (PawnEndgame, Table);

/// The value of any position without castling rights: pawnless ones in
/// `pawnless` (two bare kings a draw), the others in `pawns`.
fn lookup_any<'a>(
    pawnless: impl Iterator<Item = &'a Entry> + Clone,
    pawns: impl Iterator<Item = &'a PawnEntry> + Clone,
    position: &Position,
) -> Option<Value> {
    infallible(lookup_any_in(pawnless, pawns, position, raw_get))
}

/// The value of `p` in the first of `tables` with its material, else in
/// the first with the colours exchanged.
fn lookup<'a>(tables: impl Iterator<Item = &'a Entry> + Clone, p: &Placement) -> Option<Value> {
    infallible(lookup_in(tables, p, raw_get))
}

/// A raw table's value at an index (reading memory cannot fail).
#[inline]
fn raw_get(table: &Table, index: u64) -> Result<Option<Value>, std::convert::Infallible> {
    Ok(table.get(index))
}

#[inline]
fn infallible<T>(r: Result<T, std::convert::Infallible>) -> T {
    match r {
        Ok(t) => t,
        Err(e) => match e {},
    }
}

/// [`lookup`] over tables of any kind `T`, read by `get` (which may fail:
/// a compressed file's block).
#[inline]
fn lookup_in<'a, T: 'a, E>(
    tables: impl Iterator<Item = &'a (FastEndgame, T)> + Clone,
    p: &Placement,
    get: impl Fn(&T, u64) -> Result<Option<Value>, E>,
) -> Result<Option<Value>, E> {
    let find = |q: &Placement| {
        let material = q.material();
        match tables.clone().find(|(s, _)| s.material() == material) {
            Some((space, table)) => match space.index_of(q) {
                Some(index) => get(table, index),
                None => Ok(None),
            },
            None => Ok(None),
        }
    };
    match find(p)? {
        Some(v) => Ok(Some(v)),
        None => find(&p.flipped()),
    }
}

/// The value of `position` (with pawns) in the first of `tables` with
/// its material, else in the first with the colours exchanged, read by
/// `get`.
#[inline]
fn lookup_pawns_in<'a, T: 'a, E>(
    tables: impl Iterator<Item = &'a (PawnEndgame, T)> + Clone,
    position: &Position,
    get: impl Fn(&T, u64) -> Result<Option<Value>, E>,
) -> Result<Option<Value>, E> {
    let find = |q: &Position| {
        let Some(signature) = Signature::of(q) else {
            return Ok(None);
        };
        match tables.clone().find(|(s, _)| *s.signature() == signature) {
            Some((space, table)) => match space.index_of(q) {
                Some(index) => get(table, index),
                None => Ok(None),
            },
            None => Ok(None),
        }
    };
    match find(position)? {
        Some(v) => Ok(Some(v)),
        None => match flip_position(position) {
            Some(flipped) => find(&flipped),
            None => Ok(None),
        },
    }
}

/// [`lookup_any`] over tables of any kind, read by `get`.
#[inline]
fn lookup_any_in<'a, T: 'a, E>(
    pawnless: impl Iterator<Item = &'a (FastEndgame, T)> + Clone,
    pawns: impl Iterator<Item = &'a (PawnEndgame, T)> + Clone,
    position: &Position,
    get: impl Fn(&T, u64) -> Result<Option<Value>, E>,
) -> Result<Option<Value>, E> {
    match Placement::from_position(position) {
        Some(p) if p.pieces().count() == 2 => Ok(Some(Value::Draw)),
        Some(p) => lookup_in(pawnless, &p, get),
        None => lookup_pawns_in(pawns, position, get),
    }
}

/// Some tables, borrowed: the [`Resolve`]r of a build, which values a
/// capture in the table of its material (or of the colours exchanged).
///
/// [`Tables`] is a resolver too; this one borrows tables from anywhere (a
/// [`gametree_retrograde::schedule`] job's finished needs, say).
#[derive(Debug, Default)]
pub struct SubTables<'a>(Vec<&'a Entry>);

impl<'a> SubTables<'a> {
    /// A resolver over these tables.
    #[must_use]
    pub fn new(tables: impl IntoIterator<Item = &'a Entry>) -> Self {
        SubTables(tables.into_iter().collect())
    }
}

impl Resolve<Placement> for SubTables<'_> {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        lookup(self.0.iter().copied(), p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

/// The resolver of a build with pawns: pawnless and pawn tables, borrowed.
struct MixedTables<'a> {
    pawnless: Vec<&'a Entry>,
    pawns: Vec<&'a PawnEntry>,
}

impl Resolve<Position> for MixedTables<'_> {
    fn resolve(&self, p: &Position) -> Option<Value> {
        lookup_any(self.pawnless.iter().copied(), self.pawns.iter().copied(), p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

/// A table built by [`Tables::build`].
enum Built {
    Pawnless(Box<Entry>),
    Pawns(Box<PawnEntry>),
}

impl Built {
    fn pawnless(&self) -> Option<&Entry> {
        match self {
            Built::Pawnless(e) => Some(e),
            Built::Pawns(_) => None,
        }
    }

    fn pawns(&self) -> Option<&PawnEntry> {
        match self {
            Built::Pawns(e) => Some(e),
            Built::Pawnless(_) => None,
        }
    }
}

/// A progress callback: the ending being built and what its build reports.
pub type Progress<'a> = dyn Fn(&Signature, &Event) + Sync + 'a;

/// How [`Tables::build`] builds.
#[derive(Clone, Copy, Default)]
pub struct BuildOptions<'a> {
    /// Threads in all; 0 (the default) for every available core. Endings
    /// that do not depend on each other are built at the same time, on one
    /// thread each; an ending that is alone to be ready gets all threads.
    pub threads: usize,
    /// Called with each build's progress ([`Event`]), from the threads
    /// that build; several endings may report at the same time.
    pub progress: Option<&'a Progress<'a>>,
}

impl fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuildOptions")
            .field("threads", &self.threads)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// A set of endgame tables, each with its index space.
///
/// A resolver too: a capture is valued in the table of its material, or
/// of the colours exchanged.
#[derive(Debug, Default)]
pub struct Tables {
    entries: Vec<Entry>,
    pawn_entries: Vec<PawnEntry>,
}

impl Tables {
    /// No tables.
    #[must_use]
    pub fn new() -> Self {
        Tables::default()
    }

    /// The number of tables, with and without pawns.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len() + self.pawn_entries.len()
    }

    /// No tables?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every table's signature and table, pawnless endings first, each
    /// in the order they were added.
    pub fn tables(&self) -> impl Iterator<Item = (&Signature, &Table)> {
        let pawnless = self
            .entries
            .iter()
            .map(|(s, t)| (s.endgame().signature(), t));
        let pawns = self.pawn_entries.iter().map(|(s, t)| (s.signature(), t));
        pawnless.chain(pawns)
    }

    /// The table of exactly this ending (colours as given), with or
    /// without pawns.
    #[must_use]
    pub fn table(&self, signature: &Signature) -> Option<&Table> {
        match self.get(signature) {
            Some((_, t)) => Some(t),
            None => self.get_pawns(signature).map(|(_, t)| t),
        }
    }

    /// The space and table of exactly this ending with pawns (colours as
    /// given).
    #[must_use]
    pub fn get_pawns(&self, signature: &Signature) -> Option<(&PawnEndgame, &Table)> {
        self.pawn_entries
            .iter()
            .find(|(s, _)| s.signature() == signature)
            .map(|(s, t)| (s, t))
    }

    /// The pawnless endings' signatures, spaces and tables, in the order
    /// they were added (see [`tables`](Self::tables) for all).
    pub fn iter(&self) -> impl Iterator<Item = (&Signature, &FastEndgame, &Table)> {
        self.entries
            .iter()
            .map(|(s, t)| (s.endgame().signature(), s, t))
    }

    /// The space and table of exactly this pawnless ending (colours as
    /// given; see [`get_pawns`](Self::get_pawns) for endings with pawns).
    #[must_use]
    pub fn get(&self, signature: &Signature) -> Option<(&FastEndgame, &Table)> {
        self.entries
            .iter()
            .find(|(s, _)| s.endgame().signature() == signature)
            .map(|(s, t)| (s, t))
    }

    /// The [`statistics`] of this ending's table (colours as given), or
    /// `None` when there is none.
    #[must_use]
    pub fn statistics(&self, signature: &Signature) -> Option<Statistics> {
        // A table is kept only with the size of its space.
        match self.get(signature) {
            Some((space, table)) => statistics(space, table).ok(),
            None => {
                let (space, table) = self.get_pawns(signature)?;
                pawn_statistics(space, table).ok()
            }
        }
    }

    /// Is there a table for this ending, or for it with the colours
    /// exchanged?
    #[must_use]
    pub fn covers(&self, signature: &Signature) -> bool {
        self.table(signature).is_some() || self.table(&flipped(signature)).is_some()
    }

    /// Adds a table (built elsewhere, or read from a file), replacing the
    /// table of its ending if there was one, which is returned. The
    /// ending is read from the table's [`Label`], which must be the
    /// [`label`] of a chess ending.
    ///
    /// # Errors
    ///
    /// [`Error::Label`] when the label is not a chess ending's of
    /// [`SCHEME`]; [`Error::Size`] when the table is not the size of the
    /// ending's space.
    pub fn insert(&mut self, table: Table) -> Result<Option<Table>, Error> {
        let found = table.label();
        let signature = match found.material.parse::<Signature>() {
            Ok(s) if found.game == "chess" && *found == label(&s) => s,
            _ => {
                return Err(Error::Label {
                    found: found.clone(),
                });
            }
        };
        let size = space_size(&signature);
        if size != table.len() {
            return Err(Error::Size {
                ending: signature,
                source: gametree_retrograde::SizeMismatch {
                    space: size,
                    table: table.len(),
                },
            });
        }
        let old = self.remove(&signature);
        match pawn_space_of(&signature) {
            Some(space) => self.pawn_entries.push((space, table)),
            None => self.entries.push((space_of(&signature), table)),
        }
        Ok(old)
    }

    /// Removes this ending's table (colours as given) and returns it.
    pub fn remove(&mut self, signature: &Signature) -> Option<Table> {
        if let Some(at) = self
            .entries
            .iter()
            .position(|(s, _)| s.endgame().signature() == signature)
        {
            return Some(self.entries.remove(at).1);
        }
        let at = self
            .pawn_entries
            .iter()
            .position(|(s, _)| s.signature() == signature)?;
        Some(self.pawn_entries.remove(at).1)
    }

    /// The endings [`build`](Self::build) would build for `endings`, in an
    /// order where each comes after the endings its moves out of it lead
    /// to (captures, promotions): those of `endings` and of every ending
    /// a sequence of such moves leads to (down to three pieces) that have
    /// no table yet, colours exchanged or not, an ending with only Black
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
            if !self.covers(&s) && !out.contains(&s) && !out.contains(&flip) {
                out.push(s);
            }
        }
        let mut keyed: Vec<(usize, usize, u64, Signature)> = out
            .into_iter()
            .map(|s| {
                let pawns = s
                    .pieces()
                    .filter(|p| p.role == gametree_games_chess::Role::Pawn);
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
    /// use gametree_chess_tables::Tables;
    ///
    /// // KQRvKR and its five sub-endings, on two threads: about 536 MiB,
    /// // most of it KQRvKR's build (520 MiB, its table of 231 MiB
    /// // included); the 4-man tables take 3.6 MiB each.
    /// let tables = Tables::new();
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
    /// build fails (the first to fail; no table of this call is kept).
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
        let have = &self.entries;
        let have_pawns = &self.pawn_entries;
        let built = gametree_retrograde::schedule(&needs, threads, |job| {
            let finished = || needs[job.index()].iter().filter_map(|&j| job.finished(j));
            build_ending(
                &plan[job.index()],
                have.iter()
                    .chain(finished().filter_map(Built::pawnless))
                    .collect(),
                have_pawns
                    .iter()
                    .chain(finished().filter_map(Built::pawns))
                    .collect(),
                job.threads(),
                options.progress,
            )
        })
        .map_err(|e| match e {
            gametree_retrograde::ScheduleError::Build { error, .. } => error,
            // Every job needs only earlier ones, all of them jobs.
            other => unreachable!("a plan is acyclic: {other:?}"),
        })?;
        for b in built {
            match b {
                Built::Pawnless(e) => self.entries.push(*e),
                Built::Pawns(e) => self.pawn_entries.push(*e),
            }
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
    /// (`BuildError::Unresolved`) when a table it needs is missing.
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
        let built = build_ending(
            ending,
            self.entries.iter().collect(),
            self.pawn_entries.iter().collect(),
            threads,
            options.progress,
        )?;
        Ok(match built {
            Built::Pawnless(e) => e.1,
            Built::Pawns(e) => e.1,
        })
    }

    /// Reads this ending's table from `path` and adds it, replacing the
    /// ending's table if there was one. The file is raw (written by
    /// [`save`](Self::save), or by [`Table::write`] from a table labelled
    /// with [`label`]) or, when its name ends in `.gtbz`
    /// ([`is_compressed`]), compressed (written by
    /// [`save_compressed`](Self::save_compressed): every block is read,
    /// checked and decoded).
    ///
    /// # Errors
    ///
    /// [`Error::Load`] when the file cannot be read, or is truncated,
    /// corrupted, of another format version or of another ending;
    /// [`Error::Size`] when its size is not the ending's.
    pub fn load(&mut self, signature: &Signature, path: &Path) -> Result<(), Error> {
        let table = compressed::read_table(signature, path)?;
        self.insert(table)?;
        Ok(())
    }

    /// Writes this ending's table to `path` (atomically: a temporary file
    /// renamed), with its label. Returns `false` when there is no such
    /// table (colours as given).
    ///
    /// # Errors
    ///
    /// [`Error::Save`] when the file cannot be written.
    pub fn save(&self, signature: &Signature, path: &Path) -> Result<bool, Error> {
        let Some(table) = self.table(signature) else {
            return Ok(false);
        };
        table.write(path).map_err(|source| Error::Save {
            ending: signature.clone(),
            source,
        })?;
        Ok(true)
    }

    /// The value of `p` for the side to move, from the table of its
    /// material or of the colours exchanged; `None` when neither is here.
    /// Two bare kings are a draw without a table.
    #[must_use]
    pub fn probe_placement(&self, p: &Placement) -> Option<Value> {
        if p.pieces().count() == 2 {
            return Some(Value::Draw);
        }
        lookup(self.entries.iter(), p)
    }

    /// The value of `position` for the side to move, from the table of
    /// its material or of the colours exchanged (see
    /// [`probe_placement`](Self::probe_placement) for pawnless ones; with
    /// pawns, an en-passant capture the side to move has is taken into
    /// account); `None` when it has castling rights or too many pieces, or
    /// when its ending has no table here.
    #[must_use]
    pub fn probe(&self, position: &Position) -> Option<Value> {
        if position.castling_rights() != 0 {
            return None;
        }
        lookup_any(self.entries.iter(), self.pawn_entries.iter(), position)
    }
}

impl Tables {
    /// A best move of `position` by the tables, and the position's value:
    /// the legal move to the successor whose value is best for the side to
    /// move (the fastest win, else a draw, else the slowest loss; the first
    /// in move-generation order among equals). `None` when the side to
    /// move has no legal move, or when the position or one of its
    /// successors cannot be probed ([`probe`](Self::probe)).
    ///
    /// Following best moves from a won position mates in exactly the
    /// number of plies its value says, whatever the loser plays (the
    /// fifty-move rule is ignored, as the tables do).
    #[must_use]
    pub fn best_move(&self, position: &Position) -> Option<(Move, Value)> {
        infallible(best_move_by(position, |p| Ok(self.probe(p))))
    }
}

/// [`Tables::best_move`] with positions valued by `probe` (which may
/// fail: a compressed file's block).
fn best_move_by<E>(
    position: &Position,
    probe: impl Fn(&Position) -> Result<Option<Value>, E>,
) -> Result<Option<(Move, Value)>, E> {
    let Some(value) = probe(position)? else {
        return Ok(None);
    };
    let mut moves = <Position as Game>::Moves::default();
    position.generate(&mut moves);
    let mut best: Option<(Move, Value)> = None;
    for &m in &moves {
        let mut child = position.clone();
        child.make(m);
        let Some(v) = probe(&child)? else {
            return Ok(None);
        };
        let v = v.parent();
        if best.is_none_or(|(_, b)| rank(v) > rank(b)) {
            best = Some((m, v));
        }
    }
    // In consistent tables the best successor's value, seen from here,
    // is the position's (the test of this crate follows a mate).
    Ok(best.map(|(m, _)| (m, value)))
}

/// Orders values for the side to move: faster wins first, slower losses
/// last.
fn rank(v: Value) -> i64 {
    match v {
        Value::Win(d) => 100_000 - i64::from(d),
        Value::Draw => 0,
        Value::Loss(d) => -100_000 + i64::from(d),
    }
}

impl Resolve<Placement> for Tables {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        lookup(self.entries.iter(), p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

impl Resolve<Position> for Tables {
    fn resolve(&self, p: &Position) -> Option<Value> {
        self.probe(p)
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}
