//! The benchmark spec: a TOML file naming instances (table, schema, sample, k_i source),
//! methods, forms, criteria, seeds and a time limit. Parsed strictly (an unknown key is an
//! error naming it) and resolved against the spec's own folder, so a spec runs the same from
//! anywhere.

use crate::data::dataset::RowSample;
use crate::data::k_source::correlated::DEFAULT_AXES;
use crate::data::k_source::{KAssign, KChoice, KSettings, KSource};
use crate::data::schema::{Schema, SchemaSource};
use crate::error::{in_file, Error, Result};
use crate::partition::exact::{self, Engine};
use crate::partition::heuristics::{Form, KMemberCost};
use crate::partition::Method;
use crate::Criterion;
use serde::{Deserialize, Deserializer};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A value read from TOML by its name (the name the command line and the reports use), so
/// the spec accepts exactly what `optik anonymise` accepts.
#[derive(Clone, Copy, Debug)]
struct Flag<T>(T);

/// A choice a spec names: its key (for error messages) and its values by name.
trait Key: Copy + 'static {
    const KEY: &'static str;
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
}

impl Key for Method {
    const KEY: &'static str = "method";
    const ALL: &'static [Self] = &Method::ALL;
    fn name(self) -> &'static str {
        Method::name(self)
    }
}
impl Key for Engine {
    const KEY: &'static str = "engine";
    const ALL: &'static [Self] = &[
        Engine::Auto,
        Engine::Cp,
        Engine::Colgen,
        Engine::Mip,
        Engine::Lns,
    ];
    fn name(self) -> &'static str {
        Engine::name(self)
    }
}
impl Key for Form {
    const KEY: &'static str = "form";
    const ALL: &'static [Self] = &Form::ALL;
    fn name(self) -> &'static str {
        Form::name(self)
    }
}
impl Key for KMemberCost {
    const KEY: &'static str = "cost";
    const ALL: &'static [Self] = &KMemberCost::ALL;
    fn name(self) -> &'static str {
        KMemberCost::name(self)
    }
}
impl Key for KAssign {
    const KEY: &'static str = "k_assign";
    const ALL: &'static [Self] = &KAssign::ALL;
    fn name(self) -> &'static str {
        KAssign::name(self)
    }
}

/// A criterion read by its command-line name.
#[derive(Clone, Copy, Debug)]
struct CriterionName(Criterion);

impl<'de> Deserialize<'de> for CriterionName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map(CriterionName)
            .map_err(serde::de::Error::custom)
    }
}

impl<'de, T: Key> Deserialize<'de> for Flag<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        T::ALL
            .iter()
            .find(|v| v.name() == s)
            .map(|&v| Flag(v))
            .ok_or_else(|| {
                let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
                serde::de::Error::custom(format!(
                    "unknown {} '{s}' (one of {})",
                    T::KEY,
                    names.join(", ")
                ))
            })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    #[serde(default)]
    description: Option<String>,
    instances: Vec<InstanceFile>,
    methods: Vec<MethodFile>,
    #[serde(default)]
    forms: Option<Vec<Flag<Form>>>,
    #[serde(default)]
    criteria: Option<Vec<CriterionName>>,
    #[serde(default)]
    seeds: Option<Vec<u64>>,
    #[serde(default)]
    time_limit: Option<String>,
    #[serde(default)]
    scale: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceFile {
    name: String,
    csv: PathBuf,
    #[serde(default)]
    schema: Option<PathBuf>,
    #[serde(default)]
    qi: Option<String>,
    #[serde(default)]
    delimiter: Option<String>,
    #[serde(default)]
    drop_missing: bool,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    sample: Option<SampleKind>,
    #[serde(default)]
    sample_seed: Option<u64>,
    #[serde(default)]
    k: Option<i64>,
    #[serde(default)]
    k_column: Option<String>,
    #[serde(default)]
    k_dist: Option<String>,
    #[serde(default)]
    k_preset: Option<String>,
    #[serde(default)]
    k_levels: Option<Vec<i64>>,
    #[serde(default)]
    k_assign: Option<Flag<KAssign>>,
    #[serde(default)]
    k_axes: Option<Vec<String>>,
    #[serde(default)]
    k_axis_order: Option<Vec<String>>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SampleKind {
    First,
    Random,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MethodFile {
    method: Flag<Method>,
    #[serde(default)]
    cost: Option<Flag<KMemberCost>>,
    #[serde(default)]
    engine: Option<Flag<Engine>>,
    #[serde(default)]
    time_limit: Option<String>,
    #[serde(default)]
    forms: Option<Vec<Flag<Form>>>,
    #[serde(default)]
    instances: Option<Vec<String>>,
}

/// One instance of the grid: a table, its schema, the rows kept and the k_i source.
#[derive(Clone, Debug)]
pub(crate) struct InstanceSpec {
    pub name: String,
    /// The table, resolved against the spec's folder.
    pub csv: PathBuf,
    /// The table as the spec names it (for the results header).
    pub csv_given: PathBuf,
    pub schema: Schema,
    pub delimiter: Option<u8>,
    pub drop_missing: bool,
    pub sample: RowSample,
    /// The k_i source; the run's seed completes it (distribution and preset draws).
    k: KSettings,
}

impl InstanceSpec {
    /// The k_i source of this instance for one grid seed.
    pub(crate) fn k_source(&self, seed: u64) -> Result<KSource> {
        KSettings {
            seed,
            ..self.k.clone()
        }
        .source()
    }

    /// Short description of the k_i source for the results header.
    pub(crate) fn k_description(&self) -> String {
        if self.k.assign == KAssign::Correlated {
            return match self.k_source(0) {
                Ok(ks) => ks.describe(),
                Err(e) => e.to_string(),
            };
        }
        match &self.k.choice {
            KChoice::Uniform(k) => format!("k = {k}"),
            KChoice::Column(c) => format!("k_i from column '{c}'"),
            KChoice::Distribution(d) => format!("k_i drawn from {d} with the run's seed"),
            KChoice::Preset(p) => format!(
                "k_i drawn from preset {p} over levels {} with the run's seed",
                self.k.levels
            ),
        }
    }
}

/// One method of the grid.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MethodSpec {
    pub method: Method,
    /// Greedy k-member cost (k-member only).
    pub cost: KMemberCost,
    /// Exact engine, resolved per criterion at run time (optimal only).
    pub engine: Engine,
    /// Time limit of the exact engine (optimal only).
    pub time_limit: Option<Duration>,
    /// Forms this method runs in (the spec's `forms` unless the method lists its own).
    pub forms: Vec<Form>,
    /// Names of the instances this method runs on (`None`: every instance).
    pub instances: Option<Vec<String>>,
}

impl MethodSpec {
    /// Whether this method runs on the named instance.
    pub(crate) fn runs_on(&self, instance: &str) -> bool {
        self.instances
            .as_ref()
            .is_none_or(|v| v.iter().any(|i| i == instance))
    }
}

/// A parsed and validated spec.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub path: PathBuf,
    /// The spec file's text, copied into the output folder.
    pub text: String,
    pub description: Option<String>,
    pub instances: Vec<InstanceSpec>,
    pub methods: Vec<MethodSpec>,
    pub criteria: Vec<Criterion>,
    pub seeds: Vec<u64>,
    pub scale: f64,
}

impl Spec {
    /// Reads and validates a spec; every error is one line naming the spec file and the key.
    pub(crate) fn read(path: &Path) -> Result<Spec> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(path, format!("cannot read spec: {e}")))?;
        let file: SpecFile =
            toml::from_str(&text).map_err(|e| crate::error::toml_error(path, &text, &e))?;
        let bad = |key: &str, msg: &dyn std::fmt::Display| in_file(path, format!("{key}: {msg}"));
        let base = path.parent().unwrap_or(Path::new("."));
        let duration = |key: &str, s: &Option<String>| -> Result<Option<Duration>> {
            s.as_deref()
                .map(|s| exact::parse_duration(s).map_err(|e| bad(key, &e)))
                .transpose()
        };
        let time_limit = duration("time_limit", &file.time_limit)?;
        if file.instances.is_empty() {
            return Err(bad("instances", &"list at least one instance"));
        }
        if file.methods.is_empty() {
            return Err(bad("methods", &"list at least one method"));
        }
        let mut instances: Vec<InstanceSpec> = Vec::new();
        for (i, f) in file.instances.into_iter().enumerate() {
            let key = format!("instances[{i}]");
            if f.name.trim().is_empty() {
                return Err(bad(&format!("{key}.name"), &"must not be empty"));
            }
            if instances.iter().any(|x| x.name == f.name) {
                return Err(bad(
                    &format!("{key}.name"),
                    &format!("'{}' names two instances", f.name),
                ));
            }
            let key = format!("{key} '{}'", f.name);
            instances.push(instance(f, base).map_err(|e| bad(&key, &e))?);
        }
        let forms: Vec<Form> = match file.forms {
            Some(f) => f.into_iter().map(|f| f.0).collect(),
            None => vec![Form::Ki],
        };
        let mut methods: Vec<MethodSpec> = Vec::new();
        for (i, m) in file.methods.into_iter().enumerate() {
            let key = format!("methods[{i}]");
            let method = m.method.0;
            let only = |field: &str, given: bool, wanted: Method| {
                if given && method != wanted {
                    Err(bad(
                        &format!("{key}.{field}"),
                        &format!("applies to {} only, not {}", wanted.name(), method.name()),
                    ))
                } else {
                    Ok(())
                }
            };
            only("cost", m.cost.is_some(), Method::KMember)?;
            only("engine", m.engine.is_some(), Method::Optimal)?;
            only("time_limit", m.time_limit.is_some(), Method::Optimal)?;
            let spec = MethodSpec {
                method,
                cost: m.cost.map_or(KMemberCost::Personalised, |c| c.0),
                engine: m.engine.map_or(Engine::Auto, |e| e.0),
                time_limit: duration(&format!("{key}.time_limit"), &m.time_limit)?.or(time_limit),
                forms: match m.forms {
                    Some(f) => f.into_iter().map(|f| f.0).collect(),
                    None => forms.clone(),
                },
                instances: m.instances,
            };
            if spec.forms.is_empty() || has_duplicates(&spec.forms) {
                return Err(bad(
                    &format!("{key}.forms"),
                    &"list each form once, at least one",
                ));
            }
            if let Some(unknown) = spec
                .instances
                .iter()
                .flatten()
                .find(|n| !instances.iter().any(|i| &i.name == *n))
            {
                return Err(bad(
                    &format!("{key}.instances"),
                    &format!("no instance is named '{unknown}'"),
                ));
            }
            if method == Method::Optimal && spec.time_limit.is_none() {
                return Err(bad(
                    &format!("{key}.time_limit"),
                    &"optimal runs need a time limit (here or at the top level)",
                ));
            }
            if methods.contains(&spec) {
                return Err(bad(&key, &"the same method is listed twice"));
            }
            methods.push(spec);
        }
        let criteria: Vec<Criterion> = match file.criteria {
            Some(c) => c.into_iter().map(|c| c.0).collect(),
            None => vec![Criterion::Dbil],
        };
        let seeds = file.seeds.unwrap_or_else(|| vec![0]);
        for (key, len) in [("criteria", criteria.len()), ("seeds", seeds.len())] {
            if len == 0 {
                return Err(bad(key, &"list at least one value"));
            }
        }
        if has_duplicates(&criteria) || has_duplicates(&seeds) {
            return Err(bad("criteria/seeds", &"a value is listed twice"));
        }
        for m in methods.iter().filter(|m| m.method == Method::Optimal) {
            for &c in &criteria {
                let engine = m.engine.resolve(c);
                if !engine.optimises(c) {
                    return Err(bad(
                        "criteria",
                        &format!(
                            "engine {} cannot optimise {} (colgen: dbil, wcsd, sse; lns: dbil, wcsd; cp: not sse; mip: not split or sse)",
                            engine.name(),
                            c.name()
                        ),
                    ));
                }
            }
        }
        let scale = file.scale.unwrap_or(crate::data::distance::DEFAULT_SCALE);
        if !(scale.is_finite() && scale > 0.0) {
            return Err(bad("scale", &format!("must be positive, got {scale}")));
        }
        Ok(Spec {
            path: path.to_path_buf(),
            text,
            description: file.description,
            instances,
            methods,
            criteria,
            seeds,
            scale,
        })
    }

    /// Input files the output folder must not contain.
    pub(crate) fn inputs(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = vec![&self.path];
        for i in &self.instances {
            v.push(&i.csv);
        }
        v
    }
}

fn has_duplicates<T: PartialEq>(v: &[T]) -> bool {
    v.iter().enumerate().any(|(i, x)| v[..i].contains(x))
}

/// Resolves one instance entry against the spec folder `base`.
fn instance(f: InstanceFile, base: &Path) -> Result<InstanceSpec> {
    let err = |field: &str, msg: &dyn std::fmt::Display| Error::Input(format!("{field}: {msg}"));
    let csv = base.join(&f.csv);
    if !csv.is_file() {
        return Err(err("csv", &format!("no such file {}", csv.display())));
    }
    let source = match (&f.schema, &f.qi) {
        (Some(s), None) => {
            let s = base.join(s);
            if !s.is_file() {
                return Err(err("schema", &format!("no such file {}", s.display())));
            }
            SchemaSource::File(s)
        }
        (None, Some(q)) => SchemaSource::QiList(q.clone()),
        _ => return Err(err("schema", &"give exactly one of schema and qi")),
    };
    let schema = match &source {
        SchemaSource::File(_) => Schema::load(&source)?,
        SchemaSource::QiList(_) => Schema::load(&source).map_err(|e| err("qi", &e))?,
    };
    let delimiter = f
        .delimiter
        .as_deref()
        .map(crate::data::table::parse_delimiter)
        .transpose()
        .map_err(|e| err("delimiter", &e))?;
    let sample = match (f.rows, f.sample.unwrap_or(SampleKind::First), f.sample_seed) {
        (None, _, None) if f.sample.is_none() => RowSample::All,
        (None, _, _) => return Err(err("rows", &"sample and sample_seed need rows")),
        (Some(n), SampleKind::First, None) => RowSample::First(n),
        (Some(_), SampleKind::First, Some(_)) => {
            return Err(err("sample_seed", &"applies to sample = \"random\" only"))
        }
        (Some(n), SampleKind::Random, seed) => RowSample::Random {
            n,
            seed: seed.unwrap_or(0),
        },
    };
    let given = [
        f.k.is_some(),
        f.k_column.is_some(),
        f.k_dist.is_some(),
        f.k_preset.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        return Err(err(
            "k",
            &"give exactly one of k, k_column, k_dist, k_preset",
        ));
    }
    if f.k_levels.is_some() && f.k_preset.is_none() {
        return Err(err("k_levels", &"applies to k_preset only"));
    }
    let choice = match (f.k, f.k_column, f.k_dist, f.k_preset) {
        (Some(k), ..) => KChoice::Uniform(
            crate::data::k_source::parse_k(&k.to_string()).map_err(|e| err("k", &e))?,
        ),
        (_, Some(c), ..) => KChoice::Column(c),
        (_, _, Some(d), _) => KChoice::Distribution(d),
        (.., Some(p)) => KChoice::Preset(p),
        _ => unreachable!("exactly one k source is given"),
    };
    let k_levels = match &f.k_levels {
        Some(l) => l.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
        None => crate::data::k_source::DEFAULT_LEVELS.to_string(),
    };
    let spec = InstanceSpec {
        name: f.name,
        csv,
        csv_given: f.csv,
        schema,
        delimiter,
        drop_missing: f.drop_missing,
        sample,
        k: KSettings {
            choice,
            levels: k_levels,
            seed: 0,
            assign: f.k_assign.map_or(KAssign::Random, |a| a.0),
            axes: match &f.k_axes {
                Some(a) => a.join(","),
                None => DEFAULT_AXES.to_string(),
            },
            axis_order: f.k_axis_order.unwrap_or_default(),
        },
    };
    // Parse the distribution now, so a bad one is reported before anything runs.
    let k_key = if spec.k.assign == KAssign::Correlated
        || spec.k.axes != DEFAULT_AXES
        || !spec.k.axis_order.is_empty()
    {
        "k_assign"
    } else if matches!(spec.k.choice, KChoice::Distribution(_)) {
        "k_dist"
    } else {
        "k_preset"
    };
    spec.k_source(0).map_err(|e| err(k_key, &e))?;
    Ok(spec)
}
