//! What `cargo xtask bench connect4 --pons PATH` and `--steininger PATH`
//! share: the `gametree` command-line solver and a peer's program, whole
//! processes reading Pascal Pons's line format on standard input, run on the
//! same positions in alternating rounds, each run's wall time, CPU time
//! (user + system of the child and its threads) and scores.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gametree_verify::data::pons::TestSet;

/// Reads one output line of a program: the position's score (Pons's
/// convention) and, when the program reports it, its node count.
pub(crate) type Parse = fn(&str) -> Result<(i64, Option<u64>)>;

/// A program to time: a fresh command per run, and how to read its lines.
pub(crate) struct Program {
    pub(crate) command: Box<dyn Fn() -> Command>,
    pub(crate) parse: Parse,
    /// The line it reads as the empty board (Pons's format: an empty line).
    pub(crate) empty_board: &'static str,
}

/// One whole-process run of a program on a batch.
pub(crate) struct Run {
    pub(crate) wall: Duration,
    pub(crate) cpu: Duration,
    /// A score per line of output, in order.
    pub(crate) scores: Vec<i64>,
    /// The nodes of the whole batch, if the program counts them.
    pub(crate) nodes: Option<u64>,
}

/// Positions to time, from a set's file or generated.
pub(crate) struct Batch {
    pub(crate) name: String,
    /// Pons's notation, one position each (`""`: the empty board).
    pub(crate) lines: Vec<String>,
    /// The right scores, when known without the peer (a set's file).
    pub(crate) expected: Option<Vec<i64>>,
}

impl Batch {
    /// The standard input of `program`: a line per position.
    pub(crate) fn input(&self, program: &Program) -> String {
        let line = |l: &str| -> String {
            if l.is_empty() {
                program.empty_board.to_owned()
            } else {
                l.to_owned()
            }
        };
        self.lines
            .iter()
            .map(|l| format!("{}\n", line(l)))
            .collect()
    }
}

/// The CPU time of the children this process has waited for, user and
/// system (`/proc/self/stat`, in clock ticks of 10 ms).
fn children_cpu() -> Result<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").context("/proc/self/stat")?;
    // The fields after the command name start at field 3 (state);
    // cutime and cstime are fields 16 and 17.
    let (_, rest) = stat
        .rsplit_once(')')
        .context("/proc/self/stat: no command name")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| -> Result<u64> {
        fields
            .get(k - 3)
            .and_then(|f| f.parse().ok())
            .context("/proc/self/stat: no children's CPU times")
    };
    // USER_HZ is 100 on Linux.
    Ok(Duration::from_millis((ticks(16)? + ticks(17)?) * 10))
}

/// Runs `program` once on `input` (its standard error discarded).
pub(crate) fn run_one(program: &Program, input: &str) -> Result<Run> {
    let mut cmd = (program.command)();
    let cpu0 = children_cpu()?;
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("running {cmd:?}"))?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())?;
    let out = child.wait_with_output()?;
    let wall = start.elapsed();
    let cpu = children_cpu()?.saturating_sub(cpu0);
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", out.status);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let (mut scores, mut nodes) = (Vec::new(), Some(0));
    for line in text.lines() {
        let (score, n) = (program.parse)(line)?;
        scores.push(score);
        nodes = nodes.zip(n).map(|(a, b)| a + b);
    }
    Ok(Run {
        wall,
        cpu,
        scores,
        nodes,
    })
}

/// `rounds` runs of both programs on `batch`, alternating which goes
/// first (ours in even rounds). Returns (ours, the peer's) runs.
pub(crate) fn alternate(
    ours: &Program,
    peer: &Program,
    batch: &Batch,
    rounds: usize,
) -> Result<(Vec<Run>, Vec<Run>)> {
    let (ours_input, peer_input) = (batch.input(ours), batch.input(peer));
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..rounds.max(1) {
        if round % 2 == 0 {
            mine.push(run_one(ours, &ours_input)?);
            theirs.push(run_one(peer, &peer_input)?);
        } else {
            theirs.push(run_one(peer, &peer_input)?);
            mine.push(run_one(ours, &ours_input)?);
        }
    }
    Ok((mine, theirs))
}

/// The median of `v` (the upper one of an even count).
pub(crate) fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// How many of `got` differ from `expected` (a missing line counts).
pub(crate) fn wrong(got: &[i64], expected: &[i64]) -> usize {
    expected.len().abs_diff(got.len()) + got.iter().zip(expected).filter(|(g, e)| g != e).count()
}

/// Builds the `gametree` CLI in release mode and returns its path.
pub(crate) fn build_ours() -> Result<PathBuf> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-q", "-p", "gametree-cli"])
        .current_dir(crate::project_root())
        .status()?;
    if !status.success() {
        bail!("building gametree failed");
    }
    // The binary the build above wrote (under $CARGO_TARGET_DIR when set).
    Ok(crate::target_dir().join("release/gametree"))
}

/// `gametree solve connect4 - --json` and `extra` arguments, as a program.
pub(crate) fn ours(binary: &Path, extra: &[&str]) -> Program {
    let binary = binary.to_path_buf();
    let extra: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
    Program {
        command: Box::new(move || {
            let mut cmd = Command::new(&binary);
            cmd.args(["solve", "connect4", "-", "--json"]).args(&extra);
            cmd
        }),
        parse: parse_ours,
        // It refuses a blank line.
        empty_board: "startpos",
    }
}

/// A line of `gametree solve --json`: its `"score"` and `"nodes"` fields.
fn parse_ours(line: &str) -> Result<(i64, Option<u64>)> {
    let field = |key: &str| {
        line.split(&format!("\"{key}\": "))
            .nth(1)
            .and_then(|rest| rest.split([',', '}']).next())
            .map(str::trim)
    };
    let score = field("score")
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("no score in {line:?}"))?;
    Ok((score, field("nodes").and_then(|n| n.parse().ok())))
}

/// The sets of `dir` whose file name contains one of the comma-separated
/// `sets` (all when `None`), each with its own limit after a colon
/// (`L1_R2,L1_R3:100`) or else `limit`: their first positions.
pub(crate) fn pons_sets(
    dir: &Path,
    sets: Option<&str>,
    limit: Option<usize>,
) -> Result<Vec<Batch>> {
    let mut out = Vec::new();
    for set in TestSet::ALL {
        let mut chosen = None;
        for spec in sets.unwrap_or("").split(',') {
            let (name, own) = match spec.split_once(':') {
                Some((name, n)) => (
                    name,
                    Some(n.parse::<usize>().with_context(|| {
                        format!("--sets {spec:?}: the limit after ':' is not a number")
                    })?),
                ),
                None => (spec, None),
            };
            if sets.is_none() || set.file_name().contains(name) {
                chosen = Some(own.or(limit));
                break;
            }
        }
        let Some(own_limit) = chosen else {
            continue;
        };
        let positions = set
            .load(dir)
            .with_context(|| format!("loading {}", set.file_name()))?;
        let n = own_limit.unwrap_or(usize::MAX).min(positions.len());
        out.push(Batch {
            name: set.file_name().to_string(),
            lines: positions[..n].iter().map(|p| p.moves.clone()).collect(),
            expected: Some(positions[..n].iter().map(|p| i64::from(p.score)).collect()),
        });
    }
    Ok(out)
}

/// `count` distinct positions of 8 to 12 plies (uniformly), reached by
/// seeded random play from the empty 7 x 6 board, none over and none where
/// the side to move connects four at once, in Pons's notation; no scores
/// (the peer's are the reference).
pub(crate) fn generated(count: usize, seed: u64) -> Batch {
    use gametree_game::Game;
    use gametree_games_connect4::Board;
    use rand_core::Rng;
    let mut rng = gametree_verify::rng(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut moves = <Board as Game>::Moves::default();
    while out.len() < count {
        let plies = 8 + rng.next_u64() % 5;
        let mut b = Board::standard();
        for _ in 0..plies {
            if b.outcome().is_some() {
                break;
            }
            b.generate(&mut moves);
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            b.make(m);
        }
        if b.plies() as u64 == plies
            && b.outcome().is_none()
            && b.winning_move().is_none()
            && seen.insert(b.key())
        {
            out.push(b.to_string());
        }
    }
    Batch {
        name: format!("generated 8-12 plies (seed {seed})"),
        lines: out,
        expected: None,
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_ours, wrong};

    #[test]
    fn our_json_lines_parse() {
        let line =
            r#"{"position": "44", "value": "draw", "score": -2, "nodes": 1234, "best": "3"}"#;
        assert_eq!(parse_ours(line).unwrap(), (-2, Some(1234)));
        assert!(parse_ours(r#"{"value": null}"#).is_err());
    }

    #[test]
    fn missing_lines_count_as_wrong() {
        assert_eq!(wrong(&[1, 2], &[1, 2, 3]), 1);
        assert_eq!(wrong(&[1, 0, 3], &[1, 2, 3]), 1);
    }
}
