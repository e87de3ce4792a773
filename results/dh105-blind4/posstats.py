#!/usr/bin/env python3
"""The boards of saved positions (`bench --save-positions` folders), on average: the
tallest column, the filled cells and the rightmost column's height, in rows.

Usage: posstats.py FOLDER..."""
import glob
import statistics
import sys


def board_stats(path):
    lines = open(path).read().split('\n')
    rows = lines[lines.index('board') + 1:][:20]
    heights = [0] * 10
    for r, line in enumerate(rows):
        for c, ch in enumerate(line[:10]):
            if ch == '#' and heights[c] == 0:
                heights[c] = 20 - r
    return max(heights), sum(line.count('#') for line in rows), heights[9]


for folder in sys.argv[1:]:
    stats = [board_stats(f) for f in sorted(glob.glob(folder + '/game-*.txt'))]
    if not stats:
        sys.exit(f"{folder}: no game-*.txt position")
    tallest, cells, right = (statistics.mean(s[i] for s in stats) for i in range(3))
    print(f"{folder}: {len(stats)} boards, tallest column {tallest:.2f} rows, "
          f"{cells:.1f} cells, rightmost column {right:.2f} rows")
