#!/usr/bin/env python3
"""Percentiles of a --games-csv file's decision times by level band (its last four columns)."""
import sys, csv
PER = 40
def bounds(b):  # ms, as gamecsv::bounds_ms
    at = lambda k: 1e-3 * 10 ** (k / PER)
    return (0.0, at(0)) if b == 0 else (at(b - 1), at(b))
def pct(hist, p):
    n = sum(hist.values())
    if n == 0: return 0.0
    def nth(k):
        before = 0
        for b in sorted(hist):
            c = hist[b]
            if k < before + c:
                lo, hi = bounds(b); t = ((k - before) + 0.5) / c
                return hi * t if b == 0 else lo * (hi / lo) ** t
            before += c
    r = p / 100 * (n - 1); lo = int(r); hi = min(lo + 1, n - 1)
    a, bb = nth(lo), nth(hi); return a + (bb - a) * (r - lo)
for f in sys.argv[1:]:
    rows = [l for l in open(f) if not l.startswith('#')]
    bands = {k: {} for k in ('decisions_18', 'decisions_19', 'decisions_29', 'decisions_39')}
    total = {}
    for r in csv.DictReader(rows):
        for k in bands:
            parts = r[k].split('/')
            for bc in parts[2].split():
                b, c = map(int, bc.split(':'))
                bands[k][b] = bands[k].get(b, 0) + c
                total[b] = total.get(b, 0) + c
    out = [f"{f}:"]
    for k, h in list(bands.items()) + [('all', total)]:
        n = sum(h.values())
        if n: out.append(f"{k} n={n} p50 {pct(h,50):.2f} p90 {pct(h,90):.2f} p95 {pct(h,95):.2f} p99 {pct(h,99):.2f}")
    print('\n  '.join(out))
