//! The live line of a running row (on a terminal only; logs get the table
//! alone) and the row times of the last run, which estimate the next one.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Each row's time in the last run, kept in a file of lines `seconds<TAB>row
/// key` (the key starts with the mode).
pub(crate) struct Times {
    path: Option<PathBuf>,
    last: BTreeMap<String, f64>,
    now: BTreeMap<String, f64>,
}

impl Times {
    /// The times kept in `path` (none on a first run, or without a path).
    pub(crate) fn load(path: Option<PathBuf>) -> Times {
        let last = path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let (secs, key) = l.split_once('\t')?;
                Some((key.to_owned(), secs.parse().ok()?))
            })
            .collect();
        Times {
            path,
            last,
            now: BTreeMap::new(),
        }
    }

    /// The row's time in the last run.
    pub(crate) fn last(&self, key: &str) -> Option<Duration> {
        self.last.get(key).map(|&s| Duration::from_secs_f64(s))
    }

    /// The last run's time of `rows` (the rows still to run), when every
    /// one of them has a time.
    pub(crate) fn left<T>(&self, rows: &[T], key: impl Fn(&T) -> String) -> Option<Duration> {
        rows.iter()
            .map(|r| self.last.get(&key(r)))
            .sum::<Option<f64>>()
            .map(Duration::from_secs_f64)
    }

    /// Records a row's time in this run.
    pub(crate) fn record(&mut self, key: &str, took: Duration) {
        self.now.insert(key.to_owned(), took.as_secs_f64());
    }

    /// Writes this run's times over the last run's (rows this run did not
    /// select keep their old time). Failing to write is not an error: the
    /// file only feeds estimates.
    pub(crate) fn save(self) {
        let mut all = self.last;
        all.extend(self.now);
        let text: String = all.iter().map(|(k, s)| format!("{s:.3}\t{k}\n")).collect();
        if let Some(path) = &self.path {
            let _ = std::fs::write(path, text);
        }
    }
}

/// The live line: `row N/M · game / variant · elapsed (last run: T; about
/// T left in all)`, redrawn on a terminal, hidden elsewhere.
pub(crate) struct Live {
    bar: ProgressBar,
    rows: usize,
}

impl Live {
    /// A live line for `rows` rows, drawn on standard error when it is a
    /// terminal.
    pub(crate) fn new(rows: usize) -> Live {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}").expect("a valid template"),
        );
        Live { bar, rows }
    }

    /// Row `row` (0-based) starts.
    pub(crate) fn start(
        &self,
        row: usize,
        game: &str,
        variant: &str,
        last: Option<Duration>,
        left: Option<Duration>,
    ) {
        let mut estimate = String::new();
        if let Some(t) = last {
            estimate.push_str(&format!(" (last run {})", clock(t)));
        }
        if let Some(t) = left {
            estimate.push_str(&format!(", about {} left in all", clock(t)));
        }
        self.bar.reset_elapsed();
        self.bar.set_message(format!(
            "row {}/{} · {game} / {variant}{estimate}",
            row + 1,
            self.rows
        ));
        self.bar.enable_steady_tick(Duration::from_millis(250));
    }

    /// The row is done: the line is cleared before the table row prints.
    pub(crate) fn finish(&self) {
        self.bar.disable_steady_tick();
        self.bar.set_message("");
        self.bar.tick();
    }
}

/// `m:ss` or `h:mm:ss`.
fn clock(t: Duration) -> String {
    let s = t.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}
