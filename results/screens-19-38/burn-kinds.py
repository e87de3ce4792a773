#!/usr/bin/env python3
"""Burned lines by kind, per level band, in a `bench --record-boards` file (well in column 9).

    python3 burn-kinds.py BOARDS

For each clear other than a Tetris, the board at the spawn of the piece that made it: with
holes; clean and Tetris-ready (4 or more rows full but for the well, from its bottom); clean
and not ready. A burn made by an I piece is counted apart (`-I`). Prints lines a game, and
for the clean ready burns the tallest of columns 0-8 and the ready rows.
"""
import collections
import csv
import importlib.util
import os
import sys

# board(), heights() and holes() are burns-by-band.py's.
_spec = importlib.util.spec_from_file_location(
    'burns_by_band', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'burns-by-band.py'))
_bbb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bbb)
board, heights, holes = _bbb.board, _bbb.heights, _bbb.holes

WELL_READY = 0x1FF  # a row's cells as recorded: bit x is column x; columns 0-8 full


def ready(b):
    n = 0
    for r in reversed(b):
        if r != WELL_READY:
            break
        n += 1
    return n


def band(level):
    return '18' if level < 19 else ('19-28' if level < 29 else '29+')


stat = collections.defaultdict(collections.Counter)
games, prev = set(), None
with open(sys.argv[1]) as f:
    for r in list(csv.reader(f))[1:]:
        if r[1] == 'end':
            prev = None
            continue
        game, level, count, piece, cells = int(r[0]), int(r[2]), int(r[3]), r[5], r[7]
        games.add(game)
        if prev and prev[0] == game and count > prev[2]:
            k, b, name = count - prev[2], board(prev[4]), band(prev[1])
            if k == 4:
                stat[name]['tetris'] += 4
            else:
                rd = ready(b)
                kind = 'holes' if holes(b) else ('clean-ready' if rd >= 4 else 'clean-not-ready')
                if prev[3] == 'I':
                    kind += '-I'
                stat[name][kind] += k
                stat[name]['burned'] += k
                if kind == 'clean-ready':
                    stat[name + ' clean-ready by tallest'][max(heights(b)[:9])] += k
                    stat[name + ' clean-ready by ready rows'][min(rd, 9)] += k
        prev = (game, level, count, piece, cells)
n = len(games)
print(f'{n} games; lines a game')
for name in sorted(stat):
    print(name + ': ' + ', '.join(f'{k} {v / n:.2f}' for k, v in sorted(stat[name].items())))
