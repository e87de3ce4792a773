#!/usr/bin/env python3
"""Row 31's boards at 230 lines against where its games ended: do the games lost early at
levels 29-38 start from tall or holed stacks? Extract ../dh105-blind4/hdb4-at230.tar.gz
first (its folders are not committed), then: python3 at230.py [FOLDER_WITH_hdb4-p230-*]."""
import collections
import csv
import glob
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
ended = {}
for g in (0, 500, 985):
    lines = [l for l in open(f"../dh105-blind4/hdb4-from230-{g}.csv") if not l.startswith("#")]
    for r in csv.DictReader(lines):
        ended[int(r["game"])] = int(r["lines"])


def stats(path):
    rows = open(path).read().split("board\n")[1].strip().splitlines()[:20]
    grid = [[c == "#" for c in row] for row in rows]
    heights, holes = [0] * 10, 0
    for x in range(10):
        seen = False
        for y in range(20):
            if grid[y][x]:
                if not seen:
                    heights[x], seen = 20 - y, True
            elif seen:
                holes += 1
    return max(heights[:9]), holes


def band(v, edges):
    """The range of `edges` (upper bounds, exclusive) that holds v: "0-3", ..., "12+"."""
    lo = 0
    for e in edges:
        if v < e:
            return f"{lo}-{e - 1}" if e - 1 > lo else f"{lo}"
        lo = e
    return f"{lo}+"


games = []
for p in glob.glob(f"{root}/hdb4-p230-*/game-*.txt"):
    g = int(re.search(r"game-(\d+)", p).group(1))
    if g in ended:
        games.append((g, ended[g], *stats(p)))
print(f"{len(games)} games at 230 lines")
for name, i, edges in [("tallest of columns 0-8", 2, [4, 6, 8, 10, 12]), ("holes", 3, [1, 2, 4])]:
    c = collections.defaultdict(lambda: [0, 0, 0])
    for row in games:
        b = band(row[i], edges)
        c[b][0] += 1
        c[b][1] += row[1] < 270
        c[b][2] += row[1] < 330
    print(f"| {name} | games | lost before 270 lines | lost before 330 |")
    print("|---|---:|---:|---:|")
    for b in [band(lo, edges) for lo in [0] + edges]:
        if b in c:
            print(f"| {b} | {c[b][0]} | {c[b][1]} | {c[b][2]} |")
early = sorted((g, l, h, o) for g, l, h, o in games if l < 270)
print("lost before 270 lines (game, lines, tallest at 230, holes at 230):", early)
