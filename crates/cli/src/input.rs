//! Positions from the command line or, with `-`, from standard input.

use std::io::BufRead;

use crate::error::{CliError, Result};
use crate::games::Spec;

/// Where the positions came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// One position given as an argument.
    Argument,
    /// Positions from standard input, one per line.
    Stdin,
}

/// Calls `each` with every position of `arg` (`-`: standard input, one per
/// line) and its text. For a single argument an error is returned as it is.
///
/// Standard input is read as bytes, a line at a time: a line that is not
/// UTF-8, does not parse, or on which `each` fails is reported on standard
/// error once, with its line number, and the other lines go on. At the end
/// a summary line (`3 lines: 2 answered, 1 error`) goes to standard error;
/// if any line failed, the first error is returned, marked as printed
/// (its exit code is the run's). Only a failure to read standard input
/// itself ends the batch early.
pub(crate) fn for_each_position<S: Spec>(
    spec: &S,
    arg: &str,
    mut each: impl FnMut(S::G, &str, Source) -> Result<()>,
) -> Result<()> {
    if arg.trim() != "-" {
        let g = spec.position(arg)?;
        return each(g, arg, Source::Argument);
    }
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut tally = Tally::default();
    let mut first_error: Option<CliError> = None;
    let mut read_error = None;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                read_error = Some(CliError::input(format!(
                    "standard input, after line {}: {e}",
                    tally.lines
                )));
                break;
            }
        }
        tally.lines += 1;
        let line = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let result = match std::str::from_utf8(line) {
            Ok(text) => answer(spec, text, &mut each),
            Err(e) => Err(not_utf8(line, &e)),
        };
        match result {
            Ok(()) => tally.answered += 1,
            Err(e) => {
                let e = e.context(format_args!("line {}", tally.lines));
                eprintln!("error: {e}");
                first_error.get_or_insert(e);
            }
        }
    }
    eprintln!("{}", tally.summary());
    match (read_error, first_error) {
        (Some(e), _) => Err(e),
        (None, Some(e)) => Err(e.printed()),
        (None, None) => Ok(()),
    }
}

/// Parses one line of standard input and calls `each` with its position.
fn answer<S: Spec>(
    spec: &S,
    line: &str,
    each: &mut impl FnMut(S::G, &str, Source) -> Result<()>,
) -> Result<()> {
    // A benchmark line may carry more after the position (Pons's files:
    // "moves score"); FENs keep their spaces.
    let text = line.trim();
    // A blank line is not the start position: with `-` every position is
    // written out (the empty position of a game whose notation is empty,
    // Connect Four's `""`, is not given this way).
    if text.is_empty() {
        return Err(CliError::input(
            "blank line: no position (give one position per line)",
        ));
    }
    let (g, used) = match spec.position(text) {
        Ok(g) => (g, text),
        Err(e) => match text.split_once(char::is_whitespace) {
            Some((head, _)) => (spec.position(head).map_err(|_| e)?, head),
            None => return Err(e),
        },
    };
    each(g, used, Source::Stdin)
}

/// The error for a line that is not UTF-8: where its first bad byte is, and
/// the line as far as it can be shown (cut when long, as every quoted text
/// in an error).
fn not_utf8(line: &[u8], e: &std::str::Utf8Error) -> CliError {
    let at = e.valid_up_to();
    let shown = String::from_utf8_lossy(line);
    CliError::input(format!(
        "not UTF-8 text: byte {} of {} is 0x{:02X} ({shown:?} with U+FFFD for the bad bytes)",
        at + 1,
        line.len(),
        line[at]
    ))
}

/// Lines read and answered.
#[derive(Debug, Default)]
struct Tally {
    lines: u64,
    answered: u64,
}

impl Tally {
    /// `standard input: 3 lines: 2 answered, 1 error`.
    fn summary(&self) -> String {
        let plural = |n: u64, word: &str| {
            if n == 1 {
                format!("{n} {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        let errors = self.lines - self.answered;
        let mut text = format!("standard input: {}", plural(self.lines, "line"));
        if self.lines > 0 {
            text.push_str(&format!(": {} answered", self.answered));
            if errors > 0 {
                text.push_str(&format!(", {}", plural(errors, "error")));
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        let s = |lines, answered| Tally { lines, answered }.summary();
        assert_eq!(s(0, 0), "standard input: 0 lines");
        assert_eq!(s(1, 1), "standard input: 1 line: 1 answered");
        assert_eq!(s(3, 2), "standard input: 3 lines: 2 answered, 1 error");
        assert_eq!(s(5, 0), "standard input: 5 lines: 0 answered, 5 errors");
    }

    #[test]
    fn bad_utf8_names_the_byte() {
        let line: Vec<u8> = b"ab".iter().chain(&[0xff]).chain(b"c").copied().collect();
        let e = std::str::from_utf8(&line).unwrap_err();
        let text = not_utf8(&line, &e).to_string();
        assert!(
            text.starts_with("not UTF-8 text: byte 3 of 4 is 0xFF"),
            "{text}"
        );
        assert!(text.contains("\"ab\u{fffd}c\""), "{text}");
    }
}
