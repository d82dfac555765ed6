//! A start within a largest class size: the search keeps a cap (`--max-class-size`) but the
//! heuristics it starts from know nothing of it (MDAV and Mondrian leave classes of up to
//! 2k − 1 records, k-member larger ones). Classes above the cap are split k-member style,
//! and the records a split leaves over join the nearest classes with room.

use super::oracle::DistanceOracle;
use crate::Partition;

/// `p` with every class above `cap` records split into classes of at most `cap` that hold
/// their members' k_i: from the member farthest from the last group's seed, a group takes
/// its nearest members until it is as large as its largest k_i; what is left when no more
/// group fits joins, record by record, the class with room it is nearest to (the one whose
/// farthest member is closest). `p` itself when no class is above the cap; `None` when some
/// record finds no class with room, or a k_i exceeds the cap.
pub fn within_cap<O: DistanceOracle + ?Sized>(
    oracle: &O,
    p: &Partition,
    cap: u32,
) -> Option<Partition> {
    let cap = cap as usize;
    if p.largest_class() <= cap {
        return Some(p.clone());
    }
    let kmax = |members: &[usize]| members.iter().map(|&i| oracle.k(i) as usize).max();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut left: Vec<usize> = Vec::new();
    for class in p.classes() {
        if class.len() <= cap {
            classes.push(class);
            continue;
        }
        let mut rest = class;
        let mut anchor = rest[0];
        while rest.len() > cap {
            let seed = *rest
                .iter()
                .max_by_key(|&&i| (oracle.d(anchor, i), std::cmp::Reverse(i)))
                .expect("rest holds more than cap records");
            rest.sort_by_key(|&i| (oracle.d(seed, i), i));
            let mut size = 1;
            while size < kmax(&rest[..size]).unwrap_or(0) && size < rest.len() {
                size += 1;
            }
            if size > cap || size < kmax(&rest[..size]).unwrap_or(0) {
                return None;
            }
            classes.push(rest.drain(..size).collect());
            anchor = seed;
        }
        if kmax(&rest).is_some_and(|k| rest.len() >= k) {
            classes.push(rest);
        } else {
            left.extend(rest);
        }
    }
    for r in left {
        let k = oracle.k(r) as usize;
        let best = classes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.len() < cap && c.len() + 1 >= k)
            .map(|(t, c)| (c.iter().map(|&j| oracle.d(r, j)).max().unwrap_or(0), t))
            .min()?;
        classes[best.1].push(r);
    }
    Some(Partition::from_classes(oracle.n(), &classes).expect("the classes cover the records"))
}

/// Test starts on a line: records at `pts` with their k_i, in `groups` runs of neighbours
/// (at most n / 3), as an instance and a partition (which may break a k_i).
#[cfg(test)]
pub(crate) fn line_in_groups(
    pts: &[i64],
    k: &[u32],
    groups: usize,
) -> (crate::Instance, Partition) {
    let n = pts.len();
    let inst =
        crate::Instance::from_distance(1.0, k.to_vec(), |i, j| (pts[i] - pts[j]).abs() as f64)
            .expect("a valid instance");
    let groups = groups.min(n / 3).max(1);
    let labels: Vec<usize> = (0..n).map(|i| (i * groups / n).min(groups - 1)).collect();
    (inst, Partition::from_labels(&labels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Instance;
    use proptest::prelude::*;

    fn line(n: usize, k: Vec<u32>) -> Instance {
        assert_eq!(k.len(), n);
        Instance::from_distance(1.0, k, |i, j| (i as f64 - j as f64).abs()).unwrap()
    }

    #[test]
    fn a_large_class_splits_into_compact_ones() {
        // Eight points on a line, k = 2, cap 4: groups of k from the ends inwards, each a run
        // of neighbouring points ({6, 7}, {0, 1}, then {2, 3, 4, 5}).
        let inst = line(8, vec![2; 8]);
        let p = Partition::from_labels(&[0; 8]);
        let q = within_cap(&inst, &p, 4).unwrap();
        assert!(q.largest_class() <= 4);
        assert!(q.violations(&inst.k).is_empty());
        for c in q.classes() {
            let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
            assert_eq!(hi - lo + 1, c.len(), "{c:?} is not a run of neighbours");
        }
        assert_eq!(q.num_classes(), 3);
    }

    #[test]
    fn leftovers_join_the_nearest_class_with_room() {
        // k = 3, cap 4: the class {0, …, 4} splits into {2, 3, 4} and two records too few for
        // a class; 1 joins {2, 3, 4} (room for one), 0 then the first of the other two (both
        // 12 away at most).
        let pos: [i64; 11] = [0, 1, 2, 3, 4, 10, 11, 12, -10, -11, -12];
        let inst = Instance::from_distance(1.0, vec![3; 11], |i, j| (pos[i] - pos[j]).abs() as f64)
            .unwrap();
        let p = Partition::from_labels(&[0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2]);
        let q = within_cap(&inst, &p, 4).unwrap();
        let mut classes = q.classes();
        classes.sort();
        assert_eq!(
            classes,
            vec![vec![0, 5, 6, 7], vec![1, 2, 3, 4], vec![8, 9, 10]]
        );
    }

    #[test]
    fn no_start_when_the_records_left_find_no_room() {
        // k = 3, cap 3, seven records: no partition has every class of exactly 3.
        let inst = line(7, vec![3; 7]);
        assert!(within_cap(&inst, &Partition::from_labels(&[0; 7]), 3).is_none());
        // A k_i above the cap.
        let inst = line(4, vec![4; 4]);
        assert!(within_cap(&inst, &Partition::from_labels(&[0; 4]), 3).is_none());
    }

    proptest! {
        #[test]
        fn a_split_start_holds_every_k_and_the_cap(
            pts in prop::collection::vec(0i64..60, 6..40),
            ks in prop::collection::vec(1u32..4, 40),
            cap in 3u32..8,
            groups in 1usize..4,
        ) {
            let n = pts.len();
            let k = ks[..n].to_vec();
            // A valid start of few large classes (each at least the largest k_i, 3).
            let (inst, p) = line_in_groups(&pts, &k, groups);
            prop_assume!(p.violations(&k).is_empty());
            if let Some(q) = within_cap(&inst, &p, cap) {
                prop_assert_eq!(q.len(), n);
                prop_assert!(q.largest_class() <= cap as usize);
                prop_assert!(q.violations(&k).is_empty());
            } else {
                // Only when the cap is tight: any cap of at least 2·max k_i − 1 splits.
                prop_assert!(cap < 2 * k.iter().max().copied().unwrap() - 1);
            }
        }
    }
}
