#!/usr/bin/env python3
"""Burned and Tetris lines by level band in a `bench --record-boards` file.

    python3 burns-by-band.py BOARDS

For each clear, the board at the spawn of the piece that made it: the band of its level
(18, 19-28, 29 on), the tallest column then, and whether the board had holes. Prints, per
band, the Tetris lines, the burned lines (singles, doubles, triples) split by the tallest
column and by holes, and the spawns' share by the tallest of columns 0-8.
"""
import collections, csv, sys


def board(h):
    return [int(h[i * 3:i * 3 + 3], 16) for i in range(20)]


def heights(b):
    """Column heights, column 0 first (a recorded row's bit x is column x; the well is 9)."""
    return [next((20 - i for i, r in enumerate(b) if r >> x & 1), 0) for x in range(10)]


def holes(b):
    n = 0
    for x in range(10):
        bit, seen = 1 << x, False
        for r in b:
            if r & bit:
                seen = True
            elif seen:
                n += 1
    return n


def band(level):
    return '18' if level < 19 else ('19-28' if level < 29 else '29+')


def main():
    lines = collections.defaultdict(collections.Counter)
    spawns = collections.defaultdict(collections.Counter)
    prev = None
    with open(sys.argv[1]) as f:
        for r in list(csv.reader(f))[1:]:
            if r[1] == 'end':
                prev = None
                continue
            game, level, count, cells = int(r[0]), int(r[2]), int(r[3]), r[7]
            spawns[band(level)][min(max(heights(board(cells))[:9]), 16)] += 1
            if prev and prev[0] == game and count > prev[2]:
                k, b = count - prev[2], board(prev[3])
                s = lines[band(prev[1])]
                if k == 4:
                    s['tetris'] += 4
                else:
                    mh = max(heights(b))
                    s['burned'] += k
                    s['tallest <=6' if mh <= 6 else 'tallest 7-9' if mh <= 9 else
                      'tallest 10-12' if mh <= 12 else 'tallest 13+'] += k
                    s['with holes' if holes(b) else 'clean'] += k
            prev = (game, level, count, cells)
    for name in sorted(lines):
        s = lines[name]
        rate = s['tetris'] / max(1, s['tetris'] + s['burned'])
        print(f"levels {name}: Tetris lines {s['tetris']}, burned {s['burned']} "
              f"(Tetris rate {100 * rate:.1f}%)")
        print('  burned: ' + ', '.join(f'{k} {s[k]}' for k in sorted(s) if k not in ('tetris', 'burned')))
    for name in sorted(spawns):
        c = spawns[name]
        tot = sum(c.values())
        print(f"levels {name}: spawns by the tallest of columns 0-8 (%): " +
              ' '.join(f'{h}:{100 * c[h] / tot:.0f}' for h in sorted(c)))


if __name__ == '__main__':
    main()
