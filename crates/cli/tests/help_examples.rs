//! Every example printed by every `--help` runs and exits 0: the help is
//! read from the binary itself (subcommands found from its "Commands:"
//! lists), each example is run in a fresh scratch directory, with empty
//! standard input (the `play` examples then end at once).

use std::path::PathBuf;

use assert_cmd::Command;

fn gametree() -> Command {
    Command::cargo_bin("gametree").expect("the binary is built")
}

fn help(path: &[String]) -> String {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let out = gametree()
        .args(&args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The subcommand names listed under "Commands:" (without `help`).
fn subcommands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_owned)
        .collect()
}

/// Splits an example line into words, honouring double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quotes in {line:?}");
    if started {
        out.push(word);
    }
    out
}

fn examples() -> Vec<String> {
    let mut found = Vec::new();
    let mut queue = vec![Vec::<String>::new()];
    while let Some(path) = queue.pop() {
        let text = help(&path);
        for line in text.lines() {
            if let Some(example) = line.strip_prefix("  gametree ") {
                found.push(example.to_owned());
            }
        }
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            queue.push(p);
        }
    }
    found
}

fn scratch(i: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-help-{}-{i}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs one example in a scratch directory of its own: `None` when it
/// exits 0, else what it printed on standard error.
fn run_example(i: usize, example: &str) -> Option<String> {
    let dir = scratch(i);
    let out = gametree()
        .args(words(example))
        .current_dir(&dir)
        .write_stdin("")
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&dir);
    (!out.status.success()).then(|| {
        format!(
            "`gametree {example}` exited {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn every_help_example_exits_0() {
    let all = examples();
    assert!(all.len() >= 20, "too few examples found: {all:?}");
    // The examples are independent processes: run them on the machine's
    // cores, each worker taking the next one.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(example) = all.get(i) else { break };
                        failed.extend(run_example(i, example));
                    }
                    failed
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn example_lines_split_like_a_shell() {
    assert_eq!(
        words(r#"solve chess "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1" --algo retrograde"#),
        [
            "solve",
            "chess",
            "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1",
            "--algo",
            "retrograde"
        ]
    );
    assert_eq!(words(r#"solve tictactoe """#), ["solve", "tictactoe", ""]);
}
