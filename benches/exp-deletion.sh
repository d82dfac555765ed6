#!/bin/sh
# Seed 001 figure 5.10 (deleting the conservatives, k_m-anonymity of the rest, each deleted
# record costing 8 = one unit per attribute, over k_i-anonymity) with greedy k-member, as the
# seed, on 5,000 random Adult records, 10 % steps, seeds 1-2, low and high levels.
# Run time on the 2-core machine: 103 s measured with the release build
# (`cargo build --release`, binary target/release/optik). Run from the repository root.
exec optik experiment deletion --csv ../shared/data/adult/adult.csv --schema benches/adult.toml \
  --rows 5000 --seeds 1,2 --step 10 --heuristics kmember --out docs/img/deletion --force "$@"
