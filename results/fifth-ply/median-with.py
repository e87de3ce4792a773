#!/usr/bin/env python3
"""The whole games' decision-time median and p99 with a new play to 230 lines.

    python3 median-with.py NEW_TO230.csv [NEW_TO230.csv ...]

Row 27's whole games (`../field-seed1/row27-from230-*.csv`) carry in their histograms the
decisions before 230 lines of row 23's run there (`row23-to230-games-0-999.csv`, the
positions' own); for each game of the new runs, those are taken out and the new run's
decisions to 230 lines put in, so the figures are those of the whole games row 27 would
play after the new play's first 230 lines (the search from 230 lines on is row 27's; its
own games from there are not the new play's). Prints the median and p99 as `nestris bench`
estimates them (each bucket's decisions spread evenly on a log scale), for row 27 and with
the new play.
"""
import glob, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hist import add, hists, pct  # noqa: E402

FIELD = os.path.join(HERE, '..', 'field-seed1')
whole = {}
for f in sorted(glob.glob(os.path.join(FIELD, 'row27-from230-*.csv'))):
    whole.update(hists(f))
old = hists(os.path.join(FIELD, 'row23-to230-games-0-999.csv'))
new = {}
for f in sys.argv[1:]:
    new.update(hists(f))
games = sorted(new)
base, cand = {}, {}
for g in games:
    if g in whole:
        add(base, whole[g])
        after = dict(whole[g])
        add(after, old[g], -1)
        if any(c < 0 for c in after.values()):
            sys.exit(f'game {g}: row 27 histogram does not hold row 23 to 230 lines')
        add(cand, after)
    else:  # lost before 230 lines: the whole game is the run's
        add(base, old[g])
    add(cand, new[g])
for name, h in (('row 27', base), ('with the new play to 230 lines', cand)):
    print(f'{name}: {len(games)} games, {sum(h.values())} decisions, median {pct(h, 50):.2f} ms, p99 {pct(h, 99):.1f} ms')
