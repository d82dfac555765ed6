#!/bin/sh
# Seed 001 figure 5.9 (k_c over k_i for k_l = k_m - s, k_c = k_m + s, k_m = 3..15, personal
# profile) on 2,000 random Adult records, seeds 1-2, three heuristics.
# Run time on the 2-core machine: 69 s measured (dev build, opt-level 2; the machine was shared with
# other builds while it ran). Run from the repository root.
exec optik experiment scale --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 2000 --seeds 1,2 --max-km 15 --out docs/img/scale --force "$@"
