//! The README's two opening commands: the first (setup, build, anonymise the bundled example)
//! runs and proves its release optimal; the second is the test command `.ci/run` calls.

use crate::common::{optik, report};
use std::path::Path;

/// The shell blocks of the README, in order.
fn sh_blocks() -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(b.trim().to_string());
                current = None;
            }
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn first_command_runs_the_optimal_job_on_the_bundled_example() {
    let blocks = sh_blocks();
    let first = &blocks[0];
    let args = first
        .strip_prefix("scripts/setup && cargo run --release -- ")
        .unwrap_or_else(|| panic!("first command: {first}"));
    let args: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(args[0], "anonymise");
    assert!(
        args.windows(2).any(|w| w == ["--method", "optimal"]),
        "{first}"
    );
    // Same arguments, outputs redirected to a temporary folder.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = optik(args[0]).current_dir(env!("CARGO_MANIFEST_DIR"));
    let mut it = args[1..].iter();
    while let Some(&a) = it.next() {
        cmd = match a {
            "--out" | "--report" => cmd.output(a, dir.path().join(it.next().unwrap())),
            _ => cmd.arg(a),
        };
    }
    cmd.ok();
    assert!(dir.path().join("release.csv").exists());
    let r = report(&dir.path().join("report.json"));
    assert_eq!(r["status"], "optimal", "{r}");
}

#[test]
fn second_command_is_the_ci_test_command() {
    let blocks = sh_blocks();
    assert_eq!(blocks[1], "cargo test --workspace");
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run"))
        .expect(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == blocks[1]), "{ci}");
}
