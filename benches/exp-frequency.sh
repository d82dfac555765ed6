#!/bin/sh
# Seed 001 figures 5.5-5.8 (the (f_l, f_c) sweep, k_m and k_c baselines, low and high levels,
# three heuristics) on 5,000 random Adult records, 10 % steps, seeds 1-2.
# Run time on the 2-core machine: 78 s measured with the release build
# (`cargo build --release`, binary target/release/optik). Run from the repository root.
exec optik experiment frequency --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 5000 --seeds 1,2 --step 10 --out docs/img/frequency --force "$@"
