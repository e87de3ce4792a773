#!/usr/bin/env python3
"""Pairs runs played on from the headline's positions at 230 lines to 330 (seed 1, the game's
own picker) with row 27's whole games before level 39: a killscreen screen held out.

usage: tar xzf ../field-seed1/row23-at230-games-0-999.tar.gz      (rows 23-27 play these games to 230)
       nestris bench --double-killscreen --line-cap 330 --ai-line-cap 0 --games 500 \\
           --first-game 0|500 --seed 1 --continue p230 --threads 1 [options] --games-csv F
       python3 pair-seed1-to330.py F [F2 ...]"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1'))
from pair import ms, rows  # noqa: E402

base = rows(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1',
                         'row27-games-0-999.csv'))
cand = {}
for f in sys.argv[1:]:
    cand.update(rows(f))
ks = sorted(cand)
m, se = ms([cand[k]['b39'] - base[k]['b39'] for k in ks])
tl = [cand[k]['tl'] for k in ks if cand[k]['tl'] is not None]
print(f"{len(ks)} games: before level 39 {m:+,.0f} +- {se:,.0f} "
      f"(row 27 {sum(base[k]['b39'] for k in ks) / len(ks):,.0f} on them); "
      f"lost below 330 lines {sum(base[k]['lines'] < 330 for k in ks)} -> "
      f"{sum(cand[k]['lines'] < 330 for k in ks)}")
