//! The independent check of the extra class constraints on a written release: groups the
//! released rows by their quasi-identifier text (as `optik check` does) and counts distinct
//! sensitive texts, group sizes and linked rows. It shares no code with the propagators, the
//! pricing or `ClassConstraints`: a bug there cannot hide here.

use crate::data::table::Table;
use crate::error::Result;
use crate::partition::constraints::Requested;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// l-diversity as found in the release.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct DiversityCheck {
    pub l: u32,
    pub sensitive: String,
    /// Fewest distinct sensitive values in a released group.
    pub min_distinct: usize,
    /// Released groups with fewer than l distinct values.
    pub groups_below: usize,
    pub holds: bool,
}

/// Links as found in the release.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct LinksCheck {
    pub file: Option<String>,
    pub must: usize,
    pub cannot: usize,
    /// Must-link pairs released in different groups.
    pub must_broken: usize,
    /// Cannot-link pairs released in the same group.
    pub cannot_broken: usize,
    pub holds: bool,
}

/// The maximum class size as found in the release.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct MaxSizeCheck {
    pub max: u32,
    /// Largest released group.
    pub largest_group: usize,
    pub holds: bool,
}

/// The extra constraints of a run and whether the release meets each (the report's
/// `constraints` entries).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ConstraintsCheck {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l_diversity: Option<DiversityCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<LinksCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_class_size: Option<MaxSizeCheck>,
    /// True when every requested constraint holds in the release.
    pub extra_hold: bool,
}

/// Checks the release against the requested constraints.
pub(crate) fn check(
    release: &Table,
    quasi: &[String],
    req: &Requested,
) -> Result<ConstraintsCheck> {
    let cols: Vec<usize> = quasi
        .iter()
        .map(|q| release.column(q))
        .collect::<Result<_>>()?;
    let mut group_id: HashMap<Vec<&str>, usize> = HashMap::new();
    let group: Vec<usize> = release
        .rows
        .iter()
        .map(|row| {
            let key: Vec<&str> = cols.iter().map(|&c| row[c].as_str()).collect();
            let next = group_id.len();
            *group_id.entry(key).or_insert(next)
        })
        .collect();
    let ngroups = group_id.len();
    let mut sizes = vec![0usize; ngroups];
    for &g in &group {
        sizes[g] += 1;
    }
    let l_diversity = match &req.diversity {
        None => None,
        Some((l, name)) => {
            let c = release.column(name)?;
            let mut values: Vec<HashSet<&str>> = vec![HashSet::new(); ngroups];
            for (row, &g) in release.rows.iter().zip(&group) {
                values[g].insert(row[c].as_str());
            }
            let min_distinct = values.iter().map(HashSet::len).min().unwrap_or(0);
            let groups_below = values.iter().filter(|v| v.len() < *l as usize).count();
            Some(DiversityCheck {
                l: *l,
                sensitive: name.clone(),
                min_distinct,
                groups_below,
                holds: groups_below == 0,
            })
        }
    };
    let links =
        (req.links_file.is_some() || !req.must.is_empty() || !req.cannot.is_empty()).then(|| {
            let same = |&(a, b): &(u32, u32)| group[a as usize] == group[b as usize];
            let must_broken = req.must.iter().filter(|p| !same(p)).count();
            let cannot_broken = req.cannot.iter().filter(|p| same(p)).count();
            LinksCheck {
                file: req.links_file.clone(),
                must: req.must.len(),
                cannot: req.cannot.len(),
                must_broken,
                cannot_broken,
                holds: must_broken == 0 && cannot_broken == 0,
            }
        });
    let max_class_size = req.max_size.map(|max| {
        let largest_group = sizes.iter().copied().max().unwrap_or(0);
        MaxSizeCheck {
            max,
            largest_group,
            holds: largest_group <= max as usize,
        }
    });
    let extra_hold = l_diversity.as_ref().is_none_or(|d| d.holds)
        && links.as_ref().is_none_or(|l| l.holds)
        && max_class_size.as_ref().is_none_or(|m| m.holds);
    Ok(ConstraintsCheck {
        l_diversity,
        links,
        max_class_size,
        extra_hold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[&[&str]]) -> Table {
        Table {
            path: "mem.csv".into(),
            delimiter: b',',
            headers: vec!["a".into(), "s".into()],
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
            lines: (2..2 + rows.len() as u64).collect(),
        }
    }

    #[test]
    fn counts_per_released_group() {
        let t = table(&[
            &["1", "x"],
            &["1", "y"],
            &["2", "x"],
            &["2", "x"],
            &["2", "z"],
        ]);
        let q = vec!["a".to_string()];
        let req = Requested {
            diversity: Some((2, "s".into())),
            must: vec![(0, 1), (1, 2)],
            cannot: vec![(2, 3)],
            max_size: Some(2),
            links_file: Some("l.csv".into()),
        };
        let c = check(&t, &q, &req).unwrap();
        let d = c.l_diversity.unwrap();
        assert_eq!((d.min_distinct, d.groups_below, d.holds), (2, 0, true));
        let l = c.links.unwrap();
        assert_eq!((l.must_broken, l.cannot_broken, l.holds), (1, 1, false));
        let m = c.max_class_size.unwrap();
        assert_eq!((m.largest_group, m.holds), (3, false));
        assert!(!c.extra_hold);
        let req = Requested {
            diversity: Some((3, "s".into())),
            ..Requested::default()
        };
        let c = check(&t, &q, &req).unwrap();
        assert_eq!(c.l_diversity.unwrap().groups_below, 2);
        assert!(!c.extra_hold);
    }
}
