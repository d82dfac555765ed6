#!/bin/sh
# Seed 001 table 5.3 (k_c- and k_m-anonymity over k_i-anonymity, four distributions, low and
# high levels, random and correlated k_i) on the whole Adult table (30,162 records), seeds 1-3.
# Run time on the 2-core machine: 643 s measured with the release build
# (`cargo build --release`, binary target/release/optik). Add `--rows 5000` for a 2-minute
# sample. Run from the repository root.
exec optik experiment table53 --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows all --seeds 1,2,3 --out docs/img/table53 --force "$@"
