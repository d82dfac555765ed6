//! Neighbourhoods that follow the data: from a seed class, the classes nearest to it until about
//! m records are free; and the order seeds are drawn in, covering the table pass after pass and
//! favouring classes that cost much more than their records' lower bounds.

use super::incumbent::Incumbent;
use super::oracle::DistanceOracle;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How "nearest class" is measured when a neighbourhood grows around its seed class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NeighbourhoodRule {
    /// Distance between the seed's medoid and each class's medoid (one distance per class).
    MedoidToSeed,
    /// Distance between the closest records of the seed class and each class (|seed| · n
    /// distances).
    ClosestRecords,
    /// Grows like Prim's tree: the next class is the one whose medoid is nearest to the medoid
    /// of any class already taken (a region that follows the data away from the seed).
    MedoidGrowth,
    /// Randomised, after Shaw's related removal (Ropke & Pisinger 2006): the centre is a
    /// random record of the seed class, the other classes are ranked by their record closest
    /// to it, and each next class is drawn at rank ⌊y^p · L⌋ of the L left (y uniform in
    /// [0, 1), p = [`RELATED_DETERMINISM`]): biased towards the nearest, not always them.
    /// The deterministic rules free one neighbourhood per seed and size, so once each is
    /// proven the search has nothing new to try at that size; this one frees another on
    /// every visit.
    Related,
}

impl NeighbourhoodRule {
    /// The rule a name (`medoid`, `closest`, `growth` or `related`) stands for, as the knob
    /// `OPTIK_LNS_RULE` and the benchmark's `--rule` spell it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "medoid" => Some(NeighbourhoodRule::MedoidToSeed),
            "closest" => Some(NeighbourhoodRule::ClosestRecords),
            "growth" => Some(NeighbourhoodRule::MedoidGrowth),
            "related" => Some(NeighbourhoodRule::Related),
            _ => None,
        }
    }
}

/// The exponent p of [`NeighbourhoodRule::Related`]: rank ⌊y^p · L⌋ picks the nearest of L
/// classes with probability (1/L)^(1/p) (0.18 for L = 1,000 at p = 4) and one in the nearer
/// half with probability 0.5^(1/p) (0.84 at p = 4).
pub const RELATED_DETERMINISM: i32 = 4;

/// Classes around `seed` (first) holding at least `size` records in all (or every class that
/// is not locked), nearest first by `rule`. Locked classes (in another worker's neighbourhood)
/// are never taken. Ties go to the smaller class id. Only [`NeighbourhoodRule::Related`] draws
/// from `rng`.
pub fn neighbourhood<O: DistanceOracle + ?Sized>(
    oracle: &O,
    inc: &Incumbent,
    seed: usize,
    size: usize,
    rule: NeighbourhoodRule,
    rng: &mut ChaCha8Rng,
    locked: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let seed_class = inc.class(seed).expect("the seed class exists");
    let mut taken = vec![seed];
    let mut records = seed_class.members.len();
    let free: Vec<usize> = inc.ids().filter(|&c| c != seed && !locked(c)).collect();
    match rule {
        NeighbourhoodRule::MedoidToSeed | NeighbourhoodRule::ClosestRecords => {
            let mut near: Vec<(i64, usize)> = match rule {
                NeighbourhoodRule::MedoidToSeed => free
                    .iter()
                    .map(|&c| {
                        let m = inc.class(c).expect("live").medoid;
                        (oracle.d(seed_class.medoid, m), c)
                    })
                    .collect(),
                _ => {
                    // Distance from each record to the seed class, then the minimum per class.
                    let mut best = vec![i64::MAX; free.len()];
                    for (t, &c) in free.iter().enumerate() {
                        for &j in &inc.class(c).expect("live").members {
                            for &i in &seed_class.members {
                                best[t] = best[t].min(oracle.d(i, j));
                            }
                        }
                    }
                    best.into_iter().zip(free.iter().copied()).collect()
                }
            };
            // At most `size` classes are needed (each holds a record): select them, then sort.
            if near.len() > size {
                near.select_nth_unstable(size);
                near.truncate(size);
            }
            near.sort_unstable();
            for (_, c) in near {
                if records >= size {
                    break;
                }
                records += inc.class(c).expect("live").members.len();
                taken.push(c);
            }
        }
        NeighbourhoodRule::Related => {
            let centre = seed_class.members[rng.gen_range(0..seed_class.members.len())];
            let mut near: Vec<(i64, usize)> = free
                .iter()
                .map(|&c| {
                    let members = &inc.class(c).expect("live").members;
                    let d = members.iter().map(|&j| oracle.d(centre, j)).min();
                    (d.unwrap_or(i64::MAX), c)
                })
                .collect();
            near.sort_unstable();
            while records < size && !near.is_empty() {
                let y: f64 = rng.gen();
                let rank = (y.powi(RELATED_DETERMINISM) * near.len() as f64) as usize;
                let (_, c) = near.remove(rank.min(near.len() - 1));
                records += inc.class(c).expect("live").members.len();
                taken.push(c);
            }
        }
        NeighbourhoodRule::MedoidGrowth => {
            let medoid = |c: usize| inc.class(c).expect("live").medoid;
            let mut dist: Vec<i64> = free
                .iter()
                .map(|&c| oracle.d(seed_class.medoid, medoid(c)))
                .collect();
            let mut used = vec![false; free.len()];
            while records < size {
                let Some(t) = (0..free.len())
                    .filter(|&t| !used[t])
                    .min_by_key(|&t| (dist[t], free[t]))
                else {
                    break;
                };
                used[t] = true;
                let c = free[t];
                taken.push(c);
                records += inc.class(c).expect("live").members.len();
                let mc = medoid(c);
                for u in 0..free.len() {
                    if !used[u] {
                        dist[u] = dist[u].min(oracle.d(mc, medoid(free[u])));
                    }
                }
            }
        }
    }
    taken
}

/// How strongly seeds favour classes far above their lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedBias {
    /// Every class equally likely first in a pass.
    Uniform,
    /// A class's chance to come early grows with cost / Σ of its members' bounds.
    CostOverBound,
    /// A class's chance to come early grows with its room, cost − Σ of its members' bounds,
    /// as 1 + room / the mean room: for bounds that nearly add up to the costs (an LP's duals,
    /// where the room is the class's reduced cost and the rooms add up to the gap to the LP).
    Room,
}

/// Seeds for the neighbourhoods: each pass is a random permutation of the classes that exist
/// when it starts (weighted sampling without replacement, Efraimidis–Spirakis keys); classes
/// that vanished since are skipped, classes an improvement creates come next.
#[derive(Debug)]
pub struct SeedOrder {
    rng: ChaCha8Rng,
    queue: Vec<usize>,
    bias: SeedBias,
    passes: usize,
}

impl SeedOrder {
    /// An empty order; the first call to [`SeedOrder::next`] starts pass 1.
    pub fn new(rng: ChaCha8Rng, bias: SeedBias) -> Self {
        SeedOrder {
            rng,
            queue: Vec::new(),
            bias,
            passes: 0,
        }
    }

    /// Passes started so far.
    pub fn passes(&self) -> usize {
        self.passes
    }

    /// The next seed class that still exists (`None` only when there is no class).
    pub fn next(&mut self, inc: &Incumbent) -> Option<usize> {
        loop {
            while let Some(c) = self.queue.pop() {
                if inc.class(c).is_some() {
                    return Some(c);
                }
            }
            if inc.num_classes() == 0 {
                return None;
            }
            self.refill(inc);
        }
    }

    /// Makes `classes` (just created by an improvement) the next seeds: the area that just
    /// changed is where the next improvement is likeliest.
    pub fn seed_next(&mut self, classes: &[usize]) {
        self.queue.extend(classes.iter().rev());
    }

    fn refill(&mut self, inc: &Incumbent) {
        self.passes += 1;
        let room = |c: usize| {
            let class = inc.class(c).expect("live");
            (class.cost as f64 - class.bound).max(0.0)
        };
        let mean_room = match self.bias {
            SeedBias::Room => inc.ids().map(room).sum::<f64>() / inc.num_classes().max(1) as f64,
            _ => 0.0,
        };
        let mut keyed: Vec<(f64, usize)> = inc
            .ids()
            .map(|c| {
                let class = inc.class(c).expect("live");
                let weight = match self.bias {
                    SeedBias::Uniform => 1.0,
                    SeedBias::CostOverBound => (class.cost as f64 + 1.0) / (class.bound + 1.0),
                    SeedBias::Room if mean_room > 0.0 => 1.0 + room(c) / mean_room,
                    SeedBias::Room => 1.0,
                };
                // u^(1/w), compared through its logarithm: larger keys come first.
                let u: f64 = self.rng.gen_range(f64::MIN_POSITIVE..1.0);
                (u.ln() / weight, c)
            })
            .collect();
        // The queue pops from the back: smallest keys first in the vector.
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        self.queue = keyed.into_iter().map(|(_, c)| c).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lns::cost::SumCriterion;
    use crate::{Instance, Partition};
    use rand::SeedableRng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(3)
    }

    /// Classes of two on a line, medoids at 0, 10, 20, 32 and 46.
    fn line() -> (Instance, Incumbent) {
        let pts: Vec<f64> = [0, 1, 10, 11, 20, 21, 32, 33, 46, 47]
            .iter()
            .map(|&v| v as f64)
            .collect();
        let inst =
            Instance::from_distance(1.0, vec![2; 10], |i, j| (pts[i] - pts[j]).abs()).unwrap();
        let p = Partition::from_labels(&[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        let inc = Incumbent::new(&inst, SumCriterion::Dbil, &p, &[0.0; 10]);
        (inst, inc)
    }

    #[test]
    fn every_rule_takes_the_nearest_classes() {
        let (inst, inc) = line();
        for rule in [
            NeighbourhoodRule::MedoidToSeed,
            NeighbourhoodRule::ClosestRecords,
            NeighbourhoodRule::MedoidGrowth,
        ] {
            let growth = rule == NeighbourhoodRule::MedoidGrowth;
            // From 20: 10 is nearest; then 32 (12 away) for the seed-distance rules, 0 for
            // growth (10 away from the class at 10).
            let expected = if growth { vec![2, 1, 0] } else { vec![2, 1, 3] };
            assert_eq!(
                neighbourhood(&inst, &inc, 2, 6, rule, &mut rng(), |_| false),
                expected
            );
            assert_eq!(
                neighbourhood(&inst, &inc, 0, 5, rule, &mut rng(), |_| false),
                vec![0, 1, 2]
            );
            assert_eq!(
                neighbourhood(&inst, &inc, 0, 2, rule, &mut rng(), |_| false),
                vec![0]
            );
            // Locked classes are passed over: with 10 locked, 32 then 0 (20 from the seed) or
            // 46 (14 from 32).
            let expected = if growth { vec![2, 3, 4] } else { vec![2, 3, 0] };
            assert_eq!(
                neighbourhood(&inst, &inc, 2, 6, rule, &mut rng(), |c| c == 1),
                expected
            );
            assert_eq!(
                neighbourhood(&inst, &inc, 4, 100, rule, &mut rng(), |_| false).len(),
                5
            );
        }
    }

    /// The related rule takes the seed class first, never a locked class, enough records, and
    /// mostly the nearest classes: over many draws from the class at 20, the class at 10 or 32
    /// comes second far more often than the class at 0 or 46, and every class comes up.
    #[test]
    fn the_related_rule_favours_near_classes_and_varies() {
        let (inst, inc) = line();
        let mut r = rng();
        let mut second = [0usize; 5];
        for _ in 0..400 {
            let taken = neighbourhood(&inst, &inc, 2, 6, NeighbourhoodRule::Related, &mut r, |c| {
                c == 4
            });
            assert_eq!(taken.len(), 3);
            assert_eq!(taken[0], 2);
            assert!(!taken.contains(&4));
            let mut sorted = taken.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 3, "{taken:?}");
            second[taken[1]] += 1;
        }
        assert_eq!(second[2] + second[4], 0);
        assert!(second[1] + second[3] > 3 * second[0], "{second:?}");
        assert!(second[0] > 0, "{second:?}");
    }

    #[test]
    fn every_rule_has_a_name() {
        use NeighbourhoodRule::*;
        for (name, rule) in [
            ("medoid", MedoidToSeed),
            ("closest", ClosestRecords),
            ("growth", MedoidGrowth),
            ("related", Related),
        ] {
            assert_eq!(NeighbourhoodRule::from_name(name), Some(rule));
        }
        assert_eq!(NeighbourhoodRule::from_name("nearest"), None);
    }

    #[test]
    fn growth_follows_the_data_away_from_the_seed() {
        // Classes {0,1} (seed), {10,11}, {-15,-14}, {20,21}: nearest to the seed are the classes
        // at 10 and -15; growing from the region, the class at 20 is nearer than the one at -15.
        let pts: [f64; 8] = [0.0, 1.0, 10.0, 11.0, -15.0, -14.0, 20.0, 21.0];
        let inst =
            Instance::from_distance(1.0, vec![2; 8], |i, j| (pts[i] - pts[j]).abs()).unwrap();
        let p = Partition::from_labels(&[0, 0, 1, 1, 2, 2, 3, 3]);
        let inc = Incumbent::new(&inst, SumCriterion::Dbil, &p, &[0.0; 8]);
        let take = |rule| neighbourhood(&inst, &inc, 0, 6, rule, &mut rng(), |_| false);
        assert_eq!(take(NeighbourhoodRule::MedoidToSeed), vec![0, 1, 2]);
        assert_eq!(take(NeighbourhoodRule::ClosestRecords), vec![0, 1, 2]);
        assert_eq!(take(NeighbourhoodRule::MedoidGrowth), vec![0, 1, 3]);
    }

    /// Under [`SeedBias::Room`] the one class with room (5 classes, weight 1 + 5 against 1)
    /// comes first in about 6 passes of 10; uniformly, in 2 of 10.
    #[test]
    fn room_draws_the_class_with_room_first() {
        let (inst, _) = line();
        let p = Partition::from_labels(&[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        let costs: Vec<i64> = p
            .classes()
            .iter()
            .map(|c| SumCriterion::Dbil.class_cost(&inst, c))
            .collect();
        // Bounds that add up to every class's cost but class 2's.
        let bounds: Vec<f64> = (0..10)
            .map(|i| match i / 2 {
                2 => 0.0,
                c => costs[c] as f64 / 2.0,
            })
            .collect();
        let inc = Incumbent::new(&inst, SumCriterion::Dbil, &p, &bounds);
        let first = |bias| {
            (0..400)
                .filter(|&s| {
                    SeedOrder::new(ChaCha8Rng::seed_from_u64(s), bias).next(&inc) == Some(2)
                })
                .count()
        };
        let room = first(SeedBias::Room);
        let uniform = first(SeedBias::Uniform);
        assert!((200..280).contains(&room), "{room} of 400");
        assert!((50..110).contains(&uniform), "{uniform} of 400");
    }

    #[test]
    fn a_pass_visits_every_class_once() {
        let (_, inc) = line();
        for bias in [SeedBias::Uniform, SeedBias::CostOverBound, SeedBias::Room] {
            let mut order = SeedOrder::new(ChaCha8Rng::seed_from_u64(7), bias);
            let mut seen: Vec<usize> = (0..5).map(|_| order.next(&inc).unwrap()).collect();
            assert_eq!(order.passes(), 1);
            seen.sort_unstable();
            assert_eq!(seen, vec![0, 1, 2, 3, 4]);
            order.next(&inc);
            assert_eq!(order.passes(), 2);
        }
    }
}
