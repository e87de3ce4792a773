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
import csv, glob, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIELD = os.path.join(HERE, '..', 'field-seed1')
BUCKETS_PER_DECADE = 40


def hists(path):
    out = {}
    with open(path) as fh:
        for r in csv.DictReader(l for l in fh if not l.startswith('#')):
            try:
                g = int(r['game'])
            except ValueError:
                continue
            h = {}
            for pair in r['decision_hist'].split():
                b, c = pair.split(':')
                h[int(b)] = h.get(int(b), 0) + int(c)
            out[g] = h
    return out


def bounds_ms(b):
    if b == 0:
        return 0.0, 1e-3
    return (10 ** ((b - 1) / BUCKETS_PER_DECADE) / 1000, 10 ** (b / BUCKETS_PER_DECADE) / 1000)


def nth_ms(h, k):
    before = 0
    for b in sorted(h):
        c = h[b]
        if c == 0:
            continue
        if k < before + c:
            lo, hi = bounds_ms(b)
            t = (k - before + 0.5) / c
            return hi * t if b == 0 else lo * (hi / lo) ** t
        before += c
    return 0.0


def pct(h, p):
    n = sum(h.values())
    rank = p / 100 * (n - 1)
    lo, hi = int(rank), -(-rank // 1)
    a, b = nth_ms(h, lo), nth_ms(h, int(hi))
    return a + (b - a) * (rank - lo)


def add(total, h, sign=1):
    for b, c in h.items():
        total[b] = total.get(b, 0) + sign * c


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
