//! Where a compressed table's bytes are read from: memory, or a file at
//! positions.

use std::fs::File;

/// Where the bytes come from: a file (positioned reads) or memory.
pub(super) trait Source {
    fn len(&self) -> u64;
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()>;
}

impl Source for [u8] {
    fn len(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let start = usize::try_from(at).map_err(|_| std::io::ErrorKind::UnexpectedEof)?;
        let src = self
            .get(start..)
            .and_then(|s| s.get(..buf.len()))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(src);
        Ok(())
    }
}

/// A file and its length, read at positions.
#[derive(Debug)]
pub(super) struct FileSource {
    pub(super) file: File,
    pub(super) len: u64,
}

impl Source for FileSource {
    fn len(&self) -> u64 {
        self.len
    }

    #[cfg(unix)]
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, at)
    }

    #[cfg(not(unix))]
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        // Callers hold the table's lock, so the position is not shared.
        use std::io::{Read, Seek, SeekFrom};
        let mut f = &self.file;
        f.seek(SeekFrom::Start(at))?;
        f.read_exact(buf)
    }
}

/// A [`Source`] read in order from its start, as [`std::io::Read`]: the
/// header is read by [`Header::read`](crate::format::Header::read).
pub(super) struct Reader<'a, S: ?Sized> {
    src: &'a S,
    at: u64,
}

impl<'a, S: Source + ?Sized> Reader<'a, S> {
    pub(super) fn new(src: &'a S) -> Self {
        Reader { src, at: 0 }
    }
}

impl<S: Source + ?Sized> std::io::Read for Reader<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.src.len().saturating_sub(self.at);
        let n = usize::try_from(left).map_or(buf.len(), |left| left.min(buf.len()));
        if n == 0 {
            return Ok(0);
        }
        self.src.read_at(self.at, &mut buf[..n])?;
        self.at += n as u64;
        Ok(n)
    }
}
