//! Generalisation hierarchies in ARX's format: one line per leaf, `leaf;level1;...;root`.

use crate::error::{in_file, Result};
use std::collections::HashMap;
use std::path::Path;

/// A generalisation tree. Level 0 holds the leaves; level `height` is the root.
///
/// Stored as a label id per (leaf, level); two leaves generalise together at the first level
/// where their labels agree, which is their lowest common ancestor (LCA).
#[derive(Clone, Debug)]
pub(crate) struct Hierarchy {
    /// Label strings per level (`labels[level][id]`).
    labels: Vec<Vec<String>>,
    /// `path[leaf][level]` = label id of the leaf's ancestor at that level.
    path: Vec<Vec<u32>>,
    /// Leaf string → leaf index.
    leaf_index: HashMap<String, u32>,
}

impl Hierarchy {
    /// Reads an ARX hierarchy file (`;` separated, or `,` when no `;` occurs).
    pub(crate) fn read(path: &Path) -> Result<Hierarchy> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(path, format!("cannot read hierarchy: {e}")))?;
        let delimiter = if text.contains(';') { ';' } else { ',' };
        let rows: Vec<(u64, Vec<String>)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                (
                    i as u64 + 1,
                    l.split(delimiter).map(|c| c.trim().to_string()).collect(),
                )
            })
            .collect();
        Self::from_rows(&rows).map_err(|e| in_file(path, e))
    }

    /// A flat hierarchy `value → *`, used for categorical attributes without a file.
    pub(crate) fn flat(values: &[String]) -> Hierarchy {
        let rows: Vec<(u64, Vec<String>)> = values
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u64 + 1, vec![v.clone(), "*".to_string()]))
            .collect();
        Self::from_rows(&rows).expect("a flat hierarchy is valid")
    }

    /// Builds from `(line, cells)` rows; validates depth, unique leaves and tree shape.
    /// A single implicit root is added when the last column is not one common label.
    pub(crate) fn from_rows(rows: &[(u64, Vec<String>)]) -> std::result::Result<Hierarchy, String> {
        let Some((first_line, first)) = rows.first() else {
            return Err("hierarchy is empty".into());
        };
        let depth = first.len();
        for (line, cells) in rows {
            if cells.len() != depth {
                return Err(format!(
                    "line {line}: hierarchy row has {} levels, line {first_line} has {depth}",
                    cells.len()
                ));
            }
            if let Some(pos) = cells.iter().position(|c| c.is_empty()) {
                return Err(format!("line {line}: empty label at level {pos}"));
            }
        }
        let needs_root = rows.iter().any(|(_, c)| c[depth - 1] != first[depth - 1]);
        let levels = if needs_root { depth + 1 } else { depth };
        let mut labels: Vec<Vec<String>> = vec![Vec::new(); levels];
        let mut ids: Vec<HashMap<String, u32>> = vec![HashMap::new(); levels];
        let mut path = Vec::with_capacity(rows.len());
        let mut leaf_index = HashMap::new();
        // parent[level][id] = (parent id, line that fixed it), to reject non-trees.
        let mut parent: Vec<HashMap<u32, (u32, u64)>> = vec![HashMap::new(); levels];
        for (line, cells) in rows {
            let mut p = Vec::with_capacity(levels);
            for level in 0..levels {
                let label = if level < depth {
                    cells[level].as_str()
                } else {
                    "*"
                };
                let next = ids[level].len() as u32;
                let id = *ids[level].entry(label.to_string()).or_insert_with(|| {
                    labels[level].push(label.to_string());
                    next
                });
                p.push(id);
            }
            if leaf_index
                .insert(cells[0].clone(), path.len() as u32)
                .is_some()
            {
                return Err(format!("line {line}: leaf '{}' appears twice", cells[0]));
            }
            for level in 0..levels - 1 {
                match parent[level].get(&p[level]) {
                    Some(&(q, other)) if q != p[level + 1] => {
                        return Err(format!(
                            "line {line}: label '{}' at level {level} has two parents, '{}' (line {other}) and '{}'",
                            labels[level][p[level] as usize],
                            labels[level + 1][q as usize],
                            labels[level + 1][p[level + 1] as usize]
                        ));
                    }
                    Some(_) => {}
                    None => {
                        parent[level].insert(p[level], (p[level + 1], *line));
                    }
                }
            }
            path.push(p);
        }
        Ok(Hierarchy {
            labels,
            path,
            leaf_index,
        })
    }

    /// Height of the tree (number of generalisation steps from a leaf to the root).
    pub(crate) fn height(&self) -> usize {
        self.labels.len() - 1
    }

    /// Number of leaves.
    pub(crate) fn num_leaves(&self) -> usize {
        self.path.len()
    }

    /// Leaf index of a value, if the value is a leaf.
    pub(crate) fn leaf(&self, value: &str) -> Option<u32> {
        self.leaf_index.get(value).copied()
    }

    /// Leaf label.
    pub(crate) fn leaf_label(&self, leaf: u32) -> &str {
        &self.labels[0][self.path[leaf as usize][0] as usize]
    }

    /// Level of the lowest common ancestor of two leaves (0 when equal).
    pub(crate) fn lca_level(&self, a: u32, b: u32) -> usize {
        let (pa, pb) = (&self.path[a as usize], &self.path[b as usize]);
        (0..pa.len())
            .find(|&l| pa[l] == pb[l])
            .unwrap_or(self.height())
    }

    /// Level of the lowest common ancestor of a set of leaves (0 for one distinct leaf).
    pub(crate) fn lca_level_of(&self, leaves: impl IntoIterator<Item = u32>) -> usize {
        let mut it = leaves.into_iter();
        let Some(first) = it.next() else { return 0 };
        it.fold(0, |level, l| level.max(self.lca_level(first, l)))
    }

    /// Label of a leaf's ancestor at a level.
    pub(crate) fn ancestor_label(&self, leaf: u32, level: usize) -> &str {
        &self.labels[level][self.path[leaf as usize][level] as usize]
    }

    /// Label id of a leaf's ancestor at a level (ids are per level).
    pub(crate) fn ancestor(&self, leaf: u32, level: usize) -> u32 {
        self.path[leaf as usize][level]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(spec: &[&str]) -> Vec<(u64, Vec<String>)> {
        spec.iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.split(';').map(String::from).collect()))
            .collect()
    }

    fn workclass() -> Hierarchy {
        Hierarchy::from_rows(&rows(&[
            "Private;Non-Government;*",
            "Self-emp;Non-Government;*",
            "State-gov;Government;*",
            "Local-gov;Government;*",
        ]))
        .unwrap()
    }

    #[test]
    fn lca_levels() {
        let h = workclass();
        assert_eq!(h.height(), 2);
        let (p, s, st, lo) = (
            h.leaf("Private").unwrap(),
            h.leaf("Self-emp").unwrap(),
            h.leaf("State-gov").unwrap(),
            h.leaf("Local-gov").unwrap(),
        );
        assert_eq!(h.lca_level(p, p), 0);
        assert_eq!(h.lca_level(st, lo), 1);
        assert_eq!(h.lca_level(p, lo), 2);
        assert_eq!(h.lca_level_of([st, lo]), 1);
        assert_eq!(h.lca_level_of([st, lo, s]), 2);
        assert_eq!(h.ancestor_label(st, 1), "Government");
    }

    #[test]
    fn rejects_ragged_and_non_trees() {
        let e = Hierarchy::from_rows(&rows(&["a;x;*", "b;*"])).unwrap_err();
        assert!(e.contains("line 2") && e.contains("levels"), "{e}");
        let e = Hierarchy::from_rows(&rows(&["a;x;P;*", "b;x;Q;*"])).unwrap_err();
        assert!(e.contains("two parents"), "{e}");
        let e = Hierarchy::from_rows(&rows(&["a;*", "a;*"])).unwrap_err();
        assert!(e.contains("twice"), "{e}");
    }

    #[test]
    fn implicit_root_when_top_differs() {
        let h = Hierarchy::from_rows(&rows(&["a;X", "b;Y"])).unwrap();
        assert_eq!(h.height(), 2);
        assert_eq!(h.lca_level(0, 1), 2);
        assert_eq!(h.ancestor_label(0, 2), "*");
    }

    #[test]
    fn flat_hierarchy() {
        let h = Hierarchy::flat(&["u".into(), "v".into()]);
        assert_eq!(h.height(), 1);
        assert_eq!(h.lca_level(0, 1), 1);
        assert_eq!(h.ancestor_label(1, 1), "*");
    }
}
