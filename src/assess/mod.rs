//! `optik assess`: privacy and utility measures of any table — an optik release, another
//! tool's output (ARX, sdcMicro: `[30-39]`, `0-4`, `2*`, hierarchy labels, `*`) or an original
//! table — so that a release can be shown safe and useful (issue 6).
//!
//! Equivalence classes are the groups of records with equal quasi-identifier *text*, as an
//! attacker reading the file sees them. One file per family of measures:
//!
//! - [`classes`]: classes, k achieved, k_i violations;
//! - [`risk`]: prosecutor, journalist and marketer risks, sample uniques, records at risk;
//! - [`discovery`]: distinction and separation of quasi-identifier subsets (seed 004);
//! - [`diversity`]: l-diversity, t-closeness (three EMDs), δ-disclosure;
//! - [`dr`] and [`semantic`]: the Discrimination Rate family and semantic partitions (seed 000
//!   ch. 4–5);
//! - [`utility`]: DM, C_AVG, precision, ILoss, DBIL, SBIL, non-uniform entropy and the
//!   a-posteriori utility (seed 000 ch. 6);
//! - [`generalised`]: how released cells are read; [`column`]: coded columns; [`input`]:
//!   loading.
//!
//! Definitions, edge cases and the seeds' worked examples are in `docs/assess.md`.

pub(crate) mod classes;
pub(crate) mod column;
pub(crate) mod discovery;
pub(crate) mod diversity;
pub(crate) mod dr;
pub(crate) mod generalised;
pub(crate) mod input;
mod options;
pub(crate) mod risk;
pub(crate) mod semantic;
pub(crate) mod utility;

use crate::data::distance::RecordDistance;
use crate::data::k_source::KSource;
use crate::data::qi::QiTable;
use crate::data::schema::Schema;
use crate::data::table::TableSource;
use crate::error::Result;
use crate::settings::Setting;
use column::{subsets, Column};
use dr::{Discriminator, Dr, IdentifierClass};
pub use options::AssessOptions;
use semantic::Semantic;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// The report `optik assess` writes.
#[derive(Clone, Debug, Serialize)]
pub struct AssessReport {
    pub(crate) optik_version: &'static str,
    pub(crate) input: String,
    pub(crate) schema: String,
    pub(crate) original: Option<String>,
    /// Original rows taken as the table's records, in order (same number of rows).
    pub(crate) original_aligned: Option<bool>,
    pub(crate) rows: usize,
    pub(crate) dropped_missing: usize,
    pub(crate) quasi_identifiers: Vec<String>,
    pub(crate) sensitive: Vec<String>,
    pub(crate) k_source: Option<String>,
    pub(crate) classes: classes::ClassReport,
    pub(crate) risk: risk::RiskReport,
    pub(crate) discovery: Discovery,
    pub(crate) diversity: Vec<diversity::DiversityReport>,
    pub(crate) discrimination: Discrimination,
    pub(crate) utility: Utility,
    /// Why a measure was left out.
    pub(crate) notes: Vec<String>,
    /// Seconds per family of measures.
    pub(crate) timings_s: BTreeMap<String, f64>,
    pub(crate) time_s: f64,
}

impl AssessReport {
    /// The report as the pretty-printed JSON `optik assess` writes (its measures are defined in
    /// `docs/assess.md`).
    pub fn to_json(&self) -> Result<Vec<u8>> {
        crate::report::to_json(self)
    }
}

/// The subset search.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Discovery {
    pub max_subset: usize,
    pub subsets: Vec<discovery::Candidate>,
}

/// DRs relative to one attribute X.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Relative {
    /// X (`(records)` for the anonymity set of the records themselves).
    pub attribute: String,
    /// True for a SeDR (X mapped through its semantic partition).
    pub semantic: bool,
    /// H(X) in bits.
    pub h_x: f64,
    /// DR_X of each quasi-identifier, with the DR of each of its values.
    pub attributes: Vec<Dr>,
    /// CDR_X of every combination of 2..=max_subset quasi-identifiers, and of all of them.
    pub combinations: Vec<Dr>,
}

/// The Discrimination Rate family.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Discrimination {
    /// Identifier class of each quasi-identifier relative to the records (definitions 10–13).
    pub identifiers: BTreeMap<String, IdentifierClass>,
    /// Relative to the records (the anonymity set of seed 000 example 2).
    pub records: Relative,
    /// Relative to each sensitive attribute (homogeneity attack), and its SeDR when the
    /// semantic partitions cover it.
    pub sensitive: Vec<Relative>,
    /// With an aligned original: DR of each released quasi-identifier relative to its
    /// original values (identity disclosure, seed 000 table 4.5).
    pub identity: Vec<Dr>,
}

/// Utility measures.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Utility {
    pub dm: f64,
    pub cavg: f64,
    #[serde(flatten)]
    pub cells: utility::CellLoss,
    pub dbil: Option<f64>,
    pub sbil: Option<f64>,
    pub non_uniform_entropy: Option<f64>,
    pub non_uniform_entropy_share: Option<f64>,
    pub a_posteriori: Vec<utility::APosteriori>,
}

fn relative(x: &Column, semantic: bool, qi: &[&Column], max_subset: usize) -> Relative {
    let d = Discriminator::new(x);
    let attributes = qi.iter().map(|q| d.dr(&[q], true)).collect();
    let mut combos: Vec<Vec<usize>> = subsets(qi.len(), max_subset)
        .into_iter()
        .filter(|s| s.len() >= 2)
        .collect();
    if qi.len() > max_subset.max(1) {
        combos.push((0..qi.len()).collect());
    }
    let combinations = combos
        .iter()
        .map(|s| {
            let key: Vec<&Column> = s.iter().map(|&i| qi[i]).collect();
            d.dr(&key, false)
        })
        .collect();
    Relative {
        attribute: x.name.clone(),
        semantic,
        h_x: d.h_x,
        attributes,
        combinations,
    }
}

/// Measures the table `table` (a file or CSV text) read with `schema`, its k_i from `ks` when
/// given.
/// `started` is when the run started (the report's `time_s` counts from there).
pub fn assess(
    table: &TableSource,
    schema: Schema,
    ks: Option<KSource>,
    a: &AssessOptions,
    started: Instant,
) -> Result<AssessReport> {
    a.validate()?;
    let start = started;
    let mut timings = BTreeMap::new();
    let mut lap = Instant::now();
    let mut tick = |name: &str, timings: &mut BTreeMap<String, f64>| {
        timings.insert(name.to_string(), lap.elapsed().as_secs_f64());
        lap = Instant::now();
    };
    let d = input::load(table, schema, ks, a)?;
    let semantic = match &a.semantic {
        Some(p) => Semantic::read(p, &input::known_values(&d))?,
        None => Semantic::default(),
    };
    tick("load", &mut timings);
    let n = d.n();
    let mut notes = Vec::new();
    let qi_cols: Vec<&Column> = d.qi.iter().map(|q| &q.column).collect();
    let cls = classes::Classes::of(&qi_cols, n);
    let class_report = classes::report(&cls, d.k.as_deref(), &d.lines);
    tick("classes", &mut timings);
    let aligned = d.original.as_ref().filter(|o| o.aligned);
    if d.original.is_none() {
        notes.push(
            format!("no {}: the journalist risk, DBIL, SBIL, non-uniform entropy, identity DRs and the original side of the a-posteriori utility are left out", Setting::Original),
        );
    }
    if let Some(o) = d.original.as_ref().filter(|o| !o.aligned) {
        notes.push(format!(
            "{} has {} rows and the table {}: rows are not the same records, so DBIL, SBIL, non-uniform entropy and identity DRs are left out",
            Setting::Original,
            o.rows.len(),
            n
        ));
    }
    let risk = risk::report(
        &cls,
        &d.qi,
        d.original.as_ref().map(|o| o.qi.as_slice()),
        a.risk_threshold,
    );
    tick("risk", &mut timings);
    let discovery = Discovery {
        max_subset: a.max_subset,
        subsets: discovery::search(&qi_cols, n, a.max_subset),
    };
    tick("discovery", &mut timings);
    let members = cls.members();
    let diversity = d
        .sensitive
        .iter()
        .zip(&d.sensitive_kinds)
        .map(|(s, k)| diversity::report(s, &members, k, a.c))
        .collect::<Result<Vec<_>>>()?;
    if d.sensitive.is_empty() {
        notes.push(
            format!("no sensitive attribute (schema role `sensitive` or {}): l-diversity, t-closeness, δ-disclosure and the homogeneity DRs are left out", Setting::Sensitive),
        );
    }
    tick("diversity", &mut timings);
    let records = relative(&Column::subjects(n), false, &qi_cols, a.max_subset);
    let identifiers = records
        .attributes
        .iter()
        .map(|r| (r.attributes[0].clone(), r.class))
        .collect();
    let mut sensitive = Vec::new();
    for s in &d.sensitive {
        sensitive.push(relative(s, false, &qi_cols, a.max_subset));
        if semantic.has(&s.name) {
            sensitive.push(relative(&semantic.apply(s), true, &qi_cols, a.max_subset));
        }
    }
    let identity = match aligned {
        Some(o) => {
            d.qi.iter()
                .zip(&o.qi)
                .map(|(q, oq)| Discriminator::new(oq).dr(&[&q.column], true))
                .collect()
        }
        None => Vec::new(),
    };
    let discrimination = Discrimination {
        identifiers,
        records,
        sensitive,
        identity,
    };
    tick("discrimination", &mut timings);

    // Utility.
    let ones = vec![1u32; n];
    let k: &[u32] = d.k.as_deref().unwrap_or(&ones);
    let mut kmax = vec![1u32; cls.sizes.len()];
    for (r, &c) in cls.of.iter().enumerate() {
        kmax[c as usize] = kmax[c as usize].max(k[r]);
    }
    let weights: Vec<f64> = d.qi_specs.iter().map(|s| s.weight).collect();
    let cells = utility::cell_loss(&d.qi, &weights);
    let (mut dbil, mut sbil, mut nue, mut nue_share) = (None, None, None, None);
    if let Some(o) = aligned {
        let specs: Vec<&crate::data::schema::ColumnSpec> = d.qi_specs.iter().collect();
        let q = QiTable::decode(&o.table, &specs, &o.rows)?;
        let dist = RecordDistance::new(&q);
        let labels: Vec<usize> = cls.of.iter().map(|&c| c as usize).collect();
        let p = crate::Partition::from_labels(&labels);
        let m = crate::partition::metrics::compute(&q, &dist, k, &p);
        dbil = Some(m.dbil);
        sbil = Some(m.sbil);
        let orig_cols: Vec<&Column> = o.qi.iter().collect();
        let (t, max) = utility::non_uniform_entropy(&qi_cols, &orig_cols);
        nue = Some(t);
        nue_share = Some(if max > 0.0 { t / max } else { 0.0 });
    }
    let a_posteriori = d
        .sensitive
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let orig = d.original.as_ref().and_then(|o| {
                o.sensitive[i]
                    .as_ref()
                    .map(|os| (os, o.qi.iter().collect::<Vec<&Column>>()))
            });
            utility::a_posteriori(s, &qi_cols, orig, &semantic)
        })
        .collect();
    let utility = Utility {
        dm: utility::dm(&cls.sizes, &kmax, n),
        cavg: utility::cavg(k, cls.sizes.len()),
        cells,
        dbil,
        sbil,
        non_uniform_entropy: nue,
        non_uniform_entropy_share: nue_share,
        a_posteriori,
    };
    tick("utility", &mut timings);

    let report = AssessReport {
        optik_version: env!("CARGO_PKG_VERSION"),
        input: d.path.display().to_string(),
        schema: d.schema.source.clone(),
        original: d.original.as_ref().map(|o| o.path.display().to_string()),
        original_aligned: d.original.as_ref().map(|o| o.aligned),
        rows: n,
        dropped_missing: d.dropped,
        quasi_identifiers: d.qi.iter().map(|q| q.column.name.clone()).collect(),
        sensitive: d.sensitive.iter().map(|s| s.name.clone()).collect(),
        k_source: d.k_description.clone(),
        classes: class_report,
        risk,
        discovery,
        diversity,
        discrimination,
        utility,
        notes,
        timings_s: timings,
        time_s: start.elapsed().as_secs_f64(),
    };
    Ok(report)
}
