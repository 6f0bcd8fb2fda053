//! Compressed table files (`ENDING.gtbz`, the block-wise format of
//! [`gametree_retrograde::compressed`]): written from [`Tables`], read
//! back whole by [`Tables::load`], or probed a block at a time without
//! reading the table ([`CompressedTables`]).

use std::path::{Path, PathBuf};

use gametree_games_chess::{Move, Position};
use gametree_retrograde::compressed::{self, CompressedTable};
use gametree_retrograde::{SizeMismatch, Table, Value};

use super::build::{pawn_space_of, space_of};
use super::{Tables, label, lookup_any_in};
use crate::{Error, FastEndgame, PawnEndgame, Signature};

/// The extension of a compressed table file.
pub const COMPRESSED_EXTENSION: &str = "gtbz";

/// The compressed file of an ending's table in `dir`:
/// `dir/<ending>.gtbz` (beside the raw [`table_file`](super::table_file)
/// `dir/<ending>.gtb`).
#[must_use]
pub fn compressed_table_file(dir: &Path, ending: &Signature) -> PathBuf {
    dir.join(format!("{ending}.{COMPRESSED_EXTENSION}"))
}

/// Is `path` a compressed table file (by its extension, `.gtbz`)?
#[must_use]
pub fn is_compressed(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some(COMPRESSED_EXTENSION)
}

/// Reads `ending`'s table from `path`: a raw file, or a compressed one
/// (`.gtbz`: every block read, checked and decoded), checking its label
/// and its size.
pub(super) fn read_table(ending: &Signature, path: &Path) -> Result<Table, Error> {
    let load = |source| Error::Load {
        ending: ending.clone(),
        source,
    };
    let table = if is_compressed(path) {
        CompressedTable::open(path, &label(ending))
            .and_then(|c| c.to_table())
            .map_err(load)?
    } else {
        Table::read(path, &label(ending)).map_err(load)?
    };
    check_len(ending, table.len())?;
    Ok(table)
}

/// Checks the file at `path` as `ending`'s table without reading the
/// table: a raw file's header and length
/// ([`Table::check_header`]), a compressed one's (`.gtbz`,
/// [`is_compressed`]) header and block index
/// ([`CompressedTable::open`]), and the number of positions. A file this
/// refuses, [`Tables::load`] and [`CompressedTables::open`] refuse with
/// the same error; the rest (a raw file's payload checksum, a compressed
/// file's blocks) is checked when the table or a block is read.
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tables, check_table_file, table_file};
///
/// let ending = "KRvK".parse()?;
/// let mut tables = Tables::new();
/// tables.build(std::slice::from_ref(&ending), &BuildOptions::default())?;
/// let dir = std::env::temp_dir().join(format!("check-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = table_file(&dir, &ending);
/// tables.save(&ending, &path)?;
/// check_table_file(&ending, &path)?;
/// // Cut short: refused, with the words `Tables::load` uses.
/// let bytes = std::fs::read(&path)?;
/// std::fs::write(&path, &bytes[..1000])?;
/// let e = check_table_file(&ending, &path).unwrap_err();
/// assert_eq!(e.to_string(), Tables::new().load(&ending, &path).unwrap_err().to_string());
/// assert!(e.to_string().contains("truncated database: 1000 bytes"), "{e}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`Error::Load`] when the file cannot be read, or is truncated,
/// corrupted, of another format version or of another ending;
/// [`Error::Size`] when its size is not the ending's.
pub fn check_table_file(ending: &Signature, path: &Path) -> Result<(), Error> {
    let load = |source| Error::Load {
        ending: ending.clone(),
        source,
    };
    let len = if is_compressed(path) {
        CompressedTable::open(path, &label(ending))
            .map_err(load)?
            .len()
    } else {
        Table::check_header(path, &label(ending)).map_err(load)?
    };
    check_len(ending, len)
}

/// Refuses a table whose number of indices is not `ending`'s.
fn check_len(ending: &Signature, len: u64) -> Result<(), Error> {
    let size = super::space_size(ending);
    if len == size {
        Ok(())
    } else {
        Err(Error::Size {
            ending: ending.clone(),
            source: SizeMismatch {
                space: size,
                table: len,
            },
        })
    }
}

impl Tables {
    /// Writes this ending's table to `path` compressed (the block-wise
    /// format of [`gametree_retrograde::compressed`]; atomically: a
    /// temporary file renamed), with its label. [`load`](Self::load) reads
    /// it back whole and [`CompressedTables`] probes it a block at a time.
    /// Returns `false` when there is no such table (colours as given).
    ///
    /// ```
    /// use gametree_chess_tables::{BuildOptions, CompressedTables, Tables, compressed_table_file};
    ///
    /// let ending = "KQvK".parse()?;
    /// let mut tables = Tables::new();
    /// tables.build(std::slice::from_ref(&ending), &BuildOptions::default())?;
    /// let dir = std::env::temp_dir().join(format!("gtbz-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = compressed_table_file(&dir, &ending);
    /// assert!(tables.save_compressed(&ending, &path)?);
    ///
    /// // Probed from the file, a block at a time: the raw table's values.
    /// let mut disk = CompressedTables::new();
    /// disk.open(&ending, &path)?;
    /// let p = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse()?;
    /// assert_eq!(disk.probe(&p)?, tables.probe(&p));
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Save`] when the file cannot be written.
    pub fn save_compressed(&self, signature: &Signature, path: &Path) -> Result<bool, Error> {
        let Some(table) = self.table(signature) else {
            return Ok(false);
        };
        compressed::write(table, path).map_err(|source| Error::Save {
            ending: signature.clone(),
            source,
        })?;
        Ok(true)
    }
}

/// Chess tables probed from their compressed files without reading them:
/// each probe reads and decodes one block of its ending's file (a few
/// kilobytes; tens of microseconds), and only the files' headers and
/// block indices stay in memory (16 bytes per block of 2,048 positions).
///
/// The right choice for a few probes into large endings (a line of play,
/// a search's leaves now and then); [`Tables`] reads whole tables, the
/// right choice for many probes. Probes from several threads take turns
/// on each file.
///
/// ```no_run
/// use gametree_chess_tables::{CompressedTables, compressed_table_file};
/// use std::path::Path;
///
/// let dir = Path::new("tables");
/// let mut disk = CompressedTables::new();
/// let ending = "KQRvKR".parse()?;
/// disk.open(&ending, &compressed_table_file(dir, &ending))?;
/// let p = "8/8/8/3k4/8/8/2r5/KQR5 w - - 0 1".parse()?;
/// println!("{:?}", disk.probe(&p)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct CompressedTables {
    pawnless: Vec<(FastEndgame, Opened)>,
    pawns: Vec<(PawnEndgame, Opened)>,
}

/// An open file and the ending it holds (for errors).
#[derive(Debug)]
struct Opened {
    ending: Signature,
    table: CompressedTable,
}

impl Opened {
    fn get(&self, index: u64) -> Result<Option<Value>, Error> {
        self.table.get(index).map_err(|source| Error::Load {
            ending: self.ending.clone(),
            source,
        })
    }
}

impl CompressedTables {
    /// No tables.
    #[must_use]
    pub fn new() -> Self {
        CompressedTables::default()
    }

    /// The number of files open.
    #[must_use]
    pub fn len(&self) -> usize {
        self.pawnless.len() + self.pawns.len()
    }

    /// No files open?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The endings of the files open, pawnless ones first, each in the
    /// order they were opened.
    pub fn endings(&self) -> impl Iterator<Item = &Signature> {
        let pawnless = self.pawnless.iter().map(|(s, _)| s.endgame().signature());
        pawnless.chain(self.pawns.iter().map(|(s, _)| s.signature()))
    }

    /// The open file of exactly this ending (colours as given).
    #[must_use]
    pub fn table(&self, signature: &Signature) -> Option<&CompressedTable> {
        let pawnless = self
            .pawnless
            .iter()
            .find(|(s, _)| s.endgame().signature() == signature);
        match pawnless {
            Some((_, t)) => Some(&t.table),
            None => self
                .pawns
                .iter()
                .find(|(s, _)| s.signature() == signature)
                .map(|(_, t)| &t.table),
        }
    }

    /// Is a file of this ending, or of the colours exchanged, open?
    #[must_use]
    pub fn covers(&self, signature: &Signature) -> bool {
        self.table(signature).is_some() || self.table(&signature.flipped()).is_some()
    }

    /// Opens the compressed file at `path` as `signature`'s table (its
    /// header and block index are read and checked; no block is), in
    /// place of the ending's file if one was open.
    ///
    /// # Errors
    ///
    /// [`Error::Load`] when the file cannot be read, or is truncated,
    /// corrupted, of another format version or of another ending;
    /// [`Error::Size`] when its size is not the ending's.
    pub fn open(&mut self, signature: &Signature, path: &Path) -> Result<(), Error> {
        let table =
            CompressedTable::open(path, &label(signature)).map_err(|source| Error::Load {
                ending: signature.clone(),
                source,
            })?;
        check_len(signature, table.len())?;
        self.remove(signature);
        let opened = Opened {
            ending: signature.clone(),
            table,
        };
        match pawn_space_of(signature) {
            Some(space) => self.pawns.push((space, opened)),
            None => self.pawnless.push((space_of(signature), opened)),
        }
        Ok(())
    }

    /// Closes this ending's file (colours as given); `false` when none
    /// was open.
    pub fn remove(&mut self, signature: &Signature) -> bool {
        let before = self.len();
        self.pawnless
            .retain(|(s, _)| s.endgame().signature() != signature);
        self.pawns.retain(|(s, _)| s.signature() != signature);
        self.len() != before
    }

    /// The value of `position` for the side to move, from the file of its
    /// material or of the colours exchanged, exactly as
    /// [`Tables::probe`] on the tables written: `None` when it has
    /// castling rights or more pieces than any table, or when no file of
    /// its ending is open. Two bare kings are a draw without a file.
    ///
    /// # Errors
    ///
    /// [`Error::Load`] when the position's block cannot be read or fails
    /// its checksum (the file changed since it was opened).
    pub fn probe(&self, position: &Position) -> Result<Option<Value>, Error> {
        if position.castling_rights() != 0 {
            return Ok(None);
        }
        lookup_any_in(
            self.pawnless.iter(),
            self.pawns.iter(),
            position,
            Opened::get,
        )
    }

    /// A best move of `position` and its value, as
    /// [`Tables::best_move`] finds it, from the files.
    ///
    /// # Errors
    ///
    /// As [`probe`](Self::probe).
    pub fn best_move(&self, position: &Position) -> Result<Option<(Move, Value)>, Error> {
        super::best_move_by(position, |p| self.probe(p))
    }
}
