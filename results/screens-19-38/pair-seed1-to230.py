#!/usr/bin/env python3
"""Pair runs of seed 1's games to 230 lines with row 27's whole games before levels 19 and 29.

    python3 pair-seed1-to230.py F [F ...]

Rows 23-27 play the same games to 230 lines, so `../field-seed1/row27-games-0-999.csv`'s
scores before levels 19 and 29 are the default's there. Prints the paired gains with their
standard errors (`../field-seed1/pair.py`'s `rows` and `ms`) and the games lost before 130
and 230 lines.
"""
import os, sys

FIELD = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1')
sys.path.insert(0, FIELD)
from pair import ms, rows  # noqa: E402

base = rows(os.path.join(FIELD, 'row27-games-0-999.csv'))
cand = {}
for f in sys.argv[1:]:
    cand.update(rows(f))
games = sorted(cand)
for key, name in (('b19', 'before level 19'), ('b29', 'before level 29')):
    m, se = ms([cand[g][key] - base[g][key] for g in games])
    print(f'{name}: {len(games)} games, {m:+,.0f} ± {se:,.0f}')
for cap in (130, 230):
    lost = [sum(s[g]['lines'] < cap for g in games) for s in (base, cand)]
    print(f'lost before {cap} lines: {lost[0]} -> {lost[1]}')
