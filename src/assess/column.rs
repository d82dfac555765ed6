//! Columns encoded as dense codes: every measure of `optik assess` counts equal cells, so each
//! column is read once into `u32` codes (first-seen order) with the distinct texts alongside.

use std::collections::HashMap;

/// One column of the assessed table (or of the original), as codes into `values`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Column {
    /// Column name.
    pub name: String,
    /// Code of each record's cell.
    pub codes: Vec<u32>,
    /// Distinct cell texts, indexed by code.
    pub values: Vec<String>,
}

impl Column {
    /// Encodes cell texts.
    pub(crate) fn encode<'a>(name: &str, cells: impl IntoIterator<Item = &'a str>) -> Column {
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut values = Vec::new();
        let mut codes = Vec::new();
        for c in cells {
            let next = index.len() as u32;
            let code = *index.entry(c).or_insert_with(|| {
                values.push(c.to_string());
                next
            });
            codes.push(code);
        }
        Column {
            name: name.to_string(),
            codes,
            values,
        }
    }

    /// Number of records.
    pub(crate) fn len(&self) -> usize {
        self.codes.len()
    }

    /// Number of distinct values.
    pub(crate) fn distinct(&self) -> usize {
        self.values.len()
    }

    /// Count of each code.
    pub(crate) fn counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.values.len()];
        for &x in &self.codes {
            c[x as usize] += 1;
        }
        c
    }

    /// The same records with every value replaced by `map(value)` (codes re-densified).
    pub(crate) fn mapped(&self, name: &str, map: impl Fn(&str) -> String) -> Column {
        let texts: Vec<String> = self.values.iter().map(|v| map(v)).collect();
        Column::encode(name, self.codes.iter().map(|&c| texts[c as usize].as_str()))
    }

    /// The column of record identities (every record distinct): the "subjects" anonymity set.
    pub(crate) fn subjects(n: usize) -> Column {
        Column {
            name: "(records)".to_string(),
            codes: (0..n as u32).collect(),
            values: (1..=n).map(|i| i.to_string()).collect(),
        }
    }
}

/// Dense codes of the tuples formed by several code vectors (all of the same length); the
/// empty combination gives one code for everybody. Returns the codes and the number of
/// distinct tuples.
pub(crate) fn combine(parts: &[&[u32]], n: usize) -> (Vec<u32>, usize) {
    let mut codes = vec![0u32; n];
    let mut distinct = 1usize;
    for part in parts {
        let width = part.iter().copied().max().map_or(1, |m| m as usize + 1);
        let mut next = 0u32;
        if distinct.saturating_mul(width) <= DENSE_LIMIT {
            // Dense table of (current code, part code) → new code.
            let mut table = vec![u32::MAX; distinct * width];
            for (c, &p) in codes.iter_mut().zip(part.iter()) {
                let slot = &mut table[*c as usize * width + p as usize];
                if *slot == u32::MAX {
                    *slot = next;
                    next += 1;
                }
                *c = *slot;
            }
        } else {
            let mut index: HashMap<(u32, u32), u32> = HashMap::new();
            for (c, &p) in codes.iter_mut().zip(part.iter()) {
                *c = *index.entry((*c, p)).or_insert_with(|| {
                    next += 1;
                    next - 1
                });
            }
        }
        distinct = next as usize;
    }
    (codes, distinct)
}

/// Largest table `combine` allocates instead of hashing.
const DENSE_LIMIT: usize = 1 << 22;

/// Every subset of `0..m` with 1 ≤ size ≤ `max`, by size then lexicographically.
pub(crate) fn subsets(m: usize, max: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    fn rec(start: usize, m: usize, size: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == size {
            out.push(cur.clone());
            return;
        }
        for i in start..m {
            cur.push(i);
            rec(i + 1, m, size, cur, out);
            cur.pop();
        }
    }
    for size in 1..=max.min(m) {
        rec(0, m, size, &mut Vec::new(), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_combines() {
        let a = Column::encode("a", ["x", "y", "x", "y"]);
        let b = Column::encode("b", ["1", "1", "1", "2"]);
        assert_eq!(a.codes, vec![0, 1, 0, 1]);
        assert_eq!(a.counts(), vec![2, 2]);
        let (c, d) = combine(&[&a.codes, &b.codes], 4);
        assert_eq!(d, 3);
        assert_eq!(c[0], c[2]);
        assert_ne!(c[1], c[3]);
        assert_eq!(combine(&[], 3), (vec![0, 0, 0], 1));
    }

    #[test]
    fn subsets_up_to_a_size() {
        assert_eq!(subsets(3, 2).len(), 6);
        assert_eq!(subsets(3, 9).len(), 7);
        assert_eq!(subsets(3, 2)[3], vec![0, 1]);
    }
}
