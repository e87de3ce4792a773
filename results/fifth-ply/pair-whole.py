#!/usr/bin/env python3
"""Whole games of a candidate played in two parts, paired with row 27's whole games.

    python3 pair-whole.py --to230 A.csv [B.csv ...] --from230 C.csv [D.csv ...]

The candidate's games to 230 lines (`bench --line-cap 230 --save-positions P
--save-positions-at 230`) and their continuations from those positions (`bench --format
field --continue P`, which carry the scores before): a game is whole when it ended before
230 lines in the first part or has been played on in the second. Only whole games are
paired (a run stopped part-way is paired on the games it has passed, in ranges of 500), with
`../field-seed1/row27-games-0-999.csv` (`../field-seed1/pair.py`'s `rows` and `ms`).
"""
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1'))
from pair import rows, ms  # noqa: E402

args = sys.argv[1:]
if '--to230' not in args or '--from230' not in args:
    sys.exit(__doc__)
i, j = args.index('--to230'), args.index('--from230')
to230, from230 = {}, {}
for f in args[i + 1:j] if i < j else args[i + 1:]:
    to230.update(rows(f))
for f in args[j + 1:] if j > i else args[j + 1:i]:
    from230.update(rows(f))
# A game lost before 230 lines is whole from the start, but a run played in ranges of 500
# reaches it in its turn: it is paired once its range's run has played a later game, so a
# stopped run is paired on the games it has passed, lost ones included, and no others.
passed = {}
for g in from230:
    passed[g // 500] = max(passed.get(g // 500, -1), g)
whole = {g: r for g, r in to230.items() if r['lines'] < 230 and g < passed.get(g // 500, -1)}
whole.update(from230)
base = rows(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1',
                         'row27-games-0-999.csv'))
games = sorted(g for g in whole if g in base)
print(f'{len(games)} whole games (of {len(to230)} played to 230 lines)')
for key, name in (('score', 'score'), ('b19', 'before level 19'), ('b29', 'before level 29'),
                  ('b39', 'before level 39'), ('lines', 'lines')):
    m, se = ms([whole[g][key] - base[g][key] for g in games])
    mean = sum(whole[g][key] for g in games) / len(games)
    print(f'{name}: {mean:,.0f} against row 27 {mean - m:,.0f}: {m:+,.0f} ± {se:,.0f}')
for cap in (130, 230, 330, 430):
    lost = [sum(s[g]['lines'] < cap for g in games) for s in (base, whole)]
    print(f'below {cap} lines: {lost[0]} -> {lost[1]}')
