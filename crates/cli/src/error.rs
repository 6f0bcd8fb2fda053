//! The one error type of the tool: every failure is a one-line message and
//! exit code 2 (bad input, unavailable feature, file problem) or 1 (a
//! verification found a mismatch).

use std::fmt;

/// What went wrong, as a one-line message with its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CliError {
    kind: ErrorKind,
    message: String,
    /// Already printed where it happened (the lines of standard input):
    /// only its exit code is left to give.
    printed: bool,
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
            printed: false,
        }
    }

    /// A "not available" error.
    pub(crate) fn unavailable(message: impl Into<String>) -> CliError {
        CliError {
            kind: ErrorKind::Unavailable,
            message: message.into(),
            printed: false,
        }
    }

    /// A verification failure.
    pub(crate) fn mismatch(message: impl Into<String>) -> CliError {
        CliError {
            kind: ErrorKind::Mismatch,
            message: message.into(),
            printed: false,
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

    /// The same error, marked as printed already: `main` then gives its
    /// exit code without printing it again.
    pub(crate) fn printed(mut self) -> CliError {
        self.printed = true;
        self
    }

    /// Was it printed already?
    pub(crate) fn is_printed(&self) -> bool {
        self.printed
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep it on one line whatever the source said, and a long quoted
        // input (a line of standard input, an argument) cut short.
        f.write_str(&cut_quotes(&self.message.replace('\n', " ")))
    }
}

/// Quoted text longer than this many characters is cut in messages ...
const QUOTE_MAX: usize = 100;
/// ... to this many, followed by `…` and its length.
const QUOTE_KEPT: usize = 80;

/// `message` with every quoted text (`"..."`, as `{:?}` writes it) of more
/// than [`QUOTE_MAX`] characters cut to its first [`QUOTE_KEPT`], then
/// `…" (N characters)`: a bad line of 100,000 characters is named, not
/// echoed.
pub(crate) fn cut_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // The quoted text, escapes (`\"`, `\u{..}`) counted as one character.
        let mut chars = rest.char_indices();
        let mut count = 0usize;
        let mut kept_end = None;
        let mut close = None;
        while let Some((i, c)) = chars.next() {
            if c == '"' {
                close = Some(i);
                break;
            }
            if c == '\\' {
                match chars.next() {
                    Some((_, 'u')) => {
                        for (_, c) in chars.by_ref() {
                            if c == '}' {
                                break;
                            }
                        }
                    }
                    Some(_) => {}
                    None => break,
                }
            }
            count += 1;
            if count == QUOTE_KEPT {
                kept_end = Some(chars.clone().next().map_or(rest.len(), |(j, _)| j));
            }
        }
        let Some(close) = close else {
            // No closing quote: not a quotation.
            break;
        };
        match kept_end {
            Some(end) if count > QUOTE_MAX => {
                out.push_str(&rest[..end]);
                out.push_str(&format!("…\" ({count} characters)"));
            }
            _ => out.push_str(&rest[..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

impl std::error::Error for CliError {}

/// The tool's result type.
pub(crate) type Result<T, E = CliError> = std::result::Result<T, E>;

/// Parses a memory size: a number of bytes, whole or decimal, with an
/// optional binary unit `K`, `M`, `G`, `T` (powers of 1024; `KB`, `KiB`,
/// `k` also accepted): `64M`, `1G`, `1.5G` (1.5 GiB; a fraction of a byte
/// is dropped).
pub(crate) fn parse_size(text: &str) -> Result<usize> {
    let bad = |why: &str| CliError::input(format!("bad size {text:?}: {why}"));
    let t = text.trim();
    let number_end = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(number_end);
    if number.is_empty() || number == "." {
        return Err(bad("expected a number of bytes such as 64M, 1G or 1.5G"));
    }
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(bad(&format!(
                "unknown unit {unit:?} (use K, M, G or T, powers of 1024)"
            )));
        }
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if fraction.contains('.') {
        return Err(bad("more than one decimal point"));
    }
    if fraction.len() > 9 {
        return Err(bad("more than 9 decimals"));
    }
    let too_large = || bad("more than 1T");
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_large())?
    };
    // The fraction in units of 10^-9, then in bytes (rounded down).
    let nanos: u64 = format!("{fraction:0<9}").parse().map_err(|_| too_large())?;
    let part = u64::try_from((u128::from(nanos) << shift) / 1_000_000_000).ok();
    let bytes = whole
        .checked_mul(1u64 << shift)
        .zip(part)
        .and_then(|(w, p)| w.checked_add(p))
        .ok_or_else(too_large)?;
    if bytes == 0 {
        return Err(bad("must be at least one byte"));
    }
    if bytes > 1u64 << 40 {
        return Err(too_large());
    }
    usize::try_from(bytes).map_err(|_| bad("too large for this machine"))
}

/// Parses a memory size given to `option` (`--tt`) and checks it against
/// the machine's physical memory (where the system tells it): a table or
/// bound larger than the machine is refused before anything is allocated.
pub(crate) fn parse_memory(option: &str, text: &str) -> Result<usize> {
    check_memory(option, parse_size(text)?)
}

/// Checks `bytes` given to `option` against the machine's physical memory
/// (where the system tells it), as [`parse_memory`] does.
pub(crate) fn check_memory(option: &str, bytes: usize) -> Result<usize> {
    if let Some(total) = crate::tb::physical_memory()
        && bytes as u64 > total
    {
        return Err(CliError::input(format!(
            "{option} {} is more than this machine's {} of memory: could not allocate it \
             (give a smaller size)",
            human_size(bytes as u64),
            human_size(total)
        )));
    }
    Ok(bytes)
}

/// `bytes` for people, in the largest binary unit it reaches: `512 KiB`,
/// `1.5 GiB`, `23.5 GiB` (one decimal, none when whole).
pub(crate) fn human_size(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut unit = 0;
    while unit + 1 < units.len() && bytes >= 1u64 << (10 * (unit + 1)) {
        unit += 1;
    }
    if unit == 0 {
        return format!("{bytes} bytes");
    }
    // Tenths of the unit, rounded to nearest.
    let scale = 1u128 << (10 * unit);
    let tenths = (u128::from(bytes) * 10 + scale / 2) / scale;
    if tenths.is_multiple_of(10) {
        format!("{} {}", tenths / 10, units[unit])
    } else {
        format!("{}.{} {}", tenths / 10, tenths % 10, units[unit])
    }
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
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("0.5k"), Ok(512));
        assert_eq!(parse_size(".25M"), Ok(1 << 18));
        assert_eq!(parse_size("2.G"), Ok(2 << 30));
        // A fraction of a byte is dropped.
        assert_eq!(parse_size("0.1K"), Ok(102));
        assert_eq!(parse_size("0.000000001T"), Ok(1099));
        for bad in [
            "",
            "M",
            ".",
            ".M",
            "0",
            "0M",
            "0.0G",
            "0.1",
            "12Q",
            "-1M",
            "1.5.1G",
            "1.0000000001G",
            "99999999999999999999",
            "2T",
            "1.1T",
        ] {
            let e = parse_size(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            assert!(e.to_string().starts_with("bad size"), "{e}");
        }
        assert!(
            parse_size("1.5Q")
                .unwrap_err()
                .to_string()
                .contains("unknown unit \"Q\"")
        );
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human_size(1000), "1000 bytes");
        assert_eq!(human_size(512 << 10), "512 KiB");
        assert_eq!(human_size(3 << 29), "1.5 GiB");
        assert_eq!(human_size(200 << 30), "200 GiB");
        assert_eq!(human_size(24_683_784 * 1024), "23.5 GiB");
        assert_eq!(human_size(2 << 40), "2 TiB");
    }

    #[test]
    fn long_quotes_are_cut() {
        let long = "x".repeat(100_000);
        let cut = cut_quotes(&format!(
            "line 1: bad position {long:?}: move 1: bad move {long:?}"
        ));
        let short = format!("\"{}…\" (100000 characters)", "x".repeat(80));
        assert_eq!(
            cut,
            format!("line 1: bad position {short}: move 1: bad move {short}")
        );
        // Up to the limit, and unquoted text, unchanged.
        let edge = format!("a {:?} b {}", "y".repeat(100), "z".repeat(500));
        assert_eq!(cut_quotes(&edge), edge);
        // Escapes count as one character and are never split.
        let escaped = format!("{:?}", "\u{1}\"".repeat(60));
        let cut = cut_quotes(&escaped);
        assert!(cut.ends_with("…\" (120 characters)"), "{cut}");
        assert_eq!(cut.matches("\\u{1}").count(), 40, "{cut}");
        assert_eq!(cut.matches("\\\"").count(), 40, "{cut}");
        // An unmatched quote is left alone.
        assert_eq!(cut_quotes("5\" of rain"), "5\" of rain");
        // The error's own text is cut when shown.
        let e = CliError::input(format!("bad {long:?}"));
        assert!(e.to_string().len() < 200, "{e}");
    }
}
