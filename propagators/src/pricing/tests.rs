use super::*;
use crate::common::eq;
use crate::dual_bound::SumCriterion;
use crate::test_support::{assert_conflict, line, Harness};

/// Points 0, 1, 3, 10, 14 on a line, k = 2 (cap 3), duals 3, 3, 4, 8, 8, scale 1,000; record
/// variables with the given domains, the objective in [−10,000, 0].
fn post(
    domains: &[&[i32]],
) -> (
    Harness,
    Vec<DomainId>,
    DomainId,
    Result<(), pumpkin_core::state::Conflict>,
) {
    let (mut h, x) = Harness::new(domains);
    let objective = h.variable(-10_000, 0);
    let constraint_tag = h.tag();
    let duals = DualData {
        criterion: SumCriterion::Dbil,
        dist: line(&[0, 1, 3, 10, 14]),
        k: Arc::from(vec![2u32; 5]),
        pi: Arc::from(vec![3.0, 3.0, 4.0, 8.0, 8.0]),
        cuts: Arc::from(Vec::new()),
        z: 0.0,
        tolerance: 0.0,
        cmax: 2,
    };
    let result = h.post(ClassPricingConstructor {
        vars: x.clone(),
        objective,
        data: PricingData {
            duals,
            scale: 1000.0,
            cap: Arc::from(vec![0, 1, 3]),
        },
        constraint_tag,
    });
    (h, x, objective, result)
}

#[test]
fn class_pricing_bounds_the_objective_from_the_members_and_the_records_kept_out() {
    // Member 0, record 3 out: the best completion is {0, 1} (2·1 − 6 = −4).
    let (mut h, x, obj, result) = post(&[&[1], &[1, 2], &[1, 2], &[2], &[1, 2]]);
    result.expect("no conflict");
    assert_eq!(h.bounds(obj).0, -4000);
    h.assert_reason(ge(obj, -4000), &[eq(x[0], 1), ne(x[3], 1)]);
}

#[test]
fn class_pricing_removes_the_records_that_lift_the_bound_above_the_objective() {
    // {0, 4} costs at least 2·14 − 11 = 17 > 0: out at once. With rc ≤ −3.5, {0, 2} (at least
    // −1) goes too; {0, 1} (−4) stays.
    let (mut h, x, obj, result) = post(&[&[1], &[1, 2], &[1, 2], &[2], &[1, 2]]);
    result.expect("no conflict");
    assert_eq!(h.domain(x[4], 1, 2), vec![2]);
    h.assert_reason(ne(x[4], 1), &[eq(x[0], 1), ne(x[3], 1), le(obj, 0)]);
    assert_eq!(h.domain(x[2], 1, 2), vec![1, 2]);
    h.restrict(le(obj, -3500));
    h.propagate_once().expect("no conflict");
    assert_eq!(h.domain(x[2], 1, 2), vec![2]);
    assert_eq!(h.domain(x[1], 1, 2), vec![1, 2]);
    h.assert_reason(
        ne(x[2], 1),
        &[eq(x[0], 1), ne(x[3], 1), ne(x[4], 1), le(obj, -3500)],
    );
}

#[test]
fn class_pricing_fixes_the_objective_of_a_complete_class() {
    let (mut h, x, obj, result) = post(&[&[1], &[1], &[2], &[2], &[2]]);
    result.expect("no conflict");
    assert_eq!(h.bounds(obj), (-4000, -4000));
    let all = [
        eq(x[0], 1),
        eq(x[1], 1),
        ne(x[2], 1),
        ne(x[3], 1),
        ne(x[4], 1),
    ];
    h.assert_reason(le(obj, -4000), &all);
}

#[test]
fn class_pricing_gives_the_empty_class_zero() {
    let (h, _, obj, result) = post(&[&[2], &[2], &[2], &[2], &[2]]);
    result.expect("no conflict");
    assert_eq!(h.bounds(obj), (0, 0));
}

#[test]
fn class_pricing_fails_on_a_class_below_its_k_or_above_its_cap() {
    let (_, x, _, result) = post(&[&[1], &[2], &[2], &[2], &[2]]);
    assert_conflict(
        result,
        &[
            eq(x[0], 1),
            ne(x[1], 1),
            ne(x[2], 1),
            ne(x[3], 1),
            ne(x[4], 1),
        ],
    );
    let (_, x, _, result) = post(&[&[1], &[1], &[1], &[1], &[2]]);
    assert_conflict(
        result,
        &[
            eq(x[0], 1),
            eq(x[1], 1),
            eq(x[2], 1),
            eq(x[3], 1),
            ne(x[4], 1),
        ],
    );
}
