//! Progress on standard error, shown only when it is a terminal.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner or bar from [`later`] appears once its work has taken this
/// long: quick answers never flash one.
const SHOW_AFTER: Duration = Duration::from_secs(2);

/// Is standard error a terminal?
pub(crate) fn enabled() -> bool {
    std::io::stderr().is_terminal()
}

/// A spinner with a message for work of unknown length (a solve, a deep
/// search, a large count): it appears on a terminal only once the work has
/// taken [`SHOW_AFTER`], and never when standard error is not a terminal.
pub(crate) fn spinner(message: impl Into<String>) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    pb.set_style(spinner_style());
    pb.set_message(short(message.into()));
    later(&pb);
    pb
}

/// A bar of `len` steps, hidden when standard error is not a terminal.
pub(crate) fn bar(len: u64, message: impl Into<String>) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(bar_style());
    pb.set_message(short(message.into()));
    pb
}

/// A bar of `len` steps that appears as [`spinner`] does.
pub(crate) fn bar_later(len: u64, message: impl Into<String>) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    pb.set_style(bar_style());
    pb.set_message(short(message.into()));
    later(&pb);
    pb
}

/// A message of more than [`MESSAGE_MAX`] characters (a long position)
/// cut to its first ones and `…`: a progress line stays on one line.
fn short(message: String) -> String {
    match message.char_indices().nth(MESSAGE_MAX) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message,
    }
}

/// The longest message drawn whole.
const MESSAGE_MAX: usize = 60;

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} [{elapsed}]")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// Draws `pb` on standard error once [`SHOW_AFTER`] has passed, unless it
/// is finished or dropped by then (a watcher thread checks ten times a
/// second and ends with it).
fn later(pb: &ProgressBar) {
    let weak = pb.downgrade();
    let start = Instant::now();
    let watcher = std::thread::Builder::new().name("progress".into());
    // Without the thread the work goes on, silently.
    let _ = watcher.spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(100));
            let Some(pb) = weak.upgrade() else { return };
            if pb.is_finished() {
                return;
            }
            if start.elapsed() >= SHOW_AFTER {
                pb.set_draw_target(ProgressDrawTarget::stderr());
                pb.enable_steady_tick(Duration::from_millis(120));
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut() {
        assert_eq!(short("solving tictactoe X".into()), "solving tictactoe X");
        let long = format!("solving dots {}", "é".repeat(100));
        let cut = short(long.clone());
        assert_eq!(cut.chars().count(), MESSAGE_MAX + 1);
        assert!(cut.ends_with('…') && long.starts_with(cut.trim_end_matches('…')));
    }
}
