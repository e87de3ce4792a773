#!/usr/bin/env python3
"""Holes the AI makes, and whether it had a clean choice: a diagnostic over `bench --record-boards`.

    python3 hole-census.py BOARDS[.gz] MIN_LEVEL MAX_LEVEL [NESTRIS]

For every spawn at levels MIN_LEVEL..=MAX_LEVEL whose piece cleared no line and left more
holes (empty cells under a filled cell in their column) than the board had, the placement
counts as a hole made. Such a hole is "healed" when the board two spawns later has no more
holes than the board before it (a cover and a clear planned with the next piece). Each
hole-making board is given to `nestris best --double-killscreen --top 200 --json` (NESTRIS,
by default `nestris` on the PATH) as a position with its current and next piece, and the
placements it lists are searched for a clean one: no line cleared, no hole added, the well
(column 9) not raised, no top-out; a board `best` refuses (a piece that cannot spawn on
it) is counted and the first refusal printed. Prints per game the hole-making placements, by piece,
how many healed, how many had a clean choice, and the mean rank of the best clean choice
in `best`'s list. Positions go to a temporary folder; nothing is kept.
"""
import collections
import csv
import gzip
import importlib.util
import json
import os
import subprocess
import sys
import tempfile


# board(), heights() and holes() are burns-by-band.py's (a recorded row's bit x is column x).
_spec = importlib.util.spec_from_file_location(
    'burns_by_band',
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'screens-19-38', 'burns-by-band.py'))
_bbb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bbb)
board, heights, holes = _bbb.board, _bbb.heights, _bbb.holes


def from_text(rows):
    """A board as `best --json` prints it (rows of `#`/`.`, top first) in the same bits."""
    return [sum(1 << x for x, ch in enumerate(r) if ch == '#') for r in rows]


def text_rows(b):
    return [''.join('#' if r >> x & 1 else '.' for x in range(10)) for r in b]


def main():
    path, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    exe = sys.argv[4] if len(sys.argv) > 4 else 'nestris'
    games = collections.defaultdict(list)
    with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as f:
        for r in csv.DictReader(f):
            if r['piece'] != 'end':
                games[r['game']].append(r)
    st = collections.Counter()
    by_piece = collections.Counter()
    rank_sum = 0
    refusal = None
    with tempfile.TemporaryDirectory() as tmp:
        for g, spawns in games.items():
            for i in range(len(spawns) - 1):
                a, b = spawns[i], spawns[i + 1]
                if not lo <= int(a['level']) <= hi:
                    continue
                st['spawns'] += 1
                ra, rb = board(a['board']), board(b['board'])
                h0 = holes(ra)
                if a['lines'] != b['lines'] or holes(rb) <= h0:
                    continue
                st['holes made'] += 1
                by_piece[a['current']] += 1
                if i + 2 < len(spawns) and holes(board(spawns[i + 2]['board'])) <= h0:
                    st['healed two spawns later'] += 1
                pos = os.path.join(tmp, 'p.txt')
                with open(pos, 'w') as out:
                    out.write('level %s\nlines %s\nscore %s\npiece %s\nnext %s\nboard\n'
                              % (a['level'], a['lines'], a['score'], a['current'], a['next']))
                    out.write('\n'.join(text_rows(ra)) + '\n')
                run = subprocess.run([exe, 'best', '--position', pos, '--double-killscreen',
                                      '--top', '200', '--json'], capture_output=True, text=True)
                if run.returncode:
                    st['refused by best'] += 1
                    refusal = refusal or run.stderr.strip()
                    continue
                well0 = heights(ra)[9]
                clean = [p for p in json.loads(run.stdout)['placements']
                         if p['cleared'] == 0 and not p['tops_out']
                         and holes(from_text(p['board'])) <= h0
                         and heights(from_text(p['board']))[9] == well0]
                if clean:
                    st['a clean choice reachable'] += 1
                    rank_sum += min(p['rank'] for p in clean)
    n = len(games)
    print(f'{n} games, levels {lo}-{hi}: {st["spawns"] / n:.1f} spawns a game')
    for k in ('holes made', 'healed two spawns later', 'a clean choice reachable',
              'refused by best'):
        print(f'  {k}: {st[k] / n:.2f} a game')
    if refusal:
        print(f'  the first refusal: {refusal}')
    print('  holes made by piece:', {p: round(v / n, 2) for p, v in sorted(by_piece.items())})
    if st['a clean choice reachable']:
        print(f'  mean rank of the best clean choice: {rank_sum / st["a clean choice reachable"]:.2f}')


if __name__ == '__main__':
    main()
