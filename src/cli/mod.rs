//! The command line: every clap type and every command body. Each subcommand parses its flags
//! into the library's option structs, calls the library, writes the outputs atomically and
//! prints its summary; library messages name settings as the flags (see [`flag`]).

mod anonymise;
mod args;
mod assess;
mod bench;
mod check;
mod experiment;
mod explain;
mod export;

use crate::settings::{self, Setting};
use clap::{Parser, Subcommand};

/// `optik --version`: the package version and the git commit the binary was built at (see
/// `build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("OPTIK_BUILD_COMMIT"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "optik",
    version = VERSION,
    about = "Optimal k- and k_i-anonymous releases of small microdata tables"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Partition the records into k_i-anonymous classes, write the generalised release and a report.
    Anonymise(anonymise::AnonymiseArgs),
    /// Verify independently that a released table is k_i-anonymous (exit 3 when it is not).
    Check(check::CheckArgs),
    /// Write the exact solvers' instance (integer distance matrix + k_i) for other solvers.
    Export(export::ExportArgs),
    /// Measure the privacy and utility of any table (a release, another tool's output, an original).
    Assess(assess::AssessArgs),
    /// Run a benchmark grid from a TOML spec; write results.csv, results.md and the spec.
    Bench(bench::BenchArgs),
    /// Re-run a seed 001 §5.5 heuristic experiment (table 5.3, figures 5.5–5.10) on a table sample.
    Experiment(experiment::ExperimentArgs),
    /// Trace the exact CP search on a tiny table (n ≤ 12): decisions, propagations and their
    /// explanations, conflicts, learned nogoods, solutions; optionally the search tree as SVG.
    Explain(explain::ExplainArgs),
}

/// How the command line spells a library setting in messages: as its flag.
pub(crate) fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Force => "--force",
        Setting::DropMissing => "--drop-missing",
        Setting::Qi => "--qi",
        Setting::K => "--k",
        Setting::KDist => "--k-dist",
        Setting::KPreset => "--k-preset",
        Setting::KLevels => "--k-levels",
        Setting::KAssign => "--k-assign",
        Setting::KAxes => "--k-axes",
        Setting::KAxisOrder => "--k-axis-order",
        Setting::LDiversity => "--l-diversity",
        Setting::Sensitive => "--sensitive",
        Setting::MaxClassSize => "--max-class-size",
        Setting::Links => "--links",
        Setting::LinkKey => "--link-key",
        Setting::PlotAxes => "--plot-axes",
        Setting::ClassColumn => "--class-column",
        Setting::SensitiveHierarchy => "--sensitive-hierarchy",
        Setting::SensitiveLevels => "--sensitive-levels",
        Setting::Original => "--original",
        Setting::Scale => "--scale",
        Setting::Method => "--method",
        Setting::Engine => "--engine",
        Setting::TimeLimit => "--time-limit",
        Setting::RiskThreshold => "--risk-threshold",
        Setting::C => "--c",
        Setting::MaxSubset => "--max-subset",
        Setting::MaxDecisions => "--max-decisions",
        Setting::Seeds => "--seeds",
        Setting::Heuristics => "--heuristics",
        Setting::Step => "--step",
        Setting::MaxKm => "--max-km",
        Setting::Format => "--format",
    }
}

/// Runs the CLI; returns the process exit code.
pub fn main() -> i32 {
    settings::spell_with(flag);
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Anonymise(a) => anonymise::run(&a).map(|_| 0),
        Command::Check(c) => check::run(&c),
        Command::Export(e) => export::run(&e).map(|_| 0),
        Command::Assess(a) => assess::run(&a).map(|_| 0),
        Command::Bench(b) => bench::run(&b).map(|_| 0),
        Command::Experiment(e) => experiment::run(&e).map(|_| 0),
        Command::Explain(e) => explain::run(&e).map(|_| 0),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Prints clap's help and version as usual, and usage errors on one line (exit 2).
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return 0;
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let line = parts.join(" ");
    eprintln!(
        "{}",
        if line.starts_with("error:") {
            line
        } else {
            format!("error: {line}")
        }
    );
    2
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_setting_is_spelled_as_a_flag_of_some_subcommand() {
        let cli = Cli::command();
        for s in Setting::ALL {
            let long = flag(s).strip_prefix("--").expect("a long flag");
            let found = cli
                .get_subcommands()
                .any(|sub| sub.get_arguments().any(|a| a.get_long() == Some(long)));
            assert!(
                found,
                "{s:?} is spelled {}, which no subcommand takes",
                flag(s)
            );
        }
    }
}
