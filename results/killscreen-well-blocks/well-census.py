#!/usr/bin/env python3
"""Where the killscreen's burned lines are made, by the well's state (well in column 9).

    python3 well-census.py BOARDS [MIN_LEVEL MAX_LEVEL]

BOARDS is a `bench --record-boards` file (plain or .gz). For each clear at levels
MIN_LEVEL..MAX_LEVEL (29 and 38 by default) other than a Tetris, the board at the spawn of the
piece that made it: clean; with holes and the well covered (a hole in column 9); with holes
and the well open. A burn on a board with holes is split again by whether it left fewer
holes. Also counts the placements that cleared nothing and made a hole, and those that made
one in the well column (the well covered), by piece. Prints lines and placements a game.
"""
import collections
import csv
import gzip
import importlib.util
import os
import sys

# board() and holes() are burns-by-band.py's.
_spec = importlib.util.spec_from_file_location(
    'burns_by_band',
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'screens-19-38',
                 'burns-by-band.py'))
_bbb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bbb)
board, holes = _bbb.board, _bbb.holes

WELL = 9


def hole_columns(b):
    cols = set()
    for x in range(10):
        seen = False
        for r in b:
            if r >> x & 1:
                seen = True
            elif seen:
                cols.add(x)
    return cols


def main():
    path = sys.argv[1]
    lo = int(sys.argv[2]) if len(sys.argv) > 2 else 29
    hi = int(sys.argv[3]) if len(sys.argv) > 3 else 38
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        rows = list(csv.reader(f))[1:]
    c, covers, games = collections.Counter(), collections.Counter(), set()
    for a, b in zip(rows, rows[1:]):
        if a[1] == 'end' or b[1] == 'end' or a[0] != b[0] or not lo <= int(a[2]) <= hi:
            continue
        games.add(a[0])
        k = int(b[3]) - int(a[3])
        before, after = board(a[7]), board(b[7])
        hb, ha = holes(before), holes(after)
        if k == 0:
            if ha > hb:
                c['placements making a hole'] += 1
                if WELL in hole_columns(after) - hole_columns(before):
                    c['placements covering the well'] += 1
                    covers[a[5]] += 1
        elif k == 4:
            c['Tetris lines'] += 4
        elif hb == 0:
            c['burned on clean boards'] += k
        else:
            well = 'well covered' if WELL in hole_columns(before) else 'well open'
            c[f'burned with holes, {well}'] += k
            fell = 'fewer holes after' if ha < hb else 'as many holes or more after'
            c[f'burned with holes, {well}, {fell}'] += k
    n = len(games)
    print(f'{n} games, levels {lo}-{hi}; a game:')
    for key, v in sorted(c.items()):
        print(f'  {key}: {v / n:.2f}')
    print('  the well covered, by piece: ' +
          ', '.join(f'{p} {v / n:.2f}' for p, v in covers.most_common()))


main()
