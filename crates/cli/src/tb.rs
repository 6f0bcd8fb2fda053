//! `gametree tb`: endgame databases by retrograde analysis — tic-tac-toe
//! (every reachable position), Connect Four on small boards (every
//! reachable position, mirror images merged) and pawnless chess endings.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use gametree_chess_tables::{Endgame, FastEndgame, Signature, Tables, Wdl, captures, statistics};
use gametree_game::{Game, IndexSpace, MoveBuffer, Outcome, Player};
use gametree_games_chess::Position as Chess;
use gametree_games_connect4::{Board as Connect4, BoardIndex as Connect4Index, Size};
use gametree_games_tictactoe::TicTacToe;
use gametree_games_tictactoe::index::BoardIndex;
use gametree_retrograde::{Counts, Event, Generator, Label, Method, Table, Value};
use indicatif::ProgressBar;

use crate::error::{CliError, Result};
use crate::output::{Record, Value as Out};
use crate::progress;

/// The largest chess ending built (pieces, kings included).
const MAX_CHESS_PIECES: usize = 5;
/// The longest line printed by a probe.
const MAX_PV: usize = 200;
/// The index scheme written into the tic-tac-toe database header.
const TICTACTOE_SCHEME: &str = "base3-plain-v1";
/// The index scheme written into Connect Four database headers.
const CONNECT4_SCHEME: &str = "columns-mirror-v1";

/// A position's value from a database, with a best move and line.
#[derive(Debug)]
pub(crate) struct Probe<M> {
    /// The value (`None` never happens for a position inside a database).
    pub(crate) value: Option<Value>,
    /// A best move (none at the end of the game).
    pub(crate) best: Option<M>,
    /// The line of best moves to the end (at most 200 plies).
    pub(crate) pv: Vec<M>,
    /// Positions in the databases consulted.
    pub(crate) positions: u64,
}

// ------------------------------------------------------------ tic-tac-toe

fn tictactoe_label() -> Label {
    Label::new("tictactoe", "all", TICTACTOE_SCHEME)
}

fn build_tictactoe(threads: usize, pb: Option<&ProgressBar>) -> Result<Table> {
    let space = BoardIndex::plain();
    let report = |e: &Event| report_event(pb, e);
    let mut generator = Generator::new(&space)
        .label(tictactoe_label())
        .threads(threads);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    generator
        .build(Method::Backward)
        .map_err(|e| CliError::input(format!("building the tic-tac-toe database: {e}")))
}

fn tictactoe_table(threads: usize) -> Result<&'static Table> {
    static TABLE: OnceLock<Table> = OnceLock::new();
    if let Some(t) = TABLE.get() {
        return Ok(t);
    }
    let t = build_tictactoe(threads, None)?;
    Ok(TABLE.get_or_init(|| t))
}

fn tictactoe_value(table: &Table, g: &TicTacToe) -> Option<Value> {
    match g.outcome() {
        Some(Outcome::Loss) => Some(Value::Loss(0)),
        Some(Outcome::Draw) => Some(Value::Draw),
        Some(Outcome::Win) => Some(Value::Win(0)),
        None => table.get(BoardIndex::plain().index_of(g)?),
    }
}

/// The tic-tac-toe database's answer for `g`.
pub(crate) fn probe_tictactoe(
    g: &TicTacToe,
    threads: usize,
) -> Result<Probe<gametree_games_tictactoe::Square>> {
    let table = tictactoe_table(threads)?;
    let mut probe = line(g, |p| tictactoe_value(table, p))?;
    probe.positions = table.counts().positions();
    Ok(probe)
}

/// Follows best moves by the values of the successors.
fn line<G: Game>(g: &G, value: impl Fn(&G) -> Option<Value>) -> Result<Probe<G::Move>> {
    let missing = || CliError::input("the position is not in the database");
    let root = value(g).ok_or_else(missing)?;
    let mut pos = g.clone();
    let mut pv = Vec::new();
    while pos.outcome().is_none() && pv.len() < MAX_PV {
        let mut moves = G::Moves::default();
        pos.generate(&mut moves);
        let mut best: Option<(G::Move, Value)> = None;
        for &m in moves.as_slice() {
            let mut child = pos.clone();
            child.make(m);
            let v = value(&child).ok_or_else(missing)?.parent();
            // `Score` orders faster wins first and slower losses last.
            if best.is_none_or(|(_, b)| v.to_score() > b.to_score()) {
                best = Some((m, v));
            }
        }
        let Some((m, _)) = best else { break };
        pv.push(m);
        pos.make(m);
        if root == Value::Draw && pv.len() >= 20 {
            break;
        }
    }
    Ok(Probe {
        value: Some(root),
        best: pv.first().copied(),
        pv,
        positions: 0,
    })
}

// ----------------------------------------------------------- Connect Four

fn connect4_label(size: Size) -> Label {
    Label::new("connect4", size.to_string(), CONNECT4_SCHEME)
}

fn connect4_name(size: Size) -> String {
    format!("connect4-{size}")
}

/// The mirror-reduced index space of a board, or a one-line error when the
/// board is too large for a database.
fn connect4_space(size: Size) -> Result<Connect4Index> {
    Connect4Index::symmetric(size).map_err(|e| {
        CliError::unavailable(format!(
            "connect4:{size}: no database ({e}; 4x4, 5x4 and 4x5 fit)"
        ))
    })
}

fn build_connect4(
    space: &Connect4Index,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    let size = space.board_size();
    let report = |e: &Event| report_event(pb, e);
    let mut generator = Generator::new(space)
        .label(connect4_label(size))
        .threads(threads);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    generator
        .build(Method::Backward)
        .map_err(|e| CliError::input(format!("building the connect4:{size} database: {e}")))
}

/// The database of `size`: read from `dir` when it holds one, else built
/// (with a progress bar when `verbose`), and kept for the process.
fn connect4_table(
    size: Size,
    dir: Option<&Path>,
    threads: usize,
    verbose: bool,
) -> Result<&'static (Connect4Index, Table)> {
    static TABLES: OnceLock<Mutex<HashMap<Size, &'static (Connect4Index, Table)>>> =
        OnceLock::new();
    let tables = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut tables = tables
        .lock()
        .map_err(|_| CliError::input("database cache poisoned"))?;
    if let Some(&t) = tables.get(&size) {
        return Ok(t);
    }
    let space = connect4_space(size)?;
    let path = dir.map(|d| table_path(d, &connect4_name(size)));
    let table = match &path {
        Some(path) if path.exists() => Table::read(path, &connect4_label(size))
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?,
        _ => {
            let pb = verbose.then(|| progress::bar(0, format!("building connect4:{size}")));
            let table = build_connect4(&space, threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            table
        }
    };
    if table.len() != space.size() {
        return Err(CliError::input(format!(
            "the connect4:{size} database has {} entries, {} expected",
            table.len(),
            space.size()
        )));
    }
    // One table per board size for the life of the process.
    let entry: &'static (Connect4Index, Table) = Box::leak(Box::new((space, table)));
    tables.insert(size, entry);
    Ok(entry)
}

fn connect4_value(space: &Connect4Index, table: &Table, b: &Connect4) -> Option<Value> {
    match b.outcome() {
        Some(Outcome::Loss) => Some(Value::Loss(0)),
        Some(Outcome::Draw) => Some(Value::Draw),
        Some(Outcome::Win) => Some(Value::Win(0)),
        None => table.get(space.index_of(b)?),
    }
}

/// The Connect Four database's answer for `b` (built in memory, or read
/// from `dir` when it holds the file).
pub(crate) fn probe_connect4(
    b: &Connect4,
    threads: usize,
    dir: Option<&Path>,
) -> Result<Probe<gametree_games_connect4::Column>> {
    let (space, table) = connect4_table(b.size(), dir, threads, progress::enabled())?;
    let mut probe = line(b, |p| connect4_value(space, table, p))?;
    probe.positions = space.positions();
    Ok(probe)
}

// ------------------------------------------------------------------ chess

/// Built or loaded chess databases by material, each with its index space
/// (`FastEndgame`: the `Endgame` numbering over piece lists, which the
/// indexed backward method builds over). The tables (a
/// `gametree_chess_tables::Tables`) are the resolver of each new build: a capture
/// is valued in the table of its material.
#[derive(Debug, Default)]
struct ChessTables {
    tables: Tables,
}

impl ChessTables {
    /// The value of a chess position from the tables (or from the rules
    /// when the game is over).
    fn value(&self, p: &Chess) -> Option<Value> {
        match p.outcome() {
            Some(Outcome::Loss) => return Some(Value::Loss(0)),
            Some(Outcome::Draw) => return Some(Value::Draw),
            Some(Outcome::Win) => return Some(Value::Win(0)),
            None => {}
        }
        let sig = Signature::of(p)?;
        let (space, table) = self.tables.get(&sig)?;
        table.get(space.endgame().index_of(p)?)
    }

    /// Makes sure the database of `sig` and of every ending it captures
    /// into is present: loaded from `dir` when there, else built (and
    /// written to `dir` when given).
    fn ensure(
        &mut self,
        sig: &Signature,
        dir: Option<&Path>,
        threads: usize,
        verbose: bool,
    ) -> Result<()> {
        let name = sig.to_string();
        if self.tables.get(sig).is_some() {
            return Ok(());
        }
        if sig.piece_count() > MAX_CHESS_PIECES {
            return Err(CliError::unavailable(format!(
                "{name}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
            )));
        }
        for sub in captures(sig) {
            self.ensure(&sub, dir, threads, verbose)?;
        }
        if let Some(dir) = dir {
            let path = table_path(dir, &name);
            if path.exists() {
                let table = Table::read(&path, &gametree_chess_tables::label(sig))
                    .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
                self.keep(table)?;
                return Ok(());
            }
        }
        let pb = verbose.then(|| progress::bar(0, format!("building {name}")));
        let table = build_chess(sig, &self.tables, threads, pb.as_ref())?;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, &name);
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        }
        self.keep(table)
    }

    /// Adds a table labelled with `gametree_chess_tables::label`.
    fn keep(&mut self, table: Table) -> Result<()> {
        self.tables
            .insert(table)
            .map_err(|e| CliError::input(e.to_string()))?;
        Ok(())
    }
}

/// Builds the table of `sig` by the indexed backward method on `threads`
/// threads, its captures valued in `tables`, reporting to `pb` (cleared at
/// the end).
fn build_chess(
    sig: &Signature,
    tables: &Tables,
    threads: usize,
    pb: Option<&ProgressBar>,
) -> Result<Table> {
    let space = FastEndgame::from_endgame(Endgame::from_signature(sig.clone()));
    let report = |e: &Event| report_event(pb, e);
    let mut generator = Generator::new(&space)
        .label(gametree_chess_tables::label(sig))
        .threads(threads)
        .resolver(tables);
    if pb.is_some() {
        generator = generator.progress(&report);
    }
    let table = generator
        .backward_indexed()
        .map_err(|e| CliError::input(format!("building {sig}: {e}")))?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(table)
}

fn table_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.gtb"))
}

fn chess_tables() -> &'static Mutex<ChessTables> {
    static TABLES: OnceLock<Mutex<ChessTables>> = OnceLock::new();
    TABLES.get_or_init(|| Mutex::new(ChessTables::default()))
}

/// The chess databases' answer for `p`, building the tables it needs (in
/// memory, or loaded from and kept in `dir`).
pub(crate) fn probe_chess(
    p: &Chess,
    threads: usize,
    dir: Option<&Path>,
) -> Result<Probe<gametree_games_chess::Move>> {
    let sig = chess_signature(p)?;
    let mut tables = chess_tables()
        .lock()
        .map_err(|_| CliError::input("database cache poisoned"))?;
    tables.ensure(&sig, dir, threads, progress::enabled())?;
    let mut probe = line(p, |q| tables.value(q))?;
    probe.positions = tables.tables.iter().map(|(_, _, t)| t.len()).sum();
    Ok(probe)
}

fn chess_signature(p: &Chess) -> Result<Signature> {
    if p.castling_rights() != 0 {
        return Err(CliError::input(
            "the position has castling rights; databases cover positions without them",
        ));
    }
    let sig = Signature::of(p)
        .ok_or_else(|| CliError::unavailable("only pawnless chess endings have databases"))?;
    if sig.piece_count() > MAX_CHESS_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        )));
    }
    Ok(sig)
}

// --------------------------------------------------------------- progress

fn report_event(pb: Option<&ProgressBar>, e: &Event) {
    let Some(pb) = pb else { return };
    match *e {
        Event::Start { size, .. } => {
            pb.set_length(size);
            pb.set_position(0);
        }
        Event::Initialised { valid, decided } => {
            pb.set_length(valid);
            pb.set_position(decided);
        }
        Event::Level {
            total_decided,
            valid,
            ..
        } => {
            pb.set_length(valid);
            pb.set_position(total_decided);
        }
        _ => {}
    }
}

// ------------------------------------------------------------- subcommands

/// What `tb` commands accept as material.
enum Material {
    TicTacToe,
    Connect4(Size),
    Chess(Signature),
}

/// `connect4` (7×6) or `connect4:WxH` as a board size.
fn parse_connect4(t: &str) -> Result<Size> {
    let lower = t.to_ascii_lowercase();
    let size = match lower.strip_prefix("connect4") {
        Some("") => Size::STANDARD,
        Some(rest) => {
            let dims = rest.strip_prefix(':').ok_or_else(|| {
                CliError::input(format!("bad game {t:?}: expected connect4 or connect4:WxH"))
            })?;
            dims.parse::<Size>()
                .map_err(|e| CliError::input(format!("bad Connect Four size in {t:?}: {e}")))?
        }
        None => return Err(CliError::input(format!("bad game {t:?}"))),
    };
    connect4_space_check(size)?;
    Ok(size)
}

/// Refuses a board whose database would be too large, before any work.
fn connect4_space_check(size: Size) -> Result<()> {
    let bits = size.stride() * size.width() as u32;
    if bits > gametree_games_connect4::index::MAX_INDEX_BITS {
        return Err(CliError::unavailable(format!(
            "connect4:{size}: no database (2^{bits} indices, at most 2^{}; 4x4, 5x4 and 4x5 fit)",
            gametree_games_connect4::index::MAX_INDEX_BITS
        )));
    }
    Ok(())
}

fn parse_material(text: &str) -> Result<Material> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("tictactoe") {
        return Ok(Material::TicTacToe);
    }
    if t.to_ascii_lowercase().starts_with("connect4") {
        return parse_connect4(t).map(Material::Connect4);
    }
    let sig: Signature = t.parse().map_err(|e| {
        CliError::input(format!(
            "bad material {t:?}: {e} (expected e.g. KQvKR, or tictactoe)"
        ))
    })?;
    if sig.piece_count() > MAX_CHESS_PIECES {
        return Err(CliError::unavailable(format!(
            "{sig}: databases of more than {MAX_CHESS_PIECES} pieces are not available (memory)"
        )));
    }
    Ok(Material::Chess(sig))
}

/// `chess:N` (N pieces, kings included), when `text` is of that form.
fn parse_all_chess(text: &str) -> Option<Result<usize>> {
    let lower = text.trim().to_ascii_lowercase();
    let rest = lower.strip_prefix("chess:")?;
    Some(match rest.parse::<usize>() {
        Ok(men @ 3..=MAX_CHESS_PIECES) => Ok(men),
        _ => Err(CliError::input(format!(
            "bad material {text:?}: chess:N builds every pawnless ending of N pieces, N from 3 to {MAX_CHESS_PIECES}"
        ))),
    })
}

/// `tb build chess:N`: every pawnless ending of `men` pieces (once up to
/// colour exchange) and the endings they capture into, each written to
/// `dir` (or loaded from it when there). The endings they capture into
/// come first, one at a time on `threads` threads; the endings of `men`
/// pieces, which do not capture into each other, are then built several
/// at a time (`gametree_retrograde::schedule`, one thread each while others wait),
/// and each is dropped from memory once written, so memory holds the
/// smaller endings and one table per thread. Prints each ending's file,
/// in the order of `pawnless_endings`.
fn build_all_chess(men: usize, dir: &Path, threads: usize) -> Result<()> {
    let endings = gametree_chess_tables::pawnless_endings(men);
    let mut tables = ChessTables::default();
    for sig in &endings {
        for sub in captures(sig) {
            tables.ensure(&sub, Some(dir), threads, progress::enabled())?;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
    let bars = indicatif::MultiProgress::new();
    let tables = &tables;
    let needs = vec![Vec::new(); endings.len()];
    let paths = gametree_retrograde::schedule(&needs, threads, |job| {
        let sig = &endings[job.index()];
        let name = sig.to_string();
        let path = table_path(dir, &name);
        if path.exists() {
            // Loaded as `ensure` would: a bad file is an error.
            Table::read(&path, &gametree_chess_tables::label(sig))
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            return Ok(path);
        }
        let pb =
            progress::enabled().then(|| bars.add(progress::bar(0, format!("building {name}"))));
        let table = build_chess(sig, &tables.tables, job.threads(), pb.as_ref())?;
        table
            .write(&path)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        Ok(path)
    })
    .map_err(|e| match e {
        gametree_retrograde::ScheduleError::Build { error, .. } => error,
        other => CliError::input(other.to_string()),
    })?;
    for path in paths {
        println!("{}", path.display());
    }
    Ok(())
}

/// `tb build`.
pub(crate) fn build(material: &str, out: &str, threads: usize) -> Result<()> {
    let dir = Path::new(out);
    if let Some(men) = parse_all_chess(material) {
        return build_all_chess(men?, dir, threads);
    }
    match parse_material(material)? {
        Material::TicTacToe => {
            let pb = progress::enabled().then(|| progress::bar(0, "building tictactoe"));
            let table = build_tictactoe(threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, "tictactoe");
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Connect4(size) => {
            let space = connect4_space(size)?;
            let pb =
                progress::enabled().then(|| progress::bar(0, format!("building connect4:{size}")));
            let table = build_connect4(&space, threads, pb.as_ref())?;
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?;
            let path = table_path(dir, &connect4_name(size));
            table
                .write(&path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!("{}", path.display());
        }
        Material::Chess(sig) => {
            let mut tables = ChessTables::default();
            tables.ensure(&sig, Some(dir), threads, progress::enabled())?;
            println!("{}", table_path(dir, &sig.to_string()).display());
        }
    }
    Ok(())
}

/// What a chess ending's `wtm`/`btm` and `raw_wtm`/`raw_btm` count.
const CHESS_COUNTED: &str = "wtm/btm: Syzygy convention (positions up to the 8 symmetries, \
     like pieces told apart); raw_wtm/raw_btm: index entries (like pieces not told apart)";

fn wdl(c: &Counts) -> Out {
    let mut r = Record::new();
    r.int("win", c.wins)
        .int("draw", c.draws)
        .int("loss", c.losses);
    Out::Object(r)
}

fn chess_wdl(c: Wdl) -> Out {
    let mut r = Record::new();
    r.int("win", c.wins)
        .int("draw", c.draws)
        .int("loss", c.losses);
    Out::Object(r)
}

/// `dir` as a path, when it is an existing directory: `stats` and `probe`
/// keep the tables they build there but never create it (a mistyped
/// `--dir` would otherwise rebuild every table into a new directory).
fn existing_dir(dir: &str) -> Result<&Path> {
    let path = Path::new(dir);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(CliError::input(format!(
            "--dir {dir}: no such directory (create it, or let `gametree tb build ... --out {dir}` create it)"
        )))
    }
}

/// `tb stats`.
pub(crate) fn stats(material: &str, dir: &str, json: bool) -> Result<()> {
    let dir = existing_dir(dir)?;
    let mut r = Record::new();
    match parse_material(material)? {
        Material::TicTacToe => {
            let path = table_path(dir, "tictactoe");
            let table = if path.exists() {
                Table::read(&path, &tictactoe_label())
                    .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?
            } else {
                build_tictactoe(1, None)?
            };
            let space = BoardIndex::plain();
            let side = |i: u64| space.position(i).map(|p| p.side_to_move());
            let first = table.counts_where(|i| side(i) == Some(Player::First));
            let second = table.counts_where(|i| side(i) == Some(Player::Second));
            let all = table.counts();
            r.str("material", "tictactoe")
                .push("wtm", wdl(&first))
                .push("btm", wdl(&second))
                .push("raw_wtm", wdl(&first))
                .push("raw_btm", wdl(&second));
            longest(&mut r, all.longest_win, |i| {
                space.position(i).map(|p| p.to_string())
            });
        }
        Material::Connect4(size) => {
            let (space, table) = connect4_table(size, Some(dir), 1, progress::enabled())?;
            // Classes (a position and its mirror image once) by side to
            // move, then every position (mirror images counted apart).
            let first = |i: u64| space.stones(i).is_some_and(|n| n % 2 == 0);
            let second = |i: u64| space.stones(i).is_some_and(|n| n % 2 == 1);
            let wtm = table.counts_where(first);
            let btm = table.counts_where(second);
            let raw_wtm = table.counts_where(|i| first(i) && space.class_size(i) == Some(2));
            let raw_btm = table.counts_where(|i| second(i) && space.class_size(i) == Some(2));
            r.str("material", format!("connect4:{size}"))
                .push("wtm", wdl(&wtm))
                .push("btm", wdl(&btm))
                .push("raw_wtm", wdl_sum(&wtm, &raw_wtm))
                .push("raw_btm", wdl_sum(&btm, &raw_btm));
            longest(&mut r, table.counts().longest_win, |i| {
                space.position(i).map(|p| p.to_string())
            });
        }
        Material::Chess(sig) => {
            let mut tables = ChessTables::default();
            tables.ensure(&sig, Some(dir), 1, progress::enabled())?;
            let Some((space, table)) = tables.tables.get(&sig) else {
                return Err(CliError::input(format!("{sig}: no table")));
            };
            let s = statistics(space, table).map_err(|e| CliError::input(e.to_string()))?;
            r.str("material", sig.to_string())
                .str("counted", CHESS_COUNTED)
                .push("wtm", chess_wdl(s.white))
                .push("btm", chess_wdl(s.black))
                .push("raw_wtm", chess_wdl(s.raw_white))
                .push("raw_btm", chess_wdl(s.raw_black));
            // The longest win for either side to move (White's first on a
            // tie: the smaller index).
            let win = match (s.longest_white_win, s.longest_black_win) {
                (Some(w), Some(b)) if b.0 > w.0 => Some(b),
                (None, b) => b,
                (w, _) => w,
            };
            longest(&mut r, win, |i| {
                space.endgame().position(i).map(|p| p.to_string())
            });
        }
    }
    if json {
        println!("{}", r.json());
    } else {
        print!("{}", r.lines());
    }
    Ok(())
}

/// `a + b`, class by class (every class once, plus a second time for the
/// classes in `b`).
fn wdl_sum(a: &Counts, b: &Counts) -> Out {
    let mut r = Record::new();
    r.int("win", a.wins + b.wins)
        .int("draw", a.draws + b.draws)
        .int("loss", a.losses + b.losses);
    Out::Object(r)
}

fn longest(r: &mut Record, win: Option<(u16, u64)>, fen: impl Fn(u64) -> Option<String>) {
    match win {
        Some((plies, index)) => {
            r.int("longest_win_plies", plies);
            r.push("longest_win_fen", fen(index).map_or(Out::Null, Out::Str));
        }
        None => {
            r.int("longest_win_plies", 0);
            r.push("longest_win_fen", Out::Null);
        }
    }
}

/// `tb probe`: `game` is `None` (a tic-tac-toe board or a chess FEN,
/// told apart by their text) or a game name (`tictactoe`, `connect4:WxH`,
/// `chess`).
pub(crate) fn probe(position: &str, game: Option<&str>, dir: &str, json: bool) -> Result<()> {
    existing_dir(dir)?;
    let t = position.trim();
    let mut r = Record::new();
    let game = game.map(str::trim).map(str::to_ascii_lowercase);
    match game.as_deref() {
        None | Some("tictactoe" | "chess") => {}
        Some(g) if g.starts_with("connect4") => {
            let size = parse_connect4(g)?;
            let b = Connect4::from_moves(size, t)
                .map_err(|e| CliError::input(format!("bad Connect Four position {t:?}: {e}")))?;
            let p = probe_connect4(&b, 1, Some(Path::new(dir)))?;
            fill_probe(&mut r, &p);
            return print_record(&r, json);
        }
        Some(g) => {
            return Err(CliError::unavailable(format!(
                "{g}: no databases for this game (tictactoe, connect4:WxH, chess)"
            )));
        }
    }
    let tictactoe = match game.as_deref() {
        Some("tictactoe") => true,
        Some(_) => false,
        None => t.chars().count() == 9 && !t.contains('/'),
    };
    if tictactoe {
        let g: TicTacToe = t
            .parse()
            .map_err(|e| CliError::input(format!("bad tic-tac-toe position {t:?}: {e}")))?;
        let p = probe_tictactoe(&g, 1)?;
        fill_probe(&mut r, &p);
    } else {
        let g: Chess = if t.is_empty() || t == "startpos" {
            Chess::startpos()
        } else {
            t.parse()
                .map_err(|e| CliError::input(format!("bad chess FEN {t:?}: {e}")))?
        };
        let p = probe_chess(&g, 1, Some(Path::new(dir)))?;
        fill_probe(&mut r, &p);
    }
    print_record(&r, json)
}

fn print_record(r: &Record, json: bool) -> Result<()> {
    if json {
        println!("{}", r.json());
    } else {
        print!("{}", r.lines());
    }
    Ok(())
}

fn fill_probe<M: std::fmt::Display>(r: &mut Record, p: &Probe<M>) {
    let v = p.value.unwrap_or(Value::Draw);
    r.str("value", v.outcome());
    r.push(
        "distance",
        v.plies().map_or(Out::Null, |d| Out::Int(i64::from(d))),
    );
    r.push(
        "best",
        p.best
            .as_ref()
            .map_or(Out::Null, |m| Out::Str(m.to_string())),
    );
    r.push(
        "pv",
        Out::List(p.pv.iter().map(ToString::to_string).collect()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
