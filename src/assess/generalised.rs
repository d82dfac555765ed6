//! Reading generalised cells: what set of original values a released value stands for.
//!
//! optik releases write numeric classes as `[min-max]`, ordinal ones as `[low-high]` and
//! categorical ones as hierarchy labels; other tools write `0-4`, `[20, 30[`, `>= 40`, `2*`,
//! `355**` or `*`. For each quasi-identifier, by its schema kind:
//!
//! - **numeric**: a number (a point); `[a-b]`, `[a, b]`, `[a, b[`, `]a, b]`, `a-b` (intervals,
//!   bounds as written); `>= a`, `≥ a`, `> a`, `<= b`, `≤ b`, `< b` (half-lines); a digit mask
//!   `35**` (each `*` one digit: `[3500, 3599]`); `*` (the whole domain).
//! - **ordinal**: a level, `[low-high]` between two levels, or `*`.
//! - **categorical with a hierarchy**: a leaf or any label of the hierarchy (the lowest level
//!   holding it); `*` is the root.
//! - **categorical without a hierarchy**: the value itself, `*` (everything), or a mask where
//!   each `*` stands for one character (`355**` covers `35510`).
//!
//! A cell that fits none of these is bad input (one-line error naming file, line and column).
//!
//! Each reading gives the cell's **generalisation level** in [0, 1] (Sweeney's h/|VGH|:
//! hierarchy level / height; interval width / domain range; masked characters / length; `*`
//! is 1) and its **ILoss** (Xiao & Tao: (|covered leaves| − 1)/|domain| for hierarchies, flat
//! domains and ordinal levels; width/range for numeric intervals), and decides whether an
//! original value matches it (for the journalist risk).

use super::column::Column;
use crate::data::hierarchy::Hierarchy;
use crate::data::qi::parse_number;
use crate::error::{at_cell, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// What one released value covers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cover {
    /// Numbers between `lo` and `hi` (infinite for half-lines and `*`).
    Numeric {
        lo: f64,
        hi: f64,
        lo_open: bool,
        hi_open: bool,
    },
    /// Ordinal ranks `lo..=hi`.
    Ordinal { lo: u32, hi: u32 },
    /// A hierarchy node: level and the node's label id at that level.
    Node { level: usize, id: u32 },
    /// Flat categorical: exact text, or a mask where `*` is any one character (`*` alone:
    /// everything).
    Pattern { text: String },
}

/// The kind information needed to read a quasi-identifier's cells.
#[derive(Clone, Debug)]
pub(crate) enum Domain {
    /// Numeric with the domain's range (from the original when given, else from the cells).
    Numeric { min: f64, max: f64 },
    /// Ordinal levels.
    Ordinal { levels: Vec<String> },
    /// Hierarchy with label → (lowest level, id) and leaves under each (level, id).
    Hierarchy {
        h: Arc<Hierarchy>,
        labels: HashMap<String, (usize, u32)>,
        leaves_under: HashMap<(usize, u32), usize>,
    },
    /// Flat categorical with its known plain values (from the table and the original).
    Flat { values: Vec<String> },
}

/// Parses a numeric generalised cell; `None` when it is not one.
pub(crate) fn parse_numeric(v: &str) -> Option<Cover> {
    let v = v.trim();
    let point = |x: f64| Cover::Numeric {
        lo: x,
        hi: x,
        lo_open: false,
        hi_open: false,
    };
    if let Some(x) = parse_number(v) {
        return Some(point(x));
    }
    if v == "*" {
        return Some(Cover::Numeric {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            lo_open: true,
            hi_open: true,
        });
    }
    for (prefix, lower, open) in [
        (">=", true, false),
        ("≥", true, false),
        ("<=", false, false),
        ("≤", false, false),
        (">", true, true),
        ("<", false, true),
    ] {
        if let Some(rest) = v.strip_prefix(prefix) {
            let x = parse_number(rest)?;
            return Some(if lower {
                Cover::Numeric {
                    lo: x,
                    hi: f64::INFINITY,
                    lo_open: open,
                    hi_open: true,
                }
            } else {
                Cover::Numeric {
                    lo: f64::NEG_INFINITY,
                    hi: x,
                    lo_open: true,
                    hi_open: open,
                }
            });
        }
    }
    // Bracketed intervals: [a-b], [a, b], [a, b[, ]a, b], and bare a-b.
    let (lo_open, body, hi_open) = match (v.chars().next(), v.chars().last()) {
        (Some(o @ ('[' | ']')), Some(c @ ('[' | ']'))) if v.len() >= 2 => {
            (o == ']', &v[1..v.len() - 1], c == '[')
        }
        _ => (false, v, false),
    };
    let split = |sep: char| -> Option<(f64, f64)> {
        body.char_indices()
            .filter(|&(i, c)| c == sep && i > 0)
            .find_map(|(i, _)| Some((parse_number(&body[..i])?, parse_number(&body[i + 1..])?)))
    };
    if let Some((lo, hi)) = split(',').or_else(|| split('-')).or_else(|| split(';')) {
        if lo <= hi {
            return Some(Cover::Numeric {
                lo,
                hi,
                lo_open,
                hi_open,
            });
        }
    }
    // Digit masks: 35**, 2*.
    if v.contains('*')
        && v.trim_end_matches('*').chars().all(|c| c.is_ascii_digit())
        && !v.trim_end_matches('*').is_empty()
    {
        let lo: String = v.chars().map(|c| if c == '*' { '0' } else { c }).collect();
        let hi: String = v.chars().map(|c| if c == '*' { '9' } else { c }).collect();
        return Some(Cover::Numeric {
            lo: lo.parse().ok()?,
            hi: hi.parse().ok()?,
            lo_open: false,
            hi_open: false,
        });
    }
    None
}

/// Does a mask (`*` = any one character; `*` alone = anything) cover `value`?
pub(crate) fn mask_matches(mask: &str, value: &str) -> bool {
    if mask == "*" {
        return true;
    }
    if !mask.contains('*') {
        return mask == value;
    }
    let (m, v): (Vec<char>, Vec<char>) = (mask.chars().collect(), value.chars().collect());
    m.len() == v.len() && m.iter().zip(&v).all(|(a, b)| *a == '*' || a == b)
}

impl Domain {
    /// Index of a hierarchy's labels (each at its lowest level) and node sizes.
    pub(crate) fn hierarchy(h: Arc<Hierarchy>) -> Domain {
        let mut labels = HashMap::new();
        let mut leaves_under: HashMap<(usize, u32), usize> = HashMap::new();
        for level in 0..=h.height() {
            for leaf in 0..h.num_leaves() as u32 {
                let id = h.ancestor(leaf, level);
                *leaves_under.entry((level, id)).or_default() += 1;
                labels
                    .entry(h.ancestor_label(leaf, level).to_string())
                    .or_insert((level, id));
            }
        }
        Domain::Hierarchy {
            h,
            labels,
            leaves_under,
        }
    }

    /// Reads one cell; `None` when it fits no form of this kind.
    pub(crate) fn read(&self, v: &str) -> Option<Cover> {
        match self {
            Domain::Numeric { .. } => parse_numeric(v),
            Domain::Ordinal { levels } => {
                let rank = |s: &str| levels.iter().position(|l| l == s.trim()).map(|r| r as u32);
                if v == "*" {
                    return Some(Cover::Ordinal {
                        lo: 0,
                        hi: levels.len() as u32 - 1,
                    });
                }
                if let Some(r) = rank(v) {
                    return Some(Cover::Ordinal { lo: r, hi: r });
                }
                let body = v.strip_prefix('[')?.strip_suffix(']')?;
                body.char_indices()
                    .filter(|&(_, c)| c == '-' || c == ',')
                    .find_map(|(i, _)| {
                        let (lo, hi) = (rank(&body[..i])?, rank(&body[i + 1..])?);
                        (lo <= hi).then_some(Cover::Ordinal { lo, hi })
                    })
            }
            Domain::Hierarchy { h, labels, .. } => {
                if v == "*" {
                    return Some(Cover::Node {
                        level: h.height(),
                        id: 0,
                    });
                }
                labels.get(v).map(|&(level, id)| Cover::Node { level, id })
            }
            Domain::Flat { .. } => Some(Cover::Pattern {
                text: v.to_string(),
            }),
        }
    }

    /// Generalisation level of a cover in [0, 1] (Sweeney's h/|VGH|, see the module doc).
    pub(crate) fn level(&self, c: &Cover) -> f64 {
        match (self, c) {
            (Domain::Numeric { min, max }, Cover::Numeric { lo, hi, .. }) => {
                if max <= min {
                    return if lo == hi { 0.0 } else { 1.0 };
                }
                ((hi.min(*max) - lo.max(*min)).max(0.0) / (max - min)).min(1.0)
            }
            (Domain::Ordinal { levels }, Cover::Ordinal { lo, hi }) => {
                (hi - lo) as f64 / (levels.len() - 1).max(1) as f64
            }
            (Domain::Hierarchy { h, .. }, Cover::Node { level, .. }) => {
                *level as f64 / h.height().max(1) as f64
            }
            (Domain::Flat { .. }, Cover::Pattern { text }) => {
                if text == "*" {
                    1.0
                } else {
                    let stars = text.chars().filter(|&c| c == '*').count();
                    stars as f64 / text.chars().count() as f64
                }
            }
            _ => unreachable!("covers are read by their own domain"),
        }
    }

    /// Xiao & Tao's ILoss of a cover (see the module doc).
    pub(crate) fn iloss(&self, c: &Cover) -> f64 {
        match (self, c) {
            (Domain::Numeric { .. }, Cover::Numeric { .. }) => self.level(c),
            (Domain::Ordinal { levels }, Cover::Ordinal { lo, hi }) => {
                (hi - lo) as f64 / levels.len() as f64
            }
            (
                Domain::Hierarchy {
                    h, leaves_under, ..
                },
                Cover::Node { level, id },
            ) => (leaves_under[&(*level, *id)] - 1) as f64 / h.num_leaves() as f64,
            (Domain::Flat { values }, Cover::Pattern { text }) => {
                if values.is_empty() {
                    return 0.0;
                }
                let covered = values.iter().filter(|v| mask_matches(text, v)).count();
                covered.saturating_sub(1) as f64 / values.len() as f64
            }
            _ => unreachable!("covers are read by their own domain"),
        }
    }

    /// Does the original value `v` fall under the cover? (Original values are read as plain
    /// values of the kind; a value the kind cannot read matches only an identical text.)
    pub(crate) fn matches(&self, c: &Cover, cover_text: &str, v: &str) -> bool {
        if cover_text == v {
            return true;
        }
        match (self, c) {
            (
                Domain::Numeric { .. },
                Cover::Numeric {
                    lo,
                    hi,
                    lo_open,
                    hi_open,
                },
            ) => match parse_number(v) {
                Some(x) => {
                    (if *lo_open { x > *lo } else { x >= *lo })
                        && (if *hi_open { x < *hi } else { x <= *hi })
                }
                None => false,
            },
            (Domain::Ordinal { levels }, Cover::Ordinal { lo, hi }) => levels
                .iter()
                .position(|l| l == v)
                .is_some_and(|r| (*lo..=*hi).contains(&(r as u32))),
            (Domain::Hierarchy { h, .. }, Cover::Node { level, id }) => h
                .leaf(v)
                .is_some_and(|leaf| h.ancestor(leaf, *level) == *id),
            (Domain::Flat { .. }, Cover::Pattern { text }) => mask_matches(text, v),
            _ => false,
        }
    }
}

/// A quasi-identifier of the assessed table with every distinct cell read.
#[derive(Clone, Debug)]
pub(crate) struct QiView {
    pub column: Column,
    pub domain: Domain,
    /// Reading of each distinct value (by code).
    pub covers: Vec<Cover>,
}

impl QiView {
    /// Reads every distinct cell; the first unreadable one is an error at its line.
    pub(crate) fn new(
        column: Column,
        domain: Domain,
        path: &std::path::Path,
        lines: &[u64],
    ) -> Result<QiView> {
        let mut covers = Vec::with_capacity(column.distinct());
        for (code, v) in column.values.iter().enumerate() {
            match domain.read(v) {
                Some(c) => covers.push(c),
                None => {
                    let row = column
                        .codes
                        .iter()
                        .position(|&c| c as usize == code)
                        .expect("every value occurs");
                    let what = match &domain {
                        Domain::Numeric { .. } => {
                            "is not a number, an interval, a mask or '*'".to_string()
                        }
                        Domain::Ordinal { levels } => format!(
                            "is neither an ordinal level nor [low-high] of levels ({})",
                            levels.join(", ")
                        ),
                        _ => "is not a label of the attribute's hierarchy".to_string(),
                    };
                    return Err(at_cell(
                        path,
                        lines[row],
                        &column.name,
                        format!("'{v}' {what}"),
                    ));
                }
            }
        }
        Ok(QiView {
            column,
            domain,
            covers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(lo: f64, hi: f64) -> Cover {
        Cover::Numeric {
            lo,
            hi,
            lo_open: false,
            hi_open: false,
        }
    }

    #[test]
    fn numeric_forms() {
        assert_eq!(parse_numeric("42"), Some(num(42.0, 42.0)));
        assert_eq!(parse_numeric("[30-39]"), Some(num(30.0, 39.0)));
        assert_eq!(parse_numeric("0-4"), Some(num(0.0, 4.0)));
        assert_eq!(parse_numeric("[-5--3]"), Some(num(-5.0, -3.0)));
        assert_eq!(parse_numeric("[1.5, 2]"), Some(num(1.5, 2.0)));
        assert_eq!(
            parse_numeric("[20, 30["),
            Some(Cover::Numeric {
                lo: 20.0,
                hi: 30.0,
                lo_open: false,
                hi_open: true
            })
        );
        assert_eq!(parse_numeric("2*"), Some(num(20.0, 29.0)));
        assert_eq!(parse_numeric("355**"), Some(num(35500.0, 35599.0)));
        assert!(
            matches!(parse_numeric("≥ 40"), Some(Cover::Numeric { lo, hi, .. }) if lo == 40.0 && hi.is_infinite())
        );
        assert!(
            matches!(parse_numeric("< 10"), Some(Cover::Numeric { hi, hi_open: true, .. }) if hi == 10.0)
        );
        assert_eq!(parse_numeric("abc"), None);
        assert_eq!(parse_numeric("[9-3]"), None);
        assert_eq!(parse_numeric("Married-civ"), None);
    }

    #[test]
    fn levels_iloss_and_matching() {
        let d = Domain::Numeric {
            min: 20.0,
            max: 60.0,
        };
        let c = d.read("[30-39]").unwrap();
        assert!((d.level(&c) - 9.0 / 40.0).abs() < 1e-12);
        assert!(d.matches(&c, "[30-39]", "35") && !d.matches(&c, "[30-39]", "40"));
        let star = d.read("*").unwrap();
        assert_eq!(d.level(&star), 1.0);
        assert_eq!(d.level(&d.read("42").unwrap()), 0.0);
        // A one-point domain: a point is not generalised, an interval fully.
        let point = Domain::Numeric { min: 5.0, max: 5.0 };
        assert_eq!(point.level(&point.read("5").unwrap()), 0.0);
        assert_eq!(point.level(&point.read("[0-9]").unwrap()), 1.0);
        let o = Domain::Ordinal {
            levels: vec!["low".into(), "mid-x".into(), "high".into()],
        };
        let c = o.read("[low-mid-x]").unwrap();
        assert_eq!(c, Cover::Ordinal { lo: 0, hi: 1 });
        assert_eq!(o.level(&c), 0.5);
        assert!((o.iloss(&c) - 1.0 / 3.0).abs() < 1e-12);
        assert!(o.matches(&c, "", "mid-x") && !o.matches(&c, "", "high"));
        let h = Hierarchy::from_rows(&[
            (1, vec!["a".into(), "AB".into(), "*".into()]),
            (2, vec!["b".into(), "AB".into(), "*".into()]),
            (3, vec!["c".into(), "C".into(), "*".into()]),
            (4, vec!["d".into(), "C".into(), "*".into()]),
        ])
        .unwrap();
        let hd = Domain::hierarchy(Arc::new(h));
        let ab = hd.read("AB").unwrap();
        assert_eq!(hd.level(&ab), 0.5);
        assert_eq!(hd.iloss(&ab), 0.25);
        assert_eq!(hd.iloss(&hd.read("*").unwrap()), 0.75);
        assert_eq!(hd.iloss(&hd.read("c").unwrap()), 0.0);
        assert!(hd.matches(&ab, "AB", "b") && !hd.matches(&ab, "AB", "c"));
        assert_eq!(hd.read("Z"), None);
        let f = Domain::Flat {
            values: vec!["35510".into(), "35512".into(), "35620".into()],
        };
        let m = f.read("355**").unwrap();
        assert_eq!(f.level(&m), 0.4);
        assert!((f.iloss(&m) - 1.0 / 3.0).abs() < 1e-12);
        assert!(f.matches(&m, "355**", "35512") && !f.matches(&m, "355**", "35620"));
    }
}
