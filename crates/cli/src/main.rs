//! `gametree`: try every part of the gametree workspace from the command
//! line — solve positions with alpha-beta or proof-number search, analyse
//! with iterative deepening, count move trees (perft), build and probe
//! endgame databases, play against the engine, and run the verification
//! checks.
//!
//! Every bad input (game name, position, move, size, file) is reported as a
//! one-line error on standard error with exit code 2; `gametree verify`
//! exits with 1 when a check finds a mismatch. See the README for the
//! stable output formats and the `--json` schema.
#![forbid(unsafe_code)]

mod analyse;
mod error;
mod games;
mod input;
mod oracle;
mod output;
mod perft;
mod play;
mod progress;
mod solve;
mod tb;
mod verify;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::{CliError, Result};
use crate::games::{GameKind, with_spec};

const GAMES_HELP: &str =
    "GAME is one of: tictactoe, connect4 (7x6), connect4:WxH, mnk:M,N,K, ataxx, chess, dots (3x3
boxes), dots:WxH.
POSITION is in the game's own text format: tic-tac-toe 9 characters (X, O, .; rows from the top);
Connect Four Pons's move string (\"4453\", columns from 1); m,n,k a board (\"x.o/.x./...\") and/or
moves (\"b2 a1\"); Ataxx and chess FEN; Dots-and-Boxes the lines drawn (\"a1- b1|\": a dot, then -
for the line to its right or | for the line up). \"\" and \"startpos\" are the empty or starting position;
\"-\" reads positions from standard input, one per line, and answers one line per position.";

/// Game-tree search from the command line: solve, analyse, perft, endgame
/// databases, play, verify.
#[derive(Debug, Parser)]
#[command(name = "gametree", version, about, after_help = GAMES_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve positions: the game-theoretic value, best move and line.
    #[command(after_help = concat!(
        "Output: value: win|draw|loss (side to move), score: N (Connect Four: Pons's convention;\n",
        "other games: gametree's Score, 32000-n for a win in n plies), best:, pv:, nodes:, time_ms:;\n",
        "with --all-moves, moves: each legal move's value and score for the side to move, best first.\n\n",
        "Examples:\n",
        "  gametree solve tictactoe \"\"\n",
        "  gametree solve connect4 2252576253462244111563365343671351441\n",
        "  gametree solve connect4:5x4 \"\" --algo dfpn --tt 64M\n",
        "  gametree solve mnk:4,4,3 startpos --weak --json\n",
        "  gametree solve mnk:5,5,4 \"\" --weak --proof\n",
        "  gametree solve chess \"8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1\" --algo retrograde\n",
        "  gametree solve connect4 32164625 --time-ms 10000\n",
        "  gametree solve connect4 4453432222 --all-moves\n",
        "  cut -d' ' -f1 Test_L3_R1 | gametree solve connect4 - --json"
    ))]
    Solve(SolveArgs),
    /// Analyse a position by iterative deepening, one UCI-style line per depth.
    #[command(after_help = concat!(
        "Each line: info depth D score cp N|mate M nodes N nps N time T pv MOVES; then bestmove MOVE.\n\n",
        "Examples:\n",
        "  gametree analyse chess startpos --depth 6\n",
        "  gametree analyse connect4 4453 --time-ms 2000 --tt 256M\n",
        "  gametree analyse ataxx startpos --depth 4 --json"
    ))]
    Analyse(AnalyseArgs),
    /// Count the leaves of the legal-move tree (perft); the count is the last line.
    #[command(after_help = concat!(
        "Examples:\n",
        "  gametree perft chess startpos 5\n",
        "  gametree perft chess \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\" 3 --divide\n",
        "  gametree perft connect4 \"\" 8\n",
        "  gametree perft tictactoe XO....... 3"
    ))]
    Perft(PerftArgs),
    /// Build, inspect and probe endgame databases (retrograde analysis).
    #[command(subcommand)]
    Tb(TbCommand),
    /// Play a game against the engine in the terminal.
    #[command(after_help = concat!(
        "At the prompt type a move, or: moves (list legal moves), undo (take back your last move),\n",
        "hint (the move the engine would play; nothing is played), board, help, quit.\n\n",
        "Examples:\n",
        "  gametree play connect4 --engine-time-ms 500\n",
        "  gametree play tictactoe --engine-first\n",
        "  gametree play chess --engine-depth 4"
    ))]
    Play(PlayArgs),
    /// Run the project's verification table: pruned searches against negamax, solvers against
    /// each other, published numbers, oracles (quick mode by default).
    #[command(after_help = concat!(
        "The same rows as `cargo xtask verify` in a checkout of the repository (one registry,\n",
        "the gametree-verify crate). Rows that need Pascal Pons's Connect Four test sets are\n",
        "skipped, and listed, when they are missing: set GAMETREE_DATA=DIR with DIR/connect4/Test_L3_R1 ...\n\n",
        "Examples:\n",
        "  gametree verify --game tictactoe\n",
        "  gametree verify --game dots --json\n",
        "  gametree verify --list"
    ))]
    Verify(VerifyArgs),
}

/// Solver algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Algo {
    /// Alpha-beta (PVS, transposition table, killers, history) to the end of the game.
    Alphabeta,
    /// Best-first proof-number search.
    Pns,
    /// PN² (proof-number search with a second-level search at the leaves).
    Pn2,
    /// Depth-first proof-number search with a transposition table.
    Dfpn,
    /// Conspiracy-number search (threshold infinity).
    Cns,
    /// Retrograde analysis (builds or loads the game's database).
    Retrograde,
}

impl Algo {
    /// The name `--algo` takes.
    fn name(self) -> &'static str {
        match self {
            Algo::Alphabeta => "alphabeta",
            Algo::Pns => "pns",
            Algo::Pn2 => "pn2",
            Algo::Dfpn => "dfpn",
            Algo::Cns => "cns",
            Algo::Retrograde => "retrograde",
        }
    }
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// The game.
    game: String,
    /// The position ("" or startpos for the start; - for standard input).
    position: String,
    /// The solver.
    #[arg(long, value_enum, default_value_t = Algo::Alphabeta)]
    algo: Algo,
    /// Win/draw/loss only, no exact score. Alpha-beta then runs a cheaper
    /// search; pns, pn2, dfpn, cns and retrograde find win/draw/loss in the
    /// same search either way, and only leave the score (and the search
    /// for it) out: a note on standard error says so.
    #[arg(long)]
    weak: bool,
    /// Transposition table or tree memory, e.g. 64M, 1G, 1.5G (powers of
    /// 1024; more than the machine's memory is refused). Default: 64M for
    /// alpha-beta and df-pn; on Connect Four 16M below 28 empty cells and
    /// 128M from 28 on boards of 42 cells or more, chosen by the first
    /// position of a run and kept unless a later one wants a larger table;
    /// a 1G bound for PNS, PN² and CNS. Not with retrograde, whose database
    /// has the game's size. A size given here is used for every position.
    #[arg(long, value_name = "SIZE")]
    tt: Option<String>,
    /// Search threads: Lazy SMP for alpha-beta, rayon workers for
    /// retrograde; pns, pn2, dfpn and cns search on one thread. 0: every
    /// core.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Give up after this many milliseconds per position (value null, exit
    /// code 2). Not with retrograde, which builds the whole database.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Give up after this many nodes per position (value null, exit code
    /// 2). Not with retrograde, which builds the whole database.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// One JSON object per position.
    #[arg(long)]
    json: bool,
    /// Also solve every legal move: its value and score for the side to
    /// move, best first (JSON: "moves": [{"move", "value", "score"}]).
    #[arg(long)]
    all_moves: bool,
    /// Also write the proof tree of the value (a strategy for the winner,
    /// or for each side's draw), built with the solver as oracle, and
    /// check it against the rules with the independent verifier; prints
    /// its positions and the leaves that rest on the game's win bounds
    /// (JSON: "proof": {"positions", "bound_leaves", "verified"}). Not
    /// with retrograde.
    #[arg(long)]
    proof: bool,
    /// Chess: probe the endgame tables in DIR (written by `gametree tb
    /// build ... --out DIR`) at every position below the root that they
    /// hold; with alpha-beta (exact distances to mate, the line played to
    /// mate) or df-pn. The tables ignore the fifty-move rule.
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
struct AnalyseArgs {
    /// The game.
    game: String,
    /// The position ("" or startpos for the start; - for standard input).
    position: String,
    /// Search depths 1 to D (D from 1 to 255).
    #[arg(long, conflicts_with = "time_ms")]
    depth: Option<u32>,
    /// Deepen until this many milliseconds have passed, at least 1
    /// (default 2000 when --depth is not given).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Search threads (Lazy SMP). 0: every core.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size, e.g. 64M, 1G, 1.5G (at most the machine's
    /// memory).
    #[arg(long, value_name = "SIZE", default_value = "16M")]
    tt: String,
    /// One JSON object per iteration.
    #[arg(long)]
    json: bool,
    /// Search captures and promotions past the horizon (quiescence
    /// search): true or false. On by default for chess, off for the other
    /// games.
    #[arg(long, value_name = "BOOL")]
    quiescence: Option<bool>,
    /// Chess: probe the endgame tables in DIR (written by `gametree tb
    /// build ... --out DIR`) at every position below the root that they
    /// hold: their exact values replace the search and the evaluation.
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
struct PerftArgs {
    /// The game.
    game: String,
    /// The position ("" or startpos for the start; - for standard input).
    position: String,
    /// The depth in plies. A depth whose count may take very long (the
    /// first plies' growth, extrapolated) is said on standard error first.
    depth: u32,
    /// Print the count below each root move first.
    #[arg(long)]
    divide: bool,
}

#[derive(Debug, Subcommand)]
enum TbCommand {
    /// Build a database: chess material such as KQvKR, chess:N (every ending of N pieces), tictactoe, or connect4:WxH.
    #[command(after_help = concat!(
        "Chess databases cover material with up to 5 pieces, pawns included; the smaller databases\n",
        "they capture or promote into are built (or loaded from DIR) first; chess:N builds every\n",
        "ending of N pieces (3 to 5: 4, 20 and 60 pawnless endings; with pawns, 1 of 3 pieces, 10 of 4\n",
        "and 50 of 5) and prints one file per ending. Connect Four databases cover every\n",
        "reachable position of a small board (4x4, 5x4, 4x5, ...; at most 2^25 indices), a position\n",
        "and its mirror image once; the file is DIR/connect4-WxH.gtb.\n\n",
        "Before building, the bound on the memory the build may take is printed on standard error\n",
        "(a build over the machine's memory is refused; --max-memory sets another budget). Each file is written whole under a temporary\n",
        "name, then renamed: a build stopped at any point (Ctrl-C, a crash) leaves only finished\n",
        "files under their names, and the same command run again loads them and builds the rest\n",
        "(standard error says which). Temporary files NAME.gtb.tmpPID it may leave are never read.\n",
        "With --compress, chess tables are written compressed (NAME.gtbz, as `tb compress` writes\n",
        "them: a sixth of the disk for the 5-man endings); a build reads either kind of file it finds.\n\n",
        "Examples:\n",
        "  gametree tb build tictactoe\n",
        "  gametree tb build connect4:4x4\n",
        "  gametree tb build connect4:5x4 --out tables --threads 2\n",
        "  gametree tb build KQvK --out tables\n",
        "  gametree tb build KRvKN --out tables --threads 2\n",
        "  gametree tb build KPvK --out tables\n",
        "  gametree tb build chess:3 --out tables\n",
        "  gametree tb build KQvKR --out packed --threads 2 --compress\n",
        "  gametree tb build KQvKR --out tables --max-memory 256M"
    ))]
    Build {
        /// The material (e.g. KQvKR, or chess:N for every ending of N pieces) or game (tictactoe, connect4:WxH).
        material: String,
        /// Where to write the database files.
        #[arg(long, value_name = "DIR", default_value = ".")]
        out: String,
        /// Worker threads. 0: every core.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Refuse to build (exit code 2, nothing built) when the stated memory bound is above
        /// this size, e.g. 8G or 512M (default: the machine's physical memory, where the system
        /// tells it).
        #[arg(long, value_name = "SIZE")]
        max_memory: Option<String>,
        /// Chess: write each table compressed (DIR/ENDING.gtbz, as `tb compress` writes it) instead
        /// of raw: a 5-man table takes a sixth of the disk; the builds that probe it read it back whole.
        #[arg(long)]
        compress: bool,
    },
    /// Win/draw/loss counts for each side to move and the longest win.
    #[command(after_help = concat!(
        "Chess: wtm/btm follow the Syzygy convention (legal positions up to the 8 symmetries, like\n",
        "pieces told apart, side to move's view); raw_wtm/raw_btm count the database's index entries\n",
        "(like pieces not told apart); the field `counted` says so. The database is built first when\n",
        "it is not in DIR.\n\n",
        "Examples:\n",
        "  gametree tb stats KQvK\n",
        "  gametree tb stats KRvK --dir . --json\n",
        "  gametree tb stats tictactoe\n",
        "  gametree tb stats connect4:4x4 --json\n\n",
        "Connect Four: wtm/btm count positions with the first/second player to move, a position\n",
        "and its mirror image once; raw_wtm/raw_btm count mirror images apart. Finished games are\n",
        "included (a win just made is a loss for the side to move, a full board a draw)."
    ))]
    Stats {
        /// The material (e.g. KQvKR) or game (tictactoe, connect4:WxH).
        material: String,
        /// Where to look for (and keep) database files.
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: String,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The value and distance of a position from its database.
    #[command(after_help = concat!(
        "POSITION is a chess FEN (at most 5 pieces, pawns included) or a tic-tac-toe board; with\n",
        "--game connect4:WxH, a Connect Four move string (\"\" for the empty board).\n\n",
        "Examples:\n",
        "  gametree tb probe \"8/8/8/8/8/2k5/8/K6Q b - - 0 1\"\n",
        "  gametree tb probe XX.OO.... --dir .\n",
        "  gametree tb probe 2233 --game connect4:4x4\n",
        "  gametree tb probe \"8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1\" --all-moves"
    ))]
    Probe {
        /// The position.
        position: String,
        /// The game: tictactoe, connect4:WxH or chess (default: told from the position).
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
        /// Where to look for (and keep) database files.
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: String,
        /// One JSON object.
        #[arg(long)]
        json: bool,
        /// Also every legal move's value and distance, best first (JSON:
        /// "moves": [{"move", "value", "distance"}]).
        #[arg(long)]
        all_moves: bool,
        /// Chess: build the missing tables of 5 pieces into DIR first (the endings, their size
        /// and a time estimate are stated first; progress shown on a terminal). Without it,
        /// missing tables of up to 4 pieces are built (a minute at most) and a probe needing a 5-man
        /// one fails, naming the `gametree tb build` command that builds it.
        #[arg(long)]
        build: bool,
    },
    /// Write the chess tables of a directory compressed, each checked by reading it back.
    #[command(after_help = concat!(
        "Every chess table DIR/ENDING.gtb without a compressed file is written compressed to\n",
        "DIR/ENDING.gtbz (blocks of 2,048 positions, each checksummed), read back whole and\n",
        "compared with the raw table; a file that differs is removed and the command fails.\n",
        "With --remove-raw, the raw file is removed once its compressed file is checked.\n\n",
        "Every command that reads tables from a directory reads the compressed files too:\n",
        "`tb probe` and `solve`/`analyse --tables` probe them a block at a time (tens of\n",
        "microseconds a probe, without reading the table), `tb stats` and `tb build` decode\n",
        "them whole. Where both files of an ending are there, `tb probe` uses the compressed\n",
        "one and the others the raw one.\n\n",
        "Examples:\n",
        "  gametree tb compress\n",
        "  gametree tb compress --dir . --threads 2 --remove-raw --json"
    ))]
    Compress {
        /// The directory of the tables (written by `gametree tb build ... --out DIR`).
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: String,
        /// Endings compressed at once (each takes about three times its raw table in memory; the bound is stated first). 0: every core.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Remove each raw file once its compressed file is checked.
        #[arg(long)]
        remove_raw: bool,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// The game.
    game: String,
    /// The starting position (default: the game's start).
    #[arg(long, default_value = "")]
    position: String,
    /// The engine searches this many plies (1 to 255).
    #[arg(long, conflicts_with = "engine_time_ms")]
    engine_depth: Option<u32>,
    /// The engine thinks this many milliseconds per move, at least 1
    /// (default 1000).
    #[arg(long)]
    engine_time_ms: Option<u64>,
    /// The engine moves first.
    #[arg(long)]
    engine_first: bool,
    /// Transposition table size, e.g. 64M (at most the machine's memory).
    #[arg(long, value_name = "SIZE", default_value = "16M")]
    tt: String,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// Every row at full size (minutes to tens of minutes).
    #[arg(long, conflicts_with = "deep")]
    full: bool,
    /// The full run plus the long rows (an hour or more).
    #[arg(long)]
    deep: bool,
    /// Only the rows of games whose name contains this text.
    #[arg(long)]
    game: Option<String>,
    /// Only the rows of variants whose name contains this text.
    #[arg(long)]
    variant: Option<String>,
    /// Directory of the published data sets (default: $GAMETREE_DATA).
    #[arg(long, value_name = "DIR")]
    data: Option<std::path::PathBuf>,
    /// A row skipped for lack of data is an error.
    #[arg(long)]
    strict: bool,
    /// One JSON object per row.
    #[arg(long)]
    json: bool,
    /// List the rows without running them.
    #[arg(long)]
    list: bool,
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Solve(a) => {
            let kind = GameKind::parse(&a.game)?;
            if a.algo == Algo::Retrograde {
                // Refused before the database is built, not after.
                if a.proof {
                    return Err(CliError::input(
                        "--proof needs a search as its oracle, not --algo retrograde",
                    ));
                }
                // The database is built whole: nothing to stop early.
                for (option, given) in [
                    ("--time-ms", a.time_ms.is_some()),
                    ("--max-nodes", a.max_nodes.is_some()),
                ] {
                    if given {
                        return Err(CliError::input(format!(
                            "{option}: --algo retrograde builds the whole database and has no limit to stop at (use a search algorithm)"
                        )));
                    }
                }
            }
            let mut opts = solve::Options::new(a.algo, a.weak, a.tt.as_deref(), a.threads, a.json)?;
            opts.all_moves = a.all_moves;
            opts.proof = a.proof;
            opts.tables = a.tables;
            if let Some(t) = a.time_ms {
                opts.limits = opts.limits.with_time(std::time::Duration::from_millis(t));
            }
            if let Some(n) = a.max_nodes {
                opts.limits = opts.limits.with_nodes(n);
            }
            with_spec!(kind, spec => solve::run(spec, kind, &a.position, &opts))
        }
        Command::Analyse(a) => {
            let kind = GameKind::parse(&a.game)?;
            let opts = analyse::Options {
                depth: check_depth("--depth", a.depth)?,
                time_ms: check_time("--time-ms", a.time_ms)?,
                threads: check_threads(a.threads)?,
                tt_bytes: error::parse_memory("--tt", &a.tt)?,
                json: a.json,
                quiescence: a.quiescence,
                tables: a.tables,
            };
            with_spec!(kind, spec => analyse::run(spec, &a.position, &opts))
        }
        Command::Perft(a) => {
            let kind = GameKind::parse(&a.game)?;
            with_spec!(kind, spec => perft::run(spec, &a.position, a.depth, a.divide))
        }
        Command::Tb(TbCommand::Build {
            material,
            out,
            threads,
            max_memory,
            compress,
        }) => {
            let max_memory = match max_memory {
                Some(text) => Some(error::parse_size(&text)? as u64),
                None => None,
            };
            tb::build(
                &material,
                &out,
                check_threads(threads)?,
                max_memory,
                compress,
            )
        }
        Command::Tb(TbCommand::Stats {
            material,
            dir,
            json,
        }) => tb::stats(&material, &dir, json),
        Command::Tb(TbCommand::Probe {
            position,
            game,
            dir,
            json,
            all_moves,
            build,
        }) => tb::probe(&position, game.as_deref(), &dir, json, all_moves, build),
        Command::Tb(TbCommand::Compress {
            dir,
            threads,
            remove_raw,
            json,
        }) => tb::compress(&dir, check_threads(threads)?, remove_raw, json),
        Command::Play(a) => {
            let kind = GameKind::parse(&a.game)?;
            let opts = play::Options {
                depth: check_depth("--engine-depth", a.engine_depth)?,
                time_ms: check_time("--engine-time-ms", a.engine_time_ms)?,
                engine_first: a.engine_first,
                tt_bytes: error::parse_memory("--tt", &a.tt)?,
            };
            with_spec!(kind, spec => play::run(spec, &a.position, &opts))
        }
        Command::Verify(a) => verify::run(&verify::Request {
            mode: if a.deep {
                gametree_verify::Mode::Deep
            } else if a.full {
                gametree_verify::Mode::Full
            } else {
                gametree_verify::Mode::Quick
            },
            game: a.game,
            variant: a.variant,
            data: a.data,
            strict: a.strict,
            json: a.json,
            list: a.list,
        }),
    }
}

/// The deepest search `analyse --depth` and `play --engine-depth` ask for.
const MAX_DEPTH: u32 = gametree_alphabeta::MAX_PLY as u32 - 1;

/// Checks a search depth given to `option`: 1 to [`MAX_DEPTH`] plies.
fn check_depth(option: &str, depth: Option<u32>) -> Result<Option<u32>> {
    match depth {
        Some(0) => Err(CliError::input(format!(
            "{option} 0: the search looks at least 1 ply ahead (give 1 to {MAX_DEPTH})"
        ))),
        Some(d) if d > MAX_DEPTH => Err(CliError::input(format!(
            "{option} {d}: the searcher goes at most {MAX_DEPTH} plies deep"
        ))),
        d => Ok(d),
    }
}

/// Checks a time budget given to `option`: at least 1 ms (0 would stop
/// before the first search).
fn check_time(option: &str, ms: Option<u64>) -> Result<Option<u64>> {
    match ms {
        Some(0) => Err(CliError::input(format!(
            "{option} 0: no time to search (give 1 or more milliseconds)"
        ))),
        t => Ok(t),
    }
}

/// Checks a thread count (0 to 256) and resolves 0, the workspace's
/// [`gametree_game::ALL_CORES`], to the machine's cores (at most 256).
fn check_threads(n: usize) -> Result<usize> {
    match n {
        gametree_game::ALL_CORES => {
            Ok(std::thread::available_parallelism().map_or(1, |n| usize::from(n).min(256)))
        }
        1..=256 => Ok(n),
        _ => Err(CliError::input(format!(
            "bad thread count {n}: expected 1 to 256, or 0 for every core"
        ))),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    ExitCode::from(2)
                }
                _ => {
                    // clap's own message, shortened to its first line.
                    let text = e.render().to_string();
                    let message: Vec<&str> = text
                        .lines()
                        .map(str::trim)
                        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
                        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
                        .collect();
                    eprintln!("{} (try --help)", message.join(" "));
                    ExitCode::from(2)
                }
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // The lines of standard input print their own errors.
            if !e.is_printed() {
                eprintln!("error: {e}");
            }
            ExitCode::from(e.exit_code())
        }
    }
}
