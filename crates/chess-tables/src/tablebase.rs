//! [`Tablebase`]: the chess endgame tables of a program, found by
//! material — built in memory, inserted, or read from table files when
//! first probed — probed by position, and planned and built together.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use gametree_game::{Game, IndexSpace, Limits};
use gametree_games_chess::{Move, Position};
use gametree_retrograde::{Event, Label, Resolve, Table, Value};

use crate::exits::flipped;
use crate::{
    BLACK_KING, Error, FastEndgame, MAX_PIECES, PawnEndgame, Placement, Signature, Statistics,
    WHITE_KING, flip_position, pawn_statistics, piece, statistics,
};

mod build;
mod compressed;
mod files;
mod written;
use build::{pawn_space_of, space_of};
pub use compressed::{
    COMPRESSED_EXTENSION, check_table_file, compressed_table_file, is_compressed,
};
pub use files::{Held, Load, LoadEvent, table_files};
pub use written::{Written, find_table_file, table_bytes, table_file};

/// The largest endings [`Tablebase::build`] builds, kings included:
/// building a 5-man table takes about 2.25 bytes per index (KQRvKR: 520
/// MiB, as [`Generator::memory`](gametree_retrograde::Generator::memory)
/// states); a 6-man one would take 64 times as much, about 32 GiB.
pub const MAX_BUILD_PIECES: usize = 5;

/// The largest endings with pawns [`Tablebase::build`] builds, kings
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

/// The index space of an ending: pawnless, or with pawns.
#[derive(Debug)]
enum Space {
    Pawnless(FastEndgame),
    Pawns(Box<PawnEndgame>),
}

impl Space {
    fn of(signature: &Signature) -> Space {
        match pawn_space_of(signature) {
            Some(space) => Space::Pawns(Box::new(space)),
            None => Space::Pawnless(space_of(signature)),
        }
    }
}

/// The material key of an ending: four bits per piece number (`colour ×
/// 6 + role`, kings included) counting its pieces, the key
/// [`Placement::material`] gives its positions.
fn signature_key(signature: &Signature) -> u64 {
    let kings = (1u64 << (4 * WHITE_KING)) + (1u64 << (4 * BLACK_KING));
    kings
        + signature
            .pieces()
            .map(|p| 1u64 << (4 * (p.color.index() * 6 + p.role.index())))
            .sum::<u64>()
}

/// The material key of a position of at most [`MAX_PIECES`] pieces (see
/// [`signature_key`]).
fn position_key(position: &Position) -> u64 {
    (0..12)
        .map(|n| u64::from(position.piece_squares(piece(n)).count_ones()) << (4 * n))
        .sum()
}

/// The key of the same material with the colours exchanged: White's 24
/// bits and Black's swapped.
const fn flipped_key(key: u64) -> u64 {
    (key >> 24) | ((key & 0xff_ffff) << 24)
}

/// One ending of a [`Tablebase`]: its space and where its table is.
#[derive(Debug)]
struct Slot {
    ending: Signature,
    space: Space,
    source: Source,
}

/// Where an ending's table is.
#[derive(Debug)]
enum Source {
    /// In memory for good: built, inserted or loaded.
    Memory(Table),
    /// In a file, read when first probed.
    File(files::FileTable),
}

impl Slot {
    fn memory(&self) -> Option<&Table> {
        match &self.source {
            Source::Memory(t) => Some(t),
            Source::File(_) => None,
        }
    }

    fn pawnless(&self) -> Option<(&FastEndgame, &Table)> {
        match (&self.space, &self.source) {
            (Space::Pawnless(s), Source::Memory(t)) => Some((s, t)),
            _ => None,
        }
    }

    fn pawns(&self) -> Option<(&PawnEndgame, &Table)> {
        match (&self.space, &self.source) {
            (Space::Pawns(s), Source::Memory(t)) => Some((s, t)),
            _ => None,
        }
    }
}

/// A progress callback: the ending being built and what its build reports.
pub type Progress<'a> = dyn Fn(&Signature, &Event<'_, Move>) + Sync + 'a;

/// How [`Tablebase::build`] builds.
#[derive(Clone, Copy, Default)]
pub struct BuildOptions<'a> {
    /// Threads in all; 0 (the default) for every available core. Endings
    /// that do not depend on each other are built at the same time, on one
    /// thread each; an ending that is alone to be ready gets all threads.
    pub threads: usize,
    /// Called with each build's progress ([`Event`]), from the threads
    /// that build; several endings may report at the same time.
    pub progress: Option<&'a Progress<'a>>,
    /// When to stop (none by default): [`Limits::cancel`] raised, or
    /// [`Limits::time`] spent (from the start of the call, all its
    /// endings together), or an ending's build past [`Limits::nodes`]
    /// positions decided. An ending not started yet is not started; one
    /// building stops after its classification or at the end of the
    /// level it is at (a level of a 5-man ending takes seconds). The call
    /// then returns [`Error::Stopped`]: nothing of it is kept in memory,
    /// and the files a build into a directory finished stay (a later call
    /// resumes from them). [`Limits::depth`] is not used.
    pub limits: Option<&'a Limits>,
}

impl fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuildOptions")
            .field("threads", &self.threads)
            .field("progress", &self.progress.is_some())
            .field("limits", &self.limits)
            .finish()
    }
}

/// The chess endgame tables of a program, one per ending, found by
/// material: a probe hashes the position's material once and goes to
/// its ending's table (or to the table of the colours exchanged: `KvKR`
/// in `KRvK`) without looking at the others.
///
/// A table is in memory for good (built by [`build`](Self::build), added
/// by [`insert`](Self::insert) or read by [`load`](Self::load)), or in a
/// file ([`add_directory`](Self::add_directory),
/// [`add_file`](Self::add_file)) read when a probe first needs it: a raw
/// file (`ENDING.gtb`) is read whole; a compressed one (`ENDING.gtbz`)
/// is probed a block at a time, only its block index in memory, until it
/// has been probed once per 1,024 of its positions — then, when its table
/// fits in the memory budget, it is decoded whole. The tables read from
/// files stay within a memory budget
/// ([`set_memory_budget`](Self::set_memory_budget)): reading one more
/// beyond it first drops the tables probed least recently (a table
/// larger than the budget is still read, alone).
///
/// Every way gives the values of the tables as built: a table read from
/// a raw or compressed file probes exactly as the table written. A file
/// that cannot be read (truncated, corrupted, of another format version
/// or of another ending) is a typed [`Error`] where it is found: when it
/// is added (its header) or when it is first probed (the rest), never a
/// panic nor another value.
///
/// Probes may come from several threads at once (the tablebase is
/// `Sync`): a file is read once, by the first probe that needs it, while
/// probes of the tables in memory go on. It is a
/// [`gametree_game::Oracle`] and a [`Resolve`]r (see
/// [`take_error`](Self::take_error) for the errors these cannot return).
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tablebase, table_file};
/// use gametree_games_chess::Position;
/// use gametree_retrograde::Value;
///
/// // Built in memory: KRvK needs no other table.
/// let mut built = Tablebase::new();
/// built.build(&["KRvK".parse()?], &BuildOptions::default())?;
/// let p: Position = "8/8/8/4k3/8/8/8/R6K b - - 0 1".parse()?;
/// assert!(matches!(built.probe(&p)?, Some(Value::Loss(_))));
///
/// // Written to a directory, then probed from it: read when first probed.
/// let dir = std::env::temp_dir().join(format!("tablebase-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// built.save(&"KRvK".parse()?, &table_file(&dir, &"KRvK".parse()?))?;
/// let mut tablebase = Tablebase::new();
/// assert_eq!(tablebase.add_directory(&dir)?, 1);
/// assert_eq!(tablebase.held(&"KRvK".parse()?), None); // not read yet
/// assert_eq!(tablebase.probe(&p)?, built.probe(&p)?);
/// assert!(tablebase.held(&"KRvK".parse()?).is_some()); // read now
/// // The colours exchanged: the same table.
/// let q: Position = "r6k/8/8/8/4K3/8/8/8 w - - 0 1".parse()?;
/// assert_eq!(tablebase.probe(&q)?, tablebase.probe(&p)?);
/// // A best move by the tables, with the position's value.
/// let (best, value) = tablebase.best_move(&q)?.expect("a legal move");
/// assert_eq!(Some(value), tablebase.probe(&q)?);
/// println!("{best}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Tablebase {
    /// Every ending, in the order added.
    slots: Vec<Slot>,
    /// Each ending's place in `slots`, by its material key.
    by_key: HashMap<u64, usize>,
    /// The state of the tables read from files.
    files: files::Files,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let endings: Vec<String> = self.slots.iter().map(|s| s.ending.to_string()).collect();
        f.debug_struct("Tablebase")
            .field("endings", &endings)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase::new()
    }
}

impl Tablebase {
    /// No tables, no memory budget for the tables of files (see
    /// [`set_memory_budget`](Self::set_memory_budget)).
    #[must_use]
    pub fn new() -> Self {
        Tablebase {
            slots: Vec::new(),
            by_key: HashMap::new(),
            files: files::Files::default(),
        }
    }

    /// The number of endings, in memory or in files.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// No endings?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Every ending (in memory or in a file), in the order added.
    pub fn endings(&self) -> impl Iterator<Item = &Signature> {
        self.slots.iter().map(|s| &s.ending)
    }

    /// The place of exactly this ending (colours as given), by material.
    fn slot_of(&self, signature: &Signature) -> Option<usize> {
        self.by_key.get(&signature_key(signature)).copied()
    }

    /// The ending of this material key, if any.
    #[inline]
    fn slot_by_key(&self, key: u64) -> Option<usize> {
        self.by_key.get(&key).copied()
    }

    /// Is this ending here, or the colours exchanged (in memory or in a
    /// file)?
    #[must_use]
    pub fn covers(&self, signature: &Signature) -> bool {
        let key = signature_key(signature);
        self.by_key.contains_key(&key) || self.by_key.contains_key(&flipped_key(key))
    }

    /// Is the table of this ending, or of the colours exchanged, in memory
    /// for good (built, inserted or loaded; not a file's)?
    fn covers_in_memory(&self, signature: &Signature) -> bool {
        [signature.clone(), flipped(signature)]
            .iter()
            .any(|s| self.table(s).is_some())
    }

    /// The tables in memory for good (built, inserted or loaded) with
    /// their signatures, pawnless endings first, each in the order they
    /// were added. The tables of files are not among them.
    pub fn tables(&self) -> impl Iterator<Item = (&Signature, &Table)> {
        let pawnless = self
            .slots
            .iter()
            .filter_map(|s| s.pawnless().map(|(_, t)| (&s.ending, t)));
        let pawns = self
            .slots
            .iter()
            .filter_map(|s| s.pawns().map(|(_, t)| (&s.ending, t)));
        pawnless.chain(pawns)
    }

    /// The table of exactly this ending (colours as given), with or
    /// without pawns, when it is in memory for good.
    #[must_use]
    pub fn table(&self, signature: &Signature) -> Option<&Table> {
        self.slot_of(signature)
            .and_then(|at| self.slots[at].memory())
    }

    /// The space and table of exactly this ending with pawns (colours as
    /// given), when its table is in memory for good.
    #[must_use]
    pub fn get_pawns(&self, signature: &Signature) -> Option<(&PawnEndgame, &Table)> {
        self.slot_of(signature)
            .and_then(|at| self.slots[at].pawns())
    }

    /// The pawnless endings' signatures, spaces and tables in memory for
    /// good, in the order they were added (see [`tables`](Self::tables)
    /// for all).
    pub fn iter(&self) -> impl Iterator<Item = (&Signature, &FastEndgame, &Table)> {
        self.slots
            .iter()
            .filter_map(|s| s.pawnless().map(|(space, t)| (&s.ending, space, t)))
    }

    /// The space and table of exactly this pawnless ending (colours as
    /// given; see [`get_pawns`](Self::get_pawns) for endings with pawns),
    /// when its table is in memory for good.
    #[must_use]
    pub fn get(&self, signature: &Signature) -> Option<(&FastEndgame, &Table)> {
        self.slot_of(signature)
            .and_then(|at| self.slots[at].pawnless())
    }

    /// The [`statistics`] of this ending's table (colours as given), or
    /// `None` when it is not in memory for good.
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

    /// Adds an ending, in place of the ending's entry if there was one,
    /// which is returned.
    fn put(&mut self, slot: Slot) -> Option<Slot> {
        let old = self.take(&slot.ending);
        self.by_key
            .insert(signature_key(&slot.ending), self.slots.len());
        self.slots.push(slot);
        old
    }

    /// Removes an ending's entry (colours as given).
    fn take(&mut self, signature: &Signature) -> Option<Slot> {
        let at = self.slot_of(signature)?;
        let slot = self.slots.remove(at);
        if let Source::File(f) = &slot.source {
            self.files.forget(f);
        }
        self.by_key.clear();
        for (i, s) in self.slots.iter().enumerate() {
            self.by_key.insert(signature_key(&s.ending), i);
        }
        Some(slot)
    }

    /// Adds a table (built elsewhere, or read from a file), in memory for
    /// good, in place of its ending's table or file if there was one; the
    /// ending's table is returned when it was in memory. The ending is
    /// read from the table's [`Label`], which must be the [`label`] of a
    /// chess ending.
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
        compressed::check_len(&signature, table.len())?;
        let old = self.put(Slot {
            space: Space::of(&signature),
            ending: signature,
            source: Source::Memory(table),
        });
        Ok(old.and_then(|s| match s.source {
            Source::Memory(t) => Some(t),
            Source::File(_) => None,
        }))
    }

    /// Removes this ending (colours as given), in memory or in a file, and
    /// returns its table when it was in memory for good.
    pub fn remove(&mut self, signature: &Signature) -> Option<Table> {
        match self.take(signature)?.source {
            Source::Memory(t) => Some(t),
            Source::File(_) => None,
        }
    }

    /// Reads this ending's table from `path` now and adds it, in memory
    /// for good, in place of the ending's table or file if there was one.
    /// The file is raw (written by [`save`](Self::save), or by
    /// [`Table::write`] from a table labelled with [`label`]) or, when its
    /// name ends in `.gtbz` ([`is_compressed`]), compressed (written by
    /// [`save_compressed`](Self::save_compressed): every block is read,
    /// checked and decoded). [`add_file`](Self::add_file) adds a file to
    /// be read when first probed instead.
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
    /// table in memory (colours as given).
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
    ///
    /// # Errors
    ///
    /// [`Error::Load`] or [`Error::Size`] when the table's file, read
    /// now, is refused ([`probe`](Self::probe)).
    pub fn probe_placement(&self, p: &Placement) -> Result<Option<Value>, Error> {
        if p.pieces().count() == 2 {
            return Ok(Some(Value::Draw));
        }
        self.lookup_placement(p)
    }

    /// The value of `position` for the side to move, from the table of
    /// its material or of the colours exchanged (with pawns, an
    /// en-passant capture the side to move has is taken into account);
    /// `None` when it has castling rights or more than [`MAX_PIECES`]
    /// pieces, or when its ending is not here. Two bare kings are a draw
    /// without a table. A table in a file is read first when it is not
    /// in memory ([`Tablebase`]).
    ///
    /// # Errors
    ///
    /// [`Error::Load`] when the table's file, read now, cannot be read or
    /// is refused (truncated, corrupted, another version or ending; a
    /// compressed file's block that fails its checksum); [`Error::Size`]
    /// when it is not the ending's size.
    pub fn probe(&self, position: &Position) -> Result<Option<Value>, Error> {
        if position.castling_rights() != 0 || position.piece_count() as usize > MAX_PIECES {
            return Ok(None);
        }
        match Placement::from_position(position) {
            Some(p) => self.probe_placement(&p),
            None => self.lookup_pawns(position),
        }
    }

    /// The value of a pawnless placement in the table of its material,
    /// else of the colours exchanged.
    #[inline]
    fn lookup_placement(&self, p: &Placement) -> Result<Option<Value>, Error> {
        let key = p.material();
        if let Some(at) = self.slot_by_key(key)
            && let Some(v) = self.value_pawnless(at, p)?
        {
            return Ok(Some(v));
        }
        match self.slot_by_key(flipped_key(key)) {
            Some(at) => self.value_pawnless(at, &p.flipped()),
            None => Ok(None),
        }
    }

    /// The value of a position with pawns in the table of its material,
    /// else of the colours exchanged.
    fn lookup_pawns(&self, position: &Position) -> Result<Option<Value>, Error> {
        let key = position_key(position);
        if let Some(at) = self.slot_by_key(key)
            && let Some(v) = self.value_pawns(at, position)?
        {
            return Ok(Some(v));
        }
        let Some(at) = self.slot_by_key(flipped_key(key)) else {
            return Ok(None);
        };
        match flip_position(position) {
            Some(flipped) => self.value_pawns(at, &flipped),
            None => Ok(None),
        }
    }

    #[inline]
    fn value_pawnless(&self, at: usize, p: &Placement) -> Result<Option<Value>, Error> {
        match &self.slots[at].space {
            Space::Pawnless(space) => match space.index_of(p) {
                Some(index) => self.value_at(at, index),
                None => Ok(None),
            },
            Space::Pawns(_) => Ok(None),
        }
    }

    fn value_pawns(&self, at: usize, position: &Position) -> Result<Option<Value>, Error> {
        match &self.slots[at].space {
            Space::Pawns(space) => match space.index_of(position) {
                Some(index) => self.value_at(at, index),
                None => Ok(None),
            },
            Space::Pawnless(_) => Ok(None),
        }
    }

    /// The value at `index` of the table of ending `at`.
    #[inline]
    fn value_at(&self, at: usize, index: u64) -> Result<Option<Value>, Error> {
        match &self.slots[at].source {
            Source::Memory(table) => Ok(table.get(index)),
            Source::File(file) => self.file_value(at, file, index),
        }
    }

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
    ///
    /// # Errors
    ///
    /// As [`probe`](Self::probe).
    pub fn best_move(&self, position: &Position) -> Result<Option<(Move, Value)>, Error> {
        best_move_by(position, |p| self.probe(p))
    }

    /// The value, or `None` with the error kept for
    /// [`take_error`](Self::take_error).
    pub(crate) fn kept(&self, probed: Result<Option<Value>, Error>) -> Option<Value> {
        match probed {
            Ok(v) => v,
            Err(e) => {
                self.files.keep_error(e);
                None
            }
        }
    }

    /// The first error a probe met through the [`Oracle`] or [`Resolve`]
    /// traits since the last call (taken: the next call returns `None`
    /// until another comes). These traits cannot return errors: a
    /// position whose table's file cannot be read is unknown to them
    /// (`None`), and a caller that must tell an unknown position from a
    /// damaged file checks here, or probes with
    /// [`probe`](Self::probe) itself.
    ///
    /// [`Oracle`]: gametree_game::Oracle
    pub fn take_error(&self) -> Option<Error> {
        self.files.take_error()
    }
}

/// [`Tablebase::best_move`] with positions valued by `probe`.
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

/// A capture is valued in the table of its material (or of the colours
/// exchanged), read from its file first if need be; a file that cannot be
/// read leaves it unknown, the error kept for
/// [`Tablebase::take_error`].
impl Resolve<Placement> for Tablebase {
    fn resolve(&self, p: &Placement) -> Option<Value> {
        self.kept(self.lookup_placement(p))
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

/// As [`Tablebase::probe`]; a file that cannot be read leaves the
/// position unknown, the error kept for [`Tablebase::take_error`].
impl Resolve<Position> for Tablebase {
    fn resolve(&self, p: &Position) -> Option<Value> {
        self.kept(self.probe(p))
    }

    /// Tables hold the exact value of terminal positions too.
    fn knows_terminals(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
