//! Extra class constraints of `optik anonymise --method optimal`: the flags, turning them into
//! the exact engines' `ClassConstraints` over the dataset's records, and (in `check`) the
//! independent check of a written release. Heuristic methods refuse the flags.

pub mod links;
pub mod repair;

use crate::data::dataset::Dataset;
use crate::data::schema::Role;
use crate::data::table::is_missing;
use crate::error::{at_cell, input, Result};
use clap::Args;
use optik_models::{ClassConstraints, Diversity};
use std::collections::HashMap;
use std::path::PathBuf;

/// The extra constraint flags.
#[derive(Args, Debug, Clone, Default)]
pub struct ConstraintArgs {
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

/// The constraints ready for an engine, and what the release check needs.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub model: ClassConstraints,
    pub requested: crate::release::check::constraints::Requested,
}

impl ConstraintArgs {
    /// True when any extra constraint is asked for.
    pub fn any(&self) -> bool {
        self.l_diversity.is_some() || self.links.is_some() || self.max_class_size.is_some()
    }

    /// Files read by these flags (never to be overwritten).
    pub fn inputs(&self) -> Vec<&std::path::Path> {
        self.links.iter().map(PathBuf::as_path).collect()
    }

    /// Builds the constraints over the records of `ds`.
    pub fn load(&self, ds: &Dataset) -> Result<Loaded> {
        let mut out = Loaded::default();
        if let (Some(l), Some(name)) = (self.l_diversity, &self.sensitive) {
            if l == 0 {
                return Err(input("--l-diversity must be at least 1"));
            }
            let c = ds.table.column(name)?;
            match ds.roles[c] {
                Some(Role::Quasi) => {
                    return Err(input(format!(
                        "--sensitive {name} is a quasi-identifier; give a sensitive column"
                    )))
                }
                Some(Role::Sensitive | Role::Insensitive) => {}
                _ => {
                    return Err(input(format!(
                        "--sensitive {name} is not released (an identifier or the k column), so its diversity cannot be shown"
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
                        "missing value in the --sensitive column",
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
                return Err(input("--max-class-size must be at least 1"));
            }
            out.model.max_size = Some(m);
            out.requested.max_size = Some(m);
        }
        Ok(out)
    }
}
