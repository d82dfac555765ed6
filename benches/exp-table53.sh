#!/bin/sh
# Seed 001 table 5.3 (k_c- and k_m-anonymity over k_i-anonymity, four distributions, low and
# high levels, random and correlated k_i) on 5,000 random Adult records, seeds 1-3.
# Run time on the 2-core machine: 106 s measured (dev build, opt-level 2; the machine was shared with
# other builds while it ran). Run from the repository root.
exec optik experiment table53 --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 5000 --seeds 1,2,3 --out docs/img/table53 --force "$@"
