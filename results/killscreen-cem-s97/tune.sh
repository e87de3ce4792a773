#!/bin/sh
# Killscreen table CEM (stop 97): resumable; run the same command again to go on.
# NESTRIS: the binary (default: nestris on the PATH); run from the folder holding t610-all.
exec "${NESTRIS:-nestris}" tune --continue t610-all --line-cap 330 --ai-line-cap 0 --double-killscreen \
  --seed 610000 --games 50 --population 10 --elite 3 --sigma 0.15 --noise 0.03 --generations 12 \
  --tune-seed 97 --topout-cost 350000 \
  --params killscreen.danger_height,killscreen.danger,killscreen.burns,killscreen.tetrises,killscreen.column_holes,killscreen.holes,killscreen.row_transitions,killscreen.column_transitions,killscreen.covered_cells,killscreen.well_blocks,killscreen.unreachable_columns,killscreen.surface,killscreen.i_dependency,killscreen.well_depth \
  --rollouts-killscreen 8 --rollout-locks 4 \
  --state ks-cem-state.toml --out ks-cem.toml
