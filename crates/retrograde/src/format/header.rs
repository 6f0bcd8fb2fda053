//! [`Header`]: the header of a file of either format, read and checked
//! field by field (the one place where a file's header is parsed).

use std::io::Read;
use std::path::Path;

use super::{FIXED, FORMAT_VERSION, LoadError, MAGIC, checksum, u16_at, u64_at};
use crate::compressed;
use crate::{Counts, Label};

/// Bytes of a compressed file's header before the names.
const COMPRESSED_FIXED: usize = 60;

/// The bytes of the format version in a file of either format
/// (little-endian `u16`), right after the magic bytes.
pub const VERSION_BYTES: core::ops::Range<usize> = 8..10;

/// The bytes of the number of indices in a file of either format
/// (little-endian `u64`).
pub const SIZE_BYTES: core::ops::Range<usize> = 12..20;

/// Which of the two formats a file is in, told by its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// A whole table after the header ([`MAGIC`]; [`Table`](crate::Table)
    /// and [`WdlTable`](crate::WdlTable) files).
    Plain,
    /// A block index and compressed blocks after the header
    /// ([`compressed::MAGIC`]).
    Compressed,
}

impl FileFormat {
    /// The bytes of the header before the names.
    const fn fixed(self) -> usize {
        match self {
            FileFormat::Plain => FIXED,
            FileFormat::Compressed => COMPRESSED_FIXED,
        }
    }

    const fn magic(self) -> [u8; 8] {
        match self {
            FileFormat::Plain => MAGIC,
            FileFormat::Compressed => compressed::MAGIC,
        }
    }

    /// The versions of this format this build reads, oldest first.
    const fn versions(self) -> &'static [u16] {
        match self {
            FileFormat::Plain => &[FORMAT_VERSION],
            FileFormat::Compressed => &[compressed::VERSION_1, compressed::VERSION],
        }
    }
}

/// The header of a database file, of either format, read and checked by
/// [`Header::read`]: the magic bytes, the version, the header's
/// checksum and its names. What the header says of the rest of the file
/// (a payload of the right length, a block index) is checked when the
/// table is read ([`Table::read`](crate::Table::read),
/// [`CompressedTable::open`](crate::compressed::CompressedTable::open)),
/// which read their headers with this.
///
/// ```
/// use gametree_retrograde::LoadError;
/// use gametree_retrograde::format::{FileFormat, Header};
///
/// // A file cut short in its header, or not a database: typed errors.
/// let cut = Header::read(&b"GTRETRO\x1a\x01\x00"[..]).unwrap_err();
/// assert_eq!(cut.to_string(), "truncated database: 10 bytes, at least 68 expected");
/// assert!(matches!(Header::read(&b"not a table"[..]), Err(LoadError::BadMagic)));
/// // Another version: refused once the fixed fields are read.
/// let mut newer = b"GTRETRC\x1a".to_vec();
/// newer.extend_from_slice(&7u16.to_le_bytes());
/// newer.resize(60, 0);
/// let e = Header::read(&newer[..]).unwrap_err();
/// assert!(matches!(e, LoadError::UnsupportedVersion { found: 7, .. }), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A table file's header, and where its data starts:
///
/// ```no_run
/// use gametree_retrograde::format::{FileFormat, Header};
///
/// let header = Header::read_file("tables/KQvKR.gtbz")?;
/// assert_eq!(header.format(), FileFormat::Compressed);
/// println!("{}: {} indices, blocks from byte {}", header.label(), header.size(), header.data_offset());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    format: FileFormat,
    version: u16,
    /// Byte 10: a plain file's encoding tag, a compressed file's `log2`
    /// of the block size.
    tag: u8,
    /// Byte 11, reserved.
    reserved: u8,
    size: u64,
    counts: Counts,
    /// Bytes 52..60: a plain file's payload length, a compressed file's
    /// number of blocks.
    third: u64,
    /// Bytes 60..68 of a plain file: the payload's checksum.
    payload_checksum: u64,
    label: Label,
    /// A compressed file's priors, as stored.
    priors: Vec<u8>,
    /// The header's bytes, its checksum included.
    len: u64,
}

/// Appends up to `n` bytes of `reader` to `head`; the number appended
/// (fewer at the end of the input).
fn append(reader: &mut impl Read, head: &mut Vec<u8>, n: u64) -> Result<u64, LoadError> {
    let before = head.len();
    reader.take(n).read_to_end(head)?;
    Ok((head.len() - before) as u64)
}

fn truncated(expected: u64, found: usize) -> LoadError {
    LoadError::Truncated {
        expected,
        found: found as u64,
    }
}

impl Header {
    /// Reads the header at the start of `reader`, a file of either format
    /// (told by its magic bytes), and checks it: the magic bytes, a
    /// version this build reads, the header's checksum, names in UTF-8.
    /// Reads the header's bytes and no more (wrap a file in a
    /// [`std::io::BufReader`] to read it in one go).
    ///
    /// # Errors
    ///
    /// [`LoadError::Truncated`] when the input ends within the header
    /// (`found` is then the input's length); [`LoadError::BadMagic`] for
    /// an input that is not a database; [`LoadError::UnsupportedVersion`];
    /// [`LoadError::Corrupted`] for a header whose checksum fails or whose
    /// names are not UTF-8; [`LoadError::Io`] when reading fails.
    pub fn read(reader: impl Read) -> Result<Header, LoadError> {
        Header::read_as(reader, None)
    }

    /// [`read`](Self::read) from the start of the file at `path`.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read); [`LoadError::Io`] when the file cannot be
    /// opened.
    pub fn read_file(path: impl AsRef<Path>) -> Result<Header, LoadError> {
        let file = std::fs::File::open(path)?;
        Header::read(std::io::BufReader::new(file))
    }

    /// [`read`](Self::read) of a file in `format`: a file of the other
    /// format is refused as [`LoadError::BadMagic`] (and an input that
    /// ends within the magic bytes both formats start with is judged as
    /// `format`'s), as [`Table::read`](crate::Table::read) and
    /// [`CompressedTable::open`](crate::compressed::CompressedTable::open)
    /// refuse it.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read).
    pub fn read_format(reader: impl Read, format: FileFormat) -> Result<Header, LoadError> {
        Header::read_as(reader, Some(format))
    }

    /// Refuses a header whose label is not `expected`: another game,
    /// material or scheme (checked in that order), in the words reading
    /// the file uses.
    ///
    /// # Errors
    ///
    /// [`LoadError::WrongGame`], [`LoadError::WrongMaterial`] or
    /// [`LoadError::WrongScheme`].
    pub fn check_label(&self, expected: &Label) -> Result<(), LoadError> {
        super::check_label(&self.label, expected)
    }

    /// [`read`](Self::read), a file of the other format than `expected`
    /// refused as [`LoadError::BadMagic`] (and the beginning of a magic
    /// both formats share judged as `expected`'s).
    pub(crate) fn read_as(
        mut reader: impl Read,
        expected: Option<FileFormat>,
    ) -> Result<Header, LoadError> {
        let mut head = Vec::with_capacity(128);
        append(&mut reader, &mut head, MAGIC.len() as u64)?;
        let formats = match expected {
            Some(f) => vec![f],
            None => vec![FileFormat::Plain, FileFormat::Compressed],
        };
        let Some(&format) = formats.iter().find(|f| head[..] == f.magic()) else {
            // The beginning of a magic: cut short. Either format's: the
            // fewer bytes its header has at least.
            let short = formats
                .iter()
                .filter(|f| head.len() < MAGIC.len() && f.magic().starts_with(&head))
                .map(|f| f.fixed())
                .min();
            return Err(match short {
                Some(fixed) => truncated(fixed as u64, head.len()),
                None => LoadError::BadMagic,
            });
        };
        let fixed = format.fixed() as u64;
        let want = fixed - head.len() as u64;
        if append(&mut reader, &mut head, want)? < want {
            return Err(truncated(fixed, head.len()));
        }
        let version = u16_at(&head, VERSION_BYTES.start);
        if !format.versions().contains(&version) {
            return Err(LoadError::UnsupportedVersion {
                found: version,
                supported: format.versions(),
            });
        }
        // Each part: `n` more bytes, or cut short.
        let mut part = |head: &mut Vec<u8>, n: u64| -> Result<usize, LoadError> {
            let at = head.len();
            if append(&mut reader, head, n)? < n {
                return Err(truncated(at as u64 + n, head.len()));
            }
            Ok(at)
        };
        // The three names.
        let mut names = [0..0, 0..0, 0..0];
        for name in &mut names {
            let at = part(&mut head, 2)?;
            let n = u16_at(&head, at);
            let start = part(&mut head, u64::from(n))?;
            *name = start..start + usize::from(n);
        }
        // A compressed file's priors: their length, then their bytes
        // (read as they come: a length beyond the input allocates
        // nothing).
        let mut priors = 0..0;
        if format == FileFormat::Compressed && version == compressed::VERSION {
            let at = part(&mut head, 4)?;
            let n = u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
            let start = part(&mut head, u64::from(n))?;
            priors = start..head.len();
        }
        let end = head.len();
        let at = part(&mut head, 8)?;
        if checksum(&head[..end]) != u64_at(&head, at) {
            return Err(LoadError::Corrupted("header checksum mismatch"));
        }
        let text = |r: &core::ops::Range<usize>| {
            String::from_utf8(head[r.clone()].to_vec())
                .map_err(|_| LoadError::Corrupted("a name is not UTF-8"))
        };
        let label = Label::new(text(&names[0])?, text(&names[1])?, text(&names[2])?);
        Ok(Header {
            format,
            version,
            tag: head[10],
            reserved: head[11],
            size: u64_at(&head, SIZE_BYTES.start),
            counts: Counts {
                invalid: u64_at(&head, 20),
                wins: u64_at(&head, 28),
                draws: u64_at(&head, 36),
                losses: u64_at(&head, 44),
                ..Counts::default()
            },
            third: u64_at(&head, 52),
            payload_checksum: match format {
                FileFormat::Plain => u64_at(&head, 60),
                FileFormat::Compressed => 0,
            },
            label,
            priors: head[priors].to_vec(),
            len: head.len() as u64,
        })
    }

    /// The file's format.
    #[must_use]
    pub fn format(&self) -> FileFormat {
        self.format
    }

    /// The file's format version.
    #[must_use]
    pub fn version(&self) -> u16 {
        self.version
    }

    /// What the file holds.
    #[must_use]
    pub fn label(&self) -> &Label {
        &self.label
    }

    /// The number of indices of its table.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The counts of invalid indices, wins, draws and losses the header
    /// states (no longest wins or losses).
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The bytes of the header, its checksum included.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// A header is never empty (present for the `len` convention).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// A plain file's value encoding (`None` for an unknown tag, or a
    /// compressed file).
    #[must_use]
    pub fn encoding(&self) -> Option<super::Encoding> {
        match self.format {
            FileFormat::Plain => super::Encoding::from_tag(self.tag),
            FileFormat::Compressed => None,
        }
    }

    /// A plain file's payload length in bytes, as its header states.
    #[must_use]
    pub fn payload_len(&self) -> Option<u64> {
        (self.format == FileFormat::Plain).then_some(self.third)
    }

    /// A plain file's payload checksum, as its header states.
    #[must_use]
    pub fn payload_checksum(&self) -> Option<u64> {
        (self.format == FileFormat::Plain).then_some(self.payload_checksum)
    }

    /// A compressed file's number of blocks, as its header states.
    #[must_use]
    pub fn blocks(&self) -> Option<u64> {
        (self.format == FileFormat::Compressed).then_some(self.third)
    }

    /// A compressed file's `log2` of the block size byte, as stored
    /// (checked when the file is opened).
    #[must_use]
    pub fn block_log2(&self) -> Option<u8> {
        (self.format == FileFormat::Compressed).then_some(self.tag)
    }

    /// The reserved byte after the encoding or block size (`0`).
    pub(crate) fn reserved(&self) -> u8 {
        self.reserved
    }

    /// A compressed file's priors, as stored (empty in version 1).
    pub(crate) fn priors(&self) -> &[u8] {
        &self.priors
    }

    /// Where the table's data starts in the file: a plain file's payload,
    /// right after the header; a compressed file's first block, after
    /// the header and the block index (16 bytes per block and the
    /// index's checksum). Saturates for a header stating an impossible
    /// number of blocks.
    #[must_use]
    pub fn data_offset(&self) -> u64 {
        match self.format {
            FileFormat::Plain => self.len,
            FileFormat::Compressed => self
                .third
                .saturating_mul(16)
                .saturating_add(8)
                .saturating_add(self.len),
        }
    }
}
