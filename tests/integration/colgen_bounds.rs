//! Column generation stopped early on a real instance: its lower bound stays below the proven
//! optimum. (A Lagrangian bound read after the round's columns had moved to the master once
//! took the round's LP value for a bound: on this instance the early rounds' LP values lie
//! far above the optimum, so a run stopped there reported them.)

use crate::common::{adult_sample, adult_schema};
use optik::{Dataset, KSource, LoadOptions, Schema, SchemaSource};
use optik_models::{solve_colgen, ColgenOptions, Criterion, Status};
use std::time::Duration;

#[test]
fn early_stops_report_bounds_below_the_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let csv = adult_sample(dir.path(), 100);
    let schema = Schema::load(&SchemaSource::File(adult_schema(dir.path()))).unwrap();
    let ds = Dataset::load(
        &csv,
        schema,
        &KSource::Distribution {
            dist: vec![(3, 0.823), (5, 0.168), (7, 0.009)],
            seed: 1,
        },
        &LoadOptions::default(),
    )
    .unwrap();
    let inst = ds.distance().instance(ds.k().to_vec(), 1000.0).unwrap();
    let full = solve_colgen(
        &inst,
        ColgenOptions {
            criterion: Criterion::Dbil,
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    assert_eq!(full.status, Status::Optimal, "{:?}", full.note);
    let opt = full.objective.unwrap();
    for ms in [100, 300, 1_000, 2_000] {
        let r = solve_colgen(
            &inst,
            ColgenOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(Duration::from_millis(ms)),
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        let lb = r.lower_bound.unwrap();
        assert!(
            lb <= opt,
            "{ms} ms: bound {lb} above the optimum {opt} ({:?})",
            r.note
        );
        if r.status == Status::Optimal {
            assert_eq!(r.objective, Some(opt));
        }
    }
}
