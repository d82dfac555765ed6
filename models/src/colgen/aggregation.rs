//! Dynamic constraint aggregation (Elhallaoui, Villeneuve, Soumis & Desaulniers 2005; for exact
//! clustering, Sudoso & Aloise 2025): the master's cover rows of the records in one cluster are
//! merged into one row, and only *compatible* columns (unions of whole clusters) enter the LP.
//! The aggregated LP has far fewer rows than records, so it is far less degenerate; its row
//! duals are split over the clusters' records for pricing, and a priced column that cuts a
//! cluster splits that cluster (the aggregation refines until no column prices out). Pricing
//! stays exact over every column at the split duals, so a round that finds none certifies the
//! LP of the whole instance (the aggregated LP's solution is a feasible fractional partition
//! and its value is the split duals' Σπ). The master ([`super::master::Master`]) holds this
//! state while the root LP runs aggregated; the trial is `OPTIK_AGGREGATION` (docs/exact.md).

use super::column::Column;
use std::collections::HashMap;

/// The clusters, the split of their duals, and the columns the LP cannot hold yet.
#[derive(Debug)]
pub struct Aggregation {
    /// Cluster (= master row) of each record.
    cluster_of: Vec<u32>,
    /// Records of each cluster.
    clusters: Vec<Vec<u32>>,
    /// Each record's share weight within its cluster (the per-record bounds m_i).
    weights: Vec<f64>,
    /// Incompatible columns priced since the last refinement, in the order they came.
    pub(super) pending: Vec<Column>,
    /// Incompatible columns known but not in the LP, by members.
    pub(super) deferred: HashMap<Vec<u32>, Column>,
    /// A refinement splits by the pending columns that cut at most this many clusters.
    max_degree: usize,
    /// Refinements so far.
    pub(super) refinements: u64,
}

/// Largest deferred pool, per record (oldest dropped past it: pricing finds them again).
const DEFERRED_PER_RECORD: usize = 20;

impl Aggregation {
    /// Clusters `clusters` (a partition of `0..n`), dual shares by `weights` (≥ 0; equal shares
    /// where a cluster's weights sum to 0).
    pub fn new(n: usize, clusters: Vec<Vec<u32>>, weights: Vec<f64>, max_degree: usize) -> Self {
        let mut cluster_of = vec![u32::MAX; n];
        for (c, members) in clusters.iter().enumerate() {
            for &i in members {
                assert_eq!(cluster_of[i as usize], u32::MAX, "clusters overlap");
                cluster_of[i as usize] = c as u32;
            }
        }
        assert!(cluster_of.iter().all(|&c| c != u32::MAX), "clusters cover");
        assert_eq!(weights.len(), n, "one weight per record");
        Aggregation {
            cluster_of,
            clusters,
            weights,
            pending: Vec::new(),
            deferred: HashMap::new(),
            max_degree,
            refinements: 0,
        }
    }

    /// Number of clusters (the master's cover rows).
    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    /// True when there is no cluster (no record).
    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// Size of cluster `c`.
    pub fn size(&self, c: usize) -> usize {
        self.clusters[c].len()
    }

    /// The clusters a column with these (sorted) members covers, each once, when it covers
    /// each of them whole (`None`: it is incompatible).
    pub fn rows_of(&self, members: &[u32]) -> Option<Vec<usize>> {
        let mut count: HashMap<u32, usize> = HashMap::new();
        for &i in members {
            *count.entry(self.cluster_of[i as usize]).or_default() += 1;
        }
        let mut rows: Vec<usize> = Vec::with_capacity(count.len());
        for (&c, &m) in &count {
            if m != self.clusters[c as usize].len() {
                return None;
            }
            rows.push(c as usize);
        }
        rows.sort_unstable();
        Some(rows)
    }

    /// How many clusters the column cuts (0: compatible).
    pub fn degree(&self, members: &[u32]) -> usize {
        let mut count: HashMap<u32, usize> = HashMap::new();
        for &i in members {
            *count.entry(self.cluster_of[i as usize]).or_default() += 1;
        }
        count
            .iter()
            .filter(|&(&c, &m)| m != self.clusters[c as usize].len())
            .count()
    }

    /// Splits every cluster `members` cuts into its part inside and its part outside.
    fn split_by(&mut self, members: &[u32]) {
        let mut inside: HashMap<u32, Vec<u32>> = HashMap::new();
        for &i in members {
            inside
                .entry(self.cluster_of[i as usize])
                .or_default()
                .push(i);
        }
        let mut cut: Vec<(u32, Vec<u32>)> = inside
            .into_iter()
            .filter(|(c, part)| part.len() != self.clusters[*c as usize].len())
            .collect();
        cut.sort_unstable();
        for (c, part) in cut {
            let new = self.clusters.len() as u32;
            for &i in &part {
                self.cluster_of[i as usize] = new;
            }
            self.clusters[c as usize].retain(|i| !part.contains(i));
            self.clusters.push(part);
        }
    }

    /// Refines by the pending columns: the first (best) always, and every other that cuts at
    /// most `max_degree` clusters; the rest are deferred. Returns the columns that are
    /// compatible now (the refining ones and deferred columns the new clusters admit).
    pub fn refine(&mut self, n: usize) -> Vec<Column> {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return Vec::new();
        }
        self.refinements += 1;
        let mut enter = Vec::new();
        for (p, col) in pending.into_iter().enumerate() {
            let degree = self.degree(&col.members);
            if degree == 0 || p == 0 || degree <= self.max_degree {
                self.split_by(&col.members);
                enter.push(col);
            } else {
                self.defer(col, n);
            }
        }
        let now: Vec<Vec<u32>> = self
            .deferred
            .keys()
            .filter(|m| self.rows_of(m).is_some())
            .cloned()
            .collect();
        for m in now {
            if let Some(col) = self.deferred.remove(&m) {
                enter.push(col);
            }
        }
        enter
    }

    /// Keeps an incompatible column for later (bounded pool).
    pub fn defer(&mut self, col: Column, n: usize) {
        if self.deferred.len() >= DEFERRED_PER_RECORD * n.max(1) {
            // Drop the dearest: it is the least likely to be needed.
            if let Some(worst) = self
                .deferred
                .iter()
                .max_by(|a, b| a.1.cost.cmp(&b.1.cost).then(a.0.cmp(b.0)))
                .map(|(m, _)| m.clone())
            {
                self.deferred.remove(&worst);
            }
        }
        self.deferred.insert(col.members.clone(), col);
    }

    /// Record duals from the clusters' row duals `alpha`: cluster c's dual split over its
    /// records in proportion to their weights (equally where they sum to 0), so Σπ = Σα and
    /// every compatible column's reduced cost is the same at π as in the aggregated LP.
    pub fn split_duals(&self, alpha: &[f64]) -> Vec<f64> {
        let mut pi = vec![0.0; self.cluster_of.len()];
        for (c, members) in self.clusters.iter().enumerate() {
            let total: f64 = members.iter().map(|&i| self.weights[i as usize]).sum();
            for &i in members {
                pi[i as usize] = if total > 0.0 {
                    alpha[c] * self.weights[i as usize] / total
                } else {
                    alpha[c] / members.len() as f64
                };
            }
        }
        pi
    }

    /// Every column not in the LP (pending and deferred), for the master of every record.
    pub fn into_columns(self) -> Vec<Column> {
        let mut all = self.pending;
        let mut rest: Vec<Column> = self.deferred.into_values().collect();
        rest.sort_unstable();
        all.extend(rest);
        all
    }
}

/// The coarsest clusters every one of `columns` is compatible with (records grouped by the set
/// of columns they lie in): how far a master whose solution uses these columns can be
/// aggregated (Elhallaoui et al.'s re-aggregation from the LP's positive columns).
pub fn atoms(n: usize, columns: &[&[u32]]) -> Vec<Vec<u32>> {
    let mut signature: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (c, members) in columns.iter().enumerate() {
        for &i in *members {
            signature[i as usize].push(c as u32);
        }
    }
    let mut by_signature: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
    for (i, sig) in signature.into_iter().enumerate() {
        by_signature.entry(sig).or_default().push(i as u32);
    }
    let mut out: Vec<Vec<u32>> = by_signature.into_values().collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(members: &[u32]) -> Column {
        Column {
            members: members.to_vec(),
            cost: members.len() as i64,
        }
    }

    #[test]
    fn compatible_columns_are_unions_of_whole_clusters() {
        let a = Aggregation::new(6, vec![vec![0, 1, 2], vec![3, 4], vec![5]], vec![1.0; 6], 1);
        assert_eq!(a.rows_of(&[0, 1, 2, 5]), Some(vec![0, 2]));
        assert_eq!(a.rows_of(&[0, 1]), None);
        assert_eq!(a.degree(&[0, 1, 3]), 2);
        assert_eq!(a.degree(&[3, 4, 5]), 0);
    }

    #[test]
    fn refining_splits_the_cut_clusters_and_admits_deferred_columns() {
        let mut a = Aggregation::new(6, vec![vec![0, 1, 2], vec![3, 4, 5]], vec![1.0; 6], 1);
        // Cuts both clusters: deferred unless it comes first.
        a.defer(col(&[2, 3]), 6);
        a.pending = vec![col(&[0, 1]), col(&[1, 2, 3])];
        let entered = a.refine(6);
        // [0, 1] splits {0, 1, 2}; [1, 2, 3] cuts {0, 1} and {3, 4, 5}: degree 2 > 1, deferred.
        assert_eq!(entered, vec![col(&[0, 1])]);
        assert_eq!(a.len(), 3);
        assert!(a.deferred.contains_key(&vec![1, 2, 3]));
        a.pending = vec![col(&[3])];
        let entered = a.refine(6);
        // {3} alone now: the deferred [2, 3] enters too; [1, 2, 3] still cuts {0, 1}.
        assert_eq!(entered, vec![col(&[3]), col(&[2, 3])]);
        assert_eq!(a.rows_of(&[2, 3]).map(|r| r.len()), Some(2));
        assert!(a.rows_of(&[1, 2, 3]).is_none());
    }

    #[test]
    fn atoms_group_records_by_the_columns_they_lie_in() {
        let a: &[u32] = &[0, 1, 2];
        let b: &[u32] = &[1, 2, 3];
        assert_eq!(
            atoms(5, &[a, b]),
            vec![vec![0], vec![1, 2], vec![3], vec![4]]
        );
    }

    #[test]
    fn split_duals_keep_each_clusters_sum() {
        let a = Aggregation::new(4, vec![vec![0, 1], vec![2, 3]], vec![1.0, 3.0, 0.0, 0.0], 1);
        let pi = a.split_duals(&[8.0, 5.0]);
        assert_eq!(pi, vec![2.0, 6.0, 2.5, 2.5]);
    }
}
