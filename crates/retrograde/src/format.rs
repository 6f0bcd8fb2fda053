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

    const fn from_tag(tag: u8) -> Option<Encoding> {
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

struct Header {
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

fn truncated(expected: usize, found: usize) -> LoadError {
    LoadError::Truncated {
        expected: expected as u64,
        found: found as u64,
    }
}

/// The longest header: the fixed part, three names of at most `u16::MAX`
/// bytes with their lengths, and the header checksum.
const MAX_HEADER: usize = FIXED + 3 * (2 + u16::MAX as usize) + 8;

/// Decodes and checks a whole file's bytes: [`decode_header`], then the
/// payload's checksum.
fn decode(bytes: &[u8], expected: &Label, encoding: Encoding) -> Result<Header, LoadError> {
    let h = decode_header(bytes, bytes.len() as u64, expected, encoding)?;
    if checksum(&bytes[h.payload.clone()]) != u64_at(bytes, 60) {
        return Err(LoadError::Corrupted("payload checksum mismatch"));
    }
    Ok(h)
}

/// Decodes and checks the header of a file of `file_len` bytes, from
/// `bytes`: the whole file, or at least its first [`MAX_HEADER`] bytes
/// (all of it when it is shorter). Everything is checked but the payload's
/// checksum and contents: the magic bytes, the version, the header's
/// checksum, the encoding, the label, and the file's length against the
/// payload's. A file is refused with the same error whether `bytes` is
/// the whole file or its beginning.
fn decode_header(
    bytes: &[u8],
    file_len: u64,
    expected: &Label,
    encoding: Encoding,
) -> Result<Header, LoadError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(if MAGIC.starts_with(bytes) && bytes.len() < MAGIC.len() {
            truncated(FIXED, bytes.len())
        } else {
            LoadError::BadMagic
        });
    }
    if bytes.len() < FIXED {
        return Err(truncated(FIXED, bytes.len()));
    }
    let version = u16_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(LoadError::UnsupportedVersion {
            found: version,
            supported: &[FORMAT_VERSION],
        });
    }
    // The three names.
    let mut at = FIXED;
    let mut names = Vec::with_capacity(3);
    for _ in 0..3 {
        if bytes.len() < at + 2 {
            return Err(truncated(at + 2, bytes.len()));
        }
        let len = usize::from(u16_at(bytes, at));
        at += 2;
        if bytes.len() < at + len {
            return Err(truncated(at + len, bytes.len()));
        }
        names.push(&bytes[at..at + len]);
        at += len;
    }
    if bytes.len() < at + 8 {
        return Err(truncated(at + 8, bytes.len()));
    }
    if checksum(&bytes[..at]) != u64_at(bytes, at) {
        return Err(LoadError::Corrupted("header checksum mismatch"));
    }
    let header_end = at + 8;
    let found = Encoding::from_tag(bytes[10]);
    if found != Some(encoding) {
        return Err(LoadError::WrongEncoding {
            expected: encoding,
            found,
        });
    }
    let text = |b: &[u8]| {
        String::from_utf8(b.to_vec()).map_err(|_| LoadError::Corrupted("a name is not UTF-8"))
    };
    let label = Label::new(text(names[0])?, text(names[1])?, text(names[2])?);
    if label.game != expected.game {
        return Err(LoadError::WrongGame {
            expected: expected.game.clone(),
            found: label.game,
        });
    }
    if label.material != expected.material {
        return Err(LoadError::WrongMaterial {
            expected: expected.material.clone(),
            found: label.material,
        });
    }
    if label.scheme != expected.scheme {
        return Err(LoadError::WrongScheme {
            expected: expected.scheme.clone(),
            found: label.scheme,
        });
    }
    let size = u64_at(bytes, 12);
    let payload_len = u64_at(bytes, 52);
    if payload_len != encoding.payload_len(size) {
        return Err(LoadError::Corrupted(
            "payload length disagrees with the size",
        ));
    }
    let end = u64::try_from(header_end)
        .ok()
        .and_then(|h| h.checked_add(payload_len))
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
    let counts = Counts {
        invalid: u64_at(bytes, 20),
        wins: u64_at(bytes, 28),
        draws: u64_at(bytes, 36),
        losses: u64_at(bytes, 44),
        ..Counts::default()
    };
    Ok(Header {
        size,
        counts,
        payload: header_end..end,
        label,
    })
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
    fn checked(h: Header, codes: Vec<u8>) -> Result<Table, LoadError> {
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
        use std::io::Read;
        /// Headers are a few hundred bytes: this much is read first, the
        /// rest of a longer header (long names) after.
        const FIRST: u64 = 4096;
        let mut file = std::fs::File::open(path.as_ref())?;
        let len = file.metadata()?.len();
        let whole = len.min(MAX_HEADER as u64);
        let mut wanted = whole.min(FIRST);
        let mut head = Vec::new();
        (&mut file).take(wanted).read_to_end(&mut head)?;
        let mut decoded = decode_header(&head, len, expected, Encoding::Distance8);
        if matches!(decoded, Err(LoadError::Truncated { .. })) && wanted < whole {
            // Cut short by the first read, perhaps: judged on the whole
            // header.
            wanted = whole;
            file.take(whole - head.len() as u64)
                .read_to_end(&mut head)?;
            decoded = decode_header(&head, len, expected, Encoding::Distance8);
        }
        if (head.len() as u64) < wanted {
            // The file shrank while being read: judged on what was read.
            decoded = decode_header(&head, head.len() as u64, expected, Encoding::Distance8);
        }
        Ok(decoded?.size)
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
    fn checked(h: Header, bits: Vec<u8>) -> Result<WdlTable, LoadError> {
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
