#!/usr/bin/env python3
"""Pair two games CSVs by game index: mean diff of a column, s.e., deaths below a line count,
and the pairing's worth (the runs' correlation, the s.e. two unrelated runs would give).

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
def var(v):
    # The sample variance (0 for fewer than two values).
    mu = sum(v)/len(v)
    return sum((x-mu)**2 for x in v)/(len(v)-1) if len(v) > 1 else 0
bv = [int(base[k][col]) for k in ks]; cv = [int(cand[k][col]) for k in ks]
d = [c - b for b, c in zip(bv, cv)]
n = len(d); m = sum(d)/n
sd = math.sqrt(var(d))
bm = sum(bv)/n
tl = sum(int(cand[k]['tetris_lines'])-int(base[k]['tetris_lines']) for k in ks)/n
lost_b = sum(int(base[k]['lines']) < below for k in ks); lost_c = sum(int(cand[k]['lines']) < below for k in ks)
# How much the pairing helps: the correlation of the two runs' values, and the s.e. the
# same difference would have from two unrelated runs of these sizes.
vb, vc = var(bv), var(cv)
corr = (vb + vc - sd*sd) / (2*math.sqrt(vb*vc)) if vb > 0 and vc > 0 else 0
unpaired = math.sqrt((vb + vc)/n) if n else 0
print(f"{sys.argv[2]}: n={n} base {col} {bm:,.0f} gain {m:+,.0f} ± {sd/math.sqrt(n):,.0f}  tetris lines {tl:+.2f}  lost<{below} {lost_b}->{lost_c}  (correlation {corr:.2f}; unpaired s.e. {unpaired:,.0f})")
