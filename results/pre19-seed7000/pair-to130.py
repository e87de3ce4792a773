#!/usr/bin/env python3
"""Pair two games CSVs by game index: mean diff of a column, s.e., deaths below a line count.

Usage: pair-to130.py BASE CAND [COLUMN [LINES]]; BASE and CAND may each be several files
joined by '+' (the ranges of one run)."""
import csv, sys, math
def load(f):
    rows = {}
    with open(f) as fh:
        lines = [l for l in fh if not l.startswith('#')]
    for r in csv.DictReader(lines):
        try: rows[int(r['game'])] = r
        except: pass
    return rows
def load_all(arg):
    # Several files joined by '+' (the ranges of one run): their games together.
    rows = {}
    for f in arg.split('+'):
        rows.update(load(f))
    return rows
base, cand = load_all(sys.argv[1]), load_all(sys.argv[2])
col = sys.argv[3] if len(sys.argv) > 3 else 'score'
below = int(sys.argv[4]) if len(sys.argv) > 4 else 130
ks = sorted(set(base) & set(cand))
d = [int(cand[k][col]) - int(base[k][col]) for k in ks]
n = len(d); m = sum(d)/n
sd = math.sqrt(sum((x-m)**2 for x in d)/(n-1)) if n > 1 else 0
bm = sum(int(base[k][col]) for k in ks)/n
tl = sum(int(cand[k]['tetris_lines'])-int(base[k]['tetris_lines']) for k in ks)/n
lost_b = sum(int(base[k]['lines']) < below for k in ks); lost_c = sum(int(cand[k]['lines']) < below for k in ks)
print(f"{sys.argv[2]}: n={n} base {col} {bm:,.0f} gain {m:+,.0f} ± {sd/math.sqrt(n):,.0f}  tetris lines {tl:+.2f}  lost<{below} {lost_b}->{lost_c}")
