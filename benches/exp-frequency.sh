#!/bin/sh
# Seed 001 figures 5.5-5.8 (the (f_l, f_c) sweep, k_m and k_c baselines, low and high levels,
# three heuristics) on 2,000 random Adult records, 10 % steps, seeds 1-2.
# Run time on the 2-core machine: 81 s measured (dev build, opt-level 2; the machine was shared with
# other builds while it ran). Run from the repository root.
exec optik experiment frequency --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 2000 --seeds 1,2 --step 10 --out docs/img/frequency --force "$@"
