//! Compressed table files (`ENDING.gtbz`, the block-wise format of
//! [`gametree_retrograde::compressed`]): written from a [`Tablebase`],
//! read back whole by [`Tablebase::load`], or probed a block at a time
//! without reading the table ([`Tablebase::add_file`]).

use std::path::{Path, PathBuf};

use gametree_retrograde::compressed::{self, CompressedTable};
use gametree_retrograde::format::{FileFormat, Header};
use gametree_retrograde::{LoadError, SizeMismatch, Table};

use super::{Tablebase, label};
use crate::{Error, Signature};

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
/// refuses, [`Tablebase::load`] and [`Tablebase::add_file`] refuse with
/// the same error; the rest (a raw file's payload checksum, a compressed
/// file's blocks) is checked when the table or a block is read.
///
/// ```
/// use gametree_chess_tables::{BuildOptions, Tablebase, check_table_file, table_file};
///
/// let ending = "KRvK".parse()?;
/// let mut tables = Tablebase::new();
/// tables.build(std::slice::from_ref(&ending), &BuildOptions::default())?;
/// let dir = std::env::temp_dir().join(format!("check-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = table_file(&dir, &ending);
/// tables.save(&ending, &path)?;
/// check_table_file(&ending, &path)?;
/// // Cut short: refused, with the words `Tablebase::load` uses.
/// let bytes = std::fs::read(&path)?;
/// std::fs::write(&path, &bytes[..1000])?;
/// let e = check_table_file(&ending, &path).unwrap_err();
/// assert_eq!(e.to_string(), Tablebase::new().load(&ending, &path).unwrap_err().to_string());
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

/// Checks the header of the file at `path` as `ending`'s table, without
/// reading the rest: the magic bytes (a raw file, or a compressed one by
/// its extension), the version, the header's checksum, the label and the
/// number of positions ([`Header`]). A file this refuses is refused in
/// the same words when it is read; the rest (a raw file's length and
/// payload, a compressed file's block index and blocks) is checked then.
pub(super) fn check_file_header(ending: &Signature, path: &Path) -> Result<(), Error> {
    let load = |source| Error::Load {
        ending: ending.clone(),
        source,
    };
    if !is_compressed(path) {
        // A raw file's header and length: a few hundred bytes.
        return check_table_file(ending, path);
    }
    let file = std::fs::File::open(path).map_err(|e| load(LoadError::Io(e)))?;
    let header =
        Header::read_format(std::io::BufReader::new(file), FileFormat::Compressed).map_err(load)?;
    header.check_label(&label(ending)).map_err(load)?;
    check_len(ending, header.size())
}

/// Refuses a table whose number of indices is not `ending`'s.
pub(super) fn check_len(ending: &Signature, len: u64) -> Result<(), Error> {
    let size = super::build::space_size(ending);
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

impl Tablebase {
    /// Writes this ending's table to `path` compressed (the block-wise
    /// format of [`gametree_retrograde::compressed`]; atomically: a
    /// temporary file renamed), with its label. [`load`](Self::load) reads
    /// it back whole and [`add_file`](Self::add_file) probes it a block at
    /// a time.
    /// Returns `false` when there is no such table (colours as given).
    ///
    /// ```
    /// use gametree_chess_tables::{BuildOptions, Held, Tablebase, compressed_table_file};
    ///
    /// let ending = "KQvK".parse()?;
    /// let mut tables = Tablebase::new();
    /// tables.build(std::slice::from_ref(&ending), &BuildOptions::default())?;
    /// let dir = std::env::temp_dir().join(format!("gtbz-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = compressed_table_file(&dir, &ending);
    /// assert!(tables.save_compressed(&ending, &path)?);
    ///
    /// // Probed from the file, a block at a time: the raw table's values.
    /// let mut disk = Tablebase::new();
    /// disk.add_file(&ending, &path)?;
    /// let p = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse()?;
    /// assert_eq!(disk.probe(&p)?, tables.probe(&p)?);
    /// assert_eq!(disk.held(&ending), Some(Held::Blocks));
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
