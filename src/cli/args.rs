//! The argument groups several subcommands share — the input table and its schema, the k_i
//! source, the class constraints, the pictures — and the value enums that mirror the library's
//! domain enums on the command line. Imports no subcommand.
//!
//! The criterion and the search strategy are parsed by the library's own `FromStr` (their
//! messages list the names), so they need no mirror here.

use crate::data::dataset::LoadOptions;
use crate::data::k_source::correlated::DEFAULT_AXES;
use crate::data::k_source::{self, KAssign, KChoice, KSettings, KSource};
use crate::data::schema::{Schema, SchemaSource};
use crate::error::{input, Result};
use crate::partition::constraints::ClassConstraintOptions;
use crate::partition::exact::Engine;
use crate::partition::heuristics::{Form, Heuristic, KMemberCost};
use crate::partition::Method;
use crate::release::ReleaseStyle;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Where the table and its schema come from.
#[derive(Args, Debug, Clone)]
pub(crate) struct InputArgs {
    /// Input table (CSV with a header row; `,` `;` or tab separated, detected).
    pub input: PathBuf,
    /// TOML schema giving every column a role and each quasi-identifier a kind.
    #[arg(long, conflicts_with = "qi", required_unless_present = "qi")]
    pub schema: Option<PathBuf>,
    /// Quick use without a schema: comma-separated quasi-identifiers (kinds inferred).
    #[arg(long)]
    pub qi: Option<String>,
    /// Field delimiter (one character, or `tab`); detected from the header when absent.
    #[arg(long, value_parser = crate::data::table::parse_delimiter)]
    pub delimiter: Option<u8>,
    /// Drop rows with a missing quasi-identifier (empty, NA, ?) instead of failing.
    #[arg(long)]
    pub drop_missing: bool,
}

impl InputArgs {
    /// The schema's source: `--schema FILE` or `--qi LIST` (exactly one, as clap enforces).
    pub(crate) fn schema_source(&self) -> Result<SchemaSource> {
        match (&self.schema, &self.qi) {
            (Some(s), None) => Ok(SchemaSource::File(s.clone())),
            (None, Some(q)) => Ok(SchemaSource::QiList(q.clone())),
            _ => Err(input("give either --schema or --qi")),
        }
    }

    /// The schema.
    pub(crate) fn schema(&self) -> Result<Schema> {
        Schema::load(&self.schema_source()?)
    }

    /// How to read the table.
    pub(crate) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            delimiter: self.delimiter,
            drop_missing: self.drop_missing,
        }
    }

    /// The files read (never to be overwritten): the table and the schema file.
    pub(crate) fn inputs(&self) -> Vec<&Path> {
        let mut inputs: Vec<&Path> = vec![&self.input];
        if let Some(s) = &self.schema {
            inputs.push(s);
        }
        inputs
    }
}

/// The privacy constraints: exactly one source of k_i.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub(crate) struct KArgs {
    /// Uniform k-anonymity.
    #[arg(long, value_parser = k_source::parse_k)]
    pub k: Option<u32>,
    /// Per-record k_i read from this column (not released).
    #[arg(long)]
    pub k_column: Option<String>,
    /// Each record draws k_i from this distribution, e.g. 3:0.823,5:0.168,7:0.009 (with --seed).
    #[arg(long)]
    pub k_dist: Option<String>,
    /// Acquisti & Grossklags group shares (seed table 5.2): general, personal, professional,
    /// sexual-political; k values from --k-levels.
    #[arg(long)]
    pub k_preset: Option<String>,
}

impl KArgs {
    /// The k source chosen, if any.
    pub(crate) fn choice(&self) -> Option<KChoice> {
        if let Some(k) = self.k {
            Some(KChoice::Uniform(k))
        } else if let Some(c) = &self.k_column {
            Some(KChoice::Column(c.clone()))
        } else if let Some(d) = &self.k_dist {
            Some(KChoice::Distribution(d.clone()))
        } else {
            self.k_preset.clone().map(KChoice::Preset)
        }
    }
}

/// The k_i source with the options that shape it, shared by every subcommand.
#[derive(Args, Debug, Clone)]
pub(crate) struct Privacy {
    #[command(flatten)]
    pub choice: KArgs,
    /// k values of the liberal, moderate and conservative groups for --k-preset.
    #[arg(long, default_value = k_source::DEFAULT_LEVELS)]
    pub k_levels: String,
    /// Seed of the --k-dist / --k-preset draws (reuse the one the release was made with) and of
    /// randomised methods.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How --k-dist / --k-preset shares are given to records: at random, or correlated with the
    /// data (nearest the origin of the --k-axes plane: lowest k; seed 001 §5.5.5).
    #[arg(long, value_enum, default_value = "random")]
    pub k_assign: KAssignArg,
    /// The plane of --k-assign correlated: two columns, a,b.
    #[arg(long, default_value = DEFAULT_AXES)]
    pub k_axes: String,
    /// Order of a non-numeric --k-axes column, from the origin outwards: COLUMN=v1,v2,...
    /// (repeatable; `education=adult` is Adult's education-num order).
    #[arg(long)]
    pub k_axis_order: Vec<String>,
}

impl Privacy {
    /// The k source these flags describe, or `None` when no k flag is given.
    pub(crate) fn source_if_given(&self) -> Result<Option<KSource>> {
        match self.choice.choice() {
            None => Ok(None),
            Some(choice) => KSettings {
                choice,
                levels: self.k_levels.clone(),
                seed: self.seed,
                assign: self.k_assign.into(),
                axes: self.k_axes.clone(),
                axis_order: self.k_axis_order.clone(),
            }
            .source()
            .map(Some),
        }
    }

    /// The k source these flags describe.
    pub(crate) fn source(&self) -> Result<KSource> {
        self.source_if_given()?
            .ok_or_else(|| input("give one of --k, --k-column, --k-dist, --k-preset"))
    }
}

/// The extra class constraints of `--method optimal`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ConstraintArgs {
    /// Optimal only: every class holds at least L distinct values of --sensitive.
    #[arg(long, value_name = "L", requires = "sensitive")]
    pub l_diversity: Option<u32>,
    /// Sensitive column of --l-diversity (released, not a quasi-identifier).
    #[arg(long, value_name = "COL", requires = "l_diversity")]
    pub sensitive: Option<String>,
    /// Optimal only: CSV of `kind,a,b` lines, kind must or cannot, a and b 1-based data-row
    /// numbers (or values of --link-key).
    #[arg(long, value_name = "FILE")]
    pub links: Option<PathBuf>,
    /// Column whose values name the records of --links (each value on one row).
    #[arg(long, value_name = "COL", requires = "links")]
    pub link_key: Option<String>,
    /// Optimal only: no class larger than M records.
    #[arg(long, value_name = "M")]
    pub max_class_size: Option<u32>,
}

impl ConstraintArgs {
    /// The library's options.
    pub(crate) fn options(&self) -> ClassConstraintOptions {
        ClassConstraintOptions {
            l_diversity: self.l_diversity,
            sensitive: self.sensitive.clone(),
            links: self.links.clone(),
            link_key: self.link_key.clone(),
            max_class_size: self.max_class_size,
        }
    }
}

/// The picture options of `optik anonymise`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct PictureArgs {
    /// Draw the partition as SVG: records placed by --plot-axes (default: a 2-D classical MDS of
    /// the distance matrix), coloured by class, each class outlined and labelled with its k_i.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Two quasi-identifiers to place the records by in the partition picture, e.g. age,education.
    #[arg(long)]
    pub plot_axes: Option<String>,
    /// Write a self-contained HTML report: partition picture, metrics, time line, release preview.
    #[arg(long)]
    pub html: Option<PathBuf>,
}

impl PictureArgs {
    /// The files these options write.
    pub(crate) fn outputs(&self) -> Vec<&Path> {
        self.plot
            .iter()
            .chain(self.html.iter())
            .map(PathBuf::as_path)
            .collect()
    }
}

/// `--method` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    Mdav,
    Kmember,
    Mondrian,
    #[value(name = "mdav-sse")]
    MdavSse,
    Optimal,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Mdav => Method::Mdav,
            MethodArg::Kmember => Method::KMember,
            MethodArg::Mondrian => Method::Mondrian,
            MethodArg::MdavSse => Method::MdavSse,
            MethodArg::Optimal => Method::Optimal,
        }
    }
}

/// `--release` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReleaseArg {
    Generalised,
    Centroid,
}

impl From<ReleaseArg> for ReleaseStyle {
    fn from(r: ReleaseArg) -> ReleaseStyle {
        match r {
            ReleaseArg::Generalised => ReleaseStyle::Generalised,
            ReleaseArg::Centroid => ReleaseStyle::Centroid,
        }
    }
}

/// `--heuristics` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Maximum distance to average vector (Domingo-Ferrer & Torra).
    Mdav,
    /// Greedy k-member clustering (Byun et al.).
    #[value(name = "kmember")]
    KMember,
    /// Median partitioning (LeFevre et al.).
    Mondrian,
    /// MDAV as sdcMicro's microaggregation runs it (standardised records, squared Euclidean).
    #[value(name = "mdav-sse")]
    MdavSse,
}

impl From<HeuristicArg> for Heuristic {
    fn from(h: HeuristicArg) -> Heuristic {
        match h {
            HeuristicArg::Mdav => Heuristic::Mdav,
            HeuristicArg::KMember => Heuristic::KMember,
            HeuristicArg::Mondrian => Heuristic::Mondrian,
            HeuristicArg::MdavSse => Heuristic::MdavSse,
        }
    }
}

/// `--form` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    /// Personalised: every record's own k_i.
    Ki,
    /// The original k-anonymity heuristic with `k = max_i k_i`.
    K,
}

impl From<FormArg> for Form {
    fn from(f: FormArg) -> Form {
        match f {
            FormArg::Ki => Form::Ki,
            FormArg::K => Form::K,
        }
    }
}

/// `--cost` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CostArg {
    /// Eq. 5.3: `(|e|+1)·diam(e∪r) − |e|·diam(e)`.
    Original,
    /// Eq. 5.4: `max(|e|+1, k_e)·diam(e∪r) − max(|e|, k_e)·diam(e)`.
    Corrected,
    /// Eq. 5.5: `max(|e|+1, k_e, k_r)·diam(e∪r) − max(|e|, k_e)·diam(e)` (the k_i "upgrade").
    Personalised,
}

impl From<CostArg> for KMemberCost {
    fn from(c: CostArg) -> KMemberCost {
        match c {
            CostArg::Original => KMemberCost::Original,
            CostArg::Corrected => KMemberCost::Corrected,
            CostArg::Personalised => KMemberCost::Personalised,
        }
    }
}

/// `--engine` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The portfolio: column generation for the sum criteria (dbil, wcsd), CP for diameter
    /// and split.
    Auto,
    /// The CP model on pumpkin with optik's propagators.
    Cp,
    /// Set partitioning with column generation on HiGHS (dbil, wcsd).
    Colgen,
    /// The compact assignment MIP on HiGHS (small instances; dbil, diameter, wcsd).
    Mip,
    /// Large-neighbourhood search from the best heuristic, neighbourhoods re-optimised by
    /// column generation (dbil, wcsd; any size; `auto` above 5000 records, or 300 under
    /// l-diversity).
    Lns,
}

impl From<EngineArg> for Engine {
    fn from(e: EngineArg) -> Engine {
        match e {
            EngineArg::Auto => Engine::Auto,
            EngineArg::Cp => Engine::Cp,
            EngineArg::Colgen => Engine::Colgen,
            EngineArg::Mip => Engine::Mip,
            EngineArg::Lns => Engine::Lns,
        }
    }
}

/// `--k-assign` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KAssignArg {
    /// Independently at random, with `--seed`.
    Random,
    /// By distance to the origin in the plane of `--k-axes` (nearest: lowest k).
    Correlated,
}

impl From<KAssignArg> for KAssign {
    fn from(a: KAssignArg) -> KAssign {
        match a {
            KAssignArg::Random => KAssign::Random,
            KAssignArg::Correlated => KAssign::Correlated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mirror accepts exactly the library's names, in the library's order.
    fn same_names<A: ValueEnum, D: Copy + From<A>>(domain: &[D], name: fn(D) -> &'static str) {
        let cli: Vec<String> = A::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let lib: Vec<&str> = domain.iter().map(|&d| name(d)).collect();
        assert_eq!(cli, lib);
        for v in A::value_variants() {
            let n = v.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(name(D::from(v.clone())), n);
        }
    }

    #[test]
    fn mirrors_use_the_library_names() {
        same_names::<MethodArg, Method>(&Method::ALL, Method::name);
        same_names::<HeuristicArg, Heuristic>(&Heuristic::ALL, Heuristic::name);
        same_names::<ReleaseArg, ReleaseStyle>(&ReleaseStyle::ALL, ReleaseStyle::name);
        same_names::<FormArg, Form>(&Form::ALL, Form::name);
        same_names::<CostArg, KMemberCost>(&KMemberCost::ALL, KMemberCost::name);
        same_names::<KAssignArg, KAssign>(&KAssign::ALL, KAssign::name);
        same_names::<EngineArg, Engine>(
            &[
                Engine::Auto,
                Engine::Cp,
                Engine::Colgen,
                Engine::Mip,
                Engine::Lns,
            ],
            Engine::name,
        );
    }
}
