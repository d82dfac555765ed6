#!/bin/sh
# Seed 001 figure 5.9 (k_c over k_i for k_l = k_m - s, k_c = k_m + s, k_m = 3..35, personal
# profile) on 5,000 random Adult records, seeds 1-2, three heuristics.
# Run time on the 2-core machine: 355 s measured with the release build
# (`cargo build --release`, binary target/release/optik). Run from the repository root.
exec optik experiment scale --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 5000 --seeds 1,2 --max-km 35 --out docs/img/scale --force "$@"
