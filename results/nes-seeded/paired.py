#!/usr/bin/env python3
"""Paired and unpaired standard errors of a screen, and the correlation of its games with
the base's: how much the pairing on the same seeds buys.

    python3 paired.py BASE.csv CANDIDATE.csv COLUMN      (COLUMN: before_19, before_29, ...)

Both files are `nestris bench --games-csv` files; the games both played are paired by
number. The paired standard error is that of the per-game differences; the unpaired one
that of the difference of two means of independent games of the same spreads.
"""
import csv
import math
import sys


def rows(path):
    with open(path) as f:
        return {int(r['game']): r for r in csv.DictReader(l for l in f if not l.startswith('#'))}


def mean(v):
    return sum(v) / len(v)


def sd(v):
    m = mean(v)
    return math.sqrt(sum((t - m) ** 2 for t in v) / (len(v) - 1))


base, cand, col = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
games = sorted(set(base) & set(cand))
x = [float(base[g][col]) for g in games]
y = [float(cand[g][col]) for g in games]
n = len(games)
d = [q - p for p, q in zip(x, y)]
cov = sum((p - mean(x)) * (q - mean(y)) for p, q in zip(x, y)) / (n - 1)
print(f"{sys.argv[2]}: {n} games, {col}: {mean(d):+,.0f}, paired s.e. {sd(d) / math.sqrt(n):,.0f}, "
      f"unpaired s.e. {math.sqrt(sd(x) ** 2 + sd(y) ** 2) / math.sqrt(n):,.0f}, "
      f"correlation {cov / (sd(x) * sd(y)):.3f}")
