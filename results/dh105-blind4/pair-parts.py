#!/usr/bin/env python3
"""Row 31's decision: pair the candidate's whole games with row 30's, part by part.

Usage: pair-parts.py BASE CAND
BASE and CAND may each be several files joined by '+'; a later file's game replaces an
earlier file's. CAND holds whole games: the runs from the positions at 230 lines, which
also list their range's games lost before 230 lines, written first. Until a range is
finished, its figures therefore lean toward those lost games.

Prints the paired gain ± s.e. of the whole game, before level 29 and from level 29
(score - before_29), on the games both have. The rule set at stop 92: adopt
unless the part from level 29 is more than two standard errors below zero."""
import csv, math, sys


def load(arg):
    rows = {}
    for f in arg.split('+'):
        with open(f) as fh:
            for r in csv.DictReader(l for l in fh if not l.startswith('#')):
                rows[int(r['game'])] = r
    return rows


def paired(d):
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    return m, sd / math.sqrt(n)


base, cand = load(sys.argv[1]), load(sys.argv[2])
ks = sorted(set(base) & set(cand))
if not ks:
    sys.exit("no game in both")
parts = {
    'whole game': lambda r: int(r['score']),
    'before level 29': lambda r: int(r['before_29']),
    'from level 29': lambda r: int(r['score']) - int(r['before_29']),
}
print(f"{len(ks)} games in both")
for name, f in parts.items():
    m, se = paired([f(cand[k]) - f(base[k]) for k in ks])
    print(f"{name:16} {m:+10,.0f} ± {se:,.0f}  ({m / se if se else 0:+.2f} s.e.)")
for below in (230, 330, 430):
    lb = sum(int(base[k]['lines']) < below for k in ks)
    lc = sum(int(cand[k]['lines']) < below for k in ks)
    print(f"lost before {below} lines: {lb} -> {lc}")
