//! `--tables DIR`: endgame databases that `solve` and `analyse` probe at
//! the leaves of their searches.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use gametree_chess_tables::{
    CompressedTables, Signature, Tables, check_table_file, is_compressed, table_bytes,
};
use gametree_game::{Oracle, Score};
use gametree_games_chess::Position;
use gametree_retrograde::Value;

use crate::error::{CliError, Result};

/// Without a figure of the machine's memory, the tables kept in memory at
/// once take at most this much.
const DEFAULT_BUDGET: u64 = 4 << 30;

/// The chess tables in `dir` (the `ENDING.gtb` files that `gametree tb
/// build ... --out DIR` writes, or the `ENDING.gtbz` files of `gametree
/// tb compress`), each read when a probe first needs it. An ending with a
/// raw file is read whole (fastest for a search's many probes); one with
/// only a compressed file is probed a block at a time, only its block
/// index kept in memory, until it has been probed once per 1,024 of its
/// positions: its table is then decoded whole, when it fits in the
/// budget ([`decode_after`]).
///
/// Memory stays bounded: the tables read are kept while they fit in a
/// budget, half the machine's physical memory (4 GiB where the system
/// does not tell it), and at least the largest table of the directory;
/// reading one more beyond it first drops the tables probed least
/// recently. A search that stays in a few endings reads each once; one
/// that wanders through more endings than fit reads some again. The
/// budget and the largest table are stated on standard error; with
/// `GAMETREE_TB_TRACE` set, each table read too.
///
/// The raw files are checked when the oracle is made (their header and
/// length: `gametree_chess_tables::check_table_file`), and the rest (a
/// raw file's payload checksum; a compressed file's header and block
/// index, then each block) when a probe first reads it. A file
/// refused then (damaged in its payload, or changed since) is an error
/// the search cannot return: it is said on standard error, in the words
/// `tb probe` and `tb stats` use, and the program exits with status 2.
///
/// # Errors
///
/// `dir` is not a readable directory, holds no table, or a table file is
/// refused (not a table, truncated, corrupted, another format version or
/// another ending's).
pub(crate) fn chess_tables(dir: &Path) -> Result<Arc<dyn Oracle<Position>>> {
    let mut files: Vec<(Signature, PathBuf)> = Vec::new();
    for (signature, path) in crate::tb::chess_files(dir, true, "--tables")? {
        if is_compressed(&path) {
            if !files.iter().any(|(s, _)| *s == signature) {
                files.push((signature, path));
            }
            continue;
        }
        // The raw file is read in place of a compressed one.
        files.retain(|(s, _)| *s != signature);
        files.push((signature, path));
    }
    // The raw files read are checked as `tb probe` and `tb stats` read
    // them, in the same words (their header and length; a few hundred
    // bytes each). A compressed file's header and block index (up to 6
    // MiB for a 5-man ending) are checked when a probe first opens it.
    for (signature, path) in &files {
        if !is_compressed(path) {
            check_table_file(signature, path).map_err(|e| crate::tb::table_error(path, &e))?;
        }
    }
    if files.is_empty() {
        return Err(CliError::input(format!(
            "--tables {}: no chess table (ENDING.gtb or ENDING.gtbz) in this directory; build some with `gametree tb build chess:4 --out {}`",
            dir.display(),
            dir.display()
        )));
    }
    files.sort_by_key(|(s, _)| s.to_string());
    let largest = files
        .iter()
        .map(|(s, p)| Held::bytes(s, p))
        .max()
        .unwrap_or(0);
    let budget = crate::tb::physical_memory()
        .map_or(DEFAULT_BUDGET, |total| total / 2)
        .max(largest);
    let names: Vec<String> = files
        .iter()
        .map(|(s, p)| {
            if is_compressed(p) {
                format!("{s}.gtbz")
            } else {
                s.to_string()
            }
        })
        .collect();
    eprintln!(
        "tables: {} in {} ({}), each read when first probed (a .gtbz file opened, not read); at most {} MiB \
         kept in memory (the largest table: {} MiB)",
        names.len(),
        dir.display(),
        names.join(" "),
        budget >> 20,
        largest.div_ceil(1 << 20)
    );
    Ok(Arc::new(LazyTables::new(files, budget)))
}

/// The tables of a directory read on demand, within a memory budget.
struct LazyTables {
    /// Each file's ending and path, in name order.
    files: Vec<(Signature, PathBuf)>,
    /// The most bytes of tables kept at once.
    budget: u64,
    /// When each table was last probed (a count of reads).
    used: Vec<AtomicU64>,
    /// How many tables have been read.
    reads: AtomicU64,
    /// Probes of each file's table while it is compressed.
    probes: Vec<AtomicU64>,
    loaded: RwLock<Loaded>,
    /// Say each table read on standard error (`GAMETREE_TB_TRACE`).
    trace: bool,
}

/// The tables in memory.
struct Loaded {
    /// Each file's table, when read.
    tables: Vec<Option<Held>>,
    /// Their bytes.
    bytes: u64,
}

/// The block index of `signature`'s compressed file in memory.
fn compressed_bytes(signature: &Signature) -> u64 {
    table_bytes(signature).div_ceil(2048) * 16
}

/// The probes of a compressed file after which its table is decoded whole
/// (when it fits in the budget): one per 1,024 positions, about when the
/// time of the probes so far has reached that of decoding the table, so
/// that the probes cost about twice at most what the better choice,
/// known in hindsight, would have. `cargo xtask bench tb-compress`
/// measures a warm probe (KQRvKR, KQvKR) at the time of decoding 900 to
/// 2,000 positions on two threads (a half to a third of that on one).
fn decode_after(signature: &Signature) -> u64 {
    (table_bytes(signature) / 1024).max(1)
}

/// Ends the program on a table refused while a search probes it (an
/// error the search cannot return), as `main` ends it on an error:
/// `error: MESSAGE` on standard error, exit status 2.
fn fail(e: &CliError) -> ! {
    eprintln!("error: {e}");
    std::process::exit(i32::from(e.exit_code()));
}

/// One file's table in memory: read whole, or a compressed file open.
enum Held {
    Raw(Tables),
    Compressed(CompressedTables),
}

impl Held {
    /// Reads (or opens) `signature`'s file at `path`.
    fn read(signature: &Signature, path: &Path) -> Result<Held> {
        let refused = |e| crate::tb::table_error(path, &e);
        if is_compressed(path) {
            let mut disk = CompressedTables::new();
            disk.open(signature, path).map_err(refused)?;
            Ok(Held::Compressed(disk))
        } else {
            let mut tables = Tables::new();
            tables.load(signature, path).map_err(refused)?;
            Ok(Held::Raw(tables))
        }
    }

    /// The bytes `signature`'s file at `path` takes when read: the table,
    /// or a compressed file's block index (16 bytes per 2,048 positions).
    fn bytes(signature: &Signature, path: &Path) -> u64 {
        if is_compressed(path) {
            compressed_bytes(signature)
        } else {
            table_bytes(signature)
        }
    }

    /// The bytes it holds (see [`Held::bytes`]).
    fn held_bytes(&self, signature: &Signature) -> u64 {
        match self {
            Held::Raw(_) => table_bytes(signature),
            Held::Compressed(_) => compressed_bytes(signature),
        }
    }

    /// `position`'s score. A compressed block that cannot be read (the
    /// file changed since it was opened) is an error the search cannot
    /// return: it is said on standard error and the program exits with
    /// status 2.
    fn probe(&self, position: &Position, path: &Path) -> Option<Score> {
        match self {
            Held::Raw(t) => t.probe(position).map(Value::to_score),
            Held::Compressed(t) => match t.probe(position) {
                Ok(v) => v.map(Value::to_score),
                Err(e) => fail(&crate::tb::table_error(path, &e)),
            },
        }
    }
}

impl LazyTables {
    fn new(files: Vec<(Signature, PathBuf)>, budget: u64) -> Self {
        let n = files.len();
        LazyTables {
            files,
            budget,
            used: (0..n).map(|_| AtomicU64::new(0)).collect(),
            reads: AtomicU64::new(0),
            probes: (0..n).map(|_| AtomicU64::new(0)).collect(),
            loaded: RwLock::new(Loaded {
                tables: (0..n).map(|_| None).collect(),
                bytes: 0,
            }),
            trace: std::env::var_os(crate::tb::TRACE_VAR).is_some(),
        }
    }

    /// The file holding `signature`'s positions: its own or the colours
    /// exchanged's.
    fn file_of(&self, signature: &Signature) -> Option<usize> {
        self.files
            .iter()
            .position(|(s, _)| s == signature)
            .or_else(|| {
                let flipped = signature.flipped();
                self.files.iter().position(|(s, _)| *s == flipped)
            })
    }

    /// Reads table `at`, first dropping the least recently probed tables
    /// until it fits in the budget (or none is left), and probes
    /// `position` in it (before another thread may drop it).
    fn read(&self, at: usize, position: &Position) -> Option<Score> {
        let mut loaded = self.loaded.write().unwrap_or_else(PoisonError::into_inner);
        let (signature, path) = &self.files[at];
        if let Some(tables) = &loaded.tables[at] {
            return tables.probe(position, path);
        }
        let bytes = Held::bytes(signature, path);
        self.make_room(&mut loaded, bytes, at);
        let tables = Held::read(signature, path).unwrap_or_else(|e| fail(&e));
        let value = tables.probe(position, path);
        loaded.tables[at] = Some(tables);
        loaded.bytes += bytes;
        self.reads.fetch_add(1, Ordering::Relaxed);
        if self.trace {
            eprintln!(
                "tables: read {signature}; in memory: {}",
                self.names(&loaded)
            );
        }
        value
    }

    /// Drops the least recently probed tables (never table `keep`) until
    /// `bytes` more fit in the budget, or none is left to drop.
    fn make_room(&self, loaded: &mut Loaded, bytes: u64, keep: usize) {
        while loaded.bytes + bytes > self.budget {
            let oldest = (0..self.files.len())
                .filter(|&i| i != keep && loaded.tables[i].is_some())
                .min_by_key(|&i| self.used[i].load(Ordering::Relaxed));
            let Some(oldest) = oldest else { break };
            if let Some(held) = loaded.tables[oldest].take() {
                loaded.bytes -= held.held_bytes(&self.files[oldest].0);
            }
        }
    }

    /// The endings in memory, space-separated (`.gtbz` for a compressed
    /// file probed a block at a time).
    fn names(&self, loaded: &Loaded) -> String {
        let names: Vec<String> = (0..self.files.len())
            .filter_map(|i| match &loaded.tables[i] {
                Some(Held::Raw(_)) => Some(self.files[i].0.to_string()),
                Some(Held::Compressed(_)) => Some(format!("{}.gtbz", self.files[i].0)),
                None => None,
            })
            .collect();
        names.join(" ")
    }

    /// Decodes the compressed file of table `at` whole (every block
    /// checked), in place of probing it a block at a time, when its table
    /// fits in the budget once the least recently probed others are
    /// dropped.
    fn decode_whole(&self, at: usize) {
        let mut loaded = self.loaded.write().unwrap_or_else(PoisonError::into_inner);
        let (signature, path) = &self.files[at];
        if !matches!(loaded.tables[at], Some(Held::Compressed(_))) {
            return;
        }
        let more = table_bytes(signature) - compressed_bytes(signature);
        self.make_room(&mut loaded, more, at);
        if loaded.bytes + more > self.budget {
            return;
        }
        let mut tables = Tables::new();
        if let Err(e) = tables.load(signature, path) {
            fail(&crate::tb::table_error(path, &e));
        }
        loaded.tables[at] = Some(Held::Raw(tables));
        loaded.bytes += more;
        if self.trace {
            eprintln!(
                "tables: decoded {signature}.gtbz whole; in memory: {}",
                self.names(&loaded)
            );
        }
    }
}

impl Oracle<Position> for LazyTables {
    fn probe(&self, position: &Position) -> Option<Score> {
        if position.castling_rights() != 0 {
            return None;
        }
        let signature = Signature::of(position)?;
        if signature.piece_count() <= 2 {
            return Some(Value::Draw.to_score());
        }
        let at = self.file_of(&signature)?;
        let now = self.reads.load(Ordering::Relaxed);
        if self.used[at].load(Ordering::Relaxed) != now {
            self.used[at].store(now, Ordering::Relaxed);
        }
        let probed = {
            let loaded = self.loaded.read().unwrap_or_else(PoisonError::into_inner);
            loaded.tables[at].as_ref().map(|tables| {
                let v = tables.probe(position, &self.files[at].1);
                let compressed = matches!(tables, Held::Compressed(_));
                (v, compressed)
            })
        };
        match probed {
            Some((v, true)) => {
                let n = self.probes[at].fetch_add(1, Ordering::Relaxed) + 1;
                if n == decode_after(&self.files[at].0) {
                    self.decode_whole(at);
                }
                v
            }
            Some((v, false)) => v,
            None => self.read(at, position),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_chess_tables::{BuildOptions, table_file};

    #[test]
    fn tables_are_read_when_probed_and_dropped_beyond_the_budget() {
        let dir = std::env::temp_dir().join(format!("gametree-lazy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut whole = Tables::new();
        let endings: Vec<Signature> = ["KQvK", "KRvK"].map(|s| s.parse().unwrap()).into();
        whole.build(&endings, &BuildOptions::default()).unwrap();
        let mut files = Vec::new();
        for s in &endings {
            let path = table_file(&dir, s);
            assert!(whole.save(s, &path).unwrap());
            check_table_file(s, &path).unwrap();
            files.push((s.clone(), path));
        }
        // Another ending's file under this name is refused.
        assert!(check_table_file(&"KQvKR".parse().unwrap(), &files[0].1).is_err());
        // Room for one table at a time.
        let lazy = LazyTables::new(files, table_bytes(&endings[0]));
        let held = |l: &LazyTables| {
            let loaded = l.loaded.read().unwrap();
            loaded
                .tables
                .iter()
                .map(Option::is_some)
                .collect::<Vec<_>>()
        };
        assert_eq!(held(&lazy), [false, false]);
        let kqk: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
        let krk: Position = "8/8/8/4k3/8/8/8/KR6 b - - 0 1".parse().unwrap();
        // Black's rook: the colours exchanged, in KRvK's file.
        let kkr: Position = "kr6/8/8/8/3K4/8/8/8 w - - 0 1".parse().unwrap();
        for p in [&kqk, &krk, &kkr, &kqk] {
            let expected = whole.probe(p).map(Value::to_score);
            assert!(expected.is_some());
            assert_eq!(lazy.probe(p), expected, "{p}");
        }
        assert_eq!(held(&lazy), [true, false]);
        assert_eq!(lazy.reads.load(Ordering::Relaxed), 3);
        // Two bare kings: a draw without a table; no table: unknown.
        let kk: Position = "8/8/8/4k3/8/8/8/K7 w - - 0 1".parse().unwrap();
        assert_eq!(lazy.probe(&kk), Some(Value::Draw.to_score()));
        let kbk: Position = "8/8/8/4k3/8/8/8/KB6 w - - 0 1".parse().unwrap();
        assert_eq!(lazy.probe(&kbk), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_compressed_table_probed_often_is_decoded_whole_within_the_budget() {
        let dir = std::env::temp_dir().join(format!("gametree-lazy-gtbz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut whole = Tables::new();
        let kqvk: Signature = "KQvK".parse().unwrap();
        whole
            .build(std::slice::from_ref(&kqvk), &BuildOptions::default())
            .unwrap();
        let path = gametree_chess_tables::compressed_table_file(&dir, &kqvk);
        assert!(whole.save_compressed(&kqvk, &path).unwrap());
        let files = vec![(kqvk.clone(), path)];
        let kind = |l: &LazyTables| match &l.loaded.read().unwrap().tables[0] {
            Some(Held::Raw(_)) => "raw",
            Some(Held::Compressed(_)) => "compressed",
            None => "none",
        };
        let p: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
        let expected = whole.probe(&p).map(Value::to_score);
        assert!(expected.is_some());
        // Room for the table: decoded after `decode_after` probes.
        let roomy = LazyTables::new(files.clone(), table_bytes(&kqvk));
        let n = decode_after(&kqvk);
        assert!(n > 10, "{n}");
        assert_eq!(roomy.probe(&p), expected);
        assert_eq!(kind(&roomy), "compressed");
        for _ in 0..n {
            assert_eq!(roomy.probe(&p), expected);
        }
        assert_eq!(kind(&roomy), "raw");
        assert_eq!(roomy.loaded.read().unwrap().bytes, table_bytes(&kqvk));
        assert_eq!(roomy.probe(&p), expected);
        // Room for its block index only: probed a block at a time.
        let tight = LazyTables::new(files, compressed_bytes(&kqvk));
        for _ in 0..=n {
            assert_eq!(tight.probe(&p), expected);
        }
        assert_eq!(kind(&tight), "compressed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
