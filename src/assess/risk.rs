//! Re-identification risk under the three attacker models of seed 004 (El Emam's prosecutor,
//! journalist and marketer scenarios, as ARX reports them).
//!
//! - **Prosecutor** (the attacker knows the target is in the table): record risk 1/f_j, f_j the
//!   size of its class; lowest, highest and average (= #classes/n).
//! - **Journalist** (the table is a sample of a population, the original): record risk 1/F_j,
//!   F_j the number of population records that *match* the released tuple: an original record
//!   matches when, for every quasi-identifier, its value falls under the released value (equal
//!   text; inside the interval, half-line or mask; under the hierarchy label; `*` matches all;
//!   see [`super::generalised`]). Records whose tuple matches no original record (a table that
//!   is not drawn from the original) are counted in `unmatched` and left out of the journalist
//!   figures.
//! - **Marketer**: expected share of records re-identified when linking all: #classes/n
//!   without a population; with one, (1/n)·Σ_j f_j/F_j (the journalist-marketer variant).
//! - Sample uniques: records alone in their class; records at risk: prosecutor risk strictly
//!   above the risk threshold.

use super::classes::Classes;
use super::column::Column;
use super::generalised::{Cover, Domain, QiView};
use super::utility::is_point;
use crate::data::qi::parse_number;
use serde::Serialize;
use std::collections::HashMap;

/// Lowest, highest and average of a per-record risk.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Spread {
    pub lowest: f64,
    pub highest: f64,
    pub average: f64,
    /// Share of the records whose risk is strictly above the threshold.
    pub above_threshold: f64,
}

fn spread(risks: &[f64], threshold: f64) -> Spread {
    let n = risks.len().max(1) as f64;
    Spread {
        lowest: risks.iter().copied().fold(f64::INFINITY, f64::min),
        highest: risks.iter().copied().fold(0.0, f64::max),
        average: risks.iter().sum::<f64>() / n,
        above_threshold: risks.iter().filter(|&&r| r > threshold).count() as f64 / n,
    }
}

/// The `risk` section of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct RiskReport {
    pub threshold: f64,
    pub prosecutor: Spread,
    /// #classes / n.
    pub marketer: f64,
    pub sample_uniques: usize,
    pub sample_uniques_share: f64,
    /// With the original: population-based figures.
    pub journalist: Option<Journalist>,
}

/// Journalist-model figures against a population.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Journalist {
    pub population: usize,
    pub risk: Option<Spread>,
    /// (1/n)·Σ_j f_j/F_j over the matched classes.
    pub marketer: Option<f64>,
    /// Records whose released tuple matches no population record.
    pub unmatched: usize,
    /// Population uniques among the released tuples (F_j = 1), in records.
    pub population_uniques: usize,
}

/// Computes the risk section; `population` gives the original's quasi-identifier columns (in
/// the order of `qi`).
pub(crate) fn report(
    classes: &Classes,
    qi: &[QiView],
    population: Option<&[Column]>,
    threshold: f64,
) -> RiskReport {
    let n = classes.of.len();
    let prosecutor: Vec<f64> = (0..n).map(|r| 1.0 / classes.size_of(r) as f64).collect();
    let uniques = classes.sizes.iter().filter(|&&s| s == 1).count();
    let journalist = population.map(|pop| {
        let f_pop = population_counts(classes, qi, pop);
        let mut risks = Vec::new();
        let mut unmatched = 0;
        let mut population_uniques = 0;
        for r in 0..n {
            match f_pop[classes.of[r] as usize] {
                0 => unmatched += 1,
                f => {
                    risks.push(1.0 / f as f64);
                    population_uniques += usize::from(f == 1);
                }
            }
        }
        let marketer: f64 = classes
            .sizes
            .iter()
            .zip(&f_pop)
            .filter(|(_, &f)| f > 0)
            .map(|(&s, &f)| s as f64 / f as f64)
            .sum::<f64>()
            / n as f64;
        Journalist {
            population: pop.first().map_or(0, Column::len),
            risk: (!risks.is_empty()).then(|| spread(&risks, threshold)),
            marketer: (!risks.is_empty()).then_some(marketer),
            unmatched,
            population_uniques,
        }
    });
    RiskReport {
        threshold,
        prosecutor: spread(&prosecutor, threshold),
        marketer: classes.sizes.len() as f64 / n as f64,
        sample_uniques: uniques,
        sample_uniques_share: uniques as f64 / n as f64,
        journalist,
    }
}

/// F_j: for each class, the number of population records matching its released tuple.
///
/// Population records are grouped by their tuple. For each quasi-identifier, each released
/// value gets the sorted list of population values it covers: a point (a plain value) looks
/// its text (and, numerically, its number) up in an index, a generalised value scans the
/// population's distinct values. A class then scans only the population tuples holding a
/// value covered on its most selective attribute, checking the others by binary search. Memory
/// stays proportional to the matches, even for columns with many distinct values.
pub(crate) fn population_counts(classes: &Classes, qi: &[QiView], pop: &[Column]) -> Vec<usize> {
    let m = qi.len();
    let npop = pop.first().map_or(0, Column::len);
    // Distinct population tuples with their multiplicity.
    let mut tuples: HashMap<Vec<u32>, usize> = HashMap::new();
    for r in 0..npop {
        let key: Vec<u32> = pop.iter().map(|c| c.codes[r]).collect();
        *tuples.entry(key).or_default() += 1;
    }
    let tuples: Vec<(Vec<u32>, usize)> = tuples.into_iter().collect();
    // covers[a][released code] = sorted population codes of attribute a it covers.
    let covers: Vec<Vec<Vec<u32>>> = (0..m).map(|a| covered(&qi[a], &pop[a])).collect();
    // postings[a][population code] = tuple ids holding it.
    let mut postings: Vec<Vec<Vec<usize>>> = (0..m)
        .map(|a| vec![Vec::new(); pop[a].distinct()])
        .collect();
    for (t, (key, _)) in tuples.iter().enumerate() {
        for a in 0..m {
            postings[a][key[a] as usize].push(t);
        }
    }
    // One representative record per class.
    let mut rep = vec![usize::MAX; classes.sizes.len()];
    for (r, &c) in classes.of.iter().enumerate() {
        if rep[c as usize] == usize::MAX {
            rep[c as usize] = r;
        }
    }
    rep.iter()
        .map(|&r| {
            if m == 0 {
                return npop;
            }
            let lists: Vec<&Vec<u32>> = (0..m)
                .map(|a| &covers[a][qi[a].column.codes[r] as usize])
                .collect();
            let candidates = |a: usize| -> usize {
                lists[a]
                    .iter()
                    .map(|&v| postings[a][v as usize].len())
                    .sum()
            };
            let best = (0..m).min_by_key(|&a| candidates(a)).expect("m > 0");
            lists[best]
                .iter()
                .flat_map(|&v| postings[best][v as usize].iter())
                .filter(|&&t| {
                    (0..m).all(|a| a == best || lists[a].binary_search(&tuples[t].0[a]).is_ok())
                })
                .map(|&t| tuples[t].1)
                .sum()
        })
        .collect()
}

/// For each released value of one attribute, the sorted population codes it covers.
fn covered(view: &QiView, pop: &Column) -> Vec<Vec<u32>> {
    let by_text: HashMap<&str, u32> = pop
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i as u32))
        .collect();
    let numeric = matches!(view.domain, Domain::Numeric { .. });
    let mut by_number: HashMap<u64, Vec<u32>> = HashMap::new();
    if numeric {
        for (i, v) in pop.values.iter().enumerate() {
            if let Some(x) = parse_number(v) {
                by_number
                    .entry((x + 0.0).to_bits())
                    .or_default()
                    .push(i as u32);
            }
        }
    }
    view.covers
        .iter()
        .zip(&view.column.values)
        .map(|(cover, text)| {
            let mut list: Vec<u32> = if is_point(cover) {
                let mut l: Vec<u32> = by_text.get(text.as_str()).copied().into_iter().collect();
                match (cover, &view.domain) {
                    (Cover::Numeric { lo, .. }, _) => {
                        l.extend(by_number.get(&(lo + 0.0).to_bits()).into_iter().flatten())
                    }
                    (Cover::Ordinal { lo, .. }, Domain::Ordinal { levels }) => {
                        l.extend(by_text.get(levels[*lo as usize].as_str()))
                    }
                    _ => {}
                }
                l
            } else {
                pop.values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| view.domain.matches(cover, text, v))
                    .map(|(i, _)| i as u32)
                    .collect()
            };
            list.sort_unstable();
            list.dedup();
            list
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assess::generalised::{Domain, QiView};

    fn view(name: &str, cells: &[&str], domain: Domain) -> QiView {
        let c = Column::encode(name, cells.iter().copied());
        let lines: Vec<u64> = (2..2 + cells.len() as u64).collect();
        QiView::new(c, domain, std::path::Path::new("t.csv"), &lines).unwrap()
    }

    const GENDER: [&str; 11] = [
        "Male", "Male", "Male", "Female", "Female", "Male", "Male", "Female", "Male", "Female",
        "Male",
    ];
    const YOB: [&str; 11] = [
        "1979", "1982", "1979", "1995", "1987", "1995", "1998", "1984", "1979", "1995", "1987",
    ];
    const DECADE: [&str; 11] = [
        "1970-1979",
        "1980-1989",
        "1970-1979",
        "1990-1999",
        "1980-1989",
        "1990-1999",
        "1990-1999",
        "1980-1989",
        "1970-1979",
        "1990-1999",
        "1980-1989",
    ];

    fn flat() -> Domain {
        Domain::Flat {
            values: vec!["Male".into(), "Female".into()],
        }
    }

    #[test]
    fn seed_004_prosecutor_before_and_after() {
        let year = || Domain::Numeric {
            min: 1979.0,
            max: 1998.0,
        };
        let before = [view("g", &GENDER, flat()), view("y", &YOB, year())];
        let cols: Vec<&Column> = before.iter().map(|v| &v.column).collect();
        let c = Classes::of(&cols, 11);
        let r = report(&c, &before, None, 0.2);
        // Lowest 1/3 ≈ 0.33, highest 1, average 8/11 ≈ 0.73.
        assert!((r.prosecutor.lowest - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.prosecutor.highest, 1.0);
        assert!((r.prosecutor.average - 8.0 / 11.0).abs() < 1e-12);
        assert!((r.marketer - 8.0 / 11.0).abs() < 1e-12);
        assert_eq!(r.sample_uniques, 6);
        // Every record's risk is at least 1/3 > 0.2.
        assert_eq!(r.prosecutor.above_threshold, 1.0);
        let after = [view("g", &GENDER, flat()), view("y", &DECADE, year())];
        let cols: Vec<&Column> = after.iter().map(|v| &v.column).collect();
        let c = Classes::of(&cols, 11);
        let pop = [
            Column::encode("g", GENDER.iter().copied()),
            Column::encode("y", YOB.iter().copied()),
        ];
        let r = report(&c, &after, Some(&pop), 0.4);
        // Lowest 0.33, highest 0.5 (the seed labels it "(Male, 1982)": the class is
        // (Male, 1980-1989)), average 5/11 ≈ 0.45.
        assert!((r.prosecutor.lowest - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.prosecutor.highest, 0.5);
        assert!((r.prosecutor.average - 5.0 / 11.0).abs() < 1e-12);
        assert!((r.prosecutor.above_threshold - 8.0 / 11.0).abs() < 1e-12);
        assert_eq!(r.sample_uniques, 0);
        // The table is its own population: F_j = f_j, journalist = prosecutor, and the
        // journalist-marketer risk (1/n)·Σ_j f_j/F_j = #classes/n = the marketer risk.
        let j = r.journalist.unwrap();
        assert_eq!(j.unmatched, 0);
        assert_eq!(j.risk.unwrap(), r.prosecutor);
        assert!((j.marketer.unwrap() - 5.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn journalist_against_a_larger_population() {
        // Released sample: two records "[20-29]" and one "3*"; population: ages 20..=39 once.
        let d = || Domain::Numeric {
            min: 20.0,
            max: 39.0,
        };
        let rel = [view("age", &["[20-29]", "[20-29]", "3*"], d())];
        let cols: Vec<&Column> = rel.iter().map(|v| &v.column).collect();
        let c = Classes::of(&cols, 3);
        let ages: Vec<String> = (20..40).map(|a| a.to_string()).collect();
        let pop = [Column::encode("age", ages.iter().map(String::as_str))];
        let r = report(&c, &rel, Some(&pop), 0.2);
        let j = r.journalist.unwrap();
        assert_eq!(j.population, 20);
        let risk = j.risk.unwrap();
        assert_eq!((risk.lowest, risk.highest), (0.1, 0.1));
        // (2/10 + 1/10) / 3
        assert!((j.marketer.unwrap() - 0.1).abs() < 1e-12);
        // A tuple outside the population is unmatched.
        let rel = [view("age", &["[50-59]", "25"], d())];
        let cols: Vec<&Column> = rel.iter().map(|v| &v.column).collect();
        let c = Classes::of(&cols, 2);
        let j = report(&c, &rel, Some(&pop), 0.2).journalist.unwrap();
        assert_eq!((j.unmatched, j.population_uniques), (1, 1));
        // Points written as degenerate intervals or with another number format still match.
        let rel = [view("age", &["[25-25]", "25.0"], d())];
        let cols: Vec<&Column> = rel.iter().map(|v| &v.column).collect();
        let c = Classes::of(&cols, 2);
        let j = report(&c, &rel, Some(&pop), 0.2).journalist.unwrap();
        assert_eq!((j.unmatched, j.population_uniques), (0, 2));
    }
}
