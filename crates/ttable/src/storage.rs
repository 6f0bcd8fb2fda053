//! Where a table's buckets live: the heap, or an anonymous memory mapping
//! advised to use transparent huge pages.
//!
//! Every probe of a large table costs one random memory access, and with
//! 4 KiB pages most of them also miss the TLB and walk the page tables (on a
//! virtual machine, two nested walks). Huge pages (2 MiB on x86-64) make the
//! walk short or unnecessary. Linux gives a process huge pages for anonymous
//! memory in `madvise` mode only where it asked for them with
//! `madvise(MADV_HUGEPAGE)`, which safe Rust can only ask for on a mapping it
//! owns: hence [`memmap2::MmapMut::map_anon`] + [`memmap2::Advice::HugePage`],
//! with the bytes viewed as `u64` words through `zerocopy`'s checked cast.

use memmap2::{MmapMut, MmapOptions};

/// Where a table asks for its memory ([`Config::memory`](crate::Config::memory)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Memory {
    /// Tables of at least [`HUGE_PAGE_BYTES`] (2 MiB): an anonymous mapping
    /// with the huge-page advice; smaller tables: the heap.
    #[default]
    Auto,
    /// Always the heap (a `Vec` of 64-byte-aligned buckets).
    Heap,
    /// Always an anonymous mapping with the huge-page advice, whatever the
    /// size.
    Mapped,
}

/// Where a table's memory is, as built ([`TranspositionTable::storage`](crate::TranspositionTable::storage)).
///
/// A mapping that the operating system refuses falls back to the heap; a
/// refused huge-page advice (a kernel without transparent huge pages, or
/// not Linux) leaves a mapping of ordinary pages. Even with the advice taken,
/// the kernel gives huge pages only while it has free 2 MiB blocks
/// (`AnonHugePages` in `/proc/meminfo` shows how much it gave).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// A heap allocation.
    Heap,
    /// An anonymous memory mapping; `huge_pages` tells whether the kernel
    /// took the advice to back it with transparent huge pages.
    Mapped {
        /// `madvise(MADV_HUGEPAGE)` succeeded.
        huge_pages: bool,
    },
}

/// The size of a huge page on x86-64 and aarch64 with 4 KiB base pages: the
/// smallest table [`Memory::Auto`] maps.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;

impl Memory {
    /// Should a table of `bytes` bytes try a mapping?
    pub(crate) fn wants_mapping(self, bytes: usize) -> bool {
        match self {
            Memory::Auto => bytes >= HUGE_PAGE_BYTES,
            Memory::Heap => false,
            Memory::Mapped => true,
        }
    }
}

/// An anonymous, zero-filled mapping of `bytes` bytes (a positive multiple
/// of 64) with the huge-page advice, and whether the advice was taken; `None`
/// if the system refuses the mapping.
pub(crate) fn map_zeroed(bytes: usize) -> Option<(MmapMut, bool)> {
    let map = MmapOptions::new().len(bytes).map_anon().ok()?;
    // Before the first touch, so that the first fault already takes a huge
    // page.
    #[cfg(target_os = "linux")]
    let huge_pages = map.advise(memmap2::Advice::HugePage).is_ok();
    #[cfg(not(target_os = "linux"))]
    let huge_pages = false;
    Some((map, huge_pages))
}
