//! Extra per-class constraints of the exact engines, beyond k_i-anonymity: distinct
//! l-diversity of a sensitive attribute, must-link / cannot-link pairs and a maximum class size.
//! One plain description shared by the CP model, column generation and the brute force, with
//! the quick infeasibility tests that give a clear message before any search.

use crate::invalid_input::InvalidInput;
use serde::{Deserialize, Serialize};

/// Distinct l-diversity: every class holds at least `l` distinct values of the sensitive
/// attribute (`values[i]` is record i's value as a small integer id).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diversity {
    /// Value id of each record.
    pub values: Vec<u32>,
    /// Distinct values every class needs.
    pub l: u32,
}

/// Constraints on every class of the partition (empty = plain k_i-anonymity).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassConstraints {
    /// Distinct l-diversity, if requested.
    pub diversity: Option<Diversity>,
    /// Pairs of records that must share a class.
    pub must: Vec<(u32, u32)>,
    /// Pairs of records that must not share a class.
    pub cannot: Vec<(u32, u32)>,
    /// Largest class size allowed.
    pub max_size: Option<u32>,
}

impl ClassConstraints {
    /// A largest class size and nothing else.
    pub fn capped(max_size: u32) -> Self {
        ClassConstraints {
            max_size: Some(max_size),
            ..ClassConstraints::default()
        }
    }

    /// True when nothing beyond k_i-anonymity is asked.
    pub fn is_empty(&self) -> bool {
        self.diversity.as_ref().is_none_or(|d| d.l <= 1)
            && self.must.is_empty()
            && self.cannot.is_empty()
            && self.max_size.is_none()
    }

    /// True when nothing beyond k_i-anonymity is asked but, perhaps, a largest class size (the
    /// large-neighbourhood search honours that one).
    pub fn size_cap_only(&self) -> bool {
        ClassConstraints {
            max_size: None,
            ..self.clone()
        }
        .is_empty()
    }

    /// True when every subset of a valid class satisfies the constraints except the k_i (no
    /// l-diversity, no must-link): then a class that splits into two k_i-anonymous classes is
    /// dominated, and the size-cap dominance `|C| ≤ 2·max k − 1` holds. l-diversity and must-links
    /// are not hereditary: a part of an l-diverse class need not be l-diverse, and a part may
    /// separate a must-link pair.
    pub fn hereditary(&self) -> bool {
        self.diversity.as_ref().is_none_or(|d| d.l <= 1) && self.must.is_empty()
    }

    /// Distinct values needed per class (1 when there is no l-diversity).
    pub fn l(&self) -> u32 {
        self.diversity.as_ref().map_or(1, |d| d.l.max(1))
    }

    /// Checks indices and sizes against an instance of `n` records.
    pub fn validate(&self, n: usize) -> Result<(), InvalidInput> {
        if let Some(d) = &self.diversity {
            if d.values.len() != n {
                return Err(format!(
                    "l-diversity has {} sensitive values for {n} records",
                    d.values.len()
                )
                .into());
            }
            if d.l == 0 {
                return Err("l-diversity needs l ≥ 1".into());
            }
        }
        for &(a, b) in self.must.iter().chain(&self.cannot) {
            if a as usize >= n || b as usize >= n {
                return Err(format!("link ({a}, {b}) is outside records 0..{n}").into());
            }
        }
        if self.max_size == Some(0) {
            return Err("the maximum class size must be at least 1".into());
        }
        Ok(())
    }

    /// Does one class (record ids, any order) satisfy every constraint except the k_i?
    pub fn class_ok(&self, members: &[u32]) -> bool {
        if self.max_size.is_some_and(|m| members.len() > m as usize) {
            return false;
        }
        if let Some(d) = &self.diversity {
            let mut vals: Vec<u32> = members.iter().map(|&i| d.values[i as usize]).collect();
            vals.sort_unstable();
            vals.dedup();
            if (vals.len() as u32) < d.l {
                return false;
            }
        }
        let has = |r: u32| members.contains(&r);
        if self.cannot.iter().any(|&(a, b)| has(a) && has(b)) {
            return false;
        }
        // A class holding exactly one of a must-link pair splits it.
        !self.must.iter().any(|&(a, b)| has(a) != has(b))
    }

    /// Does every class of the labelling satisfy every constraint except the k_i?
    pub fn partition_ok(&self, labels: &[usize]) -> bool {
        let nclasses = labels.iter().copied().max().map_or(0, |m| m + 1);
        let mut classes = vec![Vec::new(); nclasses];
        for (i, &c) in labels.iter().enumerate() {
            classes[c].push(i as u32);
        }
        classes.iter().all(|c| self.class_ok(c))
    }

    /// The constraints on the records `records` (increasing), in their local indices (local t
    /// is `records[t]`): their sensitive values, and the links with both ends among them. A
    /// class of them meets these exactly when, in global indices, it meets `self` — provided
    /// no must-link leaves the set (a union of classes that meet `self` never splits one).
    pub fn restricted_to(&self, records: &[usize]) -> ClassConstraints {
        let local = |i: u32| records.binary_search(&(i as usize)).ok().map(|t| t as u32);
        let pairs = |v: &[(u32, u32)]| {
            v.iter()
                .filter_map(|&(a, b)| Some((local(a)?, local(b)?)))
                .collect()
        };
        ClassConstraints {
            diversity: self.diversity.as_ref().map(|d| Diversity {
                values: records.iter().map(|&i| d.values[i]).collect(),
                l: d.l,
            }),
            must: pairs(&self.must),
            cannot: pairs(&self.cannot),
            max_size: self.max_size,
        }
    }

    /// Records joined to each record by must-links (connected components, as a component id
    /// per record, components numbered by their smallest record).
    pub fn must_components(&self, n: usize) -> Vec<usize> {
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        for &(a, b) in &self.must {
            let (ra, rb) = (root(&mut parent, a as usize), root(&mut parent, b as usize));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        (0..n).map(|i| root(&mut parent, i)).collect()
    }

    /// Infeasibility that shows without search, as a message saying why: l above the number of
    /// distinct values, a maximum size below some k_i, a cannot-link inside a must-link group, a
    /// must-link group larger than the maximum size or needing more records than the table has.
    pub fn obvious_infeasibility(&self, k: &[u32]) -> Option<String> {
        let n = k.len();
        if let Some(d) = &self.diversity {
            let mut vals = d.values.clone();
            vals.sort_unstable();
            vals.dedup();
            if (vals.len() as u32) < d.l {
                return Some(format!(
                    "l-diversity {} needs {} distinct sensitive values in every class, the table has {}",
                    d.l,
                    d.l,
                    vals.len()
                ));
            }
        }
        if let Some(m) = self.max_size {
            if let Some((i, &ki)) = k.iter().enumerate().find(|(_, &ki)| ki > m) {
                return Some(format!(
                    "record {} has k_i = {ki}, above the maximum class size {m}",
                    i + 1
                ));
            }
            if m < self.l() {
                return Some(format!(
                    "a class of at most {m} records cannot hold {} distinct sensitive values",
                    self.l()
                ));
            }
        }
        let comp = self.must_components(n);
        for &(a, b) in &self.cannot {
            if comp[a as usize] == comp[b as usize] {
                return Some(format!(
                    "records {} and {} are cannot-linked but joined by must-links",
                    a + 1,
                    b + 1
                ));
            }
        }
        if let Some(m) = self.max_size {
            let mut size = vec![0usize; n];
            for &c in &comp {
                size[c] += 1;
            }
            if let Some(c) = (0..n).find(|&c| size[c] > m as usize) {
                return Some(format!(
                    "the must-links join {} records around record {}, above the maximum class size {m}",
                    size[c],
                    c + 1
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_rules() {
        let c = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 1, 2],
                l: 2,
            }),
            must: vec![(0, 2)],
            cannot: vec![(1, 3)],
            max_size: Some(3),
        };
        assert!(c.class_ok(&[0, 2]));
        assert!(!c.class_ok(&[0, 1]), "one value, splits the must-link");
        assert!(!c.class_ok(&[2, 3]), "holds 2 without 0");
        assert!(!c.class_ok(&[0, 1, 2, 3]), "size 4 and a cannot-link");
        assert!(c.partition_ok(&[0, 1, 0, 1]) == (c.class_ok(&[0, 2]) && c.class_ok(&[1, 3])));
        assert!(!c.hereditary());
        assert!(!c.is_empty());
    }

    #[test]
    fn restricted_constraints_keep_what_lies_among_the_records() {
        let c = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![5, 6, 7, 8, 9],
                l: 2,
            }),
            must: vec![(1, 3), (0, 4)],
            cannot: vec![(3, 4), (1, 2)],
            max_size: Some(3),
        };
        let r = c.restricted_to(&[1, 3, 4]);
        assert_eq!(r.diversity.as_ref().unwrap().values, vec![6, 8, 9]);
        assert_eq!(r.diversity.as_ref().unwrap().l, 2);
        // (1, 3) → (0, 1); (0, 4) and (1, 2) leave the set; (3, 4) → (1, 2).
        assert_eq!(r.must, vec![(0, 1)]);
        assert_eq!(r.cannot, vec![(1, 2)]);
        assert_eq!(r.max_size, Some(3));
        // A class of the restricted records meets them exactly when it meets the originals.
        assert!(r.class_ok(&[0, 1]) && c.class_ok(&[1, 3]));
        assert!(!r.class_ok(&[0, 1, 2]) && !c.class_ok(&[1, 3, 4]));
    }

    #[test]
    fn obvious_infeasibility_messages() {
        let k = vec![2, 2, 2, 2];
        let mut c = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 1, 1],
                l: 3,
            }),
            ..ClassConstraints::default()
        };
        assert!(c
            .obvious_infeasibility(&k)
            .unwrap()
            .contains("the table has 2"));
        c.diversity = None;
        c.max_size = Some(1);
        assert!(c.obvious_infeasibility(&k).unwrap().contains("k_i = 2"));
        c.max_size = Some(2);
        c.must = vec![(0, 1), (1, 2)];
        assert!(c.obvious_infeasibility(&k).unwrap().contains("3 records"));
        c.max_size = None;
        c.cannot = vec![(0, 2)];
        assert!(c
            .obvious_infeasibility(&k)
            .unwrap()
            .contains("cannot-linked"));
        c.cannot = vec![(0, 3)];
        assert!(c.obvious_infeasibility(&k).is_none());
        assert_eq!(c.must_components(4), vec![0, 0, 0, 3]);
    }
}
