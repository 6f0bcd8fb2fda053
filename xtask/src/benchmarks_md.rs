//! `cargo xtask bench TASK --markdown`: runs the task (the same command
//! without `--markdown`, as a child process), shows its output as it comes,
//! and writes it into `BENCHMARKS.md` as the task's section, replacing the
//! section an earlier run wrote. Other sections are kept.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

const HEADER: &str = "# Benchmarks

Written by `cargo xtask bench TASK --markdown`: each section is the output
of the command in its first line, replaced by the next run of the same
task. Timings are wall-clock and noisy; every table carries a baseline
measured in the same run, and its ratios are the figures to read.
";

/// Runs `cargo xtask bench` with this process's arguments minus
/// `--markdown`, then records its standard output as the section of `task`.
pub(crate) fn run_and_record(task: &str) -> Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--markdown")
        .collect();
    let exe = std::env::current_exe().context("the xtask binary")?;
    let mut child = Command::new(exe)
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .context("running the bench")?;
    let mut captured = String::new();
    let out = child.stdout.take().expect("piped");
    let mut stdout = std::io::stdout();
    for line in BufReader::new(out).lines() {
        let line = line?;
        writeln!(stdout, "{line}")?;
        captured.push_str(&line);
        captured.push('\n');
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("the bench failed ({status}); BENCHMARKS.md is unchanged");
    }
    let path = crate::project_root().join("BENCHMARKS.md");
    let old = std::fs::read_to_string(&path).unwrap_or_else(|_| HEADER.to_owned());
    let section = format!(
        "<!-- bench:{task} -->\n## {task}\n\n`cargo xtask {}` ({} threads available)\n\n{}\n<!-- /bench:{task} -->\n",
        args.join(" "),
        std::thread::available_parallelism().map_or(1, usize::from),
        captured.trim_end()
    );
    std::fs::write(&path, replace_section(&old, task, &section))?;
    eprintln!("wrote the {task} section of {}", path.display());
    Ok(())
}

/// `text` with the section of `task` replaced by `section` (appended when
/// there is none).
fn replace_section(text: &str, task: &str, section: &str) -> String {
    let open = format!("<!-- bench:{task} -->");
    let close = format!("<!-- /bench:{task} -->\n");
    match (text.find(&open), text.find(&close)) {
        (Some(a), Some(b)) if b > a => {
            format!("{}{section}{}", &text[..a], &text[b + close.len()..])
        }
        _ => format!(
            "{}\n{section}",
            text.trim_end_matches('\n').to_owned() + "\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::replace_section;

    #[test]
    fn sections_are_replaced_or_appended() {
        let a = "<!-- bench:a -->\nold a\n<!-- /bench:a -->\n";
        let b = "<!-- bench:b -->\nb\n<!-- /bench:b -->\n";
        let text = format!("# T\n\n{a}\n{b}");
        let new_a = "<!-- bench:a -->\nnew a\n<!-- /bench:a -->\n";
        let out = replace_section(&text, "a", new_a);
        assert_eq!(out, format!("# T\n\n{new_a}\n{b}"));
        let c = "<!-- bench:c -->\nc\n<!-- /bench:c -->\n";
        assert_eq!(replace_section(&out, "c", c), format!("{out}\n{c}"));
    }
}
