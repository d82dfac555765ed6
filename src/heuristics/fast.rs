//! A flat copy of a [`RecordDistance`] for the heuristics' hot loops.
//!
//! The heuristics evaluate the record distance about n²/2 times on 30k rows. This copy stores
//! every categorical attribute's leaf × leaf distances in one contiguous table and, for the
//! scans "distance from one record to all others", resolves the fixed record's table rows once
//! ([`Fast::row`]). It is built only through `RecordDistance`'s public API (the encoding of a
//! record is its own centroid; a leaf distance is `d_point` between a record and a copy of it
//! with one code changed), and it adds the same terms in the same order as
//! [`RecordDistance::d`], so its values are bit-identical (checked in debug builds).

use crate::distance::{Point, RecordDistance};
use rayon::prelude::*;

/// The encoding of every record (coordinates and leaf codes): the centroid of the record alone.
pub(crate) fn encode(dist: &RecordDistance) -> Vec<Point> {
    (0..dist.len())
        .into_par_iter()
        .map(|i| dist.centroid(&[i]))
        .collect()
}

/// The distance the heuristics scan with: the flat copy when it could be built, else the
/// record distance itself.
pub(crate) enum Metric<'a> {
    Fast(Fast),
    Plain(&'a RecordDistance),
}

/// Distances from one fixed record or point.
pub(crate) enum From<'a> {
    Fast(Row<'a>),
    Record(&'a RecordDistance, usize),
    Point(&'a RecordDistance, &'a Point),
}

impl<'a> Metric<'a> {
    pub(crate) fn new(dist: &'a RecordDistance, points: &[Point]) -> Self {
        match Fast::new(dist, points) {
            Some(f) => Metric::Fast(f),
            None => Metric::Plain(dist),
        }
    }

    /// Distances from record `i`.
    pub(crate) fn row(&self, i: usize) -> From<'_> {
        match self {
            Metric::Fast(f) => From::Fast(f.row(i)),
            Metric::Plain(d) => From::Record(d, i),
        }
    }

    /// Distances from a point.
    pub(crate) fn point_row<'b>(&'b self, p: &'b Point) -> From<'b> {
        match self {
            Metric::Fast(f) => From::Fast(f.point_row(p)),
            Metric::Plain(d) => From::Point(d, p),
        }
    }
}

impl From<'_> {
    /// Distance to record `j`.
    #[inline]
    pub(crate) fn d(&self, j: usize) -> f64 {
        match self {
            From::Fast(r) => r.d(j),
            From::Record(d, i) => d.d(*i, j),
            From::Point(d, p) => d.d_point(p, j),
        }
    }
}

/// Attributes with more leaves than this are not tabulated: the copy is not built and the
/// heuristics fall back to [`RecordDistance`].
const MAX_LEAVES: usize = 2048;

/// The flat copy.
pub(crate) struct Fast {
    dims: usize,
    cats: usize,
    coords: Vec<f64>,
    codes: Vec<u32>,
    /// Start of each attribute's `L × L` table in `tables`, and its `L`.
    offset: Vec<usize>,
    leaves: Vec<usize>,
    tables: Vec<f64>,
}

/// Distances from one fixed record (or point) to any record.
pub(crate) struct Row<'a> {
    fast: &'a Fast,
    coords: &'a [f64],
    /// Start of the fixed record's row in each attribute table.
    rows: Vec<usize>,
}

impl Fast {
    /// Builds the copy from the records' encodings ([`encode`]); `None` when an attribute has
    /// too many leaves to tabulate.
    pub(crate) fn new(dist: &RecordDistance, points: &[Point]) -> Option<Fast> {
        let n = dist.len();
        let (dims, cats) = points
            .first()
            .map_or((0, 0), |p| (p.coords.len(), p.codes.len()));
        let mut coords = Vec::with_capacity(n * dims);
        let mut codes = Vec::with_capacity(n * cats);
        for p in points {
            coords.extend_from_slice(&p.coords);
            codes.extend_from_slice(&p.codes);
        }
        let mut offset = Vec::with_capacity(cats);
        let mut leaves = Vec::with_capacity(cats);
        let mut tables = Vec::new();
        for a in 0..cats {
            let l = (0..n)
                .map(|i| codes[i * cats + a] as usize + 1)
                .max()
                .unwrap_or(0);
            if l > MAX_LEAVES {
                return None;
            }
            // A record carrying each code.
            let mut rep = vec![usize::MAX; l];
            for i in (0..n).rev() {
                rep[codes[i * cats + a] as usize] = i;
            }
            offset.push(tables.len());
            leaves.push(l);
            for (x, &r) in rep.iter().enumerate() {
                for y in 0..l {
                    // Codes no record uses are never looked up; a leaf is at distance 0.
                    let v = if r == usize::MAX || x == y {
                        0.0
                    } else {
                        let mut p = points[r].clone();
                        p.codes[a] = y as u32;
                        dist.d_point(&p, r)
                    };
                    tables.push(v);
                }
            }
        }
        let fast = Fast {
            dims,
            cats,
            coords,
            codes,
            offset,
            leaves,
            tables,
        };
        debug_assert!((0..n.min(50)).all(|i| (0..n)
            .step_by(1 + n / 50)
            .all(|j| fast.d(i, j).to_bits() == dist.d(i, j).to_bits())));
        Some(fast)
    }

    /// Distance between records `i` and `j` (equal to `RecordDistance::d`).
    #[inline]
    pub(crate) fn d(&self, i: usize, j: usize) -> f64 {
        self.row(i).d(j)
    }

    /// Distances from record `i`.
    pub(crate) fn row(&self, i: usize) -> Row<'_> {
        let codes = &self.codes[i * self.cats..][..self.cats];
        Row {
            fast: self,
            coords: &self.coords[i * self.dims..][..self.dims],
            rows: (0..self.cats)
                .map(|a| self.offset[a] + codes[a] as usize * self.leaves[a])
                .collect(),
        }
    }

    /// Distances from a point (an MDAV centroid), equal to `RecordDistance::d_point`.
    pub(crate) fn point_row<'a>(&'a self, p: &'a Point) -> Row<'a> {
        Row {
            fast: self,
            coords: &p.coords,
            rows: (0..self.cats)
                .map(|a| self.offset[a] + p.codes[a] as usize * self.leaves[a])
                .collect(),
        }
    }
}

impl Row<'_> {
    /// Distance from the fixed record to record `j`.
    #[inline]
    pub(crate) fn d(&self, j: usize) -> f64 {
        let f = self.fast;
        let cj = &f.coords[j * f.dims..][..f.dims];
        let mut s = 0.0;
        for (a, b) in self.coords.iter().zip(cj) {
            s += (a - b).abs();
        }
        let kj = &f.codes[j * f.cats..][..f.cats];
        for (&r, &c) in self.rows.iter().zip(kj) {
            s += f.tables[r + c as usize];
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::testutil::{categorical, line};

    #[test]
    fn bit_identical_to_the_record_distance() {
        let (mut qi, _) = line(&[0.0, 3.0, 1.5, 7.25, 2.0, 9.0]);
        let (c, _) = categorical(
            &["a;x;*", "b;x;*", "c;y;*", "d;y;*"],
            &["a", "d", "b", "c", "a", "d"],
        );
        qi.attributes.extend(c.attributes);
        let dist = RecordDistance::new(&qi);
        let points = encode(&dist);
        let fast = Fast::new(&dist, &points).unwrap();
        for i in 0..6 {
            for j in 0..6 {
                assert_eq!(fast.d(i, j).to_bits(), dist.d(i, j).to_bits());
            }
        }
        let c = dist.centroid(&[0, 1, 3]);
        let row = fast.point_row(&c);
        for j in 0..6 {
            assert_eq!(row.d(j).to_bits(), dist.d_point(&c, j).to_bits());
        }
        assert_eq!(points[3], dist.centroid(&[3]));
    }
}
