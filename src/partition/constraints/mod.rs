//! Extra class constraints of the exact engines (l-diversity, must- and cannot-links, a
//! maximum class size): the options, turning them into the engines' `ClassConstraints` over the
//! dataset's records, and what the independent check of the release
//! (`release::check::constraints`) must verify. Heuristic methods refuse them.

pub(crate) mod links;

use crate::data::dataset::Dataset;
use crate::data::schema::Role;
use crate::data::table::is_missing;
use crate::error::{at_cell, input, Result};
use crate::settings::Setting;
use optik_models::{ClassConstraints, Diversity};
use std::collections::HashMap;
use std::path::PathBuf;

/// The extra class constraints asked for.
#[derive(Debug, Clone, Default)]
pub struct ClassConstraintOptions {
    /// Every class holds at least this many distinct values of `sensitive`.
    pub l_diversity: Option<u32>,
    /// Sensitive column of `l_diversity` (released, not a quasi-identifier).
    pub sensitive: Option<String>,
    /// CSV of `kind,a,b` lines, kind must or cannot, a and b 1-based data-row numbers (or values
    /// of `link_key`).
    pub links: Option<PathBuf>,
    /// Column whose values name the records of `links` (each value on one row).
    pub link_key: Option<String>,
    /// No class larger than this many records.
    pub max_class_size: Option<u32>,
}

/// What was requested (record indices = release rows).
#[derive(Clone, Debug, Default)]
pub struct Requested {
    /// (l, sensitive column name).
    pub diversity: Option<(u32, String)>,
    pub must: Vec<(u32, u32)>,
    pub cannot: Vec<(u32, u32)>,
    pub max_size: Option<u32>,
    /// The links file, for the report.
    pub links_file: Option<String>,
}

/// The constraints ready for an engine, and what the release check needs.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub model: ClassConstraints,
    pub requested: Requested,
}

impl ClassConstraintOptions {
    /// True when any extra constraint is asked for.
    pub fn any(&self) -> bool {
        self.l_diversity.is_some() || self.links.is_some() || self.max_class_size.is_some()
    }

    /// Files these options read (never to be overwritten).
    pub fn inputs(&self) -> Vec<&std::path::Path> {
        self.links.iter().map(PathBuf::as_path).collect()
    }

    /// Builds the constraints over the records of `ds`.
    pub fn load(&self, ds: &Dataset) -> Result<Loaded> {
        let mut out = Loaded::default();
        if let (Some(l), Some(name)) = (self.l_diversity, &self.sensitive) {
            if l == 0 {
                return Err(input(format!("{} must be at least 1", Setting::LDiversity)));
            }
            let c = ds.table.column(name)?;
            match ds.roles[c] {
                Some(Role::Quasi) => {
                    return Err(input(format!(
                        "{} {name} is a quasi-identifier; give a sensitive column",
                        Setting::Sensitive
                    )))
                }
                Some(Role::Sensitive | Role::Insensitive) => {}
                _ => {
                    return Err(input(format!(
                        "{} {name} is not released (an identifier or the k column), so its diversity cannot be shown",
                        Setting::Sensitive
                    )))
                }
            }
            let mut ids: HashMap<&str, u32> = HashMap::new();
            let mut values = Vec::with_capacity(ds.n());
            for &r in &ds.rows {
                let v = ds.table.rows[r][c].as_str();
                if is_missing(v) {
                    return Err(at_cell(
                        &ds.table.path,
                        ds.table.lines[r],
                        name,
                        format!("missing value in the {} column", Setting::Sensitive),
                    ));
                }
                let next = ids.len() as u32;
                values.push(*ids.entry(v).or_insert(next));
            }
            out.model.diversity = Some(Diversity { values, l });
            out.requested.diversity = Some((l, name.clone()));
        }
        if let Some(path) = &self.links {
            let l = links::read(path, ds, self.link_key.as_deref())?;
            out.model.must = l.must.clone();
            out.model.cannot = l.cannot.clone();
            out.requested.must = l.must;
            out.requested.cannot = l.cannot;
            out.requested.links_file = Some(path.display().to_string());
        }
        if let Some(m) = self.max_class_size {
            if m == 0 {
                return Err(input(format!(
                    "{} must be at least 1",
                    Setting::MaxClassSize
                )));
            }
            out.model.max_size = Some(m);
            out.requested.max_size = Some(m);
        }
        Ok(out)
    }
}
