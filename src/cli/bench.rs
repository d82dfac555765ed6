//! `optik bench SPEC.toml --out DIR`: run a benchmark grid with the library and write its
//! results into DIR atomically.

use crate::bench::spec::Spec;
use crate::bench::{self, BenchOptions, RESULTS_CSV, RESULTS_MD};
use crate::error::{internal, Result};
use crate::release::output::StagedDir;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Benchmark spec (TOML); relative paths inside resolve against its folder.
    pub spec: PathBuf,
    /// Output folder (written atomically: staged in a temporary sibling, renamed at the end).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing, non-empty output folder of a previous `optik bench`.
    #[arg(long)]
    pub force: bool,
    /// Run the heuristic runs one at a time too (their times are then comparable).
    #[arg(long)]
    pub sequential: bool,
    /// No progress bar or summary on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `optik bench`.
pub(super) fn run(a: &BenchArgs) -> Result<()> {
    let started = Instant::now();
    let spec = Spec::read(&a.spec)?;
    StagedDir::check(&a.out, RESULTS_CSV, &spec.inputs(), a.force)?;
    let opts = BenchOptions {
        sequential: a.sequential,
        quiet: a.quiet,
    };
    let results = bench::run(&spec, &opts, started)?;
    let staged = StagedDir::create(&a.out)?;
    for (name, bytes) in &results.files {
        staged.write(name, bytes)?;
    }
    staged.commit()?;
    if !a.quiet {
        eprintln!(
            "{} runs in {:.1} s; results in {}",
            results.runs,
            started.elapsed().as_secs_f64(),
            a.out.display()
        );
    }
    if results.failed > 0 {
        return Err(internal(format!(
            "{} of {} runs failed (status error or a failed check); see {}",
            results.failed,
            results.runs,
            a.out.join(RESULTS_MD).display()
        )));
    }
    Ok(())
}
