//! `gametree play`: a game against the engine in the terminal.

use std::io::{BufRead, Write};
use std::time::Duration;

use gametree_game::{Event, Game, Limits, Outcome, Request};

use crate::analyse::{searcher, uci_score};
use crate::error::{CliError, Result};
use crate::games::{CliGame, Spec, legal_moves_text};

/// Engine time per move when neither limit is given.
const DEFAULT_TIME_MS: u64 = 1000;

/// Moves played, with what it takes to undo them.
type History<G> = Vec<(<G as Game>::Move, <G as Game>::Undo)>;

/// The options of a game.
#[derive(Debug)]
pub(crate) struct Options {
    /// The engine searches this deep.
    pub(crate) depth: Option<u32>,
    /// Or this long per move.
    pub(crate) time_ms: Option<u64>,
    /// The engine has the first move.
    pub(crate) engine_first: bool,
    /// Table size.
    pub(crate) tt_bytes: usize,
}

const HELP: &str = "commands: a move, moves (list legal moves), undo (take back your last move), hint, board, position (print it in the game's text format), help, quit";

/// Plays one game, reading the human's moves from standard input.
pub(crate) fn run<S: Spec>(spec: &S, position: &str, opts: &Options) -> Result<()> {
    let mut g = spec.position(position)?;
    let mut engine = searcher::<S::G>(1, opts.tt_bytes, S::G::QUIESCENCE)?;
    let limits = match opts.depth {
        // `main` checked it: at least 1.
        Some(d) => Limits::depth(d),
        None => Limits::none().with_time(Duration::from_millis(
            opts.time_ms.unwrap_or(DEFAULT_TIME_MS),
        )),
    };
    // The engine deepens by itself here.
    let engine_side = if opts.engine_first {
        g.side_to_move()
    } else {
        g.side_to_move().opponent()
    };
    let mut history: History<S::G> = Vec::new();
    println!("{HELP}");
    println!(
        "you play {}; moves are {}",
        g.player_name(engine_side.opponent()),
        g.move_syntax()
    );
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    print!("{}", g.board());
    loop {
        if let Some(o) = g.outcome() {
            let mover = g.side_to_move();
            let text = match o {
                Outcome::Draw => "draw".to_owned(),
                Outcome::Loss => format!("{} wins", g.player_name(mover.opponent())),
                Outcome::Win => format!("{} wins", g.player_name(mover)),
            };
            let you = match (o, mover == engine_side) {
                (Outcome::Draw, _) => "",
                (Outcome::Loss, true) | (Outcome::Win, false) => " — you win!",
                _ => " — the engine wins",
            };
            println!("game over: {text}{you}");
            return Ok(());
        }
        if g.side_to_move() == engine_side {
            let (m, value) = think(&mut engine, &mut g, &limits)?;
            println!("engine plays {m} (score {})", uci_score(value).0);
            let undo = g.make(m);
            history.push((m, undo));
            print!("{}", g.board());
            continue;
        }
        print!("{} to move> ", g.player_name(g.side_to_move()));
        let _ = std::io::stdout().flush();
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| CliError::input(format!("standard input: {e}")))?;
        if read == 0 {
            println!();
            return Ok(());
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            println!("not UTF-8 text: type a move or a command ({HELP})");
            continue;
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "board" => print!("{}", g.board()),
            "position" => println!("{}", g.text()),
            "moves" => println!("legal moves: {}", legal_moves_text(&g, usize::MAX)),
            "hint" => {
                // Nothing is played: the engine only says what it would play.
                let (m, value) = think(&mut engine, &mut g, &limits)?;
                println!("hint: {m} (score {})", uci_score(value).0);
            }
            "undo" => {
                // Take back to the human's previous turn.
                let mut undone = 0;
                while let Some((m, u)) = history.pop() {
                    g.unmake(m, u);
                    undone += 1;
                    if g.side_to_move() != engine_side {
                        break;
                    }
                }
                if undone == 0 {
                    println!("nothing to undo");
                } else {
                    print!("{}", g.board());
                }
            }
            text => match g.parse_move(text) {
                Ok(m) => {
                    let undo = g.make(m);
                    history.push((m, undo));
                    print!("{}", g.board());
                }
                Err(e) => println!("{e}"),
            },
        }
    }
}

/// The engine's move and its score, by the searcher's iterative deepening
/// within `limits`.
fn think<G: CliGame>(
    engine: &mut gametree_alphabeta::AlphaBeta<G>,
    g: &mut G,
    limits: &Limits,
) -> Result<(G::Move, gametree_game::Score)> {
    // Deepen from 1 so a time limit always leaves a completed iteration;
    // a depth limit always, so that only a proven result ends it early.
    let mut l = Limits::depth(
        limits
            .depth
            .unwrap_or(gametree_alphabeta::MAX_PLY as u32 - 1),
    );
    if let Some(t) = limits.time {
        l = l.with_time(t);
    }
    let cancel = l.cancel_flag();
    let pb = crate::progress::spinner("engine thinking: depth 1");
    let mut sink = |e: &Event<'_, G::Move>| {
        if let Event::Iteration { depth, value, .. } = *e {
            if value.plies_to_end().is_some_and(|p| p <= depth) {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            pb.set_message(format!("engine thinking: depth {}", depth + 1));
        }
    };
    let r = engine.search(g, &mut Request::new(&l).events(&mut sink));
    let best = r.best.filter(|_| r.completed).map(|m| (m, r.value));
    pb.finish_and_clear();
    best.or_else(|| {
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        gametree_game::MoveBuffer::as_slice(&moves)
            .first()
            .map(|&m| (m, gametree_game::Score::DRAW))
    })
    .ok_or_else(|| CliError::input("the engine has no move"))
}
