#!/usr/bin/env python3
"""Pair runs of seed 1's games to 230 lines with row 27's whole games before levels 19 and 29.

    python3 pair-seed1-to230.py F [F ...]

Rows 23-27 play the same games to 230 lines, so `../field-seed1/row27-games-0-999.csv`'s
`before_19` and `before_29` are the default's there. Prints the paired gains with their
standard errors and the games lost before 130 and 230 lines.
"""
import os
import csv,sys,math
def load(f):
    return {int(r['game']):r for r in csv.DictReader(l for l in open(f) if not l.startswith('#'))}
base=load(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1', 'row27-games-0-999.csv'))
cand={}
for f in sys.argv[1:]: cand.update(load(f))
ks=sorted(cand)
for col in ['before_19','before_29']:
    d=[int(cand[k][col])-int(base[k][col]) for k in ks]; n=len(d); m=sum(d)/n
    sd=math.sqrt(sum((x-m)**2 for x in d)/(n-1)); print(col,n,f"{m:+,.0f} ± {sd/math.sqrt(n):,.0f}")
print('lost<130',sum(int(base[k]['lines'])<130 for k in ks),'->',sum(int(cand[k]['lines'])<130 for k in ks))
print('lost<230',sum(int(base[k]['lines'])<230 for k in ks),'->',sum(int(cand[k]['lines'])<230 for k in ks))
