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
/// line) and its text. A position that does not parse, or an error returned
/// by `each`, is reported on standard error with its line number; the other
/// lines go on, and the first error is returned at the end. For a single
/// argument the error is returned directly.
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
    let mut first_error: Option<CliError> = None;
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| CliError::input(format!("standard input: {e}")))?;
        // A benchmark line may carry more after the position (Pons's files:
        // "moves score"); FENs keep their spaces.
        let text = line.trim();
        // A blank line is not the start position: with `-` every position
        // is written out (the empty position of a game whose notation is
        // empty, Connect Four's `""`, is not given this way).
        let result = if text.is_empty() {
            Err(CliError::input(
                "blank line: no position (give one position per line)",
            ))
        } else {
            match spec.position(text) {
                Ok(g) => Ok((g, text)),
                Err(e) => match text.split_once(char::is_whitespace) {
                    Some((head, _)) => spec.position(head).map(|g| (g, head)).map_err(|_| e),
                    None => Err(e),
                },
            }
        }
        .and_then(|(g, used)| each(g, used, Source::Stdin));
        if let Err(e) = result {
            let e = e.context(format_args!("line {}", i + 1));
            eprintln!("error: {e}");
            first_error.get_or_insert(e);
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
