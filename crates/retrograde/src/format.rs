//! The on-disk format.
//!
//! A file is a header followed by the payload, all integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `GTRETRO` followed by byte `0x1a` |
//! | 8 | 2 | format version ([`FORMAT_VERSION`]) |
//! | 10 | 1 | value encoding: `1` one byte per index ([`Table`]), `2` two bits per index ([`WdlTable`]) |
//! | 11 | 1 | reserved, `0` |
//! | 12 | 8 | number of indices |
//! | 20 | 32 | counts: invalid, wins, draws, losses (`u64` each) |
//! | 52 | 8 | payload length in bytes |
//! | 60 | 8 | payload checksum |
//! | 68 | … | game, material, index scheme: each a `u16` length and UTF-8 bytes |
//! | … | 8 | header checksum, over every header byte before it |
//! | … | … | payload: the codes of [`Table::codes`] or the bits of [`WdlTable::bits`] |
//!
//! The checksums are a 64-bit multiply–xorshift hash over little-endian
//! words ([`checksum`]); they detect corruption, they are not cryptographic.
//! Files are written to a temporary file in the same directory and renamed
//! into place, so a reader never sees half a file under the final name.

use core::fmt;
use std::collections::TryReserveError;
use std::io::Write;
use std::path::Path;

use crate::value::{INVALID_CODE, RESERVED_CODE};
use crate::{Counts, Label, Table, WdlTable};

mod header;
pub use header::{FileFormat, Header, SIZE_BYTES, VERSION_BYTES};

/// The first eight bytes of every file.
pub const MAGIC: [u8; 8] = *b"GTRETRO\x1a";
/// The version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;

const FIXED: usize = 68;

/// The value encoding of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// One byte per index: win/draw/loss and distance ([`Table`]).
    Distance8,
    /// Two bits per index: win/draw/loss ([`WdlTable`]).
    Wdl2,
}

impl Encoding {
    const fn tag(self) -> u8 {
        match self {
            Encoding::Distance8 => 1,
            Encoding::Wdl2 => 2,
        }
    }

    pub(crate) const fn from_tag(tag: u8) -> Option<Encoding> {
        match tag {
            1 => Some(Encoding::Distance8),
            2 => Some(Encoding::Wdl2),
            _ => None,
        }
    }

    fn payload_len(self, size: u64) -> u64 {
        match self {
            Encoding::Distance8 => size,
            Encoding::Wdl2 => size.div_ceil(4),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Distance8 => "distance8",
            Encoding::Wdl2 => "wdl2",
        })
    }
}

/// Why a file was refused. A refused file is never read as data.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file ends before its header or payload does.
    Truncated {
        /// Bytes the header says the file has (at least).
        expected: u64,
        /// Bytes it has.
        found: u64,
    },
    /// The file does not start with [`MAGIC`]: it is not a database.
    BadMagic,
    /// The file was written by another version of the format.
    UnsupportedVersion {
        /// The file's version.
        found: u16,
        /// The versions this build reads, oldest first.
        supported: &'static [u16],
    },
    /// A checksum does not match, the payload disagrees with the header, or
    /// the file has bytes after its payload.
    Corrupted(&'static str),
    /// The file holds the other encoding (a WDL file read as a distance
    /// table, or the reverse).
    WrongEncoding {
        /// The encoding asked for.
        expected: Encoding,
        /// The file's encoding (`None` for an unknown tag).
        found: Option<Encoding>,
    },
    /// The file is for another game.
    WrongGame {
        /// The game asked for.
        expected: String,
        /// The file's game.
        found: String,
    },
    /// The file is for other material (another part of the game).
    WrongMaterial {
        /// The material asked for.
        expected: String,
        /// The file's material.
        found: String,
    },
    /// The file uses another index scheme.
    WrongScheme {
        /// The scheme asked for.
        expected: String,
        /// The file's scheme.
        found: String,
    },
    /// The table the file holds, checked against its header, could not be
    /// allocated: it is too large for the memory available.
    Memory {
        /// The size in bytes of the allocation that failed.
        bytes: u64,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the database: {e}"),
            LoadError::Truncated { expected, found } => write!(
                f,
                "truncated database: {found} bytes, at least {expected} expected"
            ),
            LoadError::BadMagic => f.write_str("not a gametree database (bad magic)"),
            LoadError::UnsupportedVersion { found, supported } => {
                write!(f, "database format version {found}, this build reads ")?;
                match supported {
                    [one] => write!(f, "version {one}"),
                    [first @ .., last] => {
                        let first: Vec<String> = first.iter().map(u16::to_string).collect();
                        write!(f, "versions {} and {last}", first.join(", "))
                    }
                    [] => f.write_str("no version"),
                }
            }
            LoadError::Corrupted(what) => write!(f, "corrupted database: {what}"),
            LoadError::WrongEncoding { expected, found } => match found {
                Some(found) => write!(f, "database encoding {found}, {expected} expected"),
                None => write!(f, "unknown database encoding, {expected} expected"),
            },
            LoadError::WrongGame { expected, found } => {
                write!(f, "database for game {found:?}, {expected:?} expected")
            }
            LoadError::WrongMaterial { expected, found } => {
                write!(f, "database for material {found:?}, {expected:?} expected")
            }
            LoadError::WrongScheme { expected, found } => {
                write!(f, "database index scheme {found:?}, {expected:?} expected")
            }
            LoadError::Memory { bytes } => {
                write!(f, "cannot allocate {bytes} bytes for the database")
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for LoadError {
    fn from(e: std::io::Error) -> Self {
        LoadError::Io(e)
    }
}

/// The checksum of the format: a 64-bit multiply–xorshift hash over the
/// bytes read as little-endian words (the tail zero-padded), seeded with the
/// length.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K) ^ 0x6a09_e667_f3bc_c908;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(K);
        h ^= h >> 29;
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^= h >> 32;
    h.wrapping_mul(K) ^ (h >> 29)
}

/// The header of a file holding `payload` (the payload itself is written
/// after it, not copied here).
fn header(
    label: &Label,
    encoding: Encoding,
    size: u64,
    counts: &Counts,
    payload: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(FIXED + 64);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(encoding.tag());
    out.push(0);
    for n in [
        size,
        counts.invalid,
        counts.wins,
        counts.draws,
        counts.losses,
        payload.len() as u64,
        checksum(payload),
    ] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    for s in [&label.game, &label.material, &label.scheme] {
        // Longer names are cut at a character boundary.
        let mut end = s.len().min(usize::from(u16::MAX));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        out.extend_from_slice(&(end as u16).to_le_bytes());
        out.extend_from_slice(&s.as_bytes()[..end]);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The file's bytes: `header` followed by `payload`, in one allocation.
fn concat(header: Vec<u8>, payload: &[u8]) -> Vec<u8> {
    let mut out = header;
    out.reserve_exact(payload.len());
    out.extend_from_slice(payload);
    out
}

/// [`concat`], the allocation made fallibly.
fn try_concat(header: Vec<u8>, payload: &[u8]) -> Result<Vec<u8>, TryReserveError> {
    let mut out = header;
    out.try_reserve_exact(payload.len())?;
    out.extend_from_slice(payload);
    Ok(out)
}

/// A copy of `bytes` (a file's payload), allocated fallibly.
fn copy(bytes: &[u8]) -> Result<Vec<u8>, LoadError> {
    let mut out = Vec::new();
    out.try_reserve_exact(bytes.len())
        .map_err(|_| LoadError::Memory {
            bytes: bytes.len() as u64,
        })?;
    out.extend_from_slice(bytes);
    Ok(out)
}

/// The payload of a whole file read into `bytes`, in place: the header is
/// removed by moving the payload to the front, with no second allocation.
fn payload_in_place(mut bytes: Vec<u8>, payload: core::ops::Range<usize>) -> Vec<u8> {
    bytes.truncate(payload.end);
    bytes.drain(..payload.start);
    bytes
}

/// Reads the whole file at `path`. The standard library allocates the
/// buffer fallibly; a failure is reported as [`LoadError::Memory`].
fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::OutOfMemory {
            LoadError::Memory {
                bytes: std::fs::metadata(path).map_or(u64::MAX, |m| m.len()),
            }
        } else {
            LoadError::Io(e)
        }
    })
}

/// A plain file's header, checked against what the reader expects.
struct Decoded {
    size: u64,
    counts: Counts,
    payload: core::ops::Range<usize>,
    label: Label,
}

pub(crate) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Decodes and checks a whole file's bytes: its [`Header`], checked by
/// [`check_plain`], then the payload's checksum.
fn decode(bytes: &[u8], expected: &Label, encoding: Encoding) -> Result<Decoded, LoadError> {
    let h = Header::read_as(bytes, Some(FileFormat::Plain))?;
    let d = check_plain(&h, bytes.len() as u64, expected, encoding)?;
    if Some(checksum(&bytes[d.payload.clone()])) != h.payload_checksum() {
        return Err(LoadError::Corrupted("payload checksum mismatch"));
    }
    Ok(d)
}

/// Checks a plain file's [`Header`] (read and checked on its own by
/// [`Header::read`]) against what the reader expects, for a file of
/// `file_len` bytes: the encoding, the label, and the file's length
/// against the payload's. A file is refused with the same error whether
/// its header was read from the whole file's bytes or from the file.
fn check_plain(
    h: &Header,
    file_len: u64,
    expected: &Label,
    encoding: Encoding,
) -> Result<Decoded, LoadError> {
    let found = h.encoding();
    if found != Some(encoding) {
        return Err(LoadError::WrongEncoding {
            expected: encoding,
            found,
        });
    }
    check_label(h.label(), expected)?;
    let size = h.size();
    let payload_len = h.payload_len().unwrap_or(0);
    if payload_len != encoding.payload_len(size) {
        return Err(LoadError::Corrupted(
            "payload length disagrees with the size",
        ));
    }
    let end = h
        .len()
        .checked_add(payload_len)
        .and_then(|e| usize::try_from(e).ok())
        .ok_or(LoadError::Corrupted("payload length too large"))?;
    if file_len < end as u64 {
        return Err(LoadError::Truncated {
            expected: end as u64,
            found: file_len,
        });
    }
    if file_len > end as u64 {
        return Err(LoadError::Corrupted("bytes after the payload"));
    }
    Ok(Decoded {
        size,
        counts: h.counts(),
        payload: h.len() as usize..end,
        label: h.label().clone(),
    })
}

/// Refuses a file whose label is not `expected`: another game, material
/// or scheme, in that order.
pub(crate) fn check_label(found: &Label, expected: &Label) -> Result<(), LoadError> {
    if found.game != expected.game {
        return Err(LoadError::WrongGame {
            expected: expected.game.clone(),
            found: found.game.clone(),
        });
    }
    if found.material != expected.material {
        return Err(LoadError::WrongMaterial {
            expected: expected.material.clone(),
            found: found.material.clone(),
        });
    }
    if found.scheme != expected.scheme {
        return Err(LoadError::WrongScheme {
            expected: expected.scheme.clone(),
            found: found.scheme.clone(),
        });
    }
    Ok(())
}

fn same_totals(a: &Counts, b: &Counts) -> bool {
    (a.invalid, a.wins, a.draws, a.losses) == (b.invalid, b.wins, b.draws, b.losses)
}

/// Writes `header` then `payload` to `path` atomically, without copying
/// the payload.
fn write_atomically(path: &Path, header: &[u8], payload: &[u8]) -> std::io::Result<()> {
    write_file_atomically(path, |file| {
        file.write_all(header)?;
        file.write_all(payload)
    })
}

/// Creates a temporary file beside `path`, lets `fill` write it, syncs it
/// and renames it to `path`; on any error the temporary file is removed
/// and `path` is left as it was.
pub(crate) fn write_file_atomically(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"))?;
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        fill(&mut file)?;
        let file = file
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

impl Table {
    fn header(&self) -> Vec<u8> {
        header(
            self.label(),
            Encoding::Distance8,
            self.len(),
            &self.counts(),
            self.codes(),
        )
    }

    /// The file's bytes: header and payload, a copy of the whole table
    /// allocated like any `Vec` (the process aborts when memory runs out;
    /// [`try_to_bytes`](Self::try_to_bytes) returns an error instead, and
    /// [`write`](Self::write) copies nothing).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        concat(self.header(), self.codes())
    }

    /// [`to_bytes`](Self::to_bytes), with the copy allocated fallibly.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the copy does not fit in memory.
    pub fn try_to_bytes(&self) -> Result<Vec<u8>, TryReserveError> {
        try_concat(self.header(), self.codes())
    }

    /// Reads a table from a file's bytes, checking that it holds
    /// `expected`. The payload is copied out of `bytes` once the header has
    /// been checked against the length of `bytes`, so a header announcing
    /// more than the file holds is refused before anything is allocated.
    ///
    /// # Errors
    ///
    /// A [`LoadError`] for a truncated, corrupted, wrong-version,
    /// wrong-encoding or wrong-label file; [`LoadError::Memory`] when the
    /// table does not fit in memory.
    pub fn from_bytes(bytes: &[u8], expected: &Label) -> Result<Table, LoadError> {
        let h = decode(bytes, expected, Encoding::Distance8)?;
        let codes = copy(&bytes[h.payload.clone()])?;
        Table::checked(h, codes)
    }

    /// The table of a decoded header and its payload, checked.
    fn checked(h: Decoded, codes: Vec<u8>) -> Result<Table, LoadError> {
        if codes.contains(&RESERVED_CODE) {
            return Err(LoadError::Corrupted("reserved value code in the payload"));
        }
        let table = Table::from_codes(h.label, codes);
        if table.len() != h.size || !same_totals(&table.counts(), &h.counts) {
            return Err(LoadError::Corrupted("counts disagree with the payload"));
        }
        Ok(table)
    }

    /// Writes the table to `path` atomically (a temporary file in the same
    /// directory, then a rename). The values are written from the table
    /// itself, not copied.
    ///
    /// # Errors
    ///
    /// Any I/O error; the final path is then left as it was.
    pub fn write(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        write_atomically(path.as_ref(), &self.header(), self.codes())
    }

    /// Reads the table at `path`, checking that it holds `expected`. The
    /// file is read into one buffer, which becomes the table's (no copy).
    ///
    /// # Errors
    ///
    /// See [`from_bytes`](Self::from_bytes); [`LoadError::Io`] when the file
    /// cannot be read, [`LoadError::Memory`] when it does not fit in memory.
    pub fn read(path: impl AsRef<Path>, expected: &Label) -> Result<Table, LoadError> {
        let bytes = read_file(path.as_ref())?;
        let h = decode(&bytes, expected, Encoding::Distance8)?;
        let range = h.payload.clone();
        Table::checked(h, payload_in_place(bytes, range))
    }

    /// Checks the file at `path` as [`read`](Self::read) does, without
    /// reading its payload: its header (magic bytes, version, checksum,
    /// encoding, label) and its length, which must be the header's and
    /// the payload's. Returns the number of indices of its table. A file
    /// this refuses is refused by [`read`](Self::read) with the same
    /// error; one it accepts may still be refused by `read`, for a
    /// payload whose checksum or counts do not match.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] when the file cannot be read; otherwise a
    /// [`LoadError`] for a truncated, corrupted, wrong-version,
    /// wrong-encoding or wrong-label file.
    pub fn check_header(path: impl AsRef<Path>, expected: &Label) -> Result<u64, LoadError> {
        let file = std::fs::File::open(path.as_ref())?;
        let len = file.metadata()?.len();
        let h = Header::read_as(std::io::BufReader::new(file), Some(FileFormat::Plain))?;
        Ok(check_plain(&h, len, expected, Encoding::Distance8)?.size)
    }
}

impl WdlTable {
    fn header(&self) -> Vec<u8> {
        header(
            self.label(),
            Encoding::Wdl2,
            self.len(),
            &self.counts(),
            self.bits(),
        )
    }

    /// The file's bytes: header and payload, a copy of the whole table
    /// allocated like any `Vec` (the process aborts when memory runs out;
    /// [`try_to_bytes`](Self::try_to_bytes) returns an error instead, and
    /// [`write`](Self::write) copies nothing).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        concat(self.header(), self.bits())
    }

    /// [`to_bytes`](Self::to_bytes), with the copy allocated fallibly.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the copy does not fit in memory.
    pub fn try_to_bytes(&self) -> Result<Vec<u8>, TryReserveError> {
        try_concat(self.header(), self.bits())
    }

    /// Reads a WDL table from a file's bytes, checking that it holds
    /// `expected` (a header announcing more than `bytes` holds is refused
    /// before anything is allocated, as by [`Table::from_bytes`]).
    ///
    /// # Errors
    ///
    /// A [`LoadError`] for a truncated, corrupted, wrong-version,
    /// wrong-encoding or wrong-label file; [`LoadError::Memory`] when the
    /// table does not fit in memory.
    pub fn from_bytes(bytes: &[u8], expected: &Label) -> Result<WdlTable, LoadError> {
        let h = decode(bytes, expected, Encoding::Wdl2)?;
        let bits = copy(&bytes[h.payload.clone()])?;
        WdlTable::checked(h, bits)
    }

    /// The table of a decoded header and its payload, checked.
    fn checked(h: Decoded, bits: Vec<u8>) -> Result<WdlTable, LoadError> {
        // Padding after the last index must be zero.
        let used = (h.size % 4) as u32;
        if used != 0 && bits.last().is_some_and(|b| b >> (2 * used) != 0) {
            return Err(LoadError::Corrupted("non-zero padding"));
        }
        let table = WdlTable::from_bits(h.label, h.size, bits);
        if !same_totals(&table.counts(), &h.counts) {
            return Err(LoadError::Corrupted("counts disagree with the payload"));
        }
        Ok(table)
    }

    /// Writes the table to `path` atomically, without copying it.
    ///
    /// # Errors
    ///
    /// Any I/O error; the final path is then left as it was.
    pub fn write(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        write_atomically(path.as_ref(), &self.header(), self.bits())
    }

    /// Reads the WDL table at `path`, checking that it holds `expected`
    /// (into one buffer, which becomes the table's).
    ///
    /// # Errors
    ///
    /// See [`from_bytes`](Self::from_bytes); [`LoadError::Io`] when the file
    /// cannot be read, [`LoadError::Memory`] when it does not fit in memory.
    pub fn read(path: impl AsRef<Path>, expected: &Label) -> Result<WdlTable, LoadError> {
        let bytes = read_file(path.as_ref())?;
        let h = decode(&bytes, expected, Encoding::Wdl2)?;
        let range = h.payload.clone();
        WdlTable::checked(h, payload_in_place(bytes, range))
    }
}

// The invalid code is part of the format: pin it.
const _: () = assert!(INVALID_CODE == 1);
