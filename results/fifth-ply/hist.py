"""Decision-time histograms of `nestris bench --games-csv` files (the `decision_hist`
column: bucket:count pairs, 40 buckets a decade of milliseconds) and the median and p99 that
`nestris bench` estimates from them (each bucket's decisions spread evenly on a log scale).
median-with.py and assemble-row28.py read them."""
import csv

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
