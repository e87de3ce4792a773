"""Unpaired comparison of the part from 230 to 330 lines (before_39 - before_29) and of
before_39, between two sets of games (files joined with +), on the games both have."""
import csv, math, sys

def load(spec):
    d = {}
    for f in spec.split('+'):
        for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
            d[int(r['game'])] = r
    return d

def stats(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(v / n)

a, b = load(sys.argv[1]), load(sys.argv[2])
games = sorted(set(a) & set(b))
for key in ['segment', 'before_39']:
    val = (lambda r: int(r['before_39']) - int(r['before_29'])) if key == 'segment' else (lambda r: int(r['before_39']))
    ma, sa = stats([val(a[g]) for g in games])
    mb, sb = stats([val(b[g]) for g in games])
    print(f"{key}: n={len(games)} base {ma:,.0f} ± {sa:,.0f}  candidate {mb:,.0f} ± {sb:,.0f}  "
          f"difference {mb - ma:+,.0f} ± {math.hypot(sa, sb):,.0f}")
lost = lambda d: sum(1 for g in games if int(d[g]['lines']) < 330)
tl = lambda d: sum(int(d[g]['tetris_lines']) for g in games) / len(games)
print(f"lost before 330 lines {lost(a)} -> {lost(b)}; tetris lines a game {tl(a):.1f} -> {tl(b):.1f} (whole game)")
