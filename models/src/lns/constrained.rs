//! A start meeting every class constraint: the search keeps l-diversity, must- and cannot-links
//! and a largest class size, but the heuristics it starts from know none of them. The repair
//! takes about a second on whole tables (30,162 Adult records): classes above the cap are split
//! ([`super::within_cap`]), classes holding one of a must-link pair merge with their partner's,
//! a record sharing its class with a cannot-link partner moves to the nearest class that can
//! take it, and a class short of l values takes the cheapest (under the criterion) of a merge,
//! a move or a swap with one of the classes nearest to it that hold a value it lacks. "Nearest"
//! compares one representative per class (its medoid; above 64 members its first 64's), not
//! every pair of members: the exact engines' former repair merged by the diameter of each
//! union, every pair of it, which took 15–27 s per heuristic on all of Adult; they use this
//! one too since session 35.

use super::capped::within_cap;
use super::cost::SumCriterion;
use super::incumbent::medoid;
use super::oracle::DistanceOracle;
use crate::{ClassConstraints, Partition};

/// `p` repaired to meet `extra` and keep every k_i, or `None` when the repair finds no way (a
/// cannot-linked record that no class can take without breaking a k_i, a link or the cap; a
/// class short of values with no class to merge with within the cap; a merge of must-linked
/// classes above the cap). `p` must be k_i-anonymous. Merging keeps every k_i (a union is at
/// least as large as each part), moves check both classes' k_i, and the result is checked
/// whole before it is returned.
pub fn constrained_start<O: DistanceOracle + ?Sized>(
    oracle: &O,
    p: &Partition,
    extra: &ClassConstraints,
    criterion: SumCriterion,
) -> Option<Partition> {
    let p = match extra.max_size {
        Some(cap) => within_cap(oracle, p, cap)?,
        None => p.clone(),
    };
    if extra.size_cap_only() {
        return Some(p);
    }
    let mut r = Repair::new(oracle, &p, extra, criterion);
    r.join_must_links();
    r.separate_cannot_links()?;
    r.diversify()?;
    let out = Partition::from_classes(oracle.n(), &r.alive_classes()).ok()?;
    let k: Vec<u32> = (0..oracle.n()).map(|i| oracle.k(i)).collect();
    (out.violations(&k).is_empty() && extra.partition_ok(out.labels())).then_some(out)
}

/// The classes being repaired: emptied classes stay as empty slots, so class ids are stable.
struct Repair<'a, O: DistanceOracle + ?Sized> {
    oracle: &'a O,
    /// The criterion the steps are costed by.
    criterion: SumCriterion,
    extra: &'a ClassConstraints,
    classes: Vec<Vec<usize>>,
    label: Vec<usize>,
    medoid: Vec<usize>,
    /// Distinct sensitive values of each class, sorted (empty without l-diversity).
    values: Vec<Vec<u32>>,
    /// Cannot-link partners of each record.
    partners: Vec<Vec<usize>>,
    /// Records with a must-link: they never move alone.
    linked: Vec<bool>,
    cap: usize,
}

impl<'a, O: DistanceOracle + ?Sized> Repair<'a, O> {
    fn new(
        oracle: &'a O,
        p: &Partition,
        extra: &'a ClassConstraints,
        criterion: SumCriterion,
    ) -> Self {
        let classes = p.classes();
        let n = oracle.n();
        let mut partners = vec![Vec::new(); n];
        for &(a, b) in &extra.cannot {
            partners[a as usize].push(b as usize);
            partners[b as usize].push(a as usize);
        }
        let mut linked = vec![false; n];
        for &(a, b) in &extra.must {
            linked[a as usize] = true;
            linked[b as usize] = true;
        }
        let mut r = Repair {
            oracle,
            criterion,
            extra,
            medoid: classes.iter().map(|c| representative(oracle, c)).collect(),
            values: Vec::new(),
            label: p.labels().to_vec(),
            classes,
            partners,
            linked,
            cap: extra.max_size.map_or(usize::MAX, |c| c as usize),
        };
        r.values = (0..r.classes.len()).map(|c| r.values_of(c)).collect();
        r
    }

    /// Class `c`'s distinct sensitive values, sorted (empty without l-diversity).
    fn values_of(&self, c: usize) -> Vec<u32> {
        if self.extra.diversity.is_none() {
            return Vec::new();
        }
        self.distinct_values(self.classes[c].iter().copied())
    }

    /// Distinct sensitive values of `members`, sorted.
    fn distinct_values(&self, members: impl Iterator<Item = usize>) -> Vec<u32> {
        let mut v: Vec<u32> = members.map(|i| self.value(i)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn alive_classes(&self) -> Vec<Vec<usize>> {
        self.classes
            .iter()
            .filter(|c| !c.is_empty())
            .cloned()
            .collect()
    }

    /// Moves every member of class `from` into class `to`; the larger part's medoid stays the
    /// representative (recomputing it would be quadratic in the merged size).
    fn merge(&mut self, from: usize, to: usize) {
        let moved = std::mem::take(&mut self.classes[from]);
        for &i in &moved {
            self.label[i] = to;
        }
        if moved.len() > self.classes[to].len() {
            self.medoid[to] = self.medoid[from];
        }
        self.classes[to].extend(moved);
        let mut v = std::mem::take(&mut self.values[from]);
        v.extend_from_slice(&self.values[to]);
        v.sort_unstable();
        v.dedup();
        self.values[to] = v;
    }

    /// Merges the classes of every must-link pair split across two (the smaller into the
    /// larger).
    fn join_must_links(&mut self) {
        for &(a, b) in &self.extra.must {
            let (x, y) = (self.label[a as usize], self.label[b as usize]);
            if x != y {
                let (from, to) = if self.classes[x].len() < self.classes[y].len() {
                    (x, y)
                } else {
                    (y, x)
                };
                self.merge(from, to);
            }
        }
    }

    /// Class ids that hold a cannot-link partner of some record of `members`.
    fn forbidden(&self, members: &[usize]) -> Vec<usize> {
        let mut f: Vec<usize> = members
            .iter()
            .flat_map(|&i| self.partners[i].iter().map(|&j| self.label[j]))
            .collect();
        f.sort_unstable();
        f.dedup();
        f
    }

    /// For every cannot-link pair sharing a class, moves one of the two (one without must-links,
    /// whose class keeps its k_i without it) to the class nearest to it that holds none of its
    /// partners, has room under the cap and is large enough for its k_i with it.
    fn separate_cannot_links(&mut self) -> Option<()> {
        for t in 0..self.extra.cannot.len() {
            let (a, b) = self.extra.cannot[t];
            let (a, b) = (a as usize, b as usize);
            if self.label[a] != self.label[b] {
                continue;
            }
            let c = self.label[a];
            let moved = [b, a]
                .into_iter()
                .filter(|&x| !self.linked[x])
                .find_map(|x| {
                    let rest: Vec<usize> = self.classes[c]
                        .iter()
                        .copied()
                        .filter(|&i| i != x)
                        .collect();
                    let kmax = rest.iter().map(|&i| self.oracle.k(i) as usize).max()?;
                    if rest.len() < kmax {
                        return None;
                    }
                    let forbidden = self.forbidden(&[x]);
                    let kx = self.oracle.k(x) as usize;
                    let to = (0..self.classes.len())
                        .filter(|&u| {
                            let m = self.classes[u].len();
                            u != c
                                && m > 0
                                && m < self.cap
                                && m + 1 >= kx
                                && forbidden.binary_search(&u).is_err()
                        })
                        .min_by_key(|&u| (self.oracle.d(x, self.medoid[u]), u))?;
                    Some((x, rest, to))
                });
            let (x, rest, to) = moved?;
            self.classes[c] = rest;
            self.refresh(c, Some(x));
            self.reshape(to, None, Some(x));
        }
        Some(())
    }

    /// Gives every class short of l distinct values a new one by the cheapest of the steps
    /// [`Self::steps`] offers with the [`CANDIDATES`] classes nearest to it (by medoid) that
    /// hold a value it lacks, or else by merging it into the nearest class that can take it
    /// (any class bringing a new value, within the cap, holding no cannot-link partner of its
    /// members). A class still short is taken again.
    fn diversify(&mut self) -> Option<()> {
        let l = self.extra.l() as usize;
        if l <= 1 {
            return Some(());
        }
        let mut short: Vec<usize> = (0..self.classes.len())
            .filter(|&c| self.values[c].len() < l)
            .rev()
            .collect();
        while let Some(s) = short.pop() {
            if self.classes[s].is_empty() || self.values[s].len() >= l {
                continue;
            }
            let step = match self.steps(s).into_iter().min_by_key(|(delta, _)| *delta) {
                Some((_, step)) => step,
                None => Step::Merge(self.any_merge(s)?),
            };
            match step {
                Step::Merge(t) => self.merge(s, t),
                Step::Move { t, r } => {
                    self.reshape(t, Some(r), None);
                    self.reshape(s, None, Some(r));
                }
                Step::Swap { t, r, q } => {
                    self.reshape(t, Some(r), Some(q));
                    self.reshape(s, Some(q), Some(r));
                }
            }
            for c in [s, step.other()] {
                if !self.classes[c].is_empty() && self.values[c].len() < l {
                    short.push(c);
                }
            }
        }
        Some(())
    }

    /// The sensitive value of record `i`.
    fn value(&self, i: usize) -> u32 {
        self.extra.diversity.as_ref().map_or(0, |d| d.values[i])
    }

    fn cost(&self, members: &[usize]) -> i64 {
        self.criterion.class_cost(self.oracle, members)
    }

    /// How many distinct values `members` hold.
    fn distinct(&self, members: impl Iterator<Item = usize>) -> usize {
        self.distinct_values(members).len()
    }

    /// The classes other than `s`, not empty, holding a value `s` lacks.
    fn donors(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.classes.len()).filter(move |&t| {
            t != s
                && !self.classes[t].is_empty()
                && self.values[t]
                    .iter()
                    .any(|v| self.values[s].binary_search(v).is_err())
        })
    }

    /// Whether `s` may merge into `t`: within the cap, and `t` holds no cannot-link partner of
    /// `s`'s members (`forbidden_s`, from [`Self::forbidden`]).
    fn mergeable(&self, s: usize, t: usize, forbidden_s: &[usize]) -> bool {
        self.classes[s].len() + self.classes[t].len() <= self.cap
            && forbidden_s.binary_search(&t).is_err()
    }

    /// The steps that give the short class `s` a value it lacks from one of the nearest
    /// classes `t` holding one, each with its change of cost: merging `s` into `t`; moving a
    /// record `r` of `t` into `s`; swapping `r` for a record `q` whose value `s` holds twice.
    /// `r` is the record of a lacking value nearest to `s`'s medoid, `q` the one nearest to
    /// `t`'s. Every step keeps both classes' k_i, the cap, the links (no must-linked record
    /// moves alone, no cannot-link pair meets) and `t`'s distinct values up to l.
    fn steps(&self, s: usize) -> Vec<(i64, Step)> {
        let l = self.extra.l() as usize;
        let ms = self.medoid[s];
        let lacks = |v: u32| self.values[s].binary_search(&v).is_err();
        let mut near: Vec<(i64, usize)> = self
            .donors(s)
            .map(|t| (self.oracle.d(ms, self.medoid[t]), t))
            .collect();
        if near.len() > CANDIDATES {
            near.select_nth_unstable(CANDIDATES);
            near.truncate(CANDIDATES);
        }
        let (cs, size_s) = (&self.classes[s], self.classes[s].len());
        let cost_s = self.cost(cs);
        let forbidden_s = self.forbidden(cs);
        let kmax = |m: &mut dyn Iterator<Item = usize>| {
            m.map(|i| self.oracle.k(i) as usize).max().unwrap_or(0)
        };
        let mut steps = Vec::new();
        for (_, t) in near {
            let ct = &self.classes[t];
            let cost_t = self.cost(ct);
            let keeps = self.values[t].len().min(l);
            if self.mergeable(s, t, &forbidden_s) {
                let union: Vec<usize> = cs.iter().chain(ct).copied().collect();
                steps.push((self.cost(&union) - cost_s - cost_t, Step::Merge(t)));
            }
            let Some(r) = ct
                .iter()
                .copied()
                .filter(|&r| {
                    !self.linked[r]
                        && lacks(self.value(r))
                        && self.partners[r].iter().all(|&j| self.label[j] != s)
                })
                .min_by_key(|&r| (self.oracle.d(r, ms), r))
            else {
                continue;
            };
            let rest_t: Vec<usize> = ct.iter().copied().filter(|&i| i != r).collect();
            let k_r = self.oracle.k(r) as usize;
            let mut with_r: Vec<usize> = cs.clone();
            with_r.push(r);
            if size_s < self.cap
                && !rest_t.is_empty()
                && k_r <= size_s + 1
                && rest_t.len() >= kmax(&mut rest_t.iter().copied())
                && self.distinct(rest_t.iter().copied()) >= keeps
            {
                let delta = self.cost(&with_r) + self.cost(&rest_t) - cost_s - cost_t;
                steps.push((delta, Step::Move { t, r }));
            }
            if k_r > size_s {
                continue;
            }
            let q = cs
                .iter()
                .copied()
                .filter(|&q| {
                    !self.linked[q]
                        && cs
                            .iter()
                            .filter(|&&i| self.value(i) == self.value(q))
                            .count()
                            >= 2
                        && self.oracle.k(q) as usize <= ct.len()
                        && self.partners[q].iter().all(|&j| self.label[j] != t)
                        && self.distinct(rest_t.iter().copied().chain([q])) >= keeps
                })
                .min_by_key(|&q| (self.oracle.d(q, self.medoid[t]), q));
            if let Some(q) = q {
                let new_s: Vec<usize> = with_r.iter().copied().filter(|&i| i != q).collect();
                let new_t: Vec<usize> = rest_t.iter().copied().chain([q]).collect();
                let delta = self.cost(&new_s) + self.cost(&new_t) - cost_s - cost_t;
                steps.push((delta, Step::Swap { t, r, q }));
            }
        }
        steps
    }

    /// The class nearest to `s` (by medoid) that it can merge into: bringing a new value,
    /// within the cap, holding no cannot-link partner of its members.
    fn any_merge(&self, s: usize) -> Option<usize> {
        let forbidden = self.forbidden(&self.classes[s]);
        self.donors(s)
            .filter(|&t| self.mergeable(s, t, &forbidden))
            .min_by_key(|&t| (self.oracle.d(self.medoid[s], self.medoid[t]), t))
    }

    /// Takes record `out` out of class `c` and puts record `inn` in (either may be absent; `c`
    /// keeps a member), then refreshes `c` once.
    fn reshape(&mut self, c: usize, out: Option<usize>, inn: Option<usize>) {
        if let Some(r) = out {
            self.classes[c].retain(|&i| i != r);
        }
        if let Some(r) = inn {
            self.classes[c].push(r);
            self.label[r] = c;
        }
        self.refresh(c, out);
    }

    /// Recomputes class `c`'s values and, up to [`MEDOID_MAX_SIZE`] members or when `gone`
    /// was its representative, its representative.
    fn refresh(&mut self, c: usize, gone: Option<usize>) {
        let size = self.classes[c].len();
        if size > 0 && (size <= MEDOID_MAX_SIZE || gone == Some(self.medoid[c])) {
            self.medoid[c] = representative(self.oracle, &self.classes[c]);
        }
        self.values[c] = self.values_of(c);
    }
}

/// One repair step of a short class `s` with a class `t`.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `s` merges into `t`.
    Merge(usize),
    /// Record `r` moves from `t` to `s`.
    Move { t: usize, r: usize },
    /// Record `r` of `t` and record `q` of `s` trade places.
    Swap { t: usize, r: usize, q: usize },
}

impl Step {
    fn other(self) -> usize {
        match self {
            Step::Merge(t) | Step::Move { t, .. } | Step::Swap { t, .. } => t,
        }
    }
}

/// Classes nearest to a short one (by medoid, among those holding a value it lacks) whose
/// merges, moves and swaps are costed.
const CANDIDATES: usize = 16;

/// Largest class whose medoid is recomputed after a change (quadratic in its size); a larger
/// one keeps its representative unless it left, and is represented by the medoid of its first
/// this many members.
const MEDOID_MAX_SIZE: usize = 64;

/// A class's representative for "nearest": its medoid, or above [`MEDOID_MAX_SIZE`] members
/// the medoid of its first that many (a warm start may hold one huge class; its exact medoid
/// would cost n² distances).
fn representative<O: DistanceOracle + ?Sized>(oracle: &O, members: &[usize]) -> usize {
    medoid(oracle, &members[..members.len().min(MEDOID_MAX_SIZE)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Diversity, Instance};
    use proptest::prelude::*;

    fn line(pos: &[i64], k: u32) -> Instance {
        Instance::from_distance(1.0, vec![k; pos.len()], |i, j| {
            (pos[i] - pos[j]).abs() as f64
        })
        .unwrap()
    }

    fn diversity(values: &[u32], l: u32) -> Option<Diversity> {
        Some(Diversity {
            values: values.to_vec(),
            l,
        })
    }

    #[test]
    fn a_short_class_swaps_for_a_nearby_value() {
        // k = 3, l = 2: {0,1,2} holds one value; {3,4,5} gives its record of the other value
        // nearest to it (3) for the record nearest to {3,4,5}'s medoid (2), and keeps two values.
        let inst = line(&[0, 1, 2, 10, 11, 12], 3);
        let p = Partition::from_labels(&[0, 0, 0, 1, 1, 1]);
        let extra = ClassConstraints {
            diversity: diversity(&[0, 0, 0, 1, 1, 0], 2),
            ..ClassConstraints::default()
        };
        let q = constrained_start(&inst, &p, &extra, SumCriterion::Dbil).unwrap();
        assert_eq!(q.classes(), vec![vec![0, 1, 3], vec![2, 4, 5]]);
    }

    #[test]
    fn a_short_class_without_a_spare_record_merges_with_the_nearest_bringing_a_value() {
        // k = 1, l = 2: {0} cannot swap (it would lose its only value); it merges with {1,2}
        // (medoid 5 away), not {3,4} (20 away).
        let inst = line(&[0, 5, 6, 20, 21], 1);
        let p = Partition::from_labels(&[0, 1, 1, 2, 2]);
        let extra = ClassConstraints {
            diversity: diversity(&[0, 1, 0, 1, 0], 2),
            ..ClassConstraints::default()
        };
        let q = constrained_start(&inst, &p, &extra, SumCriterion::Dbil).unwrap();
        assert_eq!(q.classes(), vec![vec![0, 1, 2], vec![3, 4]]);
    }

    #[test]
    fn links_are_joined_and_separated() {
        // k = 2: {0,1,2} holds the cannot-linked 1 and 2; 2 (not must-linked) leaves for the
        // nearest class, {3,4}; the must-linked 5 and 7 bring their classes together.
        let pos = [0, 1, 2, 3, 4, 10, 11, 12, 13];
        let inst = line(&pos, 2);
        let p = Partition::from_labels(&[0, 0, 0, 1, 1, 2, 2, 3, 3]);
        let extra = ClassConstraints {
            must: vec![(5, 7)],
            cannot: vec![(1, 2)],
            ..ClassConstraints::default()
        };
        let q = constrained_start(&inst, &p, &extra, SumCriterion::Dbil).unwrap();
        let mut classes = q.classes();
        classes.sort();
        assert_eq!(classes, vec![vec![0, 1], vec![2, 3, 4], vec![5, 6, 7, 8]]);
    }

    #[test]
    fn no_start_when_the_repair_finds_no_way() {
        // One class of two cannot-linked records at k = 2: neither can leave.
        let inst = line(&[0, 1], 2);
        let p = Partition::from_labels(&[0, 0]);
        let extra = ClassConstraints {
            cannot: vec![(0, 1)],
            ..ClassConstraints::default()
        };
        assert!(constrained_start(&inst, &p, &extra, SumCriterion::Dbil).is_none());
        // l = 2 under a cap of 2 with one record of the second value: {0,1} can neither swap
        // (the other class would lose its second value) nor merge (above the cap).
        let inst = line(&[0, 1, 2, 3], 2);
        let p = Partition::from_labels(&[0, 0, 1, 1]);
        let extra = ClassConstraints {
            diversity: diversity(&[0, 0, 0, 1], 2),
            max_size: Some(2),
            ..ClassConstraints::default()
        };
        assert!(constrained_start(&inst, &p, &extra, SumCriterion::Dbil).is_none());
    }

    #[test]
    fn a_class_above_the_medoid_size_is_repaired_through_its_representative() {
        // k = 2, l = 2: a warm start's one class of 200 records, all of value 0 and holding a
        // cannot-link pair, beside 50 pairs of value 1. Its representative is a sample's
        // medoid; the repair must still separate the pair and give the class a second value.
        let pos: Vec<i64> = (0..300).collect();
        let inst = line(&pos, 2);
        let labels: Vec<usize> = (0..300)
            .map(|i| if i < 200 { 0 } else { 1 + (i - 200) / 2 })
            .collect();
        let values: Vec<u32> = (0..300).map(|i| u32::from(i >= 200)).collect();
        let extra = ClassConstraints {
            diversity: diversity(&values, 2),
            cannot: vec![(10, 150)],
            ..ClassConstraints::default()
        };
        let p = Partition::from_labels(&labels);
        let q = constrained_start(&inst, &p, &extra, SumCriterion::Dbil).unwrap();
        assert!(q.violations(&[2; 300]).is_empty());
        assert!(extra.partition_ok(q.labels()));
        assert_ne!(q.labels()[10], q.labels()[150]);
    }

    proptest! {
        #[test]
        fn a_repaired_start_meets_every_constraint(
            pts in prop::collection::vec(0i64..60, 6..40),
            ks in prop::collection::vec(1u32..4, 40),
            vals in prop::collection::vec(0u32..3, 40),
            l in 1u32..3,
            links in prop::collection::vec((0usize..40, 0usize..40, any::<bool>()), 0..6),
            cap in prop::option::of(4u32..12),
            groups in 1usize..6,
        ) {
            let n = pts.len();
            let k = ks[..n].to_vec();
            let (inst, p) = crate::lns::capped::line_in_groups(&pts, &k, groups);
            prop_assume!(p.violations(&k).is_empty());
            let (mut must, mut cannot) = (Vec::new(), Vec::new());
            for &(a, b, is_must) in &links {
                let (a, b) = ((a % n) as u32, (b % n) as u32);
                if a != b {
                    if is_must { must.push((a, b)) } else { cannot.push((a, b)) }
                }
            }
            let extra = ClassConstraints {
                diversity: diversity(&vals[..n], l),
                must,
                cannot,
                max_size: cap,
            };
            if let Some(q) = constrained_start(&inst, &p, &extra, SumCriterion::Dbil) {
                prop_assert_eq!(q.len(), n);
                prop_assert!(q.violations(&k).is_empty());
                prop_assert!(extra.partition_ok(q.labels()));
            }
            // Without links or a cap, l-diversity is always repaired when the table has l
            // values: merging never fails while two classes remain.
            let plain = ClassConstraints {
                diversity: diversity(&vals[..n], l),
                ..ClassConstraints::default()
            };
            let mut distinct = vals[..n].to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            let q = constrained_start(&inst, &p, &plain, SumCriterion::Dbil);
            prop_assert_eq!(q.is_some(), distinct.len() >= l as usize);
        }
    }
}
