#!/usr/bin/env python3
"""Paired and unpaired standard errors of a screen, and the correlation of its games with
the base's: how much the pairing on the same seeds buys.

    python3 paired.py BASE.csv CANDIDATE.csv COLUMN
        COLUMN: before_19, before_29, before_39, or levels_29_38 (before_39 less before_29:
        what games played on from positions at 230 lines differ in, without the part they
        share, which would add to the correlation)

Both files are `nestris bench --games-csv` files, read by `../field-seed1/pair.py`'s `rows`;
the games both played are paired by number. The paired standard error is that of the
per-game differences (`pair.py`'s `ms`); the unpaired one that of the difference of two
means of independent games of the same spreads.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1'))
from pair import ms, rows  # noqa: E402

KEYS = {'before_19': lambda r: r['b19'], 'before_29': lambda r: r['b29'],
        'before_39': lambda r: r['b39'], 'levels_29_38': lambda r: r['b39'] - r['b29']}

base, cand, col = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
key = KEYS[col]
games = sorted(set(base) & set(cand))
n = len(games)
x = [key(base[g]) for g in games]
y = [key(cand[g]) for g in games]
d, se_d = ms([q - p for p, q in zip(x, y)])
se_x, se_y = ms(x)[1], ms(y)[1]
# Variances from the standard errors; var(y - x) = var x + var y - 2 cov.
vx, vy, vd = n * se_x ** 2, n * se_y ** 2, n * se_d ** 2
corr = (vx + vy - vd) / (2 * math.sqrt(vx * vy))
print(f"{sys.argv[2]}: {n} games, {col}: {d:+,.0f}, paired s.e. {se_d:,.0f}, "
      f"unpaired s.e. {math.hypot(se_x, se_y):,.0f}, correlation {corr:.3f}")
