//! The shipped MiniZinc model solves a tiny exported instance to the brute-force optimum, for
//! every criterion (skipped, with a message, when `minizinc` is not installed).

use std::process::Command;

use crate::common::random_instance;
use optik_models::brute_force::brute_force;
use optik_models::export::to_dzn;
use optik_models::Criterion;

fn minizinc_available() -> bool {
    Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn minizinc_model_matches_brute_force() {
    if !minizinc_available() {
        println!("minizinc not found on PATH: skipping the MiniZinc cross-check");
        return;
    }
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/minizinc/ki_anonymity.mzn");
    let dir = std::env::temp_dir().join(format!("optik-mzn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 0..2u64 {
        let inst = random_instance(7, &[2, 2, 3], seed);
        let dzn = dir.join(format!("inst{seed}.dzn"));
        std::fs::write(&dzn, to_dzn(&inst)).unwrap();
        for c in Criterion::CLUSTERING {
            let min_classes = if c == Criterion::Split { 2 } else { 1 };
            let out = Command::new("minizinc")
                .args(["--solver", "gecode"])
                .arg(model)
                .arg(&dzn)
                .arg("-D")
                .arg(format!(
                    "criterion={}; min_classes={min_classes};",
                    c.name()
                ))
                .output()
                .expect("minizinc runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "minizinc failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let expected = brute_force(&inst, c, min_classes);
            match expected {
                None => assert!(text.contains("UNSATISFIABLE"), "{text}"),
                Some((_, v)) => {
                    assert!(text.contains("=========="), "not proven optimal: {text}");
                    let last = text
                        .lines()
                        .rev()
                        .find_map(|l| l.strip_prefix("objective = "))
                        .expect("an objective line");
                    let got: i64 = last.trim_end_matches(';').parse().unwrap();
                    assert_eq!(got, v, "{c:?} seed {seed}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
