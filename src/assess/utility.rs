//! Utility of the assessed table.
//!
//! - From the table alone: **DM** = Σ_classes |e|² when |e| ≥ the largest k_i inside (else
//!   |e|·n; without a k source every class counts as satisfied), **C_AVG** = (Σ_i 1/k_i)/|E|
//!   (n/|E| without a k source), as `crate::partition::metrics` defines them; Sweeney's **precision**
//!   1 − Σ_A Σ_i level_A(i)/(|QI|·n) and Xiao & Tao's **ILoss** Σ_i Σ_A w_A·ILoss(cell) (with
//!   its per-record average and the share of the worst possible, every cell `*`), from the
//!   cell readings of [`super::generalised`].
//! - With an original table of the same number of rows in the same order (optik releases keep
//!   the input order): **DBIL** and **SBIL** of the classes over the original records
//!   (`crate::partition::metrics::compute`), and the **non-uniform entropy** Σ_i Σ_A −log2 P(orig_A(i) |
//!   rel_A(i)), P the share of the records released as rel_A(i) whose original is orig_A(i)
//!   (Gionis & Tassa, as in ARX), with its share of the maximum (every cell generalised to one
//!   value: Σ_i Σ_A −log2 P(orig_A(i))).
//! - The **a-posteriori utility** (seed 000 ch. 6, eq. 6.3): for each sensitive attribute X,
//!   SeDR_X of each quasi-identifier and of all of them together, where X and the keys are
//!   first mapped through their semantic partitions (eq. 6.2); with the original
//!   the same figures on the original table and the difference release − original.

use super::column::Column;
use super::dr::Discriminator;
use super::generalised::{Cover, QiView};
use super::semantic::Semantic;
use serde::Serialize;
use std::collections::HashMap;

/// DM of classes of these sizes given each class's largest k_i.
pub(crate) fn dm(sizes: &[usize], kmax: &[u32], n: usize) -> f64 {
    sizes
        .iter()
        .zip(kmax)
        .map(|(&s, &k)| {
            if s >= k as usize {
                (s * s) as f64
            } else {
                (s * n) as f64
            }
        })
        .sum()
}

/// C_AVG = (Σ_i 1/k_i)/|E|.
pub(crate) fn cavg(k: &[u32], classes: usize) -> f64 {
    k.iter().map(|&x| 1.0 / x as f64).sum::<f64>() / classes as f64
}

/// Precision and ILoss of the released cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct CellLoss {
    /// Sweeney's precision in [0, 1] (1 = nothing generalised).
    pub precision: f64,
    /// Σ_i Σ_A w_A·ILoss.
    pub iloss: f64,
    /// ILoss per record.
    pub iloss_per_record: f64,
    /// ILoss as a share of every cell being `*`.
    pub iloss_share: f64,
    /// Share of the quasi-identifier cells that stand for more than one value.
    pub generalised_cells: f64,
    /// Per attribute: average generalisation level and average ILoss.
    pub attributes: Vec<AttributeLoss>,
}

/// One attribute's average level and ILoss.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AttributeLoss {
    pub attribute: String,
    pub level: f64,
    pub iloss: f64,
}

/// Precision and ILoss; `weights` per quasi-identifier.
pub(crate) fn cell_loss(qi: &[QiView], weights: &[f64]) -> CellLoss {
    let n = qi.first().map_or(0, |q| q.column.len()).max(1) as f64;
    let mut level_sum = 0.0;
    let mut iloss = 0.0;
    let mut worst = 0.0;
    let mut generalised = 0usize;
    let mut attributes = Vec::new();
    for (q, &w) in qi.iter().zip(weights) {
        let counts = q.column.counts();
        let lv: f64 = q
            .covers
            .iter()
            .zip(&counts)
            .map(|(c, &k)| q.domain.level(c) * k as f64)
            .sum();
        let il: f64 = q
            .covers
            .iter()
            .zip(&counts)
            .map(|(c, &k)| q.domain.iloss(c) * k as f64)
            .sum();
        let star = q.domain.read("*").map_or(1.0, |c| q.domain.iloss(&c));
        generalised += q
            .covers
            .iter()
            .zip(&counts)
            .filter(|(c, _)| !is_point(c))
            .map(|(_, &k)| k)
            .sum::<usize>();
        level_sum += lv;
        iloss += w * il;
        worst += w * star * n;
        attributes.push(AttributeLoss {
            attribute: q.column.name.clone(),
            level: lv / n,
            iloss: il / n,
        });
    }
    CellLoss {
        precision: 1.0 - level_sum / (qi.len().max(1) as f64 * n),
        iloss,
        iloss_per_record: iloss / n,
        iloss_share: if worst > 0.0 { iloss / worst } else { 0.0 },
        generalised_cells: generalised as f64 / (qi.len().max(1) as f64 * n),
        attributes,
    }
}

/// Non-uniform entropy of released columns against their aligned originals: (total bits,
/// maximum bits).
pub(crate) fn non_uniform_entropy(released: &[&Column], original: &[&Column]) -> (f64, f64) {
    let mut total = 0.0;
    let mut max = 0.0;
    for (rel, orig) in released.iter().zip(original) {
        let n = rel.len();
        let rel_counts = rel.counts();
        let orig_counts = orig.counts();
        let mut joint: HashMap<(u32, u32), usize> = HashMap::new();
        for r in 0..n {
            *joint.entry((rel.codes[r], orig.codes[r])).or_default() += 1;
        }
        for r in 0..n {
            let (g, o) = (rel.codes[r], orig.codes[r]);
            total -= (joint[&(g, o)] as f64 / rel_counts[g as usize] as f64).log2();
            max -= (orig_counts[o as usize] as f64 / n as f64).log2();
        }
    }
    (total.max(0.0), max.max(0.0))
}

/// The a-posteriori utility of one sensitive attribute on one table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct APosteriori {
    pub attribute: String,
    /// True when a semantic partition covers the attribute.
    pub semantic: bool,
    /// SeDR of each key attribute, then of all keys together (last).
    pub keys: Vec<KeyUtility>,
}

/// SeDR of one key (one attribute or all of them), on the release and on the original.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct KeyUtility {
    pub attributes: Vec<String>,
    /// Whether semantic partitions cover the key attributes (all that do are applied).
    pub semantic: bool,
    pub release: f64,
    pub original: Option<f64>,
    /// release − original.
    pub difference: Option<f64>,
}

/// SeDR_X(each key, all keys) on one table with semantic partitions applied.
fn sedrs(x: &Column, keys: &[&Column], semantic: &Semantic) -> Vec<f64> {
    let sx = semantic.apply(x);
    let d = Discriminator::new(&sx);
    let mapped: Vec<Column> = keys.iter().map(|k| semantic.apply(k)).collect();
    let mut out: Vec<f64> = mapped.iter().map(|k| d.dr(&[k], false).dr).collect();
    let all: Vec<&Column> = mapped.iter().collect();
    out.push(d.dr(&all, false).dr);
    out
}

/// The a-posteriori utility of sensitive attribute `x` with keys `qi`; `original` gives the
/// same attribute and keys in the original table.
pub(crate) fn a_posteriori(
    x: &Column,
    qi: &[&Column],
    original: Option<(&Column, Vec<&Column>)>,
    semantic: &Semantic,
) -> APosteriori {
    let rel = sedrs(x, qi, semantic);
    let orig = original.map(|(ox, oq)| sedrs(ox, &oq, semantic));
    let mut names: Vec<Vec<String>> = qi.iter().map(|c| vec![c.name.clone()]).collect();
    names.push(qi.iter().map(|c| c.name.clone()).collect());
    let keys = names
        .into_iter()
        .enumerate()
        .map(|(i, attributes)| KeyUtility {
            semantic: attributes.iter().any(|a| semantic.has(a)),
            attributes,
            release: rel[i],
            original: orig.as_ref().map(|o| o[i]),
            difference: orig.as_ref().map(|o| rel[i] - o[i]),
        })
        .collect();
    APosteriori {
        attribute: x.name.clone(),
        semantic: semantic.has(&x.name),
        keys,
    }
}

/// True when a cover is a single original value (used to tell generalised cells apart).
pub(crate) fn is_point(c: &Cover) -> bool {
    match c {
        Cover::Numeric { lo, hi, .. } => lo == hi,
        Cover::Ordinal { lo, hi } => lo == hi,
        Cover::Node { level, .. } => *level == 0,
        Cover::Pattern { text } => !text.contains('*'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assess::generalised::Domain;
    use std::path::Path;

    fn col(name: &str, cells: &[&str]) -> Column {
        Column::encode(name, cells.iter().copied())
    }

    #[test]
    fn dm_and_cavg_match_crate_metrics() {
        use crate::data::distance::RecordDistance;
        use crate::data::fixtures::{qi, quasi, table};
        use crate::data::schema::Kind;
        let t = table(&[&["x"], &["0"], &["1"], &["2"], &["3"], &["9"]]);
        let q = qi(&t, &[quasi("x", Kind::Numeric, 1.0)]);
        let d = RecordDistance::new(&q);
        let p = crate::Partition::from_labels(&[0, 0, 0, 1, 1]);
        let k = [2, 2, 3, 3, 3];
        let m = crate::partition::metrics::compute(&q, &d, &k, &p);
        // Class 0: size 3, max k 3 → 9; class 1: size 2 < 3 → 2·5.
        assert_eq!(dm(&[3, 2], &[3, 3], 5), m.dm);
        assert_eq!(m.dm, 19.0);
        assert!((cavg(&k, 2) - m.cavg).abs() < 1e-12);
    }

    #[test]
    fn precision_and_iloss_by_hand() {
        // Age over [20, 60]: cells 25 (0), [30-39] (9/40), * (1); flat sex: M (0), * (1).
        let lines = [2, 3, 3];
        let age = QiView::new(
            col("age", &["25", "[30-39]", "*"]),
            Domain::Numeric {
                min: 20.0,
                max: 60.0,
            },
            Path::new("t"),
            &lines,
        )
        .unwrap();
        let sex = QiView::new(
            col("sex", &["M", "*", "*"]),
            Domain::Flat {
                values: vec!["M".into(), "F".into()],
            },
            Path::new("t"),
            &lines,
        )
        .unwrap();
        let l = cell_loss(&[age, sex], &[1.0, 2.0]);
        let levels = 9.0 / 40.0 + 1.0 + 1.0 + 1.0;
        assert!((l.precision - (1.0 - levels / 6.0)).abs() < 1e-12);
        // ILoss: age 9/40 + 1; sex (2−1)/2 twice, weight 2.
        let il = 9.0 / 40.0 + 1.0 + 2.0 * 0.5 * 2.0;
        assert!((l.iloss - il).abs() < 1e-12);
        assert!((l.iloss_share - il / (3.0 + 2.0 * 0.5 * 3.0)).abs() < 1e-12);
        assert!((l.generalised_cells - 4.0 / 6.0).abs() < 1e-12);
        assert!(is_point(&Cover::Pattern { text: "M".into() }));
    }

    #[test]
    fn non_uniform_entropy_by_hand() {
        let orig = col("a", &["1", "2", "3", "3"]);
        let rel = col("a", &["[1-2]", "[1-2]", "3", "3"]);
        let (t, m) = non_uniform_entropy(&[&rel], &[&orig]);
        // Records 1, 2: −log2(1/2) each; records 3, 4: 0.
        assert!((t - 2.0).abs() < 1e-12);
        // Max: 2·log2 4 + 2·log2 2 = 6.
        assert!((m - 6.0).abs() < 1e-12);
        assert_eq!(non_uniform_entropy(&[&orig], &[&orig]).0, 0.0);
    }
}
