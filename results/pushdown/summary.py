#!/usr/bin/env python3
"""Row 29's headline games so far, beside row 28's games of the same numbers.

    python3 summary.py [row29-s1-0.csv row29-s1-500.csv row29-s1-985.csv]

Prints, over the games the row-29 files hold: the mean score with its standard error, the
soft-drop points, lines, the games ended below 130/230/330 lines and at the 430-line cap,
the means before levels 19/29/39; then row 28's whole games of the same numbers
(`../fifth-ply/row28-games-0-999.csv`) and the difference. The two play other pieces from
the first soft drop on (the game's own picker steps every frame), so the difference is
unpaired: its standard error is that of two independent means. Last, the headline table's
figures (../field-seed1/report.py: percentiles, lines, Tetris rate) and the decision times
estimated from the runs' histograms (../fifth-ply/hist.py).
"""
import csv
import os
import statistics as st
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "field-seed1"))
sys.path.insert(0, os.path.join(HERE, "..", "fifth-ply"))
from hist import add, hists, pct  # noqa: E402
from pair import rows  # noqa: E402
from report import report  # noqa: E402

ROW28 = os.path.join(HERE, "..", "fifth-ply", "row28-games-0-999.csv")


def read(paths):
    out = {}
    for p in paths:
        with open(p) as f:
            rows = list(csv.reader(f))
        head = rows[1]
        for r in rows[2:]:
            if len(r) == len(head):
                out[int(r[0])] = dict(zip(head, r))
    return out


def stats(games, label):
    s = [int(g["score"]) for g in games]
    n = len(s)
    se = st.stdev(s) / n ** 0.5
    lines = [int(g["lines"]) for g in games]
    below = lambda c: sum(1 for x in lines if x < c)
    pre = [st.mean(int(g[k]) for g in games) for k in ("before_19", "before_29", "before_39")]
    print(f"{label}: {n} games, mean {st.mean(s):,.0f} +- {se:,.0f}, lines {st.mean(lines):.1f}, "
          f"below 130/230/330: {below(130)}/{below(230)}/{below(330)}, "
          f"at the cap: {sum(1 for x in lines if x >= 430)}, "
          f"before 19/29/39: {pre[0]:,.0f} / {pre[1]:,.0f} / {pre[2]:,.0f}")
    if "soft_drop" in games[0]:
        sd = [int(g["soft_drop"]) for g in games]
        print(f"  soft-drop points {st.mean(sd):,.0f} +- {st.stdev(sd) / n ** 0.5:,.0f} a game")
    return st.mean(s), se


def main():
    paths = sys.argv[1:] or [
        p
        for p in (os.path.join(HERE, f"row29-s1-{g}.csv") for g in (0, 500, 985))
        if os.path.exists(p)
    ]
    new = read(paths)
    old = read([ROW28])
    keys = sorted(k for k in new if k in old)
    m1, s1 = stats([new[k] for k in keys], "row 29")
    m0, s0 = stats([old[k] for k in keys], "row 28, the same game numbers")
    print(f"difference {m1 - m0:+,.0f} +- {(s0 * s0 + s1 * s1) ** 0.5:,.0f} (unpaired)")
    games, decisions = {}, {}
    for p in paths:
        games.update(rows(p))
        for h in hists(p).values():
            add(decisions, h)
    report([games[g] for g in sorted(games)], "row 29, the headline's figures")
    print(f"  decisions {sum(decisions.values()):,}: median {pct(decisions, 50):.2f} ms, "
          f"p99 {pct(decisions, 99):.1f} ms (estimated from the runs' histograms)")


if __name__ == "__main__":
    main()
