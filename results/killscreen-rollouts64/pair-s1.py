#!/usr/bin/env python3
"""Pair runs from the headline's positions at 230 lines to 330 with row 28's whole games
(../fifth-ply/row28-games-0-999.csv) before level 39: mean gain, its standard error, and
the games lost before 330 lines. Usage: pair-s1.py CSV..."""
import csv, math, os, sys

def load(path):
    with open(path) as fh:
        rows = [l for l in fh if not l.startswith('#')]
    return {int(r['game']): r for r in csv.DictReader(rows) if r.get('game', '').isdigit()}

here = os.path.dirname(os.path.abspath(__file__))
base = load(os.path.join(here, '..', 'fifth-ply', 'row28-games-0-999.csv'))
cand = {}
for f in sys.argv[1:]:
    cand.update(load(f))
ks = sorted(k for k in cand if k in base)
if len(ks) < 2:
    sys.exit('fewer than two games to pair')
d = [int(cand[k]['before_39']) - int(base[k]['before_39']) for k in ks]
n = len(d)
m = sum(d) / n
sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
lost_b = sum(int(base[k]['lines']) < 330 for k in ks)
lost_c = sum(int(cand[k]['lines']) < 330 for k in ks)
bm = sum(int(base[k]['before_39']) for k in ks) / n
print(f"n={n} row 28 before level 39 {bm:,.0f}; gain {m:+,.0f} ± {sd / math.sqrt(n):,.0f}; "
      f"lost before 330 lines {lost_b} -> {lost_c}")
