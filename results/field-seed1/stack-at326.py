#!/usr/bin/env python3
"""How the stack a game brings to the double killscreen's table (row 23's positions at 326
lines, the games of row 24 from there) bears on what the game earns after it (docs/experiments.md, "After
row 24: the stack the double killscreen starts on").

usage: tar xzf row23-at326-games-0-999.tar.gz && python3 stack-at326.py"""
import os
from collections import defaultdict

from pair import rows


def board_of(path):
    text = open(path).read().split("\n")
    i = text.index("board")
    return text[i + 1:i + 21]


def main():
    games = rows("row24-games-0-999.csv")
    found = []
    for d in sorted(x for x in os.listdir(".") if x.startswith("p326-")):
        for f in sorted(os.listdir(d)):
            if not f.startswith("game-"):
                continue
            g = int(f[5:11])
            b = board_of(f"{d}/{f}")
            h = [next((20 - r for r in range(20) if b[r][c] == "#"), 0) for c in range(10)]
            holes = sum(1 for c in range(10) for r in range(20) if b[r][c] == "." and 20 - r < h[c])
            found.append((sum(h[:9]) / 9, holes, games[g]["lines"], games[g]["score"] - games[g]["b39"]))
    for name, key, cap in (("mean height of columns 0-8", lambda x: int(x[0]) // 2 * 2, 10),
                           ("holes", lambda x: x[1], 6)):
        groups = defaultdict(list)
        for x in found:
            groups[min(key(x), cap)].append(x)
        print(f"{name} (the last group: that or more)")
        for k in sorted(groups):
            xs = groups[k]
            lost = sum(1 for x in xs if x[2] < 340)
            print(f"  {k:>2}: {len(xs):3} games, {lost:3} lost before 340 lines ({lost / len(xs):.0%}), "
                  f"{sum(x[3] for x in xs) / len(xs):9,.0f} a game from level 39")


if __name__ == "__main__":
    main()
