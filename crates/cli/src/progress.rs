//! Progress on standard error, shown only when it is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Is standard error a terminal?
pub(crate) fn enabled() -> bool {
    std::io::stderr().is_terminal()
}

/// A spinner with a message, hidden when standard error is not a terminal.
pub(crate) fn spinner(message: impl Into<String>) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    pb.set_message(message.into());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// A bar of `len` steps, hidden when standard error is not a terminal.
pub(crate) fn bar(len: u64, message: impl Into<String>) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(message.into());
    pb
}
