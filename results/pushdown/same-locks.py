#!/usr/bin/env python3
"""Row 29 against row 28 on pieces that do not depend on the frames (nes-seeded).

    python3 same-locks.py BASE.csv NEW.csv

BASE is a run without soft drop (`--pushdown false`, or a row-28 file), NEW the same
games with it. For every game both files hold, checks that the games are the same lock for
lock as far as the CSV tells (pieces, lines, level, Tetrises, Tetris lines, decisions) and
that NEW's score is BASE's plus NEW's soft_drop column; prints the games that differ and
the mean gain with its standard error.
"""
import csv
import statistics
import sys


def games(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[1]
    return head, {r[0]: dict(zip(head, r)) for r in rows[2:] if len(r) == len(head)}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    _, base = games(sys.argv[1])
    head, new = games(sys.argv[2])
    if "soft_drop" not in head:
        sys.exit(f"{sys.argv[2]} has no soft_drop column")
    same_cols = ["pieces", "lines", "level", "tetrises", "tetris_lines", "decisions"]
    common = sorted(set(base) & set(new), key=int)
    differ, gains, points_off = [], [], []
    for g in common:
        b, n = base[g], new[g]
        if any(b[c] != n[c] for c in same_cols):
            differ.append(g)
            continue
        gain = int(n["score"]) - int(b["score"])
        gains.append(gain)
        if gain != int(n["soft_drop"]):
            points_off.append(g)
    print(f"{len(common)} games in both; {len(differ)} differ in a lock count: {differ[:20]}")
    print(f"score gain equal to the soft_drop column in {len(gains) - len(points_off)} of {len(gains)}"
          + (f"; not in {points_off[:20]}" if points_off else ""))
    if len(gains) > 1:
        se = statistics.stdev(gains) / len(gains) ** 0.5
        print(f"gain {statistics.mean(gains):,.0f} +- {se:,.0f} a game "
              f"(min {min(gains):,}, max {max(gains):,})")


if __name__ == "__main__":
    main()
