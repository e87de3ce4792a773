#!/usr/bin/env python3
"""Row 28 on the headline's games, from the files in this folder.

Row 28 (the fifth ply, the fourth ply's piece by two plies and the commitment at levels
19-28 by the third ply; docs/experiments.md "Row 28") was played in two parts: its own games to 230
lines (c3-to230-0.csv, c3-to230-500.csv, positions saved at 230 lines in c3-at230.tar.gz),
then each game alive there played on from its position by

    nestris bench --format field --games 500 --first-game G --seed 1 --continue c3-p230-G \\
        --threads 1 --fifth-ply 2 --fourth-ply-lookahead 2 --deep-commit 6 \\
        --save-positions c3-p326-G --save-positions-at 326 \\
        --games-csv c3-from230-G.csv        (G = 0 and 500, resumable with --resume)

The positions carry the scores and decision times before 230 lines, so a continuation's
row is the whole game; a game that ended before 230 lines has no position, and the
continuation writes it as its run to 230 lines left it.

Until the runs are complete, this prints the games played so far (row 28's figures, and
paired with row 27's same games: after 230 lines the two are unpaired, the game's picker
dealing other pieces once the play differs) and the decision times; once all 1000 are
there it writes row28-games-0-999.csv and prints the headline's figures, as
../field-seed1/assemble-row27.py does.

usage: python3 assemble-row28.py [c3-from230-0.csv c3-from230-500.csv]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIELD = os.path.join(HERE, '..', 'field-seed1')
sys.path.insert(0, HERE)
sys.path.insert(0, FIELD)
from hist import add, hists, pct  # noqa: E402
from pair import ms, rows  # noqa: E402
from report import report, report_and_write  # noqa: E402

runs = sys.argv[1:] or [os.path.join(HERE, f'c3-from230-{g}.csv') for g in (0, 500)]
to230_files = [os.path.join(HERE, f'c3-to230-{g}.csv') for g in (0, 500)]
to230 = {}
for f in to230_files:
    to230.update(rows(f))
played, played_hist = {}, {}
for f in runs:
    played.update(rows(f))
    played_hist.update(hists(f))
if len(to230) != 1000:
    sys.exit(f'{len(to230)} games in the runs to 230 lines, not 1000')
ended_before_230 = {g for g in to230 if to230[g]['lines'] < 230}
# A continuation run plays every game of its range: one that ended before 230 lines (it has
# no position) is written as its run to 230 lines left it.
for g in played:
    if g not in to230:
        sys.exit(f'game {g}: played on from 230 lines but not in the runs to 230')
    if g in ended_before_230 and played[g] != to230[g]:
        sys.exit(f'game {g}: ended before 230 lines, but the continuation differs')
games, hist_of, source = {}, {}, {}
for g in sorted(played):
    games[g] = dict(played[g], tl=None)
    hist_of[g] = played_hist[g]
    source[g] = ('row 28 to 230 lines (ended before 230 lines)' if g in ended_before_230
                 else 'row 28 from its position at 230 lines')

decisions = {}
for g in games:
    add(decisions, hist_of[g])
base = rows(os.path.join(FIELD, 'row27-games-0-999.csv'))
paired = sorted(games)
if len(paired) > 1:
    for key, name in (('score', 'score'), ('b19', 'before level 19'), ('b29', 'before level 29'),
                      ('b39', 'before level 39'), ('lines', 'lines')):
        m, se = ms([games[g][key] - base[g][key] for g in paired])
        print(f'{name}: against row 27 on the same {len(paired)} games {m:+,.0f} +- {se:,.0f}')
    for cap in (130, 230, 330):
        print(f'below {cap} lines: row 27 {sum(base[g]["lines"] < cap for g in paired)} -> '
              f'row 28 {sum(games[g]["lines"] < cap for g in paired)}')
    print(f'decisions: {sum(decisions.values())}, median {pct(decisions, 50):.2f} ms, '
          f'p99 {pct(decisions, 99):.1f} ms (estimated from the runs\' histograms)')

if len(games) < 1000:
    if len(games) > 1:
        report([games[g] for g in paired], f'row 28 so far ({len(paired)} whole games)')
    print(f'{1000 - len(games)} games still to play; row28-games-0-999.csv not written')
    sys.exit(0)
report_and_write(games, source, os.path.join(HERE, 'row28-games-0-999.csv'),
                 'row 28 (the default since stop 72), field format, seed 1; '
                 'assemble-row28.py wrote it')
