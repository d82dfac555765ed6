//! The release: input row order, identifiers and the k column dropped, each quasi-identifier
//! replaced by its class's generalisation, or (centroid releases, what microaggregation
//! publishes) each numeric quasi-identifier by its class mean.

use crate::data::dataset::Dataset;
use crate::data::qi::{QiAttribute, Values};
use crate::data::schema::Role;
use crate::Partition;

/// The released table, in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Release {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Names of the released quasi-identifier columns.
    pub quasi: Vec<String>,
}

/// How a class's quasi-identifiers are released.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReleaseStyle {
    /// Numeric `[min-max]`, ordinal `[low-high]`, categorical the hierarchy's common ancestor.
    #[default]
    Generalised,
    /// Numeric quasi-identifiers become the class mean (sdcMicro's `microaggregation()`
    /// output); ordinal and categorical ones are generalised as above.
    Centroid,
}

impl ReleaseStyle {
    /// Every style.
    pub const ALL: [ReleaseStyle; 2] = [ReleaseStyle::Generalised, ReleaseStyle::Centroid];

    /// Name as written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            ReleaseStyle::Generalised => "generalised",
            ReleaseStyle::Centroid => "centroid",
        }
    }
}

/// The class mean of a numeric attribute as released text: the written value when every member
/// has the same one, else the mean rounded to 6 decimals without trailing zeros. Every member of
/// a class gets the same text, so the independent check sees the class (or a union of classes
/// whose means print alike) as one group.
pub(crate) fn centroid(attr: &QiAttribute, members: &[usize]) -> Option<String> {
    let Values::Numeric { values, .. } = &attr.values else {
        return None;
    };
    let first = values[members[0]];
    if members.iter().all(|&i| values[i] == first) {
        return Some(attr.raw[members[0]].clone());
    }
    let mean = members.iter().map(|&i| values[i]).sum::<f64>() / members.len() as f64;
    let text = format!("{mean:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    Some(if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    })
}

/// Generalisation of one attribute over a class (seed 001 §5.4, local recoding):
/// numeric `[min-max]`, ordinal `[low-high]`, categorical the LCA label; the value itself
/// when every member has the same value.
pub(crate) fn generalise(attr: &QiAttribute, members: &[usize]) -> String {
    match &attr.values {
        Values::Numeric { values, .. } => {
            let lo = *members
                .iter()
                .min_by(|&&a, &&b| values[a].total_cmp(&values[b]).then(a.cmp(&b)))
                .expect("classes are not empty");
            let hi = *members
                .iter()
                .max_by(|&&a, &&b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))
                .expect("classes are not empty");
            if values[lo] == values[hi] {
                attr.raw[lo].clone()
            } else {
                format!("[{}-{}]", attr.raw[lo], attr.raw[hi])
            }
        }
        Values::Ordinal { ranks, levels } => {
            let lo = members
                .iter()
                .map(|&i| ranks[i])
                .min()
                .expect("classes are not empty");
            let hi = members
                .iter()
                .map(|&i| ranks[i])
                .max()
                .expect("classes are not empty");
            if lo == hi {
                levels[lo as usize].clone()
            } else {
                format!("[{}-{}]", levels[lo as usize], levels[hi as usize])
            }
        }
        Values::Categorical {
            leaves, hierarchy, ..
        } => {
            let level = hierarchy.lca_level_of(members.iter().map(|&i| leaves[i]));
            hierarchy
                .ancestor_label(leaves[members[0]], level)
                .to_string()
        }
    }
}

/// Builds the release of a dataset under a partition in a style; `class_column` adds the class
/// id.
pub(crate) fn build(
    ds: &Dataset,
    p: &Partition,
    class_column: Option<&str>,
    style: ReleaseStyle,
) -> Release {
    assert_eq!(p.len(), ds.n(), "one class per record");
    let classes = p.classes();
    // generalised[a][class] = released text of attribute a for that class
    let generalised: Vec<Vec<String>> = ds
        .qi
        .attributes
        .iter()
        .map(|a| {
            classes
                .iter()
                .map(|m| match style {
                    ReleaseStyle::Centroid => centroid(a, m).unwrap_or_else(|| generalise(a, m)),
                    ReleaseStyle::Generalised => generalise(a, m),
                })
                .collect()
        })
        .collect();
    let qi_of_column: Vec<Option<usize>> = (0..ds.table.headers.len())
        .map(|c| ds.qi.attributes.iter().position(|a| a.column == c))
        .collect();
    let released: Vec<usize> = (0..ds.table.headers.len())
        .filter(|&c| {
            matches!(
                ds.roles[c],
                Some(Role::Quasi | Role::Sensitive | Role::Insensitive)
            )
        })
        .collect();
    let mut headers: Vec<String> = released
        .iter()
        .map(|&c| ds.table.headers[c].clone())
        .collect();
    if let Some(name) = class_column {
        headers.push(name.to_string());
    }
    let rows = ds
        .rows
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let mut row: Vec<String> = released
                .iter()
                .map(|&c| match qi_of_column[c] {
                    Some(a) => generalised[a][p.class_of(i)].clone(),
                    None => ds.table.rows[r][c].clone(),
                })
                .collect();
            if class_column.is_some() {
                row.push(p.class_of(i).to_string());
            }
            row
        })
        .collect();
    Release {
        headers,
        rows,
        quasi: ds.qi.attributes.iter().map(|a| a.name.clone()).collect(),
    }
}

impl Release {
    /// Serialises as CSV with the given delimiter.
    pub fn to_csv(&self, delimiter: u8) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .delimiter(delimiter)
            .from_writer(Vec::new());
        w.write_record(&self.headers).expect("writing to memory");
        for row in &self.rows {
            w.write_record(row).expect("writing to memory");
        }
        w.into_inner().expect("writing to memory")
    }

    /// The release as a table in memory (named `label`, data on lines 2, 3, ...), for the
    /// independent check when no file is written (`optik bench`).
    pub fn to_table(&self, label: &str, delimiter: u8) -> crate::data::table::Table {
        crate::data::table::Table {
            path: label.into(),
            delimiter,
            headers: self.headers.clone(),
            rows: self.rows.clone(),
            lines: (2..2 + self.rows.len() as u64).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::fixtures::{qi, quasi, table};
    use crate::data::schema::Kind;

    #[test]
    fn generalisations_per_kind() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("h.csv");
        std::fs::write(
            &h,
            "14025;1402*;14***;*\n14020;1402*;14***;*\n14110;1411*;14***;*\n",
        )
        .unwrap();
        let t = table(&[
            &["age", "sev", "zip", "sex"],
            &["25", "low", "14025", "F"],
            &["35.0", "high", "14020", "F"],
            &["30", "low", "14110", "M"],
        ]);
        let q = qi(
            &t,
            &[
                quasi("age", Kind::Numeric, 1.0),
                quasi(
                    "sev",
                    Kind::Ordinal {
                        levels: vec!["low".into(), "mid".into(), "high".into()],
                    },
                    1.0,
                ),
                quasi("zip", Kind::Categorical { hierarchy: Some(h) }, 1.0),
                quasi("sex", Kind::Categorical { hierarchy: None }, 1.0),
            ],
        );
        let a = &q.attributes;
        assert_eq!(
            generalise(&a[0], &[0, 1, 2]),
            "[25-35.0]",
            "numeric keeps the written text"
        );
        assert_eq!(generalise(&a[0], &[2]), "30");
        assert_eq!(generalise(&a[1], &[0, 1]), "[low-high]");
        assert_eq!(generalise(&a[1], &[0, 2]), "low");
        assert_eq!(generalise(&a[2], &[0, 1]), "1402*");
        assert_eq!(generalise(&a[2], &[0, 2]), "14***");
        assert_eq!(generalise(&a[2], &[1]), "14020");
        assert_eq!(generalise(&a[3], &[0, 1]), "F");
        assert_eq!(generalise(&a[3], &[0, 2]), "*");
        // Centroids: numeric only, the mean, or the written value when all agree.
        assert_eq!(centroid(&a[0], &[0, 1, 2]).as_deref(), Some("30"));
        assert_eq!(centroid(&a[0], &[0, 2]).as_deref(), Some("27.5"));
        assert_eq!(centroid(&a[0], &[1]).as_deref(), Some("35.0"));
        assert_eq!(centroid(&a[1], &[0, 1]), None);
    }
}
