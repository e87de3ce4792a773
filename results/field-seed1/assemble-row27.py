#!/usr/bin/env python3
"""Row 27 on the headline's games, from the files in this folder.

Row 27 (the killscreen's playouts' first two pieces by two plies, `rollout_lookahead` 4 at
levels 29-38; docs/experiments.md "Row 27") changes the game from 230 lines on, so its games are row 26's
whole games (row26-games-0-999.csv) up to there: the 6 games that ended before 230 lines are
row 26's, and every other game is row 27's, played on from row 23's position at 230 lines
(row23-at230-games-0-999.tar.gz; rows 23-26 play the same games to 230 lines) by

    nestris bench --format field --games 500 --first-game G --seed 1 --continue p230 \\
        --threads 1 --save-positions p326-r27-G --save-positions-at 326 \\
        --games-csv row27-from230-G.csv        (G = 0 and 500, resumable with --resume)

(games 975-999 were split off the second run to a third, `--games 25 --first-game 975`,
row27-from230-975.csv, at the end, to share the 2 cores); the runs' rows are whole games
(the counts before 230 lines added from p230/results.csv) named by their game numbers.

Until the runs are complete, this prints row 27's games played so far paired with row 26's
same games (score, before level 39, games lost before 330 lines); once all 1000 are there it
writes row27-games-0-999.csv and prints the headline's figures, as assemble-row26.py does.

usage: python3 assemble-row27.py [row27-from230-0.csv row27-from230-500.csv row27-from230-975.csv]
"""
import sys

from pair import ms, rows
from report import report_and_write

runs = sys.argv[1:] or ["row27-from230-0.csv", "row27-from230-500.csv", "row27-from230-975.csv"]
base = rows("row26-games-0-999.csv")
played = {}
for f in runs:
    played.update(rows(f))

ended_before_230 = [g for g in base if base[g]["lines"] < 230]
new = sorted(g for g in played if g not in ended_before_230)
d = [played[g]["score"] - base[g]["score"] for g in new]
d39 = [played[g]["b39"] - base[g]["b39"] for g in new]
if len(new) > 1:
    m, se = ms(d)
    m39, se39 = ms(d39)
    lost = lambda rs: sum(1 for r in rs if r["lines"] < 330)
    print(f"row 27 against row 26 on {len(new)} games played from 230 lines: {m:+,.0f} +- {se:,.0f} "
          f"(row 26 {sum(base[g]['score'] for g in new) / len(new):,.0f}, "
          f"row 27 {sum(played[g]['score'] for g in new) / len(new):,.0f}); "
          f"before level 39 {m39:+,.0f} +- {se39:,.0f}; lost before 330 lines "
          f"{lost([base[g] for g in new])} -> {lost([played[g] for g in new])}; at the cap "
          f"{sum(1 for g in new if base[g]['lines'] >= 430)} -> {sum(1 for g in new if played[g]['lines'] >= 430)}")

missing = [g for g in base if g not in played and g not in ended_before_230]
if missing:
    print(f"{len(missing)} games still to play (the first {missing[0]}); row27-games-0-999.csv not written")
    sys.exit(0)

games = {}
source = {}
for g in base:
    if g in ended_before_230:
        games[g] = base[g]
        source[g] = "row 26 whole game (ended before 230 lines, identical)"
    else:
        games[g] = dict(played[g], tl=None)
        source[g] = "row 27 from row 23's position at 230 lines"
report_and_write(games, source, "row27-games-0-999.csv",
                 "row 27 (the default since 2026-11-28), field format, seed 1; assemble-row27.py wrote it")
