//! Chess databases: endings of up to 5 pieces, with and without pawns,
//! each with the endings its captures and promotions
//! lead to (`gametree_chess_tables`).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use gametree_chess_tables::{
    BuildOptions, MAX_PAWN_BUILD_PIECES, Signature, Tablebase, compressed_table_file,
    find_table_file, is_compressed, successor_endings, table_bytes, table_file,
};
use gametree_game::{Game, Outcome};
use gametree_games_chess::Position as Chess;
use gametree_retrograde::{Event, Table, Value};
use indicatif::ProgressBar;

use super::build::{check_memory, human, memory_bound, with_progress};
use super::{MAX_CHESS_PIECES, Probe, line_visiting, report_event, table_error, tablebase_error};
use crate::error::{CliError, Result};
use crate::progress;

/// Reading tables of this many bytes or more is stated on standard error
/// first (a 5-man table is 231 MiB or more; a 4-man one at most 12 MiB).
const STATED_BYTES: u64 = 64 << 20;

/// With this environment variable set (to anything), `tb stats` and `tb
/// probe` say on standard error each table they read and drop, with the
/// endings then in memory (what the tests count).
pub(crate) const TRACE_VAR: &str = "GAMETREE_TB_TRACE";

/// The most pieces of an ending `tb probe` builds without `--build`: a
/// missing table of up to 4 pieces builds in about a second (pawnless),
/// at most about a minute (KPvKP with the 4-man endings it promotes
/// into); a 5-man one takes minutes to hours and up to GiBs.
const QUICK_BUILD_PIECES: usize = 4;

/// Seconds a build takes per index of its table on one thread, for the
/// estimate stated before it: without pawns and with. Measured here on a
/// busy 2-core machine (0.29 µs an index for KQvKR, 0.62–0.72 µs for the
/// 4-man endings with pawns); an idle machine takes a third to a half of
/// it (docs/scaling.md: 0.08–0.14 µs, 0.28–0.37 µs).
const SECONDS_PER_INDEX: f64 = 0.3e-6;
const SECONDS_PER_PAWN_INDEX: f64 = 0.8e-6;

/// Which missing tables a [`Directory`] builds into its directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builds {
    /// Any (`tb stats`, `tb probe --build`).
    All,
    /// Those of at most [`QUICK_BUILD_PIECES`] pieces (`tb probe`): a
    /// larger one is refused with the command that builds it.
    Quick,
}

/// The tables a build of one ending into a directory writes: the ending
/// and the endings it leads to whose files are missing, with their size
/// on disk and an estimate of the time they take.
struct Missing {
    /// The endings to build, in the order of `Tablebase::plan`.
    endings: Vec<Signature>,
    /// Their files' bytes.
    bytes: u64,
    /// The estimate of the time on one thread.
    seconds: f64,
}

impl Missing {
    /// What building `ending` into `dir` writes: `ending` itself when
    /// its file is missing (its own, when `exact`; else its own or the
    /// colours exchanged's), and every ending it leads to whose file (or
    /// the colours exchanged's) is missing.
    fn of(dir: &Path, ending: &Signature, exact: bool) -> Missing {
        let there = |s: &Signature| {
            if exact && s == ending {
                table_file(dir, s).exists() || compressed_table_file(dir, s).exists()
            } else {
                find_table_file(dir, s).is_some()
            }
        };
        let endings: Vec<Signature> = Tablebase::new()
            .plan(std::slice::from_ref(ending))
            .into_iter()
            .filter(|s| !there(s))
            .collect();
        let bytes = endings.iter().map(table_bytes).sum();
        #[allow(clippy::cast_precision_loss)] // an estimate
        let seconds = endings
            .iter()
            .map(|s| {
                let rate = if s.has_pawns() {
                    SECONDS_PER_PAWN_INDEX
                } else {
                    SECONDS_PER_INDEX
                };
                table_bytes(s) as f64 * rate
            })
            .sum();
        Missing {
            endings,
            bytes,
            seconds,
        }
    }

    /// The most pieces of an ending to build (0 when none is).
    fn most_pieces(&self) -> usize {
        self.endings
            .iter()
            .map(Signature::piece_count)
            .max()
            .unwrap_or(0)
    }

    /// The endings to build: `KQvK`, or `3 tables (KQvKR KQvK KRvK)`
    /// (the first eight named).
    fn what(&self) -> String {
        const NAMED: usize = 8;
        let mut names: Vec<String> = self
            .endings
            .iter()
            .take(NAMED)
            .map(ToString::to_string)
            .collect();
        if self.endings.len() > NAMED {
            names.push(format!("and {} more", self.endings.len() - NAMED));
        }
        match self.endings.len() {
            1 => names.join(""),
            n => format!("{n} tables ({})", names.join(" ")),
        }
    }

    /// The disk and the time, for people.
    fn cost(&self) -> String {
        format!(
            "{} on disk, {} on one thread",
            human(self.bytes),
            duration(self.seconds)
        )
    }
}

/// An estimate of seconds for people: `under a second`, `up to about 40
/// s`, `up to about 16 min`, `up to about 1.5 h`.
fn duration(seconds: f64) -> String {
    if seconds < 1.0 {
        "under a second".to_owned()
    } else if seconds < 90.0 {
        format!("up to about {} s", seconds.ceil())
    } else if seconds < 90.0 * 60.0 {
        format!("up to about {} min", (seconds / 60.0).ceil())
    } else {
        format!("up to about {:.1} h", seconds / 3600.0)
    }
}

/// A directory of chess tables as `tb stats` and `tb probe` read it: a
/// [`Tablebase`] of the files they need, added one ending at a time (an
/// ending's file, or the file of the colours exchanged, when a position
/// of it is valued; never the files of the endings it leads to). When the
/// file is not there, it is built into the directory first as `tb build`
/// builds (`Tablebase::build_file`: the endings it leads to written and
/// held only while a build probes them, in the memory stated on standard
/// error before), then added.
///
/// A probe keeps in memory the table of the position on the line and
/// those of its direct exits that its moves reach ([`focus`](Self::focus)
/// drops the others): at most an ending and its direct captures and
/// promotions, never every ending they lead to in turn. An ending with a
/// compressed file (`ENDING.gtbz`, written by `tb compress`) is probed
/// from that file a block at a time.
pub(super) struct Directory<'a> {
    dir: &'a Path,
    threads: usize,
    /// Which missing tables are built.
    builds: Builds,
    tablebase: Tablebase,
    trace: bool,
}

impl<'a> Directory<'a> {
    pub(super) fn new(dir: &'a Path, threads: usize, builds: Builds) -> Self {
        let trace = std::env::var_os(TRACE_VAR).is_some();
        let mut tablebase = Tablebase::new();
        if trace {
            tablebase.set_listener(crate::oracle::trace);
        }
        Directory {
            dir,
            threads,
            builds,
            tablebase,
            trace,
        }
    }

    /// The tablebase of the files added.
    pub(super) fn tablebase(&self) -> &Tablebase {
        &self.tablebase
    }

    /// The file of `sig`'s table, built into the directory first when
    /// missing: the file of `sig` itself when `exact`, else the file of
    /// `sig` or of the colours exchanged (one with only Black's pieces
    /// is built with the colours exchanged, the name `tb build` gives it).
    fn file(&self, sig: &Signature, exact: bool) -> Result<(Signature, PathBuf)> {
        if exact {
            for path in [
                table_file(self.dir, sig),
                compressed_table_file(self.dir, sig),
            ] {
                if path.exists() {
                    return Ok((sig.clone(), path));
                }
            }
        } else if let Some(found) = find_table_file(self.dir, sig) {
            return Ok(found);
        }
        let sig = if !exact && sig.to_string().starts_with("Kv") {
            sig.flipped()
        } else {
            sig.clone()
        };
        check_size(&sig)?;
        let missing = self.may_build(&sig, exact)?;
        eprintln!(
            "building {} into {} (missing there): {}",
            missing.what(),
            self.dir.display(),
            missing.cost()
        );
        let tables = Tablebase::new();
        check_memory(
            tables.memory_writing(std::slice::from_ref(&sig), self.threads),
            self.threads,
            None,
        )?;
        let (path, _) = with_progress(self.dir, self.threads, false, |options, done| {
            tables.build_file(&sig, self.dir, options, done)
        })?;
        Ok((sig, path))
    }

    /// The tables building `sig` into the directory writes; an error,
    /// with the command that builds them, when they are not to be built
    /// here ([`Builds::Quick`] and an ending of more than
    /// [`QUICK_BUILD_PIECES`] pieces).
    fn may_build(&self, sig: &Signature, exact: bool) -> Result<Missing> {
        let missing = Missing::of(self.dir, sig, exact);
        if self.builds == Builds::Quick && missing.most_pieces() > QUICK_BUILD_PIECES {
            let memory = memory_bound(
                Tablebase::new().memory_writing(std::slice::from_ref(sig), self.threads),
            );
            let dir = self.dir.display();
            return Err(CliError::input(format!(
                "{dir} lacks the tables of {sig}: building {} takes {}, up to {} of memory; \
                 build them with `gametree tb build {sig} --out {dir}` (progress shown; stopped \
                 and run again, it resumes; --threads 2 is faster), or probe with --build to \
                 build them first",
                missing.what(),
                missing.cost(),
                human(memory)
            )));
        }
        Ok(missing)
    }

    /// Refuses, before anything is read or built, a probe of `p` that
    /// would build a table it may not ([`may_build`](Self::may_build)):
    /// every table a probe of `p` reads is its ending's or one its ending
    /// leads to.
    fn check_builds(&self, p: &Chess) -> Result<()> {
        let sig = chess_signature(p)?;
        if sig.piece_count() > 2 {
            self.may_build(&sig, false)?;
        }
        Ok(())
    }

    /// States the memory reading the raw file of `file` at `path` takes,
    /// when it is large.
    fn state_reading(file: &Signature, path: &Path) {
        let bytes = table_bytes(file);
        if bytes >= STATED_BYTES && !is_compressed(path) {
            eprintln!(
                "memory: reading {} takes {} ({bytes} bytes)",
                path.display(),
                human(bytes)
            );
        }
    }

    /// Reads `sig`'s own table (its colours as given; for its
    /// statistics) into memory, building its file first when missing.
    pub(super) fn read_exact(&mut self, sig: &Signature) -> Result<()> {
        if self.tablebase.table(sig).is_some() {
            return Ok(());
        }
        let (file, path) = self.file(sig, true)?;
        Self::state_reading(&file, &path);
        self.tablebase
            .load(&file, &path)
            .map_err(|e| table_error(&path, &e))?;
        if self.trace {
            eprintln!(
                "tables: read {file}; in memory: {}",
                crate::oracle::names(&self.tablebase.in_memory())
            );
        }
        Ok(())
    }

    /// Makes sure the file of `sig` (or of the colours exchanged) is in
    /// the tablebase, to be read when probed: its compressed file first
    /// (probed a block at a time), else its raw file, built first when
    /// missing.
    fn cover(&mut self, sig: &Signature) -> Result<()> {
        if sig.piece_count() <= 2 || self.tablebase.covers(sig) {
            return Ok(());
        }
        let packed = [sig.clone(), sig.flipped()]
            .into_iter()
            .map(|s| {
                let path = compressed_table_file(self.dir, &s);
                (s, path)
            })
            .find(|(_, path)| path.exists());
        let (file, path) = match packed {
            Some(found) => found,
            None => self.file(sig, false)?,
        };
        Self::state_reading(&file, &path);
        self.tablebase
            .add_file(&file, &path)
            .map_err(|e| table_error(&path, &e))
    }

    /// Keeps in memory only the table of `p`'s ending and those of its
    /// direct captures and promotions (colours exchanged or not): what
    /// valuing `p` and the positions after its moves takes.
    pub(super) fn focus(&mut self, p: &Chess) {
        let Some(sig) = Signature::of(p) else { return };
        let mut keep = successor_endings(&sig);
        keep.push(sig);
        let keep: Vec<Signature> = keep.iter().flat_map(|s| [s.clone(), s.flipped()]).collect();
        let dropped = self.tablebase.unload_where(|s| !keep.contains(s));
        if self.trace && !dropped.is_empty() {
            let dropped: Vec<String> = dropped.iter().map(ToString::to_string).collect();
            eprintln!(
                "tables: dropped {}; in memory: {}",
                dropped.join(" "),
                crate::oracle::names(&self.tablebase.in_memory())
            );
        }
    }

    /// The value of `p` (from the rules when the game is over), adding
    /// its ending's file first when it is not there.
    pub(super) fn value(&mut self, p: &Chess) -> Result<Option<Value>> {
        match p.outcome() {
            Some(Outcome::Loss) => return Ok(Some(Value::Loss(0))),
            Some(Outcome::Draw) => return Ok(Some(Value::Draw)),
            Some(Outcome::Win) => return Ok(Some(Value::Win(0))),
            None => {}
        }
        if let Some(sig) = Signature::of(p) {
            self.cover(&sig)?;
        }
        self.tablebase
            .probe(p)
            .map_err(|e| tablebase_error(&self.tablebase, &e))
    }

    /// `p`'s value, best move and line ([`line_visiting`]), with the
    /// tables of the ending of each position on the line and of its
    /// direct exits only.
    pub(super) fn probe(&mut self, p: &Chess) -> Result<Probe<gametree_games_chess::Move>> {
        self.check_builds(p)?;
        let this = std::cell::RefCell::new(&mut *self);
        let mut probe = line_visiting(
            p,
            |q| this.borrow_mut().value(q),
            |q| {
                this.borrow_mut().focus(q);
                Ok(())
            },
        )?;
        probe.positions = self.tablebase.endings().map(table_bytes).sum();
        Ok(probe)
    }

    /// The value of each legal move of `p` (of the position after it):
    /// the tables of `p`'s ending and of the direct exits its moves reach.
    pub(super) fn move_values(
        &mut self,
        p: &Chess,
    ) -> Result<Vec<(gametree_games_chess::Move, Option<Value>)>> {
        self.check_builds(p)?;
        self.focus(p);
        let mut moves = <Chess as Game>::Moves::default();
        p.generate(&mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves.as_slice() {
            let mut child = p.clone();
            child.make(m);
            out.push((m, self.value(&child)?));
        }
        Ok(out)
    }
}

/// The value of a chess position from the tables in memory (or from the
/// rules when the game is over).
fn value_in(tables: &Tablebase, p: &Chess) -> Result<Option<Value>> {
    match p.outcome() {
        Some(Outcome::Loss) => return Ok(Some(Value::Loss(0))),
        Some(Outcome::Draw) => return Ok(Some(Value::Draw)),
        Some(Outcome::Win) => return Ok(Some(Value::Win(0))),
        None => {}
    }
    tables.probe(p).map_err(|e| CliError::input(e.to_string()))
}

/// Makes sure the table of `sig` and of every ending it captures or
/// promotes into is in `tables`, built in memory when not. An ending in
/// which only Black has pieces (`KvKR`) is kept as its colour exchange
/// (`KRvK`), the name `tb build chess:N` gives it.
fn ensure(tables: &mut Tablebase, sig: &Signature, threads: usize, verbose: bool) -> Result<()> {
    let white: Signature;
    let sig = if sig.to_string().starts_with("Kv") && sig.piece_count() > 2 {
        white = sig.flipped();
        &white
    } else {
        sig
    };
    if tables.table(sig).is_some() {
        return Ok(());
    }
    check_size(sig)?;
    for sub in successor_endings(sig) {
        if !tables.covers(&sub) {
            ensure(tables, &sub, threads, verbose)?;
        }
    }
    state_memory_build(sig);
    let pb = verbose.then(|| progress::bar(0, format!("building {sig}")));
    let table = build_chess(sig, tables, threads, pb.as_ref())?;
    tables
        .insert(table)
        .map_err(|e| CliError::input(e.to_string()))?;
    Ok(())
}

/// Says on standard error, before an ending of more than
/// [`QUICK_BUILD_PIECES`] pieces is built in memory (`solve chess --algo
/// retrograde` without a directory), what is built and how long it may
/// take, and how to keep it: such a build takes minutes, and nothing of it
/// is written.
fn state_memory_build(sig: &Signature) {
    if sig.piece_count() <= QUICK_BUILD_PIECES {
        return;
    }
    let rate = if sig.has_pawns() {
        SECONDS_PER_PAWN_INDEX
    } else {
        SECONDS_PER_INDEX
    };
    #[allow(clippy::cast_precision_loss)] // an estimate
    let seconds = table_bytes(sig) as f64 * rate;
    eprintln!(
        "note: building the {sig} table in memory, {} on one thread (not kept: `gametree tb build {sig} --out DIR` writes it once for `tb probe --dir DIR` and `--tables DIR`)",
        duration(seconds)
    );
}

/// Builds the table of `sig` by the indexed backward method on `threads`
/// threads (`Tablebase::build_table`), its captures and promotions
/// valued in `tables`, reporting to `pb` (cleared at the end).
fn build_chess(
    sig: &Signature,
    tables: &Tablebase,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    let report = |_: &Signature, e: &Event<'_, _>| report_event(pb, e);
    let options = BuildOptions {
        threads,
        progress: pb
            .is_some()
            .then_some(&report as &gametree_chess_tables::Progress<'_>),
        ..BuildOptions::default()
    };
    let table = tables
        .build_table(sig, &options)
        .map_err(|e| CliError::input(format!("building {sig}: {e}")))?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(table)
}

/// Refuses endings too large to build here.
pub(super) fn check_size(sig: &Signature) -> Result<()> {
    if sig.piece_count() > MAX_CHESS_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        )));
    }
    if sig.has_pawns() && sig.piece_count() > MAX_PAWN_BUILD_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases with pawns of more than {MAX_PAWN_BUILD_PIECES} pieces are not available (time)"
        )));
    }
    Ok(())
}

/// The tables built in memory by `solve chess --algo retrograde`, kept
/// for the next call.
fn built_tables() -> &'static Mutex<Tablebase> {
    static TABLES: OnceLock<Mutex<Tablebase>> = OnceLock::new();
    TABLES.get_or_init(|| Mutex::new(Tablebase::new()))
}

/// The chess databases' answer for `p`: with `dir`, from the tables there
/// ([`Directory`]: one ending and its direct exits in memory at a time,
/// a missing file built into `dir` first); without, from tables built in
/// memory (every ending `p`'s leads to, kept for the next call).
pub(crate) fn probe_chess(
    p: &Chess,
    threads: usize,
    dir: Option<&Path>,
) -> Result<Probe<gametree_games_chess::Move>> {
    if let Some(dir) = dir {
        return Directory::new(dir, threads, Builds::All).probe(p);
    }
    let sig = chess_signature(p)?;
    let mut tables = built_tables()
        .lock()
        .map_err(|_| CliError::input("database cache poisoned"))?;
    ensure(&mut tables, &sig, threads, progress::enabled())?;
    let mut probe = line_visiting(p, |q| value_in(&tables, q), |_| Ok(()))?;
    probe.positions = tables.tables().map(|(_, t)| t.len()).sum();
    Ok(probe)
}

fn chess_signature(p: &Chess) -> Result<Signature> {
    if p.castling_rights() != 0 {
        return Err(CliError::input(
            "the position has castling rights; databases cover positions without them",
        ));
    }
    let sig = Signature::of(p).ok_or_else(|| {
        CliError::unavailable(format!(
            "databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        ))
    })?;
    check_size(&sig)?;
    Ok(sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_chess_tables::captures;

    #[test]
    fn capture_targets() {
        let s: Signature = "KQvKR".parse().unwrap();
        let subs: Vec<String> = captures(&s).iter().map(ToString::to_string).collect();
        assert_eq!(subs, ["KvKR", "KQvK"]);
        let kqk: Signature = "KQvK".parse().unwrap();
        assert!(captures(&kqk).is_empty());
        let kbb: Signature = "KBBvK".parse().unwrap();
        assert_eq!(captures(&kbb).len(), 1);
    }
}
