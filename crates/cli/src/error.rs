//! The one error type of the tool: every failure is a one-line message and
//! exit code 2 (bad input, unavailable feature, file problem) or 1 (a
//! verification found a mismatch).

use std::fmt;

/// What went wrong, as a one-line message with its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CliError {
    kind: ErrorKind,
    message: String,
}

/// The kinds of [`CliError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// Bad input: a game name, position, move, size, number or file.
    Input,
    /// The feature exists in the interface but not (yet) for this game.
    Unavailable,
    /// A check of `gametree verify` failed.
    Mismatch,
}

impl CliError {
    /// A bad-input error.
    pub(crate) fn input(message: impl Into<String>) -> CliError {
        CliError {
            kind: ErrorKind::Input,
            message: message.into(),
        }
    }

    /// A "not available" error.
    pub(crate) fn unavailable(message: impl Into<String>) -> CliError {
        CliError {
            kind: ErrorKind::Unavailable,
            message: message.into(),
        }
    }

    /// A verification failure.
    pub(crate) fn mismatch(message: impl Into<String>) -> CliError {
        CliError {
            kind: ErrorKind::Mismatch,
            message: message.into(),
        }
    }

    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self.kind {
            ErrorKind::Input | ErrorKind::Unavailable => 2,
            ErrorKind::Mismatch => 1,
        }
    }

    /// The same error with `context: ` in front of its message.
    pub(crate) fn context(mut self, context: impl fmt::Display) -> CliError {
        self.message = format!("{context}: {}", self.message);
        self
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep it on one line whatever the source said.
        f.write_str(&self.message.replace('\n', " "))
    }
}

impl std::error::Error for CliError {}

/// The tool's result type.
pub(crate) type Result<T, E = CliError> = std::result::Result<T, E>;

/// Parses a memory size: a number of bytes with an optional binary suffix
/// `K`, `M`, `G`, `T` (powers of 1024; `KB`, `KiB`, `k` also accepted).
pub(crate) fn parse_size(text: &str) -> Result<usize> {
    let bad = |why: &str| CliError::input(format!("bad size {text:?}: {why}"));
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(digits_end);
    if digits.is_empty() {
        return Err(bad("expected a number of bytes such as 64M or 1G"));
    }
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad("unknown unit (use K, M, G or T)")),
    };
    let n: u64 = digits.parse().map_err(|_| bad("number too large"))?;
    if n == 0 {
        return Err(bad("must be more than zero"));
    }
    let bytes = n
        .checked_mul(1u64 << shift)
        .filter(|&b| b <= 1u64 << 40)
        .ok_or_else(|| bad("more than 1T"))?;
    usize::try_from(bytes).map_err(|_| bad("too large for this machine"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("512kib"), Ok(512 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        for bad in [
            "",
            "M",
            "0",
            "0M",
            "12Q",
            "-1M",
            "1.5G",
            "99999999999999999999",
            "2T",
        ] {
            let e = parse_size(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            assert!(e.to_string().starts_with("bad size"), "{e}");
        }
    }
}
