//! The record distance (seed 001 §5.3.2), fast enough to compute on the fly for 30k records,
//! and the full matrices the exact solvers need on small tables.

use crate::data::qi::{QiTable, Values};
use optik_models::Instance;

/// Default integer scale of the exact solvers' matrix: distances are rounded to 1/1000 of a unit.
pub const DEFAULT_SCALE: f64 = 1000.0;

/// Categorical attributes with more leaves than this compare hierarchy paths instead of
/// looking up a precomputed leaf × leaf table.
const MAX_TABLE_LEAVES: usize = 2048;

/// Leaf-to-leaf distance of a categorical attribute with too many leaves to tabulate:
/// ancestor ids per level, compared from the leaf up.
#[derive(Clone, Debug)]
struct LeafPaths {
    paths: Vec<Vec<u32>>,
    step: f64,
}

impl LeafPaths {
    fn get(&self, a: u32, b: u32) -> f64 {
        let (pa, pb) = (&self.paths[a as usize], &self.paths[b as usize]);
        (0..pa.len())
            .find(|&l| pa[l] == pb[l])
            .unwrap_or(pa.len() - 1) as f64
            * self.step
    }
}

/// The weighted Manhattan record distance over quasi-identifiers, on encoded records:
/// numeric and ordinal values as weighted normalised coordinates, categorical values as leaf
/// codes with a per-attribute leaf × leaf table (weighted), all in flat arrays because the
/// heuristics evaluate it about n²/2 times on 30k rows.
#[derive(Clone, Debug)]
pub struct RecordDistance {
    n: usize,
    dims: usize,
    coords: Vec<f64>,
    cats: usize,
    codes: Vec<u32>,
    /// Start of each categorical attribute's L × L table in `tables`, and its L.
    offset: Vec<usize>,
    leaves: Vec<usize>,
    tables: Vec<f64>,
    /// Attributes too large to tabulate (their `leaves` entry is 0), by attribute index.
    paths: Vec<Option<LeafPaths>>,
    all_tabulated: bool,
}

/// A point in the encoded space that need not be a record (an MDAV centroid).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Point {
    pub(crate) coords: Vec<f64>,
    pub(crate) codes: Vec<u32>,
}

/// Distances from one fixed record or point to any record: the fixed side's table rows are
/// resolved once, so a scan over all records costs one lookup per attribute and record.
pub(crate) struct Row<'a> {
    dist: &'a RecordDistance,
    coords: &'a [f64],
    codes: &'a [u32],
    rows: Vec<usize>,
}

impl Row<'_> {
    /// Distance from the fixed record or point to record `j`.
    #[inline]
    pub(crate) fn d(&self, j: usize) -> f64 {
        let f = self.dist;
        let cj = &f.coords[j * f.dims..][..f.dims];
        let mut s = 0.0;
        for (a, b) in self.coords.iter().zip(cj) {
            s += (a - b).abs();
        }
        let kj = &f.codes[j * f.cats..][..f.cats];
        if f.all_tabulated {
            for (&r, &c) in self.rows.iter().zip(kj) {
                s += f.tables[r + c as usize];
            }
        } else {
            for (a, (&r, &c)) in self.rows.iter().zip(kj).enumerate() {
                s += match &f.paths[a] {
                    None => f.tables[r + c as usize],
                    Some(p) => p.get(self.codes[a], c),
                };
            }
        }
        s
    }
}

impl RecordDistance {
    /// Encodes the quasi-identifiers of a table.
    pub(crate) fn new(qi: &QiTable) -> Self {
        let n = qi.n;
        let mut coord_cols: Vec<Vec<f64>> = Vec::new();
        let mut code_cols: Vec<&[u32]> = Vec::new();
        let (mut offset, mut leaves, mut tables, mut paths) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for a in &qi.attributes {
            match &a.values {
                Values::Numeric { values, min, max } => {
                    let range = max - min;
                    coord_cols.push(
                        values
                            .iter()
                            .map(|v| {
                                if range > 0.0 {
                                    a.weight * (v - min) / range
                                } else {
                                    0.0
                                }
                            })
                            .collect(),
                    );
                }
                Values::Ordinal { ranks, levels } => {
                    let steps = (levels.len() - 1) as f64;
                    coord_cols.push(ranks.iter().map(|&r| a.weight * r as f64 / steps).collect());
                }
                Values::Categorical {
                    leaves: codes,
                    hierarchy,
                    ..
                } => {
                    let l = hierarchy.num_leaves();
                    let step = a.weight / hierarchy.height() as f64;
                    offset.push(tables.len());
                    if l <= MAX_TABLE_LEAVES {
                        for x in 0..l {
                            for y in 0..l {
                                tables.push(hierarchy.lca_level(x as u32, y as u32) as f64 * step);
                            }
                        }
                        leaves.push(l);
                        paths.push(None);
                    } else {
                        let p = (0..l as u32)
                            .map(|x| {
                                (0..=hierarchy.height())
                                    .map(|lv| hierarchy.ancestor(x, lv))
                                    .collect()
                            })
                            .collect();
                        leaves.push(0);
                        paths.push(Some(LeafPaths { paths: p, step }));
                    }
                    code_cols.push(codes);
                }
            }
        }
        let dims = coord_cols.len();
        let cats = code_cols.len();
        let mut coords = Vec::with_capacity(n * dims);
        let mut codes = Vec::with_capacity(n * cats);
        for i in 0..n {
            coords.extend(coord_cols.iter().map(|c| c[i]));
            codes.extend(code_cols.iter().map(|c| c[i]));
        }
        let all_tabulated = paths.iter().all(Option::is_none);
        RecordDistance {
            n,
            dims,
            coords,
            cats,
            codes,
            offset,
            leaves,
            tables,
            paths,
            all_tabulated,
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no records.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn row_with<'a>(&'a self, coords: &'a [f64], codes: &'a [u32]) -> Row<'a> {
        Row {
            dist: self,
            coords,
            codes,
            rows: (0..self.cats)
                .map(|a| self.offset[a] + codes[a] as usize * self.leaves[a])
                .collect(),
        }
    }

    /// Distances from record `i` (for scans over many records).
    pub(crate) fn row(&self, i: usize) -> Row<'_> {
        self.row_with(
            &self.coords[i * self.dims..][..self.dims],
            &self.codes[i * self.cats..][..self.cats],
        )
    }

    /// Distances from a point (for scans over many records).
    pub(crate) fn point_row<'a>(&'a self, p: &'a Point) -> Row<'a> {
        self.row_with(&p.coords, &p.codes)
    }

    /// Distance between records `i` and `j` (no allocation: the hot path of the metrics).
    #[inline]
    pub fn d(&self, i: usize, j: usize) -> f64 {
        let (ci, cj) = (
            &self.coords[i * self.dims..][..self.dims],
            &self.coords[j * self.dims..][..self.dims],
        );
        let mut s = 0.0;
        for (a, b) in ci.iter().zip(cj) {
            s += (a - b).abs();
        }
        let (ki, kj) = (
            &self.codes[i * self.cats..][..self.cats],
            &self.codes[j * self.cats..][..self.cats],
        );
        for (a, (&x, &y)) in ki.iter().zip(kj).enumerate() {
            s += match &self.paths[a] {
                None => self.tables[self.offset[a] + x as usize * self.leaves[a] + y as usize],
                Some(p) => p.get(x, y),
            };
        }
        s
    }

    /// Distance between a point and record `i` (the heuristics scan with [`Self::point_row`]).
    #[cfg(test)]
    pub(crate) fn d_point(&self, p: &Point, i: usize) -> f64 {
        self.point_row(p).d(i)
    }

    /// Number of numeric and ordinal coordinates.
    pub(crate) fn dims(&self) -> usize {
        self.dims
    }

    /// Weighted normalised coordinate `dim` of record `i`: |x_i − x_j| ≤ d(i, j) for every pair.
    pub(crate) fn coordinate(&self, i: usize, dim: usize) -> f64 {
        self.coords[i * self.dims + dim]
    }

    /// The encoding of record `i` as a point.
    pub(crate) fn point(&self, i: usize) -> Point {
        Point {
            coords: self.coords[i * self.dims..][..self.dims].to_vec(),
            codes: self.codes[i * self.cats..][..self.cats].to_vec(),
        }
    }

    /// The centroid of some records: mean of each coordinate, most frequent code of each
    /// categorical attribute (ties to the smallest code), as in MDAV for mixed data. MDAV keeps
    /// its centroid incrementally; this is the reference its tests compare with.
    #[cfg(test)]
    pub(crate) fn centroid(&self, members: &[usize]) -> Point {
        let mut coords = vec![0.0; self.dims];
        for &i in members {
            for (c, x) in coords
                .iter_mut()
                .zip(&self.coords[i * self.dims..][..self.dims])
            {
                *c += x;
            }
        }
        if !members.is_empty() {
            for c in &mut coords {
                *c /= members.len() as f64;
            }
        }
        let mut codes = Vec::with_capacity(self.cats);
        let mut counts: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for a in 0..self.cats {
            counts.clear();
            for &i in members {
                *counts.entry(self.codes[i * self.cats + a]).or_default() += 1;
            }
            let mode = counts
                .iter()
                .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0)))
                .map_or(0, |(&code, _)| code);
            codes.push(mode);
        }
        Point { coords, codes }
    }

    /// Full n × n matrix (for small tables only: n² entries).
    pub fn matrix(&self) -> Vec<Vec<f64>> {
        (0..self.n)
            .map(|i| {
                let r = self.row(i);
                (0..self.n).map(|j| r.d(j)).collect()
            })
            .collect()
    }

    /// The exact solvers' instance: the matrix scaled by `scale` and rounded to integers.
    pub fn instance(&self, k: Vec<u32>, scale: f64) -> Result<Instance, String> {
        Instance::from_distance(scale, k, |i, j| self.d(i, j)).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::fixtures::{qi, quasi, table};
    use crate::data::schema::Kind;

    /// age numeric (range 40), severity ordinal (3 levels, weight 2), sex flat categorical.
    fn sample() -> QiTable {
        let t = table(&[
            &["age", "sev", "sex"],
            &["20", "low", "F"],
            &["30", "high", "F"],
            &["60", "mid", "M"],
        ]);
        qi(
            &t,
            &[
                quasi("age", Kind::Numeric, 1.0),
                quasi(
                    "sev",
                    Kind::Ordinal {
                        levels: vec!["low".into(), "mid".into(), "high".into()],
                    },
                    2.0,
                ),
                quasi("sex", Kind::Categorical { hierarchy: None }, 1.0),
            ],
        )
    }

    #[test]
    fn hand_computed_distances() {
        let q = sample();
        let d = RecordDistance::new(&q);
        // d(0,1) = 10/40 + 2·(2/2) + 0 = 2.25
        assert!((d.d(0, 1) - 2.25).abs() < 1e-12);
        // d(0,2) = 40/40 + 2·(1/2) + 1 = 3
        assert!((d.d(0, 2) - 3.0).abs() < 1e-12);
        // d(1,2) = 30/40 + 2·(1/2) + 1 = 2.75
        assert!((d.d(1, 2) - 2.75).abs() < 1e-12);
        for i in 0..3 {
            assert_eq!(d.d(i, i), 0.0);
            for j in 0..3 {
                assert!(
                    (d.d(i, j) - q.distance(i, j)).abs() < 1e-12,
                    "fast == reference"
                );
            }
        }
        assert_eq!(q.max_distance(), 4.0);
    }

    #[test]
    fn hierarchy_distance_is_lca_height_over_tree_height() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("h.csv");
        std::fs::write(
            &h,
            "Private;Non-Gov;*\nSelf;Non-Gov;*\nState;Gov;*\nLocal;Gov;*\n",
        )
        .unwrap();
        let t = table(&[&["w"], &["State"], &["Local"], &["Private"]]);
        let q = qi(
            &t,
            &[quasi("w", Kind::Categorical { hierarchy: Some(h) }, 1.0)],
        );
        let d = RecordDistance::new(&q);
        assert!((d.d(0, 1) - 0.5).abs() < 1e-12);
        assert!((d.d(0, 2) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn untabulated_hierarchies_give_the_same_distances() {
        // 3000 leaves: above the table limit, compared by paths instead.
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("h.csv");
        let text: String = (0..3000).map(|i| format!("v{i};g{};*\n", i % 7)).collect();
        std::fs::write(&h, text).unwrap();
        let t = table(&[
            &["w", "x"],
            &["v1", "1"],
            &["v8", "2"],
            &["v2", "3"],
            &["v1", "9"],
        ]);
        let q = qi(
            &t,
            &[
                quasi("w", Kind::Categorical { hierarchy: Some(h) }, 1.0),
                quasi("x", Kind::Numeric, 1.0),
            ],
        );
        let d = RecordDistance::new(&q);
        for i in 0..4 {
            for j in 0..4 {
                assert!((d.d(i, j) - q.distance(i, j)).abs() < 1e-12);
            }
        }
        assert!(
            (d.d(0, 1) - (0.5 + 1.0 / 8.0)).abs() < 1e-12,
            "same group, one level up"
        );
    }

    #[test]
    fn centroid_and_scaled_instance() {
        let q = sample();
        let d = RecordDistance::new(&q);
        let c = d.centroid(&[0, 1, 2]);
        // mean normalised age (0 + 0.25 + 1)/3, weighted ordinal mean (0 + 2 + 1)/3, mode sex F
        assert!((c.coords[0] - 1.25 / 3.0).abs() < 1e-12);
        assert!((c.coords[1] - 1.0).abs() < 1e-12);
        assert!((d.d_point(&c, 0) - (1.25 / 3.0 + 1.0)).abs() < 1e-12);
        let inst = d.instance(vec![1, 1, 1], DEFAULT_SCALE).unwrap();
        assert_eq!(inst.d(0, 1), 2250);
        assert_eq!(inst.d(1, 2), 2750);
    }
}
