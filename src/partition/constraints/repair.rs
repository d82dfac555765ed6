//! Repair of a heuristic partition for the extra constraints, where it is simple: merging
//! classes never breaks k_i-anonymity, makes classes more diverse and joins must-link pairs. A
//! class short of l values merges with the class whose union has the smallest diameter among
//! those bringing a new value; a class holding one of a must-link pair merges with its
//! partner's. The result is used only if it meets every constraint (merging can break a
//! cannot-link or the maximum size).

use optik_models::{ClassConstraints, Partition};
use std::collections::HashSet;

/// The repaired partition, or `None` when merging does not give one meeting `extra`.
pub(crate) fn repair(
    p: &Partition,
    extra: &ClassConstraints,
    d: impl Fn(usize, usize) -> i64,
) -> Option<Partition> {
    let n = p.len();
    let mut classes = p.classes();
    let values = |c: &[usize]| -> HashSet<u32> {
        extra
            .diversity
            .as_ref()
            .map(|dv| c.iter().map(|&i| dv.values[i]).collect())
            .unwrap_or_default()
    };
    let l = extra.l() as usize;
    loop {
        let mut label = vec![0usize; n];
        for (c, m) in classes.iter().enumerate() {
            for &i in m {
                label[i] = c;
            }
        }
        // A must-link pair across two classes: merge them.
        if let Some(&(a, b)) = extra
            .must
            .iter()
            .find(|&&(a, b)| label[a as usize] != label[b as usize])
        {
            let (x, y) = (label[a as usize], label[b as usize]);
            let moved = std::mem::take(&mut classes[y]);
            classes[x].extend(moved);
            classes.retain(|c| !c.is_empty());
            continue;
        }
        let Some(short) = (0..classes.len()).find(|&c| values(&classes[c]).len() < l) else {
            break;
        };
        let have = values(&classes[short]);
        let target = (0..classes.len())
            .filter(|&t| t != short && values(&classes[t]).iter().any(|v| !have.contains(v)))
            .min_by_key(|&t| {
                let diam = classes[short]
                    .iter()
                    .flat_map(|&i| classes[t].iter().map(move |&j| (i, j)))
                    .map(|(i, j)| d(i, j))
                    .max()
                    .unwrap_or(0);
                (diam, t)
            })?;
        let moved = std::mem::take(&mut classes[short]);
        classes[target].extend(moved);
        classes.retain(|c| !c.is_empty());
    }
    let out = Partition::from_classes(n, &classes).ok()?;
    extra.partition_ok(out.labels()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use optik_models::Diversity;

    #[test]
    fn merges_until_diverse_and_linked() {
        let p = Partition::from_labels(&[0, 0, 1, 1, 2, 2]);
        let extra = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 0, 1, 1, 1],
                l: 2,
            }),
            must: vec![(4, 5)],
            ..ClassConstraints::default()
        };
        let pts = [0i64, 1, 5, 6, 7, 8];
        let r = repair(&p, &extra, |a, b| (pts[a] - pts[b]).abs()).unwrap();
        assert!(extra.partition_ok(r.labels()));
        // {0,1} (values 0,0) merges with {2,3} (0,1), the nearest class bringing a value; the
        // must-linked {4,5} (1,1) is then short and joins the only other class.
        assert_eq!(r.num_classes(), 1);
        let capped = ClassConstraints {
            max_size: Some(4),
            ..extra
        };
        assert!(repair(&p, &capped, |a, b| (pts[a] - pts[b]).abs()).is_none());
    }
}
