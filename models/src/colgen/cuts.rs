//! Separation of subset-row cuts on record triples: in an integer partition at most one class
//! holds two of any three records, so Σ_{C: |C∩t| ≥ 2} x_C ≤ 1. Fractional master solutions
//! often violate it; the cuts close most of the LP–integer gap and shrink the proof enumeration.

use super::column::Column;
use std::collections::{HashMap, HashSet};

/// Violated triples of the LP solution `x` over `columns`, most violated first (ties by triple),
/// at most `limit`, excluding triples in `existing`. Only triples whose pairs both lie in some
/// fractional column are candidates: elsewhere the left-hand side is at most 1.
pub fn separate(
    columns: &[Column],
    x: &[f64],
    existing: &HashSet<[u32; 3]>,
    min_violation: f64,
    limit: usize,
) -> Vec<([u32; 3], f64)> {
    const EPS: f64 = 1e-6;
    let support: Vec<(usize, f64)> = x
        .iter()
        .enumerate()
        .filter(|(_, &v)| v > EPS)
        .map(|(c, &v)| (c, v))
        .collect();
    // Columns holding each record, among fractional columns of the support.
    let mut by_record: HashMap<u32, Vec<usize>> = HashMap::new();
    for &(c, v) in &support {
        if v < 1.0 - EPS {
            for &r in &columns[c].members {
                by_record.entry(r).or_default().push(c);
            }
        }
    }
    let value: HashMap<usize, f64> = support.iter().copied().collect();
    let mut candidates: HashSet<[u32; 3]> = HashSet::new();
    let mut sorted_records: Vec<&u32> = by_record.keys().collect();
    sorted_records.sort_unstable();
    for &a in sorted_records {
        let cols = &by_record[&a];
        // two distinct fractional columns containing a: pick b from one, c from the other
        for (p, &c1) in cols.iter().enumerate() {
            for &c2 in &cols[p + 1..] {
                for &b in &columns[c1].members {
                    if b == a {
                        continue;
                    }
                    for &c in &columns[c2].members {
                        if c == a || c == b {
                            continue;
                        }
                        let mut t = [a, b, c];
                        t.sort_unstable();
                        if !existing.contains(&t) {
                            candidates.insert(t);
                        }
                    }
                }
            }
        }
    }
    let mut out: Vec<([u32; 3], f64)> = candidates
        .into_iter()
        .filter_map(|t| {
            // left-hand side: columns of the support holding ≥ 2 of t
            let mut cols: Vec<usize> = Vec::new();
            for &r in &t {
                if let Some(cs) = by_record.get(&r) {
                    cols.extend(cs);
                }
            }
            cols.sort_unstable();
            let mut lhs = 0.0;
            let mut i = 0;
            while i < cols.len() {
                let mut j = i;
                while j < cols.len() && cols[j] == cols[i] {
                    j += 1;
                }
                if j - i >= 2 {
                    lhs += value[&cols[i]];
                }
                i = j;
            }
            (lhs > 1.0 + min_violation).then_some((t, lhs - 1.0))
        })
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out.truncate(limit);
    out
}
