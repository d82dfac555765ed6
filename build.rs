//! Records the git commit the `optik` binary was built at (`optik --version`), so that a
//! benchmark can tell a binary some other checkout left in a shared target directory from the
//! one it means to measure: cargo judges freshness by file times, and once took a binary built
//! in another worktree at an older commit for this tree's (docs/exact.md, session 51).
//!
//! The commit is HEAD's when the build script last ran: it re-runs when HEAD moves, not on an
//! edit, so a binary built from uncommitted changes names the commit they were made on.
//! Outside a git checkout (a source archive) it is `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=OPTIK_BUILD_COMMIT={commit}");
    // HEAD, the branch it names (its own file, or packed with the others): a commit or a
    // checkout moves one of them. Paths from `--git-path` hold in a worktree too.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for path in watched {
        if let Some(p) = git(&["rev-parse", "--git-path", &path]) {
            if std::path::Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
}
