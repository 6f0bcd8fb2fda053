//! Tidy: structural rules of the workspace, as a test that fails rather
//! than as prose (after rust-analyzer's `xtask/src/tidy.rs`).
//!
//! 1. **Function length.** No function in `crates/*/src/**/*.rs` is longer
//!    than [`FUNCTION_BUDGET`] lines, counted from the line of its `fn` to
//!    the line of its closing brace, unless it is on [`LONG_FUNCTIONS`]
//!    with a reason. A long function is split into named steps; an entry
//!    of the list that no longer applies (the function was split, renamed
//!    or removed) fails too, so that the list only shrinks.
//! 2. **No timings in doc comments.** A doc comment (`///`, `//!`) of
//!    `crates/*/src/**/*.rs` does not state a duration (`0.4 s`, `12 ms`,
//!    `3 min`, `2 h`): a measured time belongs to the benchmarks and to
//!    git, not to the documentation, where it goes stale on the next
//!    machine. A time that is part of the behaviour (a default, a limit,
//!    an example of what a program prints) is on [`DOC_TIMINGS`] with its
//!    reason; so, until they move, are a few measurements, each saying
//!    where it belongs.
//! 3. **No measured figures in verify row labels.** The label of a row of
//!    the verification table (`gametree_verify::list`) names what the row
//!    checks. It may quote the published numbers the row reproduces
//!    (`255,168 games`, `1x1 -1`) and the sizes and limits the row is
//!    configured with (`rows <= 5M nodes`, `2,000 random indices`), but no
//!    measurement: no duration, no memory size, no rate or percentage, no
//!    approximate figure (`~`, `≈`, `about`), no count of nodes that is
//!    not a bound (`<=`, `<`, `≤`). Measurements change with the code and
//!    the machine, and the table prints them in its own columns.
//!
//! The function-length scanner is a small lexer (comments, nested block
//! comments, strings, raw strings, byte and C strings, character literals
//! told apart from lifetimes and labels) and a brace matcher: enough to
//! find every `fn` with a body and its extent, without a parser.

use std::path::{Path, PathBuf};

use regex::Regex;

/// The most lines a function may have (from its `fn` to its closing
/// brace).
const FUNCTION_BUDGET: usize = 150;

/// The functions allowed over [`FUNCTION_BUDGET`]: file (from the
/// workspace root), function name, and why. Every entry must still be over
/// budget.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[
    (
        "crates/chess-tables/src/fast/blocks.rs",
        "block_predecessors",
        "the un-moves of a block of 64 indices at once, inlined into the hot loop; not yet split",
    ),
    (
        "crates/chess-tables/src/fast/count.rs",
        "count_run",
        "the successor counts of 64 indices at once, inlined into the hot loop; not yet split",
    ),
    (
        "crates/games-chess/src/movegen.rs",
        "generate_into",
        "legal move generation in one pass (pins, checks, castling, en passant); not yet split",
    ),
    (
        "crates/pns-conspiracy/src/cns.rs",
        "search",
        "the conspiracy-number search with progress reports; not yet split",
    ),
    (
        "crates/retrograde/src/generate/levels.rs",
        "propagate_with",
        "backward propagation from the won positions of one level; not yet split",
    ),
    (
        "crates/verify/src/chess.rs",
        "checks",
        "a registry: the list of the game's verify rows, one closure each",
    ),
    (
        "crates/verify/src/chess_builds.rs",
        "written_equals_in_memory",
        "one verify row in five numbered steps (files written, read back, rebuilt, refused, restored)",
    ),
    (
        "crates/verify/src/connect4.rs",
        "checks",
        "a registry: the list of the game's verify rows, one closure each",
    ),
    (
        "crates/verify/src/solvers.rs",
        "checks",
        "a registry: the list of the solver verify rows, one closure each",
    ),
    (
        "crates/verify/src/tictactoe.rs",
        "checks",
        "a registry: the list of the game's verify rows, one closure each",
    ),
];

/// Doc-comment lines allowed to state a duration: file, a text the line
/// contains, and why.
const DOC_TIMINGS: &[(&str, &str, &str)] = &[
    (
        "crates/cli/src/main.rs",
        "at least 1 ms",
        "the smallest time budget the option accepts, not a measurement",
    ),
    (
        "crates/cli/src/tb/chess.rs",
        "`up to about 16 min`",
        "examples of the estimates the function prints, not a measurement",
    ),
    (
        "crates/cli/src/tb/chess.rs",
        "0.29 µs an index",
        "measured: what SECONDS_PER_INDEX is calibrated on (belongs in docs/scaling.md)",
    ),
    (
        "crates/cli/src/tb/chess.rs",
        "0.08–0.14 µs",
        "measured: what SECONDS_PER_INDEX is calibrated on (belongs in docs/scaling.md)",
    ),
    (
        "crates/chess-tables/src/tablebase/written.rs",
        "5 s for a 231 MiB table",
        "measured: reading a compressed table against a raw one (belongs in BENCHMARKS.md)",
    ),
    (
        "crates/chess-tables/src/tablebase/written.rs",
        "against 0.2 s for a raw file",
        "measured: reading a compressed table against a raw one (belongs in BENCHMARKS.md)",
    ),
];

/// Row labels allowed to hold a figure the rule refuses: game, a text the
/// label contains, and why.
const ROW_LABELS: &[(&str, &str, &str)] = &[];

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// Every `.rs` file under `crates/*/src`, as (path from the root, text),
/// sorted.
fn library_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut paths = Vec::new();
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/");
    for krate in crates {
        let src = krate.expect("a directory entry").path().join("src");
        if src.is_dir() {
            walk(&src, &mut paths);
        }
    }
    paths.sort();
    assert!(paths.len() > 100, "found only {} source files", paths.len());
    paths
        .into_iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let relative = p.strip_prefix(&root).expect("under the root");
            (relative.to_string_lossy().replace('\\', "/"), text)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The lexer

/// What the function finder needs of a token.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    /// An identifier or keyword (`fn`, a name; `r#name` without the `r#`).
    Ident(String),
    /// One punctuation character: `{`, `}`, `(`, `)`, `[`, `]`, `;`, ...
    Punct(char),
}

/// The tokens of `source`, each with its 1-based line; comments, strings,
/// character literals, lifetimes and numbers are skipped.
fn tokens(source: &str) -> Vec<(Token, usize)> {
    let mut lexer = Lexer {
        chars: source.chars().collect(),
        at: 0,
        line: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = lexer.peek(0) {
        let line = lexer.line;
        if c == '/' && lexer.peek(1) == Some('/') {
            lexer.skip_line_comment();
        } else if c == '/' && lexer.peek(1) == Some('*') {
            lexer.skip_block_comment();
        } else if c == '"' {
            lexer.bump();
            lexer.skip_string_body();
        } else if c == '\'' {
            lexer.skip_quote();
        } else if c.is_alphabetic() || c == '_' {
            let word = lexer.word();
            if let Some(ident) = lexer.after_word(&word) {
                out.push((Token::Ident(ident), line));
            }
        } else if c.is_ascii_digit() {
            lexer.number();
        } else {
            lexer.bump();
            if !c.is_whitespace() {
                out.push((Token::Punct(c), line));
            }
        }
    }
    out
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_line_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// `/* ... */`, nested.
    fn skip_block_comment(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek(0) {
            if c == '/' && self.peek(1) == Some('*') {
                depth += 1;
                self.bump();
            } else if c == '*' && self.peek(1) == Some('/') {
                depth -= 1;
                self.bump();
                if depth == 0 {
                    self.bump();
                    return;
                }
            }
            self.bump();
        }
    }

    /// The rest of a string after its opening `"`, escapes included.
    fn skip_string_body(&mut self) {
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '"' => return,
                _ => {}
            }
        }
    }

    /// A raw string from its `#`s or `"` (after the `r`, `br` or `cr`):
    /// `hashes` `#`, a `"`, up to a `"` followed by as many `#`.
    fn skip_raw_string(&mut self) {
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            hashes += 1;
            self.bump();
        }
        assert_eq!(self.bump(), Some('"'), "a raw string opens with a quote");
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|k| self.peek(k) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                return;
            }
        }
    }

    /// At a `'`: a character literal (`'a'`, `'\n'`, `'\u{1F600}'`,
    /// `'''` is not Rust) or a lifetime or label (`'a`, `'static`,
    /// `'outer:`), told apart by what follows.
    fn skip_quote(&mut self) {
        self.bump();
        match (self.peek(0), self.peek(1)) {
            (Some('\\'), _) => {
                // An escape: up to the closing quote.
                self.bump();
                self.bump();
                while self.peek(0).is_some_and(|c| c != '\'') {
                    self.bump();
                }
                self.bump();
            }
            (Some(_), Some('\'')) => {
                // One character and the closing quote.
                self.bump();
                self.bump();
            }
            _ => {
                // A lifetime or a label: its name is an identifier.
                while self
                    .peek(0)
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
                {
                    self.bump();
                }
            }
        }
    }

    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek(0).filter(|&c| c.is_alphanumeric() || c == '_') {
            word.push(c);
            self.bump();
        }
        word
    }

    /// What a word is, given what follows it: the prefix of a string
    /// (`b"`, `c"`, `r"`, `r#"`, `br#"`, `b'`) whose literal is skipped, a
    /// raw identifier (`r#fn`), or an identifier.
    fn after_word(&mut self, word: &str) -> Option<String> {
        let next = self.peek(0);
        match (word, next) {
            ("b" | "c", Some('"')) => {
                self.bump();
                self.skip_string_body();
                None
            }
            ("b", Some('\'')) => {
                self.skip_quote();
                None
            }
            ("r" | "br" | "cr", Some('"')) => {
                self.skip_raw_string();
                None
            }
            ("r" | "br" | "cr", Some('#')) => {
                let mut ahead = 0;
                while self.peek(ahead) == Some('#') {
                    ahead += 1;
                }
                if self.peek(ahead) == Some('"') {
                    self.skip_raw_string();
                    None
                } else {
                    self.bump();
                    Some(self.word())
                }
            }
            _ => Some(word.to_owned()),
        }
    }

    /// A number literal: digits, `_`, a suffix, a fraction (`1.5`, but not
    /// the range `0..n` or the field access `t.0.1`).
    fn number(&mut self) {
        while let Some(c) = self.peek(0) {
            let fraction = c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit());
            if c.is_alphanumeric() || c == '_' || fraction {
                self.bump();
            } else {
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Functions and their lengths

/// A function with a body.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Function {
    name: String,
    /// The line of its `fn`.
    first: usize,
    /// The line of its closing brace.
    last: usize,
}

impl Function {
    fn lines(&self) -> usize {
        self.last - self.first + 1
    }
}

/// Every function of `source` that has a body, nested ones included (a
/// function inside another counts in both).
fn functions(source: &str) -> Vec<Function> {
    let tokens = tokens(source);
    // The closing brace of every opening one.
    let mut closing = vec![None; tokens.len()];
    let mut open = Vec::new();
    for (i, (t, _)) in tokens.iter().enumerate() {
        match t {
            Token::Punct('{') => open.push(i),
            Token::Punct('}') => {
                let o = open.pop().expect("braces balance");
                closing[o] = Some(i);
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "braces balance");
    let mut out = Vec::new();
    for (i, window) in tokens.windows(2).enumerate() {
        let [(Token::Ident(kw), first), (Token::Ident(name), _)] = window else {
            continue;
        };
        if kw != "fn" {
            continue;
        }
        // The body is the first `{` outside brackets and parentheses; a
        // `;` there first means a declaration without body.
        let mut depth = 0i32;
        for (j, (t, _)) in tokens.iter().enumerate().skip(i + 2) {
            match t {
                Token::Punct('(' | '[') => depth += 1,
                Token::Punct(')' | ']') => depth -= 1,
                Token::Punct(';') if depth == 0 => break,
                Token::Punct('{') if depth == 0 => {
                    let end = closing[j].expect("a matched brace");
                    out.push(Function {
                        name: name.clone(),
                        first: *first,
                        last: tokens[end].1,
                    });
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn the_lexer_skips_what_is_not_code() {
    let source = r####"
fn a<'x>(s: &'x str) -> char { 'b' }
fn b() { let _ = "fn c() { \" }"; let _ = '{'; let _ = '\''; let _ = '\u{7B}'; }
fn d() { let _ = r#"fn e() { "# ; let _ = br##"}"##; let _ = b'}'; let _ = c"{"; }
/* fn f() { /* nested */ } */
// fn g() {
fn h() {
    'outer: loop { break 'outer; }
    let r#fn = 1.5; let _ = (0..r#fn as usize, (1, 2).0);
}
trait T { fn i(&self); fn j(&self, x: [u8; 4]) -> u8 { x[0] } }
fn k(f: fn(u8) -> u8) -> u8 { f(1) }
"####;
    let found: Vec<(String, usize, usize)> = functions(source)
        .into_iter()
        .map(|f| (f.name, f.first, f.last))
        .collect();
    let expected = [
        ("a", 2, 2),
        ("b", 3, 3),
        ("d", 4, 4),
        ("h", 7, 10),
        ("j", 11, 11),
        ("k", 12, 12),
    ];
    let expected: Vec<(String, usize, usize)> = expected
        .iter()
        .map(|&(n, a, b)| (n.to_owned(), a, b))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn nested_functions_count_in_both() {
    let source = "fn outer() {\n    fn inner() {\n    }\n}\n";
    let lines: Vec<(String, usize)> = functions(source)
        .into_iter()
        .map(|f| (f.name.clone(), f.lines()))
        .collect();
    assert_eq!(lines, [("outer".to_owned(), 4), ("inner".to_owned(), 2)]);
}

#[test]
fn no_function_is_over_budget() {
    let mut failures = Vec::new();
    let mut allowed_seen = vec![false; LONG_FUNCTIONS.len()];
    for (path, text) in library_sources() {
        for f in functions(&text) {
            if f.lines() <= FUNCTION_BUDGET {
                continue;
            }
            match LONG_FUNCTIONS
                .iter()
                .position(|&(p, n, _)| p == path && n == f.name)
            {
                Some(k) => allowed_seen[k] = true,
                None => failures.push(format!(
                    "{path}:{}: fn {} is {} lines, over the budget of {FUNCTION_BUDGET}: \
                     split it into named steps (or put it on LONG_FUNCTIONS with a reason)",
                    f.first,
                    f.name,
                    f.lines()
                )),
            }
        }
    }
    for (k, &(path, name, _)) in LONG_FUNCTIONS.iter().enumerate() {
        if !allowed_seen[k] {
            failures.push(format!(
                "{path}: fn {name} is on LONG_FUNCTIONS but no longer over the budget of \
                 {FUNCTION_BUDGET} lines (or gone): take it off the list"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Timings in doc comments

/// A duration: a number, then a unit of time as a word of its own (`0.4 s`,
/// `12ms`, `3 min`, `1.5 hours`, `2 CPU-days` is not one: the unit must
/// follow the number).
fn duration() -> Regex {
    Regex::new(
        r"(?x)
        (?:^|[^\w.])                      # not inside a word or a number
        \d+(?:[.,]\d+)*                   # 0.4, 12, 1,000
        (?:\s|\u{a0}|\u{202f})?           # at most one space
        (?:ns|µs|μs|us|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?)
        \b",
    )
    .expect("a valid pattern")
}

/// A match without the character before the number that the patterns
/// take to see where the number starts.
fn figure(found: &str) -> &str {
    found.trim_start_matches(|c: char| !c.is_alphanumeric() && !"~≈/".contains(c))
}

#[test]
fn the_duration_pattern() {
    let d = duration();
    for hit in [
        "in 0.4 s on",
        "12 ms",
        "(3 min)",
        "2h",
        "1,500 µs",
        "5 seconds",
        "about 1.5 hours",
    ] {
        assert!(d.is_match(hit), "{hit}");
    }
    for miss in [
        "4 squares",
        "a minute",
        "v2s",
        "3.5 million",
        "0x10h",
        "x1 s1",
        "2 moves",
        "8 hashes",
    ] {
        assert!(!d.is_match(miss), "{miss}");
    }
}

#[test]
fn no_timings_in_doc_comments() {
    let d = duration();
    let mut failures = Vec::new();
    let mut allowed_seen = vec![false; DOC_TIMINGS.len()];
    for (path, text) in library_sources() {
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let Some(doc) = trimmed
                .strip_prefix("///")
                .or_else(|| trimmed.strip_prefix("//!"))
            else {
                continue;
            };
            let Some(m) = d.find(doc) else { continue };
            match DOC_TIMINGS
                .iter()
                .position(|&(p, t, _)| p == path && doc.contains(t))
            {
                Some(k) => allowed_seen[k] = true,
                None => failures.push(format!(
                    "{path}:{}: a doc comment states a time ({:?}): measured times belong to \
                     the benchmarks (or put the line on DOC_TIMINGS with a reason)\n    {}",
                    i + 1,
                    figure(m.as_str()),
                    line.trim()
                )),
            }
        }
    }
    for (k, &(path, text, _)) in DOC_TIMINGS.iter().enumerate() {
        if !allowed_seen[k] {
            failures.push(format!(
                "{path}: no doc comment with {text:?} states a time any more: take it off \
                 DOC_TIMINGS"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Verify row labels

/// The first measured figure in a row label, if any (the rule of the
/// module documentation, 3).
fn measured_figure(label: &str) -> Option<String> {
    let refused = [
        duration(),
        // A memory size.
        Regex::new(r"(?:^|[^\w.])\d+(?:[.,]\d+)*\s?(?:[KMGT]i?B|bytes?)\b").expect("valid"),
        // A rate or a percentage.
        Regex::new(r"\d[\d.,]*\s?%|/s\b|(?i:per second)").expect("valid"),
        // An approximate figure.
        Regex::new(r"[~≈]\s?\d[\d.,]*|\b(?i:about|roughly|some) \d[\d.,]*").expect("valid"),
    ];
    let first = refused
        .iter()
        .filter_map(|r| r.find(label))
        .min_by_key(regex::Match::start);
    if let Some(m) = first {
        return Some(
            m.as_str()
                .trim_start_matches(|c: char| !c.is_alphanumeric() && !"~≈/".contains(c))
                .to_owned(),
        );
    }
    // A count of nodes is a bound the row is configured with, or a
    // measurement.
    let nodes = Regex::new(r"(\d[\d,._]*\s?[KMG]?)\s?nodes\b").expect("valid");
    nodes.captures_iter(label).find_map(|c| {
        let before = label[..c.get(0).expect("a match").start()].trim_end();
        let bound = ["<=", "<", "≤", ">=", "≥", "at most", "up to"]
            .iter()
            .any(|b| before.ends_with(b));
        (!bound).then(|| c[0].to_owned())
    })
}

#[test]
fn the_label_rule() {
    for ok in [
        "255,168 games, empty board draw",
        "1x1 -1, 2x2 +2 (Berlekamp), 3x3 -3 (Wilson): brute force and alpha-beta",
        "CPW perft table (quick: rows <= 5M nodes; full: <= 1G)",
        "Tables::probe at 2,000 random indices each",
        "perft 7x6 depth 1..8 (generic = bitboard; 7^d)",
        "make/unmake, hash, legality: 3,3,3 7,7,4 15,15,5 19,19,5",
    ] {
        assert_eq!(measured_figure(ok), None, "{ok}");
    }
    for (label, figure) in [
        ("PNS: tree > 8 GiB", "8 GiB"),
        ("4,4,4 solved (40 s)", "40 s"),
        ("df-pn, 1.2M nodes/s", "/s"),
        ("killers cut ~30% of nodes", "~30"),
        ("solve (41,393 nodes)", "41,393 nodes"),
    ] {
        assert_eq!(measured_figure(label).as_deref(), Some(figure), "{label}");
    }
}

#[test]
fn no_measured_figures_in_verify_row_labels() {
    use gametree_verify::{Mode, Options, list};
    let rows = list(&Options::new(Mode::Deep));
    assert!(rows.len() > 50, "only {} rows", rows.len());
    let mut failures = Vec::new();
    let mut allowed_seen = vec![false; ROW_LABELS.len()];
    for row in &rows {
        let Some(figure) = measured_figure(&row.variant) else {
            continue;
        };
        match ROW_LABELS
            .iter()
            .position(|&(g, t, _)| g == row.game && row.variant.contains(t))
        {
            Some(k) => allowed_seen[k] = true,
            None => failures.push(format!(
                "verify row {} / {:?}: the label holds a measured figure ({figure:?}); \
                 measurements go in the table's columns (or put the label on ROW_LABELS \
                 with a reason)",
                row.game, row.variant
            )),
        }
    }
    for (k, &(game, text, _)) in ROW_LABELS.iter().enumerate() {
        if !allowed_seen[k] {
            failures.push(format!(
                "verify row {game} / {text:?}: on ROW_LABELS, but no such label holds a \
                 measured figure any more: take it off the list"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}
