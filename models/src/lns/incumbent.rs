//! The partition being improved, held as classes with stable ids, their costs and medoids: a
//! neighbourhood names the classes it frees, and a class that changed gets a new id, so any
//! record of "this neighbourhood was proven optimal" stays exact.

use super::cost::SumCriterion;
use super::oracle::DistanceOracle;
use crate::Partition;

/// One class of the incumbent.
#[derive(Clone, Debug)]
pub struct Class {
    /// Members in increasing record order.
    pub members: Vec<usize>,
    /// Integer cost under the search's criterion.
    pub cost: i64,
    /// The member with the least sum of distances to the others (its representative).
    pub medoid: usize,
    /// Σ of its members' per-record lower bounds (see [`SumCriterion::record_bound`]).
    pub bound: f64,
}

/// The incumbent partition: classes by id (ids are never reused; a removed class leaves `None`),
/// the class of every record and the objective.
#[derive(Clone, Debug)]
pub struct Incumbent {
    classes: Vec<Option<Class>>,
    class_of: Vec<usize>,
    objective: i64,
    live: usize,
}

impl Incumbent {
    /// The incumbent of a (valid) partition; `bounds` are the per-record lower bounds.
    pub fn new<O: DistanceOracle + ?Sized>(
        oracle: &O,
        criterion: SumCriterion,
        start: &Partition,
        bounds: &[f64],
    ) -> Self {
        let mut inc = Incumbent {
            classes: Vec::new(),
            class_of: vec![usize::MAX; start.len()],
            objective: 0,
            live: 0,
        };
        for members in start.classes() {
            inc.insert(oracle, criterion, members, bounds);
        }
        inc
    }

    fn insert<O: DistanceOracle + ?Sized>(
        &mut self,
        oracle: &O,
        criterion: SumCriterion,
        mut members: Vec<usize>,
        bounds: &[f64],
    ) -> usize {
        members.sort_unstable();
        let id = self.classes.len();
        for &i in &members {
            self.class_of[i] = id;
        }
        let cost = criterion.class_cost(oracle, &members);
        self.objective += cost;
        self.live += 1;
        self.classes.push(Some(Class {
            medoid: medoid(oracle, &members),
            bound: members.iter().map(|&i| bounds[i]).sum(),
            members,
            cost,
        }));
        id
    }

    /// The class with id `id`, if it still exists.
    pub fn class(&self, id: usize) -> Option<&Class> {
        self.classes.get(id).and_then(Option::as_ref)
    }

    /// Ids of the classes that exist, increasing.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.classes
            .iter()
            .enumerate()
            .filter_map(|(id, c)| c.as_ref().map(|_| id))
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.live
    }

    /// Number of records.
    pub fn n(&self) -> usize {
        self.class_of.len()
    }

    /// Id of record `i`'s class.
    pub fn class_of(&self, i: usize) -> usize {
        self.class_of[i]
    }

    /// Σ class costs.
    pub fn objective(&self) -> i64 {
        self.objective
    }

    /// Replaces the classes `old` (which must exist) by `new` (covering the same records);
    /// returns the new classes' ids.
    pub fn replace<O: DistanceOracle + ?Sized>(
        &mut self,
        oracle: &O,
        criterion: SumCriterion,
        old: &[usize],
        new: Vec<Vec<usize>>,
        bounds: &[f64],
    ) -> Vec<usize> {
        for &id in old {
            let c = self.classes[id].take().expect("a replaced class exists");
            self.objective -= c.cost;
            self.live -= 1;
        }
        new.into_iter()
            .map(|members| self.insert(oracle, criterion, members, bounds))
            .collect()
    }

    /// The incumbent as a [`Partition`].
    pub fn partition(&self) -> Partition {
        Partition::from_labels(&self.class_of)
    }
}

/// Member with the least sum of distances to the other members (the smallest on ties).
pub(crate) fn medoid<O: DistanceOracle + ?Sized>(oracle: &O, members: &[usize]) -> usize {
    members
        .iter()
        .map(|&i| (members.iter().map(|&j| oracle.d(i, j)).sum::<i64>(), i))
        .min()
        .map(|(_, i)| i)
        .expect("a class has a member")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Instance;

    #[test]
    fn replace_keeps_objective_and_labels_consistent() {
        let pts: [f64; 6] = [0.0, 1.0, 3.0, 10.0, 14.0, 15.0];
        let inst =
            Instance::from_distance(1.0, vec![2; 6], |i, j| (pts[i] - pts[j]).abs()).unwrap();
        let start = Partition::from_labels(&[0, 1, 0, 1, 2, 2]);
        let bounds = vec![0.0; 6];
        let mut inc = Incumbent::new(&inst, SumCriterion::Dbil, &start, &bounds);
        // {0,2}: 2·3, {1,3}: 2·9, {4,5}: 2·1
        assert_eq!(inc.objective(), 6 + 18 + 2);
        assert_eq!(inc.num_classes(), 3);
        assert_eq!(inc.class(2).unwrap().medoid, 4);
        let new = inc.replace(
            &inst,
            SumCriterion::Dbil,
            &[0, 1],
            vec![vec![2, 1, 0], vec![3]],
            &bounds,
        );
        assert_eq!(new, vec![3, 4]);
        assert_eq!(inc.objective(), 9 + 2);
        assert_eq!(inc.ids().collect::<Vec<_>>(), vec![2, 3, 4]);
        assert!(inc.class(0).is_none());
        assert_eq!(inc.class_of(3), 4);
        assert_eq!(inc.class(3).unwrap().members, vec![0, 1, 2]);
        assert_eq!(inc.class(3).unwrap().medoid, 1);
        assert_eq!(inc.partition(), Partition::from_labels(&[3, 3, 3, 4, 2, 2]));
    }
}
